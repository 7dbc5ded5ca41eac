/* What is wrong with an archive libotf2 could not read: which file. */
#ifndef OTF2_DIAGNOSE_H
#define OTF2_DIAGNOSE_H

#include <stdbool.h>

struct otf2in;

/* Whether anchor is named NAME.otf2, the only name libotf2 opens. */
bool otf2_anchor_named(const char *anchor);

/*
 * libotf2 could not read the global definitions (or the events): fail in
 * with the file at fault (NAME.def; the folder NAME/ or a location's
 * NAME/LOC.evt) and what is wrong with it (missing, unreadable, empty), or,
 * if every file is there, that they are damaged, with otf2_msg, libotf2's
 * own words. Returns in's status.
 */
int otf2in_fail_definitions(struct otf2in *in, const char *otf2_msg);
int otf2in_fail_events(struct otf2in *in, const char *otf2_msg);

#endif
