/*
 * The OpenMP collector: an OMPT tool (OpenMP 5's tool interface), which
 * the runtime finds as ompt_start_tool in the program (tr-record preloads
 * it). It records teams forked and joined, each thread's implicit task,
 * barriers, and locks and critical sections waited for, acquired and
 * released (docs/trlog.md). LLVM's libomp has OMPT; GCC's libgomp has
 * none: where the program ran libgomp and the runtime never started the
 * tool, that is said once at exit.
 */
#include <link.h>
#include <omp-tools.h>
#include <string.h>

#include "../../formats/trlog/trlog.h"
#include "../../libstream/enc.h"
#include "../log.h"

ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version, const char *runtime_version);

static bool started;

static void record(int what, uint64_t a, uint64_t b)
{
	uint64_t thread;
	int64_t t = rec_now();
	struct ls_buf *buf = rec_begin(&thread);

	if (!buf)
		return;
	ls_enc_array(buf, 6);
	ls_enc_uint(buf, TRLOG_OMP);
	ls_enc_uint(buf, thread);
	ls_enc_int(buf, t);
	ls_enc_uint(buf, (uint64_t)what);
	ls_enc_uint(buf, a);
	ls_enc_uint(buf, b);
	rec_end();
}

static void on_parallel_begin(ompt_data_t *task, const ompt_frame_t *frame, ompt_data_t *parallel,
			      unsigned int requested, int flags, const void *codeptr)
{
	(void)task, (void)frame, (void)parallel, (void)flags, (void)codeptr;
	record(TRLOG_OMP_FORK, requested, 0);
}

static void on_parallel_end(ompt_data_t *parallel, ompt_data_t *task, int flags, const void *codeptr)
{
	(void)parallel, (void)task, (void)flags, (void)codeptr;
	record(TRLOG_OMP_JOIN, 0, 0);
}

static void on_implicit_task(ompt_scope_endpoint_t endpoint, ompt_data_t *parallel, ompt_data_t *task,
			     unsigned int actual, unsigned int index, int flags)
{
	(void)parallel, (void)task, (void)actual;
	if (flags & ompt_task_initial)
		return;		/* the initial thread's task: no team */
	record(endpoint == ompt_scope_begin ? TRLOG_OMP_TASK_BEGIN : TRLOG_OMP_TASK_END, index, 0);
}

static void on_sync_region(ompt_sync_region_t kind, ompt_scope_endpoint_t endpoint, ompt_data_t *parallel,
			   ompt_data_t *task, const void *codeptr)
{
	(void)parallel, (void)task, (void)codeptr;
	switch (kind) {
	case ompt_sync_region_barrier:
	case ompt_sync_region_barrier_implicit:
	case ompt_sync_region_barrier_explicit:
	case ompt_sync_region_barrier_implementation:
	case ompt_sync_region_barrier_implicit_workshare:
	case ompt_sync_region_barrier_implicit_parallel:
		record(endpoint == ompt_scope_begin ? TRLOG_OMP_BARRIER_BEGIN : TRLOG_OMP_BARRIER_END,
		       kind == ompt_sync_region_barrier_explicit, 0);
		break;
	default:
		break;	/* taskwait, taskgroup, reduction: not barriers of the team */
	}
}

/* Locks and critical sections; atomics and ordered sections are not recorded. */
static bool recorded_mutex(ompt_mutex_t kind)
{
	return kind == ompt_mutex_lock || kind == ompt_mutex_test_lock || kind == ompt_mutex_nest_lock ||
	       kind == ompt_mutex_test_nest_lock || kind == ompt_mutex_critical;
}

static void on_mutex_acquire(ompt_mutex_t kind, unsigned int hint, unsigned int impl, ompt_wait_id_t wait_id,
			     const void *codeptr)
{
	(void)hint, (void)impl, (void)codeptr;
	if (recorded_mutex(kind) && kind != ompt_mutex_test_lock && kind != ompt_mutex_test_nest_lock)
		record(TRLOG_OMP_LOCK_WAIT, wait_id, kind == ompt_mutex_critical);
}

static void on_mutex_acquired(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void *codeptr)
{
	(void)codeptr;
	if (recorded_mutex(kind))
		record(TRLOG_OMP_LOCK_ACQUIRED, wait_id, kind == ompt_mutex_critical);
}

static void on_mutex_released(ompt_mutex_t kind, ompt_wait_id_t wait_id, const void *codeptr)
{
	(void)codeptr;
	if (recorded_mutex(kind))
		record(TRLOG_OMP_LOCK_RELEASED, wait_id, kind == ompt_mutex_critical);
}

static int initialize(ompt_function_lookup_t lookup, int initial_device, ompt_data_t *tool_data)
{
	ompt_set_callback_t set = (ompt_set_callback_t)lookup("ompt_set_callback");
	static const struct {
		ompt_callbacks_t which;
		ompt_callback_t fn;
	} callbacks[] = {
		{ ompt_callback_parallel_begin, (ompt_callback_t)on_parallel_begin },
		{ ompt_callback_parallel_end, (ompt_callback_t)on_parallel_end },
		{ ompt_callback_implicit_task, (ompt_callback_t)on_implicit_task },
		{ ompt_callback_sync_region, (ompt_callback_t)on_sync_region },
		{ ompt_callback_mutex_acquire, (ompt_callback_t)on_mutex_acquire },
		{ ompt_callback_mutex_acquired, (ompt_callback_t)on_mutex_acquired },
		{ ompt_callback_mutex_released, (ompt_callback_t)on_mutex_released },
	};

	(void)initial_device, (void)tool_data;
	if (!set)
		return 0;
	for (size_t i = 0; i < sizeof(callbacks) / sizeof(callbacks[0]); i++)
		if (set(callbacks[i].which, callbacks[i].fn) == ompt_set_never)
			rec_say("the OpenMP runtime gives no OMPT callback %d: those events are not recorded",
				(int)callbacks[i].which);
	started = true;
	return 1;
}

static void finalize(ompt_data_t *tool_data)
{
	(void)tool_data;
}

ompt_start_tool_result_t *ompt_start_tool(unsigned int omp_version, const char *runtime_version)
{
	static ompt_start_tool_result_t result = { initialize, finalize, { 0 } };

	(void)omp_version, (void)runtime_version;
	return &result;
}

static int is_gomp(struct dl_phdr_info *info, size_t size, void *found)
{
	(void)size;
	if (info->dlpi_name && strstr(info->dlpi_name, "libgomp"))
		*(bool *)found = true;
	return 0;
}

/* At exit: a program that ran an OpenMP runtime without OMPT is told so, once. */
__attribute__((destructor)) static void no_ompt(void)
{
	bool gomp = false;

	if (started || !rec_on())
		return;
	dl_iterate_phdr(is_gomp, &gomp);
	if (gomp)
		rec_say("the program's OpenMP runtime, GCC's libgomp, has no OMPT: its OpenMP is not recorded "
			"(LLVM's libomp has: clang -fopenmp)");
}
