/*
 * Reading an OTF2 archive (as Score-P writes it) into the record stream of
 * docs/stream.md: definitions first, then events in global time order.
 */
#ifndef OTF2IN_H
#define OTF2IN_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../../libstream/front.h"
#include "../../libstream/header.h"

/*
 * Read the archive whose anchor file is path: its header (with stage, the
 * tool reading) and definitions to w, its events (and what was odd in
 * them) through front, then the trailer. Returns 0; or a negative error with a one-line message in
 * err[0..n) (not an OTF2 archive, a read error, a write error: w->err
 * says which), and then no trailer.
 */
int otf2in_read(const char *path, const struct ls_stage *stage, struct ls_front *front,
		struct ls_writer *w, char *err, size_t n);

/* Whether the file starting with head[0..n) is an OTF2 anchor file. */
bool otf2in_sniff(const uint8_t *head, size_t n);

/*
 * A folder holding OTF2 archives (a Score-P experiment folder): how many
 * anchor files it holds, the path of one (the first read) in first[0..n).
 */
int otf2in_anchors_in(const char *dir, char *first, size_t n);

/* Whether folder dir holds an OTF2 archive's anchor file. */
bool otf2in_sniff_dir(const char *dir);

#endif
