/*
 * An OpenMP program with wait states of known size, for the tests of
 * tr-record's OpenMP collector (built with clang -fopenmp: LLVM's libomp
 * has OMPT). 4 threads; DELAY ms (argv[1], 100 by default):
 *
 *   barrier   thread 0 computes DELAY before an explicit barrier, the
 *             others none: each of the three waits DELAY
 *   critical  thread 0 enters a critical section at once and holds it
 *             DELAY; the others come DELAY / 10 after it went in and wait
 *             for it, then hold it only a moment. They wait to see it in
 *             first: on a loaded machine thread 0 may start last
 */
#include <omp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

static void sleep_ms(long ms)
{
	struct timespec ts = { ms / 1000, (ms % 1000) * 1000000 };

	while (nanosleep(&ts, &ts) != 0)
		;
}

int main(int argc, char **argv)
{
	const char *what = argc > 1 ? argv[1] : "barrier";
	long ms = argc > 2 ? atol(argv[2]) : 100;
	int held = 0, inside = 0;

	if (strcmp(what, "barrier") && strcmp(what, "critical")) {
		fprintf(stderr, "omp-patterns: no scenario %s\n", what);
		return 2;
	}
#pragma omp parallel num_threads(4)
	{
		int me = omp_get_thread_num();

		if (!strcmp(what, "barrier")) {
			if (me == 0)
				sleep_ms(ms);
#pragma omp barrier
		} else {
			if (me != 0) {
				int seen;

				do {
#pragma omp atomic read seq_cst
					seen = inside;
					if (!seen)
						sleep_ms(1);
				} while (!seen);
				sleep_ms(ms / 10);
			}
#pragma omp critical
			{
				held++;
				if (me == 0) {
#pragma omp atomic write seq_cst
					inside = 1;
					sleep_ms(ms);
				}
			}
		}
	}
	printf("omp-patterns: %s done (%d)\n", what, held);
	return 0;
}
