/* The libraries the tools load at run time, in lib/tr/ beside their bin/. */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "libdir.h"
#include "tool.h"

#define LIBDIR_FROM_BIN "../lib/tr"

bool libdir_path(const char *name, char *buf, size_t n, bool must)
{
	char self[PATH_MAX];
	ssize_t got = readlink("/proc/self/exe", self, sizeof(self) - 1);
	char *slash;

	if (got <= 0) {
		tool_error("cannot find where this program lies: %s", strerror(errno));
		return false;
	}
	self[got] = '\0';
	if ((slash = strrchr(self, '/')))
		*slash = '\0';
	if ((size_t)snprintf(buf, n, "%s/%s/%s", self, LIBDIR_FROM_BIN, name) >= n) {
		tool_error("%s: a path too long", self);
		return false;
	}
	if (access(buf, R_OK) < 0) {
		if (must)
			tool_error("%s: %s (not installed whole)", buf, strerror(errno));
		return false;
	}
	return true;
}
