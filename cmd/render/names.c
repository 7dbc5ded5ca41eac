/* Definitions by id, named, for the pictures of a stream. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../libstream/error.h"
#include "../../libstream/vec.h"
#include "names.h"

int names_keep(struct names *m, const struct ls_record *rec)
{
	struct named *d;
	const char *s;
	uint32_t n;
	uint64_t id;

	if (ls_get_u64(rec, LS_F_ID, &id) < 0 || names_get(m, id))
		return 0;	/* tr-cat --check says what is wrong with it */
	if (ls_vec_room(&m->v, &m->cap, m->n, sizeof(*m->v)) < 0)
		return LS_ERR_NOMEM;
	d = &m->v[m->n];
	memset(d, 0, sizeof(*d));
	d->id = id;
	if (ls_get_str(rec, LS_F_NAME, &s, &n) == 0 && !(d->name = strndup(s, n)))
		return LS_ERR_NOMEM;
	ls_get_u64(rec, LS_F_PROCESS, &d->process);
	if (ls_get_str(rec, LS_F_ROLE, &s, &n) == 0)
		snprintf(d->role, sizeof(d->role), "%.*s", (int)n, s);
	d->metric = ls_get_str(rec, LS_F_TYPE, &s, &n) == 0 && n == 6 && memcmp(s, "metric", 6) == 0;
	if (ls_idmap_put(&m->ix, id, m->n) < 0)
		return LS_ERR_NOMEM;
	m->n++;
	return 0;
}

uint32_t names_index(const struct names *m, uint64_t id)
{
	uint32_t i;

	return ls_idmap_get(&m->ix, id, &i) ? i : UINT32_MAX;
}

const struct named *names_get(const struct names *m, uint64_t id)
{
	uint32_t i = names_index(m, id);

	return i == UINT32_MAX ? NULL : &m->v[i];
}

void names_release(struct names *m)
{
	for (uint32_t i = 0; i < m->n; i++)
		free(m->v[i].name);
	free(m->v);
	ls_idmap_release(&m->ix);
}
