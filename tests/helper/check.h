/* The check of the C unit test drivers: count and print what failed. */
#ifndef TEST_CHECK_H
#define TEST_CHECK_H

#include <stdio.h>

static int failures;

#define CHECK(cond) do { \
	if (!(cond)) { \
		failures++; \
		fprintf(stderr, "%s:%d: check failed: %s\n", __FILE__, __LINE__, #cond); \
	} \
} while (0)

#endif
