/* CPU time spent so far, as getrusage counts it: user and system together. */
#ifndef CMD_CPUTIME_H
#define CMD_CPUTIME_H

#include <stdint.h>
#include <sys/resource.h>

/* Of who (RUSAGE_SELF: the process, RUSAGE_THREAD: the calling thread), in ns; 0 where getrusage fails. */
static inline uint64_t cpu_time_ns(int who)
{
	struct rusage u;

	if (getrusage(who, &u) < 0)
		return 0;
	return (uint64_t)(u.ru_utime.tv_sec + u.ru_stime.tv_sec) * 1000000000u +
	       (uint64_t)(u.ru_utime.tv_usec + u.ru_stime.tv_usec) * 1000u;
}

#endif
