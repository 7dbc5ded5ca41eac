/* The libraries the tools load at run time, in lib/tr/ beside their bin/. */
#ifndef LIBDIR_H
#define LIBDIR_H

#include <stdbool.h>
#include <stddef.h>

/*
 * The path of library name in lib/tr/ beside this program's folder, into
 * buf[0..n); false where it is missing, after a message naming it (what:
 * the tool that is then not installed whole) where must.
 */
bool libdir_path(const char *name, char *buf, size_t n, bool must);

#endif
