/* Resolving a chain of path events into pieces, sub-path by sub-path. */
#include <pthread.h>
#include <stdbool.h>
#include <stdlib.h>

#include "../libstream/error.h"
#include "pieces.h"
#include "roles.h"
#include "../libstream/vec.h"

struct job {
	struct an_pieces *p;
	const struct an_gnode *g;
	const struct an_cp_node *nodes;
	const uint32_t *chain;
	unsigned first, step;	/* its sub-paths: first, first + step, ... */
};

/* Add a piece to out[*n], joining it to the one before where it goes on. */
static void add(struct an_piece *out, uint32_t *n, struct an_piece pc)
{
	if (*n && an_piece_goes_on(&out[*n - 1], &pc)) {
		out[*n - 1].dur += pc.dur;
		return;
	}
	out[(*n)++] = pc;
}

/* When node a's activity ended: INT64_MAX where that is not known. */
static int64_t activity_end(const struct an_gnode *g, const struct an_cp_node *nodes,
			    uint32_t a)
{
	uint32_t e = nodes[a].own_enter, leave = e == LS_NONE ? LS_NONE : nodes[e].leave;

	return leave == LS_NONE ? INT64_MAX : g[leave].t;
}

/*
 * The transit pc from node a to node b across an edge: the source's
 * activity until it ended, where it carries the transit, then the
 * activity open on b's stream before b (the team start, after a fork, where
 * none was). Returns the second part's piece (dur 0: none).
 */
static struct an_piece transit(const struct an_pieces *p, const struct an_gnode *g,
			       const struct an_cp_node *nodes, uint32_t a, uint32_t b, struct an_piece *pc,
			       bool *carried)
{
	int64_t end = activity_end(g, nodes, a), split;
	const struct an_cp_node *before = g[b].prev == LS_NONE ? NULL : &nodes[g[b].prev];
	struct an_piece rest = { 0, 0, before ? before->after : 0, g[b].s,
				 before ? before->after_r : LS_NONE };

	if (rest.r == LS_NONE && nodes[b].pb == AN_FORKED && p->team_region != LS_NONE) {
		rest.act = AN_NO_ACT;
		rest.r = p->team_region;
	}
	*carried = nodes[a].own_r != LS_NONE && an_role_carries((enum ls_role)p->roles[nodes[a].own_r]);
	if (!*carried)
		end = pc->t;	/* it does nothing for the transit */
	pc->act = nodes[a].own;
	pc->r = nodes[a].own_r;
	if (!pc->dur || end >= pc->t + (int64_t)pc->dur)
		return rest;
	split = end > pc->t ? end : pc->t;
	rest.t = split;
	rest.dur = (uint64_t)(pc->t + (int64_t)pc->dur - split);
	pc->dur = (uint64_t)(split - pc->t);
	return rest;
}

/* Sub-path k: steps chain[i] -> chain[i+1] for i in sub[k] .. sub[k+1]-1. */
static void resolve_sub(struct an_pieces *p, const struct an_gnode *g,
			const struct an_cp_node *nodes, const uint32_t *chain, uint32_t k)
{
	struct an_piece *out = p->v + 2 * (size_t)p->sub[k];
	int64_t clock = p->from[k];
	uint32_t n = 0, over = 0;
	uint64_t team = 0;

	for (uint32_t i = p->sub[k]; i < p->sub[k + 1]; i++) {
		uint32_t a = chain[i], b = chain[i + 1];
		struct an_piece pc = { clock, 0, nodes[a].after, g[a].s, nodes[a].after_r },
				rest = { 0 };
		bool carried = false;

		if (g[b].t > clock) {
			pc.dur = (uint64_t)(g[b].t - clock);
			clock = g[b].t;
		}
		if (g[a].s != g[b].s)	/* across an edge */
			rest = transit(p, g, nodes, a, b, &pc, &carried);
		if (pc.dur) {
			add(out, &n, pc);
			team += pc.act == AN_NO_ACT ? pc.dur : 0;	/* a master's own team start */
		}
		if (rest.dur) {
			add(out, &n, rest);
			over += carried;
			team += rest.act == AN_NO_ACT ? rest.dur : 0;
		}
	}
	p->count[k] = n;
	p->over[k] = over;
	p->team[k] = team;
}

static void *run(void *arg)
{
	struct job *j = arg;

	for (uint32_t k = j->first; k < j->p->nsub; k += j->step)
		resolve_sub(j->p, j->g, j->nodes, j->chain, k);
	return NULL;
}

/*
 * Cut the n - 1 steps of chain into sub-paths where the process changes,
 * with the time each goes on from; count the steps back in time.
 */
static int cut(struct an_pieces *p, const struct an_gnode *g,
	       const uint32_t *chain, uint32_t n, const struct ls_stream *streams)
{
	p->nsub = 0;
	if (n && g[chain[0]].t > p->clock)
		p->clock = g[chain[0]].t;
	for (uint32_t i = 0; i + 1 < n; i++) {
		bool starts = i == 0 || streams[g[chain[i - 1]].s].process !=
					streams[g[chain[i]].s].process;
		int64_t t = g[chain[i + 1]].t;

		if (starts) {
			if (ls_vec_room(&p->sub, &p->sub_cap, p->nsub + 1, sizeof(*p->sub)) < 0 ||
			    ls_vec_room(&p->from, &p->from_cap, p->nsub, sizeof(*p->from)) < 0 ||
			    ls_vec_room(&p->count, &p->count_cap, p->nsub, sizeof(*p->count)) < 0 ||
			    ls_vec_room(&p->over, &p->over_cap, p->nsub, sizeof(*p->over)) < 0 ||
			    ls_vec_room(&p->team, &p->team_cap, p->nsub, sizeof(*p->team)) < 0)
				return LS_ERR_NOMEM;
			p->from[p->nsub] = p->clock;
			p->sub[p->nsub++] = i;
		}
		if (t < p->clock)
			p->skew++;
		else
			p->clock = t;
	}
	if (p->nsub)
		p->sub[p->nsub] = n - 1;
	return 0;
}

int an_pieces_resolve(struct an_pieces *p, const struct an_gnode *g,
		      const struct an_cp_node *nodes, const uint32_t *chain, uint32_t n,
		      const struct ls_stream *streams, unsigned jobs)
{
	struct job job[64];
	pthread_t tid[64];
	bool started[64] = { false };

	if (n > 1 && ls_vec_room(&p->v, &p->v_cap, 2 * (n - 1) - 1, sizeof(*p->v)) < 0)
		return LS_ERR_NOMEM;
	if (cut(p, g, chain, n, streams) < 0)
		return LS_ERR_NOMEM;
	if (jobs > p->nsub)
		jobs = p->nsub;
	if (jobs > 64)
		jobs = 64;
	if (jobs == 0)
		jobs = 1;
	for (unsigned w = 0; w < jobs; w++)
		job[w] = (struct job){ p, g, nodes, chain, w, jobs };
	/* job 0 runs here, and so does any whose thread cannot start */
	for (unsigned w = 1; w < jobs; w++)
		started[w] = pthread_create(&tid[w], NULL, run, &job[w]) == 0;
	for (unsigned w = 0; w < jobs; w++) {
		if (started[w])
			pthread_join(tid[w], NULL);
		else
			run(&job[w]);
	}
	for (uint32_t k = 0; k < p->nsub; k++) {
		p->overrun += p->over[k];
		p->team_start += p->team[k];
	}
	return 0;
}

void an_pieces_release(struct an_pieces *p)
{
	free(p->v);
	free(p->sub);
	free(p->from);
	free(p->count);
	free(p->over);
	free(p->team);
	*p = (struct an_pieces){ 0 };
}
