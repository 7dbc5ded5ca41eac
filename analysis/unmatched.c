/* Names a what-if asks for that no region matched, and the nearest names (unmatched.h). */
#include <stdlib.h>
#include <string.h>

#include "../libstream/error.h"
#include "unmatched.h"

/* Names longer than this are not measured against (a C++ template's): too far from a typo anyway. */
#define LONGEST 256

int an_unmatched_init(struct an_unmatched *u, uint32_t n)
{
	u->n = n;
	u->v = n ? calloc(n, sizeof(*u->v)) : NULL;
	return n && !u->v ? LS_ERR_NOMEM : 0;
}

/* Edits (insert, delete, replace one byte) from a[0..na) to b[0..nb), both at most LONGEST. */
static size_t distance(const char *a, size_t na, const char *b, size_t nb)
{
	size_t row[LONGEST + 1];

	for (size_t j = 0; j <= nb; j++)
		row[j] = j;
	for (size_t i = 1; i <= na; i++) {
		size_t diag = row[0];

		row[0] = i;
		for (size_t j = 1; j <= nb; j++) {
			size_t up = row[j], best = diag + (a[i - 1] != b[j - 1]);

			if (up + 1 < best)
				best = up + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = up;
			row[j] = best;
		}
	}
	return row[nb];
}

int an_unmatched_see(struct an_unmatched *u, uint32_t k, bool hit, const char *name, size_t n)
{
	struct an_unmatched_name *x = &u->v[k];
	size_t na = strlen(x->asked), d;
	char *copy;

	if (hit)
		x->hit = true;
	if (x->hit || na > LONGEST || n > LONGEST)
		return 0;
	d = distance(x->asked, na, name, n);
	if (x->nearest && d >= x->dist)
		return 0;
	if (!(copy = strndup(name, n)))
		return LS_ERR_NOMEM;
	free(x->nearest);
	x->nearest = copy;
	x->dist = d;
	return 0;
}

const struct an_unmatched_name *an_unmatched_first(const struct an_unmatched *u, uint32_t *k)
{
	for (uint32_t i = 0; i < u->n; i++)
		if (!u->v[i].hit) {
			*k = i;
			return &u->v[i];
		}
	return NULL;
}

void an_unmatched_release(struct an_unmatched *u)
{
	for (uint32_t i = 0; i < u->n; i++)
		free(u->v[i].nearest);
	free(u->v);
	*u = (struct an_unmatched){ 0 };
}
