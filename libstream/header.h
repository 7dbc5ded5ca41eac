/*
 * The ends of a stream: the header, with the list of the tools that made
 * the stream ("stages"), and the trailer that says the stream is whole.
 */
#ifndef LS_HEADER_H
#define LS_HEADER_H

#include <stdbool.h>
#include <stddef.h>

#include "record.h"
#include "writer.h"

/* A tool as the header's stages name it: what it is and how it was run. */
struct ls_stage {
	const char *tool, *version;
	int argc;
	char *const *argv;	/* its arguments, the tool's own name not among them */
};

/*
 * Write a fresh header: this version, producer, source if not NULL, and
 * self as the only stage (no stages where self is NULL: a tool that does
 * not analyse). Returns what ls_build_end returns.
 */
int ls_write_header(struct ls_writer *w, const char *producer, const char *source,
		    const struct ls_stage *self);

/*
 * ls_write_header with the trace's own length in ns from t = 0 (its
 * clock's, where the trace says: records no tool keeps may lie past the
 * last event), 0 for none.
 */
int ls_write_header_length(struct ls_writer *w, const char *producer, const char *source,
			   const struct ls_stage *self, uint64_t length);

/*
 * Write the header in (a header record) on, with self added to its
 * stages and its minor version raised to this one's if lower; every other
 * field as it was, in place. Returns what ls_build_end returns.
 */
int ls_write_header_from(struct ls_writer *w, const struct ls_record *in,
			 const struct ls_stage *self);

/* Write the trailer, the record every whole stream ends with. */
int ls_write_trailer(struct ls_writer *w);

/*
 * Is the header's "stages" a list of stages (maps with a string "tool"
 * and "version", "args" a list of strings if there)? Returns 0 (also
 * where there is none), or LS_ERR_SYNTAX with *why set.
 */
int ls_header_check_stages(const struct ls_record *header, const char **why);

/*
 * Does the header's list of stages name tool? 1 or 0; -1 where the header
 * lists no stages (a stream of version 1.0, or written by hand): unknown.
 */
int ls_header_has_stage(const struct ls_record *header, const char *tool);

/*
 * The tools of the header's stages, in order, as "tr-read | tr-deps" in
 * out[0..n) (cut to fit; "" where it lists none).
 */
void ls_header_tools(const struct ls_record *header, char *out, size_t n);

/* Must a stream that begins with this header end with a trailer (1.1 and later)? */
bool ls_header_wants_trailer(const struct ls_record *header);

#endif
