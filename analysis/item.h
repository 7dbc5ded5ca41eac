/*
 * What a stage takes: a record, and what the stages of this process that
 * had it before learnt of it.
 *
 * Within one process (tr-analyze's chain) a record goes from stage to
 * stage as an item. The first stage that reads an event checks it against
 * the stream's rules (an_trace_item) and keeps what it found, typed, in
 * the item: the stages after it take the event's id, time, stream,
 * process and region as found instead of reading and checking them
 * again. A record a stage of this process wrote is made: the stage that
 * wrote it keeps the contract, and what it names is not looked up again.
 * A stage that writes events it knows typed (tr-clock's, tr-project's
 * re-timed events) hands them on known, and their fields are located
 * only when a stage asks for them (an_item_rec): most stages read an
 * enter or a leave for nothing but what the typed event holds. A filter's
 * records come from its input, neither known nor made (an_item_read).
 */
#ifndef AN_ITEM_H
#define AN_ITEM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "../libstream/defs.h"
#include "../libstream/error.h"
#include "../libstream/event.h"
#include "../libstream/record.h"
#include "../libstream/writer.h"
#include "derived.h"

/* An event as the stages read it: typed, its stream, process and region as indexes of the definitions. */
struct an_event {
	enum ls_kind kind;
	uint64_t id;
	int64_t t;
	uint32_t s;		/* stream index */
	uint32_t proc;		/* its process index */
	uint32_t r;		/* an enter's or leave's region index; LS_NONE for other kinds */
};

/*
 * A derived record as its writer had it (derived.h), by the item's kind:
 * blame, edge, wait (a wait or idle record), piece (crit), share
 * (path_blame).
 */
union an_derived {
	struct an_blame blame;
	struct an_edge_rec edge;
	struct an_wait wait;
	struct an_piece piece;
	struct an_path_share share;
};

struct an_item {
	enum ls_kind kind;
	const uint8_t *raw;	/* the record's bytes */
	uint32_t len;
	/*
	 * its fields located: NULL until an_item_rec locates them in store
	 * (the item's maker's, valid as long as the item)
	 */
	const struct ls_record *view;
	struct ls_record *store;
	bool padded;		/* LS_RECORD_PAD readable bytes follow raw + len */
	/*
	 * an event as the reader wrote it, typed (its ids, not yet checked),
	 * where the process reads the trace itself; NULL: none
	 */
	const struct ls_written *read;
	bool made;		/* written by a stage of this process */
	/*
	 * an event, ev as a stage before found and checked it; a derived
	 * record, as the stage that wrote it had it (union an_derived)
	 */
	bool known;
	struct an_event ev;
	union an_derived derived;
};

/*
 * A record a stage wrote that it knows typed (an event, its ev; a derived
 * record, as union an_derived): its len bytes at byte at of what the
 * stage wrote since it was last asked.
 */
struct an_typed {
	size_t at;
	uint32_t len;
	enum ls_kind kind;
	struct an_event ev;
	union an_derived derived;
};

/*
 * The records a stage wrote typed since the runner last asked
 * (an_stage.typed). Where only (an_stage.typed_only), the stage's
 * derived records are noted and not written: their len is 0.
 */
struct an_typed_list {
	struct an_typed *v;
	uint32_t n, cap;
	bool only;
};

/* Room for one more in l: 0, or LS_ERR_NOMEM. */
int an_typed_room(struct an_typed_list *l);

/*
 * Note t (its at set: where the record begins in what w holds) as the
 * record w wrote last: 0, or LS_ERR_NOMEM.
 */
static inline int an_typed_note(struct an_typed_list *l, const struct ls_writer *w, struct an_typed t)
{
	if (l->n == l->cap && an_typed_room(l) < 0)
		return LS_ERR_NOMEM;
	t.len = (uint32_t)(w->out.len - t.at);
	l->v[l->n++] = t;
	return 0;
}

/* What was noted since the last call, *n of them; the list is empty after. */
static inline const struct an_typed *an_typed_take(struct an_typed_list *l, size_t *n)
{
	*n = l->n;
	l->n = 0;
	return l->v;
}

/* A record whose fields are located (read from a stage's input, or parsed by its maker). */
static inline struct an_item an_item_of(const struct ls_record *rec, bool made)
{
	return (struct an_item){ .kind = rec->kind, .raw = rec->raw, .len = rec->len, .view = rec,
				 .made = made };
}

/* A record read from a stage's input. */
static inline struct an_item an_item_read(const struct ls_record *rec)
{
	return an_item_of(rec, false);
}

/*
 * The item's record with its fields located (on the first call where its
 * maker did not locate them). NULL only where its bytes are no record,
 * which a stage's own writer never makes.
 */
static inline const struct ls_record *an_item_rec(struct an_item *it)
{
	const char *why;

	if (!it->view && (it->padded ? ls_record_parse_padded : ls_record_parse)(it->store, it->raw,
			 it->raw + it->len, 0, &why) == (long)it->len)
		it->view = it->store;
	return it->view;
}

/* The time of an event item: 0, or LS_ERR_ABSENT where it has none (its record's "t" is no time). */
static inline int an_item_time(struct an_item *it, int64_t *t)
{
	const struct ls_record *rec;

	if (it->known) {
		*t = it->ev.t;
		return 0;
	}
	return (rec = an_item_rec(it)) && ls_get_i64(rec, LS_F_T, t) == 0 ? 0 : LS_ERR_ABSENT;
}

/*
 * An edge item's edge, as its writer had it or read from its record: 0
 * (an unknown type LS_E__COUNT); 1 where the record gives no valid 'from'
 * or 'to'; 2 where it gives them and no valid 'type' (LS_E__COUNT); or
 * LS_ERR_SYNTAX with *why set where its bytes are no record.
 */
int an_item_edge(struct an_item *it, struct an_edge_rec *e, const char **why);

/* Whether edge item it gives the event it leads to, in *to. */
static inline bool an_item_edge_to(struct an_item *it, uint64_t *to)
{
	const struct ls_record *rec;

	if (it->known) {
		*to = it->derived.edge.to;
		return true;
	}
	return (rec = an_item_rec(it)) && ls_get_u64(rec, LS_F_TO, to) == 0;
}

/*
 * The reader's typed event w's field f, of those its rules read (a
 * message's peer, tag and comm; a collective's comm, req and root; a GPU
 * call's ref_stream, wait_stream, cuda_event, corr and result): 1 with
 * its value in *v (a signed one's bits), 0 where the event has none, -1
 * where f is none of those (its record's to read).
 */
static inline int an_read_field(const struct ls_written *w, enum ls_field f, uint64_t *v)
{
	const struct ls_event *e = &w->ev;
	bool msg = e->kind == LS_K_SEND || e->kind == LS_K_RECV;

	switch (f) {
	case LS_F_PEER: *v = e->peer; return msg;
	case LS_F_TAG: *v = (uint64_t)e->tag; return msg;
	case LS_F_COMM: *v = e->comm; return msg || e->kind == LS_K_COLL_END;
	case LS_F_REQ: *v = e->req; return (e->fields & LS_EF_REQ) != 0;
	case LS_F_ROOT: *v = e->root; return (e->fields & LS_EF_ROOT) != 0;
	case LS_F_REF_STREAM: *v = e->ref_stream; return (e->fields & LS_EF_REF_STREAM) != 0;
	case LS_F_WAIT_STREAM: *v = e->wait_stream; return (e->fields & LS_EF_WAIT_STREAM) != 0;
	case LS_F_CUDA_EVENT: *v = e->cuda_event; return (e->fields & LS_EF_CUDA_EVENT) != 0;
	case LS_F_CORR: *v = e->corr; return (e->fields & LS_EF_CORR) != 0;
	case LS_F_RESULT: *v = (uint64_t)e->result; return (e->fields & LS_EF_RESULT) != 0;
	default: return -1;
	}
}

/* Whether f is a signed field (ls_get_i64's). */
static inline bool an_signed_field(enum ls_field f)
{
	return f == LS_F_TAG || f == LS_F_RESULT;
}

/* Whether event item it has field f: as the reader gave it typed, or its record. */
static inline bool an_item_has(struct an_item *it, enum ls_field f)
{
	const struct ls_record *rec;
	uint64_t v;
	int given;

	if (it->read && (given = an_read_field(it->read, f, &v)) >= 0)
		return given;
	return (rec = an_item_rec(it)) && ls_has(rec, f);
}

/* Event item it's field f as ls_get_u64 reads it from its record (typed, where the reader gave it so). */
static inline int an_item_u64(struct an_item *it, enum ls_field f, uint64_t *v)
{
	const struct ls_record *rec;
	int given;

	if (it->read && !an_signed_field(f) && (given = an_read_field(it->read, f, v)) >= 0)
		return given ? 0 : LS_ERR_ABSENT;
	return (rec = an_item_rec(it)) ? ls_get_u64(rec, f, v) : LS_ERR_ABSENT;
}

/* Event item it's field f as ls_get_i64 reads it (typed, where the reader gave it so). */
static inline int an_item_i64(struct an_item *it, enum ls_field f, int64_t *v)
{
	const struct ls_record *rec;
	uint64_t u;
	int given;

	if (it->read && an_signed_field(f) && (given = an_read_field(it->read, f, &u)) >= 0) {
		*v = (int64_t)u;
		return given ? 0 : LS_ERR_ABSENT;
	}
	return (rec = an_item_rec(it)) ? ls_get_i64(rec, f, v) : LS_ERR_ABSENT;
}

/*
 * Event item it's string field f as ls_get_str reads it: from its record
 * (a reader's names, a coll_end's op, need not outlive its writing).
 */
static inline int an_item_str(struct an_item *it, enum ls_field f, const char **s, uint32_t *n)
{
	const struct ls_record *rec;

	return (rec = an_item_rec(it)) ? ls_get_str(rec, f, s, n) : LS_ERR_ABSENT;
}

/*
 * The index of the definition event item it's field f names (in m), or
 * LS_NONE with *why set to problem: ls_defs_field's, typed where the
 * reader gave it so.
 */
static inline uint32_t an_item_index(struct an_item *it, const struct ls_idmap *m, enum ls_field f,
				     const char *problem, const char **why)
{
	uint64_t id = 0;
	int got = an_item_u64(it, f, &id);

	return ls_defs_named(m, got, id, problem, why);
}

/* *rec the item's record (an_item_rec): 0, or LS_ERR_SYNTAX with *why where its bytes are no record. */
static inline int an_item_need(struct an_item *it, const struct ls_record **rec, const char **why)
{
	if (!(*rec = an_item_rec(it))) {
		*why = "a record that does not parse";
		return LS_ERR_SYNTAX;
	}
	return 0;
}

#ifdef LS_CHECK_BUILD
/*
 * Whether what the item holds typed (known, or as the reader wrote it)
 * is what its record rec (its bytes, located) says: the check of DEV
 * builds that a typed item goes on as the record it stands for.
 */
static inline bool an_item_agrees(const struct an_item *it, const struct ls_record *rec)
{
	uint64_t id = 0, to = 0, ns = 0, wait = 0;
	int64_t t = 0;

	if (rec->kind != it->kind || rec->len != it->len)
		return false;
	if (it->read) {
		static const enum ls_field typed[] = {
			LS_F_PEER, LS_F_TAG, LS_F_COMM, LS_F_REQ, LS_F_ROOT, LS_F_REF_STREAM, LS_F_WAIT_STREAM,
			LS_F_CUDA_EVENT, LS_F_CORR, LS_F_RESULT,
		};
		uint64_t v = 0, given = 0;

		for (size_t k = 0; k < sizeof(typed) / sizeof(*typed); k++) {
			int has = an_read_field(it->read, typed[k], &v);

			if (ls_has(rec, typed[k]) != (has == 1))
				return false;
			if (has == 1 && an_signed_field(typed[k]) ?
			    ls_get_i64(rec, typed[k], &t) < 0 || (uint64_t)t != v :
			    has == 1 && (ls_get_u64(rec, typed[k], &given) < 0 || given != v))
				return false;
		}
		ls_get_u64(rec, LS_F_ID, &id);
		ls_get_i64(rec, LS_F_T, &t);
		return id == it->read->id && t == it->read->ev.t && it->read->ev.kind == it->kind;
	}
	if (it->known && it->kind == LS_K_BLAME) {
		ls_get_u64(rec, LS_F_TO, &to);
		ls_get_u64(rec, LS_F_NS, &ns);
		ls_get_u64(rec, LS_F_WAIT, &wait);
		return to == it->derived.blame.to && ns == it->derived.blame.ns &&
		       wait == it->derived.blame.wait;
	}
	if (it->known && it->kind == LS_K_EDGE) {
		ls_get_u64(rec, LS_F_FROM, &id);
		ls_get_u64(rec, LS_F_TO, &to);
		return id == it->derived.edge.from && to == it->derived.edge.to;
	}
	if (it->known && (it->kind == LS_K_WAIT || it->kind == LS_K_IDLE)) {
		ls_get_u64(rec, LS_F_AT, &id);
		ls_get_i64(rec, LS_F_T, &t);
		ls_get_u64(rec, LS_F_DUR, &ns);
		ls_get_u64(rec, LS_F_CAUSE, &to);
		return id == it->derived.wait.at && t == it->derived.wait.t && ns == it->derived.wait.dur &&
		       ls_has(rec, LS_F_CAUSE) == it->derived.wait.has_cause &&
		       (!it->derived.wait.has_cause || to == it->derived.wait.cause);
	}
	if (it->known && it->kind == LS_K_CRIT) {
		ls_get_i64(rec, LS_F_T, &t);
		ls_get_u64(rec, LS_F_DUR, &ns);
		return t == it->derived.piece.t && ns == it->derived.piece.dur &&
		       ls_has(rec, LS_F_R) == (it->derived.piece.r != LS_NONE);
	}
	if (it->known && it->kind == LS_K_PATH_BLAME) {
		ls_get_u64(rec, LS_F_ACT, &id);
		ls_get_u64(rec, LS_F_NS, &ns);
		return id == it->derived.share.act && ns == it->derived.share.ns &&
		       ls_has(rec, LS_F_IDLE) == it->derived.share.idle;
	}
	if (it->known) {
		ls_get_u64(rec, LS_F_ID, &id);
		ls_get_i64(rec, LS_F_T, &t);
		return id == it->ev.id && t == it->ev.t && it->ev.kind == it->kind;
	}
	return true;
}
#endif

#endif
