/* State shared by the definition and event halves of the OTF2 reader. */
#ifndef OTF2IN_PRIVATE_H
#define OTF2IN_PRIVATE_H

#include <otf2/otf2.h>

#include "../../libstream/vec.h"
#include "otf2in.h"

#define NONE UINT32_MAX

/* Records with no meaning to the analysis, left out: (kind, the name --stats gives it). */
#define OTF2IN_IGNORED(X) \
	X(ENTER_UNDEFINED, "Enter of an undefined region") \
	X(LEAVE_UNDEFINED, "Leave of an undefined region") \
	X(PARAMETER, "ParameterUnsignedInt other than the callsite id") \
	X(METRIC_UNDEFINED, "Metric of an undefined metric class") \
	X(ProgramBegin, "ProgramBegin") \
	X(ProgramEnd, "ProgramEnd") \
	X(RmaWinCreate, "RmaWinCreate") \
	X(RmaWinDestroy, "RmaWinDestroy") \
	X(ThreadTaskCreate, "ThreadTaskCreate") \
	X(ThreadTaskSwitch, "ThreadTaskSwitch") \
	X(ThreadTaskComplete, "ThreadTaskComplete") \
	X(ThreadCreate, "ThreadCreate") \
	X(ThreadBegin, "ThreadBegin") \
	X(ThreadWait, "ThreadWait") \
	X(ThreadEnd, "ThreadEnd") \
	X(BufferFlush, "BufferFlush") \
	X(ParameterString, "ParameterString")

#define OTF2IN_IGNORED_ENUM(kind, name) IGN_##kind,
enum otf2in_ignored { OTF2IN_IGNORED(OTF2IN_IGNORED_ENUM) IGN__COUNT };

/* What reading OTF2 found, besides the front's counts: oddities said once. */
struct otf2in_report {
	uint64_t undefined_location;	/* events on locations the archive did not define */
	uint64_t unknown_records;	/* record types this libotf2 does not know */
	uint64_t ignored[IGN__COUNT];	/* known record types with no meaning here */
	uint64_t rma_unmatched;		/* RMA completions without an open copy */
	uint64_t unknown_peer;		/* ranks not in their communicator */
	uint64_t unknown_comm;		/* collectives on a communicator not written */
	uint64_t comms_unplaced;	/* MPI communicators with a rank of no process, or twice;
					   teams with a rank of no stream */
	uint64_t orphan_locations;	/* locations of no defined process */
	uint64_t bad_local_defs;	/* locations whose local definitions libotf2 could not read */
	uint64_t bad_mappings;		/* mapping tables of a kind OTF2 has not: not applied */
	uint64_t unknown_counter;	/* metric values of an undefined member */
};

enum loc_type { LOC_HOST, LOC_GPU, LOC_METRIC };

/* An activity open on a location: its region, and its enter (the front's seq). */
struct frame {
	uint32_t region;
	uint64_t enter;
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
	bool unread;		/* not selected (-p, -s): its events are not read at all */
	uint64_t events;	/* how many its definition says it has */
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

/* A dense table indexed by an OTF2 ref, grown on demand. */
#define TABLE(type) struct { type *v; uint32_t n; }

struct otf2in {
	const struct ls_stage *stage;	/* the tool reading, for the header's stages */
	const char *anchor;	/* the archive's anchor file, as given */
	const char *otf2_msg;	/* libotf2's first error message, or "" */
	struct otf2in_report report;
	struct ls_front *front;
	struct ls_writer *w;
	char *err;
	size_t errlen;
	int status;		/* first failure inside a callback */

	uint64_t resolution, offset, realtime;
	uint64_t length;	/* the clock properties' trace length, in ticks */
	TABLE(char *) strings;
	TABLE(struct region) regions;
	TABLE(struct group) groups;
	TABLE(struct comm) comms;
	TABLE(struct location_group) lgroups;
	TABLE(struct metric_member) members;
	TABLE(struct metric) metrics;
	struct location *locs;	/* in definition order */
	uint32_t nlocs, locs_cap;
	uint32_t *loc_slot;	/* hash of refs: index into locs + 1, 0 = empty */
	uint32_t loc_mask;
	uint32_t nprocesses;
	uint32_t attr_stream_ref, attr_event_ref, attr_result, param_callsite;
	uint32_t region_htod, region_dtoh;	/* ours, for device copies */

	uint64_t events_total;	/* as the locations' definitions count them, for progress */
	uint64_t events_read;
	bool any_event;		/* an event was read: last_t is its time */
	int64_t last_t;
};

/* Grow a TABLE so that index i exists; new entries are zeroed. Refs are
 * dense: far beyond 2^28 is a broken archive. */
#define TABLE_RESERVE(t, i) ls_table_reserve(&(t).v, &(t).n, sizeof(*(t).v), (i), UINT32_C(1) << 28)

const char *otf2in_string(const struct otf2in *in, OTF2_StringRef ref);

/* Read the global definitions and derive processes, streams, comms. */
int otf2in_read_definitions(struct otf2in *in, OTF2_Reader *reader);

/* Write the header and every definition record. */
int otf2in_write_definitions(struct otf2in *in, const char *path);

/* The location with OTF2 ref, or NULL. */
struct location *otf2in_location(struct otf2in *in, OTF2_LocationRef ref);

/* Register the event callbacks on the global event reader. */
int otf2in_register_events(struct otf2in *in, OTF2_GlobalEvtReader *reader);

/* Write what the front still holds. */
int otf2in_finish_events(struct otf2in *in);

/* Remember the first failure, with its message; returns the code. */
int otf2in_fail(struct otf2in *in, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

/*
 * Ticks to ns since the trace's start, exactly:
 * floor((ticks - offset) * 1e9 / resolution).
 */
__int128 otf2in_ticks_to_ns(const struct otf2in *in, OTF2_TimeStamp ticks);

#endif
