/* io.h - the library's own file reads (io.c), beside the public
 * hilo_read_file. */
#ifndef HILO_UTIL_IO_H
#define HILO_UTIL_IO_H

#include "hilo/base.h"

#include <sys/stat.h>

/* hilo_read_file (same diagnostics); when keep_fd is non-NULL and path is
 * a regular file, *keep_fd also receives a close-on-exec descriptor of the
 * file read (else -1) and *keep_st (if non-NULL) its fstat after reading,
 * so the caller can read it again by offset and tell whether it changed. */
/* The largest input a reader that holds its text and what it builds in
 * memory takes: a quarter of the machine's physical memory (or SIZE_MAX
 * when it is unknown). */
size_t hilo_input_limit(void);
/* Whether the regular file at path (not "-") is larger than
 * hilo_input_limit(): then adds "FILE: error: input of N bytes is larger
 * than ..." and returns true, before anything is read. */
bool hilo_input_too_large(const char *path, const char *what, hilo_diags *d);
char *hilo_read_file_fd(const char *path, size_t *len, int *keep_fd, struct stat *keep_st,
	hilo_diags *d);

#endif
