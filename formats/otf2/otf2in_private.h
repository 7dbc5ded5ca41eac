/* State shared by the definition and event halves of the OTF2 reader. */
#ifndef OTF2IN_PRIVATE_H
#define OTF2IN_PRIVATE_H

#include <otf2/otf2.h>

#include "otf2in.h"

#define NONE UINT32_MAX

enum loc_type { LOC_HOST, LOC_GPU, LOC_METRIC };

/* An activity open on a location: its region, and its enter while unwritten. */
struct frame {
	uint32_t region;
	uint32_t pending;	/* index of its enter in the same-time buffer, or NONE */
	bool has_corr;
	uint64_t corr;
};

struct location {
	uint64_t ref;		/* OTF2's id */
	uint32_t stream;	/* ours: the order of definition */
	uint32_t group;		/* OTF2 location group */
	const char *name;
	enum loc_type type;
	bool null_stream;
	bool orphan;		/* of no defined process: left out, with its events */
	bool selected;
	struct frame *stack;
	uint32_t depth, cap;
};

struct region {
	const char *name;
	const char *paradigm;
	enum ls_role role;
	const char *dir;
	bool defined;
};

struct group {
	OTF2_GroupType type;
	OTF2_Paradigm paradigm;
	uint32_t n;
	uint64_t *members;
};

struct comm {
	const char *name;
	uint32_t group;
	uint32_t n;
	uint32_t *process;	/* MPI: rank -> process id; else its streams' processes, once */
	uint32_t *stream;	/* not MPI: rank -> stream id */
	uint32_t nstreams;
	const char *paradigm;	/* not MPI: its group's */
	bool mpi;
	bool written;		/* MPI: every rank a process, once; else every rank a stream */
	bool defined;
};

struct location_group {
	const char *name;
	OTF2_LocationGroupType type;
	uint32_t creator;	/* OTF2 ref of the creating group, or NONE */
	uint32_t process;	/* our process id */
	bool defined;
};

struct metric_member {
	const char *name, *unit;
	bool defined;
};

struct metric {		/* a metric class, or an instance pointing at one */
	uint32_t n;
	uint32_t *members;
	uint32_t class_ref;	/* instances: the class; NONE for classes */
	bool defined;
};

/* An event read but not yet written: events of one timestamp wait here
 * to be sorted by stream. */
struct pending {
	enum ls_kind kind;
	uint32_t stream;
	uint32_t loc, depth;	/* enters: the frame that points here */
	uint64_t seq;
	uint32_t region;
	uint32_t fields;	/* PF_* bits: which optional fields are set */
	uint64_t ref_stream, cuda_event, corr, bytes, req, aux;
	int64_t result, tag;
	uint32_t peer, comm, root;
	uint64_t sent, recvd;
	const char *op;
	OTF2_Type val_type;
	OTF2_MetricValue val;
};

enum {
	PF_REF_STREAM = 1 << 0, PF_CUDA_EVENT = 1 << 1, PF_RESULT = 1 << 2,
	PF_CORR = 1 << 3, PF_BYTES = 1 << 4, PF_REQ = 1 << 5, PF_ROOT = 1 << 6,
	PF_AUX = 1 << 7,	/* threads (fork), lock (lock_*), on (measure), counter (sample) */
};

/* A dense table indexed by an OTF2 ref, grown on demand. */
#define TABLE(type) struct { type *v; uint32_t n; }

struct otf2in {
	const struct otf2in_options *opt;
	struct otf2in_report *report;
	struct ls_writer *w;
	char *err;
	size_t errlen;
	int status;		/* first failure inside a callback */

	uint64_t resolution, offset, realtime;
	TABLE(char *) strings;
	TABLE(struct region) regions;
	TABLE(struct group) groups;
	TABLE(struct comm) comms;
	TABLE(struct location_group) lgroups;
	TABLE(struct metric_member) members;
	TABLE(struct metric) metrics;
	struct location *locs;	/* in definition order */
	uint32_t nlocs;
	uint32_t *loc_slot;	/* hash of refs: index into locs + 1, 0 = empty */
	uint32_t loc_mask;
	uint32_t nprocesses;
	uint32_t attr_stream_ref, attr_event_ref, attr_result, param_callsite;
	uint32_t region_htod, region_dtoh;	/* ours, for device copies */

	struct pending *buf;
	uint32_t nbuf, capbuf;
	int64_t buf_t;		/* the time of the events buffered */
	bool any_event;		/* an event was read: last_t is its time */
	int64_t last_t;
	uint64_t seq, next_id;
};

/* Grow a TABLE so that index i exists; new entries are zeroed. */
int otf2in_table_reserve(void **v, uint32_t *n, size_t size, uint64_t i);
#define TABLE_RESERVE(t, i) \
	otf2in_table_reserve((void **)&(t).v, &(t).n, sizeof(*(t).v), (i))

const char *otf2in_string(const struct otf2in *in, OTF2_StringRef ref);

/* Read the global definitions and derive processes, streams, comms. */
int otf2in_read_definitions(struct otf2in *in, OTF2_Reader *reader);

/* Write the header and every definition record. */
int otf2in_write_definitions(struct otf2in *in, const char *path);

/* The location with OTF2 ref, or NULL. */
struct location *otf2in_location(struct otf2in *in, OTF2_LocationRef ref);

/* Register the event callbacks on the global event reader. */
int otf2in_register_events(struct otf2in *in, OTF2_GlobalEvtReader *reader);

/* Write what is still buffered and count what is left open. */
int otf2in_finish_events(struct otf2in *in);

/* Remember the first failure, with its message; returns the code. */
int otf2in_fail(struct otf2in *in, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

#endif
