/* Sets of ids given on the command line as ranges: "0-3,7,10-". */
#ifndef LS_RANGE_H
#define LS_RANGE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct ls_range {
	uint64_t lo, hi;	/* inclusive */
};

struct ls_ranges {
	struct ls_range *r;
	size_t n;
};

#define LS_RANGES_INIT { NULL, 0 }

/*
 * Parse spec ("A", "A-B", "A-" for A and up, comma-separated). Returns 0,
 * LS_ERR_SYNTAX (spec is not such a list, or a range runs backwards), or
 * LS_ERR_NOMEM. An empty set (no ranges) holds everything.
 */
int ls_ranges_parse(struct ls_ranges *set, const char *spec);
bool ls_ranges_has(const struct ls_ranges *set, uint64_t v);
void ls_ranges_release(struct ls_ranges *set);

#endif
