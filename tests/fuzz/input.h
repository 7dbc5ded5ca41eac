/* The fuzzer's input as a file the tools can open: a memory file, by path. */
#ifndef FUZZ_INPUT_H
#define FUZZ_INPUT_H

#include <stddef.h>
#include <stdint.h>

/*
 * A memory file holding data[0..size), its path ("/proc/self/fd/N") in
 * path[0..n). Returns its descriptor (close it when done), or -1.
 */
int fuzz_input(const uint8_t *data, size_t size, char *path, size_t n);

#endif
