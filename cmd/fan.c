/* The trace read by MPI ranks, shard by shard, fanned in to rank 0. */
#include <mpi.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../libstream/enc.h"
#include "../libstream/error.h"
#include "../libstream/header.h"
#include "../libstream/mp.h"
#include "../libstream/record.h"
#include "fan.h"
#include "tool.h"

#define BATCH (64 * 1024)	/* bytes of whole records a message carries */
enum { TAG_DATA = 1, TAG_END = 2 };

/* The end of a shard's stream: its status, its error, its report; then the report's strings. */
struct end {
	int status;
	char err[512];
	struct ls_front_report report;
};

static int fan_init(int *argc, char ***argv, struct fan *f)
{
	const struct fan_ops *ops = f->ops;
	int provided;

	memset(f, 0, sizeof(*f));
	f->ops = ops;
	if (MPI_Init_thread(argc, argv, MPI_THREAD_FUNNELED, &provided) != MPI_SUCCESS) {
		tool_error("--mpi: MPI_Init failed");
		return 1;
	}
	MPI_Comm_rank(MPI_COMM_WORLD, &f->rank);
	MPI_Comm_size(MPI_COMM_WORLD, &f->size);
	return 0;
}

static void fan_finish(struct fan *f)
{
	for (size_t i = 0; i < f->nstrings; i++)
		free(f->strings[i]);
	free(f->strings);
	MPI_Finalize();
}

static void fan_shard(const struct fan *f, struct ls_front_options *opt)
{
	opt->shard = (uint32_t)f->rank - 1;
	opt->shards = (uint32_t)f->size - 1;
}

static int send_batch(void *ctx, struct ls_buf *out)
{
	(void)ctx;
	if (MPI_Send(out->p, (int)out->len, MPI_BYTE, 0, TAG_DATA, MPI_COMM_WORLD) != MPI_SUCCESS)
		return LS_ERR_IO;
	out->len = 0;
	return 0;
}

static void fan_writer(struct fan *f, struct ls_writer *w)
{
	ls_writer_init_sink(w, send_batch, f, BATCH);
}

/* The report's strings one after another, each ended by a 0 byte, into b. */
static int pack_strings(const struct ls_front_report *r, struct ls_buf *b)
{
	int rc = 0;

	for (uint32_t i = 0; i < r->nodd && rc == 0; i++)
		rc = ls_buf_add(b, r->odd[i].what, strlen(r->odd[i].what) + 1);
	for (uint32_t i = 0; i < r->nleft_out && rc == 0; i++)
		rc = ls_buf_add(b, r->left_out[i].kind, strlen(r->left_out[i].kind) + 1);
	for (uint32_t i = 0; i < r->ninputs && rc == 0; i++)
		rc = ls_buf_add(b, r->inputs[i].kind, strlen(r->inputs[i].kind) + 1);
	return rc;
}

static int fan_end(struct fan *f, struct ls_writer *w, int status, const char *err,
	    const struct ls_front_report *r)
{
	struct end e = { .status = status };
	struct ls_buf b = LS_BUF_INIT;
	int rc;

	(void)f;
	snprintf(e.err, sizeof(e.err), "%s", err ? err : "");
	e.report = *r;
	if (ls_writer_flush(w) < 0 || ls_buf_add(&b, &e, sizeof(e)) < 0 || pack_strings(r, &b) < 0) {
		/* what was read goes to rank 0 all the same; only the end says it failed */
		e.status = 1;
		snprintf(e.err, sizeof(e.err), "out of memory, or MPI failed");
		b.len = 0;
		if (ls_buf_add(&b, &e, sizeof(e)) < 0) {
			ls_buf_release(&b);
			return 1;
		}
	}
	rc = MPI_Send(b.p, (int)b.len, MPI_BYTE, 0, TAG_END, MPI_COMM_WORLD) != MPI_SUCCESS;
	ls_buf_release(&b);
	if (rc)
		tool_error("--mpi: cannot send to rank 0");
	return rc;
}

/* Rank 0's view of one shard's stream. */
struct source {
	int rank;
	uint8_t *batch;
	int len, at;
	bool ended;		/* its end came */
	struct ls_record head;	/* its next event, in batch */
	bool has_head;
	int64_t t;
	uint64_t s;
};

/* A shard's report into r: counts added; the definitions' oddities once. */
static void add_report(struct ls_front_report *r, const struct ls_front_report *x)
{
	for (int k = 0; k < LS_K__COUNT; k++)
		r->kinds[k] += x->kinds[k];
	for (int i = 0; i < LS_R__COUNT; i++)
		r->roles[i] += x->roles[i];
	r->leave_without_enter += x->leave_without_enter;
	r->leave_mismatch += x->leave_mismatch;
	r->open_at_end += x->open_at_end;
	r->filtered += x->filtered;
	if (x->offered && (!r->offered || x->first_t < r->first_t))
		r->first_t = x->first_t;
	if (x->offered && (!r->offered || x->last_t > r->last_t))
		r->last_t = x->last_t;
	r->offered += x->offered;
	r->selected += x->selected;
	r->runs += x->runs;
	r->merges += x->merges;
	r->ignored += x->ignored;
	for (uint32_t i = 0; i < x->nodd; i++) {
		uint32_t j = 0;

		while (j < r->nodd && strcmp(r->odd[j].what, x->odd[i].what))
			j++;
		if (j == r->nodd && r->nodd < LS_FRONT_MAX_ODD)
			r->odd[r->nodd++] = x->odd[i], r->odd[j].n = 0;
		if (j < r->nodd)
			r->odd[j].n = x->odd[i].of_definitions ? x->odd[i].n : r->odd[j].n + x->odd[i].n;
	}
	for (uint32_t i = 0; i < x->nleft_out; i++)
		ls_report_left_out(r, x->left_out[i].kind, x->left_out[i].n);
	for (uint32_t i = 0; i < x->ninputs; i++)
		ls_report_input(r, x->inputs[i].kind, x->inputs[i].read, x->inputs[i].skipped);
	for (uint32_t i = 0; i < x->nnotes && r->nnotes < 2; i++)
		memcpy(r->note[r->nnotes++], x->note[i], sizeof(r->note[0]));
}

/*
 * A shard's end message (e, its strings after it): its report, whose
 * strings are kept in f, added into r; its failure said in f->err.
 */
static int take_end(struct fan *f, struct source *src, uint8_t *msg, int n, struct ls_front_report *r)
{
	struct end e;
	const char *p, *end;
	char *kept, **keep;

	if (n < (int)sizeof(e))
		return -1;
	memcpy(&e, msg, sizeof(e));
	src->ended = true;
	if (e.status && !f->err[0])
		snprintf(f->err, sizeof(f->err), "rank %d: %.480s", src->rank, e.err);
	/* the strings, kept for as long as r names them */
	if (!(kept = malloc((size_t)(n - (int)sizeof(e)) + 1)))
		return -1;
	memcpy(kept, msg + sizeof(e), (size_t)(n - (int)sizeof(e)));
	kept[n - (int)sizeof(e)] = '\0';
	if (!(keep = realloc(f->strings, (f->nstrings + 1) * sizeof(*keep)))) {
		free(kept);
		return -1;
	}
	keep[f->nstrings++] = kept;
	f->strings = keep;
	p = kept;
	end = kept + (n - (int)sizeof(e));
	for (uint32_t i = 0; i < e.report.nodd; i++, p += strlen(p) + 1)
		e.report.odd[i].what = p < end ? p : "";
	for (uint32_t i = 0; i < e.report.nleft_out; i++, p += strlen(p) + 1)
		e.report.left_out[i].kind = p < end ? p : "";
	for (uint32_t i = 0; i < e.report.ninputs; i++, p += strlen(p) + 1)
		e.report.inputs[i].kind = p < end ? p : "";
	add_report(r, &e.report);
	return e.status ? 1 : 0;
}

/*
 * The next record of src into *rec: 1; 0 at its end; -1 where MPI or
 * memory failed or the shard sent what is not a record (f->err says so).
 * A shard's end message adds its report into r (and its failure, 2).
 */
static int next_record(struct fan *f, struct source *src, struct ls_record *rec, struct ls_front_report *r,
		       int *failed)
{
	const char *why;
	MPI_Status st;
	long used;
	int n;

	while (src->at == src->len) {
		if (src->ended)
			return 0;
		if (MPI_Probe(src->rank, MPI_ANY_TAG, MPI_COMM_WORLD, &st) != MPI_SUCCESS ||
		    MPI_Get_count(&st, MPI_BYTE, &n) != MPI_SUCCESS)
			goto broken;
		free(src->batch);
		if (!(src->batch = malloc((size_t)n + LS_RECORD_PAD)) ||
		    MPI_Recv(src->batch, n, MPI_BYTE, src->rank, st.MPI_TAG, MPI_COMM_WORLD, MPI_STATUS_IGNORE) !=
			    MPI_SUCCESS)
			goto broken;
		src->at = 0;
		src->len = st.MPI_TAG == TAG_DATA ? n : 0;
		if (st.MPI_TAG == TAG_END) {
			int rc = take_end(f, src, src->batch, n, r);

			if (rc < 0)
				goto broken;
			*failed |= rc;
		}
	}
	used = ls_record_parse_padded(rec, src->batch + src->at, src->batch + src->len, 0, &why);
	if (used <= 0) {
		snprintf(f->err, sizeof(f->err), "rank %d sent what is not a record stream: %s", src->rank,
			 why ? why : "cut short");
		return -1;
	}
	src->at += (int)used;
	return 1;
broken:
	snprintf(f->err, sizeof(f->err), "rank %d: cannot receive its stream (MPI failed, or out of memory)",
		 src->rank);
	return -1;
}

/* src's next event as its head (its other records passed over): 0, or -1. */
static int advance(struct fan *f, struct source *src, struct ls_front_report *r, int *failed)
{
	int rc;

	src->has_head = false;
	while ((rc = next_record(f, src, &src->head, r, failed)) > 0)
		if (ls_kind_spec(src->head.kind)->cls == LS_C_EVENT) {
			if (ls_get_i64(&src->head, LS_F_T, &src->t) < 0 || ls_get_u64(&src->head, LS_F_S, &src->s) < 0) {
				snprintf(f->err, sizeof(f->err), "rank %d sent an event without its time or stream",
					 src->rank);
				return -1;
			}
			src->has_head = true;
			return 0;
		}
	return rc;
}

/* rec with its id made id, to out: its other entries copied as they are, in place. */
static int renumbered(struct ls_writer *out, const struct ls_record *rec, uint64_t id)
{
	struct mp_item map;
	long head = mp_head(rec->raw, rec->raw + rec->len, &map);
	uint32_t k = rec->key[LS_F_ID], v = rec->off[LS_F_ID];
	long vlen = mp_skip(rec->raw + v, rec->raw + rec->len);

	if (head <= 0 || vlen <= 0)
		return LS_ERR_SYNTAX;
	ls_build_begin(out, rec->nfields);
	ls_put_raw(out, rec->raw + head, k - (uint32_t)head);
	ls_put_u64(out, LS_F_ID, id);
	ls_put_raw(out, rec->raw + v + vlen, rec->len - v - (uint32_t)vlen);
	return ls_build_end(out);
}

/* The first shard's header and definitions, to out; its first event its head. */
static int definitions(struct fan *f, struct source *src, struct ls_writer *out, struct ls_front_report *r,
		       int *failed)
{
	int rc;

	while ((rc = next_record(f, src, &src->head, r, failed)) > 0) {
		enum ls_class cls = ls_kind_spec(src->head.kind)->cls;

		if (cls == LS_C_EVENT)
			break;
		if (cls != LS_C_TRAILER && (rc = ls_write_record(out, &src->head)) < 0)
			return rc;
	}
	if (rc < 0)
		return -1;
	if (rc == 0)
		return 0;
	src->has_head = ls_get_i64(&src->head, LS_F_T, &src->t) == 0 && ls_get_u64(&src->head, LS_F_S, &src->s) == 0;
	return 0;
}

/* The source whose head comes first in the stream's order (time, then stream), or NULL. */
static struct source *first(struct source *v, int n)
{
	struct source *best = NULL;

	for (int i = 0; i < n; i++)
		if (v[i].has_head && (!best || v[i].t < best->t || (v[i].t == best->t && v[i].s < best->s)))
			best = &v[i];
	return best;
}

static int fan_merge(struct fan *f, struct ls_writer *out, struct ls_front_report *r)
{
	int n = f->size - 1, failed = 0, rc = 0;
	struct source *v = calloc((size_t)n, sizeof(*v));
	struct source *s;
	uint64_t id = 0;

	if (!v)
		return LS_ERR_NOMEM;
	for (int i = 0; i < n; i++)
		v[i].rank = i + 1;
	if (definitions(f, &v[0], out, r, &failed) < 0)
		rc = -1;
	for (int i = 1; i < n && rc == 0; i++)
		rc = advance(f, &v[i], r, &failed);
	while (rc == 0 && !failed && (s = first(v, n))) {
		if ((rc = renumbered(out, &s->head, id++)) < 0)
			break;
		rc = advance(f, s, r, &failed);
	}
	/* a failure: the others read to their end, so that none waits on rank 0 */
	for (int i = 0; i < n; i++) {
		struct ls_record rec;

		while (!v[i].ended && next_record(f, &v[i], &rec, r, &failed) >= 0)
			v[i].at = v[i].len;
		free(v[i].batch);
	}
	free(v);
	if (rc == 0 && !failed)
		rc = ls_write_trailer(out);
	return rc == -1 || failed ? 1 : rc;
}

const struct fan_ops tr_fan_ops = {
	.init = fan_init, .finish = fan_finish, .shard = fan_shard, .writer = fan_writer, .end = fan_end,
	.merge = fan_merge,
};
