/* The stages of tr-analyze on threads, records handed on in memory. */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../libstream/error.h"
#include "../libstream/packed.h"
#include "chain.h"
#include "maxmem.h"
#include "tool.h"

/* Slots of a batch: the reader's, then one per stage. */
#define SLOTS (CHAIN_STAGES + 1)
/* Batches in flight at most: one for each thread, and two waiting. */
#define POOL (CHAIN_STAGES + 4)
/* The reader's bytes in a batch: some 2 000 records. */
#define BATCH (64 * 1024)
/* Check memory every this many records (reading it is a system call). */
#define MEM_EVERY 65536

/* One entry of a batch, in stream order. */
struct item {
	const uint8_t *raw;	/* NULL while its slot's bytes may still move: at then */
	uint32_t at;		/* where in its slot's bytes it starts */
	uint32_t slot;		/* whose bytes and fields */
	uint32_t fields;	/* its first field in the slot's fields */
	bool parsed;		/* else raw[0..p.len) is whole records not parsed yet */
	struct ls_packed p;
};

/* What one maker (the reader, a stage) put in a batch. */
struct slot {
	struct ls_buf bytes;	/* the records it made */
	struct ls_packed_field *f;	/* the fields of the records it parsed */
	uint32_t nf, capf;
};

struct batch {
	struct item *items, *spare;	/* spare: where a stage writes what it hands on */
	uint32_t n, cap, spare_cap;
	struct slot slot[SLOTS];
	bool end;			/* the last batch: stages finish after it */
	struct batch *next;
};

/* A hand-over: batches waiting for the next stage. */
struct queue {
	struct batch *head, *tail;
	pthread_cond_t ready;
};

struct stage_run {
	struct chain *c;
	int i;			/* 0..n-1: a stage; n: the taker */
	const struct chain_link *link;
	void *ctx;
	struct ls_writer w;
	bool header;		/* written */
	uint64_t replaced;	/* kinds dropped */
	uint64_t skim;		/* kinds whose fields it does not read: handed it unlocated */
	uint64_t recno;		/* records taken */
	pthread_t thread;
	bool started;
};

struct chain {
	const char *input;
	int n;
	struct ls_writer in;
	struct stage_run run[CHAIN_STAGES + 1];
	struct queue q[CHAIN_STAGES + 1];	/* q[i]: into stage i (q[n]: the taker) */
	chain_take take;
	void *take_ctx;
	uint64_t max_mem;
	pthread_mutex_t lock;
	pthread_cond_t freed;
	struct batch *pool;		/* free batches */
	unsigned made;			/* batches allocated */
	bool failed;
};

static void fail(struct chain *c)
{
	pthread_mutex_lock(&c->lock);
	__atomic_store_n(&c->failed, true, __ATOMIC_RELEASE);
	for (int i = 0; i <= c->n; i++)
		pthread_cond_broadcast(&c->q[i].ready);
	pthread_cond_broadcast(&c->freed);
	pthread_mutex_unlock(&c->lock);
}

bool chain_failed(const struct chain *c)
{
	return __atomic_load_n(&c->failed, __ATOMIC_ACQUIRE);
}

/* A free batch, emptied: NULL where the chain failed (or out of memory, said). */
static struct batch *batch_get(struct chain *c)
{
	struct batch *b = NULL;

	pthread_mutex_lock(&c->lock);
	while (!c->failed && !c->pool && c->made >= POOL)
		pthread_cond_wait(&c->freed, &c->lock);
	if (!c->failed && c->pool) {
		b = c->pool;
		c->pool = b->next;
	} else if (!c->failed) {
		c->made++;
		b = calloc(1, sizeof(*b));
	}
	pthread_mutex_unlock(&c->lock);
	if (!b) {
		if (!chain_failed(c)) {
			tool_error("%s: out of memory", c->input);
			fail(c);
		}
		return NULL;
	}
	b->n = 0;
	b->end = false;
	b->next = NULL;
	for (int s = 0; s < SLOTS; s++)
		b->slot[s].bytes.len = b->slot[s].nf = 0;
	return b;
}

static void batch_put(struct chain *c, struct batch *b)
{
	pthread_mutex_lock(&c->lock);
	b->next = c->pool;
	c->pool = b;
	pthread_cond_signal(&c->freed);
	pthread_mutex_unlock(&c->lock);
}

static void batch_free(struct batch *b)
{
	for (int s = 0; s < SLOTS; s++) {
		ls_buf_release(&b->slot[s].bytes);
		free(b->slot[s].f);
	}
	free(b->items);
	free(b->spare);
	free(b);
}

static void push(struct chain *c, int i, struct batch *b)
{
	struct queue *q = &c->q[i];

	pthread_mutex_lock(&c->lock);
	if (q->tail)
		q->tail->next = b;
	else
		q->head = b;
	q->tail = b;
	b->next = NULL;
	pthread_cond_signal(&q->ready);
	pthread_mutex_unlock(&c->lock);
}

/* The next batch for stage i; NULL where the chain failed. */
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
	}
	pthread_mutex_unlock(&c->lock);
	return b;
}

/* Room for one more item in spare: 0 or LS_ERR_NOMEM. */
static int spare_room(struct batch *b, uint32_t n)
{
	if (n < b->spare_cap)
		return 0;
	uint32_t cap = b->spare_cap ? 2 * b->spare_cap : 1024;
	struct item *p = realloc(b->spare, cap * sizeof(*p));

	if (!p)
		return LS_ERR_NOMEM;
	b->spare = p;
	b->spare_cap = cap;
	return 0;
}

/* Room for LS_F__COUNT more fields in slot s: 0 or LS_ERR_NOMEM. */
static int field_room(struct slot *s)
{
	if (s->capf - s->nf >= LS_F__COUNT)
		return 0;
	uint32_t cap = s->capf ? 2 * s->capf : 16384;
	struct ls_packed_field *p = realloc(s->f, cap * sizeof(*p));

	if (!p)
		return LS_ERR_NOMEM;
	s->f = p;
	s->capf = cap;
	return 0;
}

/* The message for stage run r failing with rc (why for LS_ERR_SYNTAX). */
static void say(const struct stage_run *r, int rc, const char *why)
{
	const char *who = r->link ? r->link->self.tool : "the rating";

	if (rc == LS_ERR_SYNTAX)
		tool_error("%s: %s: record %" PRIu64 ": %s", r->c->input, who, r->recno, why);
	else if (rc == LS_ERR_NOMEM)
		tool_error("%s: %s: out of memory", r->c->input, who);
	else if (rc != LS_ERR_IO)	/* a write the taker said was wrong */
		tool_error("%s: %s: failed (error %d)", r->c->input, who, rc);
}

/* Memory past TR_MAX_MEM: false after the message naming what holds it. */
static bool within_limit(const struct stage_run *r)
{
	uint64_t now = maxmem_resident();
	char what[256] = "";

	if (!r->c->max_mem || now <= r->c->max_mem)
		return true;
	if (r->link && r->link->def->held)
		r->link->def->held(r->ctx, what, sizeof(what));
	tool_error("%s: %s: record %" PRIu64 ": %.1f MiB held, more than TR_MAX_MEM (%.1f MiB)%s%s",
		   r->c->input, r->link ? r->link->self.tool : "the rating", r->recno,
		   (double)now / 1048576.0, (double)r->c->max_mem / 1048576.0, what[0] ? ": " : "", what);
	return false;
}

/*
 * Stage r takes record rec (it as an item of the batch in it): hands it on
 * unless the stage replaces it, then what the stage wrote about it.
 * Returns 0 or a negative error (said).
 */
static int stage_take(struct stage_run *r, struct batch *b, const struct ls_record *rec,
		      const struct item *it, uint32_t *out)
{
	struct ls_writer *w = &r->w;
	size_t mark = w->out.len;
	const char *why = NULL;
	int rc;

	r->recno++;
	if (rec->kind == LS_K_TRAILER)
		return 0;
	if (rec->kind == LS_K_HEADER && !r->header) {
		rc = ls_write_header_from(w, rec, &r->link->self);
	} else {
		if (!r->header)
			rc = ls_write_header(w, r->link->self.tool, NULL, &r->link->self);
		else
			rc = 0;
		if (rc == 0 && !(r->replaced & LS_KIND_BIT(rec->kind))) {
			if ((rc = spare_room(b, *out)) < 0)
				goto failed;
			b->spare[(*out)++] = *it;
			mark = w->out.len;
			rc = r->link->def->take(r->ctx, rec, &why);
		}
	}
	r->header = true;
	if (rc < 0)
		goto failed;
	if (w->out.len > mark) {
		if ((rc = spare_room(b, *out)) < 0)
			goto failed;
		b->spare[(*out)++] = (struct item){ .at = (uint32_t)mark, .slot = (uint32_t)(r->i + 1),
						   .p.len = (uint32_t)(w->out.len - mark) };
	}
	if (r->recno % MEM_EVERY == 0 && !within_limit(r))
		return LS_ERR_RANGE;
	return 0;
failed:
	say(r, rc, why);
	return rc;
}

/* The taker r takes rec. */
static int taker_take(struct stage_run *r, const struct ls_record *rec)
{
	const char *why = NULL;
	int rc;

	r->recno++;
	if ((rc = r->c->take(r->c->take_ctx, rec, &why)) < 0) {
		say(r, rc, why);
		return rc;
	}
	if (r->recno % MEM_EVERY == 0 && !within_limit(r))
		return LS_ERR_RANGE;
	return 0;
}

/* Stage or taker r takes every record of item it (parsing what is not yet). */
static int take_item(struct stage_run *r, struct batch *b, const struct item *it, uint32_t *out)
{
	struct slot *mine = &b->slot[r->i + 1];
	bool taker = r->i == r->c->n;
	struct ls_record rec;
	const char *why = NULL;
	int rc;

	if (it->parsed) {
		ls_record_unpack(&rec, it->raw, &it->p, b->slot[it->slot].f + it->fields,
				 r->skim >> it->p.kind & 1);
		return taker ? taker_take(r, &rec) : stage_take(r, b, &rec, it, out);
	}
	/*
	 * the slot's bytes after the item are whole records too: parsed up to
	 * their end, the fields near the item's end take the fast path
	 */
	const struct ls_buf *bytes = &b->slot[it->slot].bytes;
	const uint8_t *past = bytes->p + bytes->len;

	for (const uint8_t *p = it->raw, *end = p + it->p.len; p < end; p += rec.len) {
		struct item one = { .raw = p, .slot = (uint32_t)(r->i + 1), .parsed = true };
		long n = ls_record_parse(&rec, p, past, taker ? r->skim : 0, &why);

		if (n <= 0 || p + n > end) {
			r->recno++;
			say(r, LS_ERR_SYNTAX, n < 0 ? why : "a record cut off");
			return LS_ERR_SYNTAX;
		}
		if (taker) {
			rc = taker_take(r, &rec);
		} else {
			if ((rc = field_room(mine)) < 0) {
				say(r, rc, NULL);
				return rc;
			}
			one.fields = mine->nf;
			ls_record_pack(&rec, &one.p, mine->f + mine->nf);
			mine->nf += one.p.nloc;
			rc = stage_take(r, b, &rec, &one, out);
		}
		if (rc < 0)
			return rc;
	}
	return 0;
}

/* Stage r over batch b (and at the end, its finish): b then holds what it hands on. */
static int stage_batch(struct stage_run *r, struct batch *b)
{
	struct slot *mine = &b->slot[r->i + 1];
	uint32_t out = 0;
	size_t mark;
	int rc = 0;

	r->w.out = mine->bytes;
	r->w.out.len = 0;
	for (uint32_t i = 0; i < b->n && rc == 0; i++)
		rc = take_item(r, b, &b->items[i], &out);
	if (rc == 0 && b->end) {
		mark = r->w.out.len;
		if ((rc = r->link->def->finish(r->ctx)) < 0)
			say(r, rc, NULL);
		else if (r->w.out.len > mark && (rc = spare_room(b, out)) == 0)
			b->spare[out++] = (struct item){ .at = (uint32_t)mark, .slot = (uint32_t)(r->i + 1),
							 .p.len = (uint32_t)(r->w.out.len - mark) };
		else if (rc < 0)
			say(r, rc, NULL);
	}
	mine->bytes = r->w.out;
	r->w.out = (struct ls_buf)LS_BUF_INIT;
	if (rc < 0)
		return rc;
	for (uint32_t i = 0; i < out; i++)
		if (!b->spare[i].raw)
			b->spare[i].raw = mine->bytes.p + b->spare[i].at;
	struct item *t = b->items;
	uint32_t cap = b->cap;

	b->items = b->spare;
	b->cap = b->spare_cap;
	b->spare = t;
	b->spare_cap = cap;
	b->n = out;
	return 0;
}

static void *run_stage(void *arg)
{
	struct stage_run *r = arg;
	struct chain *c = r->c;
	struct batch *b;

	while ((b = pop(c, r->i))) {
		bool end = b->end;

		if (r->i == c->n) {
			for (uint32_t i = 0; i < b->n; i++)
				if (take_item(r, b, &b->items[i], NULL) < 0) {
					batch_put(c, b);
					fail(c);
					return NULL;
				}
			batch_put(c, b);
		} else if (stage_batch(r, b) < 0) {
			batch_put(c, b);
			fail(c);
			return NULL;
		} else {
			push(c, r->i + 1, b);
		}
		if (end)
			break;
	}
	return NULL;
}

/* The reader's writer hands its buffer on as a batch. */
static int from_reader(void *ctx, struct ls_buf *out)
{
	struct chain *c = ctx;
	struct batch *b = batch_get(c);
	struct ls_buf t;

	if (!b)
		return LS_ERR_IO;
	if (!b->cap) {
		if (!(b->items = malloc(1024 * sizeof(*b->items)))) {
			batch_put(c, b);
			return LS_ERR_NOMEM;
		}
		b->cap = 1024;
	}
	t = b->slot[0].bytes;
	b->slot[0].bytes = *out;
	*out = t;
	out->len = 0;
	b->items[0] = (struct item){ .raw = b->slot[0].bytes.p, .p.len = (uint32_t)b->slot[0].bytes.len };
	b->n = 1;
	push(c, 0, b);
	return 0;
}

struct chain *chain_new(const struct chain_link *links, int n, const char *input, unsigned jobs,
			chain_take take, uint64_t take_reads, void *ctx)
{
	struct chain *c = calloc(1, sizeof(*c));

	if (!c || n < 1 || n > CHAIN_STAGES) {
		tool_error("%s: out of memory", input);
		free(c);
		return NULL;
	}
	c->input = input;
	c->n = n;
	c->take = take;
	c->take_ctx = ctx;
	if (maxmem_limit(&c->max_mem) < 0) {
		free(c);
		return NULL;
	}
	c->run[n].skim = ~take_reads;
	pthread_mutex_init(&c->lock, NULL);
	pthread_cond_init(&c->freed, NULL);
	for (int i = 0; i <= n; i++)
		pthread_cond_init(&c->q[i].ready, NULL);
	ls_writer_init_sink(&c->in, from_reader, c, BATCH);
	for (int i = 0; i <= n; i++) {
		struct stage_run *r = &c->run[i];

		r->c = c;
		r->i = i;
		if (i < n) {
			r->link = &links[i];
			ls_writer_init_memory(&r->w);
			for (const enum ls_kind *k = links[i].def->replaces; *k; k++)
				r->replaced |= LS_KIND_BIT(*k);
			r->skim = ~links[i].def->reads();
			if (!(r->ctx = links[i].def->open(&r->w, jobs))) {
				tool_error("%s: out of memory", input);
				chain_free(c);
				return NULL;
			}
		}
	}
	for (int i = 0; i <= n; i++) {
		if (pthread_create(&c->run[i].thread, NULL, run_stage, &c->run[i]) != 0) {
			tool_error("%s: cannot start a thread for each stage", input);
			fail(c);
			chain_free(c);
			return NULL;
		}
		c->run[i].started = true;
	}
	return c;
}

struct ls_writer *chain_input(struct chain *c)
{
	return &c->in;
}

void *chain_stage(const struct chain *c, int i)
{
	return c->run[i].ctx;
}

static void join(struct chain *c)
{
	for (int i = 0; i <= c->n; i++)
		if (c->run[i].started) {
			pthread_join(c->run[i].thread, NULL);
			c->run[i].started = false;
		}
}

int chain_end(struct chain *c, bool ok)
{
	struct batch *b;

	if (ok && ls_writer_flush(&c->in) == 0 && (b = batch_get(c))) {
		b->end = true;
		push(c, 0, b);
	} else {
		fail(c);
	}
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
	for (int i = 0; i <= c->n; i++) {
		if (c->run[i].ctx)
			c->run[i].link->def->close(c->run[i].ctx);
		ls_writer_release(&c->run[i].w);
		for (struct batch *q = c->q[i].head; q; q = b) {
			b = q->next;
			batch_free(q);
		}
		pthread_cond_destroy(&c->q[i].ready);
	}
	for (; c->pool; c->pool = b) {
		b = c->pool->next;
		batch_free(c->pool);
	}
	ls_writer_release(&c->in);
	pthread_cond_destroy(&c->freed);
	pthread_mutex_destroy(&c->lock);
	free(c);
}
