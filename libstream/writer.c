/* Writing record streams: buffering, building, NDJSON conversion. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "error.h"
#include "fd.h"
#include "json.h"
#include "mp.h"
#include "pipe.h"
#include "utf8.h"
#include "writer.h"

#define FLUSH_AT (256 * 1024)

void ls_writer_init(struct ls_writer *w, int fd, enum ls_format format)
{
	memset(w, 0, sizeof(*w));
	w->fd = fd;
	w->format = format;
	w->build = &w->out;
	w->flush_at = FLUSH_AT;
	ls_pipe_widen(fd);
}

void ls_writer_init_sink(struct ls_writer *w, int (*sink)(void *ctx, struct ls_buf *out), void *ctx,
			 size_t size)
{
	memset(w, 0, sizeof(*w));
	w->fd = -1;
	w->format = LS_FMT_MSGPACK;
	w->build = &w->out;
	w->sink = sink;
	w->sink_ctx = ctx;
	w->flush_at = size;
}

void ls_writer_init_memory(struct ls_writer *w)
{
	ls_writer_init_sink(w, NULL, NULL, 0);
}

/*
 * Hand the buffer to the sink (an empty one too, where empty_too): 0, or
 * its error (kept, as a file's is).
 */
static int to_sink(struct ls_writer *w, bool empty_too)
{
	int rc;

	if (w->err)
		return LS_ERR_IO;
	if (!w->out.len && !empty_too)
		return 0;
	if ((rc = w->sink(w->sink_ctx, &w->out)) < 0) {
		w->err = EPIPE;
		return rc;
	}
	w->flushes++;
	return 0;
}

int ls_writer_hand_on(struct ls_writer *w)
{
	return w->sink ? to_sink(w, true) : ls_writer_flush(w);
}

int ls_writer_flush(struct ls_writer *w)
{
	if (w->sink)
		return to_sink(w, false);
	if (w->fd < 0)
		return 0;	/* memory only */
	if (w->err)
		return LS_ERR_IO;
	if (ls_write_all(w->fd, w->out.p, w->out.len) < 0) {
		w->err = errno;
		return LS_ERR_IO;
	}
	w->flushes += w->out.len > 0;
	w->out.len = 0;
	return 0;
}

static int maybe_flush(struct ls_writer *w)
{
	return w->out.len >= w->flush_at && (w->fd >= 0 || w->sink) ? ls_writer_flush(w) : 0;
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
	return maybe_flush(w);
}

#ifdef LS_CHECK_BUILD
/*
 * The record built must hold exactly the fields ls_build_begin was told
 * of: one more or less and the map swallows or loses the next record.
 * Checked in development and sanitizer builds (make DEV=1, SANITIZE=...).
 */
static void check_built(const struct ls_writer *w)
{
	const uint8_t *p = w->build->p + w->start, *end = w->build->p + w->build->len;
	struct mp_item it;
	long n = mp_head(p, end, &it);

	if (n > 0 && it.type != MP_MAP)
		n = -1;
	for (uint32_t i = 0; n > 0 && i < 2 * it.v.n; i++) {
		long m = mp_skip(p + n, end);

		n = m > 0 ? n + m : -1;
	}
	if (n <= 0 || p + n != end) {
		fprintf(stderr, "ls_build_end: the record built does not hold the %u fields "
			"ls_build_begin was given\n", (unsigned)it.v.n);
		abort();
	}
}
#endif

int ls_build_end(struct ls_writer *w)
{
	if (w->oom) {
		w->build->len = w->start;
		return LS_ERR_NOMEM;
	}
#ifdef LS_CHECK_BUILD
	check_built(w);
#endif
	if (w->format == LS_FMT_JSON)
		return ls_write_raw(w, w->rec.p, w->rec.len);
	return maybe_flush(w);
}

void ls_put_text(struct ls_writer *w, const char *s)
{
	size_t n = strlen(s), m;
	char *fixed;

	if (ls_utf8_valid(s, n)) {
		w->oom |= ls_enc_str(w->build, s, n) < 0;
		return;
	}
	w->repaired++;
	m = ls_utf8_repaired_len(s, n);
	if (!(fixed = malloc(m))) {
		w->oom = true;
		return;
	}
	ls_utf8_repair_to(fixed, s, n);
	w->oom |= ls_enc_str(w->build, fixed, m) < 0;
	free(fixed);
}

void ls_put_uints(struct ls_writer *w, enum ls_field f, const uint32_t *v,
		  uint32_t n)
{
	ls_put_array(w, f, n);
	for (uint32_t i = 0; i < n; i++)
		ls_put_item_u64(w, v[i]);
}

void ls_put_field(struct ls_writer *w, const struct ls_record *rec,
		  enum ls_field f)
{
	const uint8_t *p;
	size_t n;

	if (ls_get_raw_field(rec, f, &p, &n) == 0)
		w->oom |= ls_buf_add(w->build, p, n) < 0;
}

void ls_writer_release(struct ls_writer *w)
{
	ls_buf_release(&w->out);
	ls_buf_release(&w->rec);
}
