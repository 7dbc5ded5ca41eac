/*
 * tr-waits for MPI, and for the OpenMP barrier, which is a collective of
 * a team: the wait states of message and collective calls, read off the
 * events and tr-deps' edges, and the blame for each.
 *
 * An activity's wait is decided once it has left and every edge into it
 * has been read: one per receive in it, one per send in it for a blocking
 * send (Late Receiver is read off the message edge), and the instance
 * record for a collective. Of the edges, the one from the latest cause
 * wins: the activity waited from its enter to that cause, never longer
 * than it lasted. The wait is blamed on the causing activity's stretch
 * (given at its enter by waits.c, which keeps the stretches of each
 * stream: the MPI one since the last blocking MPI call, the OpenMP one
 * since the last barrier).
 */
#ifndef AN_MPI_WAITS_H
#define AN_MPI_WAITS_H

#include <stdbool.h>
#include <stdint.h>

#include "../../libstream/idmap.h"
#include "../../libstream/record.h"
#include "../../libstream/schema.h"
#include "../blame.h"
#include "../trace.h"
#include "../waitrec.h"

/* An MPI activity the analysis follows. */
struct an_mpi_act {
	uint64_t id, leave;	/* enter and leave event ids */
	int64_t t0, t1;		/* entered, left */
	uint32_t s, proc;	/* stream and process index */
	uint32_t region;	/* index */
	uint32_t comm;		/* collectives: comm index from the end event */
	uint32_t inputs;	/* edges still to come, +1 while open */
	uint32_t refs;		/* reasons to keep it: free at 0 */
	uint8_t role;
	uint8_t shape;		/* a call completing a nonblocking collective: its shape (a role), else 0 */
	bool live, open;
	bool icoll;		/* a nonblocking collective's post, or the call completing it */
	/* its wait so far: the latest cause */
	uint8_t pattern;
	int64_t cause_t;	/* t0 while there is none */
	uint64_t cause_ev;
	uint32_t cause_act;	/* whose interval the wait is blamed on */
	struct an_snapshot before;	/* the causing stream's time before it */
};

/* A send, receive or posted receive waiting for its edge. */
struct an_mpi_pending {
	uint32_t act;
	int64_t t;		/* send: its activity's enter; else the event's t */
	uint64_t ev, req;
	bool has_req, send;
	uint32_t order, peer;	/* send: its node in the receiver's order queue */
};

/* A send to a process, by when it began: for Messages in Wrong Order. */
struct an_mpi_order_node {
	int64_t t;
	uint32_t next;
	bool received;
};

struct an_mpi_order_queue {
	uint32_t head, tail;
};

/* What the rules counted as odd (waits.h says each). */
struct an_mpi_waits_counts {
	uint64_t clock, clamped, stray_edges, undecided, outside;
};

struct an_mpi_waits {
	struct an_mpi_act *acts;
	uint32_t nacts, acts_cap, free_act;
	struct an_mpi_pending *pend;
	uint32_t npend, pend_cap, free_pend;
	struct ls_idmap ev_ix;		/* event id -> pending (sends, receives) */
	struct ls_idmap act_ix;		/* collective enter/leave id -> act */
	struct ls_idmap post_ix;	/* (process << 40 | req) -> pending post */
	struct an_mpi_order_node *order;
	uint32_t norder, order_cap, free_order;
	struct an_mpi_order_queue *queues;	/* per process index */
	uint32_t queues_cap;
	struct an_mpi_waits_counts st;
	struct an_trace *tr;
	struct an_waitrec *out;
	struct an_interval shown;	/* a snapshot's interval, while its blame is written */
};

/* The rules see the trace state tr (its frames get their activity) and write through out (both borrowed). */
void an_mpi_waits_init(struct an_mpi_waits *m, struct an_trace *tr, struct an_waitrec *out);

/*
 * Frame f (an MPI call that communicates, or an OpenMP barrier) was
 * entered at ev: its activity (f->a, 1-based), blamed on before, the
 * stretch of its stream's time up to it (taken: released with it).
 * Returns 0 or LS_ERR_NOMEM.
 */
int an_mpi_waits_enter(struct an_mpi_waits *m, struct an_frame *f, const struct an_event *ev,
		       struct an_snapshot before);

/* Frame f ends at ev: its own leave (own), or a leave of one enclosing it. 0 or a negative error. */
int an_mpi_waits_close(struct an_mpi_waits *m, const struct an_frame *f, const struct an_event *ev, bool own);

/* A send, receive, receive post or cancel, collective begin or end (mpi: the stream's MPI stretch, for a kernel that runs a collective). */
int an_mpi_waits_send(struct an_mpi_waits *m, const struct ls_record *rec, const struct an_event *ev,
		      const char **why);
int an_mpi_waits_recv(struct an_mpi_waits *m, const struct ls_record *rec, const struct an_event *ev);
int an_mpi_waits_request(struct an_mpi_waits *m, const struct ls_record *rec, const struct an_event *ev);
int an_mpi_waits_coll(struct an_mpi_waits *m, const struct ls_record *rec, const struct an_event *ev,
		      const struct an_stretch *mpi);

/* An edge of type e (msg, coll, barrier) from event from to event to. 0 or a negative error. */
int an_mpi_waits_edge(struct an_mpi_waits *m, enum ls_edge e, uint64_t from, uint64_t to);

/* An instance record: its members' waits are decided. As take's. */
int an_mpi_waits_instance(struct an_mpi_waits *m, const struct ls_record *rec, const char **why);

/*
 * End of input: decide what is still open with what came (counted in
 * st.undecided), an activity still open ending at last(ctx, its stream).
 */
int an_mpi_waits_finish(struct an_mpi_waits *m, int64_t (*last)(void *ctx, uint32_t s), void *ctx);

void an_mpi_waits_release(struct an_mpi_waits *m);

#endif
