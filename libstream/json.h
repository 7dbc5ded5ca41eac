/*
 * The NDJSON form of records: one JSON object per line, converted to and
 * from the msgpack form so that every other part of libstream sees msgpack.
 */
#ifndef LS_JSON_H
#define LS_JSON_H

#include <stddef.h>
#include <stdint.h>

#include "buf.h"

struct ls_json_token;

/* Parser state, reused from line to line so that parsing does not allocate. */
struct ls_json {
	struct ls_json_token *tok;
	size_t ntok;
	size_t cap;
	struct ls_buf scratch;
};

#define LS_JSON_INIT { NULL, 0, 0, LS_BUF_INIT }

/*
 * Parse the JSON text s[0..n) (one value, white space around it allowed)
 * and append its canonical msgpack form to out. Returns 0; LS_ERR_SYNTAX
 * with *why a static description and *where the byte offset in s; or
 * LS_ERR_NOMEM.
 */
int ls_json_parse(struct ls_json *js, const char *s, size_t n,
		  struct ls_buf *out, const char **why, size_t *where);

void ls_json_release(struct ls_json *js);

/*
 * Append the JSON text of the msgpack value at p (without newline) to out.
 * Returns 0; LS_ERR_JSON for a value JSON cannot hold (binary, ext, a map
 * key that is not a string, a NaN or infinite float); LS_ERR_SYNTAX for
 * invalid msgpack; or LS_ERR_NOMEM.
 */
int ls_json_print(const uint8_t *p, const uint8_t *end, struct ls_buf *out);

#endif
