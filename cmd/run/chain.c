/* The stages of tr-analyze on threads, records handed on in memory. */
#include <inttypes.h>
#include <pthread.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../libstream/error.h"
#include "../../libstream/packed.h"
#include "../../libstream/vec.h"
#include "chain.h"
#include "maxmem.h"
#include "../output/staging.h"
#include "../common/tool.h"

/* A hand-over: at most this many bytes, or records (each a struct item besides its bytes). */
#define BATCH (64 * 1024)
#define BATCH_ITEMS 512
/* Check memory every this many records (reading it is a system call). */
#define MEM_EVERY 65536

/* One record of a batch. */
struct item {
	uint32_t at;		/* where in the batch's bytes */
	uint32_t fields;	/* its first field in the batch's fields */
	struct ls_packed p;	/* where its fields were located, where a stage located them */
	bool located;
	bool made, known;	/* what the stages before found of it (analysis/item.h) */
	struct an_event ev;
	union an_derived derived;
};

/* Records handed from one thread to the next. */
struct batch {
	struct ls_buf bytes;
	struct item *items;
	uint32_t n, cap;
	struct ls_packed_field *f;
	uint32_t nf, capf;
	bool end;		/* the last one: the stages finish after it */
	struct batch *next;
};

/*
 * A hand-over: batches waiting for the next thread, at most QUEUED. The
 * stages write in bursts (tr-clock at each eighth of its window, tr-critpath
 * at each collection): a queue of many small batches lets each thread run
 * on through the other's bursts instead of waiting on it. 64 of 512
 * records against 2 of some 2 000: tr-analyze -q 7-16 % less wall time on
 * 2.3 M- to 12 M-event archives for 2-4 MB more (medians of 11 and 3 runs,
 * 2 cores); 64 of 2 000 gained a few % more for 20 MB.
 */
#define QUEUED 64

/*
 * What one thread writes on every record lies on cache lines of its own
 * (CACHE_LINE-aligned queues, stage states and workers in a chain
 * allocated so), so that two threads never write to one line: the
 * stages' writers sit side by side in struct chain, and sharing a line
 * cost two threads some 15 % more CPU on a 2-core machine.
 */
#define CACHE_LINE 64

struct queue {
	_Alignas(CACHE_LINE) struct batch *head, *tail;
	unsigned n;
	pthread_cond_t ready, room;
};

/* A stage's state in the chain. */
struct stage_run {
	_Alignas(CACHE_LINE) struct an_stage_run run;	/* its records on to feed(k, i + 1) */
	struct ls_writer w;	/* what it writes about the record it takes, taken at once */
	struct worker *k;	/* the thread it runs on */
	int i;			/* its place in the chain */
};

/*
 * A thread: the stages from..to-1 one after another, each record through
 * all of them before the next; then a hand-over to the next thread, or
 * (the last) the taker.
 */
struct worker {
	_Alignas(CACHE_LINE) struct chain *c;
	int index;		/* reads q[index] (0: the reader's own thread) */
	int from, to;
	uint64_t skim;		/* kinds none of its stages nor those after it read */
	struct batch *out;	/* being filled for the next */
	pthread_t thread;
	bool started;
};

struct chain {
	const char *input;
	int n, nworkers;
	struct ls_writer in;
	struct stage_run run[CHAIN_STAGES];
	struct worker work[CHAIN_STAGES + 1];
	struct queue q[CHAIN_STAGES + 1];
	chain_take take;
	void *take_ctx;
	uint64_t take_recno;
	uint64_t max_mem;
	pthread_mutex_t lock;
	struct batch *pool;		/* free batches */
	bool failed;
	struct ls_front *front;		/* the events it writes to in come typed (chain_reads_front) */
	bool take_bytes;		/* chain_new's */
};

static void fail(struct chain *c)
{
	pthread_mutex_lock(&c->lock);
	__atomic_store_n(&c->failed, true, __ATOMIC_RELEASE);
	for (int i = 0; i < c->nworkers; i++) {
		pthread_cond_broadcast(&c->q[i].ready);
		pthread_cond_broadcast(&c->q[i].room);
	}
	pthread_mutex_unlock(&c->lock);
}

bool chain_failed(const struct chain *c)
{
	return __atomic_load_n(&c->failed, __ATOMIC_ACQUIRE);
}

/*
 * An empty batch: NULL where the chain failed (or out of memory, said).
 * As many are made as are in use at once: each thread holds at most two
 * (what it takes, what it fills), each hand-over QUEUED.
 */
static struct batch *batch_get(struct chain *c)
{
	struct batch *b = NULL;

	pthread_mutex_lock(&c->lock);
	if (c->pool) {
		b = c->pool;
		c->pool = b->next;
	}
	pthread_mutex_unlock(&c->lock);
	if (!b && !chain_failed(c))
		b = calloc(1, sizeof(*b));
	if (!b) {
		if (!chain_failed(c)) {
			tool_error("%s: out of memory", c->input);
			fail(c);
		}
		return NULL;
	}
	b->bytes.len = 0;
	b->n = b->nf = 0;
	b->end = false;
	b->next = NULL;
	return b;
}

static void batch_put(struct chain *c, struct batch *b)
{
	pthread_mutex_lock(&c->lock);
	b->next = c->pool;
	c->pool = b;
	pthread_mutex_unlock(&c->lock);
}

static void batch_free(struct batch *b)
{
	ls_buf_release(&b->bytes);
	free(b->items);
	free(b->f);
	free(b);
}

/*
 * Hand b to worker i, once its queue has room, its bytes followed by
 * LS_RECORD_PAD zeros (its records located on the fast path where asked):
 * 0, LS_ERR_NOMEM (said), or LS_ERR_IO where the chain failed (b freed).
 */
static int push(struct chain *c, int i, struct batch *b)
{
	struct queue *q = &c->q[i];

	if (ls_buf_grow(&b->bytes, LS_RECORD_PAD) < 0) {
		tool_error("%s: out of memory", c->input);
		batch_free(b);
		return LS_ERR_NOMEM;
	}
	memset(b->bytes.p + b->bytes.len, 0, LS_RECORD_PAD);

	pthread_mutex_lock(&c->lock);
	while (!c->failed && q->n >= QUEUED)
		pthread_cond_wait(&q->room, &c->lock);
	if (c->failed) {
		pthread_mutex_unlock(&c->lock);
		batch_free(b);
		return LS_ERR_IO;
	}
	if (q->tail)
		q->tail->next = b;
	else
		q->head = b;
	q->tail = b;
	q->n++;
	b->next = NULL;
	pthread_cond_signal(&q->ready);
	pthread_mutex_unlock(&c->lock);
	return 0;
}

/* The next batch for worker i; NULL where the chain failed. */
static struct batch *pop(struct chain *c, int i)
{
	struct queue *q = &c->q[i];
	struct batch *b = NULL;

	pthread_mutex_lock(&c->lock);
	while (!c->failed && !q->head)
		pthread_cond_wait(&q->ready, &c->lock);
	if (!c->failed) {
		b = q->head;
		q->head = b->next;
		if (!q->head)
			q->tail = NULL;
		q->n--;
		pthread_cond_signal(&q->room);
	}
	pthread_mutex_unlock(&c->lock);
	return b;
}

static const char *who(const struct stage_run *r)
{
	return r ? r->run.def->tool : "tr-rank";	/* the taker rates */
}

/* The message for stage r (NULL: the taker) failing with rc at record recno (0: at the input's end). */
static void say(const struct chain *c, const struct stage_run *r, uint64_t recno, int rc, const char *why)
{
	if (rc == LS_ERR_SYNTAX && !recno)
		tool_error("%s: %s: %s", c->input, who(r), why);
	else if (rc == LS_ERR_SYNTAX)
		tool_error("%s: %s: record %" PRIu64 ": %s", c->input, who(r), recno, why);
	else if (rc == LS_ERR_NOMEM)
		tool_error("%s: %s: out of memory", c->input, who(r));
	else if (rc != LS_ERR_IO)	/* a write the taker said was wrong */
		tool_error("%s: %s: failed (error %d)", c->input, who(r), rc);
}

/* Memory past TR_MAX_MEM: false after the message naming what holds it. */
static bool within_limit(const struct chain *c, const struct stage_run *r, uint64_t recno)
{
	char where[320];

	snprintf(where, sizeof(where), "%s: %s: record %" PRIu64, c->input, who(r), recno);
	return maxmem_within(c->max_mem, where, r ? r->run.def->held : NULL, r ? r->run.ctx : NULL);
}

/*
 * Worker k's record for the next thread: copied into its batch with what
 * the stages found of it, its fields packed where a stage located them
 * (a typed item's no stage asked for are located there if one does).
 */
static int hand_on(struct worker *k, const struct an_item *from)
{
	const struct ls_record *rec = from->view;
	struct chain *c = k->c;
	struct batch *b = k->out;
	struct item *it;

	if (!b && !(b = k->out = batch_get(c)))
		return LS_ERR_IO;
	if (ls_vec_room(&b->items, &b->cap, b->n, sizeof(*b->items)) < 0 ||
	    ls_vec_room(&b->f, &b->capf, b->nf + LS_F__COUNT - 1, sizeof(*b->f)) < 0 ||
	    ls_buf_add(&b->bytes, from->raw, from->len) < 0) {
		tool_error("%s: out of memory", c->input);
		return LS_ERR_NOMEM;
	}
	it = &b->items[b->n++];
	it->at = (uint32_t)(b->bytes.len - from->len);
	it->fields = b->nf;
	it->located = rec != NULL;
	it->p.kind = from->kind;
	it->p.len = from->len;
	if (rec) {
		ls_record_pack(rec, &it->p, b->f + b->nf);
		b->nf += it->p.nloc;
	}
	it->derived = from->derived;
	it->made = from->made;
	it->known = from->known;
	it->ev = from->ev;
	if (b->bytes.len >= BATCH || b->n >= BATCH_ITEMS) {
		k->out = NULL;
		return push(c, k->index + 1, b);
	}
	return 0;
}

/* Stage r failed (said by its runner's failure): its error. */
static int failed(const struct chain *c, const struct stage_run *r)
{
	const struct an_stage_failure *f = &r->run.failed;

	if (f->code)	/* else a stage after it, said there */
		say(c, r, f->at_end ? 0 : f->recno, f->code, f->why);
	return f->code;
}

/*
 * Record rec to stage i of worker k, and what comes of it to the stages
 * after (the runner's protocol: analysis/stage.h), or past the last
 * stage of the thread, on to the next thread or the taker.
 */
static int feed(struct worker *k, int i, struct an_item *it)
{
	struct chain *c = k->c;
	struct stage_run *r = &c->run[i];
	const char *why = NULL;
	int rc;

	if (i == k->to) {
		if (k->index + 1 < c->nworkers)
			return hand_on(k, it);
		if (it->kind == LS_K_TRAILER)
			return 0;
		if ((rc = c->take(c->take_ctx, it, &why)) < 0) {
			say(c, NULL, c->take_recno + 1, rc, why);
			return rc;
		}
		if (++c->take_recno % MEM_EVERY == 0 && !within_limit(c, NULL, c->take_recno))
			return LS_ERR_RANGE;
		return 0;
	}
	if ((rc = an_stage_step(&r->run, it)) < 0)
		return r->run.failed.code ? failed(c, r) : rc;
	if (r->run.recno % MEM_EVERY == 0 && !within_limit(c, r, r->run.recno))
		return LS_ERR_RANGE;
	return 0;
}

/* What stage r passes on goes to the stage after it. */
static int next_stage(void *ctx, struct an_item *it)
{
	struct stage_run *r = ctx;

	return feed(r->k, r->i + 1, it);
}

/* The input has ended: worker k's stages finish in order, what they write going on. */
static int finish(struct worker *k)
{
	struct batch *b;
	int rc;

	for (int i = k->from; i < k->to; i++) {
		struct stage_run *r = &k->c->run[i];

		if ((rc = an_stage_end(&r->run)) < 0)
			return r->run.failed.code ? failed(k->c, r) : rc;
	}
	if (k->index + 1 == k->c->nworkers)
		return 0;
	if (!k->out && !(k->out = batch_get(k->c)))
		return LS_ERR_IO;
	k->out->end = true;
	b = k->out;
	k->out = NULL;
	return push(k->c, k->index + 1, b);
}

static void *run_worker(void *arg)
{
	struct worker *k = arg;
	struct chain *c = k->c;
	struct ls_record rec;
	struct batch *b;

	while ((b = pop(c, k->index))) {
		bool end = b->end;
		int rc = 0;

		for (uint32_t i = 0; i < b->n && rc == 0; i++) {
			const struct item *it = &b->items[i];
			struct an_item taken = { .kind = it->p.kind, .raw = b->bytes.p + it->at, .len = it->p.len,
						 .store = &rec, .padded = true, .made = it->made, .known = it->known,
						 .ev = it->ev, .derived = it->derived };

			if (it->located) {
				ls_record_unpack(&rec, taken.raw, &it->p, b->f + it->fields,
						 k->skim >> it->p.kind & 1);
				taken.view = &rec;
			}
			rc = feed(k, k->from, &taken);
		}
		batch_put(c, b);
		if (rc == 0 && end)
			rc = finish(k);
		if (rc < 0 || end) {
			if (rc < 0)
				fail(c);
			break;
		}
	}
	return NULL;
}

/*
 * The reader's bytes, through the stages of the reader's own thread: an
 * event the front wrote as it gave it, typed, its fields located if a
 * stage asks; any other record located.
 */
static int from_reader(void *ctx, struct ls_buf *out)
{
	struct worker *k = ctx;
	size_t nw = 0, j = 0;
	const struct ls_written *wr = k->c->front ? ls_front_written(k->c->front, &nw) : NULL;
	const uint8_t *end;
	struct an_item read;
	struct ls_record rec;
	const char *why = NULL;
	int rc = 0;

	if (chain_failed(k->c))
		return LS_ERR_IO;
	/* room after the records, zeroed: they are parsed on the fast path to their end */
	if (ls_buf_grow(out, LS_RECORD_PAD) < 0) {
		tool_error("%s: out of memory", k->c->input);
		fail(k->c);
		return LS_ERR_NOMEM;
	}
	end = out->p + out->len;
	memset(out->p + out->len, 0, LS_RECORD_PAD);
	/* an event kept with no bytes (ls_front_typed_only) comes before any record at its place */
	for (const uint8_t *p = out->p; (p < end || j < nw) && rc == 0; p += read.len) {
		long len = 0;

		if (j < nw && wr[j].at == (size_t)(p - out->p) && wr[j].len <= end - p) {
			read = (struct an_item){ .kind = wr[j].ev.kind, .raw = p, .len = wr[j].len, .store = &rec,
						 .padded = true, .read = &wr[j] };
			j++;
#ifdef LS_CHECK_BUILD
			if (read.len && (ls_record_parse_padded(&rec, p, end, 0, &why) != read.len ||
					 !an_item_agrees(&read, &rec))) {
				tool_error("%s: an event as written that is not its record", k->c->input);
				rc = LS_ERR_SYNTAX;
				break;
			}
#endif
		} else if ((len = ls_record_parse_padded(&rec, p, end, 0, &why)) > 0 && len <= end - p) {
			read = an_item_read(&rec);
		} else {
			tool_error("%s: the stream read: %s", k->c->input, why ? why : "a record cut off");
			rc = LS_ERR_SYNTAX;
			break;
		}
		rc = feed(k, 0, &read);
	}
	out->len = 0;
	if (rc < 0) {
		fail(k->c);
		return LS_ERR_IO;
	}
	return 0;
}

/*
 * Where each thread's stages start, the reader's own thread first, for
 * threads cores: one thread per stage where there are cores enough; on
 * one, all on the reader's; on two, the reader with every stage before
 * tr-waits (links[0..n): with the first stage where tr-waits is not
 * among them or comes first), and the rest with the taker on the other.
 * tr-waits is where the records multiply (a blame record for each share
 * of a wait), so the hand-over before it moves the fewest; and there the
 * two halves' work is about equal: 1.70 s against 2.01 s with the cut
 * after tr-deps on the 5.6 M-event Jacobi archive of gen-otf2 -i 30000,
 * 1.00 s against 1.19 s on the GPU-heavy one of gen-otf2 -g 4 -t 1
 * -i 10000 (medians of 9, alternated); without tr-clock the cut stays
 * after tr-deps, which is before tr-waits (1.23 s there against 1.64 s
 * after tr-waits).
 * Where the taker is apart (and there are two cores or more), a thread
 * for it after them, whose stages start (and end) at n. Returns the
 * number of threads.
 */
static int cut_at(const struct chain_link *links, int n, unsigned threads, bool take_apart, int *starts)
{
	int m = threads < 2 ? 1 : threads == 2 && n > 1 ? 2 : n;

	for (int i = 0; i < m; i++)
		starts[i] = i;
	for (int i = 1; m == 2 && i < n; i++)
		if (links[i].def == &an_stage_waits)
			starts[1] = i;
	if (take_apart && threads > 1)
		starts[m++] = n;
	return m;
}

struct chain *chain_new(const struct chain_link *links, int n, const char *input, unsigned threads,
			unsigned jobs, chain_take take, uint64_t take_reads, bool take_apart, bool take_bytes,
			void *ctx)
{
	struct chain *c = aligned_alloc(CACHE_LINE, sizeof(struct chain));	/* a multiple of it */
	int starts[CHAIN_STAGES + 1];
	sigset_t mask;

	if (c)
		memset(c, 0, sizeof(*c));
	if (!c || n < 1 || n > CHAIN_STAGES) {
		tool_error("%s: out of memory", input);
		free(c);
		return NULL;
	}
	c->input = input;
	c->n = n;
	c->take = take;
	c->take_ctx = ctx;
	c->take_bytes = take_bytes;
	if (maxmem_limit(&c->max_mem) < 0) {
		free(c);
		return NULL;
	}
	pthread_mutex_init(&c->lock, NULL);
	c->nworkers = cut_at(links, n, threads, take_apart, starts);
	for (int w = 0; w < c->nworkers; w++) {
		struct worker *k = &c->work[w];

		pthread_cond_init(&c->q[w].ready, NULL);
		pthread_cond_init(&c->q[w].room, NULL);
		*k = (struct worker){ .c = c, .index = w, .from = starts[w],
				      .to = w + 1 < c->nworkers ? starts[w + 1] : n, .skim = ~take_reads };
		/* what it hands on goes with the fields located: the later stages' kinds too */
		for (int i = k->from; i < n; i++)
			k->skim &= ~links[i].def->reads();
		k->skim &= ~LS_KIND_BIT(LS_K_HEADER);	/* always read whole, as the filters read it */
	}
	ls_writer_init_sink(&c->in, from_reader, &c->work[0], BATCH);
	for (int i = 0; i < n; i++) {
		struct stage_run *r = &c->run[i];
		void *st;

		ls_writer_init_memory(&r->w);
		r->i = i;
		for (int w = 0; w < c->nworkers; w++)
			if (starts[w] <= i)
				r->k = &c->work[w];
		st = links[i].def->open(&r->w, jobs, links[i].opts);
		an_stage_run_init(&r->run, links[i].def, st, &links[i].self, links[i].self.tool, &r->w,
				  next_stage, r);
		if (!st) {
			tool_error("%s: out of memory", input);
			chain_free(c);
			return NULL;
		}
		if (!take_bytes && links[i].def->typed_only)
			links[i].def->typed_only(st);
	}
	/* signals (which remove staged output) go to the reader's thread */
	staging_mask_threads(&mask);
	for (int w = 1; w < c->nworkers; w++) {
		if (pthread_create(&c->work[w].thread, NULL, run_worker, &c->work[w]) != 0) {
			pthread_sigmask(SIG_SETMASK, &mask, NULL);
			tool_error("%s: cannot start a thread for each stage", input);
			chain_free(c);
			return NULL;
		}
		c->work[w].started = true;
	}
	pthread_sigmask(SIG_SETMASK, &mask, NULL);
	return c;
}

struct ls_writer *chain_input(struct chain *c)
{
	return &c->in;
}

void chain_reads_front(struct chain *c, struct ls_front *f)
{
	c->front = f;
	ls_front_keep_written(f);
	if (!c->take_bytes)
		ls_front_typed_only(f);
}

void *chain_stage(const struct chain *c, int i)
{
	return c->run[i].run.ctx;
}

static void join(struct chain *c)
{
	for (int w = 1; w < c->nworkers; w++)
		if (c->work[w].started) {
			pthread_join(c->work[w].thread, NULL);
			c->work[w].started = false;
		}
}

int chain_end(struct chain *c, bool ok)
{
	if (!ok || ls_writer_hand_on(&c->in) < 0 || finish(&c->work[0]) < 0)
		fail(c);
	join(c);
	return chain_failed(c) ? 1 : 0;
}

void chain_free(struct chain *c)
{
	struct batch *b;

	if (!c)
		return;
	fail(c);
	join(c);
	for (int i = 0; i < c->n; i++) {
		if (c->run[i].run.ctx)
			c->run[i].run.def->close(c->run[i].run.ctx);
		ls_writer_release(&c->run[i].w);
	}
	for (int w = 0; w < c->nworkers; w++) {
		for (struct batch *q = c->q[w].head; q; q = b) {
			b = q->next;
			batch_free(q);
		}
		if (c->work[w].out)
			batch_free(c->work[w].out);
		pthread_cond_destroy(&c->q[w].ready);
		pthread_cond_destroy(&c->q[w].room);
	}
	for (; c->pool; c->pool = b) {
		b = c->pool->next;
		batch_free(c->pool);
	}
	ls_writer_release(&c->in);
	pthread_mutex_destroy(&c->lock);
	free(c);
}
