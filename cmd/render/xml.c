/* Text inside XML and HTML. */
#include <stdio.h>

#include "xml.h"

void xml_text(const char *s)
{
	for (; *s; s++) {
		if (*s == '<')
			fputs("&lt;", stdout);
		else if (*s == '>')
			fputs("&gt;", stdout);
		else if (*s == '&')
			fputs("&amp;", stdout);
		else if (*s == '"')
			fputs("&quot;", stdout);
		else if ((unsigned char)*s >= 0x20 || *s == '\t')
			putchar(*s);
	}
}
