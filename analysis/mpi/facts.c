/* tr-deps' facts for other shards: to whom each goes, and reading them back. */
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include "../../libstream/error.h"
#include "../../libstream/shard.h"
#include "facts.h"

/* The bytes a fact of this kind travels in: up to the end of its part of the union. */
static uint32_t fact_len(uint8_t kind)
{
	return (uint32_t)(offsetof(struct an_fact, u) +
			  (kind == AN_FACT_MSG ? sizeof(((struct an_fact *)0)->u.msg) :
						 sizeof(((struct an_fact *)0)->u.member)));
}

uint32_t an_fact_owner(const struct an_remote *r, const struct ls_defs *d, uint32_t proc)
{
	return ls_shard_of(d->procs[proc].id, d->nprocs, r->shards);
}

int an_fact_msg(const struct an_remote *r, const struct ls_defs *d, int64_t t, uint64_t s,
		enum an_p2p_side side, uint32_t src, uint32_t dst, uint32_t comm, int64_t tag,
		struct an_msg_end end)
{
	uint32_t to = an_fact_owner(r, d, side == AN_P2P_SEND ? dst : src);
	struct an_fact f = { .kind = AN_FACT_MSG, .side = (uint8_t)side, .comm = comm,
			     .u.msg = { src, dst, tag, end } };

	f.u.msg.end.remote = true;
	return to == r->shard ? 0 : r->send(r->ctx, to, t, s, &f, fact_len(AN_FACT_MSG));
}

int an_fact_group_shards(const struct an_remote *r, const struct ls_defs *d, const struct an_coll *c, uint32_t g,
			 uint32_t **out, uint32_t *n, uint32_t **own, uint32_t *nown)
{
	const struct an_coll_group *grp = &c->groups[g];
	uint32_t procs = grp->comm != LS_NONE ? d->comms[grp->comm].n : d->nprocs, member = 0;
	uint8_t *seen = calloc(r->shards / 8 + 1, 1);	/* the shards listed, this one among them */
	uint32_t *v = calloc(procs + 1, sizeof(*v)), *mine = calloc(procs + 1, sizeof(*mine));

	if (!seen || !v || !mine) {
		free(seen);
		free(v);
		free(mine);
		return LS_ERR_NOMEM;
	}
	*n = *nown = 0;
	seen[r->shard / 8] |= (uint8_t)(1u << r->shard % 8);
	/* members in rank order: a comm's, or every ranked process in order (an_coll's numbering) */
	for (uint32_t i = 0; i < procs; i++) {
		uint32_t p = grp->comm != LS_NONE ? d->comms[grp->comm].members[i] : i, to;

		if (grp->comm == LS_NONE && !d->procs[p].ranked)
			continue;
		to = an_fact_owner(r, d, p);
		if (to == r->shard)
			mine[(*nown)++] = member;
		else if (!(seen[to / 8] & 1u << to % 8)) {
			seen[to / 8] |= (uint8_t)(1u << to % 8);
			v[(*n)++] = to;
		}
		member++;
	}
	free(seen);
	*out = v;
	*own = mine;
	return 0;
}

int an_fact_member(const struct an_remote *r, const uint32_t *to, uint32_t n, int64_t t, uint64_t s,
		   enum ls_role role, uint32_t comm, uint32_t root, uint32_t proc, const struct an_coll_member *m)
{
	struct an_fact f = { .kind = AN_FACT_MEMBER, .role = (uint8_t)role, .comm = comm,
			     .u.member = { root, proc, *m, { t, s } } };
	int rc = 0;

	f.u.member.m.remote = true;
	for (uint32_t i = 0; i < n && rc == 0; i++)
		rc = r->send(r->ctx, to[i], t, s, &f, fact_len(AN_FACT_MEMBER));
	return rc;
}

int an_fact_read(const void *p, uint32_t len, struct an_fact *f)
{
	uint8_t kind;

	if (len < 1)
		return -1;
	memcpy(&kind, p, 1);
	if ((kind != AN_FACT_MSG && kind != AN_FACT_MEMBER) || len != fact_len(kind))
		return -1;
	memcpy(f, p, len);
	return 0;
}
