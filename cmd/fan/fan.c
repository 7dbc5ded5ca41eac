/* The trace read and its tr-deps run by MPI ranks, shard by shard, fanned in to rank 0. */
#include <mpi.h>
#include <pthread.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "../../libstream/enc.h"
#include "../../libstream/error.h"
#include "../../libstream/header.h"
#include "../../libstream/mp.h"
#include "../../libstream/record.h"
#include "fan.h"
#include "ids.h"
#include "port.h"
#include "nap.h"
#include "../output/staging.h"
#include "../common/cputime.h"
#include "../common/tool.h"

#define BATCH (64 * 1024)	/* bytes of whole records a message carries */
#define QUEUE 4			/* batches rank 0's own reader may be ahead of the merge */
enum { TAG_DATA = 1, TAG_END = 2, TAG_DONE = 3 };	/* DONE: no records come before the end */

/* A message of a shard: its tag and bytes (LS_RECORD_PAD more allocated; NULL: lost, out of memory). */
struct message {
	int tag, len;
	uint8_t *p;
};

/* Rank 0's own shard: the thread that reads it, and the messages it sent, oldest first. */
struct fan_local {
	pthread_t thread;
	int (*read)(void *arg);
	void *arg;
	pthread_mutex_t lock;
	pthread_cond_t changed;
	struct message v[QUEUE];
	unsigned head, n;
};

/*
 * The end of a shard's stream: its status, its error, its report, its
 * stage's counts (their words: rank 0's own) and what it did; then the
 * report's strings.
 */
struct end {
	int status;
	char err[512];
	struct ls_front_report report;
	struct an_count odd[AN_COUNTS_MAX];
	uint32_t nodd;
	struct fan_work work;
};

static int fan_init(int *argc, char ***argv, struct fan *f)
{
	const struct fan_ops *ops = f->ops;
	sigset_t mask;
	int provided, rc;

	memset(f, 0, sizeof(*f));
	f->ops = ops;
	/* the threads MPI starts never take the signals that remove staged output */
	staging_mask_threads(&mask);
	/* rank 0's shard, on a thread of its own, sends facts while its main thread merges */
	rc = MPI_Init_thread(argc, argv, MPI_THREAD_MULTIPLE, &provided);
	pthread_sigmask(SIG_SETMASK, &mask, NULL);
	if (rc != MPI_SUCCESS) {
		tool_error("--mpi: MPI_Init failed");
		return 1;
	}
	MPI_Comm_rank(MPI_COMM_WORLD, &f->rank);
	MPI_Comm_size(MPI_COMM_WORLD, &f->size);
	if (provided < MPI_THREAD_MULTIPLE && f->size > 1) {
		if (f->rank == 0)
			tool_error("--mpi: this MPI library does not let threads call it at once "
				   "(MPI_THREAD_MULTIPLE), which the ranks need");
		MPI_Finalize();
		return 1;
	}
	if (f->size > 1 && !(f->port = port_new(MPI_COMM_WORLD))) {
		tool_error("--mpi: out of memory, or MPI failed");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	if (f->rank == 0 && f->size > 1 && !(f->work = calloc((size_t)f->size, sizeof(*f->work)))) {
		tool_error("out of memory");
		MPI_Abort(MPI_COMM_WORLD, 1);
	}
	return 0;
}

static void fan_finish(struct fan *f)
{
	for (size_t i = 0; i < f->nstrings; i++)
		free(f->strings[i]);
	free(f->strings);
	free(f->work);
	if (f->local) {
		pthread_mutex_destroy(&f->local->lock);
		pthread_cond_destroy(&f->local->changed);
		free(f->local);
	}
	MPI_Finalize();
}

static void *local_main(void *arg)
{
	struct fan_local *l = arg;

	l->read(l->arg);
	return NULL;
}

static int fan_start(struct fan *f, int (*read)(void *arg), void *arg)
{
	struct fan_local *l = calloc(1, sizeof(*l));
	sigset_t mask;
	int rc;

	if (!l) {
		tool_error("out of memory");
		return 1;
	}
	l->read = read;
	l->arg = arg;
	pthread_mutex_init(&l->lock, NULL);
	pthread_cond_init(&l->changed, NULL);
	f->local = l;
	staging_mask_threads(&mask);
	rc = pthread_create(&l->thread, NULL, local_main, l);
	pthread_sigmask(SIG_SETMASK, &mask, NULL);
	if (rc != 0) {
		tool_error("--mpi: cannot start rank 0's reader");
		pthread_mutex_destroy(&l->lock);
		pthread_cond_destroy(&l->changed);
		free(l);
		f->local = NULL;
		return 1;
	}
	return 0;
}

static void fan_shard(const struct fan *f, struct ls_front_options *opt)
{
	opt->shard = (uint32_t)f->rank;
	opt->shards = (uint32_t)f->size;
}

/*
 * A message to rank 0: over MPI, or from rank 0's own reader into its
 * queue, waiting while that is full (where a copy cannot be made, the
 * message goes as lost, for rank 0 to say). Returns 0, or -1 where MPI failed.
 */
static int post(struct fan *f, int tag, const void *p, size_t len)
{
	struct fan_local *l = f->local;
	struct message m = { tag, (int)len, NULL };

	if (f->rank != 0) {
		MPI_Request req;

		f->to_rank0 += len;
		return MPI_Isend(p, (int)len, MPI_BYTE, 0, tag, MPI_COMM_WORLD, &req) == MPI_SUCCESS &&
		       nap_wait(&req) == MPI_SUCCESS ? 0 : -1;
	}
	if ((m.p = malloc(len + LS_RECORD_PAD)))
		memcpy(m.p, p, len);
	pthread_mutex_lock(&l->lock);
	while (l->n == QUEUE)
		pthread_cond_wait(&l->changed, &l->lock);
	l->v[(l->head + l->n++) % QUEUE] = m;
	pthread_cond_broadcast(&l->changed);
	pthread_mutex_unlock(&l->lock);
	return 0;
}

static int send_batch(void *ctx, struct ls_buf *out)
{
	struct fan *f = ctx;

	/* the other shards' stages may wait on this one's facts while rank 0 does not take the batch */
	if ((f->port && port_flush(f->port) < 0) || post(f, TAG_DATA, out->p, out->len) < 0)
		return LS_ERR_IO;
	out->len = 0;
	return 0;
}

/* Rank 0 told (once) that this shard's stream has all its records, its end to come. */
static void tell_done(struct fan *f)
{
	if (!f->done && post(f, TAG_DONE, "", 0) == 0)
		f->done = true;
}

/*
 * The shard's stage waits on another's facts: rank 0 first gets the
 * stream it made so far, and, where the stage is at its end (it writes
 * nothing more), that nothing more comes, so that its merge goes on
 * without this shard while it waits for the others' last facts.
 */
static void flush_stream(void *ctx, bool at_end)
{
	struct fan *f = ctx;

	if (ls_writer_flush(f->w) == 0 && at_end)
		tell_done(f);
}

static const struct an_remote *fan_writer(struct fan *f, struct ls_writer *w)
{
	ls_writer_init_sink(w, send_batch, f, BATCH);
	f->w = w;
	return f->port ? port_remote(f->port, flush_stream, f) : NULL;
}

/* The report's strings one after another, each ended by a 0 byte, into b. */
static int pack_strings(const struct ls_front_report *r, struct ls_buf *b)
{
	int rc = 0;

	for (uint32_t i = 0; i < r->nodd && rc == 0; i++)
		rc = ls_buf_add(b, r->odd[i].what, strlen(r->odd[i].what) + 1);
	for (uint32_t i = 0; i < r->nleft_out && rc == 0; i++)
		rc = ls_buf_add(b, r->left_out[i].kind, strlen(r->left_out[i].kind) + 1);
	for (uint32_t i = 0; i < r->ninputs && rc == 0; i++)
		rc = ls_buf_add(b, r->inputs[i].kind, strlen(r->inputs[i].kind) + 1);
	return rc;
}

static int fan_end(struct fan *f, struct ls_writer *w, int status, const char *err,
		   const struct ls_front_report *r, const struct an_count *odd, size_t nodd, uint64_t events)
{
	struct end e = { .status = status, .nodd = (uint32_t)nodd, .work = { events, 0, 0 } };
	struct ls_buf b = LS_BUF_INIT;
	int flushed = ls_writer_flush(w), rc;

	/* rank 0 merges on without this shard while it waits for the others' ends */
	if (flushed == 0)
		tell_done(f);
	/* the other shards' stages take this one's facts to its end, whatever came of it */
	if (f->port && port_close(f->port, &e.work.to_ranks) < 0)
		flushed = -1;
	f->port = NULL;
	snprintf(e.err, sizeof(e.err), "%s", err ? err : "");
	e.work.cpu_ns = cpu_time_ns(RUSAGE_THREAD);
	e.report = *r;
	memcpy(e.odd, odd, nodd * sizeof(*odd));
	e.work.to_rank0 = f->to_rank0;
	if (flushed < 0 || ls_buf_add(&b, &e, sizeof(e)) < 0 || pack_strings(r, &b) < 0) {
		/* what was read goes to rank 0 all the same; only the end says it failed */
		e.status = 1;
		snprintf(e.err, sizeof(e.err), "out of memory, or MPI failed");
		b.len = 0;
		if (ls_buf_add(&b, &e, sizeof(e)) < 0) {
			ls_buf_release(&b);
			return 1;
		}
	}
	rc = post(f, TAG_END, b.p, b.len) < 0;
	ls_buf_release(&b);
	if (rc)
		tool_error("--mpi: cannot send to rank 0");
	return rc;
}

/* Rank 0's view of one shard's stream. */
struct source {
	int rank;
	uint8_t *batch;
	int len, at;
	bool ended;		/* its end came */
	bool done;		/* no record comes before its end (the merge has it all) */
	bool draining;		/* read to its end all the same */
	struct ls_record head;	/* its next event, in batch */
	bool has_head;
	int64_t t;
	uint64_t s;
};

/* A shard's report into r: counts added; the definitions' oddities once. */
static void add_report(struct ls_front_report *r, const struct ls_front_report *x)
{
	for (int k = 0; k < LS_K__COUNT; k++)
		r->kinds[k] += x->kinds[k];
	for (int i = 0; i < LS_R__COUNT; i++)
		r->roles[i] += x->roles[i];
	r->leave_without_enter += x->leave_without_enter;
	r->leave_mismatch += x->leave_mismatch;
	r->open_at_end += x->open_at_end;
	r->filtered += x->filtered;
	if (x->offered && (!r->offered || x->first_t < r->first_t))
		r->first_t = x->first_t;
	if (x->offered && (!r->offered || x->last_t > r->last_t))
		r->last_t = x->last_t;
	r->offered += x->offered;
	r->selected += x->selected;
	r->runs += x->runs;
	r->merges += x->merges;
	r->ignored += x->ignored;
	for (uint32_t i = 0; i < x->nodd; i++) {
		uint32_t j = 0;

		while (j < r->nodd && strcmp(r->odd[j].what, x->odd[i].what))
			j++;
		if (j == r->nodd && r->nodd < LS_FRONT_MAX_ODD)
			r->odd[r->nodd++] = x->odd[i], r->odd[j].n = 0;
		/* every shard counts the definitions it read (the global ones all of them): the most, not the last */
		if (j < r->nodd && x->odd[i].of_definitions)
			r->odd[j].n = x->odd[i].n > r->odd[j].n ? x->odd[i].n : r->odd[j].n;
		else if (j < r->nodd)
			r->odd[j].n += x->odd[i].n;
	}
	for (uint32_t i = 0; i < x->nleft_out; i++)
		ls_report_left_out(r, x->left_out[i].kind, x->left_out[i].n);
	for (uint32_t i = 0; i < x->ninputs; i++)
		ls_report_input(r, x->inputs[i].kind, x->inputs[i].read, x->inputs[i].skipped);
	for (uint32_t i = 0; i < x->nnotes && r->nnotes < 2; i++)
		memcpy(r->note[r->nnotes++], x->note[i], sizeof(r->note[0]));
}

/*
 * A shard's end message (e, its strings after it): its report, whose
 * strings are kept in f, added into r; its failure said in f->err.
 */
static int take_end(struct fan *f, struct source *src, uint8_t *msg, int n, struct ls_front_report *r)
{
	struct end e;
	const char *p, *end;
	char *kept, **keep;

	if (n < (int)sizeof(e))
		return -1;
	memcpy(&e, msg, sizeof(e));
	src->ended = true;
	/* the stage's counts added up, in rank 0's words (every rank runs the same program) */
	for (uint32_t i = 0; i < e.nodd && i < AN_COUNTS_MAX; i++) {
		f->odd[i].n += e.odd[i].n;
		if (src->rank == 0)
			f->odd[i].what = e.odd[i].what;
	}
	if (src->rank == 0)
		f->nodd = e.nodd;
	f->work[src->rank] = e.work;
	if (e.status && (!f->err[0] || src->rank < f->err_rank)) {
		snprintf(f->err, sizeof(f->err), "rank %d: %.480s", src->rank, e.err);
		f->err_rank = src->rank;
	}
	/* the strings, kept for as long as r names them */
	if (!(kept = malloc((size_t)(n - (int)sizeof(e)) + 1)))
		return -1;
	memcpy(kept, msg + sizeof(e), (size_t)(n - (int)sizeof(e)));
	kept[n - (int)sizeof(e)] = '\0';
	if (!(keep = realloc(f->strings, (f->nstrings + 1) * sizeof(*keep)))) {
		free(kept);
		return -1;
	}
	keep[f->nstrings++] = kept;
	f->strings = keep;
	p = kept;
	end = kept + (n - (int)sizeof(e));
	for (uint32_t i = 0; i < e.report.nodd; i++, p += strlen(p) + 1)
		e.report.odd[i].what = p < end ? p : "";
	for (uint32_t i = 0; i < e.report.nleft_out; i++, p += strlen(p) + 1)
		e.report.left_out[i].kind = p < end ? p : "";
	for (uint32_t i = 0; i < e.report.ninputs; i++, p += strlen(p) + 1)
		e.report.inputs[i].kind = p < end ? p : "";
	add_report(r, &e.report);
	return e.status ? 1 : 0;
}

/*
 * src's next message into src->batch (the one before let go), its tag
 * into *tag and its length into *n: 0, or -1 where MPI or memory failed
 * (a lost end still ends src).
 */
static int receive(struct fan *f, struct source *src, int *tag, int *n)
{
	MPI_Status st;

	free(src->batch);
	src->batch = NULL;
	if (src->rank == 0) {
		struct fan_local *l = f->local;
		struct message m;

		pthread_mutex_lock(&l->lock);
		while (!l->n)
			pthread_cond_wait(&l->changed, &l->lock);
		m = l->v[l->head];
		l->head = (l->head + 1) % QUEUE;
		l->n--;
		pthread_cond_broadcast(&l->changed);
		pthread_mutex_unlock(&l->lock);
		src->batch = m.p;
		*tag = m.tag;
		*n = m.len;
		src->ended |= !m.p && m.tag == TAG_END;
		return m.p ? 0 : -1;
	}
	if (nap_probe(src->rank, MPI_ANY_TAG, MPI_COMM_WORLD, &st) != MPI_SUCCESS ||
	    MPI_Get_count(&st, MPI_BYTE, n) != MPI_SUCCESS || !(src->batch = malloc((size_t)*n + LS_RECORD_PAD)) ||
	    MPI_Recv(src->batch, *n, MPI_BYTE, src->rank, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE) !=
		    MPI_SUCCESS)
		return -1;
	*tag = st.MPI_TAG;
	return 0;
}

/*
 * The next record of src into *rec: 1; 0 at its end; -1 where MPI or
 * memory failed or the shard sent what is not a record (f->err says so).
 * A shard's end message adds its report into r (and its failure, 2).
 */
static int next_record(struct fan *f, struct source *src, struct ls_record *rec, struct ls_front_report *r,
		       int *failed)
{
	const char *why;
	long used;
	int n, tag;

	while (src->at == src->len) {
		if (src->ended || (src->done && !src->draining))
			return 0;
		src->at = src->len = 0;
		if (receive(f, src, &tag, &n) < 0)
			goto broken;
		src->len = tag == TAG_DATA ? n : 0;
		src->done |= tag == TAG_DONE;
		if (tag == TAG_END) {
			int rc = take_end(f, src, src->batch, n, r);

			if (rc < 0)
				goto broken;
			*failed |= rc;
		}
	}
	used = ls_record_parse_padded(rec, src->batch + src->at, src->batch + src->len, 0, &why);
	if (used <= 0) {
		snprintf(f->err, sizeof(f->err), "rank %d sent what is not a record stream: %s", src->rank,
			 why ? why : "cut short");
		return -1;
	}
	src->at += (int)used;
	return 1;
broken:
	snprintf(f->err, sizeof(f->err), "rank %d: cannot receive its stream (MPI failed, or out of memory)",
		 src->rank);
	return -1;
}

/* src->head, an event, as src's head: its time and stream read. 0, or -1. */
static int take_head(struct fan *f, struct source *src)
{
	if (ls_get_i64(&src->head, LS_F_T, &src->t) < 0 || ls_get_u64(&src->head, LS_F_S, &src->s) < 0) {
		snprintf(f->err, sizeof(f->err), "rank %d sent an event without its time or stream", src->rank);
		return -1;
	}
	src->has_head = true;
	return 0;
}

/*
 * src's next event as its head: 0, or -1. With ids, the records before
 * it (those its stage wrote after the event before) go to out, their
 * event ids the stream's; without, they are passed over (the first
 * shards' header and definitions, which the first shard's stand for).
 */
static int advance(struct fan *f, struct source *src, const struct ids *ids, struct ls_writer *out,
		   struct ls_front_report *r, int *failed)
{
	int rc;

	src->has_head = false;
	while ((rc = next_record(f, src, &src->head, r, failed)) > 0) {
		enum ls_class cls = ls_kind_spec(src->head.kind)->cls;

		if (cls == LS_C_EVENT)
			return take_head(f, src);
		if (ids && cls != LS_C_TRAILER && (rc = ids_derived(ids, &src->head, out)) < 0) {
			if (rc == LS_ERR_SYNTAX)
				snprintf(f->err, sizeof(f->err), "rank %d sent a record naming an event "
					 "not merged yet", src->rank);
			return rc == LS_ERR_SYNTAX ? -1 : rc;
		}
	}
	return rc;
}

/* The first shard's header and definitions, to out; its first event its head. */
static int definitions(struct fan *f, struct source *src, struct ls_writer *out, struct ls_front_report *r,
		       int *failed)
{
	int rc;

	while ((rc = next_record(f, src, &src->head, r, failed)) > 0) {
		enum ls_class cls = ls_kind_spec(src->head.kind)->cls;

		if (cls == LS_C_EVENT)
			break;
		if (cls != LS_C_TRAILER && (rc = ls_write_record(out, &src->head)) < 0)
			return rc;
	}
	if (rc < 0)
		return -1;
	return rc == 0 ? 0 : take_head(f, src);
}

/* Whether a's head comes before b's in the stream's order (time, then stream). */
static bool before(const struct source *a, const struct source *b)
{
	return a->t < b->t || (a->t == b->t && a->s < b->s);
}

/* Restore the heap h[0..n) (the first head at h[0]) below h[i]. */
static void sift_down(struct source **h, int n, int i)
{
	for (;;) {
		int least = i, l = 2 * i + 1, r = l + 1;
		struct source *x;

		if (l < n && before(h[l], h[least]))
			least = l;
		if (r < n && before(h[r], h[least]))
			least = r;
		if (least == i)
			return;
		x = h[i], h[i] = h[least], h[least] = x;
		i = least;
	}
}

/* Whether src's next message has come (taking it will not wait). */
static bool ready(struct fan *f, const struct source *src)
{
	int flag = 0;

	if (src->rank == 0) {
		pthread_mutex_lock(&f->local->lock);
		flag = f->local->n > 0;
		pthread_mutex_unlock(&f->local->lock);
		return flag;
	}
	return MPI_Iprobe(src->rank, MPI_ANY_TAG, MPI_COMM_WORLD, &flag, MPI_STATUS_IGNORE) == MPI_SUCCESS && flag;
}

/*
 * Every source of v[0..n) read to its end and let go, whichever sends
 * first (a shard may wait on another's facts, and that one on rank 0
 * taking its stream); rank 0's reader waited for.
 */
static void drain(struct fan *f, struct source *v, int n, struct ls_front_report *r, int *failed)
{
	const struct timespec pause = { 0, 50 * 1000 };
	int left = 0;

	for (int i = 0; i < n; i++) {
		v[i].draining = true;
		v[i].at = v[i].len;
		left += !v[i].ended;
	}
	while (left) {
		bool took = false;

		for (int i = 0; i < n; i++) {
			struct ls_record rec;

			if (v[i].ended || !ready(f, &v[i]))
				continue;
			took = true;
			/* a rank whose stream MPI lost is given up; rank 0's reader sends until its end */
			if (next_record(f, &v[i], &rec, r, failed) < 0 && v[i].rank != 0)
				v[i].ended = true;
			v[i].at = v[i].len;
			left -= v[i].ended;
		}
		if (!took)
			nanosleep(&pause, NULL);
	}
	for (int i = 0; i < n; i++)
		free(v[i].batch);
	if (f->local)
		pthread_join(f->local->thread, NULL);
	f->taken = true;
}

/* The sources of every rank (rank 0's where its reader runs), or NULL. */
static struct source *sources(struct fan *f, int *n)
{
	int from = f->local ? 0 : 1;
	struct source *v;

	*n = f->size - from;
	if (!(v = calloc((size_t)*n, sizeof(*v))))
		return NULL;
	for (int i = 0; i < *n; i++)
		v[i].rank = from + i;
	return v;
}

static int fan_merge(struct fan *f, struct ls_writer *out, struct ls_front_report *r)
{
	int n, nh = 0, failed = 0, rc = 0;
	struct source *v = sources(f, &n);
	struct source **h = v ? malloc((size_t)n * sizeof(*h)) : NULL;
	struct ids ids;
	uint64_t id = 0;

	if (!h || ids_init(&ids, (uint32_t)f->size) < 0) {
		free(h);
		free(v);
		return LS_ERR_NOMEM;
	}
	if (definitions(f, &v[0], out, r, &failed) < 0)
		rc = -1;
	for (int i = 1; i < n && rc == 0; i++)
		rc = advance(f, &v[i], NULL, out, r, &failed);
	for (int i = 0; i < n && rc == 0; i++)
		if (v[i].has_head)
			h[nh++] = &v[i];
	for (int i = nh / 2 - 1; i >= 0; i--)
		sift_down(h, nh, i);
	while (rc == 0 && !failed && nh) {
		if ((rc = ids_event(&ids, &h[0]->head, id++, out)) == LS_ERR_SYNTAX)
			snprintf(f->err, sizeof(f->err), "rank %d sent an event out of its shard's numbering",
				 h[0]->rank);
		if (rc < 0 || (rc = advance(f, h[0], &ids, out, r, &failed)) < 0)
			break;
		if (!h[0]->has_head)
			h[0] = h[--nh];
		sift_down(h, nh, 0);
	}
	if (rc == LS_ERR_SYNTAX)
		rc = -1;
	/* a failure: the others read to their end, so that none waits on rank 0 */
	drain(f, v, n, r, &failed);
	ids_release(&ids);
	free(h);
	free(v);
	if (rc == 0 && !failed)
		rc = ls_write_trailer(out);
	return rc == -1 || failed ? 1 : rc;
}

static void fan_discard(struct fan *f)
{
	struct ls_front_report r;
	int n, failed = 0;
	struct source *v = sources(f, &n);

	memset(&r, 0, sizeof(r));
	if (v)
		drain(f, v, n, &r, &failed);
	free(v);
}

const struct fan_ops tr_fan_ops = {
	.init = fan_init, .finish = fan_finish, .start = fan_start, .shard = fan_shard, .writer = fan_writer,
	.end = fan_end, .merge = fan_merge, .discard = fan_discard,
};
