/*
 * tr-record: run a program with the collector loaded, so that it writes
 * one log per process into DIR (docs/trlog.md); tr-read DIR reads them.
 * It checks DIR, sets the environment, and becomes the program (exec): the
 * program's exit status and signals are its own. It never deletes or
 * replaces anything: a DIR holding anything but logs of this same run is
 * refused, and each log is created exclusively.
 */
#include <dirent.h>
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../formats/trlog/trlog.h"
#include "../libstream/mp.h"
#include "common/libdir.h"
#include "common/tool.h"

/* The collector libraries, in lib/tr/ (libdir.h). */
#define MPI_COLLECTOR "libtr-mpi.so"
#define CUDA_COLLECTOR "libtr-cuda.so"
#define OMP_COLLECTOR "libtr-omp.so"

static void usage(FILE *to)
{
	fprintf(to, "usage: tr-record [-h] -o DIR -- program [arg ...]\n");
	if (to == stdout)
		tool_help(to,
			  "  -o, --output DIR         write the logs into DIR (made if missing): one per process,\n"
			  "                           rank-R.trlog under MPI, pid-P.trlog otherwise\n", false);
}

/* The job the launcher runs this process in (one id for all its ranks), or "". */
static const char *launcher_job(char *buf, size_t n)
{
	static const char *const vars[] = { "PMIX_NAMESPACE", "OMPI_MCA_ess_base_jobid", "PMI_KVSNAME" };
	const char *job = getenv("SLURM_JOB_ID"), *step = getenv("SLURM_STEP_ID");

	for (size_t i = 0; i < sizeof(vars) / sizeof(vars[0]); i++)
		if (getenv(vars[i]) && *getenv(vars[i])) {
			snprintf(buf, n, "%s", getenv(vars[i]));
			return buf;
		}
	if (job && *job) {
		snprintf(buf, n, "slurm-%s.%s", job, step ? step : "");
		return buf;
	}
	buf[0] = '\0';
	return buf;
}

/*
 * The "job" of a log's header, into buf (empty where it has none); false:
 * not a log. An empty file is a log a rank of this run has just made.
 */
static bool log_job(const char *path, char *buf, size_t n)
{
	uint8_t head[4096];
	const uint8_t *p = head, *end;
	struct mp_item it, key, val;
	bool is_log = false;
	ssize_t got;
	long k;
	int fd = open(path, O_RDONLY | O_CLOEXEC);

	buf[0] = '\0';
	if (fd < 0)
		return false;
	got = read(fd, head, sizeof(head));
	close(fd);
	if (got == 0) {
		snprintf(buf, n, "%s", getenv("TR_RECORD_JOB") ? getenv("TR_RECORD_JOB") : "");
		return true;
	}
	if (got < 0)
		return false;
	end = head + got;
	if ((k = mp_head(p, end, &it)) <= 0 || it.type != MP_MAP)
		return false;
	p += k;
	for (uint32_t i = 0; i < it.v.n; i++) {
		if ((k = mp_head(p, end, &key)) <= 0 || key.type != MP_STR)
			return false;
		p += k;
		if ((k = mp_head(p, end, &val)) <= 0)
			return false;
		if (val.type == MP_STR && key.v.s.n == 6 && !memcmp(key.v.s.p, "format", 6))
			is_log = val.v.s.n == 5 && !memcmp(val.v.s.p, "trlog", 5);
		if (val.type == MP_STR && key.v.s.n == 3 && !memcmp(key.v.s.p, "job", 3))
			snprintf(buf, n, "%.*s", (int)val.v.s.n, val.v.s.p);
		if ((k = mp_skip(p, end)) <= 0)
			return false;
		p += k;
	}
	return is_log;
}

/*
 * DIR exists (made here if missing: *made) and holds only logs of this
 * job. Returns 0, or 1 after a message.
 */
static int check_dir(const char *dir, const char *job, bool *made)
{
	char path[PATH_MAX], theirs[256];
	struct dirent *e;
	struct stat st;
	DIR *d;

	if (!(*made = mkdir(dir, 0777) == 0) && errno != EEXIST) {
		tool_error("%s: cannot make the folder: %s", dir, strerror(errno));
		return 1;
	}
	if (stat(dir, &st) < 0 || !S_ISDIR(st.st_mode)) {
		tool_error("%s: not a folder", dir);
		return 1;
	}
	if (!(d = opendir(dir))) {
		tool_error("%s: %s", dir, strerror(errno));
		return 1;
	}
	while ((e = readdir(d))) {
		if (!strcmp(e->d_name, ".") || !strcmp(e->d_name, ".."))
			continue;
		snprintf(path, sizeof(path), "%s/%s", dir, e->d_name);
		if (!trlog_named(e->d_name) || !log_job(path, theirs, sizeof(theirs))) {
			tool_error("%s: holds %s, which is not a tr-record log: give an empty or a new folder",
				   dir, e->d_name);
			closedir(d);
			return 1;
		}
		if (!*job || strcmp(job, theirs)) {
			tool_error("%s: holds %s, a log of another run: give an empty or a new folder", dir,
				   e->d_name);
			closedir(d);
			return 1;
		}
	}
	closedir(d);
	return 0;
}


/*
 * CUDA through CUPTI, where the CUDA collector was built: CUDA loads it
 * (CUDA_INJECTION64_PATH), and so does NVTX for its ranges
 * (NVTX_INJECTION64_PATH). Another tool's injection is left alone, said.
 */
static int inject_cuda(void)
{
	const char *theirs = getenv("CUDA_INJECTION64_PATH");
	char lib[PATH_MAX];

	if (!libdir_path(CUDA_COLLECTOR, lib, sizeof(lib), false))
		return 0;
	if (theirs && *theirs && strcmp(theirs, lib)) {
		tool_error("CUDA_INJECTION64_PATH is set (%s): CUDA is not recorded", theirs);
		return 0;
	}
	if (setenv("CUDA_INJECTION64_PATH", lib, 1) < 0)
		return -1;
	if (!getenv("NVTX_INJECTION64_PATH") && setenv("NVTX_INJECTION64_PATH", lib, 1) < 0)
		return -1;
	return 0;
}

/*
 * Whether the MPI collector loads here: it needs the MPI library it was
 * built with (Open MPI's libmpi.so.40). Where that is missing (a GPU
 * machine without MPI) ld.so would say so in every process of the
 * program, which then has no MPI to record: said once, here, instead.
 */
static bool mpi_loads(const char *lib)
{
	void *h = dlopen(lib, RTLD_LAZY | RTLD_LOCAL);

	if (!h) {
		tool_error("the MPI collector does not load here (%s): MPI is not recorded", dlerror());
		return false;
	}
	dlclose(h);
	return true;
}

/* LD_PRELOAD with lib first, what was there after it. */
static int preload(const char *lib)
{
	const char *was = getenv("LD_PRELOAD");
	char *value;
	int rc;

	if (!was || !*was)
		return setenv("LD_PRELOAD", lib, 1);
	if (asprintf(&value, "%s:%s", lib, was) < 0)
		return -1;
	rc = setenv("LD_PRELOAD", value, 1);
	free(value);
	return rc;
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		TOOL_VERSION,
		{ "output", required_argument, NULL, 'o' },
		{ NULL, 0, NULL, 0 },
	};
	struct tool_output out = { false, false };
	char job[256], lib[PATH_MAX], dir[PATH_MAX];
	const char *output = NULL;
	bool made;
	int ch;

	tool_init("tr-record", argc, argv);
	while ((ch = getopt_long(argc, argv, "+ho:", longopts, NULL)) != -1) {
		if (ch != 'o' && tool_option(ch, &out, usage))
			continue;
		switch (ch) {
		case 'o':
			output = optarg;
			break;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (!output || optind >= argc) {
		usage(stderr);
		return 2;
	}
	if (!*output) {
		tool_error("-o: an empty folder name");
		return 2;
	}
	launcher_job(job, sizeof(job));
	if (setenv("TR_RECORD_JOB", job, 1) < 0 || check_dir(output, job, &made))
		return 1;
	if (!realpath(output, dir)) {
		tool_error("%s: %s", output, strerror(errno));
		return 1;
	}
	if (setenv("TR_RECORD_DIR", dir, 1) < 0) {
		tool_error("cannot set the environment: %s", strerror(errno));
		return 1;
	}
	/* preloaded: OpenMP's (where built) after MPI's, both before what was there */
	if (libdir_path(OMP_COLLECTOR, lib, sizeof(lib), false) && preload(lib) < 0)
		return 1;
	if (!libdir_path(MPI_COLLECTOR, lib, sizeof(lib), true) || (mpi_loads(lib) && preload(lib) < 0))
		return 1;
	if (inject_cuda() < 0) {
		tool_error("cannot set the environment: %s", strerror(errno));
		return 1;
	}
	execvp(argv[optind], argv + optind);
	tool_error("cannot run %s: %s", argv[optind], strerror(errno));
	if (made)	/* nothing left of a run that never began: the folder made for it goes */
		rmdir(dir);
	return 127;
}
