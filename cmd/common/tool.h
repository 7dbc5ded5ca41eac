/* What every tr-* command does alike: messages, output format, the end. */
#ifndef TOOL_H
#define TOOL_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>

#include "../../libstream/header.h"
#include "../../libstream/reader.h"
#include "../../libstream/writer.h"

/*
 * Set the name messages start with, and the stage the tool adds to the
 * headers it writes (its name, version and arguments); a file too large
 * is a write error (SIGXFSZ ignored).
 */
void tool_init(const char *name, int argc, char **argv);

/* This tool as a stage of the streams it writes. */
const struct ls_stage *tool_stage(void);

/*
 * Have the stages that made the stream included those needed (NULL
 * ended), as its header lists them, or does the header not say? true;
 * else false after a message saying which to run first.
 */
bool tool_made_by(const struct ls_reader *r, const struct ls_record *header,
		  const char *const *needs);

/*
 * Open path (NULL or "-": stdin) as an analysed stream to be read more
 * than once (a pipe is copied first: ls_reader_rewindable): not empty,
 * its header (if it lists stages) listing those needs names. Returns 0,
 * or 1 after a message (nothing to release then).
 */
int tool_open_again(struct ls_reader *r, const char *path, const char *const *needs);

/*
 * Read r (tool_open_again) from its start, each record to each(ctx, rec):
 * 0, LS_ERR_NOMEM, or another negative error once each has said why.
 * Returns 0, or 1 after a message.
 */
int tool_pass(struct ls_reader *r, int (*each)(void *ctx, const struct ls_record *rec), void *ctx);

/*
 * Check the fields of rec, of a kind the tool reads, against docs/stream.md
 * (rule 8; ls_check_fields). Returns 0, or 1 after a one-line message
 * naming r's input and position.
 */
int tool_check_fields(const struct ls_reader *r, const struct ls_record *rec);

/*
 * tool_pass, each record first checked against docs/stream.md (tr-cat
 * --check): for tools that read records they do not otherwise validate
 * (the pictures), so that a stream the contract rejects ends them with a
 * message, not a picture of it.
 */
int tool_pass_checked(struct ls_reader *r, int (*each)(void *ctx, const struct ls_record *rec),
		      void *ctx);

/*
 * The pictures' main (tr-svg, tr-chrome, tr-report), their options read:
 * the analysed stream given (at most one, at argv[optind]; more is a
 * usage error, 2) opened to be read again and again (tool_open_again,
 * which needs tr-deps, tr-waits and tr-critpath) and handed to
 * draw(r, ctx), which writes on standard output and returns an exit
 * status. Returns the tool's exit status.
 */
int tool_draw(int argc, char **argv, void (*usage)(FILE *to), int (*draw)(struct ls_reader *r, void *ctx),
	      void *ctx);

/* "NAME: message" on stderr. */
void tool_error(const char *fmt, ...) __attribute__((format(printf, 1, 2)));

/*
 * The calling thread's messages kept instead, the first of them (without
 * "NAME: ") in buf (n bytes, buf[0] 0 until one comes), until called
 * with NULL: for a message another process is to say.
 */
void tool_error_keep(char *buf, size_t n);

/* Report a failed ls_read: "NAME: INPUT: position: what". */
void tool_read_error(const struct ls_reader *r);

/*
 * The options every tool has: -h, -J (NDJSON out), -M (msgpack out), and
 * --version (TOOL_VERSION, for the tools whose output is not a stream).
 */
#define TOOL_OPTIONS "hJM"
#define TOOL_VERSION { "version", no_argument, NULL, 'V' }
#define TOOL_LONGOPTIONS \
	{ "help", no_argument, NULL, 'h' }, \
	{ "json", no_argument, NULL, 'J' }, \
	{ "msgpack", no_argument, NULL, 'M' }, \
	TOOL_VERSION

/*
 * The input r, read to its end, held no record at all (0 bytes, or blank
 * lines): said (an analysis needs a stream), true.
 */
bool tool_empty(const struct ls_reader *r);

/*
 * -h, after the usage line: the tool's own options (lines of
 * "  OPTION  what it does"), then the common ones (-J and -M where
 * streams is set: the tool writes a stream).
 */
void tool_help(FILE *to, const char *options, bool streams);

/* "ID NAME" (or "ID" without a name) into buf[0..n), for summaries: buf. */
const char *tool_label(char *buf, size_t n, uint64_t id, const char *name);

/* --version: print the tool's name and version to stdout and exit 0. */
void tool_version(void) __attribute__((noreturn));

struct tool_output {
	bool json, msgpack;
};

/*
 * Take option ch if it is one of TOOL_OPTIONS or --version: returns true.
 * -h prints usage to stdout and exits 0, --version the version.
 */
bool tool_option(int ch, struct tool_output *out, void (*usage)(FILE *));

/* For a tool without -J and -M: -h prints usage to stdout and exits 0, --version the version; else nothing. */
void tool_help_option(int ch, void (*usage)(FILE *));

/*
 * The output format: -J, -M, or else NDJSON on a terminal and msgpack
 * elsewhere. Both -J and -M: a message, and -1 (a usage error).
 */
int tool_output_format(const struct tool_output *out, enum ls_format *format);

/*
 * Flush w and close stdout, reporting a failure (a full disk is one) that
 * was not reported already. Returns 0, or 1 after the message.
 */
int tool_finish(struct ls_writer *w);

/* Nanoseconds as seconds, for tables. */
/*
 * --window SECONDS (opt names the option for the message): more than 0,
 * at most a day, into *ns. Returns 0, or 2 after a message.
 */
int tool_window_arg(const char *opt, const char *arg, int64_t *ns);

/* Option opt's number of threads, 1 to 64, into *n: 0, or 2 after a message. */
int tool_threads_arg(const char *opt, const char *arg, unsigned *n);

static inline double tool_secs(uint64_t ns)
{
	return (double)ns / 1e9;
}

/* Something odd or lost, and how often: said once if it happened. */
struct tool_count {
	uint64_t count;
	const char *what;
};

/* "NAME: PATH: COUNT WHAT" on stderr for each count that is not 0. */
void tool_report_counts(const char *path, const struct tool_count *c, size_t n);

/* Print s on stdout as a CSV field: quoted, quotes doubled. */
void tool_csv_str(const char *s);

/* Report a failed write to stdout (w->err) or conversion. Returns 1. */
int tool_write_error(const struct ls_reader *r, const struct ls_writer *w,
		     int rc);

#endif
