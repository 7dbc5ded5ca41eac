/* Totals for the activity rating. */
#include <stdlib.h>
#include <string.h>

#include "../libstream/error.h"
#include "../libstream/vec.h"
#include "gpu/usage.h"
#include "idlewait.h"
#include "rank.h"
#include "trace.h"
#include "waiters.h"

struct an_rank {
	struct an_trace tr;
	struct an_rank_region *reg;	/* per region index */
	uint32_t reg_cap;
	int64_t *last;			/* per stream index: its last event's time */
	uint32_t last_cap;
	uint64_t (*proc_wait)[LS_P__COUNT];	/* per process index */
	uint32_t proc_cap;
	struct an_rank_totals tot;
	bool by_wait;			/* idle blame split by the wait under it */
	bool keep_waiters;		/* who waited for whom, where the path ran */
	struct an_waiters waiters;
	struct an_idlewait under;
	struct an_gpu_usage_state gpu;
};

/* A region or stream was defined: room for its totals. */
static int defined(struct an_rank *k, const struct ls_record *rec)
{
	const struct ls_defs *d = &k->tr.defs;
	const char *name;
	uint32_t n, i;

	if (rec->kind == LS_K_STREAM) {
		i = d->nstreams - 1;
		if (ls_vec_room(&k->last, &k->last_cap, i, sizeof(*k->last)) < 0)
			return LS_ERR_NOMEM;
		k->last[i] = INT64_MIN;
		return 0;
	}
	if (rec->kind == LS_K_PROCESS) {
		i = d->nprocs - 1;
		if (ls_vec_room(&k->proc_wait, &k->proc_cap, i, sizeof(*k->proc_wait)) < 0)
			return LS_ERR_NOMEM;
		memset(k->proc_wait[i], 0, sizeof(k->proc_wait[i]));
		return an_gpu_usage_process(&k->gpu, i);
	}
	if (rec->kind != LS_K_REGION)
		return 0;
	i = d->nregions - 1;
	if (ls_vec_room(&k->reg, &k->reg_cap, i, sizeof(*k->reg)) < 0)
		return LS_ERR_NOMEM;
	memset(&k->reg[i], 0, sizeof(k->reg[i]));
	if (ls_get_str(rec, LS_F_NAME, &name, &n) < 0)
		n = 0, name = "";
	if (!(k->reg[i].name = strndup(name, n)))
		return LS_ERR_NOMEM;
	return 0;
}

/* A duration of a derived record of kind k: in range, or *why says it is not. */
static bool in_range(enum ls_kind k, uint64_t v, const char **why)
{
	if (v > LS_DUR_MAX) {
		*why = k == LS_K_BLAME ? "blame of more than 2^63 ns" :
		       k == LS_K_CRIT ? "crit piece of more than 2^63 ns" :
		       "wait state of more than 2^63 ns";
		return false;
	}
	return true;
}

/* A duration field of a derived record: in range, or *why says it is not. */
static bool duration(const struct ls_record *rec, enum ls_field f, uint64_t *v, const char **why)
{
	if (ls_get_u64(rec, f, v) < 0) {
		bool given = ls_has(rec, f);

		switch (rec->kind) {
		case LS_K_BLAME:
			*why = given ? "blame field \"ns\" is not a duration in [0, 2^63) ns" :
				       "blame without required field \"ns\"";
			break;
		case LS_K_PATH_BLAME:
			*why = given ? "path_blame field \"ns\" is not a duration in [0, 2^63) ns" :
				       "path_blame without required field \"ns\"";
			break;
		case LS_K_CRIT:
			*why = given ? "crit field \"dur\" is not a duration in [0, 2^63) ns" :
				       "crit without required field \"dur\"";
			break;
		case LS_K_IDLE:
			*why = given ? "idle field \"dur\" is not a duration in [0, 2^63) ns" :
				       "idle without required field \"dur\"";
			break;
		default:
			*why = given ? "wait field \"dur\" is not a duration in [0, 2^63) ns" :
				       "wait without required field \"dur\"";
			break;
		}
		return false;
	}
	return in_range(rec->kind, *v, why);
}

/* Add v to every total given (not NULL): false if one would pass 2^64. */
static bool add_to(uint64_t v, uint64_t *a, uint64_t *b, uint64_t *c)
{
	uint64_t *sums[] = { a, b, c };

	for (int i = 0; i < 3; i++)
		if (sums[i] && *sums[i] > UINT64_MAX - v)
			return false;
	for (int i = 0; i < 3; i++)
		if (sums[i])
			*sums[i] += v;
	return true;
}

/* 0, or LS_ERR_SYNTAX with *why set where a total would have passed 2^64 ns. */
static int total(bool added, const char **why)
{
	if (added)
		return 0;
	*why = "totals add up to more than 2^64 ns";
	return LS_ERR_SYNTAX;
}

/* Idle blame under a wait state (idlewait.h's callback): 0, or LS_ERR_SYNTAX past 2^64 ns. */
static int idle_under(void *ctx, uint32_t region, uint32_t pattern, uint64_t ns)
{
	struct an_rank *k = ctx;
	const char *why;

	return total(add_to(ns, &k->reg[region].idle_by[pattern], NULL, NULL), &why);
}

struct an_rank *an_rank_new(unsigned keep)
{
	struct an_rank *k = calloc(1, sizeof(*k));

	if (!k)
		return NULL;
	an_trace_init(&k->tr);
	k->tot.end = k->tot.init_end = INT64_MIN;
	k->by_wait = keep & AN_RANK_BY_WAIT;
	k->keep_waiters = keep & AN_RANK_WAITERS;
	an_waiters_init(&k->waiters);
	an_idlewait_init(&k->under, idle_under, k);
	an_gpu_usage_init(&k->gpu);
	return k;
}

/* Exclusive time up to ev on its stream, then the activity it opens. */
static int event(struct an_rank *k, struct an_item *it, const char **why)
{
	struct an_event ev;
	struct an_stack *st;
	struct an_frame *f;
	int rc = 0;

	if ((rc = an_trace_item(&k->tr, it, &ev, why)) < 0)
		return rc;
	if (!k->tr.defs.streams[ev.s].host && !k->tr.defs.streams[ev.s].gpu)
		return 0;	/* metric samples: not part of the run's activities */
	if (!k->tot.events++ || ev.t < k->tot.first)
		k->tot.first = ev.t;
	if (ev.t > k->tot.end)
		k->tot.end = ev.t;
	st = &k->tr.stacks[ev.s];
	if ((f = an_stack_top(st)) && ev.t > k->last[ev.s] &&
	    (rc = total(add_to((uint64_t)(ev.t - k->last[ev.s]), &k->reg[f->region].excl,
			       NULL, NULL), why)) < 0)
		return rc;
	k->last[ev.s] = ev.t;
	f = NULL;
	if (it->kind == LS_K_ENTER) {
		if (!(f = an_trace_enter(&k->tr, &ev, &rc)))
			return rc;
		k->reg[f->region].calls++;
	} else if (it->kind == LS_K_LEAVE && !(f = an_trace_leave(&k->tr, &ev))) {
		return 0;
	}
	rc = an_gpu_usage_event(&k->gpu, &k->tr.defs, it->kind, &ev, f);
	if (f && it->kind == LS_K_LEAVE) {
		if (f->role == LS_R_MPI_INIT && ev.t > k->tot.init_end)
			k->tot.init_end = ev.t;
		an_stack_pop_to(st, f);
	}
	return rc;
}

/* The region index named by rec's r, or LS_NONE with *why set. */
static uint32_t region(const struct an_rank *k, const struct ls_record *rec,
		       const char **why)
{
	return ls_defs_field(&k->tr.defs.region_ix, rec, LS_F_R, rec->kind == LS_K_BLAME ?
			     "blame without the region of its activity ('r': from tr-waits 0.1.0 or later)" :
			     rec->kind == LS_K_PATH_BLAME ? "path_blame record of an undefined region" :
			     "crit record of an undefined region", why);
}

/* An error of an_idlewait's: out of memory, or (under's) a total past 2^64 ns. */
static int under_failed(int rc, const char **why)
{
	return rc == LS_ERR_SYNTAX ? total(false, why) : rc;
}

/*
 * A blame share of v ns on an activity of region i, of pattern p
 * (LS_P__COUNT: one this version does not know), for wait *wait on
 * activity *act (NULL: not given).
 */
static int blame_share(struct an_rank *k, uint64_t v, uint32_t i, uint32_t p, const uint64_t *wait,
		       const uint64_t *act, const char **why)
{
	int rc;

	if (k->keep_waiters && p < LS_P__COUNT && wait && an_waiters_blame(&k->waiters, i, p, *wait, v) < 0)
		return LS_ERR_NOMEM;
	if (p < LS_P__COUNT && ls_pattern_idle(p)) {
		if (k->by_wait && act && wait &&
		    (rc = an_idlewait_blame(&k->under, *act, i, k->tr.defs.roles[i] != LS_R_CPU, *wait, v)) < 0)
			return under_failed(rc, why);
		return total(add_to(v, &k->tot.idle, &k->reg[i].idle, NULL), why);
	}
	return total(add_to(v, &k->tot.blame, &k->reg[i].blame, p < LS_P__COUNT ? &k->reg[i].by[p] : NULL), why);
}

/* v ns of the path in region i (LS_NONE: in none), on stream n (LS_NONE: not known). */
static int crit_piece(struct an_rank *k, uint64_t v, uint32_t i, uint32_t n, const char **why)
{
	if (i == LS_NONE) {
		const struct ls_stream *x = n < k->tr.defs.nstreams ? &k->tr.defs.streams[n] : NULL;

		return total(add_to(v, &k->tot.cp, &k->tot.cp_outside, !x ? NULL : x->host ? &k->tot.cp_host_outside :
				    x->gpu ? &k->tot.cp_gpu_between : NULL), why);
	}
	if (k->keep_waiters && n != LS_NONE && an_waiters_path(&k->waiters, i, n, v) < 0)
		return LS_ERR_NOMEM;
	return total(add_to(v, &k->tot.cp, &k->reg[i].cp, NULL), why);
}

/* v ns of an activity's blame (idle: idle blame) on the path, its region i. */
static int path_share(struct an_rank *k, uint64_t v, uint32_t i, bool idle, const char **why)
{
	if (idle)
		return total(add_to(v, &k->tot.cp_idle, &k->reg[i].cp_idle, NULL), why);
	return total(add_to(v, &k->tot.cp_blame, &k->reg[i].cp_blame, NULL), why);
}

/*
 * A wait state (an idle period: of an idleness pattern) of pattern p,
 * v ns on stream i, in an activity of region r (LS_NONE: not known),
 * for event *at at time *t (NULL: not given).
 */
static int wait_state(struct an_rank *k, uint32_t p, uint64_t v, uint32_t i, uint32_t r, const uint64_t *at,
		      const int64_t *t, const char **why)
{
	int rc;

	k->tot.wait_count[p]++;
	if (k->keep_waiters && at)
		an_waiters_wait(&k->waiters, *at, r, k->tr.defs.streams[i].process);
	if (k->by_wait && at && t) {
		if (ls_pattern_idle(p))
			an_idlewait_period(&k->under, *at, *t, v);
		else if ((rc = an_idlewait_wait(&k->under, *at, p, *t, v)) < 0)
			return under_failed(rc, why);
	}
	/*
	 * The run's idle time is gpu_idle's: a late synchronization's
	 * (blame_sync) lies in it where the process has one GPU stream
	 */
	return total(add_to(v, p == LS_P_GPU_IDLE ? &k->tot.idle_time :
			    ls_pattern_idle(p) ? NULL : &k->tot.waiting, &k->tot.wait_ns[p],
			    &k->proc_wait[k->tr.defs.streams[i].process][p]), why);
}

/* A derived record the rating reads, as its writer had it (an_item.known). */
static int derived_typed(struct an_rank *k, const struct an_item *it, const char **why)
{
	const union an_derived *x = &it->derived;

	switch (it->kind) {
	case LS_K_CRIT:
		return in_range(it->kind, x->piece.dur, why) ?
		       crit_piece(k, x->piece.dur, x->piece.r, x->piece.s, why) : LS_ERR_SYNTAX;
	case LS_K_BLAME:
		return blame_share(k, x->blame.ns, x->blame.r, x->blame.pattern, &x->blame.wait, &x->blame.to, why);
	case LS_K_PATH_BLAME:
		return in_range(it->kind, x->share.ns, why) ?
		       path_share(k, x->share.ns, x->share.r, x->share.idle, why) : LS_ERR_SYNTAX;
	case LS_K_WAIT:
	case LS_K_IDLE:
		return in_range(it->kind, x->wait.dur, why) ?
		       wait_state(k, x->wait.pattern, x->wait.dur, x->wait.s, x->wait.region, &x->wait.at,
				  &x->wait.t, why) : LS_ERR_SYNTAX;
	default:
		return 0;
	}
}

static int derived(struct an_rank *k, const struct ls_record *rec, const char **why)
{
	const char *name;
	uint64_t v, s, act;
	int64_t t;
	uint32_t n, i, p;
	bool idle;

	*why = NULL;
	switch (rec->kind) {
	case LS_K_CRIT:
		if (!duration(rec, LS_F_DUR, &v, why))
			break;
		if (ls_get_u64(rec, LS_F_R, &s) < 0)
			return crit_piece(k, v, LS_NONE, ls_get_u64(rec, LS_F_S, &s) == 0 ?
					  ls_index(&k->tr.defs.stream_ix, s) : LS_NONE, why);
		if ((i = region(k, rec, why)) == LS_NONE)
			return LS_ERR_SYNTAX;
		return crit_piece(k, v, i, ls_get_u64(rec, LS_F_S, &s) == 0 ?
				  ls_index(&k->tr.defs.stream_ix, s) : LS_NONE, why);
	case LS_K_BLAME:
		if (!duration(rec, LS_F_NS, &v, why) || ls_get_str(rec, LS_F_PATTERN, &name, &n) < 0)
			break;
		if ((i = region(k, rec, why)) == LS_NONE)
			return LS_ERR_SYNTAX;
		return blame_share(k, v, i, (uint32_t)ls_pattern_lookup(name, n),
				   ls_get_u64(rec, LS_F_WAIT, &s) == 0 ? &s : NULL,
				   ls_get_u64(rec, LS_F_TO, &act) == 0 ? &act : NULL, why);
	case LS_K_PATH_BLAME:
		if (!duration(rec, LS_F_NS, &v, why))
			break;
		if ((i = region(k, rec, why)) == LS_NONE)
			return LS_ERR_SYNTAX;
		return path_share(k, v, i, ls_get_bool(rec, LS_F_IDLE, &idle) == 0 && idle, why);
	case LS_K_WAIT:
	case LS_K_IDLE:
		if (!duration(rec, LS_F_DUR, &v, why) || ls_get_u64(rec, LS_F_S, &s) < 0)
			break;
		/* an idle period (in 1.0 streams, a wait record of an idleness pattern) */
		if (ls_get_str(rec, LS_F_PATTERN, &name, &n) < 0 ||
		    (p = (uint32_t)ls_pattern_lookup(name, n)) >= LS_P__COUNT)
			break;
		if ((i = ls_index(&k->tr.defs.stream_ix, s)) == LS_NONE) {
			*why = "wait state on an undefined stream";
			return LS_ERR_SYNTAX;
		}
		return wait_state(k, p, v, i, ls_get_u64(rec, LS_F_R, &s) == 0 ?
				  ls_index(&k->tr.defs.region_ix, s) : LS_NONE,
				  ls_get_u64(rec, LS_F_AT, &act) == 0 ? &act : NULL,
				  ls_get_i64(rec, LS_F_T, &t) == 0 ? &t : NULL, why);
	default:
		break;
	}
	return *why ? LS_ERR_SYNTAX : 0;
}

uint64_t an_rank_reads(void)
{
	return LS_DEFS_KINDS | ls_class_kinds(LS_C_EVENT) |
	       LS_KIND_BIT(LS_K_EDGE) | LS_KIND_BIT(LS_K_CRIT) | LS_KIND_BIT(LS_K_BLAME) | LS_KIND_BIT(LS_K_WAIT) |
	       LS_KIND_BIT(LS_K_IDLE) | LS_KIND_BIT(LS_K_PATH_BLAME);
}

/* An edge, as written or read (an_item_edge): a launch's, where it gives from and to. */
static int edge(struct an_rank *k, struct an_item *it, const char **why)
{
	struct an_edge_rec e;
	int rc = an_item_edge(it, &e, why);

	return rc < 0 ? rc : rc == 1 ? 0 : an_gpu_usage_edge(&k->gpu, &e);
}

int an_rank_take(struct an_rank *k, struct an_item *it, const char **why)
{
	const struct ls_record *rec = NULL;
	int rc;

	/* an event's fields, or a derived record's its writer knew, are read where needed */
	if (ls_kind_spec(it->kind)->cls != LS_C_EVENT && !it->known && (rc = an_item_need(it, &rec, why)) < 0)
		return rc;
	switch (ls_kind_spec(it->kind)->cls) {
	case LS_C_DEF:
		if ((rc = an_trace_def(&k->tr, rec, why)) < 0)
			return rc;
		return defined(k, rec);
	case LS_C_EVENT:
		return event(k, it, why);
	default:
		/* its own fields first, then what it names */
		*why = NULL;
		rc = it->kind == LS_K_EDGE ? edge(k, it, why) :
		     it->known ? derived_typed(k, it, why) : derived(k, rec, why);
		if (rc < 0)
			return rc;
		return an_trace_derived(&k->tr, it, why);
	}
}

static int better(const void *a, const void *b, void *ctx)
{
	const struct an_rating *x = a, *y = b;
	const struct an_rank *k = ctx;

	if (x->rating != y->rating)
		return x->rating > y->rating ? -1 : 1;
	if (k->reg[x->region].cp != k->reg[y->region].cp)
		return k->reg[x->region].cp > k->reg[y->region].cp ? -1 : 1;
	return x->region < y->region ? -1 : 1;
}

int an_rank_rate(const struct an_rank *k, bool idle, struct an_rating **out, uint32_t *n)
{
	uint32_t nreg = k->tr.defs.nregions;
	struct an_rating *v = malloc(((size_t)nreg + 1) * sizeof(*v));
	double all = (double)k->tot.blame + (idle ? (double)k->tot.idle : 0);

	if (!v)
		return LS_ERR_NOMEM;
	*n = 0;
	for (uint32_t i = 0; i < nreg; i++) {
		const struct an_rank_region *r = &k->reg[i];
		struct an_rating x = { i, 0, 0, 0, 0 };

		if (!r->calls && !r->cp && !r->blame && !r->idle)
			continue;
		if (k->tot.cp)
			x.cp_share = (double)r->cp / (double)k->tot.cp;
		if (all > 0)
			x.blame_share = ((double)r->blame + (idle ? (double)r->idle : 0)) / all;
		if (k->tot.idle)
			x.idle_share = (double)r->idle / (double)k->tot.idle;
		x.rating = x.cp_share + x.blame_share;
		v[(*n)++] = x;
	}
	qsort_r(v, *n, sizeof(*v), better, (void *)k);
	*out = v;
	return 0;
}

void an_rank_wait_range(const struct an_rank *k, enum ls_pattern p, uint64_t *min,
			uint64_t *max, uint32_t *most)
{
	uint32_t best = 0;

	*min = *max = 0;
	for (uint32_t i = 0; i < k->tr.defs.nprocs; i++) {
		uint64_t v = k->proc_wait[i][p];

		if (i == 0 || v < *min)
			*min = v;
		if (v > *max) {
			*max = v;
			best = i;
		}
	}
	if (most)
		*most = best;
}

const struct an_gpu_usage *an_rank_gpu_usage(const struct an_rank *k, uint32_t i)
{
	return an_gpu_usage_any(&k->gpu, i) ? &k->gpu.proc[i] : NULL;
}

uint32_t an_rank_gpu_total(const struct an_rank *k, struct an_gpu_usage *sum)
{
	uint32_t procs = 0;

	memset(sum, 0, sizeof(*sum));
	for (uint32_t i = 0; i < k->tr.defs.nprocs; i++) {
		const struct an_gpu_usage *g = an_rank_gpu_usage(k, i);

		if (!g)
			continue;
		procs++;
		sum->busy += g->busy, sum->kernel += g->kernel, sum->copy += g->copy;
		sum->copy_kernel += g->copy_kernel, sum->kernel_kernel += g->kernel_kernel;
		sum->kernels += g->kernels, sum->copies += g->copies;
		sum->startups += g->startups, sum->startup += g->startup;
	}
	return procs;
}

uint64_t an_rank_process_wait(const struct an_rank *k, uint32_t i, enum ls_pattern p)
{
	return k->proc_wait[i][p];
}

const struct an_waiters *an_rank_waiters(const struct an_rank *k)
{
	return k->keep_waiters ? &k->waiters : NULL;
}

const struct an_rank_totals *an_rank_totals(const struct an_rank *k)
{
	return &k->tot;
}

const struct ls_defs *an_rank_defs(const struct an_rank *k)
{
	return &k->tr.defs;
}

uint32_t an_rank_streams(const struct an_rank *k, bool gpu)
{
	uint32_t n = 0;

	for (uint32_t i = 0; i < k->tr.defs.nstreams; i++)
		n += gpu ? k->tr.defs.streams[i].gpu : k->tr.defs.streams[i].host;
	return n;
}

const struct an_rank_region *an_rank_region(const struct an_rank *k, uint32_t i)
{
	return &k->reg[i];
}

void an_rank_free(struct an_rank *k)
{
	if (!k)
		return;
	for (uint32_t i = 0; i < k->tr.defs.nregions; i++)
		free(k->reg[i].name);
	free(k->reg);
	free(k->last);
	free(k->proc_wait);
	an_gpu_usage_release(&k->gpu);
	an_idlewait_release(&k->under);
	an_waiters_release(&k->waiters);
	an_trace_release(&k->tr);
	free(k);
}
