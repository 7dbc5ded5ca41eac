/*
 * tr-waits for MPI: from the events and tr-deps' edges, the wait states
 * of MPI activities (which pattern, how long) and the blame for each.
 *
 * An MPI activity's wait is decided once it has left and every edge into
 * it has been read: one per receive in it, one per send in it for a
 * blocking send (Late Receiver is read off the message edge), and the
 * instance record for a collective. Of the edges, the one from the latest
 * cause wins: the activity waited from its enter to that cause, never
 * longer than it lasted. The wait is blamed on the causing stream's
 * activities between its previous blocking MPI call and the cause.
 */
#ifndef AN_WAITS_H
#define AN_WAITS_H

#include <stdbool.h>
#include <stdint.h>

#include "../libstream/writer.h"
#include "blame.h"
#include "gpu/waits.h"
#include "omp/waits.h"
#include "waitrec.h"
#include "../libstream/idmap.h"
#include "trace.h"

/* An MPI activity the analysis follows. */
struct an_act {
	uint64_t id, leave;	/* enter and leave event ids */
	int64_t t0, t1;		/* entered, left */
	uint32_t s, proc;	/* stream and process index */
	uint32_t region;	/* index */
	uint32_t comm;		/* collectives: comm index from the end event */
	uint32_t inputs;	/* edges still to come, +1 while open */
	uint32_t refs;		/* reasons to keep it: free at 0 */
	uint8_t role;
	bool live, open;
	/* its wait so far: the latest cause */
	uint8_t pattern;
	int64_t cause_t;	/* t0 while there is none */
	uint64_t cause_ev;
	uint32_t cause_act;	/* whose interval the wait is blamed on */
	struct an_interval before;	/* the causing stream's time before it */
};

/* A send, receive or posted receive waiting for its edge. */
struct an_pending {
	uint32_t act;
	int64_t t;		/* send: its activity's enter; else the event's t */
	uint64_t ev, req;
	bool has_req, send;
	uint32_t order, peer;	/* send: its node in the receiver's order queue */
};

/* A send to a process, by when it began: for Messages in Wrong Order. */
struct an_order_node {
	int64_t t;
	uint32_t next;
	bool received;
};

struct an_order_queue {
	uint32_t head, tail;
};

/*
 * Per stream: exclusive time since its last blocking MPI call. Kept on an
 * MPI process's first host thread (one with a rank), and on any other from
 * its first MPI call: only a stream that calls MPI can cause a wait, and
 * GPU streams, worker threads and processes that never call MPI (a
 * PyTorch trace) would otherwise gather shares without end.
 */
struct an_stream_time {
	int64_t last;		/* when the top activity last changed */
	uint32_t in_mpi;	/* blocking MPI activities open */
	bool kept;
	struct an_interval now;
};

struct an_waits_stats {
	uint64_t clock, clamped, stray_edges, undecided, outside;
};

struct an_waits {
	struct an_trace tr;
	struct an_stream_time *time;	/* per stream index */
	uint32_t time_cap;
	struct an_act *acts;
	uint32_t nacts, acts_cap, free_act;
	struct an_pending *pend;
	uint32_t npend, pend_cap, free_pend;
	struct ls_idmap ev_ix;		/* event id -> pending (sends, receives) */
	struct ls_idmap act_ix;		/* collective enter/leave id -> act */
	struct ls_idmap post_ix;	/* (process << 40 | req) -> pending post */
	struct an_order_node *order;
	uint32_t norder, order_cap, free_order;
	struct an_order_queue *queues;	/* per process index */
	uint32_t queues_cap;
	struct an_waitrec out;		/* wait states, blame, tallies */
	struct an_gwaits g;		/* CUDA */
	struct an_ompwaits omp;		/* OpenMP locks and joins */
	struct an_waits_stats st;
};

/* Write wait and blame records to w (borrowed). */
void an_waits_init(struct an_waits *a, struct ls_writer *w);

/*
 * Take one input record, after it has been written on; wait states it
 * decides are written after it. Returns 0, or a negative error:
 * LS_ERR_SYNTAX with *why set, LS_ERR_NOMEM, or a writer error.
 */
int an_waits_take(struct an_waits *a, const struct ls_record *rec,
		  const char **why);

/* The kinds whose fields an_waits_take reads (LS_KIND_BIT): the others it passes over. */
uint64_t an_waits_reads(void);

/*
 * End of input: decide what is still open with what came (counted in
 * st.undecided). Returns 0 or a negative error.
 */
int an_waits_finish(struct an_waits *a);

/*
 * Pattern p over all processes; *min and *max: the smallest and largest
 * per-process time (processes without it count as 0).
 */
struct an_tally an_waits_total(const struct an_waits *a, enum ls_pattern p,
			       uint64_t *min, uint64_t *max);

/*
 * Write the summary records: per pattern over the run (with the smallest
 * and largest per-process total), then per process.
 */
int an_waits_summary(struct an_waits *a);

void an_waits_release(struct an_waits *a);

#endif
