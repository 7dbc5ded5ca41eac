/* libotf2's error messages: kept, not printed. */
#ifndef OTF2_ERRORS_H
#define OTF2_ERRORS_H

#include <stdarg.h>

#include <otf2/otf2.h>

#define OTF2_MSG_SIZE 256

/*
 * An OTF2_ErrorCallback: libotf2 prints its errors unless told otherwise;
 * this keeps the first in data (a char[OTF2_MSG_SIZE] starting empty).
 */
OTF2_ErrorCode otf2_keep_first_error(void *data, const char *file, uint64_t line,
				     const char *function, OTF2_ErrorCode code,
				     const char *fmt, va_list va);

#endif
