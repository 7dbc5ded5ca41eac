/* State shared by the parts of the OTF2 writer. */
#ifndef OTF2OUT_PRIVATE_H
#define OTF2OUT_PRIVATE_H

#include <otf2/otf2.h>

#include "../../libstream/defs.h"
#include "../../libstream/idmap.h"
#include "../../libstream/idset.h"
#include "errors.h"
#include "otf2out.h"
#include "out_sorted.h"

#define NONE UINT32_MAX

/* The analysis results, as metrics: member and class refs after the counters'. */
enum metric { M_CRIT, M_BLAME, M_WAIT, M_IDLE_BLAME, M_IDLE, M__COUNT };

/* Attributes and the one parameter the archive defines. */
enum { A_STREAM_REF, A_EVENT_REF, A_RESULT, A_PATTERN, A__COUNT };
#define P_CALLSITE 0


/* What the writer keeps of each definition besides what ls_defs keeps, by its index. */
struct out_process {
	OTF2_StringRef name;
	uint32_t world;		/* index in the MPI locations group, or NONE */
};

/* An activity open on a stream while writing: as tr-read will see it, and its blame. */
struct out_frame {
	bool has_corr, blamed;
	uint8_t pattern;	/* the one pattern ns came from; LS_P__COUNT if several or none */
	uint64_t corr;
	uint64_t ns, idle_ns;	/* blame for wait states, for GPU idleness: written at its leave */
};

struct out_stream {
	OTF2_LocationRef loc;	/* its OTF2 location: the input's (given), or Score-P's scheme */
	bool given;		/* pass 1: the stream names its location */
	OTF2_StringRef name;
	OTF2_StringRef context;	/* its accelerator context's name, or NONE */
	int64_t first_t, last_t;	/* pass 1: of its first and latest event */
	bool any;		/* pass 1: it has events */
	OTF2_EvtWriter *w;
	uint64_t events;	/* written to it, once it is closed */
	struct out_frame *stack;
	uint32_t depth, cap;
	struct out_cursor samples, blame;	/* pass 2: its placed values and its activities' blame */
	bool crit_open;		/* pass 1: a piece of the path whose end is not placed yet */
	int64_t crit_end;	/* its end */
	bool copies;		/* pass 1: it has device copies */
	uint32_t win;		/* the window its device copies are recorded on */
};

struct out_region {
	OTF2_StringRef name;
	OTF2_Paradigm paradigm;
	OTF2_RegionRole role;
	int copy;		/* 0, or +1 HtoD / -1 DtoH: written as tr-read's RMA copies */
};

struct out_counter {
	uint64_t id;
	OTF2_StringRef name, unit;
	OTF2_Type type;		/* of its first sample */
	bool typed;
};

/* A metric value placed at a time on a stream (critical path, waiting time): an out_sorted record. */
struct out_sample {
	uint64_t sort;		/* the sort's own (out_sorted.h) */
	uint32_t s;
	uint8_t metric;		/* enum metric */
	uint8_t pattern;	/* LS_P__COUNT: none */
	int64_t t;
	double value;
};

/*
 * Blame received by an activity (its enter's id) on stream s: in pass 1 a
 * share (for wait states with its pattern, or for GPU idleness); after it,
 * each activity's sum. An out_sorted record.
 */
struct out_blame {
	uint64_t sort;
	uint32_t s;
	uint8_t pattern;	/* of the blame for wait states: the one, or LS_P__COUNT */
	uint8_t pad[3];
	uint64_t to;
	uint64_t ns, idle_ns;
};

struct out_strings {
	char **v;
	uint32_t n, cap;
	uint32_t *slot;		/* hash: index + 1, 0 empty */
	uint32_t mask;
};

/* libotf2's event chunks: their size, and how many a stream holds at most. */
#define OTF2OUT_CHUNK_SIZE (256u << 10)
#define OTF2OUT_CHUNKS 2

struct otf2out {
	char err[512];
	struct otf2out_report report;
	struct out_strings strings;

	struct ls_defs defs;
	struct out_process *procs;
	struct out_stream *streams;
	struct out_region *regions;
	OTF2_StringRef *comm_names;
	uint32_t cap_procs, cap_streams, cap_regions, cap_comms;
	struct out_counter *counters;
	uint32_t ncounters, cap_counters;
	struct ls_idmap counter_ix;	/* counter id -> index */
	uint32_t metric_base;	/* member and class ref of the first analysis metric */
	uint32_t metric_ref[M__COUNT];	/* each one's that the run has, in order without gaps */

	bool has_epoch;
	int64_t epoch;
	uint64_t length;	/* the header's: the trace's length from t = 0, 0 none */
	bool any_event;
	int64_t min_t, max_t;
	uint32_t nwins;		/* windows on teams of streams (otf2out_place_windows) */
	bool copy_fallback;	/* and one more, on "device copies", for streams of none */
	bool metrics[M__COUNT];	/* which analysis metrics the stream has */
	/*
	 * pass 1: which attributes a record uses; then their refs, dense
	 * (NONE: not defined: readers such as CASITA take CUDA_STREAM_REF's
	 * definition for a trace with CUDA)
	 */
	bool uses[A__COUNT];
	uint32_t attr[A__COUNT];

	struct out_sorted samples;	/* out_sample records by stream and time */
	struct out_sorted blame;	/* out_blame records by stream and activity */
	uint64_t blame_total, idle_blame_total;	/* pass 1: of all shares, below 2^64 */
	struct ls_idmap lock_order;	/* (stream, lock) -> order of its acquire */
	struct ls_idset event_ids;	/* the first pass's: an id twice is refused (rule 4) */
	uint64_t acquires;
	uint32_t round_from, round_to;	/* the streams whose events this pass writes */

	OTF2_Archive *archive;
	OTF2_AttributeList *attrs;
	uint64_t shift;		/* ticks = t + shift */
	char otf2_msg[OTF2_MSG_SIZE];	/* libotf2's first error message */
};

/*
 * After pass 1: each stream's OTF2 location. Returns 0, or LS_ERR_NOMEM
 * (said).
 */
int otf2out_place_locations(struct otf2out *o);

/* After pass 1: the refs of the attributes the records use (o->attr). */
void otf2out_number_attributes(struct otf2out *o);

/* Set the message; returns code. */
int otf2out_fail(struct otf2out *o, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * The string s[0..n) (up to a NUL byte in it: OTF2 strings end there) as a
 * ref, defining it at first use; NONE when out of memory.
 */
OTF2_StringRef otf2out_string(struct otf2out *o, const char *s, uint32_t n);

/* Pass 1 of a definition record (process, stream, region, comm, counter). */
int otf2out_take_definition(struct otf2out *o, const struct ls_record *rec);

/* Free what otf2out_take_definition keeps. */
void otf2out_release_definitions(struct otf2out *o);

/* Pass 1 of an event: its references and time order. */
int otf2out_take_event(struct otf2out *o, const struct ls_record *rec);

/* Pass 1 of crit, wait and blame records. */
int otf2out_take_result(struct otf2out *o, const struct ls_record *rec);

/* Between the passes: order the time-placed samples by stream and time. */
int otf2out_place_samples(struct otf2out *o);

/* Pass 2 of an event. */
int otf2out_write_event(struct otf2out *o, const struct ls_record *rec);

/* The stream's event writer, opened at first use; NULL after a failure. */
OTF2_EvtWriter *otf2out_writer(struct otf2out *o, uint32_t s);

/* Pass 2: the samples of stream s placed at or before t; all with t = INT64_MAX. */
int otf2out_write_samples(struct otf2out *o, uint32_t s, int64_t t);

/*
 * Pass 2: the blame of the activity entered as id on stream s into f
 * (1), or none (0); blame of the stream's activities before it that were
 * never entered is counted as not placed. A negative error after a
 * message.
 */
int otf2out_blame_of(struct otf2out *o, uint32_t s, uint64_t id, struct out_frame *f);

/* Pass 2: blame at the enter (0) and leave (its amount) of a blamed activity. */
int otf2out_write_blame(struct otf2out *o, uint32_t s, int64_t t, const struct out_frame *f, bool at_leave);

/* The orders of the placed records: by stream, then time; by stream, then activity. */
int otf2out_sample_order(const void *a, const void *b);
int otf2out_blame_order(const void *a, const void *b);

/* What of x failed (rc: its error) as the writer's message: rc. */
int otf2out_sorted_failed(struct otf2out *o, const struct out_sorted *x, int rc);

/*
 * Between the passes: the window each stream's device copies are recorded
 * on, as Score-P has them: one per team of streams that holds a non-host
 * stream (a CUDA context's), in comm order, for the first such team a
 * stream is in; one more for streams of none, where there are copies.
 */
void otf2out_place_windows(struct otf2out *o);

/* Write the global definitions (after every event). */
int otf2out_write_definitions(struct otf2out *o);

/* The metric's member and class ref. */
static inline uint32_t otf2out_metric_ref(const struct otf2out *o, enum metric m)
{
	return o->metric_ref[m];
}

static inline OTF2_TimeStamp otf2out_ticks(const struct otf2out *o, int64_t t)
{
	return (OTF2_TimeStamp)t + o->shift;
}

#endif
