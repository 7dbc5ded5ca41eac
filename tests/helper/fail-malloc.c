/*
 * Preloaded into a recorded program (after tr-record's collectors) to
 * test what a collector does when memory runs out: malloc calls made
 * from the shared object whose path contains TR_FAIL_MALLOC_FROM, of at
 * least TR_FAIL_MALLOC_MIN bytes, fail (NULL, errno ENOMEM); every other
 * call is glibc's. Never preloaded into a sanitized tool: it replaces the
 * allocator those bring.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <stdlib.h>
#include <string.h>

void *__libc_malloc(size_t n);

void *malloc(size_t n)
{
	const char *from = getenv("TR_FAIL_MALLOC_FROM"), *min = getenv("TR_FAIL_MALLOC_MIN");
	Dl_info info;

	if (from && n >= (size_t)strtoull(min ? min : "0", NULL, 10) &&
	    dladdr(__builtin_return_address(0), &info) && info.dli_fname && strstr(info.dli_fname, from)) {
		errno = ENOMEM;
		return NULL;
	}
	return __libc_malloc(n);
}
