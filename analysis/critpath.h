/*
 * tr-critpath: the critical path of a stream with tr-deps' edges and
 * tr-waits' wait states.
 *
 * Every event of a host thread or GPU stream is a node (graph.h). Its predecessor
 * is what it waited for last: the event before it on its stream, or the
 * source of an edge into it (tr-deps' edges, and a late receiver's cause
 * into the blocking send's leave), whichever happened later; on equal
 * times its own stream, then the edge read first. For a leave, an edge
 * is compared with the activity's enter: a collective or synchronization
 * whose dependency came after it began waited for it, whatever events it
 * recorded after the wait. An event reached by waiting thus leads across
 * the dependency that ended the wait, any other along its own stream. The critical path is the chain of predecessors
 * from the run's end (struct an_crit_end) back to an event with none.
 *
 * Memory: from time to time the nodes are collected. The roots are every
 * stream's last node, every node since the earliest last event of a busy
 * host thread (an edge from it may still come) and the end so far; the
 * enters of open activities are kept too (a late receiver's wait names
 * one), and so is everything since a blocking send whose message has not
 * yet been received (a late receiver's wait, which comes with the message,
 * adds a dependency to its leave). The part of the path every root's chain
 * goes through is final: it is written as crit records and dropped, with
 * every node no root's chain reaches. After a collective over all
 * processes that is everything before its last arriver, so memory grows
 * with the time between such points, not with the run.
 */
#ifndef AN_CRITPATH_H
#define AN_CRITPATH_H

#include <stdbool.h>
#include <stdint.h>

#include "../libstream/defs.h"
#include "../libstream/writer.h"
#include "item.h"
#include "sidework.h"

struct an_crit_stats {
	uint64_t nodes;		/* events taken as nodes */
	int64_t first, end;	/* the earliest and latest event time (nodes > 0) */
	uint64_t length;	/* ns: the path from its first event to the end */
	uint64_t changes;	/* steps from one stream to another */
	uint64_t lost;		/* dependencies that came for events already dropped */
	uint64_t cycles;	/* predecessor cycles cut (inconsistent edges) */
	uint64_t unreached;	/* the end's chain missed the path already written */
	uint64_t skew;		/* steps of the path back in time (clock skew) */
	uint64_t overrun;	/* transits past their source activity's end */
	uint64_t team_start;	/* ns of the path in the OpenMP runtime's team start */
	uint64_t peak;		/* most nodes kept at once */
	uint64_t path_blame;	/* ns of blame on the path written (pathblame.h) */
	uint64_t blame_unknown;	/* ns of blame that came for activities whose share was let go of */
	/* where the path ended (after an_crit_finish) */
	int64_t end_t;		/* its time */
	uint32_t end_s;		/* its stream index, LS_NONE: no event */
	bool by_work;		/* the run's end taken as its main work's (no MPI_Finalize) */
	uint32_t later;		/* streams whose last event came after it */
	uint32_t latest_s;	/* of those, the one that went on longest; LS_NONE: none */
	int64_t latest_t;	/* its last event's time */
};

/*
 * Where the path ends. AN_END_RUN: the run's end, the latest leave of
 * MPI_Finalize where there is one, else the last event of the run's main
 * work: the streams that ran GPU work, gave a GPU work or waited for it,
 * or made an MPI call that communicates (a thread that only polls, or
 * only computes beside them, does not end the run); where no stream did,
 * the last event. AN_END_LAST: the last event. AN_END_REGION: the latest
 * leave of a region named name. AN_END_STREAM: the last event of the
 * streams named name. AN_END_TIME: the last event at most ns after the
 * first.
 */
enum an_end { AN_END_RUN, AN_END_LAST, AN_END_REGION, AN_END_STREAM, AN_END_TIME };

struct an_crit_end {
	enum an_end kind;
	const char *name;	/* REGION, STREAM (borrowed until an_crit_free) */
	int64_t ns;		/* TIME */
};

struct an_crit;

/*
 * Write crit records to w (borrowed), resolving sub-paths on jobs threads.
 * Returns NULL when out of memory.
 */
struct an_crit *an_crit_new(struct ls_writer *w, unsigned jobs);

/*
 * Never collect: keep every event until the end (memory grows with the
 * run). The path is the same; this is how tests show it.
 */
void an_crit_keep_all(struct an_crit *c);

/* End the path at e (before any record is taken): AN_END_RUN unless set. */
void an_crit_end_at(struct an_crit *c, const struct an_crit_end *e);

/* Whether the end asked for was found (before an_crit_finish): a leave of its region, an event of its stream, an event by its time. */
bool an_crit_end_found(const struct an_crit *c);

/*
 * Take one input record, after it has been written on; crit records for
 * the part of the path it settles are written after it. Returns 0, or a
 * negative error: LS_ERR_SYNTAX with *why set, LS_ERR_NOMEM, or a writer
 * error.
 */
int an_crit_take(struct an_crit *c, struct an_item *it,
		 const char **why);

/* The kinds whose fields an_crit_take reads (LS_KIND_BIT): the others it passes over. */
uint64_t an_crit_reads(void);

/* The input has ended: write the rest of the path. Returns 0 or an error. */
int an_crit_finish(struct an_crit *c);

/* What it counted so far. */
struct an_crit_stats an_crit_stats(const struct an_crit *c);

/* The definitions read. */
const struct ls_defs *an_crit_defs(const struct an_crit *c);

/* ns of the path written so far on stream index s. */
uint64_t an_crit_stream_ns(const struct an_crit *c, uint32_t s);

/* Events it holds now. */
/*
 * The host thread with the most path time in plain code while another
 * thread of its process made GPU calls (analysis/sidework.h): 0 where
 * none.
 */
int an_crit_beside(const struct an_crit *c, struct an_sidework_note *out);

uint32_t an_crit_held(const struct an_crit *c);

/* Bytes one kept event takes (node, id map and collection scratch). */
size_t an_crit_bytes_per_node(void);

void an_crit_free(struct an_crit *c);

#endif
