/* UTF-8 validation and repair. */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "utf8.h"

/* The length of the valid sequence at p (before end), or 0 if there is none. */
static size_t sequence(const unsigned char *p, const unsigned char *end)
{
	unsigned char c = *p;
	size_t more;
	uint32_t cp;

	if (c < 0x80)
		return 1;
	if (c >= 0xc2 && c <= 0xdf)
		more = 1, cp = c & 0x1f;
	else if (c >= 0xe0 && c <= 0xef)
		more = 2, cp = c & 0x0f;
	else if (c >= 0xf0 && c <= 0xf4)
		more = 3, cp = c & 0x07;
	else
		return 0;
	if ((size_t)(end - p) <= more)
		return 0;
	for (size_t i = 1; i <= more; i++) {
		if ((p[i] & 0xc0) != 0x80)
			return 0;
		cp = cp << 6 | (p[i] & 0x3f);
	}
	if ((cp >= 0xd800 && cp <= 0xdfff) || cp > 0x10ffff ||
	    (c == 0xe0 && cp < 0x800) || (c == 0xf0 && cp < 0x10000))
		return 0;
	return more + 1;
}

bool ls_utf8_valid(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + n;

	while (p < end) {
		size_t len = *p < 0x80 ? 1 : sequence(p, end);

		if (!len)
			return false;
		p += len;
	}
	return true;
}

static const char replacement[] = "\xef\xbf\xbd";

size_t ls_utf8_repaired_len(const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + n;
	size_t len = 0;

	while (p < end) {
		size_t k = sequence(p, end);

		len += k ? k : sizeof(replacement) - 1;
		p += k ? k : 1;
	}
	return len;
}

char *ls_utf8_repair_to(char *out, const char *s, size_t n)
{
	const unsigned char *p = (const unsigned char *)s, *end = p + n;

	while (p < end) {
		size_t len = sequence(p, end);

		if (len) {
			memcpy(out, p, len);
			out += len;
			p += len;
		} else {
			memcpy(out, replacement, sizeof(replacement) - 1);
			out += sizeof(replacement) - 1;
			p++;
		}
	}
	return out;
}
