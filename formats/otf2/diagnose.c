/*
 * What is wrong with an archive libotf2 could not read, in the user's terms:
 * which of its files is missing, unreadable, empty or damaged. libotf2 says
 * "Invalid or inconsistent record data" or "Could not find file extension!";
 * the user needs "run/traces/1.evt is missing".
 */
#include <errno.h>
#include <fcntl.h>
#include <inttypes.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "../../libstream/error.h"
#include "diagnose.h"
#include "otf2in_private.h"

#define PATH_SIZE 4096

/* The archive's base: its anchor's path without ".otf2" (NAME of NAME.otf2),
 * into base; false if the anchor is not named so. */
static bool archive_base(const char *anchor, char *base, size_t n)
{
	size_t len = strlen(anchor);

	if (len <= 5 || strcmp(anchor + len - 5, ".otf2") != 0 || len - 5 >= n)
		return false;
	memcpy(base, anchor, len - 5);
	base[len - 5] = '\0';
	return true;
}

/* What is wrong with one file the archive needs, or NULL if it opens and
 * holds something. */
static const char *file_fault(const char *path)
{
	struct stat st;
	int fd;

	if (stat(path, &st) < 0)
		return errno == ENOENT ? "missing" : strerror(errno);
	if (!S_ISREG(st.st_mode))
		return "not a file";
	fd = open(path, O_RDONLY);
	if (fd < 0)
		return strerror(errno);
	close(fd);
	return st.st_size == 0 ? "empty" : NULL;
}

bool otf2_anchor_named(const char *anchor)
{
	char base[PATH_SIZE];

	return archive_base(anchor, base, sizeof(base));
}

int otf2in_fail_definitions(struct otf2in *in, const char *otf2_msg)
{
	char base[PATH_SIZE], def[PATH_SIZE + 8];
	const char *fault;

	if (!archive_base(in->anchor, base, sizeof(base)))
		return otf2in_fail(in, LS_ERR_SYNTAX, "cannot read the global definitions");
	snprintf(def, sizeof(def), "%s.def", base);
	fault = file_fault(def);
	if (fault)
		return otf2in_fail(in, LS_ERR_IO, "%s: %s (the archive's global definitions)",
				   def, fault);
	return otf2in_fail(in, LS_ERR_SYNTAX, "%s: damaged: the global definitions do not "
			   "read (libotf2: %s)", def, otf2_msg);
}

int otf2in_fail_events(struct otf2in *in, const char *otf2_msg)
{
	char base[PATH_SIZE], evt[PATH_SIZE + 32];
	const char *fault;
	struct stat st;

	if (!archive_base(in->anchor, base, sizeof(base)))
		return otf2in_fail(in, LS_ERR_SYNTAX, "cannot read the events");
	if (stat(base, &st) < 0 || !S_ISDIR(st.st_mode))
		return otf2in_fail(in, LS_ERR_IO, "%s/: %s (the folder of the archive's event files)",
				   base, stat(base, &st) < 0 ? (errno == ENOENT ? "missing"
								: strerror(errno)) : "not a folder");
	for (uint32_t i = 0; i < in->nlocs; i++) {
		const struct location *loc = &in->locs[i];

		if (loc->orphan || loc->unread)
			continue;
		snprintf(evt, sizeof(evt), "%s/%" PRIu64 ".evt", base, loc->ref);
		fault = file_fault(evt);
		if (fault)
			return otf2in_fail(in, LS_ERR_IO, "%s: %s (the events of location %" PRIu64
					   ", %s)", evt, fault, loc->ref, loc->name);
	}
	return otf2in_fail(in, LS_ERR_SYNTAX, "%s/: damaged: the event files do not read "
			   "(libotf2: %s)", base, otf2_msg);
}
