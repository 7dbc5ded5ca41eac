/*
 * Reading Nsight Systems exports (nsys export --type sqlite; several
 * files, the ranks of one run) into the record stream of docs/stream.md.
 */
#ifndef NSYSIN_H
#define NSYSIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../libstream/front.h"
#include "../../libstream/header.h"

/* Whether the file starting with head[0..n) is an SQLite database. */
bool nsysin_sniff(const uint8_t *head, size_t n);

/*
 * Read the exports paths[0..n): header (with stage) and definitions to w,
 * events through front, the trailer. Returns 0, or a negative error with
 * a one-line message in err[0..len).
 */
int nsysin_read(const char *const *paths, int n, const struct ls_stage *stage, struct ls_front *front,
		struct ls_writer *w, char *err, size_t len);

#endif
