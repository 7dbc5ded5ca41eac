/*
 * Reading the logs tr-record writes (docs/trlog.md) into the record
 * stream of docs/stream.md: a folder of them, one log, or a list of logs
 * of one run, merged into one stream in global time order.
 */
#ifndef TRLOGIN_H
#define TRLOGIN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../libstream/front.h"
#include "../../libstream/header.h"

/* Whether the file starting with head[0..n) is a tr-record log. */
bool trlogin_sniff(const uint8_t *head, size_t n);

/* Whether path, a folder, is one of tr-record's: it holds logs, or nothing yet. */
bool trlogin_sniff_dir(const char *path);

/*
 * Read the logs paths[0..n) (each a log, or a folder of them): header
 * (with stage) and definitions to w, events through front, the trailer.
 * Returns 0, or a negative error with a one-line message in err[0..len).
 */
int trlogin_read(const char *const *paths, int n, const struct ls_stage *stage, struct ls_front *front,
		 struct ls_writer *w, char *err, size_t len);

#endif
