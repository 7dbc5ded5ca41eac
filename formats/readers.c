/* The table of trace formats, and picking one for an input. */
#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../libstream/error.h"
#include "kineto/kinetoin.h"
#include "nsys/nsysin.h"
#include "otf2/otf2in.h"
#include "readers.h"
#include "stdin.h"
#include "trlog/trlogin.h"

/* An OTF2 archive is one input: its anchor file, or a folder holding one (Score-P's experiment folder). */
static int otf2_read(const char *const *paths, int npaths, const struct ls_stage *stage, struct ls_front *front,
		     struct ls_writer *w, char *err, size_t n)
{
	char anchor[4096] = "";
	struct stat st;
	int found;

	(void)npaths;
	if (stat(paths[0], &st) < 0 || !S_ISDIR(st.st_mode))
		return otf2in_read(paths[0], stage, front, w, err, n);
	if ((found = otf2in_anchors_in(paths[0], anchor, sizeof(anchor))) != 1) {
		if (found)
			snprintf(err, n, "a folder of %d OTF2 archives: give the anchor file of one (%s)", found,
				 anchor);
		else	/* it had one when the readers looked: it changed since */
			snprintf(err, n, "holds no OTF2 archive any more");
		return LS_ERR_SYNTAX;
	}
	return otf2in_read(anchor, stage, front, w, err, n);
}

static const struct reader readers[] = {
	{ "OTF2 archives", "by their anchor file, NAME.otf2, or the folder holding it (Score-P's experiment folder)",
	  otf2in_sniff, otf2in_sniff_dir, false, false, true, otf2_read },
	{ "tr-record logs", "by their folder, or logs of one run, NAME.trlog", trlogin_sniff,
	  trlogin_sniff_dir, true, true, false, trlogin_read },
	{ "Kineto traces", "by their files, NAME.json or NAME.json.gz, or their folder", kinetoin_sniff,
	  kinetoin_sniff_dir, true, true, false, kinetoin_read },
	{ "Nsight Systems exports", "by their files, NAME.sqlite (nsys export --type sqlite)", nsysin_sniff, NULL, true,
	  false, false, nsysin_read },
};

#define NREADERS (sizeof(readers) / sizeof(readers[0]))

static bool ends_with(const char *s, const char *tail)
{
	size_t n = strlen(s), m = strlen(tail);

	return n > m && !strcmp(s + n - m, tail);
}

/* "... (it reads OTF2 archives, by their anchor file, NAME.otf2; ...)"; what to do with a report of Nsight's own. */
static void none_fits(const char *path, char *err, size_t n)
{
	size_t at;

	if (ends_with(path, ".nsys-rep") || ends_with(path, ".qdrep")) {
		snprintf(err, n, "an Nsight Systems report, which only Nsight reads: tr-read reads its SQLite export "
			 "(nsys export --type sqlite --output NAME.sqlite %s)", path);
		return;
	}
	at = (size_t)snprintf(err, n, "not a trace tr-read reads (it reads");

	for (size_t i = 0; i < NREADERS && at < n; i++)
		at += (size_t)snprintf(err + at, n - at, "%s %s, %s", i ? ";" : "",
				       readers[i].name, readers[i].give);
	if (at < n)
		snprintf(err + at, n - at, ")");
}

/* The reader that knows a file by its first bytes, or NULL. */
static const struct reader *sniffed(const uint8_t *head, size_t n)
{
	for (size_t i = 0; i < NREADERS; i++)
		if (readers[i].sniff(head, n))
			return &readers[i];
	return NULL;
}

static bool known(const uint8_t *head, size_t n)
{
	return sniffed(head, n) != NULL;
}

const struct reader *reader_for(const char *path, char *err, size_t n)
{
	const struct reader *r;
	uint8_t head[STDIN_HEAD];
	struct stat st;
	ssize_t got;
	int fd;

	if (stat(path, &st) < 0) {
		snprintf(err, n, "%s", strerror(errno));
		return NULL;
	}
	if (S_ISDIR(st.st_mode)) {
		for (size_t i = 0; i < NREADERS; i++)
			if (readers[i].sniff_dir && readers[i].sniff_dir(path))
				return &readers[i];
	}
	if (S_ISFIFO(st.st_mode)) {
		/* read as standard input, copied first: never opened here, where it would block */
		snprintf(err, n, "a named pipe, not a file: give it as standard input (tr-read - < %s)", path);
		return NULL;
	}
	if (!S_ISREG(st.st_mode)) {
		none_fits(path, err, n);
		return NULL;
	}
	if ((fd = open(path, O_RDONLY | O_CLOEXEC)) < 0) {
		snprintf(err, n, "%s", strerror(errno));
		return NULL;
	}
	got = read(fd, head, sizeof(head));
	close(fd);
	if (got < 0) {
		snprintf(err, n, "%s", strerror(errno));
		return NULL;
	}
	if ((r = sniffed(head, (size_t)got)))
		return r;
	none_fits(path, err, n);
	return NULL;
}

static bool is_stdin(const char *path)
{
	return !strcmp(path, "-");
}

/* Standard input as the one trace: made a file, then recognized as one. */
static const struct reader *stdin_reader(int npaths, char *err, size_t n)
{
	const struct reader *r;
	int rc;

	if (npaths > 1) {
		snprintf(err, n, "- (standard input) is a trace of its own: give it alone");
		return NULL;
	}
	if ((rc = stdin_as_file(known, err, n)) == STDIN_UNKNOWN)
		none_fits("-", err, n);
	if (rc < 0 || !(r = reader_for(STDIN_PATH, err, n)))
		return NULL;
	if (!r->from_stdin) {
		snprintf(err, n, "%s are read %s, not from standard input", r->name, r->give);
		return NULL;
	}
	return r;
}

const struct reader *readers_for(const char *const *paths, int npaths, char *err, size_t n)
{
	const struct reader *r, *other;

	for (int i = 0; i < npaths; i++)
		if (is_stdin(paths[i]))
			return stdin_reader(npaths, err, n);
	r = reader_for(paths[0], err, n);

	for (int i = 1; r && i < npaths; i++) {
		if (!r->many) {
			snprintf(err, n, "tr-read reads one of the %s at a time", r->name);
			return NULL;
		}
		if ((other = reader_for(paths[i], err, n)) != r) {
			char why[256];

			snprintf(why, sizeof(why), "%s", other ? "not one of the " : err);
			snprintf(err, n, "%s: %s%s", paths[i], why, other ? r->name : "");
			return NULL;
		}
	}
	return r;
}

int readers_read(const struct reader *r, const char *const *paths, int npaths, const struct ls_stage *stage,
		 struct ls_front *front, struct ls_writer *w, char *err, size_t n)
{
	static const char *const stdin_path[] = { STDIN_PATH };

	return r->read(is_stdin(paths[0]) ? stdin_path : paths, npaths, stage, front, w, err, n);
}
