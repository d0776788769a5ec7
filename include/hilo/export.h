/* hilo/export.h - HILO_API marks the library's public functions (as Lua's
 * LUA_API does). libhilo is compiled with hidden visibility, so only
 * functions declared with HILO_API in include/hilo/ are exported from the
 * shared library; everything else (evaluator, lexer, pass internals,
 * protobuf-c) stays internal. The build also checks the exported set
 * against the public headers (tests/install). */
#ifndef HILO_EXPORT_H
#define HILO_EXPORT_H

#if defined(__GNUC__) || defined(__clang__)
#define HILO_API __attribute__((visibility("default")))
#else
#define HILO_API
#endif

#endif
