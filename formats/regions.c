/* The regions a reader makes by name (regions.h). */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../libstream/error.h"
#include "../libstream/roles.h"
#include "../libstream/vec.h"
#include "regions.h"

static uint64_t hash(const char *name, const char *paradigm)
{
	uint64_t h = 14695981039346656037u;

	for (const char *s = paradigm; *s; s++)
		h = (h ^ (uint8_t)*s) * 1099511628211u;
	h = (h ^ 0xff) * 1099511628211u;
	for (const char *s = name; *s; s++)
		h = (h ^ (uint8_t)*s) * 1099511628211u;
	return h;
}

static bool same(const struct fmt_region *r, const char *name, const char *paradigm)
{
	return !strcmp(r->name, name) && !strcmp(r->paradigm, paradigm);
}

bool fmt_region_find(const struct fmt_regions *t, const char *name, const char *paradigm, uint32_t *id)
{
	uint32_t i;

	if (!ls_idmap_get(&t->ix, hash(name, paradigm), &i))
		return false;
	if (same(&t->v[i], name, paradigm)) {
		*id = i;
		return true;
	}
	for (i = 0; i < t->n; i++)	/* two names of one hash */
		if (same(&t->v[i], name, paradigm)) {
			*id = i;
			return true;
		}
	return false;
}

int fmt_region(struct fmt_regions *t, const char *name, enum ls_role role, const char *paradigm, const char *dir,
	       uint32_t *id)
{
	uint64_t key = hash(name, paradigm);
	uint32_t i;
	int rc;

	if (fmt_region_find(t, name, paradigm, id))
		return 0;
	if ((rc = ls_vec_room(&t->v, &t->cap, t->n, sizeof(*t->v))) < 0)
		return rc;
	if (!(t->v[t->n].name = strdup(name)))
		return LS_ERR_NOMEM;
	t->v[t->n].role = role;
	t->v[t->n].paradigm = paradigm;
	t->v[t->n].dir = dir;
	if (!ls_idmap_get(&t->ix, key, &i) && (rc = ls_idmap_put(&t->ix, key, t->n)) < 0) {
		free(t->v[t->n].name);
		return rc;
	}
	*id = t->n++;
	return 0;
}

int fmt_region_without_work(struct fmt_regions *t, uint32_t region, uint32_t *out)
{
	enum ls_role r = t->v[region].role;
	char buf[512];

	*out = region;
	if (r != LS_R_LAUNCH && r != LS_R_MEMCPY && r != LS_R_MEMCPY_ASYNC && r != LS_R_MEMSET && r != LS_R_MEMSET_ASYNC)
		return 0;
	snprintf(buf, sizeof(buf), LS_NO_GPU_WORK_PREFIX "%s", t->v[region].name);
	return fmt_region(t, buf, LS_R_GPU_API, "cuda", NULL, out);
}

int fmt_regions_write(const struct fmt_regions *t, struct ls_front *front, struct ls_writer *w)
{
	int rc = 0;

	for (uint32_t i = 0; i < t->n && rc == 0; i++) {
		const struct fmt_region *r = &t->v[i];

		if ((rc = ls_front_region(front, i, r->role)) < 0)
			break;
		ls_build_begin(w, 5 + (r->dir != NULL));
		ls_put_str(w, LS_F_K, "region");
		ls_put_u64(w, LS_F_ID, i);
		ls_put_str(w, LS_F_NAME, r->name);
		ls_put_str(w, LS_F_ROLE, ls_role_name(r->role));
		ls_put_str(w, LS_F_PARADIGM, r->paradigm);
		if (r->dir)
			ls_put_str(w, LS_F_DIR, r->dir);
		rc = ls_build_end(w);
	}
	return rc;
}

void fmt_regions_release(struct fmt_regions *t)
{
	for (uint32_t i = 0; i < t->n; i++)
		free(t->v[i].name);
	free(t->v);
	ls_idmap_release(&t->ix);
	memset(t, 0, sizeof(*t));
}
