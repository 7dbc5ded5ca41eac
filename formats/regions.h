/*
 * The regions a reader makes by name, each once: a name with its
 * paradigm is one region, made where new with its role (and a copy's
 * direction), numbered densely in the order made, and written with the
 * definitions. The readers of formats whose regions are names met in the
 * events (tr-record's logs, Kineto, Nsight) share it.
 */
#ifndef FORMATS_REGIONS_H
#define FORMATS_REGIONS_H

#include <stdbool.h>
#include <stdint.h>

#include "../libstream/front.h"
#include "../libstream/idmap.h"
#include "../libstream/roles.h"
#include "../libstream/writer.h"

struct fmt_region {
	char *name;
	enum ls_role role;
	const char *paradigm, *dir;	/* static strings */
};

struct fmt_regions {
	struct fmt_region *v;
	uint32_t n, cap;
	struct ls_idmap ix;		/* hash of paradigm and name -> region */
};

/*
 * The region of name and paradigm into *id, made where new (with role and
 * dir, which may be NULL; paradigm and dir must outlive the table).
 * Returns 0 or LS_ERR_NOMEM.
 */
int fmt_region(struct fmt_regions *t, const char *name, enum ls_role role, const char *paradigm, const char *dir,
	       uint32_t *id);

/* The region of name and paradigm into *id: true, or false where there is none. */
bool fmt_region_find(const struct fmt_regions *t, const char *name, const char *paradigm, uint32_t *id);

/*
 * The region of a call of region that would enqueue GPU work (a launch,
 * copy or set) but none ran for it in the trace (a set of 0 bytes): the
 * API call "(no GPU activity in the trace) NAME", role gpu_api, made where
 * new, into *out; region itself where its role enqueues nothing. Returns 0
 * or LS_ERR_NOMEM.
 */
int fmt_region_without_work(struct fmt_regions *t, uint32_t region, uint32_t *out);

/* Write every region as a definition, each declared to front. Returns 0 or a negative error. */
int fmt_regions_write(const struct fmt_regions *t, struct ls_front *front, struct ls_writer *w);

void fmt_regions_release(struct fmt_regions *t);

#endif
