/* Edge records, as tr-deps' rules find them. */
#include "edges.h"

int an_edges_write(struct an_edges *e, uint64_t from, uint64_t to, enum ls_edge type)
{
	size_t at = e->w->out.len;
	int rc;

	e->count[type]++;
	if (!e->typed.only) {
		ls_build_begin(e->w, 4);
		ls_put_kind(e->w, LS_K_EDGE);
		ls_put_u64(e->w, LS_F_FROM, from);
		ls_put_u64(e->w, LS_F_TO, to);
		ls_put_str(e->w, LS_F_TYPE, ls_edge_name(type));
		if ((rc = ls_build_end(e->w)) < 0)
			return rc;
	}
	return an_typed_note(&e->typed, e->w, (struct an_typed){ .at = at, .kind = LS_K_EDGE,
							       .derived.edge = { from, to, type } });
}

int an_edges_instance(struct an_edges *e, const uint64_t *acts, uint32_t n, uint32_t comm,
		      uint32_t root)
{
	ls_build_begin(e->w, 2 + (comm != LS_NONE) + (root != LS_NONE));
	ls_put_kind(e->w, LS_K_INSTANCE);
	ls_put_array(e->w, LS_F_ACTS, n);
	for (uint32_t i = 0; i < n; i++)
		ls_put_item_u64(e->w, acts[i]);
	if (comm != LS_NONE)
		ls_put_u64(e->w, LS_F_COMM, e->defs->comms[comm].id);
	if (root != LS_NONE)
		ls_put_u64(e->w, LS_F_ROOT, e->defs->procs[root].id);
	e->instances++;
	return ls_build_end(e->w);
}
