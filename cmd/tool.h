/* What every tr-* command does alike: messages, output format, the end. */
#ifndef TOOL_H
#define TOOL_H

#include <stdbool.h>

#include "../libstream/reader.h"
#include "../libstream/writer.h"

/* Set the name messages start with. */
void tool_init(const char *name);

/* "NAME: message" on stderr. */
void tool_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/* Report a failed ls_read: "NAME: INPUT: position: what". */
void tool_read_error(const struct ls_reader *r);

/* -J, -M, or else NDJSON on a terminal and msgpack elsewhere. */
enum ls_format tool_output_format(bool json, bool msgpack);

/*
 * Flush w and close stdout, reporting a failure (a full disk is one).
 * Returns 0, or 1 after the message.
 */
int tool_finish(struct ls_writer *w);

/* Report a failed write to stdout (w->err) or conversion. Returns 1. */
int tool_write_error(const struct ls_reader *r, const struct ls_writer *w,
		     int rc);

#endif
