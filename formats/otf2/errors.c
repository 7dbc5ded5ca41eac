/* libotf2's error messages: the first one kept as ours. */
#include <stdio.h>

#include "errors.h"

OTF2_ErrorCode otf2_keep_first_error(void *data, const char *file, uint64_t line,
				     const char *function, OTF2_ErrorCode code,
				     const char *fmt, va_list va)
{
	char *msg = data;

	(void)file, (void)line, (void)function;
	if (msg[0] == '\0') {
		vsnprintf(msg, OTF2_MSG_SIZE, fmt, va);
		if (msg[0] == '\0')
			snprintf(msg, OTF2_MSG_SIZE, "%s", OTF2_Error_GetDescription(code));
	}
	return code;
}
