/* Name tables sorted by key (opcodes.def, attrs.def): one lookup for all.
 * Rows are structs whose first member is the const char * name. */
#ifndef HILO_IR_TABLE_H
#define HILO_IR_TABLE_H

#include <stddef.h>

/* strcmp of NUL-terminated a against the len bytes at s. */
int hilo_table_cmpn(const char *a, const char *s, size_t len);
/* Index of the row named s[0..len) among n rows of size stride sorted by
 * name, or n when there is none. */
size_t hilo_table_find(const void *rows, size_t n, size_t stride, const char *s, size_t len);

#endif
