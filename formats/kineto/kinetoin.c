/*
 * Reading Kineto traces: the files (a folder's, or those given), read
 * twice each: the first pass finds threads, streams, regions and what
 * correlation ids say (look.c), and the NCCL process groups (nccl.c); the
 * definitions are written; the second pass hands every activity to the
 * front (events.c), which puts them in order.
 */
#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

#include "../../libstream/error.h"
#include "../../libstream/vec.h"
#include "../defs.h"
#include "kinetoin.h"
#include "kinetoin_private.h"

bool kinetoin_sniff(const uint8_t *head, size_t n)
{
	return kj_sniff(head, n);
}

static bool trace_named(const char *name)
{
	size_t n = strlen(name);

	return (n > 5 && !strcmp(name + n - 5, ".json")) || (n > 8 && !strcmp(name + n - 8, ".json.gz"));
}

bool kinetoin_sniff_dir(const char *path)
{
	DIR *d = opendir(path);
	struct dirent *e;
	bool traces = false;

	if (!d)
		return false;
	while (!traces && (e = readdir(d)))
		traces = trace_named(e->d_name);
	closedir(d);
	return traces;
}

/* --- the files --- */

static int add_file(struct kinetoin *in, const char *path)
{
	int rc;

	if ((rc = ls_vec_room(&in->files, &in->files_cap, in->nfiles, sizeof(*in->files))) < 0)
		return rc;
	memset(&in->files[in->nfiles], 0, sizeof(in->files[0]));
	in->files[in->nfiles].path = path;
	in->files[in->nfiles].process = in->nfiles;
	in->nfiles++;
	return 0;
}

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* A folder's traces, in the order of their names; their paths kept in *owned. */
static int add_folder(struct kinetoin *in, const char *dir, char ***owned, uint32_t *nowned, uint32_t *cap)
{
	DIR *d = opendir(dir);
	struct dirent *e;
	uint32_t first = *nowned;
	int rc = 0;

	if (!d) {
		snprintf(in->err, in->errlen, "%s: cannot read the folder", dir);
		return LS_ERR_IO;
	}
	while (rc == 0 && (e = readdir(d))) {
		char *path;

		if (!trace_named(e->d_name))
			continue;
		if ((rc = ls_vec_room(owned, cap, *nowned, sizeof(**owned))) < 0 ||
		    asprintf(&path, "%s/%s", dir, e->d_name) < 0) {
			rc = LS_ERR_NOMEM;
			break;
		}
		(*owned)[(*nowned)++] = path;
	}
	closedir(d);
	qsort(*owned + first, *nowned - first, sizeof(**owned), by_name);
	for (uint32_t i = first; i < *nowned && rc == 0; i++)
		rc = add_file(in, (*owned)[i]);
	return rc;
}

/* --- counting the input, for --stats --- */

/* The input's kinds as --stats names them; the first K_OTHER_X, complete events by their category. */
#define CAT(cat, label) { cat, sizeof(cat) - 1, label }
static const struct {
	const char *cat;
	size_t n;
	const char *label;
} kinds[] = {
	CAT("cpu_op", "cpu_op"), CAT("user_annotation", "user_annotation"),
	CAT("python_function", "python_function"), CAT("cuda_runtime", "cuda_runtime"),
	CAT("cuda_driver", "cuda_driver"), CAT("kernel", "kernel"), CAT("gpu_memcpy", "gpu_memcpy"),
	CAT("gpu_memset", "gpu_memset"), CAT("cuda_sync", "cuda_sync (references)"),
	CAT("gpu_user_annotation", "gpu_user_annotation"), CAT("Trace", "Trace (spans)"),
	CAT("", "X of other categories"), CAT("", "M (process, thread names)"),
	CAT("", "s, f (flows: as correlation)"), CAT("", "i (instants)"), CAT("", "C (counters)"),
	CAT("", "other phases"),
};
#undef CAT

enum { K_OTHER_X = 11, K_META, K_FLOW, K_INSTANT, K_COUNTER, K_OTHER };

void kineto_count(struct kinetoin *in, const struct kev *ev, int how)
{
	size_t k = K_OTHER;

	switch (ev->ph) {
	case 'X':
		for (k = 0; k < K_OTHER_X; k++)
			if (kinds[k].n == ev->cat.n && !memcmp(kinds[k].cat, ev->cat.p, ev->cat.n))
				break;
		break;
	case 'M': k = K_META; break;
	case 's': case 'f': case 't': k = K_FLOW; break;
	case 'i': case 'I': k = K_INSTANT; break;
	case 'C': k = K_COUNTER; break;
	default: break;
	}
	in->counts[k][how]++;
}

/* --- the definitions --- */

static const char *name_of(const struct kfile *f, int64_t pid, int64_t tid)
{
	for (uint32_t i = 0; i < f->nnames; i++)
		if (f->names[i].pid == pid && f->names[i].tid == tid)
			return f->names[i].name;
	return NULL;
}

static int write_process(struct kinetoin *in, const struct kfile *f)
{
	const char *pname = f->hosts.n ? name_of(f, f->hosts.v[0].a, -1) : NULL, *base = strrchr(f->path, '/');
	char name[256];

	if (f->top.have_rank)
		snprintf(name, sizeof(name), "Rank %lld", (long long)f->top.rank);
	else if (pname)
		snprintf(name, sizeof(name), "%s (pid %lld)", pname, (long long)f->hosts.v[0].a);
	else
		snprintf(name, sizeof(name), "%s", base ? base + 1 : f->path);
	return fmt_write_process(in->w, f->process, name, f->top.have_rank ? f->top.rank : -1);
}

static int write_streams(struct kinetoin *in, struct kfile *f)
{
	char name[256];
	int rc = 0;

	for (uint32_t i = 0; i < f->hosts.n && rc == 0; i++) {	/* (pid, tid) */
		struct kstream *h = &f->hosts.v[i];
		const char *given = name_of(f, h->a, h->b);

		h->id = in->nstreams++;
		if (given)
			snprintf(name, sizeof(name), "%s", given);
		else
			snprintf(name, sizeof(name), "thread %lld", (long long)h->b);
		rc = fmt_write_stream(in->front, in->w,
				      &(struct fmt_stream){ h->id, f->process, name, false, false, -1, h->b });
	}
	for (uint32_t i = 0; i < f->gpus.n && rc == 0; i++) {	/* (device, stream) */
		struct kstream *g = &f->gpus.v[i];

		g->id = in->nstreams++;
		snprintf(name, sizeof(name), "CUDA[%lld:%lld]", (long long)g->a, (long long)g->b);
		rc = fmt_write_stream(in->front, in->w,
				      &(struct fmt_stream){ g->id, f->process, name, true, false, g->a, g->b });
	}
	return rc;
}

static int write_definitions(struct kinetoin *in, const char *source, const struct ls_stage *stage)
{
	char producer[64];
	int rc;

	snprintf(producer, sizeof(producer), "tr-read %s", TR_VERSION);
	if ((rc = ls_write_header(in->w, producer, source, stage)) < 0)
		return rc;
	for (uint32_t i = 0; i < in->nfiles && rc == 0; i++)
		rc = write_process(in, &in->files[i]);
	for (uint32_t i = 0; i < in->nfiles && rc == 0; i++)
		rc = write_streams(in, &in->files[i]);
	if (rc == 0)
		rc = fmt_regions_write(&in->regions, in->front, in->w);
	return rc < 0 ? rc : kineto_nccl_comms(in);
}

/* --- the passes --- */

/* How far the reading is, for a progress line: every 4096 events. */
void kineto_progress(struct kinetoin *in)
{
	if (!(++in->since & 4095))
		ls_front_input_at(in->front, in->read_before + kj_offset(in->j), in->input);
}

static int pass(struct kinetoin *in, int which)
{
	int rc = 0;

	for (uint32_t i = 0; i < in->nfiles && rc == 0; i++) {
		struct kfile *f = &in->files[i];
		struct kj_top again;
		struct kj j;

		if (kj_open(&j, f->path, in->label ? f->path : NULL, in->err, in->errlen) == KJ_ERROR)
			return LS_ERR_IO;
		in->f = f;
		f->calls = 0;
		if (which == 1 && (ls_xsort_init(&in->says, sizeof(struct ksays), kineto_by_corr_says, 0) < 0 ||
				   ls_xsort_init(&in->calls, sizeof(struct kcall), kineto_by_corr_call, 0) < 0)) {
			kj_close(&j);
			return LS_ERR_NOMEM;
		}
		in->j = &j;
		/*
		 * the second pass keeps what the first read of the top object:
		 * a key after traceEvents (baseTimeNanoseconds, where Kineto
		 * writes it) holds for the events before it too
		 */
		rc = kj_walk(&j, which == 1 ? &f->top : &again, which == 1 ? kineto_look : kineto_events, in);
		in->read_before += kj_offset(&j);
		kj_close(&j);
		if (rc == 0 && which == 1)
			rc = kineto_join(in);
		if (rc == KJ_ERROR)
			return LS_ERR_SYNTAX;	/* said in err */
		if (rc < 0 && !in->err[0])
			snprintf(in->err, in->errlen, "%s%s%s", in->label ? f->path : "", in->label ? ": " : "",
				 rc == LS_ERR_NOMEM ? "out of memory" : ls_front_error(in->front));
	}
	return rc;
}

/* After the first pass: ranks given once, the time that becomes 0, the process groups matched. */
static int settle(struct kinetoin *in)
{
	int64_t world = -1;
	bool any = false;

	for (uint32_t i = 0; i < in->nfiles; i++) {
		const struct kfile *f = &in->files[i];

		for (uint32_t k = 0; k < i && f->top.have_rank; k++)
			if (in->files[k].top.have_rank && in->files[k].top.rank == f->top.rank) {
				snprintf(in->err, in->errlen, "%s and %s are both rank %lld (their distributedInfo)",
					 in->files[k].path, f->path, (long long)f->top.rank);
				return LS_ERR_SYNTAX;
			}
		kineto_span_done(&in->files[i]);
		if (f->top.world > world)
			world = f->top.world;
		in->cut += f->top.cut;
		if (f->any && (!any || f->top.base + f->first < in->origin))
			in->origin = f->top.base + f->first;
		any |= f->any;
	}
	if (world > (int64_t)in->nfiles)
		in->ranks_without_trace = (uint64_t)world - in->nfiles;
	for (uint32_t i = 0; i < in->nfiles; i++) {
		const struct kfile *f = &in->files[i];

		if (f->any && (f->top.base + f->last - in->origin) >= (INT64_C(1) << 62)) {
			snprintf(in->err, in->errlen, "%s%sits times lie more than 146 years from the first trace's",
				 in->label ? f->path : "", in->label ? ": " : "");
			return LS_ERR_RANGE;
		}
	}
	return kineto_nccl_match(in);
}

/* What was odd, once each; what was read and skipped, by kind, for --stats. */
static void report(struct kinetoin *in)
{
	static const struct {
		size_t at;
		const char *what;
	} odd[] = {
		{ offsetof(struct kinetoin, cut), "traces cut inside traceEvents (a profiler killed, or a full disk): read up to the cut" },
		{ offsetof(struct kinetoin, no_time), "activities with a negative duration, left out" },
		{ offsetof(struct kinetoin, clipped), "host activities (annotations, operators, calls) that reached outside the profiler's span (its Trace record): clipped to it" },
		{ offsetof(struct kinetoin, ranks_without_trace), "ranks of the run (distributedInfo's world_size) without a trace given" },
		{ offsetof(struct kinetoin, nccl_bare), "NCCL kernels without the collective's name, process group and sequence number (PyTorch 2.x's profiler writes them): not matched across ranks" },
		{ offsetof(struct kinetoin, nccl_no_seq), "NCCL kernels without their process group or sequence number: not matched across ranks" },
		{ offsetof(struct kinetoin, nccl_unmatched), "NCCL kernels on process groups not matched across ranks (tr-read --stats says why)" },
		{ offsetof(struct kinetoin, nccl_p2p), "NCCL point-to-point kernels (send, recv): not matched as messages" },
	};

	/* kept by the front until the tool reports, after the reader is gone: one process reads once */
	static char foreign[200];

	for (size_t i = 0; i < sizeof(odd) / sizeof(odd[0]); i++)
		ls_front_odd(in->front, *(const uint64_t *)((const char *)in + odd[i].at), odd[i].what);
	snprintf(foreign, sizeof(foreign), "events of an accelerator tr-read does not know (categories such as %s): "
		 "read as host code, its calls not linked to its device work", in->foreign_cat);
	ls_front_odd(in->front, in->foreign, foreign);
	for (size_t k = 0; k < sizeof(kinds) / sizeof(kinds[0]); k++)
		ls_front_input(in->front, kinds[k].label, in->counts[k][KS_READ], in->counts[k][KS_SKIPPED]);
}

int kinetoin_read(const char *const *paths, int n, const struct ls_stage *stage, struct ls_front *front,
		  struct ls_writer *w, char *err, size_t len)
{
	struct kinetoin in;
	char **owned = NULL;
	uint32_t nowned = 0, owned_cap = 0;
	struct stat st;
	int rc = 0;

	memset(&in, 0, sizeof(in));
	in.front = front;
	in.w = w;
	in.err = err;
	in.errlen = len;
	err[0] = '\0';
	for (int i = 0; i < n && rc == 0; i++)
		rc = stat(paths[i], &st) == 0 && S_ISDIR(st.st_mode) ? add_folder(&in, paths[i], &owned, &nowned, &owned_cap)
								      : add_file(&in, paths[i]);
	for (uint32_t i = 0; i < in.nfiles; i++)	/* both passes read each file */
		in.input += stat(in.files[i].path, &st) == 0 ? 2 * (uint64_t)st.st_size : 0;
	/* messages name the file where tr-read's own (the first path) would not */
	in.label = in.nfiles > 1 || (in.nfiles == 1 && in.files[0].path != paths[0]);
	if (rc == 0 && !in.nfiles) {
		snprintf(err, len, "%s: no Kineto trace (NAME.json, NAME.json.gz) in the folder", paths[0]);
		rc = LS_ERR_SYNTAX;
	}
	if (rc == 0 && (rc = kineto_refs_init(&in)) == 0 && (rc = pass(&in, 1)) == 0 &&
	    (rc = kineto_refs_done(&in)) == 0 && (rc = settle(&in)) == 0 &&
	    (rc = write_definitions(&in, paths[0], stage)) == 0 && (rc = pass(&in, 2)) == 0 &&
	    (rc = ls_front_finish(front)) == 0)
		rc = ls_write_trailer(w);
	if (rc < 0 && !err[0])
		snprintf(err, len, "%s", w->err ? "cannot write the stream" :
					  rc == LS_ERR_NOMEM ? "out of memory" : ls_front_error(front));
	if (rc == 0 || in.nfiles)
		report(&in);
	for (uint32_t i = 0; i < in.nfiles; i++)
		kineto_file_release(&in.files[i]);
	free(in.files);
	for (uint32_t i = 0; i < nowned; i++)
		free(owned[i]);
	free(owned);
	fmt_regions_release(&in.regions);
	kineto_nccl_release(&in);
	kineto_refs_release(&in);
	return rc;
}
