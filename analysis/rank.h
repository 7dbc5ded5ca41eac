/*
 * tr-rank's totals over an analysed stream: per region the calls, the
 * exclusive time, the time on the critical path, the blame received for
 * wait states (split by pattern) and, apart, the blame for GPU idleness,
 * and of both the part on the critical path (tr-critpath's path_blame);
 * per pattern the wait states (and the idle periods), in all and per
 * process; the run's length (the events of host threads and GPU streams,
 * as tr-critpath takes them). The rating of a region is its share of the
 * critical path plus its share of all wait-state blame (Schmitt et al.
 * 2017); idle blame joins the blame only where asked, and can be split by
 * the wait state it came under.
 */
#ifndef AN_RANK_H
#define AN_RANK_H

#include <stdbool.h>
#include <stdint.h>

#include "../libstream/defs.h"
#include "../libstream/schema.h"
#include "item.h"
#include "gpu/usage.h"
#include "waiters.h"

struct an_rank_region {
	char *name;
	uint64_t calls, excl, cp, blame;
	uint64_t idle;			/* blame for GPU idleness, apart from blame */
	uint64_t cp_blame, cp_idle;	/* of blame and idle blame, on the critical path (pathblame.h) */
	uint64_t by[LS_P__COUNT];	/* blame per pattern */
	uint64_t idle_by[LS_P__COUNT];	/* idle blame under a wait state, per its pattern */
};

/* The run's totals. */
struct an_rank_totals {
	uint64_t wait_count[LS_P__COUNT], wait_ns[LS_P__COUNT];
	uint64_t waiting;		/* all wait states' time */
	uint64_t idle_time;		/* gpu_idle periods' time */
	uint64_t idle;			/* blame for idleness (gpu_idle and blame_sync) */
	uint64_t cp, cp_outside;	/* path length; of it, in no activity */
	/*
	 * of cp_outside, on a host thread (host code in no region the trace
	 * records) and on a GPU stream (between its activities)
	 */
	uint64_t cp_host_outside, cp_gpu_between;
	uint64_t blame;
	uint64_t cp_blame, cp_idle;	/* of blame and idle blame, on the critical path */
	uint64_t events;		/* of host threads and GPU streams */
	int64_t first, end;		/* their earliest and latest time (events > 0) */
	int64_t init_end;		/* the latest leave of MPI_Init (the run's start-up), INT64_MIN: none */
};

struct an_rank;

/* A row of the rating. */
struct an_rating {
	uint32_t region;	/* index */
	double cp_share, blame_share, idle_share, rating;
};

/* What a rating keeps besides its totals (an_rank_new's keep). */
enum {
	AN_RANK_BY_WAIT = 1,	/* idle blame split by the wait state under it (idle_by; idlewait.h) */
	AN_RANK_WAITERS = 2,	/* who waited for each region, where the path ran (waiters.h) */
};

/* A rating keeping what keep says (AN_RANK_*, or-ed). Returns NULL when out of memory. */
struct an_rank *an_rank_new(unsigned keep);

/*
 * Take one record. Returns 0, or a negative error: LS_ERR_NOMEM, or
 * LS_ERR_SYNTAX with *why set (an undefined region or stream, a blame or
 * crit record without its region, a duration out of range, totals past
 * 2^64 ns).
 */
int an_rank_take(struct an_rank *k, struct an_item *it, const char **why);

/* The kinds whose fields an_rank_take reads (LS_KIND_BIT): the others it passes over. */
uint64_t an_rank_reads(void);

/*
 * The rating of every region with calls, critical-path time or blame,
 * best first (rating, then critical-path time, then region order), in
 * *out (malloc'd, *n rows): cp_share + blame_share, where with idle the
 * blame share counts idle blame as blame (its part of both). Returns 0 or
 * LS_ERR_NOMEM.
 */
int an_rank_rate(const struct an_rank *k, bool idle, struct an_rating **out, uint32_t *n);

/*
 * The smallest and largest per-process waiting time of pattern p, and
 * (most, if not NULL) the index of the process that waited that longest
 * (the first of equal ones; 0 where none waited).
 */
void an_rank_wait_range(const struct an_rank *k, enum ls_pattern p, uint64_t *min,
			uint64_t *max, uint32_t *most);

/* What process index i's GPU did, or NULL where it ran no kernel or copy. */
const struct an_gpu_usage *an_rank_gpu_usage(const struct an_rank *k, uint32_t i);

/* The sum over every process's GPU in *sum; returns how many processes used one. */
uint32_t an_rank_gpu_total(const struct an_rank *k, struct an_gpu_usage *sum);

/* Process index i's waiting time in pattern p (i below an_rank_defs(k)->nprocs). */
uint64_t an_rank_process_wait(const struct an_rank *k, uint32_t i, enum ls_pattern p);

const struct an_rank_totals *an_rank_totals(const struct an_rank *k);

/* Who waited for whom and where the path ran, where kept (AN_RANK_WAITERS); else NULL. */
const struct an_waiters *an_rank_waiters(const struct an_rank *k);

/* The definitions read. */
const struct ls_defs *an_rank_defs(const struct an_rank *k);

/* How many host threads (gpu: GPU streams) k's trace defines. */
uint32_t an_rank_streams(const struct an_rank *k, bool gpu);

/* Region index i's totals (i below an_rank_defs(k)->nregions). */
const struct an_rank_region *an_rank_region(const struct an_rank *k, uint32_t i);

void an_rank_free(struct an_rank *k);

#endif
