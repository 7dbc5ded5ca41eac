/*
 * Work beside the path: where the path rests in plain code on one host
 * thread while another thread of the same process drives the GPU, with
 * no event of the trace linking the two. PyTorch's main thread sits in
 * an annotation (`## backward ##`, `ProfilerStep#N`) while its autograd
 * thread runs the operators and launches their kernels, and nothing
 * records that the main thread waits for it: the path stays on the
 * waiting thread. tr-critpath says so once, naming both threads, rather
 * than guessing a dependency the trace does not give.
 *
 * The GPU calls each host thread enters that give the GPU work or wait
 * for it (launches, copies, synchronizations; not polls, which a
 * watchdog thread makes) are kept in time order until the path has
 * passed them; each piece of the path in plain code counts the calls
 * other threads of its process entered within it. Pieces come in the
 * path's order, which is time order, so each call is looked at once.
 */
#ifndef AN_SIDEWORK_H
#define AN_SIDEWORK_H

#include <stdint.h>

#include "../libstream/defs.h"
#include "derived.h"

/* One host thread's GPU calls not yet passed by the path: their enter times, a ring. */
struct an_calls {
	int64_t *t;
	uint32_t head, n, cap;
};

/* A host thread's. */
struct an_side {
	struct an_calls calls;
	uint64_t ns;		/* its path time in plain code while another thread drove the GPU */
	uint64_t beside;	/* its GPU calls within such time of another thread */
};

struct an_sidework {
	const struct ls_defs *defs;
	struct an_side *st;	/* per stream index */
	uint32_t nstreams, cap;
	int64_t passed;		/* the path has been written up to here */
};

/* What an_sidework_worst found: thread s's path time ns in plain code while thread by made calls GPU calls. */
struct an_sidework_note {
	uint32_t s, by;
	uint64_t ns, calls;
};

void an_sidework_init(struct an_sidework *w, const struct ls_defs *defs);

/* Host stream s entered a GPU call at t: 0, or LS_ERR_NOMEM. */
int an_sidework_call(struct an_sidework *w, uint32_t s, int64_t t);

/* A piece of the path, in its order. */
void an_sidework_piece(struct an_sidework *w, const struct an_piece *pc);

/* The thread with the most path time in plain code while another drove the GPU: 0 where none. */
int an_sidework_worst(const struct an_sidework *w, struct an_sidework_note *out);

void an_sidework_release(struct an_sidework *w);

#endif
