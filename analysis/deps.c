/* tr-deps for MPI: message matching and collective instances to edges. */
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../libstream/error.h"
#include "../libstream/roles.h"
#include "../libstream/vec.h"
#include "deps.h"
#include "edges.h"
#include "mpi/coll.h"
#include "mpi/facts.h"
#include "mpi/icoll.h"
#include "mpi/p2p.h"
#include "remote.h"
#include "stage.h"
#include "trace.h"

struct an_deps {
	struct an_trace tr;
	struct an_p2p p2p;
	struct an_coll coll;
	struct an_icoll icoll;
	struct an_gpu_deps gpu;
	struct an_omp_deps omp;
	uint32_t *dep;		/* scratch: an_coll_deps of an instance */
	uint64_t *acts;		/* scratch: its members' activities */
	uint32_t dep_cap, acts_cap;
	struct an_edges out;	/* what the rules of every paradigm find */
	struct an_deps_stats st;
	const struct an_remote *remote;	/* the other shards, NULL: none (the whole trace is here) */
	struct an_group_shards {	/* per collective group: the other shards with members, its members here */
		uint32_t *v, n, *own, nown;
		bool known;
	} *gshards;
	uint32_t gshards_cap;
};

struct an_deps *an_deps_new(struct ls_writer *w, const struct an_remote *remote)
{
	struct an_deps *d = calloc(1, sizeof(*d));

	if (!d)
		return NULL;
	d->remote = remote;
	an_trace_init(&d->tr);
	an_p2p_init(&d->p2p);
	an_coll_init(&d->coll);
	an_icoll_init(&d->icoll);
	d->out = (struct an_edges){ .w = w, .defs = &d->tr.defs };
	an_gpu_deps_init(&d->gpu, &d->tr, &d->out);
	an_omp_deps_init(&d->omp, &d->tr, &d->out);
	return d;
}

/* The process index a field names, or LS_NONE with *why set. */
static uint32_t process_field(const struct an_deps *d, struct an_item *it, enum ls_field f, const char **why)
{
	return an_item_index(it, &d->tr.defs.proc_ix, f, "message or collective naming an undefined process", why);
}

static uint32_t comm_field(const struct an_deps *d, struct an_item *it, const char **why)
{
	return an_item_index(it, &d->tr.defs.comm_ix, LS_F_COMM, "message or collective on an undefined comm", why);
}

/*
 * Another shard's fact: matched as its own side or member would be, its
 * edges left to that shard (its event completes the match, or ours does
 * when it comes). 0, or a negative error.
 */
static int remote_fact(struct an_deps *d, const struct an_fact *f, const char **why)
{
	struct an_coll_part part;
	struct an_coll_inst *inst;
	struct an_msg_end other;
	int rc;

	if (f->kind == AN_FACT_MSG)
		return an_p2p_arrive(&d->p2p, (enum an_p2p_side)f->side, f->u.msg.src, f->u.msg.dst, f->comm,
				     f->u.msg.tag, f->u.msg.end, &other) < 0 ? LS_ERR_NOMEM : 0;
	if (f->u.member.proc >= d->tr.defs.nprocs || (f->comm != LS_NONE && f->comm >= d->tr.defs.ncomms)) {
		*why = "another shard named a process or comm this one has not defined";
		return LS_ERR_SYNTAX;
	}
	if ((rc = an_coll_part(&d->coll, &d->tr.defs, (enum ls_role)f->role, f->comm, f->u.member.proc,
			       &part)) != 1)
		return rc < 0 ? rc : 0;
	if ((rc = an_coll_leave(&d->coll, &d->tr.defs, part, (enum ls_role)f->role, f->u.member.root,
				f->u.member.key, &f->u.member.m, &inst)) == 1)
		free(inst);
	return rc < 0 ? rc : 0;
}

/* What decides the match of an event of this shard, and whether the facts taken so far tell it. */
struct decided {
	bool (*known)(const struct an_deps *d, const struct decided *x);
	enum an_p2p_side side;	/* a message: the other side's, on its channel */
	uint32_t src, dst, comm;
	int64_t tag;
	const struct an_coll_inst *inst;	/* a member's part: the instance it leaves */
};

/* The other side of the message is there (it came before): this event completes the match. */
static bool other_side_there(const struct an_deps *d, const struct decided *x)
{
	return an_p2p_waiting(&d->p2p, x->side, x->src, x->dst, x->comm, x->tag);
}

/* Every other member left the instance before: this part completes it. */
static bool others_left(const struct an_deps *d, const struct decided *x)
{
	(void)d;
	return x->inst->left + 1 == x->inst->n;
}

/*
 * The facts of shards from[0..n) (NULL: every other) before key (t, s)
 * (INT64_MAX: all of them), each shard's in its order, until x (NULL:
 * never) says those taken decide the match, or none can come any more:
 * 0, or a negative error.
 */
static int remote_before(struct an_deps *d, const uint32_t *from, uint32_t n, int64_t t, uint64_t s,
			 const struct decided *x, const char **why)
{
	struct an_fact f;
	const void *p;
	uint32_t len;
	int rc;

	while ((rc = d->remote->next(d->remote->ctx, from, n, t, s, !x || !x->known(d, x), &p, &len)) == 1) {
		if (an_fact_read(p, len, &f) < 0) {
			*why = "another shard sent what is not a fact of tr-deps";
			return LS_ERR_SYNTAX;
		}
		if ((rc = remote_fact(d, &f, why)) < 0)
			return rc;
	}
	return rc == AN_REMOTE_LATER ? 0 : rc;
}

/* A send or a receive: match it, and write the edge when both are known. */
static int message(struct an_deps *d, struct an_item *it,
		   const struct an_event *ev, const char **why)
{
	const struct an_frame *top = an_stack_top(&d->tr.stacks[ev->s]);
	uint32_t peer = process_field(d, it, LS_F_PEER, why), comm;
	struct an_msg_end self = { ev->id, ev->t, false }, other;
	uint32_t other_shard;
	int64_t tag;
	int rc;

	if (peer == LS_NONE || (comm = comm_field(d, it, why)) == LS_NONE)
		return LS_ERR_SYNTAX;
	if (an_item_i64(it, LS_F_TAG, &tag) < 0) {
		*why = "message without a valid 'tag'";
		return LS_ERR_SYNTAX;
	}
	/*
	 * The other side's shard, where another: its sides on this channel
	 * before this one, taken until one matches (this event completes the
	 * match) or none can come before it (the other side's event will)
	 */
	if (d->remote && (other_shard = an_fact_owner(d->remote, &d->tr.defs, peer)) != d->remote->shard) {
		bool send = it->kind == LS_K_SEND;
		struct decided x = { other_side_there, send ? AN_P2P_RECV : AN_P2P_SEND, send ? ev->proc : peer,
				     send ? peer : ev->proc, comm, tag, NULL };

		if ((rc = remote_before(d, &other_shard, 1, ev->t, d->tr.defs.streams[ev->s].id, &x, why)) < 0)
			return rc;
	}
	if (it->kind == LS_K_SEND) {
		/* a send begins when the call that sends it does */
		if (top)
			self.t = top->t;
		if (d->remote && (rc = an_fact_msg(d->remote, &d->tr.defs, ev->t, d->tr.defs.streams[ev->s].id,
						   AN_P2P_SEND, ev->proc, peer, comm, tag, self)) < 0)
			return rc;
		rc = an_p2p_arrive(&d->p2p, AN_P2P_SEND, ev->proc, peer, comm, tag,
				   self, &other);
		if (rc <= 0)
			return rc;
		d->st.clock += other.t < self.t;
		return an_edges_write(&d->out, ev->id, other.ev, LS_E_MSG);
	}
	if (d->remote && (rc = an_fact_msg(d->remote, &d->tr.defs, ev->t, d->tr.defs.streams[ev->s].id,
					   AN_P2P_RECV, peer, ev->proc, comm, tag, self)) < 0)
		return rc;
	rc = an_p2p_arrive(&d->p2p, AN_P2P_RECV, peer, ev->proc, comm, tag, self, &other);
	if (rc <= 0)
		return rc;
	d->st.clock += self.t < other.t;
	return an_edges_write(&d->out, other.ev, ev->id, LS_E_MSG);
}

/* A nonblocking collective posted (a coll_begin with a request, in an mpi_icoll activity). */
static int coll_begin(struct an_deps *d, struct an_item *it, const struct an_event *ev)
{
	const struct an_frame *top = an_stack_top(&d->tr.stacks[ev->s]);
	uint64_t req;

	if (!top || top->role != LS_R_MPI_ICOLL || an_item_u64(it, LS_F_REQ, &req) < 0)
		return 0;
	return an_icoll_post(&d->icoll, ev->proc, req,
			     (struct an_icoll_post){ top->id, top->t, d->tr.defs.streams[ev->s].id, top->region });
}

/* ... and completed (a coll_end with its request): its part ends with the call it lies in. */
static int icoll_end(struct an_deps *d, struct an_item *it, const struct an_event *ev,
		     uint64_t req, const char **why)
{
	uint32_t comm = comm_field(d, it, why), root = LS_NONE;
	const char *op = "";
	uint32_t n = 0;

	if (comm == LS_NONE)
		return LS_ERR_SYNTAX;
	if (an_item_has(it, LS_F_ROOT) && (root = process_field(d, it, LS_F_ROOT, why)) == LS_NONE)
		return LS_ERR_SYNTAX;
	if (an_item_has(it, LS_F_OP) && an_item_str(it, LS_F_OP, &op, &n) < 0)
		n = 0;
	return an_icoll_complete(&d->icoll, ev->proc, req, ev->s, comm, root, ls_role_by_op(op, n));
}

/*
 * A collective's end event names its comm and root: keep them on its
 * frame. A kernel's (NCCL's, on a GPU stream) names its comm and the op
 * that gives its shape: kept as a = comm + 1, b = the shape's role.
 */
static int coll_end(struct an_deps *d, struct an_item *it,
		    const struct an_event *ev, const char **why)
{
	struct an_frame *top = an_stack_top(&d->tr.stacks[ev->s]);
	const char *op = "";
	uint64_t req;
	uint32_t n = 0;

	if (an_item_u64(it, LS_F_REQ, &req) == 0)
		return icoll_end(d, it, ev, req, why);
	if (top && top->role == LS_R_KERNEL) {
		if ((top->a = comm_field(d, it, why)) == LS_NONE)
			return LS_ERR_SYNTAX;
		top->a++;
		if (an_item_has(it, LS_F_OP) && an_item_str(it, LS_F_OP, &op, &n) < 0)
			n = 0;
		top->b = (uint32_t)ls_role_by_op(op, n);
		return 0;
	}
	if (!top || !(an_role_collective(top->role) || an_role_world(top->role)))
		return 0;
	if ((top->a = comm_field(d, it, why)) == LS_NONE)
		return LS_ERR_SYNTAX;
	top->a++;	/* a and b are 0 when unset */
	if (an_item_has(it, LS_F_ROOT)) {
		if ((top->b = process_field(d, it, LS_F_ROOT, why)) == LS_NONE)
			return LS_ERR_SYNTAX;
		top->b++;
	}
	return 0;
}

static int instance_done(struct an_deps *d, struct an_coll_inst *inst)
{
	const struct an_coll_group *grp = &d->coll.groups[inst->group];
	uint32_t root = LS_NONE;
	int rc;

	if (ls_vec_room(&d->dep, &d->dep_cap, inst->n, sizeof(*d->dep)) < 0)
		return LS_ERR_NOMEM;
	uint32_t nacts = 0;

	an_coll_deps(inst, d->dep);
	d->st.mixed += inst->mixed;
	for (uint32_t i = 0; i < inst->n; i++) {
		if (d->dep[i] != LS_NONE &&
		    (rc = an_edges_write(&d->out, inst->m[d->dep[i]].enter, inst->m[i].leave,
			       LS_E_COLL)) < 0)
			return rc;
	}
	/* the members' activities: a nonblocking one's post and the call that completed it */
	if (ls_vec_room(&d->acts, &d->acts_cap, 2 * inst->n, sizeof(*d->acts)) < 0)
		return LS_ERR_NOMEM;
	for (uint32_t i = 0; i < inst->n; i++) {
		d->acts[nacts++] = inst->m[i].enter;
		if (inst->m[i].done_act != UINT64_MAX)
			d->acts[nacts++] = inst->m[i].done_act;
	}
	if (inst->root != LS_NONE && grp->comm != LS_NONE)
		root = d->tr.defs.comms[grp->comm].members[inst->root];
	return an_edges_instance(&d->out, d->acts, nacts, grp->comm, root);
}

static int member_left(struct an_deps *d, const struct an_event *ev, enum ls_role role, uint32_t comm,
		       uint32_t root, const struct an_coll_member *m, const char **why);

/* The other shards with members in collective group g, and its members here, found once: 0, or LS_ERR_NOMEM. */
static struct an_group_shards *group_shards(struct an_deps *d, uint32_t g)
{
	if (g >= d->gshards_cap) {
		uint32_t cap = g + 16;
		struct an_group_shards *x = realloc(d->gshards, cap * sizeof(*x));

		if (!x)
			return NULL;
		memset(x + d->gshards_cap, 0, (cap - d->gshards_cap) * sizeof(*x));
		d->gshards = x;
		d->gshards_cap = cap;
	}
	if (!d->gshards[g].known) {
		if (an_fact_group_shards(d->remote, &d->tr.defs, &d->coll, g, &d->gshards[g].v, &d->gshards[g].n,
					 &d->gshards[g].own, &d->gshards[g].nown) < 0)
			return NULL;
		d->gshards[g].known = true;
	}
	return &d->gshards[g];
}

/*
 * Whether member me's part in the instance it is leaving may complete it:
 * no other member of this shard is still in it (that one's leave would
 * come later, in this shard's own order). Only then do the other shards'
 * parts before it decide.
 */
static bool may_complete(const struct an_coll_inst *inst, const struct an_group_shards *gs, uint32_t me)
{
	for (uint32_t i = 0; i < gs->nown; i++)
		if (gs->own[i] != me && !inst->m[gs->own[i]].left)
			return false;
	return true;
}

/* A collective activity ends: its part in an instance is done. */
static int coll_leave(struct an_deps *d, const struct an_frame *f,
		      const struct an_event *ev, const char **why)
{
	uint32_t comm = f->a ? f->a - 1 : LS_NONE, root = f->b ? f->b - 1 : LS_NONE;
	/* MPI_Init and MPI_Init_thread are one instance: only a collective's function must agree */
	struct an_coll_member m = { f->id, ev->id, f->t, d->tr.defs.streams[ev->s].id, false, UINT64_MAX, false,
				    an_role_collective(f->role) ? f->region : LS_NONE };

	return member_left(d, ev, f->role, comm, root, &m, why);
}

/*
 * A member's part (of shape role, on comm) ended with event ev: into its
 * instance, which may be complete; told to the other shards with members.
 */
static int member_left(struct an_deps *d, const struct an_event *ev, enum ls_role role, uint32_t comm,
		       uint32_t root, const struct an_coll_member *m, const char **why)
{
	struct an_coll_part part;
	struct an_coll_inst *inst;
	uint64_t acts[2] = { m->enter, m->done_act };
	struct an_coll_key key = { ev->t, d->tr.defs.streams[ev->s].id };
	struct an_group_shards *gs = NULL;
	struct an_coll_inst *next;
	int rc;

	rc = an_coll_part(&d->coll, &d->tr.defs, role, comm, ev->proc, &part);
	if (rc == 0)
		d->st.coll_alone++;
	if (rc == 2)
		return an_edges_instance(&d->out, acts, m->done_act == UINT64_MAX ? 1 : 2, comm, root);
	if (rc <= 0)
		return rc;
	/*
	 * Where other shards have members: this part to them, and, where it
	 * may complete its instance, their parts before it first (whether it
	 * does, and so writes its edges, is theirs to say).
	 */
	if (d->remote && (!(gs = group_shards(d, part.group)) || !(next = an_coll_next(&d->coll, part))))
		return LS_ERR_NOMEM;
	if (gs && gs->n) {
		struct decided x = { others_left, AN_P2P_SEND, 0, 0, 0, 0, next };

		if ((may_complete(next, gs, part.rank) &&
		     (rc = remote_before(d, gs->v, gs->n, key.t, key.s, &x, why)) < 0) ||
		    (rc = an_fact_member(d->remote, gs->v, gs->n, key.t, key.s, role, comm, root, ev->proc, m)) < 0)
			return rc;
	}
	rc = an_coll_leave(&d->coll, &d->tr.defs, part, role, root, key, m, &inst);
	if (rc <= 0)
		return rc;
	rc = instance_done(d, inst);
	free(inst);
	return rc;
}

/* A kernel that ran a collective (NCCL) ends: its part in an instance is done. */
static int kernel_coll_leave(struct an_deps *d, const struct an_frame *f, const struct an_event *ev,
			     const char **why)
{
	/* a collective kernel's name may differ by rank (its data type, its algorithm): not compared */
	struct an_coll_member m = { f->id, ev->id, f->t, d->tr.defs.streams[ev->s].id, false, UINT64_MAX, false,
				    LS_NONE };

	return member_left(d, ev, (enum ls_role)f->b, f->a - 1, LS_NONE, &m, why);
}

/* The call f ended (ev): the nonblocking collectives it completed have their parts done. */
static int icolls_left(struct an_deps *d, const struct an_frame *f, const struct an_event *ev,
		       const char **why)
{
	uint32_t n;
	const struct an_icoll_done *done = an_icoll_ended(&d->icoll, ev->s, &n);
	int rc = 0;

	for (uint32_t i = 0; i < n && rc == 0; i++) {
		struct an_coll_member m = { done[i].post.enter, ev->id, done[i].post.t, done[i].post.stream,
					    false, f->id, false, done[i].post.region };

		rc = member_left(d, ev, done[i].shape, done[i].comm, done[i].root, &m, why);
	}
	return rc;
}

/* The events an_deps_take reads. */
#define EVENTS_READ (LS_KIND_BIT(LS_K_ENTER) | LS_KIND_BIT(LS_K_LEAVE) | \
		     LS_KIND_BIT(LS_K_SEND) | LS_KIND_BIT(LS_K_RECV) | \
		     LS_KIND_BIT(LS_K_COLL_BEGIN) | LS_KIND_BIT(LS_K_COLL_END) | LS_KIND_BIT(LS_K_FORK) | \
		     LS_KIND_BIT(LS_K_JOIN) | LS_KIND_BIT(LS_K_TEAM_BEGIN) | \
		     LS_KIND_BIT(LS_K_TEAM_END) | LS_KIND_BIT(LS_K_LOCK_ACQUIRE) | \
		     LS_KIND_BIT(LS_K_LOCK_RELEASE))

uint64_t an_deps_reads(void)
{
	return LS_DEFS_KINDS | EVENTS_READ;
}

int an_deps_take(struct an_deps *d, struct an_item *it,
		 const char **why)
{
	const struct ls_record *rec = NULL;
	struct an_event ev;
	struct an_frame *f;
	int rc = 0;

	if (LS_DEFS_KINDS & LS_KIND_BIT(it->kind)) {
		if ((rc = an_item_need(it, &rec, why)) < 0 || (rc = an_trace_def(&d->tr, rec, why)) <= 0)
			return rc;
		return rec->kind == LS_K_STREAM ? an_gpu_deps_stream(&d->gpu) : 0;
	}
	if (!(EVENTS_READ & LS_KIND_BIT(it->kind)))
		return 0;
	if ((rc = an_trace_item(&d->tr, it, &ev, why)) < 0)
		return rc;
	/* the other shards' facts matter to the matching alone (message, member_left), which takes them */
	if (d->remote)
		d->remote->at(d->remote->ctx, ev.t, d->tr.defs.streams[ev.s].id);
	/* an event's fields are read where its rules need them (an_item_u64): typed, as the reader gave it */
	switch (it->kind) {
	case LS_K_ENTER:
		if (!(f = an_trace_enter(&d->tr, &ev, &rc)))
			return rc;
		return an_gpu_deps_role(f->role) ? an_gpu_deps_enter(&d->gpu, f, it, &ev) : 0;
	case LS_K_LEAVE:
		if (!(f = an_trace_leave(&d->tr, &ev)))
			return 0;
		if ((rc = icolls_left(d, f, &ev, why)) < 0)
			return rc;
		if (an_role_collective(f->role) || an_role_world(f->role))
			rc = coll_leave(d, f, &ev, why);
		else if (an_gpu_deps_role(f->role))
			rc = an_gpu_deps_leave(&d->gpu, f, it, &ev);
		if (rc == 0 && f->role == LS_R_KERNEL && f->a)
			rc = kernel_coll_leave(d, f, &ev, why);
		else if (f->role == LS_R_OMP_BARRIER)
			rc = an_omp_deps_barrier_leave(&d->omp, f, &ev);
		an_stack_pop_to(&d->tr.stacks[ev.s], f);
		return rc;
	case LS_K_COLL_BEGIN:
		return coll_begin(d, it, &ev);
	case LS_K_COLL_END:
		return coll_end(d, it, &ev, why);
	case LS_K_SEND: case LS_K_RECV:
		return message(d, it, &ev, why);
	case LS_K_LOCK_ACQUIRE: case LS_K_LOCK_RELEASE:
		return (rc = an_item_need(it, &rec, why)) < 0 ? rc : an_omp_deps_event(&d->omp, rec, &ev);
	default:
		return an_omp_deps_event(&d->omp, NULL, &ev);
	}
}

int an_deps_finish(struct an_deps *d, const char **why)
{
	int rc = d->remote ? remote_before(d, NULL, 0, INT64_MAX, 0, NULL, why) : 0;

	d->st.unbalanced = an_trace_finish(&d->tr);
	an_gpu_deps_finish(&d->gpu);
	an_omp_deps_finish(&d->omp);
	return rc;
}

struct an_deps_stats an_deps_stats(const struct an_deps *d)
{
	struct an_deps_stats st = d->st;

	st.unmatched_sends = d->p2p.pending[AN_P2P_SEND] - d->p2p.remote_pending[AN_P2P_SEND];
	st.unmatched_recvs = d->p2p.pending[AN_P2P_RECV] - d->p2p.remote_pending[AN_P2P_RECV];
	st.open_instances = d->remote ? an_coll_open_own(&d->coll) : d->coll.open;
	st.gpu = d->gpu.st;
	st.omp = d->omp.st;
	memcpy(st.edges, d->out.count, sizeof(st.edges));
	st.instances = d->out.instances;
	st.unposted = d->icoll.unposted;
	return st;
}

void an_deps_free(struct an_deps *d)
{
	if (!d)
		return;
	an_coll_release(&d->coll);
	an_icoll_release(&d->icoll);
	an_gpu_deps_release(&d->gpu);
	an_omp_deps_release(&d->omp);
	an_p2p_release(&d->p2p);
	an_trace_release(&d->tr);
	free(d->out.typed.v);
	for (uint32_t g = 0; g < d->gshards_cap; g++) {
		free(d->gshards[g].v);
		free(d->gshards[g].own);
	}
	free(d->gshards);
	free(d->dep);
	free(d->acts);
	free(d);
}

/* tr-deps as a stage (stage.h) */

static void *open_deps(struct ls_writer *w, unsigned jobs, const void *opts)
{
	(void)jobs;
	return an_deps_new(w, opts);
}

static int take_deps(void *ctx, struct an_item *it, const char **why)
{
	return an_deps_take(ctx, it, why);
}

static const struct an_typed *typed_deps(void *ctx, size_t *n)
{
	struct an_deps *d = ctx;

	return an_typed_take(&d->out.typed, n);
}

static void typed_only_deps(void *ctx)
{
	struct an_deps *d = ctx;

	d->out.typed.only = true;
}

static int finish_deps(void *ctx, const char **why)
{
	return an_deps_finish(ctx, why);
}

static size_t odd_deps(const void *ctx, struct an_count *out)
{
	struct an_deps_stats st = an_deps_stats(ctx);
	const struct an_gpu_deps_stats *g = &st.gpu;
	const struct an_count odd[] = {
		{ st.unmatched_sends, "sends never received" },
		{ st.unmatched_recvs, "receives without a send" },
		{ st.clock, "receives that completed before their send began (clock skew)" },
		{ st.open_instances, "collective instances missing a member" },
		{ st.coll_alone, "collectives in no instance (no communicator, or not a member)" },
		{ st.mixed, "collective instances whose members ran different operations or named different roots" },
		{ st.unposted, "nonblocking collectives completed without their post" },
		{ st.unbalanced, "enters and leaves that do not pair" },
		{ g->no_launch, "GPU activities no launch or copy call was found for" },
		{ g->never_ran, "launches or copies whose GPU activity never came" },
		{ g->unwaited, "GPU activities a stream synchronization naming no stream did not wait for "
			       "(they ended after the call returned): not linked to it" },
		{ g->unresolved, "GPU synchronizations whose work never ended" },
		{ g->unrecorded, "waits on CUDA events never recorded" },
		{ g->late, "GPU activities that came before the call that enqueued them (host and device clocks differ)" },
		{ g->late_events, "event synchronizations read before the event's record (out-of-order records)" },
		{ g->untold, "GPU calls the trace gives without the CUDA event or stream they act on (the "
			     "recording does not say): not linked" },
		{ g->stray, "GPU calls naming a stream that is not a GPU stream of their process: not linked" },
		{ g->order, "GPU dependencies that ended after their work began (clock skew)" },
		{ st.omp.outside, "OpenMP team events or barriers outside a known team" },
		{ st.omp.open, "OpenMP barriers some team thread never left" },
		{ st.omp.lock_ids, "lock events without a lock id below 2^40, left out" },
		{ st.omp.lock_early, "lock acquires stamped before the release they waited for (the OpenMP runtime "
				     "calls back after the fact): linked to it all the same" },
	};

	memcpy(out, odd, sizeof(odd));
	return sizeof(odd) / sizeof(odd[0]);
}

static void held_deps(const void *ctx, char *what, size_t n)
{
	struct an_deps_stats st = an_deps_stats(ctx);

	snprintf(what, n, "%" PRIu64 " sends and %" PRIu64 " receives waiting for their other "
		 "side, %" PRIu64 " collective instances open (a process that never received?)",
		 st.unmatched_sends, st.unmatched_recvs, st.open_instances);
}

static void close_deps(void *ctx)
{
	an_deps_free(ctx);
}

static const enum ls_kind deps_replaces[] = { LS_K_EDGE, LS_K_INSTANCE, 0 };

const struct an_stage an_stage_deps = {
	.tool = "tr-deps", .replaces = deps_replaces, .reads = an_deps_reads, .open = open_deps,
	.take = take_deps, .typed = typed_deps, .typed_only = typed_only_deps, .finish = finish_deps,
	.odd = odd_deps, .held = held_deps, .close = close_deps,
};
