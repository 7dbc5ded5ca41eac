/* TR_MAX_MEM: the limit, and the memory held. */
#include <errno.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "maxmem.h"
#include "../common/tool.h"

int maxmem_limit(uint64_t *limit)
{
	const char *s = getenv("TR_MAX_MEM");
	static const char units[] = "KMGT";
	unsigned long long v;
	char *end;

	bool over;

	*limit = 0;
	if (!s || !*s)
		return 0;
	errno = 0;
	v = strtoull(s, &end, 10);
	over = errno == ERANGE;
	if (end != s && *end && strchr(units, *end) && !end[1]) {
		for (const char *u = units; u <= strchr(units, *end); u++) {
			over |= v > UINT64_MAX / 1024;
			v *= 1024;
		}
		end++;
	}
	if (end == s || *end || *s == '-' || v == 0) {
		tool_error("TR_MAX_MEM=%s: give a size in bytes, or with K, M, G or T (4G)", s);
		return -1;
	}
	if (over) {	/* not "no limit": the user asked for one */
		tool_error("TR_MAX_MEM=%s: more than 2^64 bytes; give a size this machine can have", s);
		return -1;
	}
	*limit = v;
	return 0;
}

uint64_t maxmem_resident(void)
{
	unsigned long long size, resident;
	FILE *f = fopen("/proc/self/statm", "r");
	int n = f ? fscanf(f, "%llu %llu", &size, &resident) : 0;

	if (f)
		fclose(f);
	return n == 2 ? resident * (uint64_t)sysconf(_SC_PAGESIZE) : 0;
}

bool maxmem_within(uint64_t limit, const char *where, void (*held)(const void *ctx, char *what, size_t n),
		   const void *ctx)
{
	uint64_t now = maxmem_resident();
	char what[256] = "";

	if (!limit || now <= limit)
		return true;
	if (held)
		held(ctx, what, sizeof(what));
	tool_error("%s: %.1f MiB held, more than TR_MAX_MEM (%.1f MiB)%s%s", where, (double)now / 1048576.0,
		   (double)limit / 1048576.0, what[0] ? ": " : "", what);
	return false;
}
