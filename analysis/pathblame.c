/* Blame on the critical path: the activities followed, and path_blame records. */
#include <stdlib.h>
#include <string.h>

#include "../libstream/error.h"
#include "../libstream/vec.h"
#include "pathblame.h"

void an_pathblame_init(struct an_pathblame *pb, struct an_typed_list *typed)
{
	memset(pb, 0, sizeof(*pb));
	pb->free = LS_NONE;
	pb->typed = typed;
}

int an_pathblame_enter(struct an_pathblame *pb, uint64_t act, uint32_t r, uint32_t s, int64_t t,
		       uint32_t *entry)
{
	uint32_t i = pb->free;

	if (i == LS_NONE) {
		if (ls_vec_room(&pb->e, &pb->cap, pb->ne, sizeof(*pb->e)) < 0)
			return LS_ERR_NOMEM;
		i = pb->ne;
	}
	if (i == pb->ne)
		pb->ne++;
	else
		pb->free = pb->e[i].next;
	pb->e[i] = (struct an_pb_open){ .act = act, .enter = t, .leave = t, .r = r, .s = s, .next = LS_NONE,
					.live = true };
	*entry = i;
	return 0;
}

int an_pathblame_leave(struct an_pathblame *pb, uint32_t entry, uint32_t parent, int64_t t)
{
	struct an_pb_open *e = &pb->e[entry];

	e->leave = t > e->enter ? t : e->enter;
	if (parent != LS_NONE)
		pb->e[parent].child += (uint64_t)(e->leave - e->enter);
	if (pb->left_at > pb->left_n) {	/* room at the front, more than is used: move down */
		memmove(pb->left, pb->left + pb->left_at, pb->left_n * sizeof(*pb->left));
		pb->left_at = 0;
	}
	if (ls_vec_room(&pb->left, &pb->left_cap, pb->left_at + pb->left_n, sizeof(*pb->left)) < 0)
		return LS_ERR_NOMEM;
	pb->left[pb->left_at + pb->left_n++] = entry;
	return 0;
}

/* The entry that follows activity act, or LS_NONE. */
static uint32_t followed(const struct an_pathblame *pb, uint64_t act, uint32_t hint)
{
	uint32_t i;

	if (hint < pb->ne && pb->e[hint].live && pb->e[hint].act == act)
		return hint;
	return pb->adrift.count && ls_idmap_get(&pb->adrift, act, &i) ? i : LS_NONE;
}

int an_pathblame_adrift(struct an_pathblame *pb, uint64_t act, uint32_t entry)
{
	if (entry >= pb->ne || !pb->e[entry].live || pb->e[entry].act != act || pb->e[entry].adrift)
		return 0;
	if (ls_idmap_put(&pb->adrift, act, entry) < 0)
		return LS_ERR_NOMEM;
	pb->e[entry].adrift = true;
	return 0;
}

void an_pathblame_path(struct an_pathblame *pb, uint64_t act, uint32_t hint, uint64_t dur)
{
	uint32_t i = followed(pb, act, hint);

	if (i != LS_NONE)
		pb->e[i].cp += dur;
}

/* floor(ns * num / den), den > 0, num <= den. */
static uint64_t part(uint64_t ns, uint64_t num, uint64_t den)
{
	return (uint64_t)((unsigned __int128)ns * num / den);
}

static int put(struct an_pathblame *pb, uint64_t act, uint32_t r, uint32_t s, uint64_t ns, bool idle,
	       const struct ls_defs *d, struct ls_writer *w)
{
	size_t at = w->out.len;
	int rc;

	if (!ns)
		return 0;
	pb->written += ns;
	if (!pb->typed->only) {
		ls_build_begin(w, 5 + idle);
		ls_put_kind(w, LS_K_PATH_BLAME);
		ls_put_u64(w, LS_F_ACT, act);
		ls_put_u64(w, LS_F_R, d->region_ids[r]);
		ls_put_u64(w, LS_F_NS, ns);
		ls_put_u64(w, LS_F_S, d->streams[s].id);
		if (idle)
			ls_put_bool(w, LS_F_IDLE, true);
		if ((rc = ls_build_end(w)) < 0)
			return rc;
	}
	return an_typed_note(pb->typed, w, (struct an_typed){ .at = at, .kind = LS_K_PATH_BLAME,
							      .derived.share = { act, ns, r, s, idle } });
}

int an_pathblame_blame(struct an_pathblame *pb, uint64_t act, uint32_t hint, uint64_t ns, bool idle,
		       const struct ls_defs *d, struct ls_writer *w)
{
	struct an_pb_known *k;
	uint64_t before;
	uint32_t i = followed(pb, act, hint);

	if (i != LS_NONE) {
		pb->e[i].blame[idle] += ns;
		return 0;
	}
	if (!ls_idmap_get(&pb->known_map, act, &i)) {
		/* not on the path, or its share let go of: which, is not known */
		if (pb->let_go && act <= pb->let_go_max)
			pb->unknown += ns;
		return 0;
	}
	k = &pb->known[i];
	before = part(k->blame[idle], k->num, k->den);
	k->blame[idle] += ns;
	return put(pb, act, k->r, k->s, part(k->blame[idle], k->num, k->den) - before, idle, d, w);
}

/* Keep e's share (on the path, num / den) for blame to come, letting the oldest go where full. */
static int know(struct an_pathblame *pb, const struct an_pb_open *e, uint64_t num, uint64_t den)
{
	uint32_t slot;

	if (!pb->known && !(pb->known = malloc(AN_PB_KNOWN * sizeof(*pb->known))))
		return LS_ERR_NOMEM;
	if (pb->known_n == AN_PB_KNOWN) {
		const struct an_pb_known *old = &pb->known[pb->known_at];

		ls_idmap_del(&pb->known_map, old->act);
		if (!pb->let_go || old->act > pb->let_go_max)
			pb->let_go_max = old->act;
		pb->let_go = true;
		pb->known_at = (pb->known_at + 1) % AN_PB_KNOWN;
		pb->known_n--;
	}
	slot = (pb->known_at + pb->known_n) % AN_PB_KNOWN;
	if (ls_idmap_put(&pb->known_map, e->act, slot) < 0)
		return LS_ERR_NOMEM;
	pb->known[slot] = (struct an_pb_known){ e->act, { e->blame[0], e->blame[1] }, num, den, e->r, e->s };
	pb->known_n++;
	return 0;
}

int an_pathblame_settle(struct an_pathblame *pb, int64_t clock, const struct ls_defs *d,
			struct ls_writer *w)
{
	int rc;

	while (pb->left_n && pb->e[pb->left[pb->left_at]].leave <= clock) {
		uint32_t i = pb->left[pb->left_at++];
		struct an_pb_open *e = &pb->e[i];
		uint64_t len = (uint64_t)(e->leave - e->enter);
		uint64_t excl = len > e->child ? len - e->child : 0;

		pb->left_n--;
		if (excl && e->cp) {
			uint64_t num = e->cp < excl ? e->cp : excl;

			for (int idle = 0; idle < 2; idle++)
				if ((rc = put(pb, e->act, e->r, e->s, part(e->blame[idle], num, excl), idle, d,
					      w)) < 0)
					return rc;
			if ((rc = know(pb, e, num, excl)) < 0)
				return rc;
		}
		if (e->adrift)
			ls_idmap_del(&pb->adrift, e->act);
		e->live = false;
		e->next = pb->free;
		pb->free = i;
	}
	if (!pb->left_n)
		pb->left_at = 0;
	return 0;
}

void an_pathblame_release(struct an_pathblame *pb)
{
	free(pb->e);
	free(pb->left);
	free(pb->known);
	ls_idmap_release(&pb->adrift);
	ls_idmap_release(&pb->known_map);
	an_pathblame_init(pb, pb->typed);
}
