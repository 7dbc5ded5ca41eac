/* The fuzzer's input as a file the tools can open. */
#include <stdio.h>
#include <sys/mman.h>
#include <unistd.h>

#include "input.h"

int fuzz_input(const uint8_t *data, size_t size, char *path, size_t n)
{
	int fd = memfd_create("fuzz-input", MFD_CLOEXEC);

	if (fd < 0)
		return -1;
	if (write(fd, data, size) != (ssize_t)size || lseek(fd, 0, SEEK_SET) < 0) {
		close(fd);
		return -1;
	}
	snprintf(path, n, "/proc/self/fd/%d", fd);
	return fd;
}
