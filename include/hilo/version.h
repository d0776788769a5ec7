/* hilo/version.h - the project's one version.
 *
 * CMake reads these three numbers (the shared library's SONAME is
 * libhilo.so.<MAJOR>, hilo.pc and the CMake package carry the full
 * version), the tools print them with --version, and hilo_version()
 * returns the version the library was built as, so a program can check
 * that the header it compiled against matches the library it loaded.
 */
#ifndef HILO_VERSION_H
#define HILO_VERSION_H

#include "hilo/export.h"

#ifdef __cplusplus
extern "C" {
#endif

#define HILO_VERSION_MAJOR 0
#define HILO_VERSION_MINOR 2
#define HILO_VERSION_PATCH 0

#define HILO_VERSION_STR_(a, b, c) #a "." #b "." #c
#define HILO_VERSION_STR_X(a, b, c) HILO_VERSION_STR_(a, b, c)
/* "MAJOR.MINOR.PATCH" */
#define HILO_VERSION_STRING \
	HILO_VERSION_STR_X(HILO_VERSION_MAJOR, HILO_VERSION_MINOR, HILO_VERSION_PATCH)

/* The library's version as "MAJOR.MINOR.PATCH" (static storage). */
HILO_API const char *hilo_version(void);

#ifdef __cplusplus
}
#endif

#endif
