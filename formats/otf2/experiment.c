/*
 * A folder holding OTF2 archives (Score-P's experiment folder,
 * scorep-DATE_TIME_ID/, holds traces.otf2 beside traces.def, traces/ and
 * scorep.cfg): read as the archive of the one anchor file in it.
 */
#include <dirent.h>
#include <fcntl.h>
#include <stdio.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "diagnose.h"
#include "otf2in.h"

/* Whether entry name of dir is an anchor file: NAME.otf2, a file that starts as one. */
static bool anchor(const char *dir, const char *name, char *path, size_t n)
{
	uint8_t head[6];
	struct stat st;
	ssize_t got;
	int fd;

	if ((size_t)snprintf(path, n, "%s/%s", dir, name) >= n || !otf2_anchor_named(path) ||
	    stat(path, &st) < 0 || !S_ISREG(st.st_mode) || (fd = open(path, O_RDONLY | O_CLOEXEC)) < 0)
		return false;
	got = read(fd, head, sizeof(head));
	close(fd);
	return got > 0 && otf2in_sniff(head, (size_t)got);
}

int otf2in_anchors_in(const char *dir, char *first, size_t n)
{
	char path[4096];
	struct dirent *e;
	DIR *d = opendir(dir);
	int found = 0;

	if (!d)
		return 0;
	while ((e = readdir(d)))
		if (anchor(dir, e->d_name, path, sizeof(path)) && found++ == 0)
			snprintf(first, n, "%s", path);
	closedir(d);
	return found;
}

bool otf2in_sniff_dir(const char *dir)
{
	char first[4096];

	return otf2in_anchors_in(dir, first, sizeof(first)) > 0;
}
