/* The clock condition: raising events after what they depend on, on the re-timing engine. */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../libstream/error.h"
#include "../libstream/record.h"
#include "../libstream/times.h"
#include "../libstream/vec.h"
#include "clock.h"
#include "retime.h"
#include "stage.h"
#include "trace.h"

#define DEFAULT_WINDOW INT64_C(10000000)	/* ns */
#define RAISES_MAX 1000000	/* raises one edge may cause: past it, a cycle */
#define AGAIN_MAX 2		/* times what an edge's raise led to may break that edge again: past it, a cycle */

struct an_clock {
	struct an_trace tr;
	struct an_retime rt;	/* the events held, their new times and edges; the stream written */
	uint32_t *todo;		/* nodes that moved: their out-edges to check */
	uint32_t ntodo, todo_cap;
	struct an_latency shown;	/* the least message latency the trace shows */
	struct an_clock_options o;
	struct an_clock_stats st;
};

struct an_clock *an_clock_new(struct ls_writer *w, const struct an_clock_options *o)
{
	struct an_clock *c = calloc(1, sizeof(*c));

	if (!c)
		return NULL;
	an_trace_init(&c->tr);
	c->shown = (struct an_latency)AN_LATENCY_INIT;
	c->o = *o;
	if (c->o.window <= 0)
		c->o.window = DEFAULT_WINDOW;
	an_retime_init(&c->rt, w, &c->tr.defs, c->o.window);
	return c;
}

uint64_t an_clock_reads(void)
{
	return LS_DEFS_KINDS | ls_class_kinds(LS_C_EVENT) | LS_KIND_BIT(LS_K_EDGE);
}

/* Raising events */

static int todo(struct an_clock *c, uint32_t i)
{
	if (ls_vec_room(&c->todo, &c->todo_cap, c->ntodo, sizeof(*c->todo)) < 0)
		return LS_ERR_NOMEM;
	c->todo[c->ntodo++] = i;
	return 0;
}

/* Whether nodes x and y are events of one process (its threads and GPU streams). */
static bool same_process(const struct an_clock *c, uint32_t x, uint32_t y)
{
	return c->tr.defs.streams[c->rt.g.n[x].s].process == c->tr.defs.streams[c->rt.g.n[y].s].process;
}

/* Whether edge e keeps its source from moving further than its target allows (slack). */
static bool limits(const struct an_clock *c, const struct an_rt_edge *e)
{
	return e->to == LS_NONE || !e->moves || c->rt.n[e->to].written || !same_process(c, e->from, e->to);
}

/*
 * How much later node x may be: as far as the edges it is the source of
 * allow where their target cannot move along (written, no longer kept, a
 * host call that waited for the GPU, or another process's event: moving
 * that process for this one's clock would carry the error over, and what
 * it leads to could come back here and raise x's stream again, without
 * end).
 */
static int64_t slack(const struct an_clock *c, uint32_t x)
{
	int64_t room = INT64_MAX;

	for (uint32_t k = c->rt.n[x].out; k != LS_NONE; k = c->rt.e[k].next) {
		const struct an_rt_edge *e = &c->rt.e[k];
		int64_t r;

		if (!limits(c, e))
			continue;
		r = e->to == LS_NONE ? 0 : c->rt.n[e->to].L - e->latency - c->rt.n[x].L;
		if (r < room)
			room = r;
	}
	return room;
}

/*
 * The events of a stream from node y back, not yet written, each as late
 * as the next one's shift puts it, as far as slack and the window allow
 * (a clock off by a constant is thus moved as a whole): the latest first,
 * until one does not move. Every event moved is checked again (todo), so
 * that what its edges lead to moves along. Returns 0 or LS_ERR_NOMEM.
 */
static int pull_back(struct an_clock *c, uint32_t y)
{
	int rc;

	for (; y != LS_NONE && !c->rt.n[y].written; y = c->rt.g.n[y].prev) {
		uint32_t z = c->rt.n[y].next;
		int64_t want, room;

		if (z == LS_NONE)
			break;
		want = c->rt.n[z].L - (c->rt.g.n[z].t - c->rt.g.n[y].t);
		if (want - c->rt.g.n[y].t > c->o.window)
			want = c->rt.g.n[y].t + c->o.window;
		if (want <= c->rt.n[y].L)	/* as late as its next already: no edge to ask */
			break;
		room = slack(c, y);
		if (room < want - c->rt.n[y].L)
			want = c->rt.n[y].L + room;
		if (want <= c->rt.n[y].L)
			break;
		c->rt.n[y].L = want;
		if ((rc = todo(c, y)) < 0)
			return rc;
	}
	return 0;
}

/*
 * Node b must be no earlier than to (later than it is): it moves there,
 * the rest of its stream after it as far as that takes them; the events
 * before it move back along (pull_back). Returns 0 (a raise
 * past the window or of a written event is counted, not made) or
 * LS_ERR_NOMEM.
 */
static int raise(struct an_clock *c, uint32_t b, int64_t to)
{
	int rc;

	if (c->rt.n[b].written) {
		c->st.late++;
		return 0;
	}
	/* to is a time plus a latency (at most 1 s): past the window of any time, checked apart */
	if (!ls_time_ok(to) || ls_span(c->rt.g.n[b].t, to) > (uint64_t)c->o.window) {
		c->st.too_far++;
		return 0;
	}
	c->rt.n[b].L = to;
	if ((rc = todo(c, b)) < 0)
		return rc;
	for (uint32_t x = c->rt.n[b].next; x != LS_NONE; x = c->rt.n[x].next) {
		int64_t L = an_retime_go_on(&c->rt, x);

		if (L <= c->rt.n[x].L)
			break;
		c->rt.n[x].L = L;
		if ((rc = todo(c, x)) < 0)
			return rc;
	}
	return pull_back(c, c->rt.g.n[b].prev);
}

/* The edge from node a to node b: b no earlier than a plus its latency. */
static int enforce(struct an_clock *c, uint32_t a, uint32_t b, int64_t latency)
{
	uint32_t raises = 0, again = 0;
	int rc;

	if (c->rt.n[a].L + latency <= c->rt.n[b].L)
		return 0;
	c->ntodo = 0;
	if ((rc = raise(c, b, c->rt.n[a].L + latency)) < 0)
		return rc;
	while (c->ntodo) {
		uint32_t x = c->todo[--c->ntodo];

		/*
		 * x is later now: the sources whose move back it held, on other
		 * processes or GPU streams, may go further (whatever order the
		 * moves came in, every event ends as late as the rules allow)
		 */
		for (uint32_t k = c->rt.n[x].in; k != LS_NONE; k = c->rt.e[k].next_in)
			if (limits(c, &c->rt.e[k]) && (rc = pull_back(c, c->rt.e[k].from)) < 0)
				return rc;

		for (uint32_t k = c->rt.n[x].out; k != LS_NONE; k = c->rt.e[k].next) {
			struct an_rt_edge *e = &c->rt.e[k];
			int64_t need = c->rt.n[x].L + e->latency;

			if (e->to == LS_NONE || c->rt.n[e->to].L >= need)
				continue;
			if (!e->moves) {	/* each such edge counted once, however often its source moves */
				c->st.gpu_late += !e->marked;
				e->marked = true;
				continue;
			}
			/*
			 * edges in a cycle: each round raises the same events again
			 * (its edges contradict each other, or a move back feeds the
			 * move that caused it), and would go on to the window
			 */
			if (++raises > RAISES_MAX || (x == a && e->to == b && ++again > AGAIN_MAX)) {
				c->st.too_far++;
				c->ntodo = 0;
				return 0;
			}
			if ((rc = raise(c, e->to, need)) < 0)
				return rc;
		}
	}
	return 0;
}

static int edge(struct an_clock *c, struct an_item *it, const char **why)
{
	uint32_t a, b, k;
	enum ls_edge e;
	int64_t latency;
	bool moves;
	int rc;

	if ((rc = an_retime_take_edge(&c->rt, it, &e, &a, &b, &c->st.unheld, &c->st.lost, why)) <= 0)
		return rc;
	if (a == b)
		return 0;
	if (e == LS_E_MSG && (rc = an_latency_see(&c->shown, c->tr.defs.streams[c->rt.g.n[a].s].process,
						  c->tr.defs.streams[c->rt.g.n[b].s].process,
						  c->rt.g.n[b].t - c->rt.g.n[a].t)) < 0)
		return rc;
	latency = e < LS_E__COUNT ? c->o.latency[e] : 0;
	/*
	 * broken as recorded: whatever moved before, in whatever order the
	 * edges come, and whether it is enforced or (counted below) not
	 */
	if (e < LS_E__COUNT && c->rt.g.n[a].t + latency > c->rt.g.n[b].t)
		c->st.violations[e]++;
	if (c->rt.n[b].written) {	/* it can no longer move: counted where it should have */
		c->st.late += c->rt.n[a].L + latency > c->rt.n[b].L;
		return 0;
	}
	/*
	 * A GPU event after the host call that waited for it: the GPU's clock
	 * is late there, and moving the host would carry that into every
	 * launch after it (and round again): such an edge is counted, and
	 * only keeps its source from moving further.
	 */
	moves = !c->tr.defs.streams[c->rt.g.n[a].s].gpu || c->tr.defs.streams[c->rt.g.n[b].s].gpu;
	if ((rc = an_retime_edge(&c->rt, a, b, latency, moves, &k)) < 0)
		return rc;
	if (!moves) {
		bool late = c->rt.n[a].L + latency > c->rt.n[b].L;

		c->st.gpu_late += late;
		if (k != LS_NONE)	/* counted: not again when its source moves */
			c->rt.e[k].marked = late;
		return 0;
	}
	return enforce(c, a, b, latency);
}

/* Taking records */

static int event(struct an_clock *c, struct an_item *it, const char **why)
{
	struct an_event ev;
	uint32_t i;
	int rc;

	if ((rc = an_trace_item(&c->tr, it, &ev, why)) < 0)
		return rc;
	c->st.events++;
	return an_retime_event(&c->rt, it->raw, it->len, &ev, &i);
}

int an_clock_take(struct an_clock *c, struct an_item *it, const char **why)
{
	const struct ls_record *rec = NULL;
	int rc;

	/* a derived record's fields are read where needed: a stage's own edges come typed */
	switch (ls_kind_spec(it->kind)->cls) {
	case LS_C_DEF:
		if ((rc = an_item_need(it, &rec, why)) < 0 || (rc = an_trace_def(&c->tr, rec, why)) < 0)
			return rc;
		if (rec->kind == LS_K_STREAM && (rc = an_retime_stream(&c->rt)) < 0)
			return rc;
		rc = an_retime_other(&c->rt, it);
		break;
	case LS_C_EVENT:
		rc = event(c, it, why);
		break;
	default:
		rc = (rc = an_trace_derived(&c->tr, it, why)) < 0 ? rc :
		     it->kind == LS_K_EDGE ? edge(c, it, why) : an_retime_other(&c->rt, it);
		break;
	}
	if (rc == LS_ERR_SYNTAX)	/* what came before the bad record is written */
		return an_retime_finish(&c->rt) < 0 ? LS_ERR_IO : rc;
	return rc < 0 ? rc : an_retime_step(&c->rt);
}

int an_clock_finish(struct an_clock *c)
{
	return an_retime_finish(&c->rt);
}

struct an_clock_stats an_clock_stats(const struct an_clock *c)
{
	struct an_clock_stats st = c->st;

	st.moved = c->rt.moved;
	st.max_shift = c->rt.max_shift;
	st.total_shift = c->rt.total_shift;
	st.peak = c->rt.peak;
	if (!an_latency_least(&c->shown, &st.shown_msg, &st.shown_pairs))
		st.shown_msg = 0;
	return st;
}

uint32_t an_clock_held(const struct an_clock *c)
{
	return an_retime_held(&c->rt);
}

void an_clock_free(struct an_clock *c)
{
	if (!c)
		return;
	an_trace_release(&c->tr);
	an_retime_release(&c->rt);
	an_latency_release(&c->shown);
	free(c->todo);
	free(c);
}

/* tr-clock as a stage (stage.h): opts, struct an_clock_options (NULL: the defaults) */

static const struct an_typed *typed_clock(void *ctx, size_t *n)
{
	struct an_clock *c = ctx;

	return an_retime_typed(&c->rt, n);
}

static void *open_clock(struct ls_writer *w, unsigned jobs, const void *opts)
{
	static const struct an_clock_options defaults = { 0 };

	(void)jobs;
	return an_clock_new(w, opts ? opts : &defaults);
}

static int take_clock(void *ctx, struct an_item *it, const char **why)
{
	return an_clock_take(ctx, it, why);
}

static int finish_clock(void *ctx, const char **why)
{
	(void)why;
	return an_clock_finish(ctx);
}

static size_t odd_clock(const void *ctx, struct an_count *out)
{
	struct an_clock_stats st = an_clock_stats(ctx);
	const struct an_count odd[] = {
		{ st.gpu_late, "GPU activities that ended after the host call that waited for them "
			       "(the GPU's clock runs late there): left as they are" },
		{ st.late, "edges that put their target before their source, read after the target "
			   "was written: not enforced (a longer --window lets them in before it)" },
		{ st.unheld, "edges into events the window no longer held: not checked (a longer "
			     "--window keeps them)" },
		{ st.lost, "edges from events no longer kept (a window older than the input): not checked" },
		{ st.too_far, "events that would move further than the window (or edges in a cycle): "
			      "not moved" },
	};

	memcpy(out, odd, sizeof(odd));
	return sizeof(odd) / sizeof(odd[0]);
}

static void held_clock(const void *ctx, char *what, size_t n)
{
	snprintf(what, n, "%" PRIu32 " events held until the window has passed them (a smaller "
		 "--window?)", an_clock_held(ctx));
}

static void close_clock(void *ctx)
{
	an_clock_free(ctx);
}

static const char *const clock_needs[] = { "tr-deps", NULL };
static const char *const clock_before[] = { "tr-waits", "tr-critpath", NULL };
static const enum ls_kind clock_replaces[] = { 0 };

const struct an_stage an_stage_clock = {
	.tool = "tr-clock", .needs = clock_needs, .before = clock_before, .replaces = clock_replaces,
	.reads = an_clock_reads, .writes = true, .open = open_clock, .take = take_clock, .typed = typed_clock,
	.finish = finish_clock, .odd = odd_clock, .held = held_clock, .close = close_clock,
};
