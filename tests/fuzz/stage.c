/*
 * Fuzz target: an analysis stage's read-take-write loop (stage_run, as the
 * tool runs it) over any bytes, then its end of input. Built once per
 * stage: -DFUZZ_DEPS, -DFUZZ_CLOCK, -DFUZZ_PROJECT, -DFUZZ_WAITS, -DFUZZ_CRITPATH or
 * -DFUZZ_RANK.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "../../cmd/run/stage.h"
#include "input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#if defined(FUZZ_DEPS)
#include "../../analysis/deps.h"

static int take(void *ctx, const struct ls_record *rec, const char **why)
{
	return an_deps_take(ctx, rec, why);
}

static void stage(struct stage_io *io)
{
	static const enum ls_kind replaces[] = { LS_K_EDGE, LS_K_INSTANCE, 0 };
	struct an_deps *d = an_deps_new(&io->w);

	if (d && stage_run(&(struct stage){ .producer = "fuzz", .replaces = replaces,
					    .reads = an_deps_reads(), .take = take, .ctx = d }, io) == 0)
		an_deps_finish(d);
	an_deps_free(d);
}
#elif defined(FUZZ_CLOCK)
#include "../../analysis/clock.h"

static int take(void *ctx, const struct ls_record *rec, const char **why)
{
	return an_clock_take(ctx, rec, why);
}

/* A window of 1 us, so that events are written as they go as well as at the end. */
static void stage(struct stage_io *io)
{
	static const enum ls_kind replaces[] = { 0 };
	struct an_clock *c = an_clock_new(&io->w, &(struct an_clock_options){ .window = 1000,
									  .latency = { 5, 0, 3 } });

	if (c && stage_run(&(struct stage){ .producer = "fuzz", .replaces = replaces,
					    .reads = an_clock_reads(), .take = take, .writes = true,
					    .ctx = c }, io) == 0)
		an_clock_finish(c);
	an_clock_free(c);
}
#elif defined(FUZZ_PROJECT)
#include "../../analysis/project.h"

static int take(void *ctx, const struct ls_record *rec, const char **why)
{
	return an_project_take(ctx, rec, why);
}

/*
 * The floors' first pass over the input, then the projection with work
 * halved and a floor by name, in a window of 1 us, so that events settle
 * and are written as they go as well as at the end.
 */
static void stage(struct stage_io *io)
{
	static const enum ls_kind replaces[] = { LS_K_WAIT, LS_K_BLAME, LS_K_CRIT, 0 };
	static const struct an_project_scale scale[] = { { "*", 0.5 }, { "MPI_*", 2 } };
	static const struct an_project_floor min[] = { { "MPI_Recv", 10 } };
	struct an_floors floors = AN_FLOORS_INIT;
	struct an_project *p = NULL;

	if (ls_reader_rewindable(&io->r) == 0 && an_floors_scan(&floors, &io->r, 1000) == 0 &&
	    ls_reader_rewind(&io->r) == 0 &&
	    (p = an_project_new(&io->w, &(struct an_project_options){
		    .window = 1000, .scales = scale, .nscales = 2, .floors = &floors, .mins = min,
		    .nmins = 1, .spec = "*=0.5" })) &&
	    stage_run(&(struct stage){ .producer = "fuzz", .replaces = replaces,
				       .reads = an_project_reads(), .take = take, .writes = true,
				       .ctx = p }, io) == 0)
		an_project_finish(p);
	an_project_free(p);
	an_floors_release(&floors);
}
#elif defined(FUZZ_WAITS)
#include "../../analysis/waits.h"

static int take(void *ctx, const struct ls_record *rec, const char **why)
{
	return an_waits_take(ctx, rec, why);
}

static void stage(struct stage_io *io)
{
	static const enum ls_kind replaces[] = { LS_K_WAIT, LS_K_IDLE, LS_K_BLAME, LS_K_WAIT_SUMMARY, 0 };
	struct an_waits *a = an_waits_new(&io->w);

	if (a && stage_run(&(struct stage){ .producer = "fuzz", .replaces = replaces,
					    .reads = an_waits_reads(), .take = take, .ctx = a }, io) == 0 &&
	    an_waits_finish(a) == 0)
		an_waits_summary(a);
	an_waits_free(a);
}
#elif defined(FUZZ_CRITPATH)
#include "../../analysis/critpath.h"

static int take(void *ctx, const struct ls_record *rec, const char **why)
{
	return an_crit_take(ctx, rec, why);
}

static void stage(struct stage_io *io)
{
	static const enum ls_kind replaces[] = { LS_K_CRIT, 0 };
	struct an_crit *c = an_crit_new(&io->w, 2);

	if (c && stage_run(&(struct stage){ .producer = "fuzz", .replaces = replaces,
					    .reads = an_crit_reads(), .take = take, .ctx = c }, io) == 0)
		an_crit_finish(c);
	an_crit_free(c);
}
#elif defined(FUZZ_RANK)
#include "../../analysis/rank.h"

static void stage(struct stage_io *io)
{
	struct an_rank *k = an_rank_new(true);
	struct an_rating *v = NULL;
	struct ls_record rec;
	const char *why;
	uint32_t n;
	int rc;

	if (!k)
		return;
	ls_reader_skim(&io->r, ~an_rank_reads());
	while ((rc = ls_read(&io->r, &rec)) > 0 && an_rank_take(k, &rec, &why) == 0)
		;
	if (rc == 0 && an_rank_rate(k, true, &v, &n) == 0)
		for (int p = 0; p < LS_P__COUNT; p++) {
			uint64_t min, max;

			an_rank_wait_range(k, (enum ls_pattern)p, &min, &max, NULL);
		}
	free(v);
	an_rank_free(k);
}
#else
#error "build with -DFUZZ_DEPS, -DFUZZ_CLOCK, -DFUZZ_PROJECT, -DFUZZ_WAITS, -DFUZZ_CRITPATH or -DFUZZ_RANK"
#endif

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct stage_io io;
	char path[64];
	int in = fuzz_input(data, size, path, sizeof(path));
	int out = open("/dev/null", O_WRONLY | O_CLOEXEC);

	if (in >= 0 && out >= 0 && ls_reader_open(&io.r, path) == 0) {
		ls_writer_init(&io.w, out, LS_FMT_MSGPACK);
		io.max_mem = 0;
		stage(&io);
		ls_writer_flush(&io.w);
		ls_writer_release(&io.w);
		ls_reader_release(&io.r);
	}
	if (in >= 0)
		close(in);
	if (out >= 0)
		close(out);
	return 0;
}
