/* tr-analyze --mpi: the library that reads under MPI, loaded only then. */
#include <dlfcn.h>
#include <limits.h>

#include "fan.h"
#include "../common/libdir.h"
#include "../common/tool.h"

const struct fan_ops *fan_load(void)
{
	char path[PATH_MAX];
	const struct fan_ops *ops;
	void *lib;

	if (!libdir_path(FAN_LIBRARY, path, sizeof(path), true))
		return NULL;
	/* global: Open MPI's own components, which it loads, look for its symbols */
	if (!(lib = dlopen(path, RTLD_NOW | RTLD_GLOBAL))) {
		tool_error("--mpi: %s", dlerror());
		return NULL;
	}
	if (!(ops = dlsym(lib, FAN_OPS))) {
		tool_error("--mpi: %s: %s", path, dlerror());
		dlclose(lib);
		return NULL;
	}
	return ops;	/* kept loaded: MPI runs until the process ends */
}
