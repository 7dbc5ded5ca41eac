/*
 * Validating a stream against docs/stream.md, record by record: kinds,
 * required fields and their types, vocabularies, definitions before use,
 * unique ids, time order.
 */
#ifndef LS_CHECK_H
#define LS_CHECK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "idset.h"
#include "record.h"

struct ls_checker {
	struct ls_idset ids[LS_REF_EVENT + 1];	/* defined, by namespace */
	struct ls_idset items;	/* the items of the array field being checked */
	uint64_t records;
	bool have_last;
	int64_t last_t;
	uint64_t last_s;
};

void ls_checker_init(struct ls_checker *c);

/*
 * Check the next record of the stream. Returns 0, or LS_ERR_SYNTAX with a
 * one-line description (no position; the caller knows it) in msg[0..n),
 * or LS_ERR_NOMEM.
 */
int ls_check(struct ls_checker *c, const struct ls_record *rec, char *msg,
	     size_t n);

/*
 * Check rec's fields alone against its kind: the required ones present,
 * every one of its type and vocabulary, a list of ids naming each once;
 * nothing looked up. Returns 0, LS_ERR_SYNTAX with a one-line description
 * in msg[0..n), or LS_ERR_NOMEM.
 */
int ls_check_fields(const struct ls_record *rec, char *msg, size_t n);

void ls_checker_release(struct ls_checker *c);

#endif
