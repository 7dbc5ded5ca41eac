/*
 * The OTF2 writer's life: the two passes over the records, the archive,
 * the string table every definition names its strings from.
 */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../libstream/error.h"
#include "../../libstream/header.h"
#include "../../libstream/vec.h"
#include "errors.h"
#include "otf2out_private.h"

int otf2out_fail(struct otf2out *o, int code, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(o->err, sizeof(o->err), fmt, ap);
	va_end(ap);
	return code;
}

int otf2out_sorted_failed(struct otf2out *o, const struct out_sorted *x, int rc)
{
	char why[320];

	if (rc == LS_ERR_NOMEM)
		return otf2out_fail(o, rc, "out of memory");
	return otf2out_fail(o, LS_ERR_IO, "cannot keep what goes on the streams in %s",
			    out_sorted_error(x, why, sizeof(why)));
}

struct otf2out *otf2out_new(void)
{
	struct otf2out *o = calloc(1, sizeof(*o));

	if (!o)
		return NULL;
	ls_defs_init(&o->defs);
	o->samples.fd = o->blame.fd = -1;
	if (out_sorted_init(&o->samples, sizeof(struct out_sample), otf2out_sample_order) < 0 ||
	    out_sorted_init(&o->blame, sizeof(struct out_blame), otf2out_blame_order) < 0 ||
	    otf2out_string(o, "", 0) == NONE) {	/* ref 0: the empty string */
		out_sorted_release(&o->samples);
		out_sorted_release(&o->blame);
		free(o);
		return NULL;
	}
	return o;
}

static uint32_t string_hash(const char *s, uint32_t n)
{
	uint32_t h = 2166136261u;

	for (uint32_t i = 0; i < n; i++)
		h = (h ^ (uint8_t)s[i]) * 16777619u;
	return h;
}

static int strings_grow(struct out_strings *t)
{
	uint32_t size = t->mask ? 2 * (t->mask + 1) : 64;
	uint32_t *slot = calloc(size, sizeof(*slot));

	if (!slot)
		return LS_ERR_NOMEM;
	for (uint32_t i = 0; i < t->n; i++) {
		uint32_t h = string_hash(t->v[i], (uint32_t)strlen(t->v[i])) & (size - 1);

		while (slot[h])
			h = (h + 1) & (size - 1);
		slot[h] = i + 1;
	}
	free(t->slot);
	t->slot = slot;
	t->mask = size - 1;
	return 0;
}

OTF2_StringRef otf2out_string(struct otf2out *o, const char *s, uint32_t n)
{
	struct out_strings *t = &o->strings;
	uint32_t h;
	char *copy;

	n = (uint32_t)strnlen(s, n);	/* an OTF2 string ends at a NUL byte */
	if (n > OTF2OUT_STRING_MAX) {	/* a definitions chunk holds it, cut at a character */
		n = OTF2OUT_STRING_MAX;
		while (n && ((uint8_t)s[n] & 0xc0) == 0x80)
			n--;
		o->report.cut_strings++;
	}
	if ((t->n + 1) * 2 > t->mask && strings_grow(t) < 0)
		return NONE;
	for (h = string_hash(s, n) & t->mask; t->slot[h]; h = (h + 1) & t->mask) {
		const char *have = t->v[t->slot[h] - 1];

		if (strncmp(have, s, n) == 0 && have[n] == '\0')
			return t->slot[h] - 1;
	}
	if (ls_vec_room(&t->v, &t->cap, t->n, sizeof(*t->v)) < 0)
		return NONE;
	if (!(copy = strndup(s, n)))
		return NONE;
	t->v[t->n] = copy;
	t->slot[h] = ++t->n;
	return t->n - 1;
}

int otf2out_take(struct otf2out *o, const struct ls_record *rec)
{
	const struct ls_kind_spec *spec = ls_kind_spec(rec->kind);

	switch (spec ? spec->cls : LS_C_UNKNOWN) {
	case LS_C_HEADER:
		o->has_epoch = ls_get_i64(rec, LS_F_EPOCH, &o->epoch) == 0;
		/* the trace's own length, where no stage has re-timed its events since */
		if (ls_get_u64(rec, LS_F_LENGTH, &o->length) < 0 ||
		    ls_header_has_stage(rec, "tr-project") == 1)
			o->length = 0;
		return 0;
	case LS_C_DEF:
		return otf2out_take_definition(o, rec);
	case LS_C_EVENT:
		return otf2out_take_event(o, rec);
	case LS_C_DERIVED:
		if (rec->kind == LS_K_CRIT || rec->kind == LS_K_WAIT || rec->kind == LS_K_IDLE ||
		    rec->kind == LS_K_BLAME)
			return otf2out_take_result(o, rec);
		o->report.left_out[rec->kind]++;
		return 0;
	default:
		o->report.left_out[0]++;
		return 0;
	}
}

static OTF2_FlushType pre_flush(void *data, OTF2_FileType type, OTF2_LocationRef loc,
				void *caller, bool final)
{
	(void)data, (void)type, (void)loc, (void)caller, (void)final;
	return OTF2_FLUSH;
}

static OTF2_TimeStamp post_flush(void *data, OTF2_FileType type, OTF2_LocationRef loc)
{
	(void)data, (void)type, (void)loc;
	return OTF2_UNDEFINED_TIMESTAMP;	/* no flush records in the events */
}

/*
 * Event chunks: libotf2 keeps up to 128 MiB per location before it writes
 * any by default. Here a location holds at most OTF2OUT_CHUNKS chunks;
 * asking for one more makes libotf2 write them out and free them.
 */

struct chunks {
	void *v[OTF2OUT_CHUNKS];
	unsigned n;
};

static void *chunk_allocate(void *data, OTF2_FileType type, OTF2_LocationRef loc,
			    void **per_buffer, uint64_t size)
{
	struct chunks *c = *per_buffer;

	(void)data, (void)type, (void)loc;
	if (!c && !(c = *per_buffer = calloc(1, sizeof(*c))))
		return NULL;
	if (c->n == OTF2OUT_CHUNKS || !(c->v[c->n] = malloc(size)))
		return NULL;	/* full: libotf2 writes the chunks out, frees them, asks again */
	return c->v[c->n++];
}

static void chunk_free_all(void *data, OTF2_FileType type, OTF2_LocationRef loc,
			   void **per_buffer, bool final)
{
	struct chunks *c = *per_buffer;

	(void)data, (void)type, (void)loc;
	if (!c)
		return;
	while (c->n)
		free(c->v[--c->n]);
	if (final) {
		free(c);
		*per_buffer = NULL;
	}
}

int otf2out_open(struct otf2out *o, const char *dir, const char *name)
{
	static const OTF2_FlushCallbacks flush = { pre_flush, post_flush };
	static const OTF2_MemoryCallbacks memory = { chunk_allocate, chunk_free_all };
	int rc;

	OTF2_Error_RegisterCallback(otf2_keep_first_error, o->otf2_msg);
	if ((rc = otf2out_place_samples(o)) < 0 || (rc = otf2out_place_locations(o)) < 0)
		return rc;
	/* the analysis metrics the run has after the counters, their refs without gaps (OTF2 reads them in order) */
	for (uint32_t m = 0, next = o->metric_base; m < M__COUNT; m++)
		o->metric_ref[m] = o->metrics[m] ? next++ : NONE;
	otf2out_number_attributes(o);
	otf2out_place_windows(o);
	o->shift = o->any_event && o->min_t < 0 ? (uint64_t)-o->min_t : 0;
	o->attrs = OTF2_AttributeList_New();
	o->archive = OTF2_Archive_Open(dir, name, OTF2_FILEMODE_WRITE, OTF2OUT_CHUNK_SIZE, 4 * OTF2OUT_CHUNK_SIZE,
				       OTF2_SUBSTRATE_POSIX, OTF2_COMPRESSION_NONE);
	if (!o->attrs || !o->archive ||
	    OTF2_Archive_SetFlushCallbacks(o->archive, &flush, NULL) != OTF2_SUCCESS ||
	    OTF2_Archive_SetMemoryCallbacks(o->archive, &memory, NULL) != OTF2_SUCCESS ||
	    OTF2_Archive_SetSerialCollectiveCallbacks(o->archive) != OTF2_SUCCESS ||
	    OTF2_Archive_SetCreator(o->archive, "tr-otf2 " TR_VERSION) != OTF2_SUCCESS ||
	    OTF2_Archive_OpenEvtFiles(o->archive) != OTF2_SUCCESS)
		return otf2out_fail(o, LS_ERR_IO, "cannot create the archive: %s",
				    o->otf2_msg[0] ? o->otf2_msg : "libotf2 failed");
	return 0;
}

int otf2out_write(struct otf2out *o, const struct ls_record *rec)
{
	const struct ls_kind_spec *spec = ls_kind_spec(rec->kind);

	if (spec && spec->cls == LS_C_EVENT)
		return otf2out_write_event(o, rec);
	return 0;
}

OTF2_EvtWriter *otf2out_writer(struct otf2out *o, uint32_t s)
{
	struct out_stream *st = &o->streams[s];

	if (!st->w)
		st->w = OTF2_Archive_GetEvtWriter(o->archive, st->loc);
	return st->w;
}

/* The streams a round writes: as many as the buffers allow. */
static uint32_t per_round(const struct otf2out *o)
{
	uint64_t n = OTF2OUT_BUFFERS / ((uint64_t)OTF2OUT_CHUNKS * OTF2OUT_CHUNK_SIZE);

	(void)o;
	return n > UINT32_MAX ? UINT32_MAX : (uint32_t)n;
}

uint32_t otf2out_rounds(const struct otf2out *o)
{
	uint32_t n = o->defs.nstreams, per = per_round(o);

	return n ? (n + per - 1) / per : 1;
}

int otf2out_begin_round(struct otf2out *o, uint32_t round)
{
	uint64_t from = (uint64_t)round * per_round(o), to = from + per_round(o);

	o->round_from = (uint32_t)(from < o->defs.nstreams ? from : o->defs.nstreams);
	o->round_to = (uint32_t)(to < o->defs.nstreams ? to : o->defs.nstreams);
	/* lock orders count every stream's acquires, each round again */
	o->acquires = 0;
	ls_idmap_clear(&o->lock_order);
	for (uint32_t s = o->round_from; s < o->round_to; s++)
		if (out_cursor_open(&o->samples, &o->streams[s].samples, s) < 0 ||
		    out_cursor_open(&o->blame, &o->streams[s].blame, s) < 0)
			return otf2out_fail(o, LS_ERR_NOMEM, "out of memory");
	return 0;
}

/* Blame never written at a leave: of activities left open, and of those after the last enter. */
static int count_unplaced(struct otf2out *o, uint32_t s)
{
	struct out_stream *st = &o->streams[s];

	for (uint32_t d = 0; d < st->depth; d++)
		o->report.blame_unplaced += st->stack[d].blamed;
	while (out_cursor_peek(&o->blame, &st->blame)) {
		o->report.blame_unplaced++;
		out_cursor_skip(&st->blame);
	}
	out_cursor_close(&st->samples);
	out_cursor_close(&st->blame);
	return o->blame.err ? otf2out_sorted_failed(o, &o->blame, LS_ERR_IO) : 0;
}

int otf2out_end_round(struct otf2out *o)
{
	int rc = 0;

	for (uint32_t s = o->round_from; s < o->round_to && rc == 0; s++) {
		if (otf2out_write_samples(o, s, INT64_MAX) < 0 || count_unplaced(o, s) < 0 ||
		    !otf2out_writer(o, s)) {	/* an event file even where there are no events */
			rc = LS_ERR_IO;
			break;
		}
		OTF2_EvtWriter_GetNumberOfEvents(o->streams[s].w, &o->streams[s].events);
		if (OTF2_Archive_CloseEvtWriter(o->archive, o->streams[s].w) != OTF2_SUCCESS)
			rc = LS_ERR_IO;
		o->streams[s].w = NULL;
	}
	if (rc < 0 && o->err[0] == '\0')
		otf2out_fail(o, rc, "cannot write the archive: %s",
			     o->otf2_msg[0] ? o->otf2_msg : "libotf2 failed");
	return rc;
}

/* Every stream's (empty) local definitions, its events written by the rounds. */
static int close_locations(struct otf2out *o)
{
	if (OTF2_Archive_CloseEvtFiles(o->archive) != OTF2_SUCCESS ||
	    OTF2_Archive_OpenDefFiles(o->archive) != OTF2_SUCCESS)
		return LS_ERR_IO;
	for (uint32_t s = 0; s < o->defs.nstreams; s++) {
		OTF2_DefWriter *d = OTF2_Archive_GetDefWriter(o->archive, o->streams[s].loc);
		if (!d || OTF2_Archive_CloseDefWriter(o->archive, d) != OTF2_SUCCESS)
			return LS_ERR_IO;
	}
	return OTF2_Archive_CloseDefFiles(o->archive) == OTF2_SUCCESS ? 0 : LS_ERR_IO;
}

int otf2out_close(struct otf2out *o)
{
	int rc = close_locations(o);

	if (rc == 0)
		rc = otf2out_write_definitions(o);
	if (o->err[0] == '\0' && rc < 0)
		otf2out_fail(o, rc, "cannot write the archive: %s",
			     o->otf2_msg[0] ? o->otf2_msg : "libotf2 failed");
	if (OTF2_Archive_Close(o->archive) != OTF2_SUCCESS && rc == 0)
		rc = otf2out_fail(o, LS_ERR_IO, "cannot close the archive: %s",
				  o->otf2_msg[0] ? o->otf2_msg : "libotf2 failed");
	o->archive = NULL;
	return rc;
}

const char *otf2out_error(const struct otf2out *o)
{
	return o->err;
}

const struct otf2out_report *otf2out_report(const struct otf2out *o)
{
	return &o->report;
}

void otf2out_free(struct otf2out *o)
{
	if (!o)
		return;
	/* after a failure: libotf2 frees a writer only when it is closed */
	for (uint32_t s = 0; o->archive && s < o->defs.nstreams; s++)
		if (o->streams[s].w)
			OTF2_Archive_CloseEvtWriter(o->archive, o->streams[s].w);
	if (o->archive)
		OTF2_Archive_Close(o->archive);
	if (o->attrs)
		OTF2_AttributeList_Delete(o->attrs);
	for (uint32_t i = 0; i < o->strings.n; i++)
		free(o->strings.v[i]);
	otf2out_release_definitions(o);
	free(o->strings.v);
	free(o->strings.slot);
	for (uint32_t s = 0; s < o->defs.nstreams; s++) {
		out_cursor_close(&o->streams[s].samples);
		out_cursor_close(&o->streams[s].blame);
	}
	out_sorted_release(&o->samples);
	out_sorted_release(&o->blame);
	ls_idmap_release(&o->lock_order);
	ls_idset_release(&o->event_ids);
	free(o);
}
