/* Region names as people read them in a table (readable.h). */
#include <stdbool.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "readable.h"

static const char anonymous[] = "(anonymous namespace)";

static bool ident(char c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
	       c == ':' || c == '$' || c == '~';
}

/* Whether s[0..n) ends with w. */
static bool ends_with(const char *s, size_t n, const char *w)
{
	size_t k = strlen(w);

	return n >= k && !memcmp(s + n - k, w, k);
}

/*
 * The length of s[0..n) without what may follow a C++ parameter list:
 * " const", " volatile", " noexcept", "&", "&&", " [clone .cold]".
 */
static size_t without_qualifiers(const char *s, size_t n)
{
	static const char *const words[] = { " const", " volatile", " noexcept", "&" };
	bool cut = true;

	while (cut && n) {
		cut = false;
		while (n && s[n - 1] == ' ')
			n--;
		for (size_t i = 0; i < sizeof(words) / sizeof(*words); i++)
			if (ends_with(s, n, words[i])) {
				n -= strlen(words[i]);
				cut = true;
			}
		if (n && s[n - 1] == ']') {
			size_t k = n - 1;

			while (k && s[k] != '[')
				k--;
			if (s[k] == '[' && !strncmp(s + k, "[clone ", 7)) {
				n = k;
				cut = true;
			}
		}
	}
	return n;
}

/*
 * Where the parameter list of the signature s[0..n) begins (a '(' right
 * after a name or a template list, its ')' ending s), or 0: none.
 */
static size_t parameters_at(const char *s, size_t n)
{
	int depth = 0;
	size_t k = n;

	if (!n || s[n - 1] != ')')
		return 0;
	while (k--) {
		depth += s[k] == ')' ? 1 : s[k] == '(' ? -1 : 0;
		if (depth == 0)
			break;
	}
	if (depth || k == 0 || !(ident(s[k - 1]) || s[k - 1] == '>' ||
				 (k >= 10 && !memcmp(s + k - 10, "operator()", 10))))
		return 0;
	if (!strncmp(s + k, anonymous, sizeof(anonymous) - 1))
		return 0;
	return k;
}

size_t readable_name(const char *name, char *out, size_t n)
{
	size_t len = strlen(name), at = parameters_at(name, without_qualifiers(name, len)), o = 0, from = 0;
	char *v;
	int depth = 0, paren = 0;	/* template lists open; parentheses open inside them */

	if (!at || !(v = malloc(at + 1)))
		return (size_t)snprintf(out, n, "%s", name);
	for (size_t i = 0; i < at; i++) {
		char c = name[i];

		if (depth == 0 && !strncmp(name + i, anonymous, sizeof(anonymous) - 1)) {
			memcpy(v + o, anonymous, sizeof(anonymous) - 1);
			v[o + 10] = '\x01';	/* its space is no end of a return type */
			o += sizeof(anonymous) - 1;
			i += sizeof(anonymous) - 2;
		} else if (depth == 0 && o >= 8 && !memcmp(v + o - 8, "operator", 8) && (c == '(' || c == '<' ||
			   (!ident(c) && c != ' '))) {
			/* an operator's symbol: "()", "<", "<<", "->", "[]", ... */
			v[o++] = c;
			if (c == '(' && i + 1 < at && name[i + 1] == ')')
				v[o++] = name[++i];
			while (i + 1 < at && strchr("<>=!+-*/%^&|~[],", name[i + 1]) &&
			       !(name[i + 1] == '<' && i + 2 < at && ident(name[i + 2])))
				v[o++] = name[++i];
		} else if (c == '<' && (depth || (i && (ident(name[i - 1]) || name[i - 1] == ' ')))) {
			depth += paren == 0;
		} else if (depth && (c == '(' || c == ')')) {
			paren += c == '(' ? 1 : paren ? -1 : 0;
		} else if (c == '>' && depth) {
			depth -= paren == 0;
		} else if (depth == 0) {
			v[o++] = c;
		}
	}
	while (o && v[o - 1] == ' ')
		o--;
	v[o] = 0;
	/* the return type: up to the last space (not an operator's: "operator std::string") */
	for (size_t i = 0; i < o; i++)
		if (v[i] == ' ' && !(i >= 8 && !memcmp(v + i - 8, "operator", 8)))
			from = i + 1;
	for (size_t i = 0; i < o; i++)
		if (v[i] == '\x01')
			v[i] = ' ';
	len = from < o ? (size_t)snprintf(out, n, "%s", v + from) : (size_t)snprintf(out, n, "%s", name);
	free(v);
	return len;
}

/*
 * More of name than readable_name gives, to tell apart names it gives
 * alike: with the first template argument of the function's own list, up
 * to its first parenthesis, bracket or comma ("f<PdV_kernel>"), or with
 * the parameter list where the function has no template list of its own
 * ("copy_kernel(float*, int)" beside the kernel "copy_kernel"); a name
 * that is no signature as it is. A new string, or NULL out of memory.
 */
static char *detailed(const char *name)
{
	size_t len = strlen(name), end = without_qualifiers(name, len), at = parameters_at(name, end);
	size_t base = readable_name(name, NULL, 0), k, from, to;
	int depth = 0;
	char *v;

	if (!at)
		return strdup(name);
	if (!(v = malloc(base + end + 3)))
		return NULL;
	readable_name(name, v, base + 1);
	if (name[at - 1] != '>') {
		snprintf(v + base, end - at + 1, "%s", name + at);
		return v;
	}
	for (k = at; k--;) {	/* the '<' of the list ending there */
		depth += name[k] == '>' ? 1 : name[k] == '<' ? -1 : 0;
		if (depth == 0)
			break;
	}
	for (from = k + 1; from < at && name[from] == ' '; from++)
		;
	for (to = from; to < at - 1 && !strchr("(<,>[", name[to]); to++)
		;
	while (to > from && name[to - 1] == ' ')
		to--;
	snprintf(v + base, to - from + 3, "<%.*s>", (int)(to - from), name + from);
	return v;
}

/* A UTF-8 continuation byte: inside a character. */
static bool inside(const char *s, size_t i)
{
	return ((unsigned char)s[i] & 0xC0) == 0x80;
}

/* s in at most width characters (0: any), its start and end kept with "..." between them, then tail. */
static char *fit(const char *s, unsigned width, const char *tail)
{
	size_t n = strlen(s), t = strlen(tail), chars = 0, h = 0, e = n;
	char *v;

	for (size_t i = 0; i < n; i++)
		chars += !inside(s, i);
	if (!width || chars + t <= width || width < t + 5) {
		if ((v = malloc(n + t + 1)))
			snprintf(v, n + t + 1, "%s%s", s, tail);
		return v;
	}
	width -= (unsigned)t;
	for (unsigned c = 0; c < (width - 3) / 2; c++)	/* the first characters */
		for (h++; h < n && inside(s, h); h++)
			;
	for (unsigned c = 0; c < width - 3 - (width - 3) / 2; c++)	/* the last */
		for (e--; e > 0 && inside(s, e); e--)
			;
	if ((v = malloc(h + 3 + (n - e) + t + 1)))
		snprintf(v, h + 3 + (n - e) + t + 1, "%.*s...%s%s", (int)h, s, s + e, tail);
	return v;
}

struct shown {
	const char *name;
	char *readable;
	char *v;
	uint32_t idx;		/* in the order given */
	uint32_t num;		/* among those shown alike: 1, 2, ... */
};

static int by_shown(const void *a, const void *b)
{
	const struct shown *x = a, *y = b;
	int c = strcmp(x->v, y->v);

	return c ? c : x->idx < y->idx ? -1 : x->idx > y->idx;
}

/* Rows s[0..n) (in the order given), shown alike: of different names, numbered. */
static int number(struct shown *s, uint32_t n, unsigned width)
{
	uint32_t k = 0, i = 1;
	char tail[16];

	while (i < n && !strcmp(s[i].name, s[0].name))
		i++;
	if (i == n)
		return 0;	/* one name, defined more than once: shown as it is */
	for (i = 0; i < n; i++) {
		s[i].num = 0;
		for (uint32_t j = 0; j < i && !s[i].num; j++)
			if (!strcmp(s[j].name, s[i].name))
				s[i].num = s[j].num;
		if (!s[i].num)
			s[i].num = ++k;
		snprintf(tail, sizeof(tail), " #%u", s[i].num);
		free(s[i].v);
		if (!(s[i].v = fit(s[i].readable, width, tail)))
			return -1;
	}
	return 0;
}

/* Rows s[0..n) shown alike (in the order given): of different names, shown in more detail, then numbered. */
static int tell_apart(struct shown *s, uint32_t n, unsigned width)
{
	uint32_t i = 1, j;

	while (i < n && !strcmp(s[i].name, s[0].name))
		i++;
	if (i == n)
		return 0;	/* one name, defined more than once: shown as it is */
	for (i = 0; i < n; i++) {
		free(s[i].readable);
		free(s[i].v);
		s[i].v = NULL;
		if (!(s[i].readable = detailed(s[i].name)) || !(s[i].v = fit(s[i].readable, width, "")))
			return -1;
	}
	qsort(s, n, sizeof(*s), by_shown);
	for (i = 0; i < n; i = j) {
		for (j = i + 1; j < n && !strcmp(s[j].v, s[i].v); j++)
			;
		if (j - i > 1 && number(s + i, j - i, width) < 0)
			return -1;
	}
	return 0;
}

int readable_names(const char *const *names, uint32_t n, unsigned width, char ***out)
{
	struct shown *s = calloc(n ? n : 1, sizeof(*s));
	char **v = calloc(n ? n : 1, sizeof(*v));
	int rc = s && v ? 0 : -1;

	for (uint32_t i = 0; i < n && rc == 0; i++) {
		size_t len = readable_name(names[i], NULL, 0);

		s[i] = (struct shown){ names[i], malloc(len + 1), NULL, i, 0 };
		if (!s[i].readable)
			rc = -1;
		else if (readable_name(names[i], s[i].readable, len + 1), !(s[i].v = fit(s[i].readable, width, "")))
			rc = -1;
	}
	if (rc == 0)
		qsort(s, n, sizeof(*s), by_shown);
	for (uint32_t i = 0, j; i < n && rc == 0; i = j) {
		for (j = i + 1; j < n && !strcmp(s[j].v, s[i].v); j++)
			;
		if (j - i > 1)
			rc = tell_apart(s + i, j - i, width);
	}
	for (uint32_t i = 0; i < n && rc == 0; i++) {
		v[s[i].idx] = s[i].v;
		s[i].v = NULL;
	}
	for (uint32_t i = 0; s && i < n; i++) {
		free(s[i].readable);
		free(s[i].v);
	}
	free(s);
	if (rc < 0) {
		readable_free(v, v ? n : 0);
		return -1;
	}
	*out = v;
	return 0;
}

int readable_regions(const struct an_rank *k, unsigned width, char ***out)
{
	uint32_t n = an_rank_defs(k)->nregions;
	const char **names = malloc((n ? n : 1) * sizeof(*names));
	int rc;

	if (!names)
		return -1;
	for (uint32_t i = 0; i < n; i++)
		names[i] = an_rank_region(k, i)->name;
	rc = readable_names(names, n, width, out);
	free(names);
	return rc;
}

void readable_free(char **v, uint32_t n)
{
	for (uint32_t i = 0; v && i < n; i++)
		free(v[i]);
	free(v);
}

void readable_print(const char *shown, unsigned width)
{
	size_t n = strlen(shown), chars = 0;

	for (size_t i = 0; i < n; i++)
		chars += !inside(shown, i);
	printf("%s%*s", shown, chars < width ? (int)(width - chars) : 0, "");
}
