/*
 * Fuzz target: tr-read's OTF2 reader over damaged archives. The archive
 * FUZZ_ARCHIVE (an anchor file, NAME.otf2) is copied into a fresh folder
 * under TMPDIR (a tmpfs is best) with one of its files replaced: the
 * input's first byte picks which (in the order files_of lists them), the
 * rest is its new content. The seeds (tests/fuzz/run) are each file as it
 * is. Read into a stream written to /dev/null; the folder is removed.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../cmd/output/staging.h"
#include "../../formats/otf2/otf2in.h"
#include "input.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

#define MAX_FILES 256

/* The archive's files, relative to its folder: anchor, definitions, then its folder's. */
static char *files[MAX_FILES];
static int nfiles;
static char base[4096];

static int by_name(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static void files_of(const char *anchor)
{
	const char *slash = strrchr(anchor, '/');
	char name[256], folder[4096];
	struct dirent *e;
	DIR *d;

	snprintf(base, sizeof(base), "%.*s", slash ? (int)(slash - anchor) : 1, slash ? anchor : ".");
	snprintf(name, sizeof(name), "%.*s", (int)strcspn(slash ? slash + 1 : anchor, "."),
		 slash ? slash + 1 : anchor);
	asprintf(&files[nfiles++], "%s.otf2", name);
	asprintf(&files[nfiles++], "%s.def", name);
	snprintf(folder, sizeof(folder), "%s/%s", base, name);
	if (!(d = opendir(folder)))
		return;
	while ((e = readdir(d)) && nfiles < MAX_FILES)
		if (e->d_name[0] != '.')
			asprintf(&files[nfiles++], "%s/%s", name, e->d_name);
	closedir(d);
	qsort(files + 2, (size_t)nfiles - 2, sizeof(*files), by_name);
}

/* Write data[0..n) to dir/file. */
static void put(const char *dir, const char *file, const uint8_t *data, size_t n)
{
	char path[8192];
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", dir, file);
	if ((f = fopen(path, "w"))) {
		fwrite(data, 1, n, f);
		fclose(f);
	}
}

/* Copy base/file to dir/file. */
static void copy(const char *dir, const char *file)
{
	char path[8192];
	uint8_t *buf;
	long n;
	FILE *f;

	snprintf(path, sizeof(path), "%s/%s", base, file);
	if (!(f = fopen(path, "r")))
		return;
	fseek(f, 0, SEEK_END);
	n = ftell(f);
	rewind(f);
	if (n >= 0 && (buf = malloc((size_t)n + 1)) && fread(buf, 1, (size_t)n, f) == (size_t)n) {
		put(dir, file, buf, (size_t)n);
		free(buf);
	}
	fclose(f);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *tmp = getenv("TMPDIR");
	static const struct ls_stage self = { "fuzz-otf2in", TR_VERSION, 0, NULL };
	struct ls_front_options opt = LS_FRONT_OPTIONS_INIT;
	struct ls_front_report report;
	struct ls_front front;
	struct ls_writer w;
	char dir[4096], sub[8192], anchor[8192], err[512];
	int out;

	if (!nfiles)
		files_of(getenv("FUZZ_ARCHIVE") ? getenv("FUZZ_ARCHIVE") : "tests/fuzz/out/archive/a.otf2");
	if (size < 1 || nfiles < 2)
		return 0;
	snprintf(dir, sizeof(dir), "%s/fuzz-otf2in-XXXXXX", tmp ? tmp : "/tmp");
	if (!mkdtemp(dir))
		return 0;
	snprintf(sub, sizeof(sub), "%s/%.*s", dir, (int)strcspn(files[0], "."), files[0]);
	mkdir(sub, 0700);
	for (int i = 0; i < nfiles; i++)
		if (i == data[0] % nfiles)
			put(dir, files[i], data + 1, size - 1);
		else
			copy(dir, files[i]);
	snprintf(anchor, sizeof(anchor), "%s/%s", dir, files[0]);
	out = open("/dev/null", O_WRONLY | O_CLOEXEC);
	ls_writer_init(&w, out, LS_FMT_MSGPACK);
	ls_front_init(&front, &w, &opt, &report);
	otf2in_read(anchor, &self, &front, &w, err, sizeof(err));
	ls_front_release(&front);
	ls_writer_flush(&w);
	ls_writer_release(&w);
	close(out);
	staging_remove_tree(dir);
	return 0;
}
