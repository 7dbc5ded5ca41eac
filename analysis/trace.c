/* Definitions, events and open activities: what every stage follows. */
#include <inttypes.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>

#include "../libstream/error.h"
#include "trace.h"
#include "../libstream/vec.h"

void an_trace_init(struct an_trace *tr)
{
	memset(tr, 0, sizeof(*tr));
	ls_defs_init(&tr->defs);
}

int an_trace_def(struct an_trace *tr, const struct ls_record *rec,
		 const char **why)
{
	int rc = ls_defs_take(&tr->defs, rec, why);
	uint32_t n = tr->defs.nstreams;

	if (rc <= 0 || rec->kind != LS_K_STREAM)
		return rc;
	if (ls_vec_room(&tr->stacks, &tr->stacks_cap, n - 1, sizeof(*tr->stacks)) < 0)
		return LS_ERR_NOMEM;
	memset(&tr->stacks[n - 1], 0, sizeof(tr->stacks[n - 1]));
	return 1;
}

/*
 * Event ev of kind k (its id and t set; on stream id s; an enter's or
 * leave's region id *r, NULL where it has none) against the stream's
 * rules, its indexes found: as an_trace_event.
 */
static int check(struct an_trace *tr, enum ls_kind k, uint64_t s, const uint64_t *r, struct an_event *ev,
		 const char **why)
{
	int rc;

	if (!ls_time_ok(ev->t)) {
		/* as tr-cat --check says it */
		snprintf(tr->why, sizeof(tr->why), "%s field \"t\" is not a time in [-2^62, 2^62) ns",
			 ls_kind_name(k));
		*why = tr->why;
		return LS_ERR_SYNTAX;
	}
	if (tr->any && (ev->t < tr->last_t || (ev->t == tr->last_t && s < tr->last_s))) {
		snprintf(tr->why, sizeof(tr->why), "%s at t=%" PRId64 " on stream %" PRIu64
			 " comes after t=%" PRId64 " on stream %" PRIu64
			 " (events must be ordered by time, then stream)",
			 ls_kind_name(k), ev->t, s, tr->last_t, tr->last_s);
		*why = tr->why;
		return LS_ERR_SYNTAX;
	}
	if ((ev->s = ls_index(&tr->defs.stream_ix, s)) == LS_NONE) {
		*why = "event on an undefined stream";
		return LS_ERR_SYNTAX;
	}
	/* an id twice would join what the stages keep by id (edges, waits, the path) wrongly */
	if ((rc = ls_idset_add(&tr->ids, ev->id)) <= 0) {
		if (rc < 0)
			return rc;
		snprintf(tr->why, sizeof(tr->why), "%s id %" PRIu64 " is not unique (rule 4)",
			 ls_kind_name(k), ev->id);
		*why = tr->why;
		return LS_ERR_SYNTAX;
	}
	ev->kind = k;
	ev->r = LS_NONE;
	if ((k == LS_K_ENTER || k == LS_K_LEAVE) && (!r || (ev->r = ls_index(&tr->defs.region_ix, *r)) == LS_NONE)) {
		*why = "enter or leave of an undefined region";
		return LS_ERR_SYNTAX;
	}
	tr->any = true;
	tr->last_t = ev->t;
	tr->last_s = s;
	ev->proc = tr->defs.streams[ev->s].process;
	return 0;
}

int an_trace_event(struct an_trace *tr, const struct ls_record *rec,
		   struct an_event *ev, const char **why)
{
	uint64_t s, r;

	if (ls_get_u64(rec, LS_F_ID, &ev->id) < 0 ||
	    ls_get_i64(rec, LS_F_T, &ev->t) < 0 ||
	    ls_get_u64(rec, LS_F_S, &s) < 0) {
		*why = "event without a valid 'id', 't' or 's'";
		return LS_ERR_SYNTAX;
	}
	/* the region of an enter or leave alone: no other kind has one to read */
	return check(tr, rec->kind, s,
		     (rec->kind == LS_K_ENTER || rec->kind == LS_K_LEAVE) && ls_get_u64(rec, LS_F_R, &r) == 0 ?
		     &r : NULL, ev, why);
}

int an_trace_item(struct an_trace *tr, struct an_item *it, struct an_event *ev, const char **why)
{
	int rc;

	if (!it->known) {
		const struct ls_written *w = it->read;
		const struct ls_record *rec;

		if (w) {
			ev->id = w->id;
			ev->t = w->ev.t;
			rc = check(tr, w->ev.kind, w->ev.stream, &w->ev.region, ev, why);
		} else if ((rc = an_item_need(it, &rec, why)) == 0) {
			rc = an_trace_event(tr, rec, ev, why);
		}
		if (rc < 0)
			return rc;
		it->ev = *ev;
		it->known = true;
		return 0;
	}
	*ev = it->ev;
	if (ls_idset_add(&tr->ids, ev->id) < 0)
		return LS_ERR_NOMEM;
	tr->any = true;
	tr->last_t = ev->t;
	tr->last_s = tr->defs.streams[ev->s].id;
	return 0;
}

/* Was the event id read before (the newest run of ids first: where most references point)? */
static bool read_before(const struct an_trace *tr, uint64_t id)
{
	const struct ls_idset *set = &tr->ids;

	return (set->n && id >= set->run[set->n - 1].lo && id <= set->run[set->n - 1].hi) ||
	       ls_idset_has(set, id);
}

/* The message for field f of rec naming event id, which was not read: LS_ERR_SYNTAX. */
static int not_read(struct an_trace *tr, const struct ls_record *rec, enum ls_field f, uint64_t id,
		    const char **why)
{
	snprintf(tr->why, sizeof(tr->why), "%s field \"%s\" points at event %" PRIu64
		 ", which is not earlier in the stream", ls_kind_name(rec->kind), ls_field_name(f), id);
	*why = tr->why;
	return LS_ERR_SYNTAX;
}

/* Per kind, the fields that name events (the schema's LS_V_ID), learnt once: the most a kind has is 4. */
#define MAX_ID_FIELDS 4
static enum ls_field id_fields[LS_K__COUNT][MAX_ID_FIELDS];
static uint8_t nid_fields[LS_K__COUNT];
static pthread_once_t learnt = PTHREAD_ONCE_INIT;

static void learn_id_fields(void)
{
	for (int k = 0; k < LS_K__COUNT; k++) {
		const struct ls_kind_spec *spec = ls_kind_spec((enum ls_kind)k);

		for (int i = 0; i < spec->nfields && nid_fields[k] < MAX_ID_FIELDS; i++)
			if (spec->fields[i].type == LS_V_ID)
				id_fields[k][nid_fields[k]++] = spec->fields[i].field;
	}
}

int an_trace_derived(struct an_trace *tr, struct an_item *it, const char **why)
{
	const struct ls_record *rec;
	uint64_t id, dur;
	int64_t t;
	int rc;

	if (it->made)
		return 0;
	if ((rc = an_item_need(it, &rec, why)) < 0)
		return rc;
	pthread_once(&learnt, learn_id_fields);
	for (int i = 0; i < nid_fields[rec->kind]; i++)
		if (ls_get_u64(rec, id_fields[rec->kind][i], &id) == 0 && !read_before(tr, id))
			return not_read(tr, rec, id_fields[rec->kind][i], id, why);
	if ((rec->kind == LS_K_WAIT || rec->kind == LS_K_IDLE) && ls_get_i64(rec, LS_F_T, &t) == 0 &&
	    ls_get_u64(rec, LS_F_DUR, &dur) == 0 && tr->any &&
	    (t > tr->last_t || dur > (uint64_t)(tr->last_t - t))) {
		snprintf(tr->why, sizeof(tr->why), "%s at t=%" PRId64 " of %" PRIu64 " ns ends after the "
			 "last event read (t=%" PRId64 "): a wait is written once decided",
			 ls_kind_name(rec->kind), t, dur, tr->last_t);
		*why = tr->why;
		return LS_ERR_SYNTAX;
	}
	return 0;
}

struct an_frame *an_trace_enter(struct an_trace *tr, const struct an_event *ev, int *rc)
{
	struct an_frame *f;

	if (!(f = an_stack_push(&tr->stacks[ev->s]))) {
		*rc = LS_ERR_NOMEM;
		return NULL;
	}
	*f = (struct an_frame){ ev->id, ev->t, ev->r, tr->defs.roles[ev->r], 0, 0, 0 };
	return f;
}

struct an_frame *an_trace_leave(struct an_trace *tr, const struct an_event *ev)
{
	uint32_t skipped;
	struct an_frame *f;

	if (!(f = an_stack_match(&tr->stacks[ev->s], ev->r, &skipped))) {
		tr->unbalanced++;
		return NULL;
	}
	tr->unbalanced += skipped;
	return f;
}

uint64_t an_trace_finish(struct an_trace *tr)
{
	for (uint32_t s = 0; s < tr->defs.nstreams; s++)
		tr->unbalanced += tr->stacks[s].n;
	return tr->unbalanced;
}

void an_trace_release(struct an_trace *tr)
{
	for (uint32_t s = 0; s < tr->defs.nstreams; s++)
		an_stack_release(&tr->stacks[s]);
	free(tr->stacks);
	ls_idset_release(&tr->ids);
	ls_defs_release(&tr->defs);
	an_trace_init(tr);
}
