/* Writing record streams: buffering, building, NDJSON conversion. */
#include <errno.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "json.h"
#include "writer.h"

#define FLUSH_AT (256 * 1024)

/* The packer's sink: the record being built; a failure is remembered. */
static int pack_write(void *data, const char *p, size_t n)
{
	struct ls_writer *w = data;

	if (ls_buf_add(&w->rec, p, n) < 0) {
		w->oom = true;
		return -1;
	}
	return 0;
}

void ls_writer_init(struct ls_writer *w, int fd, enum ls_format format)
{
	memset(w, 0, sizeof(*w));
	w->fd = fd;
	w->format = format;
	msgpack_packer_init(&w->pk, w, pack_write);
}

int ls_writer_flush(struct ls_writer *w)
{
	size_t done = 0;

	if (w->err)
		return LS_ERR_IO;
	while (done < w->out.len) {
		ssize_t n = write(w->fd, w->out.p + done, w->out.len - done);

		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			w->err = errno;
			return LS_ERR_IO;
		}
		done += (size_t)n;
	}
	w->out.len = 0;
	return 0;
}

int ls_write_raw(struct ls_writer *w, const uint8_t *p, size_t n)
{
	int rc;

	if (w->format == LS_FMT_JSON) {
		size_t mark = w->out.len;

		rc = ls_json_print(p, p + n, &w->out);
		if (rc == 0)
			rc = ls_buf_add(&w->out, "\n", 1);
		if (rc < 0) {
			w->out.len = mark;
			return rc;
		}
	} else if ((rc = ls_buf_add(&w->out, p, n)) < 0) {
		return rc;
	}
	if (w->out.len >= FLUSH_AT)
		return ls_writer_flush(w);
	return 0;
}

msgpack_packer *ls_build_begin(struct ls_writer *w)
{
	w->rec.len = 0;
	w->oom = false;
	return &w->pk;
}

int ls_build_end(struct ls_writer *w)
{
	if (w->oom)
		return LS_ERR_NOMEM;
	return ls_write_raw(w, w->rec.p, w->rec.len);
}

void ls_pack_key(msgpack_packer *pk, enum ls_field f)
{
	const char *name = ls_field_name(f);

	msgpack_pack_str_with_body(pk, name, strlen(name));
}

void ls_pack_str(msgpack_packer *pk, enum ls_field f, const char *s)
{
	ls_pack_key(pk, f);
	msgpack_pack_str_with_body(pk, s, strlen(s));
}

void ls_pack_u64(msgpack_packer *pk, enum ls_field f, uint64_t v)
{
	ls_pack_key(pk, f);
	msgpack_pack_uint64(pk, v);
}

void ls_pack_i64(msgpack_packer *pk, enum ls_field f, int64_t v)
{
	ls_pack_key(pk, f);
	msgpack_pack_int64(pk, v);
}

void ls_pack_field(msgpack_packer *pk, const struct ls_record *rec,
		   enum ls_field f)
{
	const uint8_t *p;
	size_t n;

	if (ls_get_raw_field(rec, f, &p, &n) == 0)
		pack_write(pk->data, (const char *)p, n);
}

int ls_write_header(struct ls_writer *w, const char *producer,
		    const char *source)
{
	msgpack_packer *pk = ls_build_begin(w);

	msgpack_pack_map(pk, source ? 6 : 5);
	ls_pack_str(pk, LS_F_K, "header");
	ls_pack_u64(pk, LS_F_MAJOR, LS_VERSION_MAJOR);
	ls_pack_u64(pk, LS_F_MINOR, LS_VERSION_MINOR);
	ls_pack_str(pk, LS_F_PRODUCER, producer);
	ls_pack_str(pk, LS_F_CLOCK, "ns");
	if (source)
		ls_pack_str(pk, LS_F_SOURCE, source);
	return ls_build_end(w);
}

void ls_writer_release(struct ls_writer *w)
{
	ls_buf_release(&w->out);
	ls_buf_release(&w->rec);
}
