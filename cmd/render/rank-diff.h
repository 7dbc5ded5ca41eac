/*
 * Two ratings compared (tr-rank --diff, tr-report --diff): each side an
 * analysed stream (rated here) or a rating tr-rank --json wrote; regions
 * matched by name, the largest change of rating first.
 */
#ifndef RANK_DIFF_H
#define RANK_DIFF_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

enum rank_form { RANK_TEXT, RANK_CSV, RANK_JSON };

/* A region in both ratings (0 where a side lacks it). */
struct diff_row {
	char *name;
	uint64_t cp[2], blame[2];
	double rating[2];
};

/* A side's run: its run_summary, or the totals of the stream rated. */
struct diff_run {
	uint64_t runtime, cp, waiting, blame, idle;
	bool known;		/* a rating without its run_summary: not */
	uint64_t procs, hosts, gpus;	/* processes, host threads, GPU streams */
	bool setup;		/* those known (a rating of tr-rank from before: not) */
};

struct rank_diff {
	struct diff_row *v;
	uint32_t n, cap;
	struct diff_run run[2];
	const char *path[2];
};

/*
 * Read both sides into d (zeroed), a and b as given (idle: an analysed
 * stream rated with idle blame as blame), their rows sorted. Returns the
 * exit status: 0, or 1 after a message.
 */
int rank_diff_read(struct rank_diff *d, const char *a, const char *b, bool idle);

void rank_diff_release(struct rank_diff *d);

/* tr-rank --diff: the top rows of a against b (0: all) in form on stdout. The exit status. */
int rank_diff(const char *a, const char *b, enum rank_form form, uint32_t top);

/*
 * Where d's two runs were set up differently (processes, host threads,
 * GPU streams), a sentence saying how into buf (n bytes): true; false
 * where they were not, or one side does not say.
 */
bool rank_diff_setups(const struct rank_diff *d, char *buf, size_t n);

#endif
