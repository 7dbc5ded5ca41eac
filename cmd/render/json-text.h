/* Text as a JSON string on stdout (tr-chrome's events, the report's timeline data). */
#ifndef JSON_TEXT_H
#define JSON_TEXT_H

#include <stdbool.h>
#include <stddef.h>

/*
 * s[0..n) as a JSON string: quotes, backslashes and control characters
 * escaped; in_script: "<", ">" and "&" too, so that it cannot end the
 * script element of a page it is in.
 */
void json_text(const char *s, size_t n, bool in_script);

#endif
