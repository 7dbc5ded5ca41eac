/*
 * Writing a record stream: records passed on byte for byte, or built with
 * msgpack-c's packer; msgpack or NDJSON out.
 */
#ifndef LS_WRITER_H
#define LS_WRITER_H

#include <stdbool.h>
#include <stdint.h>

#include <msgpack.h>

#include "buf.h"
#include "reader.h"
#include "record.h"

struct ls_writer {
	int fd;
	enum ls_format format;
	struct ls_buf out;	/* bytes not yet written to fd */
	struct ls_buf rec;	/* the record being built */
	msgpack_packer pk;	/* packs into rec */
	int err;		/* errno of the first failed write, else 0 */
	bool oom;		/* building the current record ran out of memory */
};

/* Write to fd in format (LS_FMT_MSGPACK or LS_FMT_JSON). Allocates nothing. */
void ls_writer_init(struct ls_writer *w, int fd, enum ls_format format);

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
 * Build a record: ls_build_begin returns the packer (pack a map with
 * msgpack-c, e.g. with the ls_pack_* helpers), ls_build_end writes it as
 * ls_write_raw does.
 */
msgpack_packer *ls_build_begin(struct ls_writer *w);
int ls_build_end(struct ls_writer *w);

/* Pack a key and its value. */
void ls_pack_key(msgpack_packer *pk, enum ls_field f);
void ls_pack_str(msgpack_packer *pk, enum ls_field f, const char *s);
void ls_pack_u64(msgpack_packer *pk, enum ls_field f, uint64_t v);
void ls_pack_i64(msgpack_packer *pk, enum ls_field f, int64_t v);
/* Copy field f of rec (key and value) as it is; it must be present. */
void ls_pack_field(msgpack_packer *pk, const struct ls_record *rec,
		   enum ls_field f);

/* Write a fresh header: this version, producer, and source if not NULL. */
int ls_write_header(struct ls_writer *w, const char *producer,
		    const char *source);

/* Write out everything buffered. Returns 0 or LS_ERR_IO. */
int ls_writer_flush(struct ls_writer *w);

/* Free the buffers (without flushing). */
void ls_writer_release(struct ls_writer *w);

#endif
