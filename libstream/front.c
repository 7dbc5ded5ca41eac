/* The reader front: selection, (t, s) order, ids, balance and counts. */
#include <errno.h>
#include <inttypes.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "front.h"
#include "shard.h"
#include "tmpfile.h"
#include "vec.h"
#include "xsort.h"

#define MAX_ID (UINT32_C(1) << 24)
#define DEFAULT_MEM ((size_t)64 << 20)

static int fail(struct ls_front *f, int code, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail(struct ls_front *f, int code, const char *fmt, ...)
{
	va_list ap;

	if (f->err[0])
		return code;	/* the first failure is the one to say */
	f->failure = code;
	va_start(ap, fmt);
	vsnprintf(f->err, sizeof(f->err), fmt, ap);
	va_end(ap);
	return code;
}

void ls_front_init(struct ls_front *f, struct ls_writer *w, const struct ls_front_options *opt,
		   struct ls_front_report *report)
{
	size_t mem = opt->mem ? opt->mem : DEFAULT_MEM;

	memset(f, 0, sizeof(*f));
	memset(report, 0, sizeof(*report));
	f->w = w;
	f->opt = opt;
	f->report = report;
	f->next_id = opt->shards > 1 ? opt->shard : 0;
	f->id_step = opt->shards > 1 ? opt->shards : 1;
	f->max = mem / sizeof(struct ls_event) < 16 ? 16 :
		 mem / sizeof(struct ls_event) > UINT32_MAX / 2 ? UINT32_MAX / 2 :
		 (uint32_t)(mem / sizeof(struct ls_event));
}

/* Make a dense table of size bytes per entry hold index id. */
static int reserve(struct ls_front *f, void *table, uint32_t *n, size_t size, uint64_t id,
		   const char *what)
{
	int rc = ls_table_reserve(table, n, size, id, MAX_ID);

	if (rc == LS_ERR_RANGE)
		return fail(f, rc, "%s id %" PRIu64 " is past the reader's numbering (2^24)", what, id);
	return rc < 0 ? fail(f, rc, "out of memory") : 0;
}

int ls_front_stream(struct ls_front *f, uint64_t id, uint64_t process)
{
	int rc = reserve(f, &f->streams, &f->nstreams, sizeof(*f->streams), id, "stream");

	if (rc < 0)
		return rc;
	f->report->selected -= f->streams[id].defined && f->streams[id].selected && f->streams[id].in_shard;
	f->streams[id].defined = true;
	f->streams[id].selected = ls_ranges_has(&f->opt->processes, process) &&
				  ls_ranges_has(&f->opt->streams, id);
	f->streams[id].in_shard = f->opt->shards < 2 || ls_shard_of(process, f->nprocs, f->opt->shards) == f->opt->shard;
	f->report->selected += f->streams[id].selected && f->streams[id].in_shard;
	return 0;
}

int ls_front_region(struct ls_front *f, uint64_t id, enum ls_role role)
{
	int rc = reserve(f, &f->roles, &f->nregions, 1, id, "region");

	if (rc < 0)
		return rc;
	f->roles[id] = (uint8_t)role;
	return 0;
}

void ls_front_on_progress(struct ls_front *f, void (*tick)(void *ctx, uint64_t offered, uint64_t done, uint64_t total),
			  void *ctx)
{
	f->tick = tick;
	f->tick_ctx = ctx;
}

void ls_front_input_at(struct ls_front *f, uint64_t done, uint64_t total)
{
	f->input_done = done;
	f->input_total = total;
	if (f->tick)
		f->tick(f->tick_ctx, f->report->offered, done, total);
}

bool ls_front_selected(const struct ls_front *f, uint64_t stream)
{
	return stream < f->nstreams && f->streams[stream].defined && f->streams[stream].selected &&
	       f->streams[stream].in_shard;
}

void ls_front_unread(struct ls_front *f, uint64_t stream, uint64_t n)
{
	if (stream < f->nstreams && f->streams[stream].defined && f->streams[stream].in_shard)
		f->report->filtered += n;
}

bool ls_front_keeps(struct ls_front *f, uint64_t stream, int64_t t)
{
	if (stream < f->nstreams && f->streams[stream].defined && !f->streams[stream].in_shard)
		return false;	/* another shard's: neither offered nor left out here */
	if (f->tick && !(f->report->offered & 0xffff))
		f->tick(f->tick_ctx, f->report->offered, f->input_done, f->input_total);
	if (!f->report->offered++ || t < f->report->first_t)
		f->report->first_t = t;
	if (f->report->offered == 1 || t > f->report->last_t)
		f->report->last_t = t;
	if (stream >= f->nstreams || !f->streams[stream].selected ||
	    (f->opt->window && (t < f->opt->begin || t > f->opt->end))) {
		f->report->filtered++;
		return false;
	}
	return true;
}

/* The stream's order: time, then stream, then the reader's tie, then as they came. */
static int before(const struct ls_event *x, const struct ls_event *y)
{
	if (x->t != y->t)
		return x->t < y->t ? -1 : 1;
	if (x->stream != y->stream)
		return x->stream < y->stream ? -1 : 1;
	if (x->tie != y->tie)
		return x->tie < y->tie ? -1 : 1;
	if (x->tie && x->tie < LS_TIE_ZERO)	/* leaves of activities alike: the one entered last first */
		return (x->seq < y->seq) - (x->seq > y->seq);
	return (x->seq > y->seq) - (x->seq < y->seq);
}

/* The order of held events (the sort's too: its 8 bytes first). */
static int by_order(const void *a, const void *b)
{
	return before(&((const struct ls_front_held *)a)->ev, &((const struct ls_front_held *)b)->ev);
}

/* Mostly one or two events wait at a time: insertion sort those. */
static void sort_events(struct ls_front_held *v, uint32_t n)
{
	if (n > 8) {
		qsort(v, n, sizeof(*v), by_order);
		return;
	}
	for (uint32_t i = 1; i < n; i++) {
		struct ls_front_held x = v[i];
		uint32_t j = i;

		while (j > 0 && before(&v[j - 1].ev, &x.ev) > 0) {
			v[j] = v[j - 1];
			j--;
		}
		v[j] = x;
	}
}

/* Whether ev's typed form says all that its record would (ls_front_typed_only). */
static bool said_typed(const struct ls_front *f, const struct ls_event *ev)
{
	return (ev->kind == LS_K_ENTER || ev->kind == LS_K_LEAVE) && !ev->fields &&
	       ev->region < f->nregions && ls_role_group(f->roles[ev->region]) != LS_G_GPU_CALL;
}

/* Write one event in its turn: its id, the balance of its stream, the counts. */
static int emit(struct ls_front *f, const struct ls_event *ev)
{
	struct ls_front_stream *s = &f->streams[ev->stream];
	uint64_t flushes;
	size_t at;

	if (ev->kind == LS_K_ENTER) {
		if (ls_vec_room(&s->open, &s->cap, s->depth, sizeof(*s->open)) < 0)
			return fail(f, LS_ERR_NOMEM, "out of memory");
		s->open[s->depth++] = ev->region;
		if (ev->region < f->nregions)
			f->report->roles[f->roles[ev->region]]++;
	} else if (ev->kind == LS_K_LEAVE) {
		if (s->depth == 0)
			f->report->leave_without_enter++;
		else if (s->open[--s->depth] != ev->region)
			f->report->leave_mismatch++;
	}
	f->report->kinds[ev->kind]++;
	if (f->keep_written && ls_vec_room(&f->written, &f->written_cap, f->nwritten, sizeof(*f->written)) < 0)
		return fail(f, LS_ERR_NOMEM, "out of memory");
	at = f->w->out.len;
	if (f->typed_only && said_typed(f, ev)) {
		f->written[f->nwritten++] = (struct ls_written){ at, 0, f->next_id, *ev };
		f->next_id += f->id_step;
		return f->nwritten < LS_FRONT_HAND_AT || ls_writer_hand_on(f->w) == 0 ? 0 :
		       fail(f, LS_ERR_IO, "cannot write the stream");
	}
	flushes = f->w->flushes;
	if (ls_event_write(f->w, ev, f->next_id) < 0)
		return fail(f, LS_ERR_IO, "cannot write the stream");
	/* kept while its bytes are still the writer's: not handed on as it was written */
	if (f->keep_written && f->w->flushes == flushes)
		f->written[f->nwritten++] = (struct ls_written){ at, (uint32_t)(f->w->out.len - at), f->next_id,
								 *ev };
	f->next_id += f->id_step;
	return 0;
}

const struct ls_written *ls_front_written(struct ls_front *f, size_t *n)
{
	*n = f->nwritten;
	f->nwritten = 0;
	return f->written;
}

/* Write the held events before t (all of them: t = INT64_MAX); keep the rest. */
static int write_before(struct ls_front *f, int64_t t)
{
	uint32_t k = 0;
	int rc;

	sort_events(f->buf, f->nbuf);
	for (; k < f->nbuf && (f->buf[k].ev.t < t || t == INT64_MAX); k++)
		if ((rc = emit(f, &f->buf[k].ev)) < 0)
			return rc;
	if (k < f->nbuf)
		memmove(f->buf, f->buf + k, (size_t)(f->nbuf - k) * sizeof(*f->buf));
	f->nbuf -= k;
	f->open_from = f->nbuf;
	return 0;
}

/* The sort failed: said as the front says its failures. */
static int sort_failed(struct ls_front *f)
{
	const struct ls_xsort *x = &f->sort;

	f->report->runs = x->spilled;
	f->report->merges = x->merges;
	if (!x->failed)
		return fail(f, LS_ERR_NOMEM, "out of memory");
	if (!strcmp(x->failed, "make"))
		return fail(f, LS_ERR_IO, "cannot make a temporary file in %s to sort events in: %s",
			    ls_tmp_named(), strerror(x->err));
	if (!strcmp(x->failed, "read"))
		return fail(f, LS_ERR_IO, "cannot read back sorted events: %s", strerror(x->err));
	return fail(f, LS_ERR_IO, "cannot sort events in a temporary file in %s: %s", ls_tmp_named(),
		    strerror(x->err));
}

/*
 * Past the bound: what is held goes to the external sort (xsort.h), its
 * buffer and all, which spills it to disk past the same bound; from then
 * on each event goes there when the next one comes (the reader fills it
 * in until then), for the merge at the end.
 */
static int spill(struct ls_front *f)
{
	if (!f->sorting) {
		if (ls_xsort_init(&f->sort, sizeof(*f->buf), by_order, (size_t)f->max * sizeof(*f->buf)) < 0)
			return fail(f, LS_ERR_NOMEM, "out of memory");
		f->sorting = true;
		ls_xsort_adopt(&f->sort, f->buf, f->nbuf, f->cap);
		f->buf = NULL;
		f->cap = f->nbuf = 0;
	}
	for (uint32_t k = 0; k < f->nbuf; k++)
		if (ls_xsort_add(&f->sort, &f->buf[k]) < 0)
			return sort_failed(f);
	f->report->runs = f->sort.spilled;
	f->report->merges = f->sort.merges;
	f->nbuf = f->open_from = 0;
	return 0;
}

/* The sort's events in order, written as the stream. */
static int write_sorted(struct ls_front *f)
{
	const struct ls_front_held *r;
	int rc;

	if (ls_xsort_done(&f->sort) < 0)
		return sort_failed(f);
	f->report->runs = f->sort.spilled;
	f->report->merges = f->sort.merges;
	while ((r = ls_xsort_next(&f->sort)))
		if ((rc = emit(f, &r->ev)) < 0)
			return rc;
	return f->sort.err ? sort_failed(f) : 0;
}

struct ls_event *ls_front_add(struct ls_front *f, uint64_t stream, int64_t t, enum ls_kind kind)
{
	struct ls_event *ev;

	if (stream >= f->nstreams || !f->streams[stream].defined) {
		fail(f, LS_ERR_SYNTAX, "an event on stream %" PRIu64 ", which the reader did not "
		     "declare", stream);
		return NULL;
	}
	if (f->any_until && t < f->until) {
		fail(f, LS_ERR_SYNTAX, "an event at %" PRId64 " ns on stream %" PRIu64 " after the "
		     "reader was done with the times before %" PRId64 " ns", t, stream, f->until);
		return NULL;
	}
	/* the bound, whatever room the buffer has; once sorting, the event before this one */
	if (f->nbuf >= (f->sorting ? 1 : f->max) && spill(f) < 0)
		return NULL;
	if (f->nbuf >= f->cap) {
		uint32_t had = f->cap;

		if (ls_vec_room(&f->buf, &f->cap, f->nbuf, sizeof(*f->buf)) < 0) {
			fail(f, LS_ERR_NOMEM, "out of memory");
			return NULL;
		}
		/* a run on disk holds whole events: no byte of them uninitialized */
		memset(f->buf + had, 0, (size_t)(f->cap - had) * sizeof(*f->buf));
	}
	/* only what every kind reads is set; the reader sets the rest */
	ev = &f->buf[f->nbuf++].ev;
	ev->kind = kind;
	ev->stream = stream;
	ev->t = t;
	ev->seq = f->seq++;
	ev->tie = 0;
	ev->fields = 0;
	return ev;
}

struct ls_event *ls_front_open(struct ls_front *f, uint64_t seq)
{
	uint64_t first;

	if (f->open_from >= f->nbuf)
		return NULL;
	first = f->buf[f->open_from].ev.seq;
	if (seq < first || seq - first >= f->nbuf - f->open_from)
		return NULL;
	return &f->buf[f->open_from + (seq - first)].ev;
}

int ls_front_until(struct ls_front *f, int64_t t)
{
	if (f->any_until && t <= f->until)
		return 0;
	f->any_until = true;
	f->until = t;
	if (f->sorting)	/* earlier events may lie in the sort: all wait for the merge */
		return 0;
	return f->nbuf ? write_before(f, t) : 0;
}

int ls_front_finish(struct ls_front *f)
{
	int rc = f->nbuf && f->sorting ? spill(f) : 0;

	if (rc == 0)
		rc = f->sorting ? write_sorted(f) : write_before(f, INT64_MAX);

	if (rc < 0)
		return rc;
	for (uint32_t s = 0; s < f->nstreams; s++)
		f->report->open_at_end += f->streams[s].depth;
	ls_front_odd_definitions(f, f->w->repaired, "strings that are not valid UTF-8 (names, the "
				 "input's name): the bytes that break them written as U+FFFD");
	return 0;
}

static void odd(struct ls_front *f, uint64_t n, const char *what, bool of_definitions)
{
	if (f->report->nodd < LS_FRONT_MAX_ODD)
		f->report->odd[f->report->nodd++] = (typeof(f->report->odd[0])){ n, what, of_definitions };
}

void ls_front_odd(struct ls_front *f, uint64_t n, const char *what)
{
	odd(f, n, what, false);
}

void ls_front_odd_definitions(struct ls_front *f, uint64_t n, const char *what)
{
	odd(f, n, what, true);
}

void ls_front_odd_named(struct ls_front *f, uint64_t n, const char *fmt, ...)
{
	struct ls_front_report *r = f->report;
	va_list ap;

	if (!n || r->nodd_words >= sizeof(r->odd_words) / sizeof(r->odd_words[0]))
		return;
	va_start(ap, fmt);
	vsnprintf(r->odd_words[r->nodd_words], sizeof(r->odd_words[0]), fmt, ap);
	va_end(ap);
	odd(f, n, r->odd_words[r->nodd_words++], true);
}

void ls_front_note(struct ls_front *f, const char *fmt, ...)
{
	va_list ap;

	if (f->report->nnotes >= sizeof(f->report->note) / sizeof(f->report->note[0]))
		return;
	va_start(ap, fmt);
	vsnprintf(f->report->note[f->report->nnotes++], sizeof(f->report->note[0]), fmt, ap);
	va_end(ap);
}

void ls_report_input(struct ls_front_report *r, const char *kind, uint64_t read, uint64_t skipped)
{
	if (!read && !skipped)
		return;
	for (uint32_t i = 0; i < r->ninputs; i++)
		if (!strcmp(r->inputs[i].kind, kind)) {
			r->inputs[i].read += read;
			r->inputs[i].skipped += skipped;
			return;
		}
	if (r->ninputs < LS_FRONT_MAX_INPUTS)
		r->inputs[r->ninputs++] = (struct ls_front_input){ kind, read, skipped };
}

void ls_front_input(struct ls_front *f, const char *kind, uint64_t read, uint64_t skipped)
{
	ls_report_input(f->report, kind, read, skipped);
}

void ls_report_left_out(struct ls_front_report *r, const char *kind, uint64_t n)
{
	if (!n)
		return;
	for (uint32_t i = 0; i < r->nleft_out; i++)
		if (!strcmp(r->left_out[i].kind, kind)) {
			r->left_out[i].n += n;
			return;
		}
	if (r->nleft_out < LS_FRONT_MAX_INPUTS) {
		r->left_out[r->nleft_out].n = n;
		r->left_out[r->nleft_out++].kind = kind;
	}
}

void ls_front_left_out(struct ls_front *f, const char *kind, uint64_t n)
{
	f->report->ignored += n;
	ls_report_left_out(f->report, kind, n);
}

const char *ls_front_error(const struct ls_front *f)
{
	return f->err;
}

int ls_front_failure(const struct ls_front *f)
{
	return f->failure;
}

void ls_front_release(struct ls_front *f)
{
	for (uint32_t s = 0; s < f->nstreams; s++)
		free(f->streams[s].open);
	if (f->sorting)
		ls_xsort_release(&f->sort);
	free(f->streams);
	free(f->roles);
	free(f->buf);
	free(f->written);
}
