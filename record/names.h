/*
 * Names in the log (kernels, API functions, NVTX ranges): each written
 * once as a TRLOG_NAME record, then given by its number.
 */
#ifndef REC_NAMES_H
#define REC_NAMES_H

#include <stdint.h>

#include "../libstream/buf.h"

/*
 * The number of name (NULL: "?"), written into b first where it is new.
 * Call between rec_begin and rec_end, before the record that uses it.
 */
int64_t rec_name(struct ls_buf *b, const char *name);

#endif
