/* The shortest instance of each API function in a trace (floors.h). */
#include <stdlib.h>

#include "../libstream/error.h"
#include "../libstream/vec.h"
#include "floors.h"
#include "trace.h"

/* A call into a runtime: not a construct around user code (a parallel region, a loop). */
static bool api(enum ls_role r)
{
	enum ls_role_group g = ls_role_group(r);

	return g == LS_G_MPI || g == LS_G_GPU_CALL || r == LS_R_OMP_BARRIER || r == LS_R_OMP_LOCK ||
	       r == LS_R_OMP_UNLOCK;
}

/* An instance of region index r lasted ns. */
static int instance(struct an_floors *f, const struct an_trace *tr, uint32_t r, int64_t ns)
{
	uint64_t id = tr->defs.region_ids[r];
	uint32_t i;

	if (ls_idmap_get(&f->by_id, id, &i)) {
		if (ns < f->ns[i])
			f->ns[i] = ns;
		return 0;
	}
	if (ls_vec_room(&f->ns, &f->cap, f->n, sizeof(*f->ns)) < 0 ||
	    ls_idmap_put(&f->by_id, id, f->n) < 0)
		return LS_ERR_NOMEM;
	f->ns[f->n++] = ns;
	return 0;
}

int an_floors_scan(struct an_floors *f, struct ls_reader *r)
{
	struct an_trace tr;
	struct ls_record rec;
	const char *why;
	int rc = 0;

	an_trace_init(&tr);
	ls_reader_skim(r, ~(LS_DEFS_KINDS | LS_KIND_BIT(LS_K_ENTER) | LS_KIND_BIT(LS_K_LEAVE)));
	while (ls_read(r, &rec) > 0) {
		struct an_event ev;
		struct an_frame *fr;

		if (ls_kind_spec(rec.kind)->cls == LS_C_DEF) {
			if (an_trace_def(&tr, &rec, &why) < 0)
				break;
			continue;
		}
		if ((rec.kind != LS_K_ENTER && rec.kind != LS_K_LEAVE) ||
		    an_trace_event(&tr, &rec, &ev, &why) < 0)
			continue;
		if (rec.kind == LS_K_ENTER) {
			if (!an_trace_enter(&tr, &rec, &ev, &rc, &why) && rc < 0)
				break;
			continue;
		}
		if (!(fr = an_trace_leave(&tr, &rec, &ev, &rc, &why))) {
			if (rc < 0)
				break;
			continue;
		}
		if (api((enum ls_role)fr->role) && (rc = instance(f, &tr, fr->region, ev.t - fr->t)) < 0)
			break;
		an_stack_pop_to(&tr.stacks[ev.s], fr);
	}
	an_trace_release(&tr);
	return rc == LS_ERR_NOMEM ? rc : 0;
}

bool an_floors_get(const struct an_floors *f, uint64_t region, int64_t *ns)
{
	uint32_t i;

	if (!ls_idmap_get(&f->by_id, region, &i))
		return false;
	*ns = f->ns[i];
	return true;
}

void an_floors_release(struct an_floors *f)
{
	ls_idmap_release(&f->by_id);
	free(f->ns);
	*f = (struct an_floors)AN_FLOORS_INIT;
}
