/* Sets of ids as sorted runs of consecutive ids. */
#include <stdlib.h>
#include <string.h>

#include "error.h"
#include "idset.h"

/* The last run that starts at or before id (n > 0, run[0].lo <= id). */
static size_t run_before(const struct ls_idset *set, uint64_t id)
{
	size_t lo = 0, hi = set->n - 1;

	while (lo < hi) {
		size_t mid = lo + (hi - lo + 1) / 2;

		if (set->run[mid].lo <= id)
			lo = mid;
		else
			hi = mid - 1;
	}
	return lo;
}

/* A new run {id, id} at index i. */
static int insert(struct ls_idset *set, size_t i, uint64_t id)
{
	if (set->n == set->cap) {
		size_t cap = set->cap ? 2 * set->cap : 16;
		struct ls_idrun *run = realloc(set->run, cap * sizeof(*run));

		if (!run)
			return LS_ERR_NOMEM;
		set->run = run;
		set->cap = cap;
	}
	memmove(set->run + i + 1, set->run + i, (set->n - i) * sizeof(*set->run));
	set->run[i] = (struct ls_idrun){ id, id };
	set->n++;
	return 1;
}

int ls_idset_add(struct ls_idset *set, uint64_t id)
{
	struct ls_idrun *r;
	size_t i;

	if (set->n == 0)
		return insert(set, 0, id);
	r = &set->run[set->n - 1];
	if (id > r->hi) {	/* after every run: the ids of a stream, mostly */
		if (id - r->hi > 1)
			return insert(set, set->n, id);
		r->hi = id;
		return 1;
	}
	if (id < set->run[0].lo) {
		if (set->run[0].lo - id > 1)
			return insert(set, 0, id);
		set->run[0].lo = id;
		return 1;
	}
	i = run_before(set, id);
	r = &set->run[i];
	if (id <= r->hi)
		return 0;
	/* between run i and run i + 1 (there is one: id < the last run's lo) */
	if (id == r->hi + 1 && id + 1 == r[1].lo) {
		r->hi = r[1].hi;
		memmove(r + 1, r + 2, (set->n - i - 2) * sizeof(*r));
		set->n--;
	} else if (id == r->hi + 1) {
		r->hi = id;
	} else if (id + 1 == r[1].lo) {
		r[1].lo = id;
	} else {
		return insert(set, i + 1, id);
	}
	return 1;
}

bool ls_idset_has(const struct ls_idset *set, uint64_t id)
{
	size_t i;

	if (set->n == 0 || id < set->run[0].lo)
		return false;
	i = run_before(set, id);
	return id <= set->run[i].hi;
}

void ls_idset_clear(struct ls_idset *set)
{
	set->n = 0;
}

void ls_idset_release(struct ls_idset *set)
{
	free(set->run);
	memset(set, 0, sizeof(*set));
}
