/*
 * A parsed record kept small: the fields ls_record_parse located, as a
 * list of (field, key offset, value offset) instead of the whole index.
 * tr-analyze hands records from stage to stage this way, so that a
 * record is parsed once however many stages take it.
 */
#ifndef LS_PACKED_H
#define LS_PACKED_H

#include <stdbool.h>
#include <stdint.h>

#include "record.h"

struct ls_packed_field {
	uint32_t key, off;	/* as rec->key[f], rec->off[f] */
	uint32_t f;		/* enum ls_field */
};

/* What of a record is not its fields: with them, the whole of ls_record. */
struct ls_packed {
	uint32_t len, nfields;
	uint32_t kind_off, kind_len;	/* the kind's string, in raw */
	uint32_t kind;			/* enum ls_kind */
	uint32_t nloc;			/* fields located */
};

/* Pack rec's located fields into out (room for LS_F__COUNT) and the rest into *p. */
void ls_record_pack(const struct ls_record *rec, struct ls_packed *p, struct ls_packed_field *out);

/*
 * The record at raw again, as ls_record_parse made it; skim: as it makes
 * a record whose kind it skims (only "k" located).
 */
void ls_record_unpack(struct ls_record *rec, const uint8_t *raw, const struct ls_packed *p,
		      const struct ls_packed_field *f, bool skim);

#endif
