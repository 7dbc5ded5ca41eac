/*
 * The first pass over a Kineto file: its host threads and GPU streams,
 * the regions its names make, the names its metadata gives, its calls, and
 * what each correlation id says (the stream of a kernel, copy or set; the
 * stream and CUDA event of a synchronization, and of the event record it
 * waited for), since the file gives these apart from, and before or after,
 * the calls they belong to (refs.c joins the two).
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../libstream/error.h"
#include "../../libstream/vec.h"
#include "kinetoin_private.h"

static bool is(const struct kstr *s, const char *lit)
{
	return s->n == strlen(lit) && !memcmp(s->p, lit, s->n);
}

enum kclass kineto_class(const struct kev *ev)
{
	static const struct {
		const char *cat;
		enum kclass c;
	} cats[] = {
		{ "kernel", KC_KERNEL }, { "gpu_memcpy", KC_COPY }, { "gpu_memset", KC_SET },
		{ "cuda_sync", KC_SYNC }, { "cuda_runtime", KC_API }, { "cuda_driver", KC_API },
		{ "gpu_user_annotation", KC_SKIP }, { "Trace", KC_SPAN },
		/* PyTorch 1.8's profiler */
		{ "Kernel", KC_KERNEL }, { "Memcpy", KC_COPY }, { "Memset", KC_SET }, { "Runtime", KC_API },
	};

	enum kclass c = KC_HOST;

	if (ev->ph == 'M')
		return KC_META;
	if (ev->ph != 'X' || !(ev->has & KA_TS))
		return KC_SKIP;
	for (size_t i = 0; i < sizeof(cats) / sizeof(cats[0]) && c == KC_HOST; i++)
		if (is(&ev->cat, cats[i].cat))
			c = cats[i].c;
	if (c == KC_SPAN)	/* "pid": "Spans": no thread of its own */
		return (ev->has & KA_DUR) && ev->dur >= 0 ? c : KC_SKIP;
	if (c == KC_KERNEL || c == KC_COPY || c == KC_SET || c == KC_SYNC)	/* older Kineto: "tid": "stream 7" */
		return (ev->has & (KA_PID | KA_DEVICE)) && (ev->has & (KA_TID | KA_STREAM)) ? c : KC_SKIP;
	return (ev->has & (KA_PID | KA_TID)) == (KA_PID | KA_TID) ? c : KC_SKIP;
}

/*
 * Whether an event of category cat, which tr-read reads as host code, is
 * by its name an accelerator's device work: a category tr-read does not
 * know (MTIA's mtia_ccp_events, Intel's and Habana's, a PyTorch
 * privateuse1 backend's) that names a kernel, a copy, a device or one of
 * them.
 */
static bool foreign_device(const struct kstr *cat)
{
	static const char *const words[] = { "kernel", "memcpy", "memset", "device", "mtia", "xpu", "hpu", "npu",
					     "ccp", "privateuse1", "accelerator" };
	char low[64];
	size_t n = cat->n < sizeof(low) - 1 ? cat->n : sizeof(low) - 1;

	if (is(cat, "cpu_op") || is(cat, "user_annotation") || is(cat, "python_function"))
		return false;
	for (size_t i = 0; i < n; i++)
		low[i] = (char)(cat->p[i] >= 'A' && cat->p[i] <= 'Z' ? cat->p[i] - 'A' + 'a' : cat->p[i]);
	low[n] = 0;
	for (size_t i = 0; i < sizeof(words) / sizeof(*words); i++)
		if (strstr(low, words[i]))
			return true;
	return false;
}

/* --- threads and streams --- */

static uint64_t pair_key(int64_t a, int64_t b)
{
	return ((uint64_t)a * UINT64_C(0x9e3779b97f4a7c15)) ^ (uint64_t)b;
}

uint32_t kineto_stream(struct kstreams *t, int64_t a, int64_t b, bool make, int *rc)
{
	uint64_t key = pair_key(a, b);
	uint32_t i;

	if (ls_idmap_get(&t->ix, key, &i)) {
		if (t->v[i].a == a && t->v[i].b == b)
			return i;
		for (i = 0; i < t->n; i++)	/* two pairs of one key */
			if (t->v[i].a == a && t->v[i].b == b)
				return i;
	}
	if (!make)
		return UINT32_MAX;
	if ((*rc = ls_vec_room(&t->v, &t->cap, t->n, sizeof(*t->v))) < 0 ||
	    (!ls_idmap_get(&t->ix, key, &i) && (*rc = ls_idmap_put(&t->ix, key, t->n)) < 0))
		return UINT32_MAX;
	t->v[t->n] = (struct kstream){ a, b, 0 };
	return t->n++;
}

/* A GPU activity's device and stream: its args', else its pid and tid (Kineto's own layout). */
static uint32_t gpu_of(struct kfile *f, const struct kev *ev, int *rc)
{
	return kineto_stream(&f->gpus, ev->has & KA_DEVICE ? ev->device : ev->pid, ev->has & KA_STREAM ? ev->stream : ev->tid,
			  true, rc);
}

/* --- regions --- */

/* A copy's direction from its name ("Memcpy HtoD (Pageable -> Device)"). */
static const char *copy_dir(const struct kstr *name)
{
	static const char *const dirs[][2] = { { "HtoD", "htod" }, { "DtoH", "dtoh" }, { "DtoD", "dtod" },
					      { "HtoH", "htoh" }, { "PtoP", "ptop" } };

	for (size_t i = 0; i < sizeof(dirs) / sizeof(dirs[0]); i++)
		if (strstr(name->p, dirs[i][0]))
			return dirs[i][1];
	return NULL;
}

/* An API call's region, by its name (its role asked of the name table only where it is new). */
static int call_region(struct kinetoin *in, const char *name, uint32_t *id)
{
	const char *dir;
	enum ls_role role;

	if (fmt_region_find(&in->regions, name, "cuda", id))
		return 0;
	if ((role = ls_role_by_name(name, &dir)) == LS_R_UNKNOWN)
		role = LS_R_GPU_API;
	return fmt_region(&in->regions, name, role, "cuda", dir, id);
}

int kineto_region(struct kinetoin *in, const struct kev *ev, enum kclass c, uint32_t *id)
{
	const char *name = ev->name.n ? ev->name.p : "(unnamed)", *paradigm;

	switch (c) {
	case KC_API:
		return call_region(in, name, id);
	case KC_KERNEL:
		return fmt_region(&in->regions, name, LS_R_KERNEL, "cuda", NULL, id);
	case KC_COPY:
		return fmt_region(&in->regions, name, LS_R_DEV_MEMCPY, "cuda", copy_dir(&ev->name), id);
	case KC_SET:
		return fmt_region(&in->regions, name, LS_R_DEV_MEMSET, "cuda", NULL, id);
	default:
		paradigm = is(&ev->cat, "cpu_op") ? "pytorch" : is(&ev->cat, "python_function") ? "python" : "user";
		return fmt_region(&in->regions, name, LS_R_CPU, paradigm, NULL, id);
	}
}

/* --- what correlation ids say --- */

/* A stream id a synchronization names: none where negative, or -1 as 32 bits (older Kineto). */
static bool named_stream(uint32_t has, uint32_t bit, int64_t stream)
{
	return (has & bit) && stream >= 0 && stream != UINT32_MAX;
}

/*
 * A synchronization: what its call waited for. A stream synchronization,
 * its stream; an event synchronization (or query), the event; a stream's
 * wait for an event, the waiting stream and the event. The event record
 * waited for learns its stream and event here too; where the trace does
 * not name the record (older Kineto), the call learns the stream waited
 * for instead.
 */
static int look_sync(struct kinetoin *in, struct kfile *f, const struct kev *ev)
{
	const struct kstr *kind = ev->sync_kind.n ? &ev->sync_kind : &ev->name;
	int64_t device = ev->has & KA_DEVICE ? ev->device : ev->pid;
	uint32_t stream = UINT32_MAX, waited = UINT32_MAX;
	bool recorded = (ev->has & KA_WAIT_RECORD) && ev->wait_record >= 0 && (ev->has & KA_WAIT_EVENT);
	int rc = 0;

	if (!(ev->has & KA_CORR))
		return 0;
	if (named_stream(ev->has, KA_STREAM, ev->stream))
		stream = kineto_stream(&f->gpus, device, ev->stream, true, &rc);
	if (rc == 0 && named_stream(ev->has, KA_WAIT_STREAM, ev->wait_stream))
		waited = kineto_stream(&f->gpus, device, ev->wait_stream, true, &rc);
	if (rc < 0)
		return rc;
	if (is(kind, "Stream Sync"))
		return kineto_says(in, ev->corr, stream, -1, UINT32_MAX);
	if (!is(kind, "Event Sync") && !is(kind, "Stream Wait Event"))
		return 0;	/* Context Sync: nothing to refer to */
	if (is(kind, "Event Sync"))
		stream = UINT32_MAX;
	if (!recorded)	/* older Kineto: the stream waited for, not the record */
		return kineto_says(in, ev->corr, stream, -1, waited);
	if ((rc = kineto_says(in, ev->corr, stream, ev->wait_event, UINT32_MAX)) < 0)
		return rc;
	return kineto_says(in, ev->wait_record, waited, ev->wait_event, UINT32_MAX);
}

static int look_name(struct kfile *f, const struct kev *ev)
{
	bool process = is(&ev->name, "process_name"), thread = is(&ev->name, "thread_name");
	int rc;

	if (!(process || thread) || !ev->arg_name.n || !(ev->has & KA_PID) || (thread && !(ev->has & KA_TID)))
		return 0;
	if ((rc = ls_vec_room(&f->names, &f->names_cap, f->nnames, sizeof(*f->names))) < 0)
		return rc;
	if (!(f->names[f->nnames].name = strndup(ev->arg_name.p, ev->arg_name.n)))
		return LS_ERR_NOMEM;
	f->names[f->nnames].pid = ev->pid;
	f->names[f->nnames++].tid = process ? -1 : ev->tid;
	return 0;
}

/* Widen [*first, *last] (none yet: !*any) to hold [t0, t1]. */
static void widen(int64_t *first, int64_t *last, bool *any, int64_t t0, int64_t t1)
{
	if (!*any || t0 < *first)
		*first = t0;
	if (!*any || t1 > *last)
		*last = t1;
	*any = true;
}

bool kineto_clip(const struct kfile *f, int64_t *t0, int64_t *t1)
{
	if (!f->span || (*t0 >= f->span_first && *t1 <= f->span_last))
		return false;
	*t0 = *t0 < f->span_first ? f->span_first : *t0 > f->span_last ? f->span_last : *t0;
	*t1 = *t1 > f->span_last ? f->span_last : *t1 < *t0 ? *t0 : *t1;
	return true;
}

void kineto_span_done(struct kfile *f)
{
	int64_t t0 = f->host_first, t1 = f->host_last;

	if (!f->host_any)
		return;
	kineto_clip(f, &t0, &t1);
	widen(&f->first, &f->last, &f->any, t0, t1);
}

int kineto_look(void *ctx, const struct kev *ev)
{
	struct kinetoin *in = ctx;
	struct kfile *f = in->f;
	enum kclass c = kineto_class(ev);
	int64_t end;
	uint32_t region, gpu;
	int rc = 0;

	kineto_count(in, ev, c == KC_SKIP ? KS_SKIPPED : KS_READ);
	kineto_progress(in);
	if (c == KC_META)
		return look_name(f, ev);
	if (c == KC_SKIP)
		return 0;
	if (c == KC_SYNC)
		return look_sync(in, f, ev);
	if (ev->dur < 0 || ev->ts > INT64_MAX - ev->dur) {
		in->no_time++;
		return 0;
	}
	end = ev->ts + ((ev->has & KA_DUR) ? ev->dur : 0);
	if (c == KC_SPAN) {
		widen(&f->span_first, &f->span_last, &f->span, ev->ts, end);
		return 0;
	}
	if (c == KC_HOST || c == KC_API)
		widen(&f->host_first, &f->host_last, &f->host_any, ev->ts, end);
	else
		widen(&f->first, &f->last, &f->any, ev->ts, end);
	if (c == KC_HOST && foreign_device(&ev->cat) && !in->foreign++)
		snprintf(in->foreign_cat, sizeof(in->foreign_cat), "%.*s", (int)ev->cat.n, ev->cat.p);
	if ((rc = kineto_region(in, ev, c, &region)) < 0)
		return rc;
	if (c == KC_HOST || c == KC_API) {
		kineto_stream(&f->hosts, ev->pid, ev->tid, true, &rc);
		if (rc == 0 && c == KC_API)
			rc = kineto_call(in, ev->has & KA_CORR ? ev->corr : -1, region);
		return rc;
	}
	if ((gpu = gpu_of(f, ev, &rc)) == UINT32_MAX)
		return rc;
	if ((ev->has & KA_CORR) && (rc = kineto_says(in, ev->corr, gpu, -1, UINT32_MAX)) < 0)
		return rc;
	return c == KC_KERNEL ? kineto_nccl_look(in, ev) : 0;
}

void kineto_file_release(struct kfile *f)
{
	for (uint32_t i = 0; i < f->nnames; i++)
		free(f->names[i].name);
	free(f->names);
	free(f->hosts.v);
	free(f->gpus.v);
	free(f->seqs);
	ls_idmap_release(&f->hosts.ix);
	ls_idmap_release(&f->gpus.ix);
}
