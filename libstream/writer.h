/*
 * Writing a record stream: records passed on byte for byte, or built field
 * by field in canonical msgpack; msgpack or NDJSON out.
 */
#ifndef LS_WRITER_H
#define LS_WRITER_H

#include <stdbool.h>
#include <stdint.h>

#include "buf.h"
#include "enc.h"
#include "reader.h"
#include "record.h"

struct ls_writer {
	int fd;
	enum ls_format format;
	struct ls_buf out;	/* bytes not yet written to fd */
	struct ls_buf rec;	/* NDJSON output: the record being built */
	struct ls_buf *build;	/* where the record being built goes */
	size_t start;		/* where in *build it starts */
	bool oom;		/* building it ran out of memory */
	int err;		/* errno of the first failed write, else 0 */
	uint64_t flushes;	/* times out was written to fd (or handed to sink) */
	/* where not NULL: takes out's bytes instead of fd (ls_writer_init_sink) */
	int (*sink)(void *ctx, struct ls_buf *out);
	void *sink_ctx;
	size_t flush_at;	/* bytes held before they are written (or handed on) */
	uint64_t repaired;	/* strings written with U+FFFD for bytes not UTF-8 */
};

/* Where the output stands: a mark to take back what follows it. */
struct ls_writer_mark {
	size_t len;
	uint64_t flushes;
};

static inline struct ls_writer_mark ls_writer_mark(const struct ls_writer *w)
{
	return (struct ls_writer_mark){ w->out.len, w->flushes };
}

/*
 * Take back everything written since mark m, if it has not left the
 * buffer yet. Returns true if it could.
 */
static inline bool ls_writer_unwrite(struct ls_writer *w, struct ls_writer_mark m)
{
	if (m.flushes != w->flushes)
		return false;
	w->out.len = m.len;
	return true;
}

/* Write to fd in format (LS_FMT_MSGPACK or LS_FMT_JSON). Allocates nothing. */
void ls_writer_init(struct ls_writer *w, int fd, enum ls_format format);

/*
 * Write msgpack to sink instead of a file: every size bytes of whole
 * records and at ls_writer_flush, sink is given the buffer; it takes the
 * bytes (leaving out empty, swapped for another buffer or not) and
 * returns 0, or a negative error the writes return.
 */
void ls_writer_init_sink(struct ls_writer *w, int (*sink)(void *ctx, struct ls_buf *out), void *ctx,
			 size_t size);

/*
 * Write msgpack into memory only: out grows until its owner takes the
 * bytes (out.len whole records); ls_writer_flush does nothing.
 */
void ls_writer_init_memory(struct ls_writer *w);

/*
 * Write one complete record given as msgpack bytes (unchanged, or converted
 * to a JSON line). Returns 0, LS_ERR_JSON if it has no JSON form,
 * LS_ERR_NOMEM, or LS_ERR_IO (w->err says why).
 */
int ls_write_raw(struct ls_writer *w, const uint8_t *p, size_t n);

static inline int ls_write_record(struct ls_writer *w,
				  const struct ls_record *rec)
{
	return ls_write_raw(w, rec->raw, rec->len);
}

/*
 * Build a record: ls_build_begin with its number of fields, one ls_put_*
 * per field, then ls_build_end, which writes it as ls_write_raw does (and
 * returns what it returns). In msgpack the record is built in place in the
 * output buffer.
 */
static inline void ls_build_begin(struct ls_writer *w, uint32_t nfields)
{
	if (w->format == LS_FMT_JSON) {
		w->rec.len = 0;
		w->build = &w->rec;
	} else {
		w->build = &w->out;
	}
	w->start = w->build->len;
	w->oom = ls_enc_map(w->build, nfields) < 0;
}

int ls_build_end(struct ls_writer *w);

/*
 * Append len bytes of a 16-byte padded, pre-encoded piece: all 16 are
 * copied (a fixed-size copy is a move or two, not a call), len are kept.
 */
static inline void ls_put_padded(struct ls_writer *w, const uint8_t *piece,
				 size_t room, uint8_t len)
{
	uint8_t *p = ls_enc_room(w->build, room);

	if (!p) {
		w->oom = true;
		return;
	}
	memcpy(p, piece, room);
	w->build->len -= room - len;
}

static inline void ls_put_key(struct ls_writer *w, enum ls_field f)
{
	ls_put_padded(w, ls_field_keys[f], sizeof(ls_field_keys[f]), ls_field_key_len[f]);
}

/*
 * Key and integer with one room check and one store of the length: the
 * put of every id, time and stream.
 */
static inline uint8_t *ls_put_int_room(struct ls_writer *w, enum ls_field f)
{
	struct ls_buf *b = w->build;
	uint8_t *p;

	if (b->cap - b->len < 32 && ls_buf_grow(b, 32) < 0) {
		w->oom = true;
		return NULL;
	}
	p = b->p + b->len;
	memcpy(p, ls_field_keys[f], sizeof(ls_field_keys[f]));
	return p + ls_field_key_len[f];
}

static inline void ls_put_u64(struct ls_writer *w, enum ls_field f, uint64_t v)
{
	uint8_t *p = ls_put_int_room(w, f);

	if (p)
		w->build->len = (size_t)(ls_enc_uint_at(p, v) - w->build->p);
}

static inline void ls_put_i64(struct ls_writer *w, enum ls_field f, int64_t v)
{
	uint8_t *p = ls_put_int_room(w, f);

	if (p)
		w->build->len = (size_t)(ls_enc_int_at(p, v) - w->build->p);
}

static inline void ls_put_f64(struct ls_writer *w, enum ls_field f, double v)
{
	ls_put_key(w, f);
	w->oom |= ls_enc_double(w->build, v) < 0;
}

static inline void ls_put_bool(struct ls_writer *w, enum ls_field f, bool v)
{
	ls_put_key(w, f);
	w->oom |= ls_enc_bool(w->build, v) < 0;
}

/*
 * A string value (a field's, or a map entry's key or value): a stream holds
 * UTF-8 only, so bytes that are not (a name from a trace, a file name, an
 * argument) are written as U+FFFD, and counted in w->repaired.
 */
void ls_put_text(struct ls_writer *w, const char *s);

static inline void ls_put_str(struct ls_writer *w, enum ls_field f, const char *s)
{
	ls_put_key(w, f);
	ls_put_text(w, s);
}

/* The "k" field of a known kind. */
static inline void ls_put_kind(struct ls_writer *w, enum ls_kind k)
{
	ls_put_padded(w, ls_kind_fields[k], sizeof(ls_kind_fields[k]), ls_kind_field_len[k]);
}

/* The "pattern" field of pattern p. */
static inline void ls_put_pattern(struct ls_writer *w, enum ls_pattern p)
{
	ls_put_padded(w, ls_pattern_fields[p], sizeof(ls_pattern_fields[p]),
		      ls_pattern_field_len[p]);
}

/* An array field of n items: its key and header, then n ls_put_item_u64. */
static inline void ls_put_array(struct ls_writer *w, enum ls_field f, uint32_t n)
{
	ls_put_key(w, f);
	w->oom |= ls_enc_array(w->build, n) < 0;
}

static inline void ls_put_item_u64(struct ls_writer *w, uint64_t v)
{
	w->oom |= ls_enc_uint(w->build, v) < 0;
}

/* A map field of n entries: its key and header, then n ls_put_entry_u64. */
static inline void ls_put_map(struct ls_writer *w, enum ls_field f, uint32_t n)
{
	ls_put_key(w, f);
	w->oom |= ls_enc_map(w->build, n) < 0;
}

static inline void ls_put_entry_u64(struct ls_writer *w, const char *name, uint64_t v)
{
	ls_put_text(w, name);
	w->oom |= ls_enc_uint(w->build, v) < 0;
}

/* An array of non-negative integers. */
void ls_put_uints(struct ls_writer *w, enum ls_field f, const uint32_t *v,
		  uint32_t n);

/* Append n bytes of encoded key and value as they are (a field of another record). */
static inline void ls_put_raw(struct ls_writer *w, const uint8_t *p, size_t n)
{
	w->oom |= ls_buf_add(w->build, p, n) < 0;
}

/* Copy field f of rec (key and value) as it is; it must be present. */
void ls_put_field(struct ls_writer *w, const struct ls_record *rec,
		  enum ls_field f);

/* Write out everything buffered. Returns 0 or LS_ERR_IO. */
int ls_writer_flush(struct ls_writer *w);

/*
 * As ls_writer_flush, but a sink is called even where no bytes wait: its
 * writer's owner keeps what the sink takes beside them (the front's
 * events kept typed without bytes, ls_front_typed_only).
 */
int ls_writer_hand_on(struct ls_writer *w);

/* Free the buffers (without flushing). */
void ls_writer_release(struct ls_writer *w);

#endif
