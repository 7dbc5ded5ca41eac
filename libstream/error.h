/* Error codes returned by libstream functions; the caller decides what to say. */
#ifndef LS_ERROR_H
#define LS_ERROR_H

enum ls_error {
	LS_OK = 0,
	LS_ERR_TRUNCATED = -1,	/* input ends inside a record */
	LS_ERR_SYNTAX = -2,	/* not msgpack / not JSON, or not a record */
	LS_ERR_NOMEM = -3,
	LS_ERR_IO = -4,		/* read or write failed; errno says why */
	LS_ERR_VERSION = -5,	/* header names a newer major version */
	LS_ERR_TYPE = -6,	/* field present with another type */
	LS_ERR_ABSENT = -7,	/* field not present */
	LS_ERR_RANGE = -8,	/* value does not fit the requested type */
	LS_ERR_JSON = -9,	/* value has no JSON form (binary, ext, NaN) */
};

#endif
