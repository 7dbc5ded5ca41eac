/* Text as a JSON string (json-text.h). */
#include <stdio.h>

#include "json-text.h"

void json_text(const char *s, size_t n, bool in_script)
{
	putchar('"');
	for (size_t i = 0; i < n; i++) {
		unsigned char c = (unsigned char)s[i];

		if (c == '"' || c == '\\')
			printf("\\%c", c);
		else if (c < 0x20 || (in_script && (c == '<' || c == '>' || c == '&')))
			printf("\\u%04x", c);
		else
			putchar(c);
	}
	putchar('"');
}
