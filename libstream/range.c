/* Sets of ids as ranges: parsing and membership. */
#include <errno.h>
#include <stdlib.h>

#include "error.h"
#include "range.h"

static int number(const char **p, uint64_t *v)
{
	char *end;

	if (**p < '0' || **p > '9')
		return LS_ERR_SYNTAX;
	errno = 0;
	*v = strtoull(*p, &end, 10);
	if (errno)
		return LS_ERR_SYNTAX;
	*p = end;
	return 0;
}

int ls_ranges_parse(struct ls_ranges *set, const char *spec)
{
	const char *p = spec;

	for (;;) {
		struct ls_range r;
		struct ls_range *grown;

		if (number(&p, &r.lo) < 0)
			return LS_ERR_SYNTAX;
		r.hi = r.lo;
		if (*p == '-') {
			p++;
			if (*p == ',' || *p == '\0')
				r.hi = UINT64_MAX;
			else if (number(&p, &r.hi) < 0 || r.hi < r.lo)
				return LS_ERR_SYNTAX;
		}
		grown = realloc(set->r, (set->n + 1) * sizeof(*grown));
		if (!grown)
			return LS_ERR_NOMEM;
		set->r = grown;
		set->r[set->n++] = r;
		if (*p == '\0')
			return 0;
		if (*p++ != ',')
			return LS_ERR_SYNTAX;
	}
}

bool ls_ranges_has(const struct ls_ranges *set, uint64_t v)
{
	if (set->n == 0)
		return true;
	for (size_t i = 0; i < set->n; i++)
		if (v >= set->r[i].lo && v <= set->r[i].hi)
			return true;
	return false;
}

void ls_ranges_release(struct ls_ranges *set)
{
	free(set->r);
	set->r = NULL;
	set->n = 0;
}
