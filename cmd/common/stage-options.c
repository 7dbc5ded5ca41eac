/* The options of the stages that tr-analyze passes on to them, as their filters read them. */
#include <errno.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "../../libstream/vec.h"
#include "stage-options.h"
#include "tool.h"

int stage_clock_latency(const char *arg, struct an_clock_options *o)
{
	const char *eq = strchr(arg, '=');
	enum ls_edge e = eq ? ls_edge_lookup(arg, (uint32_t)(eq - arg)) : LS_E__COUNT;
	char *end;
	long long ns;

	if (e == LS_E__COUNT) {
		tool_error("--latency %s: give TYPE=NS with an edge type of docs/stream.md "
			   "(msg, coll, launch, sync, event, stream_wait, null_stream, fork, join, "
			   "barrier, lock)", arg);
		return 2;
	}
	errno = 0;
	ns = strtoll(eq + 1, &end, 10);
	if (!eq[1] || *end || errno || ns < 0 || ns > 1000000000) {
		tool_error("--latency %s: give the latency in ns, 0 to 1000000000", arg);
		return 2;
	}
	o->latency[e] = ns;
	return 0;
}

int stage_critpath_end(const char *arg, struct an_crit_end *e)
{
	char *stop;
	double secs;

	if (!strcmp(arg, "last")) {
		e->kind = AN_END_LAST;
		return 0;
	}
	if (!strncmp(arg, "region=", 7) || !strncmp(arg, "stream=", 7)) {
		e->kind = arg[0] == 'r' ? AN_END_REGION : AN_END_STREAM;
		e->name = arg + 7;
		return 0;
	}
	errno = 0;
	secs = strtod(arg, &stop);
	if (!*arg || *stop || errno || !(secs >= 0) || secs > 4e9) {
		tool_error("--end %s: give last, region=NAME, stream=NAME or seconds after the first event", arg);
		return 2;
	}
	e->kind = AN_END_TIME;
	e->ns = (int64_t)llround(secs * 1e9);
	return 0;
}

/* DURATION of --set: a number of seconds, or with ns, us, ms or s after it; at most a day. */
static bool duration(const char *arg, int64_t *ns)
{
	static const struct { const char *unit; double ns; } units[] = {
		{ "", 1e9 }, { "s", 1e9 }, { "ms", 1e6 }, { "us", 1e3 }, { "ns", 1 },
	};
	char *end;
	double v;

	errno = 0;
	v = strtod(arg, &end);
	if (end == arg || errno || !(v >= 0))
		return false;
	for (size_t k = 0; k < sizeof(units) / sizeof(units[0]); k++)
		if (strcmp(end, units[k].unit) == 0 && v * units[k].ns <= 86400e9) {
			*ns = llround(v * units[k].ns);
			return true;
		}
	return false;
}

int stage_project_change(const char *opt, const char *arg, struct stage_project_args *a)
{
	const char *eq = strrchr(arg, '=');
	size_t used = strlen(a->spec);
	bool set = strcmp(opt, "--set") == 0;
	int64_t ns = -1;
	char *end;
	double f = 1;

	if (!eq || eq == arg) {
		tool_error("%s %s: give PATTERN=%s, a region name or shell glob and %s", opt, arg,
			   set ? "DURATION" : "FACTOR", set ? "a duration" : "a factor");
		return 2;
	}
	if (set && !duration(eq + 1, &ns)) {
		tool_error("--set %s: give the duration in seconds, or with ns, us, ms or s after "
			   "it, up to a day", arg);
		return 2;
	}
	errno = 0;
	if (!set && ((f = strtod(eq + 1, &end)), !eq[1] || *end || errno || !(f >= 0) || f > 1000)) {
		tool_error("--scale %s: give the factor as a number from 0 to 1000", arg);
		return 2;
	}
	if (a->o.nscales == STAGE_PROJECT_SCALES || used + strlen(arg) + 2 > sizeof(a->spec)) {
		tool_error("%s %s: at most %d changes, %zu bytes in all", opt, arg, STAGE_PROJECT_SCALES,
			   sizeof(a->spec) - 1);
		return 2;
	}
	a->scale[a->o.nscales] = (struct an_project_scale){ strndup(arg, (size_t)(eq - arg)), f, ns };
	if (!a->scale[a->o.nscales++].pattern) {
		tool_error("out of memory");
		return 1;
	}
	snprintf(a->spec + used, sizeof(a->spec) - used, "%s%s%s", used ? " " : "", set ? "set:" : "",
		 arg);
	return 0;
}

int stage_project_min(const char *path, struct stage_project_args *a)
{
	FILE *f = fopen(path, "r");
	char *line = NULL, *end;
	size_t cap = 0;
	ssize_t n;
	unsigned long lineno = 0;
	int status = 0;

	if (!f) {
		tool_error("--min %s: %s", path, strerror(errno));
		return 1;
	}
	while (!status && (n = getline(&line, &cap, f)) >= 0) {
		long long ns;

		lineno++;
		if (n && line[n - 1] == '\n')
			line[--n] = 0;
		if (!n || line[0] == '#')
			continue;
		errno = 0;
		ns = strtoll(line, &end, 10);
		if (end == line || errno || ns < 0 || (*end != ' ' && *end != '\t') || !end[1]) {
			tool_error("--min %s: line %lu: give nanoseconds, a space and a function's name",
				   path, lineno);
			status = 1;
		} else if (ls_vec_room(&a->min, &a->min_cap, a->o.nmins, sizeof(*a->min)) < 0 ||
			   !(a->min[a->o.nmins].name = strdup(end + 1))) {
			tool_error("out of memory");
			status = 1;
		} else {
			a->min[a->o.nmins++].ns = ns;
		}
	}
	if (!status && ferror(f)) {
		tool_error("--min %s: %s", path, strerror(errno));
		status = 1;
	}
	free(line);
	fclose(f);
	a->o.mins = a->min;
	return status;
}

void stage_project_release(struct stage_project_args *a)
{
	for (uint32_t k = 0; k < a->o.nscales; k++)
		free((char *)a->scale[k].pattern);
	for (uint32_t k = 0; k < a->o.nmins; k++)
		free((char *)a->min[k].name);
	free(a->min);
	a->o.nscales = a->o.nmins = 0;
	a->min = NULL;
}
