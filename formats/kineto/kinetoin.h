/*
 * Reading PyTorch profiler traces (Kineto's Chrome trace-event JSON,
 * .json or .json.gz; several files, or a folder of them, the ranks of
 * one run) into the record stream of docs/stream.md.
 */
#ifndef KINETOIN_H
#define KINETOIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../libstream/front.h"
#include "../../libstream/header.h"

/* Whether the file starting with head[0..n) is a JSON object, plain or gzip. */
bool kinetoin_sniff(const uint8_t *head, size_t n);

/* Whether path, a folder, holds Kineto traces (NAME.json, NAME.json.gz) and no tr-record log. */
bool kinetoin_sniff_dir(const char *path);

/*
 * Read paths[0..n) (each a trace file, or a folder of them): header (with
 * stage) and definitions to w, events through front, the trailer.
 * Returns 0, or a negative error with a one-line message in err[0..len).
 */
int kinetoin_read(const char *const *paths, int n, const struct ls_stage *stage, struct ls_front *front,
		  struct ls_writer *w, char *err, size_t len);

#endif
