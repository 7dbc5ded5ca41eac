/*
 * tr-chrome's Chrome trace-event JSON of an analysed stream, for Perfetto
 * (ui.perfetto.dev) and chrome://tracing: a process per process, a thread
 * per stream, each activity a slice with its wait state and the blame it
 * received as arguments; the critical path as a track of its own, with
 * flow arrows where it goes from one stream to another.
 *
 * Two passes: the first keeps the definitions, each activity's wait and
 * blame, and the run's first time; the second writes the events.
 */
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../libstream/error.h"
#include "../../libstream/idmap.h"
#include "../../libstream/reader.h"
#include "../../libstream/times.h"
#include "../../libstream/vec.h"
#include "../common/tool.h"
#include "chrome.h"
#include "json-text.h"
#include "names.h"

/* What an activity (by its enter's id) waited and was blamed. */
struct act {
	char pattern[24];	/* its wait state's, "" none */
	uint64_t wait, blame, idle_blame;	/* ns */
};

struct chrome {
	const char *input;
	struct names procs, streams, regions;
	struct act *acts;
	uint32_t nacts, acts_cap;
	struct ls_idmap act_ix;
	bool any_time;
	int64_t t0;		/* the run's first time: ts 0 */
	uint64_t crit_pid;	/* the path's track: above every process id */
	uint32_t *depth;	/* open slices per stream (index) */
	int64_t *last;		/* each stream's last time written */
	bool have_piece;	/* the path so far */
	uint64_t piece_s;
	int64_t piece_end;
	uint64_t flows;
	bool first_event;	/* nothing written yet after "[" */
};

/* The ns from `from` to t as microseconds, exactly (|t - from| is below 2^64 whatever they are). */
static void micros(int64_t t, int64_t from)
{
	uint64_t a = t >= from ? (uint64_t)t - (uint64_t)from : (uint64_t)from - (uint64_t)t;

	printf("%s%" PRIu64 ".%03" PRIu64, t < from ? "-" : "", a / 1000, a % 1000);
}

/* The start of one event: its comma, phase, pid, tid and ts. */
static void event(struct chrome *c, char ph, uint64_t pid, uint64_t tid, int64_t t)
{
	printf("%s\n{\"ph\":\"%c\",\"pid\":%" PRIu64 ",\"tid\":%" PRIu64 ",\"ts\":", c->first_event ? "" : ",", ph,
	       pid, tid);
	c->first_event = false;
	micros(t, c->t0);	/* from the run's first time */
}

/* The activity with enter id, made where missing: NULL when out of memory. */
static struct act *act(struct chrome *c, uint64_t id)
{
	uint32_t i;

	if (ls_idmap_get(&c->act_ix, id, &i))
		return &c->acts[i];
	if (ls_vec_room(&c->acts, &c->acts_cap, c->nacts, sizeof(*c->acts)) < 0 ||
	    ls_idmap_put(&c->act_ix, id, c->nacts) < 0)
		return NULL;
	memset(&c->acts[c->nacts], 0, sizeof(*c->acts));
	return &c->acts[c->nacts++];
}

/* Pass 1: one record. 0 or LS_ERR_NOMEM. */
static int learn(struct chrome *c, const struct ls_record *rec)
{
	uint64_t id, ns, pid;
	struct act *a;
	const char *s;
	uint32_t n;
	int64_t t;

	switch (rec->kind) {
	case LS_K_PROCESS:
		if (ls_get_u64(rec, LS_F_ID, &pid) == 0 && pid >= c->crit_pid)
			c->crit_pid = pid + 1;
		return names_keep(&c->procs, rec);
	case LS_K_STREAM:
		return names_keep(&c->streams, rec);
	case LS_K_REGION:
		return names_keep(&c->regions, rec);
	case LS_K_WAIT:
		if (ls_get_u64(rec, LS_F_AT, &id) < 0 || ls_get_u64(rec, LS_F_DUR, &ns) < 0)
			return 0;
		if (!(a = act(c, id)))
			return LS_ERR_NOMEM;
		a->wait += ns;
		if (ls_get_str(rec, LS_F_PATTERN, &s, &n) == 0 && !a->pattern[0])
			snprintf(a->pattern, sizeof(a->pattern), "%.*s", (int)n, s);
		return 0;
	case LS_K_BLAME:
		if (ls_get_u64(rec, LS_F_TO, &id) < 0 || ls_get_u64(rec, LS_F_NS, &ns) < 0)
			return 0;
		if (!(a = act(c, id)))
			return LS_ERR_NOMEM;
		if (ls_get_str(rec, LS_F_PATTERN, &s, &n) == 0 && ls_pattern_name_idle(s, n))
			a->idle_blame += ns;
		else
			a->blame += ns;
		return 0;
	default:
		if (ls_get_i64(rec, LS_F_T, &t) == 0 && (!c->any_time || t < c->t0)) {
			c->any_time = true;
			c->t0 = t;
		}
		return 0;
	}
}

/* A name as a JSON string: the definition's, else what and its id. */
static void name_of(const struct named *d, const char *what, uint64_t id)
{
	char buf[48];

	if (d && d->name) {
		json_text(d->name, strlen(d->name), false);
		return;
	}
	snprintf(buf, sizeof(buf), "%s %" PRIu64, what, id);
	json_text(buf, strlen(buf), false);
}

/* The processes and threads, named and in the order of definition; the path's track. */
static void metadata(struct chrome *c)
{
	for (uint32_t i = 0; i < c->procs.n; i++) {
		event(c, 'M', c->procs.v[i].id, 0, c->t0);
		printf(",\"name\":\"process_name\",\"args\":{\"name\":");
		name_of(&c->procs.v[i], "process", c->procs.v[i].id);
		printf("}}");
		event(c, 'M', c->procs.v[i].id, 0, c->t0);
		printf(",\"name\":\"process_sort_index\",\"args\":{\"sort_index\":%" PRIu32 "}}", i + 1);
	}
	for (uint32_t i = 0; i < c->streams.n; i++) {
		event(c, 'M', c->streams.v[i].process, c->streams.v[i].id, c->t0);
		printf(",\"name\":\"thread_name\",\"args\":{\"name\":");
		name_of(&c->streams.v[i], "stream", c->streams.v[i].id);
		printf("}}");
		event(c, 'M', c->streams.v[i].process, c->streams.v[i].id, c->t0);
		printf(",\"name\":\"thread_sort_index\",\"args\":{\"sort_index\":%" PRIu32 "}}", i);
	}
	event(c, 'M', c->crit_pid, 0, c->t0);
	printf(",\"name\":\"process_name\",\"args\":{\"name\":\"critical path\"}}");
	event(c, 'M', c->crit_pid, 0, c->t0);
	printf(",\"name\":\"process_sort_index\",\"args\":{\"sort_index\":0}}");
	event(c, 'M', c->crit_pid, 0, c->t0);
	printf(",\"name\":\"thread_name\",\"args\":{\"name\":\"critical path\"}}");
}

/* An activity's slice begins: its region's name and role, its wait and blame. */
static void begin(struct chrome *c, const struct ls_record *rec, uint64_t pid, uint64_t s, int64_t t)
{
	uint64_t id, r = 0;
	const struct named *reg;
	uint32_t i;

	ls_get_u64(rec, LS_F_R, &r);
	reg = names_get(&c->regions, r);
	event(c, 'B', pid, s, t);
	printf(",\"name\":");
	name_of(reg, "region", r);
	printf(",\"cat\":\"%s\",\"args\":{\"region\":%" PRIu64, reg && reg->role[0] ? reg->role : "cpu", r);
	if (ls_get_u64(rec, LS_F_ID, &id) == 0 && ls_idmap_get(&c->act_ix, id, &i)) {
		const struct act *a = &c->acts[i];

		if (a->pattern[0])
			printf(",\"wait\":\"%s\",\"wait_ns\":%" PRIu64, a->pattern, a->wait);
		if (a->blame)
			printf(",\"blame_ns\":%" PRIu64, a->blame);
		if (a->idle_blame)
			printf(",\"gpu_idle_blame_ns\":%" PRIu64, a->idle_blame);
	}
	printf("}}");
}

/* A piece of the path on its track, and an arrow from the last piece where it changed stream. */
static void piece(struct chrome *c, const struct ls_record *rec)
{
	uint64_t s, dur, r = 0;
	const struct named *st;
	int64_t t;

	if (ls_get_u64(rec, LS_F_S, &s) < 0 || ls_get_i64(rec, LS_F_T, &t) < 0 ||
	    ls_get_u64(rec, LS_F_DUR, &dur) < 0 || !(st = names_get(&c->streams, s)))
		return;
	event(c, 'X', c->crit_pid, 0, t);
	printf(",\"dur\":");
	printf("%" PRIu64 ".%03" PRIu64, dur / 1000, dur % 1000);
	printf(",\"name\":");
	if (ls_get_u64(rec, LS_F_R, &r) == 0)
		name_of(names_get(&c->regions, r), "region", r);
	else
		printf("\"(no activity)\"");
	printf(",\"cat\":\"critical path\",\"args\":{\"stream\":");
	name_of(st, "stream", s);
	printf(",\"ns\":%" PRIu64 "}}", dur);
	if (c->have_piece && c->piece_s != s) {
		const struct named *from = names_get(&c->streams, c->piece_s);

		c->flows++;
		event(c, 's', from->process, c->piece_s, c->piece_end);
		printf(",\"id\":%" PRIu64 ",\"name\":\"critical path\",\"cat\":\"critical path\"}", c->flows);
		event(c, 'f', st->process, s, t > c->piece_end ? t : c->piece_end);	/* never before it starts */
		printf(",\"id\":%" PRIu64 ",\"bp\":\"e\",\"name\":\"critical path\",\"cat\":\"critical path\"}",
		       c->flows);
	}
	c->have_piece = true;
	c->piece_s = s;
	c->piece_end = ls_time_plus_held(t, (int64_t)(dur > LS_DUR_MAX ? LS_DUR_MAX : dur));
}

/* Pass 2: one record. */
static void write_record(struct chrome *c, const struct ls_record *rec)
{
	const struct named *st;
	uint64_t s;
	uint32_t i;
	int64_t t;

	if (rec->kind == LS_K_CRIT) {
		piece(c, rec);
		return;
	}
	if ((rec->kind != LS_K_ENTER && rec->kind != LS_K_LEAVE) || ls_get_u64(rec, LS_F_S, &s) < 0 ||
	    ls_get_i64(rec, LS_F_T, &t) < 0 || !ls_idmap_get(&c->streams.ix, s, &i))
		return;
	st = &c->streams.v[i];
	/* a thread's slices in time order, also where the stream's events are not */
	if (c->depth[i] && t < c->last[i])
		t = c->last[i];
	c->last[i] = t;
	if (rec->kind == LS_K_ENTER) {
		begin(c, rec, st->process, s, t);
		c->depth[i]++;
	} else if (c->depth[i]) {	/* a leave of nothing entered has no slice */
		event(c, 'E', st->process, s, t);
		putchar('}');
		c->depth[i]--;
	}
}

static int learn_each(void *c, const struct ls_record *rec)
{
	return learn(c, rec);
}

static int write_each(void *c, const struct ls_record *rec)
{
	write_record(c, rec);
	return 0;
}

static int convert(struct chrome *c, struct ls_reader *r)
{
	if (tool_pass_checked(r, learn_each, c) != 0)
		return 1;
	if (!(c->depth = calloc(c->streams.n + 1, sizeof(*c->depth))) ||
	    !(c->last = calloc(c->streams.n + 1, sizeof(*c->last)))) {
		tool_error("out of memory");
		return 1;
	}
	printf("{\"displayTimeUnit\":\"ns\",\"otherData\":{\"source\":");
	json_text(c->input, strlen(c->input), false);
	printf(",\"ts\":\"microseconds from the run's first event\"},\"traceEvents\":[");
	c->first_event = true;
	metadata(c);
	if (tool_pass(r, write_each, c) != 0)
		return 1;
	/* activities never left: closed where their stream's events end */
	for (uint32_t i = 0; i < c->streams.n; i++)
		for (; c->depth[i]; c->depth[i]--) {
			event(c, 'E', c->streams.v[i].process, c->streams.v[i].id, c->last[i]);
			putchar('}');
		}
	printf("\n]}\n");
	return 0;
}

int chrome_json(struct ls_reader *r)
{
	struct chrome c = { .input = r->name, .first_event = true };
	int status = convert(&c, r);

	names_release(&c.procs);
	names_release(&c.streams);
	names_release(&c.regions);
	free(c.acts);
	free(c.depth);
	free(c.last);
	ls_idmap_release(&c.act_ix);
	return status;
}
