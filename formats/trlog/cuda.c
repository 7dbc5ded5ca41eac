/*
 * The CUDA records of a log (docs/trlog.md): in the first pass, the names,
 * contexts, GPU streams and regions they bring, and what each correlation
 * id says (the stream of a kernel, copy or set; the stream and event of a
 * synchronization or an event record), since CUPTI delivers its activity
 * records apart from, and before or after, the calls they belong to; in
 * the second, their events: each call on its thread with the stream and
 * event it refers to, found late by its correlation id; kernels, copies
 * and sets on their GPU streams; NVTX ranges as regions of their thread.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../libstream/error.h"
#include "../../libstream/roles.h"
#include "../../libstream/vec.h"
#include "../defs.h"
#include "trlogin_private.h"

/* --- the first pass --- */

static const char *name_of(const struct log *l, int64_t id)
{
	return id >= 0 && (uint64_t)id < l->nnames ? l->names[id] : NULL;
}

/*
 * Name id's region of paradigm (NAMED_CUDA: calls and kernels; NAMED_USER:
 * NVTX ranges), made where new in the first pass and kept by the name, so
 * that the second finds it without looking a name up again.
 */
enum { NAMED_CUDA, NAMED_USER };

static int named_region(struct trlogin *in, struct log *l, int64_t id, int named, enum ls_role role,
			const char *dir)
{
	uint32_t *region = &l->name_region[named][id];

	return *region != UINT32_MAX ? 0 :
	       fmt_region(&in->regions, l->names[id], role, named == NAMED_USER ? "user" : "cuda", dir, region);
}

/* The copy region's slot in in->copy_region: by kind, and whether host memory was pageable. */
static uint32_t *copy_slot(struct trlogin *in, uint64_t kind, uint64_t src, uint64_t dst)
{
	uint64_t k = kind <= TRLOG_COPY_PTOP ? kind : 0;

	return &in->copy_region[k][src == TRLOG_MEM_PAGEABLE || dst == TRLOG_MEM_PAGEABLE];
}

/* The index of GPU stream (ctx, stream) in l, made where new. */
static int gpu_of(struct log *l, uint32_t ctx, uint32_t stream, uint32_t device, uint32_t *ix)
{
	uint64_t key = (uint64_t)ctx << 32 | stream;
	int rc;

	if (ls_idmap_get(&l->gpu_ix, key, ix)) {
		if (l->gpu[*ix].device == UINT32_MAX)
			l->gpu[*ix].device = device;
		return 0;
	}
	if ((rc = ls_vec_room(&l->gpu, &l->gpu_cap, l->ngpu, sizeof(*l->gpu))) < 0 ||
	    (rc = ls_idmap_put(&l->gpu_ix, key, l->ngpu)) < 0)
		return rc;
	l->gpu[l->ngpu] = (struct gpu_stream){ ctx, stream, device, 0 };
	*ix = l->ngpu++;
	return 0;
}

/* What correlation id corr says: its stream (gpu: an index, or UINT32_MAX) and event (or -1). */
static int corr_says(struct log *l, uint64_t corr, uint32_t gpu, int64_t event)
{
	uint32_t ix;
	int rc;

	if (!ls_idmap_get(&l->corr_ix, corr, &ix)) {
		if ((rc = ls_vec_room(&l->corr, &l->corr_cap, l->ncorr, sizeof(*l->corr))) < 0 ||
		    (rc = ls_idmap_put(&l->corr_ix, corr, l->ncorr)) < 0)
			return rc;
		ix = l->ncorr++;
		l->corr[ix] = (struct corr_ref){ UINT32_MAX, -1 };
	}
	if (gpu != UINT32_MAX)
		l->corr[ix].gpu = gpu;
	if (event >= 0)
		l->corr[ix].event = event;
	return 0;
}

/* A copy's region: its direction, and where the host side is pageable memory, so. */
static const char *copy_dir(uint64_t kind)
{
	switch (kind) {
	case TRLOG_COPY_HTOD: return "htod";
	case TRLOG_COPY_DTOH: return "dtoh";
	case TRLOG_COPY_DTOD: return "dtod";
	case TRLOG_COPY_HTOH: return "htoh";
	case TRLOG_COPY_PTOP: return "ptop";
	default: return NULL;
	}
}

static void copy_name(uint64_t kind, uint64_t src, uint64_t dst, char *buf, size_t n)
{
	static const char *const upper[] = { [TRLOG_COPY_HTOD] = "HtoD", [TRLOG_COPY_DTOH] = "DtoH",
		[TRLOG_COPY_DTOD] = "DtoD", [TRLOG_COPY_HTOH] = "HtoH", [TRLOG_COPY_PTOP] = "PtoP" };
	const char *dir = kind <= TRLOG_COPY_PTOP ? upper[kind] : NULL;

	snprintf(buf, n, "memcpy%s%s%s", dir ? " " : "", dir ? dir : "",
		 src == TRLOG_MEM_PAGEABLE || dst == TRLOG_MEM_PAGEABLE ? " pageable" : "");
}

/* [type, ctx, stream, device, t0, t1, corr] of kernels, copies and sets: its GPU stream noted. */
static int on_stream_look(struct log *l, struct cur *c, uint32_t *gpu, uint64_t *corr)
{
	uint64_t ctx = cur_uint(c), stream = cur_uint(c), device = cur_uint(c);
	int64_t t0 = cur_int(c), t1 = cur_int(c);
	int rc;

	*corr = cur_uint(c);
	if (c->bad || ctx > UINT32_MAX || stream > UINT32_MAX || device > UINT32_MAX || t0 < 0 || t1 < t0 ||
	    t1 >= (int64_t)1 << 62)
		return LS_ERR_SYNTAX;
	if ((rc = gpu_of(l, (uint32_t)ctx, (uint32_t)stream, (uint32_t)device, gpu)) < 0)
		return rc;
	if (t1 > l->last_t)
		l->last_t = t1;
	return corr_says(l, *corr, *gpu, -1);
}

/* The C++ ABI's demangler, libstdc++'s. */
char *__cxa_demangle(const char *mangled, char *out, size_t *length, int *status);

/*
 * A name as people read it, and as Nsight Systems and Kineto show it:
 * CUPTI gives a C++ kernel's mangled name (_Z4spiny), the log keeps it,
 * its region is spin(unsigned long long). Other names stay as they are.
 */
static char *readable(char *name)
{
	int status = 0;
	char *plain;

	if (strncmp(name, "_Z", 2) || !(plain = __cxa_demangle(name, NULL, NULL, &status)) || status)
		return name;
	free(name);
	return plain;
}

static int look_name(struct log *l, struct cur *c)
{
	uint64_t id = cur_uint(c);
	char *name;
	int rc;

	if (c->bad || id != l->nnames)
		return LS_ERR_SYNTAX;
	if ((rc = ls_vec_room(&l->names, &l->names_cap, l->nnames, sizeof(*l->names))) < 0)
		return rc;
	for (int p = 0; p < 2; p++) {
		uint32_t *grown = realloc(l->name_region[p], sizeof(*grown) * l->names_cap);

		if (!grown)
			return LS_ERR_NOMEM;
		l->name_region[p] = grown;
		grown[l->nnames] = UINT32_MAX;
	}
	if (!(name = cur_strdup(c)))
		return c->bad ? LS_ERR_SYNTAX : LS_ERR_NOMEM;
	l->names[l->nnames++] = readable(name);
	return 0;
}

/* [8, thread, name, t0, t1, corr, result]: its region, by the name's role (other calls: gpu_api). */
static int look_api(struct trlogin *in, struct log *l, struct cur *c)
{
	uint64_t thread = cur_uint(c);
	int64_t id = cur_int(c);
	const char *name = name_of(l, id), *dir = NULL;
	int64_t t0 = cur_int(c), t1 = cur_int(c);
	enum ls_role role;

	cur_uint(c);
	cur_int(c);
	if (c->bad || !name || thread >= (1 << 16) || t0 < 0 || t1 < t0 || t1 >= (int64_t)1 << 62)
		return LS_ERR_SYNTAX;
	if (thread >= l->nthreads)
		l->nthreads = thread + 1;
	if (t1 > l->last_t)
		l->last_t = t1;
	if (l->name_region[NAMED_CUDA][id] != UINT32_MAX)
		return 0;
	role = ls_role_by_name(name, &dir);
	return named_region(in, l, id, NAMED_CUDA, role == LS_R_UNKNOWN ? LS_R_GPU_API : role, dir);
}

static int look_context(struct log *l, struct cur *c)
{
	uint64_t ctx = cur_uint(c), device = cur_uint(c), null = cur_uint(c);
	int rc;

	if (c->bad || ctx > UINT32_MAX || device > UINT32_MAX || null > UINT32_MAX)
		return LS_ERR_SYNTAX;
	if ((rc = ls_vec_room(&l->ctxs, &l->ctxs_cap, l->nctxs, sizeof(*l->ctxs))) < 0)
		return rc;
	l->ctxs[l->nctxs++] = (struct gpu_context){ (uint32_t)ctx, (uint32_t)device, (uint32_t)null };
	return 0;
}

/* A kernel, copy or set: its stream, its correlation, its region. */
static int look_work(struct trlogin *in, struct log *l, uint64_t type, struct cur *c)
{
	uint64_t corr, kind, src, dst;
	uint32_t gpu, *slot;
	char buf[48];
	int64_t id;
	int rc;

	if ((rc = on_stream_look(l, c, &gpu, &corr)) < 0)
		return rc;
	switch (type) {
	case TRLOG_GPU_KERNEL:
		id = cur_int(c);
		if (c->bad || !name_of(l, id))
			return LS_ERR_SYNTAX;
		return named_region(in, l, id, NAMED_CUDA, LS_R_KERNEL, NULL);
	case TRLOG_GPU_COPY:
		kind = cur_uint(c);
		cur_uint(c);
		src = cur_uint(c);
		dst = cur_uint(c);
		if (c->bad)
			return LS_ERR_SYNTAX;
		if (*(slot = copy_slot(in, kind, src, dst)) != UINT32_MAX)
			return 0;
		copy_name(kind, src, dst, buf, sizeof(buf));
		return fmt_region(&in->regions, buf, LS_R_DEV_MEMCPY, "cuda", copy_dir(kind), slot);
	default:
		cur_uint(c);
		return c->bad ? LS_ERR_SYNTAX : fmt_region(&in->regions, "memset", LS_R_DEV_MEMSET, "cuda", NULL, &in->set_region);
	}
}

/* A synchronization ([13, type, ctx, stream, event, t0, t1, corr]) or an event record ([14, ctx, stream, event, corr]). */
static int look_refs(struct log *l, uint64_t type, struct cur *c)
{
	uint64_t ctx, corr;
	int64_t stream, event;
	uint32_t gpu = UINT32_MAX;
	int rc;

	if (type == TRLOG_GPU_SYNC)
		cur_uint(c);
	ctx = cur_uint(c);
	stream = cur_int(c);
	event = cur_int(c);
	if (type == TRLOG_GPU_SYNC) {
		cur_int(c);
		cur_int(c);
	}
	corr = cur_uint(c);
	if (c->bad || ctx > UINT32_MAX || stream > UINT32_MAX || event > UINT32_MAX)
		return LS_ERR_SYNTAX;
	if (stream >= 0 && (rc = gpu_of(l, (uint32_t)ctx, (uint32_t)stream, UINT32_MAX, &gpu)) < 0)
		return rc;
	return corr_says(l, corr, gpu, event);
}

/* [15, thread, t, name]: a range's region (NVTX: the user's). */
static int look_range(struct trlogin *in, struct log *l, struct cur *c)
{
	uint64_t thread = cur_uint(c);
	int64_t t = cur_int(c), id = cur_int(c);
	const char *name = name_of(l, id);

	if (c->bad || thread >= (1 << 16) || t < 0 || t >= (int64_t)1 << 62 || (id >= 0 && !name))
		return LS_ERR_SYNTAX;
	if (thread >= l->nthreads)
		l->nthreads = thread + 1;
	if (t > l->last_t)
		l->last_t = t;
	return name ? named_region(in, l, id, NAMED_USER, LS_R_CPU, NULL) : 0;
}

int trlog_cuda_look(struct trlogin *in, struct log *l, uint64_t type, struct cur *c)
{
	switch (type) {
	case TRLOG_NAME:
		return look_name(l, c);
	case TRLOG_CUDA_API:
		return look_api(in, l, c);
	case TRLOG_GPU_CONTEXT:
		return look_context(l, c);
	case TRLOG_GPU_KERNEL:
	case TRLOG_GPU_COPY:
	case TRLOG_GPU_SET:
		return look_work(in, l, type, c);
	case TRLOG_GPU_SYNC:
	case TRLOG_GPU_EVENT:
		return look_refs(l, type, c);
	default:
		return look_range(in, l, c);
	}
}

/* --- the streams --- */

int trlog_cuda_streams(struct trlogin *in, struct log *l)
{
	char name[48];
	int rc = 0;

	for (uint32_t i = 0; i < l->ngpu && rc == 0; i++) {
		struct gpu_stream *g = &l->gpu[i];
		bool null = false;

		for (uint32_t k = 0; k < l->nctxs; k++)
			if (l->ctxs[k].ctx == g->ctx) {
				g->device = l->ctxs[k].device;
				null = l->ctxs[k].null_stream == g->stream;
			}
		if (g->device == UINT32_MAX)	/* known from a synchronization only */
			g->device = 0;
		g->id = in->nstreams++;
		snprintf(name, sizeof(name), "CUDA[%u:%u]", g->device, g->stream);
		rc = fmt_write_stream(in->front, in->w,
				      &(struct fmt_stream){ g->id, l->process, name, true, null, g->device, g->stream });
	}
	return rc;
}

void trlog_cuda_release(struct log *l)
{
	for (uint32_t i = 0; i < l->nnames; i++)
		free(l->names[i]);
	free(l->names);
	free(l->gpu);
	free(l->name_region[NAMED_CUDA]);
	free(l->name_region[NAMED_USER]);
	free(l->ctxs);
	free(l->corr);
	ls_idmap_release(&l->gpu_ix);
	ls_idmap_release(&l->corr_ix);
}

/* --- the second pass --- */

static void activity(struct adder *a, int64_t t0, int64_t t1, uint32_t region, uint64_t corr, bool has_bytes,
		     uint64_t bytes)
{
	struct ls_event *ev;

	if ((ev = trlog_add(a, t0, LS_K_ENTER))) {
		ev->region = region;
		ev->corr = corr;
		ev->fields |= LS_EF_CORR;
		if (has_bytes) {
			ev->bytes = bytes;
			ev->fields |= LS_EF_BYTES;
		}
	}
	if ((ev = trlog_add(a, t1, LS_K_LEAVE))) {
		ev->region = region;
		ev->corr = corr;
		ev->fields |= LS_EF_CORR;
	}
}

static void api_events(struct adder *a, struct cur *c)
{
	uint64_t thread = cur_uint(c);
	int64_t id = cur_int(c), t0 = cur_int(c), t1 = cur_int(c), result;
	uint64_t corr = cur_uint(c);
	uint32_t region, ix;
	struct ls_event *ev;

	result = cur_int(c);
	if (c->bad || !name_of(a->l, id))
		return;
	region = a->l->name_region[NAMED_CUDA][id];
	a->stream = a->l->first_stream + thread;
	if ((ev = trlog_add(a, t0, LS_K_ENTER))) {
		ev->region = region;
		ev->corr = corr;
		ev->fields |= LS_EF_CORR;
		if (ls_idmap_get(&a->l->corr_ix, corr, &ix)) {
			const struct corr_ref *r = &a->l->corr[ix];

			if (r->gpu != UINT32_MAX) {
				ev->ref_stream = a->l->gpu[r->gpu].id;
				ev->fields |= LS_EF_REF_STREAM;
			}
			if (r->event >= 0) {
				ev->cuda_event = (uint64_t)r->event;
				ev->fields |= LS_EF_CUDA_EVENT;
			}
		}
	}
	if ((ev = trlog_add(a, t1, LS_K_LEAVE))) {
		ev->region = region;
		ev->result = result;
		ev->corr = corr;	/* as on its enter */
		ev->fields |= LS_EF_RESULT | LS_EF_CORR;
	}
}

static void work_events(struct adder *a, uint64_t type, struct cur *c)
{
	uint64_t ctx = cur_uint(c), stream = cur_uint(c), kind, src, dst, bytes;
	int64_t t0, t1, id;
	uint64_t corr;
	uint32_t ix;

	cur_uint(c);
	t0 = cur_int(c);
	t1 = cur_int(c);
	corr = cur_uint(c);
	if (c->bad || !ls_idmap_get(&a->l->gpu_ix, ctx << 32 | stream, &ix))
		return;
	a->stream = a->l->gpu[ix].id;
	if (type == TRLOG_GPU_KERNEL) {
		if (name_of(a->l, id = cur_int(c)))
			activity(a, t0, t1, a->l->name_region[NAMED_CUDA][id], corr, false, 0);
	} else if (type == TRLOG_GPU_COPY) {
		kind = cur_uint(c);
		bytes = cur_uint(c);
		src = cur_uint(c);
		dst = cur_uint(c);
		activity(a, t0, t1, *copy_slot(a->in, kind, src, dst), corr, true, bytes);
	} else {
		bytes = cur_uint(c);
		activity(a, t0, t1, a->in->set_region, corr, true, bytes);
	}
}

/* An NVTX range pushed (entered) or popped (the innermost one left). */
static void range_events(struct adder *a, struct cur *c)
{
	uint64_t thread = cur_uint(c);
	int64_t t = cur_int(c), id = cur_int(c);
	const char *name = name_of(a->l, id);
	struct thread_state *th;
	struct ls_event *ev;
	uint32_t region;

	if (c->bad)
		return;
	a->stream = a->l->first_stream + thread;
	th = &a->threads[thread];
	if (name) {
		region = a->l->name_region[NAMED_USER][id];
		if (ls_vec_room(&th->ranges, &th->ranges_cap, th->nranges, sizeof(*th->ranges)) < 0) {
			a->rc = LS_ERR_NOMEM;
			return;
		}
		th->ranges[th->nranges++] = region;
		if ((ev = trlog_add(a, t, LS_K_ENTER)))
			ev->region = region;
	} else if (th->nranges) {
		region = th->ranges[--th->nranges];
		if ((ev = trlog_add(a, t, LS_K_LEAVE)))
			ev->region = region;
	}
}

void trlog_cuda_events(struct adder *a, uint64_t type, struct cur *c)
{
	switch (type) {
	case TRLOG_CUDA_API:
		api_events(a, c);
		break;
	case TRLOG_GPU_KERNEL:
	case TRLOG_GPU_COPY:
	case TRLOG_GPU_SET:
		work_events(a, type, c);
		break;
	case TRLOG_RANGE:
		range_events(a, c);
		break;
	default:
		break;
	}
}
