/* Work beside the path: plain code on the path while another thread of the process drove the GPU. */
#include <stdlib.h>
#include <string.h>

#include "../libstream/error.h"
#include "../libstream/vec.h"
#include "sidework.h"

void an_sidework_init(struct an_sidework *w, const struct ls_defs *defs)
{
	memset(w, 0, sizeof(*w));
	w->defs = defs;
	w->passed = INT64_MIN;
}

/* Room for every stream defined so far, the new ones empty: 0, or LS_ERR_NOMEM. */
static int fit(struct an_sidework *w)
{
	uint32_t n = w->defs->nstreams;

	if (n <= w->nstreams)
		return 0;
	if (ls_vec_room(&w->st, &w->cap, n - 1, sizeof(*w->st)) < 0)
		return LS_ERR_NOMEM;
	for (uint32_t s = w->nstreams; s < n; s++)
		w->st[s] = (struct an_side){ 0 };
	w->nstreams = n;
	return 0;
}

/* Drop the calls of c before t: how many. */
static uint64_t drop_before(struct an_calls *c, int64_t t)
{
	uint64_t k = 0;

	while (c->n && c->t[c->head] < t) {
		c->head = (c->head + 1) % c->cap;
		c->n--;
		k++;
	}
	return k;
}

int an_sidework_call(struct an_sidework *w, uint32_t s, int64_t t)
{
	struct an_calls *c;

	/* a thread alone in its process has no other to work beside it */
	if (w->defs->procs[w->defs->streams[s].process].nhosts < 2)
		return 0;
	if (fit(w) < 0)
		return LS_ERR_NOMEM;
	c = &w->st[s].calls;
	drop_before(c, w->passed);
	if (c->n == c->cap) {
		uint32_t cap = c->cap ? 2 * c->cap : 64;
		int64_t *v = malloc((size_t)cap * sizeof(*v));

		if (!v)
			return LS_ERR_NOMEM;
		for (uint32_t k = 0; k < c->n; k++)
			v[k] = c->t[(c->head + k) % c->cap];
		free(c->t);
		c->t = v;
		c->head = 0;
		c->cap = cap;
	}
	c->t[(c->head + c->n) % c->cap] = t;
	c->n++;
	return 0;
}

void an_sidework_piece(struct an_sidework *w, const struct an_piece *pc)
{
	const struct ls_defs *d = w->defs;
	const struct ls_process *p;
	int64_t end = pc->t + (int64_t)pc->dur;
	uint64_t calls = 0;

	if (end > w->passed)
		w->passed = end;
	if (!pc->dur || pc->s >= w->nstreams || !d->streams[pc->s].host || pc->r == LS_NONE ||
	    ls_role_group((enum ls_role)d->roles[pc->r]) != LS_G_HOST)
		return;
	p = &d->procs[d->streams[pc->s].process];
	for (uint32_t k = 0; k < p->nhosts; k++) {
		uint32_t t = p->hosts[k];
		uint64_t n;

		if (t == pc->s || t >= w->nstreams)
			continue;
		drop_before(&w->st[t].calls, pc->t);
		n = drop_before(&w->st[t].calls, end);
		w->st[t].beside += n;
		calls += n;
	}
	if (calls)
		w->st[pc->s].ns += pc->dur;
}

int an_sidework_worst(const struct an_sidework *w, struct an_sidework_note *out)
{
	const struct ls_defs *d = w->defs;
	uint32_t s = LS_NONE;

	for (uint32_t k = 0; k < w->nstreams; k++)
		if (w->st[k].ns && (s == LS_NONE || w->st[k].ns > w->st[s].ns))
			s = k;
	if (s == LS_NONE)
		return 0;
	*out = (struct an_sidework_note){ s, LS_NONE, w->st[s].ns, 0 };
	/* the thread of its process that made the most calls beside the path */
	for (uint32_t k = 0; k < d->procs[d->streams[s].process].nhosts; k++) {
		uint32_t t = d->procs[d->streams[s].process].hosts[k];

		if (t != s && t < w->nstreams && w->st[t].beside > out->calls) {
			out->by = t;
			out->calls = w->st[t].beside;
		}
	}
	return out->by != LS_NONE;
}

void an_sidework_release(struct an_sidework *w)
{
	for (uint32_t s = 0; s < w->nstreams; s++)
		free(w->st[s].calls.t);
	free(w->st);
}
