/* support/fmt.h - number formatting shared by the buffer API and the printer
 * (internal to libhilo). */
#ifndef HILO_UTIL_FMT_H
#define HILO_UTIL_FMT_H

#include <stdint.h>

/* Writes v in decimal so that it ends just before end; returns its first
 * character. end must have 20 characters of room before it. */
static inline char *hilo_fmt_i64(char *end, int64_t v)
{
	char *p = end;
	uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		*--p = '-';
	return p;
}

#endif
