/* Who waited for whom, and where the path ran (waiters.h). */
#include <stdlib.h>
#include <string.h>

#include "../libstream/defs.h"
#include "../libstream/error.h"
#include "../libstream/vec.h"
#include "waiters.h"

void an_waiters_init(struct an_waiters *w)
{
	memset(w, 0, sizeof(*w));
}

void an_waiters_wait(struct an_waiters *w, uint64_t at, uint32_t region, uint32_t proc)
{
	w->at = at;
	w->at_region = region;
	w->at_proc = proc;
	w->any = true;
}

static uint32_t hash(const struct an_fact *x)
{
	uint64_t h = ((uint64_t)x->region << 32 | x->pattern) * 0x9e3779b97f4a7c15u;

	h ^= ((uint64_t)x->by_region << 32 | x->by_proc) * 0xc2b2ae3d27d4eb4fu;
	return (uint32_t)(h >> 32 ^ h);
}

static bool same(const struct an_fact *a, const struct an_fact *b)
{
	return a->region == b->region && a->pattern == b->pattern && a->by_region == b->by_region &&
	       a->by_proc == b->by_proc;
}

/* Twice the slots: 0 or LS_ERR_NOMEM. */
static int grow(struct an_facts *f)
{
	uint32_t size = f->mask ? 2 * (f->mask + 1) : 64;
	uint32_t *slot = calloc(size, sizeof(*slot));

	if (!slot)
		return LS_ERR_NOMEM;
	for (uint32_t i = 0; i < f->n; i++) {
		uint32_t h = hash(&f->v[i]) & (size - 1);

		while (slot[h])
			h = (h + 1) & (size - 1);
		slot[h] = i + 1;
	}
	free(f->slot);
	f->slot = slot;
	f->mask = size - 1;
	return 0;
}

/* Add x's time to its key's fact: 0 or LS_ERR_NOMEM. */
static int add(struct an_facts *f, const struct an_fact *x)
{
	uint32_t h;

	if ((f->n + 1) * 2 > f->mask && grow(f) < 0)
		return LS_ERR_NOMEM;
	for (h = hash(x) & f->mask; f->slot[h]; h = (h + 1) & f->mask)
		if (same(&f->v[f->slot[h] - 1], x)) {
			f->v[f->slot[h] - 1].ns += x->ns;
			return 0;
		}
	if (ls_vec_room(&f->v, &f->cap, f->n, sizeof(*f->v)) < 0)
		return LS_ERR_NOMEM;
	f->v[f->n] = *x;
	f->slot[h] = ++f->n;
	return 0;
}

int an_waiters_blame(struct an_waiters *w, uint32_t region, uint32_t pattern, uint64_t wait,
		     uint64_t ns)
{
	bool known = w->any && w->at == wait;
	struct an_fact x = { region, pattern, known ? w->at_region : LS_NONE,
			     known ? w->at_proc : LS_NONE, ns };

	return add(&w->blame, &x);
}

int an_waiters_path(struct an_waiters *w, uint32_t region, uint32_t stream, uint64_t ns)
{
	struct an_fact x = { region, stream, LS_NONE, LS_NONE, ns };

	return add(&w->path, &x);
}

static int larger(const void *a, const void *b)
{
	const struct an_fact *x = a, *y = b;
	const uint32_t kx[] = { x->pattern, x->by_region, x->by_proc },
		       ky[] = { y->pattern, y->by_region, y->by_proc };

	if (x->ns != y->ns)
		return x->ns > y->ns ? -1 : 1;
	for (int i = 0; i < 3; i++)
		if (kx[i] != ky[i])
			return kx[i] < ky[i] ? -1 : 1;
	return 0;
}

int an_facts_of(const struct an_facts *f, uint32_t region, struct an_fact **out, uint32_t *n)
{
	struct an_fact *v = malloc(((size_t)f->n + 1) * sizeof(*v));

	if (!v)
		return LS_ERR_NOMEM;
	*n = 0;
	for (uint32_t i = 0; i < f->n; i++)
		if (f->v[i].region == region && f->v[i].ns)
			v[(*n)++] = f->v[i];
	qsort(v, *n, sizeof(*v), larger);
	*out = v;
	return 0;
}

static void facts_release(struct an_facts *f)
{
	free(f->v);
	free(f->slot);
}

void an_waiters_release(struct an_waiters *w)
{
	facts_release(&w->blame);
	facts_release(&w->path);
	an_waiters_init(w);
}
