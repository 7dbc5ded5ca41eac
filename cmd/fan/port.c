/* The shards' facts over MPI: each sent as it is made, with its sender's mark; taken by key, each rank's in order. */
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

#include "../../libstream/buf.h"
#include "../../libstream/error.h"
#include "port.h"
#include "nap.h"

#define TAG_FACTS 1

/* A key: an event's place in the stream's order (time, then stream). */
struct key {
	int64_t t;
	uint64_t s;
};

static const struct key END = { INT64_MAX, UINT64_MAX };

static bool before(struct key a, struct key b)
{
	return a.t < b.t || (a.t == b.t && a.s < b.s);
}

/* A batch: its sender's mark, then facts, each a head and len bytes padded to 8. */
struct batch_head {
	struct key mark;
};

struct fact_head {
	struct key key;
	uint32_t len, pad;
};

static uint32_t padded(uint32_t len)
{
	return (len + 7u) & ~7u;
}

/* Another rank, as this one sees it. */
struct peer {
	struct ls_buf out;	/* its next batch: a head, then the facts for it */
	struct key sent;	/* the last mark sent to it */
	uint8_t *in;		/* the batch received from it, taken up to at */
	size_t in_len, at;
	struct key mark;	/* its mark */
};

/* A batch on its way, its bytes held until MPI is done with them. */
struct sending {
	MPI_Request req;
	uint8_t *p;
};

struct port {
	MPI_Comm comm;
	int rank, size;
	struct peer *peers;
	struct key mark;	/* this shard's: every fact before it sent or in a batch */
	struct sending *sending;
	size_t nsending, sending_cap;
	uint64_t sent;
	struct an_remote remote;
	void (*before_wait)(void *ctx, bool at_end);
	void *wait_ctx;
};

static int start_batch(struct peer *p)
{
	struct batch_head h = { { 0, 0 } };

	p->out.len = 0;
	return ls_buf_add(&p->out, &h, sizeof(h));
}

/* Rank j's batch on its way (if it has facts, or this rank's mark moved on since): 0, or -1. */
static int flush_peer(struct port *p, int j)
{
	struct peer *x = &p->peers[j];
	struct batch_head h = { p->mark };
	struct sending *s;

	if (x->out.len == sizeof(h) && !before(x->sent, p->mark))
		return 0;
	if (p->nsending == p->sending_cap) {
		size_t cap = p->sending_cap ? 2 * p->sending_cap : 16;
		struct sending *v = realloc(p->sending, cap * sizeof(*v));

		if (!v)
			return -1;
		p->sending = v;
		p->sending_cap = cap;
	}
	memcpy(x->out.p, &h, sizeof(h));
	s = &p->sending[p->nsending];
	s->p = x->out.p;
	if (MPI_Isend(s->p, (int)x->out.len, MPI_BYTE, j, TAG_FACTS, p->comm, &s->req) != MPI_SUCCESS)
		return -1;
	p->nsending++;
	p->sent += x->out.len;
	x->sent = p->mark;
	x->out = (struct ls_buf)LS_BUF_INIT;
	return start_batch(x) < 0 ? -1 : 0;
}

/* Let go of the batches MPI is done with. 0, or -1 where MPI failed. */
static int reap(struct port *p)
{
	size_t k = 0;

	for (size_t i = 0; i < p->nsending; i++) {
		int done = 0;

		if (MPI_Test(&p->sending[i].req, &done, MPI_STATUS_IGNORE) != MPI_SUCCESS)
			return -1;
		if (done)
			free(p->sending[i].p);
		else
			p->sending[k++] = p->sending[i];
	}
	p->nsending = k;
	return 0;
}

int port_flush(struct port *p)
{
	for (int j = 0; j < p->size; j++)
		if (j != p->rank && flush_peer(p, j) < 0)
			return -1;
	return reap(p);
}

static int port_send(void *ctx, uint32_t to, int64_t t, uint64_t s, const void *fact, uint32_t len)
{
	struct port *p = ctx;
	struct peer *x = &p->peers[to];
	struct fact_head h = { { t, s }, len, 0 };
	static const uint8_t zeros[8];

	if (to >= (uint32_t)p->size || (int)to == p->rank)
		return 0;
	if (ls_buf_add(&x->out, &h, sizeof(h)) < 0 || ls_buf_add(&x->out, fact, len) < 0 ||
	    ls_buf_add(&x->out, zeros, padded(len) - len) < 0)
		return LS_ERR_NOMEM;
	/* at once: the shard that needs it may then decide without waiting for this one's mark */
	if (flush_peer(p, (int)to) < 0 || reap(p) < 0)
		return LS_ERR_IO;
	return 0;
}

/* Rank j's next batch (its last one taken whole): 0, or -1 where MPI failed or it is no batch. */
static int receive(struct port *p, int j)
{
	struct peer *x = &p->peers[j];
	struct batch_head h;
	MPI_Status st;
	int n;

	free(x->in);
	x->in = NULL;
	x->in_len = x->at = 0;
	if (nap_probe(j, TAG_FACTS, p->comm, &st) != MPI_SUCCESS || MPI_Get_count(&st, MPI_BYTE, &n) != MPI_SUCCESS ||
	    n < (int)sizeof(h) || !(x->in = malloc((size_t)n)) ||
	    MPI_Recv(x->in, n, MPI_BYTE, j, TAG_FACTS, p->comm, MPI_STATUS_IGNORE) != MPI_SUCCESS)
		return -1;
	/* whole facts only, so that taking them needs no more checks */
	for (size_t at = sizeof(h); at < (size_t)n;) {
		struct fact_head f;

		if ((size_t)n - at < sizeof(f))
			return -1;
		memcpy(&f, x->in + at, sizeof(f));
		if ((size_t)n - at - sizeof(f) < padded(f.len))
			return -1;
		at += sizeof(f) + padded(f.len);
	}
	memcpy(&h, x->in, sizeof(h));
	x->mark = h.mark;
	x->in_len = (size_t)n;
	x->at = sizeof(h);
	return 0;
}

/* This shard at its event (t, s): its mark moves on (t = INT64_MAX: to its end). */
static void port_at(void *ctx, int64_t t, uint64_t s)
{
	struct port *p = ctx;
	struct key me = t == INT64_MAX ? END : (struct key){ t, s };

	if (before(p->mark, me))
		p->mark = me;
}

/* Whether rank j's next batch has come (receiving it will not wait). -1 where MPI failed. */
static int arrived(struct port *p, int j)
{
	int flag = 0;

	if (MPI_Iprobe(j, TAG_FACTS, p->comm, &flag, MPI_STATUS_IGNORE) != MPI_SUCCESS)
		return -1;
	return flag;
}

static int port_next(void *ctx, const uint32_t *from, uint32_t n, int64_t t, uint64_t s, bool wait,
		     const void **fact, uint32_t *len)
{
	struct port *p = ctx;
	struct key me = { t, t == INT64_MAX ? 0 : s };	/* at the end: before every other rank's end */

	port_at(ctx, t, s);
	for (;;) {
		int lagging = -1, rc = 0;

		for (uint32_t i = 0; i < (from ? n : (uint32_t)p->size); i++) {
			int j = from ? (int)from[i] : (int)i;
			struct peer *x = &p->peers[j];
			struct fact_head h;

			if (j == p->rank || j >= p->size)
				continue;
			if (x->at < x->in_len) {
				memcpy(&h, x->in + x->at, sizeof(h));
				if (!before(h.key, me))
					continue;	/* its facts go on past this event */
				*fact = x->in + x->at + sizeof(h);
				*len = h.len;
				x->at += sizeof(h) + padded(h.len);
				return 1;
			}
			if (before(x->mark, me)) {
				/* it may send one yet: take what came already */
				if ((rc = arrived(p, j)) < 0 || (rc && receive(p, j) < 0))
					return LS_ERR_IO;
				if (rc)
					break;	/* and look again */
				lagging = j;
			}
		}
		if (rc)
			continue;
		if (lagging < 0)
			return 0;
		if (!wait)
			return AN_REMOTE_LATER;
		/* what it needs: first what this one has, so that the other never waits on it */
		if (p->before_wait)
			p->before_wait(p->wait_ctx, t == INT64_MAX);
		if (port_flush(p) < 0 || receive(p, lagging) < 0)
			return LS_ERR_IO;
	}
}

struct port *port_new(MPI_Comm comm)
{
	struct port *p = calloc(1, sizeof(*p));

	if (!p)
		return NULL;
	if (MPI_Comm_dup(comm, &p->comm) != MPI_SUCCESS) {
		free(p);
		return NULL;
	}
	MPI_Comm_rank(p->comm, &p->rank);
	MPI_Comm_size(p->comm, &p->size);
	if (!(p->peers = calloc((size_t)p->size, sizeof(*p->peers)))) {
		MPI_Comm_free(&p->comm);
		free(p);
		return NULL;
	}
	for (int j = 0; j < p->size; j++)
		if (start_batch(&p->peers[j]) < 0) {
			for (int k = 0; k <= j; k++)
				ls_buf_release(&p->peers[k].out);
			free(p->peers);
			MPI_Comm_free(&p->comm);
			free(p);
			return NULL;
		}
	p->mark = (struct key){ INT64_MIN, 0 };
	for (int j = 0; j < p->size; j++)
		p->peers[j].sent = p->peers[j].mark = p->mark;
	return p;
}

const struct an_remote *port_remote(struct port *p, void (*before_wait)(void *ctx, bool at_end), void *ctx)
{
	p->before_wait = before_wait;
	p->wait_ctx = ctx;
	p->remote = (struct an_remote){ p, (uint32_t)p->rank, (uint32_t)p->size, port_send, port_next, port_at };
	return &p->remote;
}

int port_close(struct port *p, uint64_t *sent)
{
	int rc = 0;

	p->mark = END;
	if (port_flush(p) < 0)
		rc = -1;
	for (int j = 0; j < p->size; j++)
		while (rc == 0 && j != p->rank && before(p->peers[j].mark, END))
			rc = receive(p, j);
	for (size_t i = 0; i < p->nsending; i++) {
		if (rc == 0 && nap_wait(&p->sending[i].req) != MPI_SUCCESS)
			rc = -1;
		free(p->sending[i].p);
	}
	for (int j = 0; j < p->size; j++) {
		ls_buf_release(&p->peers[j].out);
		free(p->peers[j].in);
	}
	*sent = p->sent;
	free(p->sending);
	free(p->peers);
	MPI_Comm_free(&p->comm);
	free(p);
	return rc;
}
