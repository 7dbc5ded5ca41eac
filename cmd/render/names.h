/*
 * The definitions a picture of a stream names things by: processes,
 * streams and regions by their ids, with their names (and a stream's
 * process and type, a region's role), in the order of definition.
 */
#ifndef NAMES_H
#define NAMES_H

#include <stdbool.h>
#include <stdint.h>

#include "../../libstream/idmap.h"
#include "../../libstream/record.h"

struct named {
	uint64_t id;
	char *name;		/* NULL: none given */
	uint64_t process;	/* streams: their process */
	char role[24];		/* regions: their role */
	bool metric;		/* streams: a metric's, no activities */
};

struct names {
	struct named *v;
	uint32_t n, cap;
	struct ls_idmap ix;
};

/* Keep the definition rec (process, stream or region; one id once): 0 or LS_ERR_NOMEM. */
int names_keep(struct names *m, const struct ls_record *rec);

/* The definition of id, or NULL. */
const struct named *names_get(const struct names *m, uint64_t id);

/* Its index (order of definition), or UINT32_MAX. */
uint32_t names_index(const struct names *m, uint64_t id);

void names_release(struct names *m);

#endif
