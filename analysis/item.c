/* Items: the records a stage notes typed as it writes them, and typed facts read from records (item.h). */
#include "../libstream/error.h"
#include "../libstream/vec.h"
#include "item.h"

int an_typed_room(struct an_typed_list *l)
{
	return ls_vec_room(&l->v, &l->cap, l->n, sizeof(*l->v));
}

int an_item_edge(struct an_item *it, struct an_edge_rec *e, const char **why)
{
	const struct ls_record *rec;
	const char *type;
	uint32_t n;
	int rc;

	if (it->known) {
		*e = it->derived.edge;
		return 0;
	}
	if ((rc = an_item_need(it, &rec, why)) < 0)
		return rc;
	e->type = LS_E__COUNT;
	if (ls_get_u64(rec, LS_F_FROM, &e->from) < 0 || ls_get_u64(rec, LS_F_TO, &e->to) < 0)
		return 1;
	if (ls_get_str(rec, LS_F_TYPE, &type, &n) < 0)
		return 2;
	e->type = ls_edge_lookup(type, n);
	return 0;
}
