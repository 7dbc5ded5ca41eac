/* Collective instances: per group a queue of open instances in order. */
#include <stdlib.h>
#include <string.h>

#include "../../libstream/error.h"
#include "coll.h"
#include "../stack.h"
#include "../../libstream/vec.h"

/* Pseudo group keys of Init and Finalize, beyond every comm index. */
#define KEY_INIT ((uint64_t)1 << 32)
#define KEY_FINALIZE (KEY_INIT + 1)

void an_coll_init(struct an_coll *c)
{
	memset(c, 0, sizeof(*c));
}

/* A group's members in rank order: a comm's, or every ranked process. */
static int new_group(struct an_coll *c, const struct ls_defs *d,
		     uint64_t key, uint32_t *g)
{
	struct an_coll_group *grp;
	int rc;

	if ((rc = ls_vec_room(&c->groups, &c->groups_cap, c->ngroups,
			      sizeof(*c->groups))) < 0)
		return rc;
	grp = &c->groups[c->ngroups];
	memset(grp, 0, sizeof(*grp));
	grp->comm = key < KEY_INIT ? (uint32_t)key : LS_NONE;
	if (grp->comm != LS_NONE) {
		grp->n = d->comms[grp->comm].n;
	} else {
		for (uint32_t p = 0; p < d->nprocs && rc == 0; p++)
			if (d->procs[p].ranked)
				rc = ls_idmap_put(&grp->world, p, grp->n++);
	}
	if (rc == 0 && !(grp->seq = calloc(grp->n ? grp->n : 1, sizeof(*grp->seq))))
		rc = LS_ERR_NOMEM;
	if (rc == 0)
		rc = ls_idmap_put(&c->group_ix, key, c->ngroups);
	if (rc < 0) {
		ls_idmap_release(&grp->world);
		free(grp->seq);
		return rc;
	}
	*g = c->ngroups++;
	return 0;
}

/* Member index of process index proc in group g, or LS_NONE. */
static uint32_t member(const struct an_coll *c, const struct ls_defs *d,
		       uint32_t g, uint32_t proc)
{
	const struct an_coll_group *grp = &c->groups[g];

	if (grp->comm != LS_NONE)
		return ls_comm_rank(&d->comms[grp->comm], proc);
	return ls_index(&grp->world, proc);
}

bool an_coll_expected(const struct ls_defs *d, enum ls_role role,
		      uint32_t comm, uint32_t proc)
{
	if (comm != LS_NONE && (an_role_collective(role) || an_role_world(role)))
		return d->comms[comm].n == 0 ||
		       ls_comm_rank(&d->comms[comm], proc) != LS_NONE;
	return an_role_world(role) && d->procs[proc].ranked;
}

int an_coll_part(struct an_coll *c, const struct ls_defs *d, enum ls_role role,
		 uint32_t comm, uint32_t proc, struct an_coll_part *part)
{
	uint64_t key;
	uint32_t g;
	int rc;

	if (!an_coll_expected(d, role, comm, proc))
		return 0;
	if (comm != LS_NONE) {
		if (d->comms[comm].n == 0)
			return 2;
		key = comm;
	} else {
		key = role == LS_R_MPI_INIT ? KEY_INIT : KEY_FINALIZE;
	}
	if (!ls_idmap_get(&c->group_ix, key, &g) &&
	    (rc = new_group(c, d, key, &g)) < 0)
		return rc;
	if ((part->rank = member(c, d, g, proc)) == LS_NONE)
		return 0;
	if (c->groups[g].n == 1)
		return 2;
	part->group = g;
	return 1;
}

/* The group's instance with sequence number seq, made if it is new. */
static struct an_coll_inst *instance(struct an_coll *c, uint32_t g, uint64_t seq)
{
	struct an_coll_group *grp = &c->groups[g];
	struct an_coll_inst **link = &grp->head;

	for (uint64_t q = grp->base;; q++) {
		if (!*link) {
			struct an_coll_inst *inst =
				calloc(1, sizeof(*inst) + grp->n * sizeof(inst->m[0]));

			if (!inst)
				return NULL;
			inst->group = g;
			inst->n = grp->n;
			inst->root = LS_NONE;
			inst->region = LS_NONE;
			*link = grp->tail = inst;
			c->open++;
		}
		if (q == seq)
			return *link;
		link = &(*link)->next;
	}
}

struct an_coll_inst *an_coll_next(struct an_coll *c, struct an_coll_part part)
{
	return instance(c, part.group, c->groups[part.group].seq[part.rank]);
}

static bool key_before(struct an_coll_key a, struct an_coll_key b)
{
	return a.t < b.t || (a.t == b.t && a.s < b.s);
}

int an_coll_leave(struct an_coll *c, const struct ls_defs *d,
		  struct an_coll_part part,
		  enum ls_role role, uint32_t root, struct an_coll_key key,
		  const struct an_coll_member *m, struct an_coll_inst **done)
{
	struct an_coll_group *grp = &c->groups[part.group];
	struct an_coll_inst *inst = instance(c, part.group, grp->seq[part.rank]);
	uint32_t r;

	if (!inst)
		return LS_ERR_NOMEM;
	grp->seq[part.rank]++;
	if (inst->left && inst->role != role)
		inst->mixed = true;
	if (inst->left == 0 || key_before(key, inst->role_key)) {
		inst->role = (uint8_t)role;
		inst->role_key = key;
	}
	/* nor did members that ran different functions of one shape (MPI_Allreduce, MPI_Allgather) */
	if (m->region != LS_NONE) {
		if (inst->region != LS_NONE && inst->region != m->region)
			inst->mixed = true;
		if (inst->region == LS_NONE)
			inst->region = m->region;
	}
	if (root != LS_NONE && (r = member(c, d, part.group, root)) != LS_NONE) {
		/* members that name different roots did not run one collective either */
		if (inst->root != LS_NONE && inst->root != r)
			inst->mixed = true;
		if (inst->root == LS_NONE || !key_before(key, inst->root_key)) {
			inst->root = r;
			inst->root_key = key;
		}
	}
	inst->m[part.rank] = *m;
	inst->m[part.rank].left = true;
	inst->left++;
	if (grp->head->left < grp->n)
		return 0;
	*done = grp->head;
	grp->head = grp->head->next;
	if (!grp->head)
		grp->tail = NULL;
	grp->base++;
	c->open--;
	return 1;
}

static bool later(const struct an_coll_member *a, const struct an_coll_member *b)
{
	return a->t > b->t || (a->t == b->t && a->stream > b->stream);
}

void an_coll_deps(const struct an_coll_inst *inst, uint32_t *dep)
{
	uint32_t n = inst->n, last = LS_NONE, second = LS_NONE, root = inst->root;
	enum ls_role shape = inst->role;

	if ((shape == LS_R_MPI_ONE2N || shape == LS_R_MPI_N2ONE) && root == LS_NONE)
		shape = LS_R_MPI_N2N;	/* no root named: all wait for all */
	for (uint32_t i = 0; i < n; i++) {
		dep[i] = LS_NONE;
		if (shape == LS_R_MPI_N2ONE && i == root)
			continue;
		if (last == LS_NONE || later(&inst->m[i], &inst->m[last])) {
			second = last;
			last = i;
		} else if (second == LS_NONE || later(&inst->m[i], &inst->m[second])) {
			second = i;
		}
	}
	switch (shape) {
	case LS_R_MPI_ONE2N:
		for (uint32_t i = 0; i < n; i++)
			dep[i] = i == root ? LS_NONE : root;
		break;
	case LS_R_MPI_N2ONE:
		dep[root] = last;
		break;
	case LS_R_MPI_SCAN:
		last = LS_NONE;
		for (uint32_t i = 0; i < n; i++) {
			dep[i] = last;
			if (last == LS_NONE || later(&inst->m[i], &inst->m[last]))
				last = i;
		}
		break;
	default:
		for (uint32_t i = 0; i < n; i++)
			dep[i] = i == last ? second : last;
		break;
	}
}

uint64_t an_coll_open_own(const struct an_coll *c)
{
	uint64_t n = 0;

	for (uint32_t g = 0; g < c->ngroups; g++)
		for (const struct an_coll_inst *inst = c->groups[g].head; inst; inst = inst->next) {
			uint32_t i = 0;

			while (i < inst->n && !inst->m[i].left)
				i++;
			n += i < inst->n && !inst->m[i].remote;
		}
	return n;
}

void an_coll_release(struct an_coll *c)
{
	for (uint32_t g = 0; g < c->ngroups; g++) {
		struct an_coll_group *grp = &c->groups[g];

		while (grp->head) {
			struct an_coll_inst *next = grp->head->next;

			free(grp->head);
			grp->head = next;
		}
		ls_idmap_release(&grp->world);
		free(grp->seq);
	}
	free(c->groups);
	ls_idmap_release(&c->group_ix);
	an_coll_init(c);
}
