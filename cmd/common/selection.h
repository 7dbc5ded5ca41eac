/*
 * The options that select part of a trace (tr-read's and tr-analyze's -p,
 * -s, -t), and what the reader front found odd in what it read.
 */
#ifndef SELECTION_H
#define SELECTION_H

#include "../../libstream/front.h"

/* -t "begin:end" (either side may be empty; ns, us, ms, s) into opt: 0, or -1. */
int selection_window(const char *arg, struct ls_front_options *opt);

/* Odd but legal content of the trace path: said once each, never fatal. */
void selection_report(const char *path, const struct ls_front_report *r);

/*
 * A selection that kept nothing of the trace is a usage error: -p or -s
 * naming no stream, -t a window its events miss. Returns 0, or 2 after a
 * message.
 */
int selection_check(const char *path, const struct ls_front_options *opt,
		    const struct ls_front_report *r);

#endif
