/*
 * The least time each API function took of its own in a trace: what
 * tr-project holds a call to, however early what it waited for comes (a
 * synchronization or a launch never gets shorter than it was ever
 * measured to take). A call's own time is its duration less the time it
 * waited: from its enter to the latest source of the edges into it (a
 * receive's send, the kernel a synchronization waited for, a collective's
 * last arriver), where that came after the enter. So a run in which every
 * receive waited still gives a receive's floor as the time it took after
 * its message came, not the shortest wait.
 *
 * API functions are the regions whose role is an MPI call, a GPU runtime
 * call, an OpenMP barrier or lock call: not a construct around user code
 * (a parallel region, a loop, a critical section), whose time is the user
 * code's.
 */
#ifndef AN_FLOORS_H
#define AN_FLOORS_H

#include <stdbool.h>
#include <stdint.h>

#include "../libstream/idmap.h"
#include "../libstream/reader.h"

struct an_floors {
	struct ls_idmap by_id;	/* region id -> index in ns */
	int64_t *ns;
	uint32_t n, cap;
};

#define AN_FLOORS_INIT { LS_IDMAP_INIT, NULL, 0, 0 }

/*
 * Read the stream r whole (a first pass; the caller rewinds it), keeping
 * each API function's least own time. Edges count for the calls they
 * lead into when they come within window ns of their target. Stops
 * quietly at input it cannot read (the pass after it says where). Returns
 * 0 or LS_ERR_NOMEM.
 */
int an_floors_scan(struct an_floors *f, struct ls_reader *r, int64_t window);

/*
 * The same pass record by record, for whoever has the stream in hand (a
 * chain of stages): the floors into f as the records come; input it
 * cannot read ends it quietly. new: NULL when out of memory; take: 0 or
 * LS_ERR_NOMEM; end frees the pass, its floors written: 0 or LS_ERR_NOMEM.
 */
struct an_floors_pass;
struct an_floors_pass *an_floors_pass_new(struct an_floors *f, int64_t window);
uint64_t an_floors_pass_reads(void);	/* the kinds take reads (LS_KIND_BIT) */
int an_floors_pass_take(struct an_floors_pass *p, const struct ls_record *rec);
int an_floors_pass_end(struct an_floors_pass *p);

/* Region id's floor in *ns, if it is an API function that ran. */
bool an_floors_get(const struct an_floors *f, uint64_t region, int64_t *ns);

void an_floors_release(struct an_floors *f);

#endif
