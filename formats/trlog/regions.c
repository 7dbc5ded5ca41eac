/*
 * The regions of the stream a run's logs make, by name and paradigm, each
 * once: the programs' own, the MPI functions called, the CUDA calls,
 * kernels, copies and sets, the NVTX ranges. Found in the first pass,
 * written with the definitions.
 */
#include <stdlib.h>
#include <string.h>

#include "../../libstream/error.h"
#include "../../libstream/vec.h"
#include "trlogin_private.h"

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

static bool same(const struct region *r, const char *name, const char *paradigm)
{
	return !strcmp(r->name, name) && !strcmp(r->paradigm, paradigm);
}

int trlog_region(struct trlogin *in, const char *name, enum ls_role role, const char *paradigm, const char *dir,
		 uint32_t *id)
{
	uint64_t key = hash(name, paradigm);
	uint32_t i;
	int rc;

	if (ls_idmap_get(&in->region_ix, key, &i)) {
		if (same(&in->regions[i], name, paradigm)) {
			*id = i;
			return 0;
		}
		for (i = 0; i < in->nregions; i++)	/* two names of one hash */
			if (same(&in->regions[i], name, paradigm)) {
				*id = i;
				return 0;
			}
	}
	if ((rc = ls_vec_room(&in->regions, &in->regions_cap, in->nregions, sizeof(*in->regions))) < 0)
		return rc;
	if (!(in->regions[in->nregions].name = strdup(name)))
		return LS_ERR_NOMEM;
	in->regions[in->nregions].role = role;
	in->regions[in->nregions].paradigm = paradigm;
	in->regions[in->nregions].dir = dir;
	if (!ls_idmap_get(&in->region_ix, key, &i) && (rc = ls_idmap_put(&in->region_ix, key, in->nregions)) < 0)
		return rc;
	*id = in->nregions++;
	return 0;
}

int trlog_write_regions(struct trlogin *in)
{
	int rc = 0;

	for (uint32_t i = 0; i < in->nregions && rc == 0; i++) {
		const struct region *r = &in->regions[i];

		if ((rc = ls_front_region(in->front, i, r->role)) < 0)
			break;
		ls_build_begin(in->w, 5 + (r->dir != NULL));
		ls_put_str(in->w, LS_F_K, "region");
		ls_put_u64(in->w, LS_F_ID, i);
		ls_put_str(in->w, LS_F_NAME, r->name);
		ls_put_str(in->w, LS_F_ROLE, ls_role_name(r->role));
		ls_put_str(in->w, LS_F_PARADIGM, r->paradigm);
		if (r->dir)
			ls_put_str(in->w, LS_F_DIR, r->dir);
		rc = ls_build_end(in->w);
	}
	return rc;
}

void trlog_regions_release(struct trlogin *in)
{
	for (uint32_t i = 0; i < in->nregions; i++)
		free(in->regions[i].name);
	free(in->regions);
	ls_idmap_release(&in->region_ix);
}
