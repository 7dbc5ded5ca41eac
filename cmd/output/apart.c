/* One run's outputs kept apart from each other, from its inputs and from standard output. */
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "apart.h"
#include "archive.h"

/* One file or folder an output writes or an input is read from. */
struct spot {
	char *option;		/* the output's option and its path; NULL: an input */
	int owner;		/* which output or input it belongs to */
	char *shown;		/* the path as the user would write it */
	char *real;		/* the same, absolute, its folders' links resolved */
};


/*
 * path absolute, "." and ".." gone, every component's symbolic link
 * resolved as far as it exists, the last one's only where follow (an
 * output is renamed over its last component, never written through a
 * link there). NULL when out of memory or without a working folder.
 */
static char *real_path(const char *path, bool follow)
{
	char *abs = NULL, *res = NULL, *save = NULL, *c, *next;
	size_t len, size;

	if (path[0] == '/') {
		abs = strdup(path);
	} else {
		char *cwd = getcwd(NULL, 0);

		if (cwd && asprintf(&abs, "%s/%s", cwd, path) < 0)
			abs = NULL;
		free(cwd);
	}
	/* a resolved link is PATH_MAX at most, and what follows it is of abs */
	if (!abs || !(res = calloc(1, size = strlen(abs) + PATH_MAX + 2)))
		goto out;
	for (c = strtok_r(abs, "/", &save); c; c = next) {
		next = strtok_r(NULL, "/", &save);
		if (strcmp(c, ".") == 0)
			continue;
		if (strcmp(c, "..") == 0) {
			char *slash = strrchr(res, '/');

			if (slash)
				*slash = '\0';
			continue;
		}
		len = strlen(res);
		snprintf(res + len, size - len, "/%s", c);
		if (next || follow) {
			char resolved[PATH_MAX];
			struct stat st;

			if (lstat(res, &st) == 0 && S_ISLNK(st.st_mode) && realpath(res, resolved))
				strcpy(res, resolved);
		}
	}
	if (!res[0])
		strcpy(res, "/");
out:
	free(abs);
	return res;
}

/* DIR/NAME of an archive given as DIR/NAME or DIR/NAME.otf2, or NULL. */
static char *archive_base(const char *path)
{
	size_t len = strlen(path), sfx = strlen(archive_part_suffix[0]);

	if (len > sfx && strcmp(path + len - sfx, archive_part_suffix[0]) == 0)
		len -= sfx;
	return strndup(path, len);
}

/* Add the spot shown as base + sfx; -1 when out of memory. */
static int add(struct spot *s, size_t *n, const struct output_place *out, int owner,
	       const char *base, const char *sfx, bool follow)
{
	struct spot *p = &s[(*n)++];

	p->owner = owner;
	if ((out && asprintf(&p->option, "%s %s", out->option, out->path) < 0) ||
	    asprintf(&p->shown, "%s%s", base, sfx) < 0)
		return -1;
	return (p->real = real_path(p->shown, follow)) ? 0 : -1;
}

/* Is a the same as b, or inside it? */
static bool within(const char *a, const char *b)
{
	size_t lb = strlen(b);

	if (strcmp(b, "/") == 0)
		return true;
	return strncmp(a, b, lb) == 0 && (a[lb] == '\0' || a[lb] == '/');
}

/* The one-line word on two spots that meet (o an output's, x another output's or an input's). */
static void say_meet(const struct spot *o, const struct spot *x, char *err, size_t n)
{
	bool same = strcmp(o->real, x->real) == 0, inside = !same && within(o->real, x->real);
	const struct spot *in = inside ? o : x, *folder = inside ? x : o;

	if (x->option && same)
		snprintf(err, n, "%s and %s would both write %s: give them paths apart", o->option,
			 x->option, o->shown);
	else if (x->option)
		snprintf(err, n, "%s would write %s inside %s, which %s writes: give them paths apart",
			 in->option, in->shown, folder->shown, folder->option);
	else if (same)
		snprintf(err, n, "%s would replace %s, an input: write it elsewhere", o->option, o->shown);
	else if (inside)
		snprintf(err, n, "%s would write %s inside %s, an input: write it elsewhere", o->option,
			 o->shown, x->shown);
	else
		snprintf(err, n, "%s would replace %s, which holds the input %s: write it elsewhere",
			 o->option, o->shown, x->shown);
}

/*
 * Is the output spot o the file standard output writes to (a regular
 * file or a pipe: a terminal or a device takes both without harm)?
 */
static bool is_stdout(const struct spot *o)
{
	struct stat out, st;

	return fstat(STDOUT_FILENO, &out) == 0 && (S_ISREG(out.st_mode) || S_ISFIFO(out.st_mode) ||
						   S_ISSOCK(out.st_mode)) &&
	       stat(o->shown, &st) == 0 && st.st_dev == out.st_dev && st.st_ino == out.st_ino;
}

int outputs_apart(const struct output_place *outs, size_t nout, char *const *inputs,
		  int ninputs, char *err, size_t n)
{
	size_t cap = (nout + 2 * (size_t)ninputs) * ARCHIVE_PARTS, nspot = 0, nouts;
	struct spot *s = calloc(cap ? cap : 1, sizeof(*s));
	int rc = 0;

	if (!s)
		goto nomem;
	for (size_t i = 0; i < nout; i++) {
		char *base = outs[i].archive ? archive_base(outs[i].path) : NULL;

		if (outs[i].archive && !base)
			goto nomem;
		for (size_t p = 0; p < (outs[i].archive ? ARCHIVE_PARTS : 1); p++)
			if (add(s, &nspot, &outs[i], (int)i, base ? base : outs[i].path,
				base ? archive_part_suffix[p] : "", false) < 0) {
				free(base);
				goto nomem;
			}
		free(base);
	}
	nouts = nspot;
	for (int i = 0; i < ninputs; i++) {
		size_t len = strlen(inputs[i]), sfx = strlen(archive_part_suffix[0]);
		bool archive = len > sfx && strcmp(inputs[i] + len - sfx, archive_part_suffix[0]) == 0;
		char *base = archive ? archive_base(inputs[i]) : NULL;

		if (strcmp(inputs[i], "-") == 0)
			continue;
		if (archive && !base)
			goto nomem;
		/* the input as given, and what its links lead to */
		for (size_t p = 0; p < (archive ? ARCHIVE_PARTS : 1); p++)
			if (add(s, &nspot, NULL, i, archive ? base : inputs[i], archive ? archive_part_suffix[p] : "",
				false) < 0 ||
			    add(s, &nspot, NULL, i, archive ? base : inputs[i], archive ? archive_part_suffix[p] : "",
				true) < 0) {
				free(base);
				goto nomem;
			}
		free(base);
	}
	for (size_t a = 0; a < nouts && !rc; a++) {
		if (is_stdout(&s[a])) {
			snprintf(err, n, "%s: %s is standard output, which takes the rating: give a file of its own",
				 s[a].option, s[a].shown);
			rc = -1;
		}
		for (size_t b = 0; b < nspot && !rc; b++) {
			if (b < nouts && (b <= a || s[b].owner == s[a].owner))
				continue;
			if (within(s[a].real, s[b].real) || within(s[b].real, s[a].real)) {
				say_meet(&s[a], &s[b], err, n);
				rc = -1;
			}
		}
	}
	goto out;
nomem:
	snprintf(err, n, "out of memory, or no working folder");
	rc = -2;
out:
	for (size_t i = 0; s && i < nspot; i++) {
		free(s[i].option);
		free(s[i].shown);
		free(s[i].real);
	}
	free(s);
	return rc;
}
