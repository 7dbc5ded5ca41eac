/* Writing whole buffers to file descriptors (fd.h). */
#include <errno.h>
#include <unistd.h>

#include "fd.h"

int ls_write_all(int fd, const void *p, size_t n)
{
	const char *b = p;

	while (n) {
		ssize_t w = write(fd, b, n);

		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0) {
			if (!w)
				errno = ENOSPC;
			return -1;
		}
		b += w;
		n -= (size_t)w;
	}
	return 0;
}
