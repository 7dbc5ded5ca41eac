/*
 * The process and stream definitions the readers of named processes and
 * streams write (tr-record's logs, Kineto, Nsight), each stream declared
 * to the front as it is written.
 */
#ifndef FORMATS_DEFS_H
#define FORMATS_DEFS_H

#include <stdbool.h>
#include <stdint.h>

#include "../libstream/front.h"
#include "../libstream/writer.h"

/* A stream to define: a host thread, or a GPU stream (gpu). */
struct fmt_stream {
	uint64_t id, process;
	const char *name;
	bool gpu, null;			/* null: the device's legacy default stream */
	int64_t device, native;		/* -1: not given */
};

/* Write a process (rank -1: none). Returns what ls_build_end returns. */
int fmt_write_process(struct ls_writer *w, uint64_t id, const char *name, int64_t rank);

/* Declare s to front and write it. Returns 0 or a negative error. */
int fmt_write_stream(struct ls_front *front, struct ls_writer *w, const struct fmt_stream *s);

#endif
