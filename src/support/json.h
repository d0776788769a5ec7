/* json.h - the one JSON string writer (remarks, the flat C API, reports). */
#ifndef HILO_UTIL_JSON_H
#define HILO_UTIL_JSON_H

#include "hilo/base.h"

#include <stdio.h>

/* Writes s (NULL = "") as a JSON string literal: quotes, backslashes and
 * control characters escaped; other bytes (UTF-8 included) as they are. */
void hilo_json_str(FILE *f, const char *s);
/* The same into a buffer (a full buffer sets its oom flag). */
void hilo_json_str_buf(hilo_buf *b, const char *s);

#endif
