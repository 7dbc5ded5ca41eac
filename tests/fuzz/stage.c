/*
 * Fuzz target: an analysis stage's read-take-write loop (stage_run, as the
 * tool runs it) over any bytes, to its end of input. Built once per
 * stage: -DFUZZ_DEPS, -DFUZZ_CLOCK, -DFUZZ_PROJECT, -DFUZZ_WAITS, -DFUZZ_CRITPATH or
 * -DFUZZ_RANK.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <unistd.h>

#include "../../cmd/run/stage.h"
#include "input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

/* A stage of the table, opened with opts, run over the input as its filter runs it. */
static void *run(const struct an_stage *def, unsigned jobs, const void *opts, struct stage_io *io)
{
	void *ctx = def->open(&io->w, jobs, opts);

	if (ctx && stage_run(def, ctx, io) != 0) {
		def->close(ctx);
		return NULL;
	}
	return ctx;
}

#if defined(FUZZ_DEPS)
static void stage(struct stage_io *io)
{
	void *d = run(&an_stage_deps, 1, NULL, io);

	if (d)
		an_stage_deps.close(d);
}
#elif defined(FUZZ_CLOCK)
#include "../../analysis/clock.h"

/* A window of 1 us, so that events are written as they go as well as at the end. */
static void stage(struct stage_io *io)
{
	void *c = run(&an_stage_clock, 1, &(struct an_clock_options){ .window = 1000, .latency = { 5, 0, 3 } },
		      io);

	if (c)
		an_stage_clock.close(c);
}
#elif defined(FUZZ_PROJECT)
#include "../../analysis/floors.h"
#include "../../analysis/project.h"

/*
 * The floors' first pass over the input, then the projection with work
 * halved and a floor by name, in a window of 1 us, so that events settle
 * and are written as they go as well as at the end.
 */
static void stage(struct stage_io *io)
{
	static const struct an_project_scale scale[] = { { "*", 0.5 }, { "MPI_*", 2 } };
	static const struct an_project_floor min[] = { { "MPI_Recv", 10 } };
	struct an_floors floors = AN_FLOORS_INIT;
	void *p;

	if (ls_reader_rewindable(&io->r) == 0 && an_floors_scan(&floors, &io->r, 1000) == 0 &&
	    ls_reader_rewind(&io->r) == 0 &&
	    (p = run(&an_stage_project, 1, &(struct an_project_options){
		    .window = 1000, .scales = scale, .nscales = 2, .floors = &floors, .mins = min,
		    .nmins = 1, .spec = "*=0.5" }, io)))
		an_stage_project.close(p);
	an_floors_release(&floors);
}
#elif defined(FUZZ_WAITS)
#include "../../analysis/waits.h"

static void stage(struct stage_io *io)
{
	struct an_waits *a = run(&an_stage_waits, 1, NULL, io);

	if (a)
		an_waits_summary(a);
	an_waits_free(a);
}
#elif defined(FUZZ_CRITPATH)
static void stage(struct stage_io *io)
{
	void *c = run(&an_stage_critpath, 2, NULL, io);

	if (c)
		an_stage_critpath.close(c);
}
#elif defined(FUZZ_RANK)
#include "../../analysis/rank.h"

static void stage(struct stage_io *io)
{
	struct an_rank *k = an_rank_new(AN_RANK_BY_WAIT | AN_RANK_WAITERS);
	struct an_rating *v = NULL;
	struct ls_record rec;
	struct an_item it;
	const char *why;
	uint32_t n;
	int rc;

	if (!k)
		return;
	ls_reader_skim(&io->r, ~an_rank_reads());
	while ((rc = ls_read(&io->r, &rec)) > 0 && (it = an_item_read(&rec), an_rank_take(k, &it, &why) == 0))
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
