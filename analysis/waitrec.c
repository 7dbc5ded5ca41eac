/* Wait, idle and blame records, and the tallies behind the summaries. */
#include <stdlib.h>
#include <string.h>

#include "../libstream/error.h"
#include "../libstream/vec.h"
#include "waitrec.h"

void an_waitrec_init(struct an_waitrec *o, struct ls_writer *w, const struct an_trace *tr)
{
	memset(o, 0, sizeof(*o));
	o->w = w;
	o->tr = tr;
}

int an_waitrec_process(struct an_waitrec *o, uint32_t nprocs)
{
	if (ls_vec_room(&o->tally, &o->tally_cap, nprocs * LS_P__COUNT - 1, sizeof(*o->tally)) < 0)
		return LS_ERR_NOMEM;
	memset(an_waitrec_tally(o, nprocs - 1, 0), 0, LS_P__COUNT * sizeof(*o->tally));
	return 0;
}

const struct an_typed *an_waitrec_typed(struct an_waitrec *o, size_t *n)
{
	return an_typed_take(&o->typed, n);
}

int an_waitrec_blame(struct an_waitrec *o, uint64_t to, uint32_t region, uint64_t ns,
		     enum ls_pattern p, uint64_t wait, uint32_t s)
{
	size_t at = o->w->out.len;
	int rc;

	if (!o->typed.only) {
		ls_build_begin(o->w, 7);
		ls_put_kind(o->w, LS_K_BLAME);
		ls_put_u64(o->w, LS_F_TO, to);
		ls_put_u64(o->w, LS_F_R, o->tr->defs.region_ids[region]);
		ls_put_u64(o->w, LS_F_NS, ns);
		ls_put_pattern(o->w, p);
		ls_put_u64(o->w, LS_F_WAIT, wait);
		ls_put_u64(o->w, LS_F_S, o->tr->defs.streams[s].id);
		if ((rc = ls_build_end(o->w)) < 0)
			return rc;
	}
	return an_typed_note(&o->typed, o->w, (struct an_typed){
		.at = at, .kind = LS_K_BLAME, .derived.blame = { to, wait, ns, region, s, p } });
}

/* Wait state x as a record (an idle record: idle). */
static int write_wait(struct an_waitrec *o, const struct an_wait *x, bool idle)
{
	ls_build_begin(o->w, 6 + x->has_cause + (x->region != LS_NONE));
	ls_put_kind(o->w, idle ? LS_K_IDLE : LS_K_WAIT);
	ls_put_u64(o->w, LS_F_AT, x->at);
	ls_put_i64(o->w, LS_F_T, x->t);
	ls_put_u64(o->w, LS_F_DUR, x->dur);
	ls_put_pattern(o->w, x->pattern);
	ls_put_u64(o->w, LS_F_S, o->tr->defs.streams[x->s].id);
	if (x->has_cause)
		ls_put_u64(o->w, LS_F_CAUSE, x->cause);
	if (x->region != LS_NONE)
		ls_put_u64(o->w, LS_F_R, o->tr->defs.region_ids[x->region]);
	return ls_build_end(o->w);
}

int an_waitrec_wait(struct an_waitrec *o, const struct an_wait *x)
{
	struct an_tally *t = an_waitrec_tally(o, o->tr->defs.streams[x->s].process, x->pattern);
	bool idle = ls_pattern_idle(x->pattern);	/* idleness, not a wait state */
	size_t at = o->w->out.len;
	int rc;

	t->count++;
	t->ns += x->dur;
	if (!o->typed.only && (rc = write_wait(o, x, idle)) < 0)
		return rc;
	return an_typed_note(&o->typed, o->w, (struct an_typed){
		.at = at, .kind = idle ? LS_K_IDLE : LS_K_WAIT, .derived.wait = *x });
}

int an_waitrec_blame_split(struct an_waitrec *o, const struct an_wait *x,
			   const struct an_interval *iv, const uint32_t *ss, uint32_t s)
{
	int rc;

	if (ls_vec_room(&o->split, &o->split_cap, iv->n - 1, sizeof(*o->split)) < 0)
		return LS_ERR_NOMEM;
	an_blame_split(iv, x->dur, o->split);
	for (uint32_t i = 0; i < iv->n; i++)
		if (o->split[i] &&
		    (rc = an_waitrec_blame(o, iv->v[i].act, iv->v[i].region, o->split[i],
					   x->pattern, x->at, ss ? ss[i] : s)) < 0)
			return rc;
	return 0;
}

void an_waitrec_release(struct an_waitrec *o)
{
	free(o->tally);
	free(o->split);
	free(o->typed.v);
	an_waitrec_init(o, o->w, o->tr);
}
