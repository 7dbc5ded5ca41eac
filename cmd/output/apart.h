/*
 * Where one run's outputs would go, checked before anything is written:
 * no output may be written where another output of the same run goes (or
 * in a folder that one makes), nor over an input or into an input's
 * folder (an OTF2 archive's parts, a folder of logs or profiles), nor
 * into the file standard output already is (the rating goes there).
 * Each staged output checks only its own target when it is moved in, so
 * two of them could otherwise each replace what the other just placed.
 */
#ifndef APART_H
#define APART_H

#include <stdbool.h>
#include <stddef.h>

struct output_place {
	const char *option;	/* as the user gave it: "--stream", "-o" */
	const char *path;	/* a file; with archive, an archive DIR/NAME (or DIR/NAME.otf2) */
	bool archive;		/* NAME.otf2, NAME.def and the folder NAME/ */
};

/*
 * Check outs[0..nout) against each other, against the inputs
 * inputs[0..ninputs) ("-" is standard input, and is skipped) and
 * against standard output. Paths are compared as the files they name
 * (symbolic links in their folders followed, hard links by inode).
 * Returns 0, -1 with a one-line message in err[0..n) where two meet,
 * or -2 with one where a path cannot be made whole (out of memory, no
 * working folder).
 */
int outputs_apart(const struct output_place *outs, size_t nout, char *const *inputs,
		  int ninputs, char *err, size_t n);

#endif
