/* What every tr-* command does alike: messages, output format, the end. */
#include <errno.h>
#include <inttypes.h>
#include <math.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "../../libstream/check.h"
#include "../../libstream/error.h"
#include "../../libstream/utf8.h"
#include "tool.h"

static const char *tool_name = "tr";
static const struct ls_writer *told;	/* whose write error was said already */
static struct ls_stage stage = { "tr", TR_VERSION, 0, NULL };

void tool_init(const char *name, int argc, char **argv)
{
	char **args = malloc((size_t)argc * sizeof(*args));

	tool_name = name;
	/* the arguments as given: getopt reorders argv */
	if (args && argc > 1)
		memcpy(args, argv + 1, (size_t)(argc - 1) * sizeof(*args));
	stage = (struct ls_stage){ name, TR_VERSION, args ? argc - 1 : 0, args };
	/* past a file-size limit (ulimit -f) a write fails like one to a full disk */
	signal(SIGXFSZ, SIG_IGN);
}

const struct ls_stage *tool_stage(void)
{
	return &stage;
}

bool tool_made_by(const struct ls_reader *r, const struct ls_record *header,
		  const char *const *needs)
{
	char where[64];

	for (; needs && *needs; needs++)
		if (ls_header_has_stage(header, *needs) == 0) {
			tool_error("%s: %s: the stream has not been through %s: run it before %s "
				   "(tr-read TRACE | tr-deps | tr-waits | tr-critpath | tr-rank)",
				   r->name, ls_reader_where(r, where, sizeof(where)), *needs,
				   stage.tool);
			return false;
		}
	return true;
}

/*
 * A message is one line whatever it quotes (a file name with a newline,
 * the bytes of a damaged file): control characters are written as \n,
 * \t or \xNN, and bytes that are not UTF-8 as \xNN. Into out (room for
 * 4 bytes per byte of s, and one): its length.
 */
static size_t escape_line(char *out, const char *s)
{
	const char *end = s + strlen(s);
	size_t len = 0;

	while (s < end) {
		unsigned char c = (unsigned char)*s;
		size_t n = 1;

		if (c >= 0x80)	/* the UTF-8 character starting here, or 0: a stray byte */
			for (n = 2; n <= 4 && (s + n > end || !ls_utf8_valid(s, n)); n++)
				;
		if (c == '\n') {
			len += (size_t)sprintf(out + len, "\\n");
		} else if (c == '\t') {
			len += (size_t)sprintf(out + len, "\\t");
		} else if (c < 0x20 || c == 0x7f || n > 4) {
			len += (size_t)sprintf(out + len, "\\x%02x", c);
		} else {
			memcpy(out + len, s, n);
			len += n;
		}
		s += n > 4 ? 1 : n;
	}
	out[len] = 0;
	return len;
}

/* This thread's kept messages: tool_error_keep */
static __thread char *kept;
static __thread size_t kept_size;

void tool_error_keep(char *buf, size_t n)
{
	kept = buf;
	kept_size = n;
	if (buf && n)
		buf[0] = '\0';
}

/*
 * The message goes out in one write (stderr is unbuffered: one fwrite is
 * one write), so that the lines of processes writing at once (the ranks
 * of an mpirun) do not mix.
 */
void tool_error(const char *fmt, ...)
{
	char line[4096], out[64 + 4 * sizeof(line)];
	size_t len;
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	if (kept) {
		if (kept_size && !kept[0])
			snprintf(kept, kept_size, "%s", line);
		return;
	}
	len = (size_t)snprintf(out, 64, "%s: ", tool_name);
	if (len >= 64)
		len = 63;
	len += escape_line(out + len, line);
	out[len++] = '\n';
	fwrite(out, 1, len, stderr);
}

void tool_read_error(const struct ls_reader *r)
{
	tool_error("%s: %s", r->name, r->err);
}

bool tool_empty(const struct ls_reader *r)
{
	if (r->recno || r->ended)
		return false;
	tool_error("%s: empty input: no records (not a record stream)", r->name);
	return true;
}

void tool_help(FILE *to, const char *options, bool streams)
{
	fputs(options, to);
	if (streams)
		fprintf(to, "  %-24s %s\n  %-24s %s\n", "-J, --json", "write NDJSON (the default on a terminal)",
			"-M, --msgpack", "write msgpack (the default elsewhere)");
	fprintf(to, "  %-24s %s\n  %-24s %s\n(man %s: the whole story)\n", "-h, --help", "this help",
		"--version", "the tool's name and version", tool_name);
}

const char *tool_label(char *buf, size_t n, uint64_t id, const char *name)
{
	snprintf(buf, n, "%" PRIu64 "%s%s", id, name ? " " : "", name ? name : "");
	return buf;
}

void tool_version(void)
{
	printf("%s %s\n", tool_name, TR_VERSION);
	exit(fflush(stdout) == 0 ? 0 : 1);
}

void tool_help_option(int ch, void (*usage)(FILE *))
{
	if (ch == 'h') {
		usage(stdout);
		exit(0);
	}
	if (ch == 'V')
		tool_version();
}

bool tool_option(int ch, struct tool_output *out, void (*usage)(FILE *))
{
	tool_help_option(ch, usage);
	switch (ch) {
	case 'J':
		out->json = true;
		return true;
	case 'M':
		out->msgpack = true;
		return true;
	default:
		return false;
	}
}

int tool_output_format(const struct tool_output *out, enum ls_format *format)
{
	if (out->json && out->msgpack) {
		tool_error("-J and -M exclude each other");
		return -1;
	}
	if (out->json)
		*format = LS_FMT_JSON;
	else if (out->msgpack)
		*format = LS_FMT_MSGPACK;
	else
		*format = isatty(STDOUT_FILENO) ? LS_FMT_JSON : LS_FMT_MSGPACK;
	return 0;
}

int tool_write_error(const struct ls_reader *r, const struct ls_writer *w,
		     int rc)
{
	char where[64];

	if (rc == LS_ERR_JSON)
		tool_error("%s: %s: record has a value JSON cannot hold "
			   "(binary, ext, NaN or infinity)", r->name,
			   ls_reader_where(r, where, sizeof(where)));
	else if (rc == LS_ERR_NOMEM)
		tool_error("out of memory");
	else {
		tool_error("<stdout>: %s", strerror(w->err));
		told = w;
	}
	return 1;
}

int tool_finish(struct ls_writer *w)
{
	int status = w->err != 0;

	if (ls_writer_flush(w) < 0) {
		if (told != w)
			tool_error("<stdout>: %s", strerror(w->err));
		status = 1;
	}
	ls_writer_release(w);
	if (fflush(stdout) != 0 || ferror(stdout) || fclose(stdout) != 0) {
		if (!status)
			tool_error("<stdout>: write failed");
		status = 1;
	}
	return status;
}

void tool_report_counts(const char *path, const struct tool_count *c, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (c[i].count)
			tool_error("%s: %" PRIu64 " %s", path, c[i].count, c[i].what);
}

void tool_csv_str(const char *s)
{
	putchar('"');
	for (; *s; s++) {
		if (*s == '"')
			putchar('"');
		putchar(*s);
	}
	putchar('"');
}

int tool_threads_arg(const char *opt, const char *arg, unsigned *n)
{
	unsigned long v;
	char *end;

	errno = 0;
	v = strtoul(arg, &end, 10);
	if (!*arg || *end || errno || v < 1 || v > 64) {
		tool_error("%s %s: give a number of threads from 1 to 64", opt, arg);
		return 2;
	}
	*n = (unsigned)v;
	return 0;
}

int tool_window_arg(const char *opt, const char *arg, int64_t *ns)
{
	char *end;
	double s;

	errno = 0;
	s = strtod(arg, &end);
	if (!*arg || *end || errno || !(s > 0) || s > 86400) {
		tool_error("%s %s: give seconds, more than 0 and at most 86400", opt, arg);
		return 2;
	}
	*ns = (int64_t)llround(s * 1e9);
	if (*ns < 1)
		*ns = 1;
	return 0;
}

int tool_open_again(struct ls_reader *r, const char *path, const char *const *needs)
{
	struct ls_record rec;
	int rc;

	if (ls_reader_open(r, path) < 0) {
		tool_error("%s: %s", path && strcmp(path, "-") ? path : "<stdin>", r->err);
		return 1;
	}
	if (ls_reader_rewindable(r) < 0)
		tool_error("%s: %s", r->name, r->err);
	else if ((rc = ls_read(r, &rec)) < 0)
		tool_read_error(r);
	else if (rc == 0 ? !tool_empty(r) : rec.kind != LS_K_HEADER || tool_made_by(r, &rec, needs))
		return 0;
	ls_reader_release(r);
	return 1;
}

int tool_draw(int argc, char **argv, void (*usage)(FILE *to), int (*draw)(struct ls_reader *r, void *ctx),
	      void *ctx)
{
	static const char *const needs[] = { "tr-deps", "tr-waits", "tr-critpath", NULL };
	struct ls_reader r;
	struct ls_writer out;
	int status;

	if (argc - optind > 1) {
		usage(stderr);
		return 2;
	}
	if (tool_open_again(&r, argv[optind], needs))
		return 1;
	status = draw(&r, ctx);
	ls_reader_release(&r);
	ls_writer_init(&out, STDOUT_FILENO, LS_FMT_JSON);
	return tool_finish(&out) | status;
}

int tool_check_fields(const struct ls_reader *r, const struct ls_record *rec)
{
	char msg[256], where[64];
	int rc = ls_check_fields(rec, msg, sizeof(msg));

	if (rc == 0)
		return 0;
	if (rc == LS_ERR_SYNTAX)
		tool_error("%s: %s: %s", r->name, ls_reader_where(r, where, sizeof(where)), msg);
	else
		tool_error("%s: out of memory", r->name);
	return 1;
}

/* A pass over r, each record checked first where c is not NULL. */
static int pass(struct ls_reader *r, int (*each)(void *ctx, const struct ls_record *rec), void *ctx,
		struct ls_checker *c)
{
	struct ls_record rec;
	char msg[256], where[64];
	int rc;

	if (ls_reader_rewind(r) < 0) {
		tool_error("%s: %s", r->name, r->err);
		return 1;
	}
	while ((rc = ls_read(r, &rec)) > 0) {
		if (c && (rc = ls_check(c, &rec, msg, sizeof(msg))) == LS_ERR_SYNTAX) {
			tool_error("%s: %s: %s", r->name, ls_reader_where(r, where, sizeof(where)), msg);
			return 1;
		}
		if (rc == LS_ERR_NOMEM || (rc = each(ctx, &rec)) == LS_ERR_NOMEM) {
			tool_error("%s: out of memory", r->name);
			return 1;
		}
		if (rc < 0)
			return 1;
	}
	if (rc < 0) {
		tool_read_error(r);
		return 1;
	}
	return 0;
}

int tool_pass(struct ls_reader *r, int (*each)(void *ctx, const struct ls_record *rec), void *ctx)
{
	return pass(r, each, ctx, NULL);
}

int tool_pass_checked(struct ls_reader *r, int (*each)(void *ctx, const struct ls_record *rec),
		      void *ctx)
{
	struct ls_checker c;
	int status;

	ls_checker_init(&c);
	status = pass(r, each, ctx, &c);
	ls_checker_release(&c);
	return status;
}
