/* libotf2's error messages: the first one kept as ours. */
#include <stdio.h>
#include <string.h>

#include "errors.h"

OTF2_ErrorCode otf2_keep_first_error(void *data, const char *file, uint64_t line,
				     const char *function, OTF2_ErrorCode code,
				     const char *fmt, va_list va)
{
	char *msg = data;

	(void)file, (void)line, (void)function;
	if (msg[0] == '\0') {
		size_t n;

		vsnprintf(msg, OTF2_MSG_SIZE, fmt, va);
		/* the message names the file; the code says what the system said */
		n = strlen(msg);
		snprintf(msg + n, OTF2_MSG_SIZE - n, "%s%s", n ? ": " : "",
			 OTF2_Error_GetDescription(code));
	}
	return code;
}
