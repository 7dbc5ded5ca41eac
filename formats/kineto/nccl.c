/*
 * NCCL collectives across ranks. PyTorch's profiler (2.x) writes on each
 * NCCL kernel the collective's name, its process group (name and members'
 * world ranks) and its sequence number on the group. A group is matched
 * where every member's trace is given and the sequence numbers each
 * recorded are without gaps: then the numbers all members recorded (the
 * traces' windows differ) make the instances, and each kernel among them
 * gets its part in the collective (coll_begin, coll_end on its comm). A
 * kernel without the metadata, or on a group not matched, stays a kernel
 * only, and tr-read says so once.
 */
#include <ctype.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../libstream/error.h"
#include "../../libstream/vec.h"
#include "kinetoin_private.h"

static uint32_t pg_find(const struct kinetoin *in, const struct kstr *name)
{
	for (uint32_t i = 0; i < in->npgs; i++)
		if (strlen(in->pgs[i].name) == name->n && !memcmp(in->pgs[i].name, name->p, name->n))
			return i;
	return UINT32_MAX;
}

/* "[0, 1, 2]" into ranks; 0 where not a plain list (PyTorch cuts long ones: "[0, 1, ..., 127]"). */
static uint32_t parse_ranks(const struct kstr *s, uint32_t **ranks)
{
	const char *p = s->p, *e = s->p + s->n;
	uint32_t n = 0, cap = 0;
	uint32_t *v = NULL;

	while (p < e && *p != '[')
		p++;
	for (p++; p < e;) {
		char *end;
		unsigned long r;

		while (p < e && (*p == ' ' || *p == ','))
			p++;
		if (p < e && *p == ']')
			break;
		if (p >= e || !isdigit((unsigned char)*p) || (r = strtoul(p, &end, 10)) > UINT32_MAX ||
		    ls_vec_room(&v, &cap, n, sizeof(*v)) < 0) {
			free(v);
			return 0;
		}
		v[n++] = (uint32_t)r;
		p = end;
	}
	*ranks = v;
	return n;
}

static bool is_nccl(const struct kstr *name)
{
	return name->n >= 4 && !strncasecmp(name->p, "nccl", 4);
}

static bool p2p(const struct kstr *coll)
{
	return (coll->n == 4 && (!memcmp(coll->p, "send", 4) || !memcmp(coll->p, "recv", 4)));
}

int kineto_nccl_look(struct kinetoin *in, const struct kev *ev)
{
	struct kfile *f = in->f;
	uint32_t pg, i;
	struct kpg *g;
	int rc;

	if (!ev->coll.n) {
		in->nccl_bare += is_nccl(&ev->name);
		return 0;
	}
	if (p2p(&ev->coll)) {
		in->nccl_p2p++;
		return 0;
	}
	if (!ev->pg.n || !(ev->has & KA_SEQ)) {
		in->nccl_no_seq++;
		return 0;
	}
	if ((pg = pg_find(in, &ev->pg)) == UINT32_MAX) {
		if ((rc = ls_vec_room(&in->pgs, &in->pgs_cap, in->npgs, sizeof(*in->pgs))) < 0)
			return rc;
		g = &in->pgs[pg = in->npgs];
		memset(g, 0, sizeof(*g));
		if (!(g->name = strndup(ev->pg.p, ev->pg.n)))
			return LS_ERR_NOMEM;
		g->nranks = ev->pg_ranks.n ? parse_ranks(&ev->pg_ranks, &g->ranks) : 0;
		in->npgs++;
	} else if (ev->pg_ranks.n) {
		uint32_t *ranks = NULL, n = parse_ranks(&ev->pg_ranks, &ranks);

		g = &in->pgs[pg];
		g->ranks_differ |= n != g->nranks || (n && memcmp(ranks, g->ranks, n * sizeof(*ranks)));
		free(ranks);
	}
	for (i = 0; i < f->nseqs && f->seqs[i].pg != pg; i++)
		;
	if (i == f->nseqs) {
		if ((rc = ls_vec_room(&f->seqs, &f->seqs_cap, f->nseqs, sizeof(*f->seqs))) < 0)
			return rc;
		f->seqs[f->nseqs++] = (struct kseq){ pg, ev->seq, ev->seq, 0 };
	}
	if (ev->seq < f->seqs[i].lo)
		f->seqs[i].lo = ev->seq;
	if (ev->seq > f->seqs[i].hi)
		f->seqs[i].hi = ev->seq;
	f->seqs[i].n++;
	return 0;
}

static const struct kfile *file_of_rank(const struct kinetoin *in, uint32_t rank)
{
	for (uint32_t i = 0; i < in->nfiles; i++)
		if (in->files[i].top.have_rank && in->files[i].top.rank == (int64_t)rank)
			return &in->files[i];
	return NULL;
}

static const struct kseq *seq_of(const struct kfile *f, uint32_t pg)
{
	for (uint32_t i = 0; i < f->nseqs; i++)
		if (f->seqs[i].pg == pg)
			return &f->seqs[i];
	return NULL;
}

/* Whether group pg can be matched, its common sequence numbers set; else why not into why[0..n). */
static bool match(struct kinetoin *in, uint32_t pg, char *why, size_t n)
{
	struct kpg *g = &in->pgs[pg];
	uint32_t missing = 0;

	if (!g->nranks || g->ranks_differ) {
		snprintf(why, n, "process group \"%s\": %s", g->name,
			 g->ranks_differ ? "the traces give it other members" : "its members are not listed");
		return false;
	}
	g->lo = INT64_MIN;
	g->hi = INT64_MAX;
	for (uint32_t m = 0; m < g->nranks; m++) {
		const struct kfile *f = file_of_rank(in, g->ranks[m]);
		const struct kseq *s = f ? seq_of(f, pg) : NULL;

		if (!f) {
			missing++;
			continue;
		}
		if (!s || (uint64_t)(s->hi - s->lo) + 1 != s->n) {
			snprintf(why, n, "process group \"%s\": rank %u's trace %s", g->name, g->ranks[m],
				 s ? "lacks some of its sequence numbers" : "has none of its collectives");
			return false;
		}
		g->lo = s->lo > g->lo ? s->lo : g->lo;
		g->hi = s->hi < g->hi ? s->hi : g->hi;
	}
	if (missing) {
		snprintf(why, n, "process group \"%s\": the traces of %u of its %u ranks were not given", g->name,
			 missing, g->nranks);
		return false;
	}
	if (g->lo > g->hi) {
		snprintf(why, n, "process group \"%s\": its members' traces hold no collective in common", g->name);
		return false;
	}
	return true;
}

int kineto_nccl_match(struct kinetoin *in)
{
	char why[200];
	bool said = false;

	for (uint32_t pg = 0; pg < in->npgs; pg++) {
		struct kpg *g = &in->pgs[pg];

		if (!(g->matched = match(in, pg, why, sizeof(why))) && !said) {
			ls_front_note(in->front, "NCCL collectives not matched across ranks on %s", why);
			said = true;
		}
	}
	return 0;
}

int kineto_nccl_comms(struct kinetoin *in)
{
	char name[160];
	int rc = 0;

	for (uint32_t pg = 0; pg < in->npgs && rc == 0; pg++) {
		struct kpg *g = &in->pgs[pg];
		uint32_t *members;

		if (!g->matched)
			continue;
		if (!(members = malloc(g->nranks * sizeof(*members))))
			return LS_ERR_NOMEM;
		for (uint32_t m = 0; m < g->nranks; m++)
			members[m] = file_of_rank(in, g->ranks[m])->process;
		g->comm = in->ncomms++;
		snprintf(name, sizeof(name), "NCCL process group %s", g->name);
		ls_build_begin(in->w, 4);
		ls_put_str(in->w, LS_F_K, "comm");
		ls_put_u64(in->w, LS_F_ID, g->comm);
		ls_put_str(in->w, LS_F_NAME, name);
		ls_put_uints(in->w, LS_F_MEMBERS, members, g->nranks);
		rc = ls_build_end(in->w);
		free(members);
	}
	return rc;
}

/* The collective's name as the stream's op (a static string): "allreduce", "bcast", "alltoall", ... */
static const char *op_of(const struct kstr *coll)
{
	static const struct {
		const char *name, *op;
	} ops[] = {
		{ "allreduce", "allreduce" }, { "allgather", "allgather" }, { "reducescatter", "reduce_scatter" },
		{ "broadcast", "bcast" }, { "bcast", "bcast" }, { "reduce", "reduce" }, { "gather", "gather" },
		{ "scatter", "scatter" }, { "alltoall", "alltoall" }, { "alltoallv", "alltoall" },
		{ "barrier", "barrier" },
	};
	char plain[64];
	size_t n = 0;

	/* "_allgather_base", "all_to_all", "allgather_into_tensor_coalesced": letters up to a suffix */
	for (const char *p = coll->p; *p && n < sizeof(plain) - 1; p++) {
		if (!strncmp(p, "_base", 5) || !strncmp(p, "_into", 5) || !strncmp(p, "_coalesced", 10))
			break;
		if (*p != '_')
			plain[n++] = (char)tolower((unsigned char)*p);
	}
	plain[n] = '\0';
	for (size_t i = 0; i < sizeof(ops) / sizeof(ops[0]); i++)
		if (!strcmp(plain, ops[i].name))
			return ops[i].op;
	return "nccl collective";
}

/* Bytes of one element of dtype (PyTorch's scalar type names), 0 where not known. */
static uint64_t dtype_size(const struct kstr *dtype)
{
	static const struct {
		const char *name;
		uint64_t size;
	} sizes[] = {
		{ "Float", 4 }, { "Double", 8 }, { "Half", 2 }, { "BFloat16", 2 }, { "Int", 4 }, { "Long", 8 },
		{ "Short", 2 }, { "Char", 1 }, { "Byte", 1 }, { "Bool", 1 }, { "ComplexFloat", 8 },
		{ "ComplexDouble", 16 }, { "ComplexHalf", 4 },
	};

	for (size_t i = 0; i < sizeof(sizes) / sizeof(sizes[0]); i++)
		if (dtype->n == strlen(sizes[i].name) && !memcmp(dtype->p, sizes[i].name, dtype->n))
			return sizes[i].size;
	return dtype->n > 6 && !memcmp(dtype->p, "Float8", 6) ? 1 : 0;
}

void kineto_nccl_bytes(const struct kev *ev, uint64_t *sent, uint64_t *recvd)
{
	uint64_t size = dtype_size(&ev->dtype);

	*sent = (ev->has & KA_IN_NELEMS) && ev->in_nelems > 0 ? (uint64_t)ev->in_nelems * size : 0;
	*recvd = (ev->has & KA_OUT_NELEMS) && ev->out_nelems > 0 ? (uint64_t)ev->out_nelems * size : 0;
}

uint32_t kineto_nccl_comm(struct kinetoin *in, const struct kev *ev, const char **op)
{
	uint32_t pg;
	const struct kpg *g;

	if (!ev->coll.n || p2p(&ev->coll) || !ev->pg.n || !(ev->has & KA_SEQ) ||
	    (pg = pg_find(in, &ev->pg)) == UINT32_MAX)
		return UINT32_MAX;
	g = &in->pgs[pg];
	if (!g->matched || ev->seq < g->lo || ev->seq > g->hi) {
		in->nccl_unmatched++;
		return UINT32_MAX;
	}
	*op = op_of(&ev->coll);
	return g->comm;
}

void kineto_nccl_release(struct kinetoin *in)
{
	for (uint32_t i = 0; i < in->npgs; i++) {
		free(in->pgs[i].name);
		free(in->pgs[i].ranks);
	}
	free(in->pgs);
}
