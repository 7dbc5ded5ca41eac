/* Temporary files that leave nothing behind. */
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

#include "tmpfile.h"

const char *ls_tmp_dir(void)
{
	const char *d = getenv("TMPDIR");

	return d && *d ? d : "/tmp";
}

const char *ls_tmp_named(void)
{
	static __thread char named[4096 + 8];
	const char *d = getenv("TMPDIR");

	if (!d || !*d)
		return ls_tmp_dir();
	snprintf(named, sizeof(named), "TMPDIR=%s", d);
	return named;
}

int ls_tmp_fd(const char *what)
{
	char path[4096];
	int fd;

	if (snprintf(path, sizeof(path), "%s/tr-%s-XXXXXX", ls_tmp_dir(), what) >= (int)sizeof(path)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	if ((fd = mkstemp(path)) >= 0)
		unlink(path);
	return fd;
}
