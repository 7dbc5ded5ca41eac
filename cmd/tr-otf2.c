/*
 * tr-otf2: write a record stream as an OTF2 archive, for Vampir and every
 * other OTF2 reader: the trace as tr-read read it, plus the analysis
 * results (critical path, blame, waiting time) as metrics.
 */
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <inttypes.h>
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../formats/otf2/otf2out.h"
#include "../libstream/error.h"
#include "../libstream/fd.h"
#include "output/apart.h"
#include "output/archive.h"
#include "output/otf2-write.h"
#include "common/progress.h"
#include "common/tool.h"

static void usage(FILE *to)
{
	fprintf(to, "usage: tr-otf2 [-fhq] [--stats] -o dir/name [stream]\n");
	if (to == stdout)
		tool_help(to,
			  "  -o, --output DIR/NAME    the archive to write (DIR/NAME.otf2 is its anchor)\n"
			  "  -f, --force              replace an archive there (only an archive)\n"
			  "  -q, --quiet              no progress line (drawn where stderr is a terminal, given a stream file)\n"
			  "  --stats                  what was written and left out, on stderr\n", false);
}

/*
 * Standard input (or anything that cannot be read twice) is copied into
 * the staging folder first. Returns the path to read, or NULL after a message.
 */
static char *readable_twice(const char *input, const char *stage, const char *out_path)
{
	const char *name = input ? input : "<stdin>";
	char buf[1 << 16], *copy;
	struct stat st;
	int out;
	ssize_t n;

	if (input && strcmp(input, "-") != 0) {
		if (stat(input, &st) < 0) {
			tool_error("%s: %s", input, strerror(errno));
			return NULL;
		}
		if (S_ISREG(st.st_mode))
			return strdup(input);
		if (freopen(input, "r", stdin) == NULL) {
			tool_error("%s: %s", input, strerror(errno));
			return NULL;
		}
	}
	if (asprintf(&copy, "%s/stream", stage) < 0) {
		tool_error("out of memory");
		return NULL;
	}
	if ((out = open(copy, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0600)) < 0)
		goto write_failed;
	while ((n = read(STDIN_FILENO, buf, sizeof(buf))) != 0) {
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0) {
			tool_error("%s: %s", name, strerror(errno));
			goto out;
		}
		if (ls_write_all(out, buf, (size_t)n) < 0)
			goto write_failed;
	}
	if (close(out) < 0) {
		out = -1;
		goto write_failed;
	}
	return copy;
write_failed:
	/* named by the archive asked for, the hidden copy after */
	tool_error("%s: cannot keep a copy of %s, which is read twice: %s (%s)", out_path, name, strerror(errno),
		   copy);
out:
	if (out >= 0)
		close(out);
	free(copy);
	return NULL;
}

static int run(struct archive *a, const char *input, const char *out_path, bool force,
	       bool stats, bool quiet)
{
	struct otf2out *o = otf2out_new();
	const char *name = input && strcmp(input, "-") != 0 ? input : "<stdin>";
	char *path = NULL;
	struct otf2_reading g = { .size = 0 };
	struct stat st;
	int status = 1;

	if (!o) {
		tool_error("out of memory");
		return 1;
	}
	/* a stream file given is read here: its progress drawn (a pipeline's is the reader's to draw) */
	progress_start(&g.line, "tr-otf2", "records", quiet || !input || !strcmp(input, "-") ||
		       stat(input, &st) < 0 || !S_ISREG(st.st_mode));
	g.size = g.line.on ? (uint64_t)st.st_size : 0;
	if ((path = readable_twice(input, a->stage, out_path)) &&
	    otf2_pass(o, path, name, out_path, otf2out_take, &g) == 0 &&
	    otf2_archive(o, a, path, name, out_path, force, stats, &g) == 0)
		status = 0;
	progress_end(&g.line);
	otf2out_free(o);
	free(path);
	return status;
}

int main(int argc, char **argv)
{
	enum { OPT_STATS = 256 };
	static const struct option longopts[] = {
		{ "help", no_argument, NULL, 'h' },
		{ "output", required_argument, NULL, 'o' },
		{ "force", no_argument, NULL, 'f' },
		{ "stats", no_argument, NULL, OPT_STATS },
		{ "quiet", no_argument, NULL, 'q' },
		TOOL_VERSION,
		{ NULL, 0, NULL, 0 },
	};
	const char *out_path = NULL;
	bool force = false, stats = false, quiet = false;
	struct archive a;
	char err[512];
	int ch, status;

	tool_init("tr-otf2", argc, argv);
	while ((ch = getopt_long(argc, argv, "fho:q", longopts, NULL)) != -1) {
		tool_help_option(ch, usage);
		switch (ch) {
		case 'o':
			out_path = optarg;
			break;
		case 'f':
			force = true;
			break;
		case 'q':
			quiet = true;
			break;
		case OPT_STATS:
			stats = true;
			break;
		default:
			usage(stderr);
			return 2;
		}
	}
	if (!out_path || argc - optind > 1) {
		usage(stderr);
		return 2;
	}
	if ((status = outputs_apart(&(struct output_place){ "-o", out_path, true }, 1, argv + optind,
				    argc - optind, err, sizeof(err)))) {
		tool_error("%s", err);
		return status == -1 ? 2 : 1;
	}
	if (archive_prepare(&a, out_path, force, err, sizeof(err)) < 0) {
		tool_error("%s", err);
		archive_release(&a, err, sizeof(err));
		return 1;
	}
	status = run(&a, argc > optind ? argv[optind] : NULL, out_path, force, stats, quiet);
	if (archive_release(&a, err, sizeof(err)) < 0) {
		tool_error("%s", err);
		status = 1;
	}
	return status;
}
