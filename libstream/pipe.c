/* Pipes between stages: a larger buffer where the system allows one. */
#include <fcntl.h>
#include <sys/stat.h>

#include "pipe.h"

#define PIPE_BYTES (1 << 20)

void ls_pipe_widen(int fd)
{
#ifdef F_SETPIPE_SZ
	struct stat st;

	if (fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode) &&
	    fcntl(fd, F_GETPIPE_SZ) < PIPE_BYTES)
		(void)fcntl(fd, F_SETPIPE_SZ, PIPE_BYTES);
#else
	(void)fd;
#endif
}
