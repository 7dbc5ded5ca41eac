/*
 * The rating of an analysed stream as tr-rank prints it (and tr-analyze):
 * the text table with the pattern summary, CSV, or NDJSON records.
 */
#ifndef RANK_TABLE_H
#define RANK_TABLE_H

#include <stdbool.h>
#include <stdint.h>

#include "../../analysis/rank.h"
#include "../../libstream/writer.h"
#include "rank-diff.h"

struct rank_opts {
	enum rank_form form;
	uint32_t top;		/* rows, 0: all */
	bool by_pattern;	/* -e */
	bool diff;
	bool idle;		/* --idle: idle blame in the rating */
	bool words;		/* -v: the first rows told in words above the table */
};

/* -n N: the rows to print (0: all) into o->top. Returns 0, or 2 after a message. */
int rank_rows_arg(const char *arg, struct rank_opts *o);

/* --csv or --json (f) into o->form; the two exclude each other. Returns 0, or 2 after a message. */
int rank_form_arg(enum rank_form f, struct rank_opts *o);

/*
 * Rate k and print its top rows on stdout in o->form (input names the
 * run in the text table's first line; NDJSON goes through w). Returns 0,
 * LS_ERR_NOMEM, or the error of a write to w.
 */
int rank_print(const char *input, const struct an_rank *k, const struct rank_opts *o,
	       struct ls_writer *w);

#endif
