/* hilo/base.h - shared infrastructure: arenas, interned strings, diagnostics.
 *
 * Everything in libhilo allocates from an arena owned by the object that
 * needs it (a module, a program, a pass run) and frees it in one call.
 * There is no global state: every function takes the context it works on.
 * The library never exits the process; errors come back as a status plus
 * diagnostics collected in a hilo_diags list the caller prints.
 */
#ifndef HILO_BASE_H
#define HILO_BASE_H

#include "hilo/export.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdbool.h>

/* A compile-time check in a public header, in C and in C++ */
#ifdef __cplusplus
#define HILO_STATIC_ASSERT(cond, msg) static_assert(cond, msg)
#else
#define HILO_STATIC_ASSERT(cond, msg) _Static_assert(cond, msg)
#endif

#ifdef __cplusplus
extern "C" {
#endif

/* ---- arena ---------------------------------------------------------- */

typedef struct hilo_arena hilo_arena;

HILO_API hilo_arena *hilo_arena_create(void);
/* A child arena (scratch for a nested computation): lives in parent's
 * tracked heap, so an out-of-memory jump to parent's guard frees it, and
 * its allocation failures jump to that guard too. Destroy it as usual. */
HILO_API hilo_arena *hilo_arena_create_in(hilo_arena *parent);
HILO_API void hilo_arena_destroy(hilo_arena *a);
/* Returns zeroed, 16-byte aligned memory; NULL only when malloc fails. */
HILO_API void *hilo_arena_alloc(hilo_arena *a, size_t size);
/* Copies len bytes and appends a NUL. */
HILO_API char *hilo_arena_strndup(hilo_arena *a, const char *s, size_t len);
HILO_API char *hilo_arena_strdup(hilo_arena *a, const char *s);
HILO_API char *hilo_arena_printf(hilo_arena *a, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
/* Grows an arena array: returns a copy of old (n elements of size sz)
 * with room for newcap elements. The old block is abandoned to the arena. */
HILO_API void *hilo_arena_grow(hilo_arena *a, void *old, size_t n, size_t newcap, size_t sz);
HILO_API size_t hilo_arena_bytes(const hilo_arena *a);
/* Page policy of the arena's big chunks (2 MiB and more; src/support/arena.c).
 * Default: huge pages, the fewest faults, but the last huge page of the
 * newest chunk is resident whole (up to 2 MB of unused peak memory).
 * HILO_ARENA_SMALL_PAGES: 4 KiB pages faulted in ahead of the bump pointer
 * in batches of 64 KiB (madvise MADV_POPULATE_WRITE, or touching the
 * pages where the kernel lacks it), at most that much unused. For arenas
 * whose peak matters more than their last few percent of speed.
 * HILO_ARENA_TEST_NO_POPULATE (tests): act as if the kernel lacked
 * MADV_POPULATE_WRITE. Flags apply to chunks mapped from then on; child
 * arenas created from then on inherit them. */
#define HILO_ARENA_SMALL_PAGES 1u
#define HILO_ARENA_TEST_NO_POPULATE 2u
HILO_API void hilo_arena_set_flags(hilo_arena *a, unsigned flags);

/* ---- out of memory (docs/architecture.md, "Out of memory") ---------- *
 *
 * One policy for the whole library, after Lua's LUA_ERRMEM: every public
 * entry point (parse, verify, run passes, print, proto read/write, eval,
 * clone, PTO parse/legalize/print) installs a guard on the arena of the
 * object it works on. An allocation that fails under a guard -- from the
 * arena or from the arena's tracked heap below -- longjmps to the guard,
 * which frees the tracked heap blocks taken since it was installed, adds
 * "error: out of memory" and returns the entry point's failure status.
 * Everything else lives in arenas, so nothing leaks and the object stays
 * destroyable (a module whose pass run failed this way may be half
 * rewritten: destroy it). Code under a guard therefore never sees NULL
 * from an allocation. Without a guard (a caller building IR by hand)
 * allocations return NULL as before. The guard lives in the caller's stack
 * frame and is reachable only through its arena: no global state, so
 * threads with separate modules never interfere. A nested entry point on
 * an arena that is already guarded leaves the outer guard in charge. */
typedef struct hilo_oom_guard {
	jmp_buf jb;
	hilo_arena *a;      /* the guarded arena; NULL when an outer guard rules */
	uint64_t heap_seq;  /* tracked heap blocks newer than this are freed */
} hilo_oom_guard;

/* Installs g on a (true) or leaves an active guard in place (false). */
HILO_API bool hilo_oom_begin(hilo_oom_guard *g, hilo_arena *a);
/* Removes g (normal return). */
HILO_API void hilo_oom_end(hilo_oom_guard *g);
/* Removes a's guard for a stretch of code that keeps malloc'd state a jump
 * would leak (allocations there return NULL); resume puts it back. */
HILO_API hilo_oom_guard *hilo_oom_suspend(hilo_arena *a);
HILO_API void hilo_oom_resume(hilo_arena *a, hilo_oom_guard *g);
/* True when an allocation in a's tree of arenas (a's root and its child
 * arenas) failed since the flag was last cleared; clear resets it. Lets a
 * suspended stretch tell "out of memory" from its own soft failures. */
HILO_API bool hilo_arena_failed(hilo_arena *a, bool clear);
/* Out of memory on a: with a guard installed, frees the tracked heap
 * blocks taken under it, removes it and longjmps to it (no return);
 * without one, returns. */
HILO_API void hilo_oom_raise(hilo_arena *a);
/* The entry-point pattern:
 *     HILO_OOM_CATCH(g, m->arena) {
 *         hilo_diag_add(d, ..., "out of memory");
 *         return failure;
 *     }
 *     r = work(...);
 *     hilo_oom_end(&g);
 * The block runs after a failed allocation (the guard is already
 * removed); locals assigned after the macro must not be read in it. */
#define HILO_OOM_CATCH(g, arena) \
	hilo_oom_guard g; \
	if (!hilo_oom_begin(&(g), (arena))) \
		; \
	else if (setjmp((g).jb))

/* Tracked heap: malloc'd blocks for side buffers (work lists, hash maps,
 * growable buffers) that a guard frees when it catches, and that
 * hilo_arena_destroy frees if still live. a == NULL: plain malloc, NULL on
 * failure. hilo_heap_alloc zero-fills. */
HILO_API void *hilo_heap_alloc(hilo_arena *a, size_t size);
HILO_API void *hilo_heap_realloc(hilo_arena *a, void *p, size_t size);
HILO_API void hilo_heap_free(hilo_arena *a, void *p);

/* ---- fault injection (-DHILO_FAULT_INJECTION=ON builds only) -------- *
 * Every allocation (arena, tracked heap, buffer and map growth) is counted
 * process-wide; with HILO_FAIL_ALLOC=K in the environment (or
 * hilo_fault_configure) the K-th fails as if malloc had returned NULL.
 * Allocating calls record their call site (file, line) for the sweep test.
 * This counter is the library's only mutable static, and exists only in
 * these test builds; release builds compile all of it away. */

/* ---- growable byte buffer (malloc-backed, for printers) ------------- */

typedef struct hilo_buf {
	char *data;   /* NUL-terminated when len > 0 or after hilo_buf_cstr */
	size_t len;
	size_t cap;
	bool oom;     /* set once an allocation failed; further appends no-op */
	hilo_arena *arena; /* non-NULL: data is tracked heap of this arena */
	struct hilo_output *sink; /* non-NULL: streamed (hilo_buf_stream_to) */
} hilo_buf;

/* A caller-owned buffer (output of print/proto write): growth failure
 * sets oom and the producer reports it. */
HILO_API void hilo_buf_init(hilo_buf *b);
/* A library-internal buffer on a's tracked heap (freed by a guard). */
HILO_API void hilo_buf_init_in(hilo_buf *b, hilo_arena *a);
HILO_API void hilo_buf_free(hilo_buf *b);
HILO_API void hilo_buf_reserve(hilo_buf *b, size_t extra);
HILO_API void hilo_buf_put(hilo_buf *b, const char *s, size_t n);
HILO_API void hilo_buf_puts(hilo_buf *b, const char *s);
HILO_API void hilo_buf_putc(hilo_buf *b, char c);
HILO_API void hilo_buf_printf(hilo_buf *b, const char *fmt, ...)
	__attribute__((format(printf, 2, 3)));
HILO_API void hilo_buf_vprintf(hilo_buf *b, const char *fmt, va_list ap);
HILO_API void hilo_buf_put_i64(hilo_buf *b, int64_t v);
HILO_API const char *hilo_buf_cstr(hilo_buf *b);
/* Streams b, an empty buffer, to o (hilo_output_open): once b holds
 * about 64 KiB, what it holds is written to o, all but the last byte,
 * which stays in data[0] (a printer may still drop a final newline). So
 * data and len are only the unwritten tail: for producers that never read
 * back what they wrote before it. A failed write sets oom (and
 * hilo_output_ok(o) false). hilo_buf_stream_end writes the rest and
 * detaches o; false when a write failed. */
HILO_API void hilo_buf_stream_to(hilo_buf *b, struct hilo_output *o);
HILO_API bool hilo_buf_stream_end(hilo_buf *b);

/* ---- interned strings ----------------------------------------------- */

/* An interned string is a const char * owned by the table's arena; two
 * equal strings interned in one table are the same pointer. */
typedef struct hilo_strtab hilo_strtab;

HILO_API hilo_strtab *hilo_strtab_create(hilo_arena *a);
HILO_API const char *hilo_intern(hilo_strtab *t, const char *s, size_t len);
HILO_API const char *hilo_intern_cstr(hilo_strtab *t, const char *s);
/* The table's hash of s[0..len) (the same bytes give the same value on
 * every call); hilo_intern_hashed takes it precomputed, for a caller
 * that keys a side table by the same text. */
HILO_API uint32_t hilo_str_hash(const char *s, size_t len);
HILO_API const char *hilo_intern_hashed(hilo_strtab *t, const char *s, size_t len, uint32_t hash);
/* Grows the table once so that n more strings fit without a rehash (a
 * reader that can estimate its count: one growth instead of many). */
HILO_API void hilo_strtab_reserve(hilo_strtab *t, size_t n);

/* ---- pointer map (malloc-backed; keys are any non-NULL pointers) ---- */

typedef struct hilo_ptrmap {
	const void **keys;
	void **vals;
	size_t cap, n;
	hilo_arena *arena; /* non-NULL: the tables are tracked heap of this arena */
} hilo_ptrmap;

HILO_API void hilo_ptrmap_init(hilo_ptrmap *m);
/* A map on a's tracked heap: inside the library, always this one. */
HILO_API void hilo_ptrmap_init_in(hilo_ptrmap *m, hilo_arena *a);
HILO_API void hilo_ptrmap_free(hilo_ptrmap *m);
HILO_API void hilo_ptrmap_clear(hilo_ptrmap *m);
/* Returns false only when out of memory. */
HILO_API bool hilo_ptrmap_put(hilo_ptrmap *m, const void *key, void *val);
HILO_API void *hilo_ptrmap_get(const hilo_ptrmap *m, const void *key);

typedef struct hilo_diags hilo_diags;

/* ---- files ---------------------------------------------------------- */

/* Reads a whole file ("-" = stdin) into a malloc'ed buffer (NUL-terminated,
 * *len excludes the NUL). On failure returns NULL and adds a diagnostic. */
HILO_API char *hilo_read_file(const char *path, size_t *len, hilo_diags *d);
/* True when s[0..n) holds only whitespace (space, tab, CR, LF, FF, VT);
 * *line and *col then receive the position after it (1-based, byte columns):
 * where a tool's "empty input" error points. */
HILO_API bool hilo_text_is_blank(const char *s, size_t n, int *line, int *col);
/* The output routine of every tool (-o, --remarks). path "-" is standard
 * output. A regular file (or a new one) is written atomically: a temporary
 * file in the same folder, fsync, then rename; a symbolic link is resolved
 * and its target replaced, keeping the target's mode and (where permitted)
 * owner; a new file gets 0666 & ~umask. Character devices, FIFOs and
 * sockets are written in place; other file types are refused. On failure
 * a replaced file is untouched, no temporary is left and a diagnostic is
 * added. -DHILO_FAULT_INJECTION=ON builds honour HILO_FAIL_WRITE=K (the
 * K-th write(2) of this routine fails). */
HILO_API bool hilo_write_output(const char *path, const void *data, size_t len, hilo_diags *d);
/* The same output written piece by piece, for output too big to hold
 * whole: hilo_output_open does what hilo_write_output does before its
 * first write (resolves links, refuses what it refuses, creates the
 * temporary file; NULL with a diagnostic on failure), hilo_output_write
 * appends (false once a write failed), hilo_output_close(o, true)
 * publishes: rename over the target, or for standard output, devices,
 * FIFOs and sockets the one write of everything, which was buffered so
 * that a failed run writes nothing there either. It returns false with a
 * diagnostic when any step failed. hilo_output_close(o, false) discards:
 * the temporary is removed, the target untouched. Either frees o. */
typedef struct hilo_output hilo_output;
HILO_API hilo_output *hilo_output_open(const char *path, hilo_diags *d);
HILO_API bool hilo_output_write(hilo_output *o, const void *data, size_t len);
HILO_API bool hilo_output_close(hilo_output *o, bool commit);
/* No write to o has failed so far. */
HILO_API bool hilo_output_ok(const hilo_output *o);

/* ---- diagnostics ---------------------------------------------------- */

typedef enum hilo_severity {
	HILO_SEV_ERROR,
	HILO_SEV_WARNING,
	HILO_SEV_NOTE,
} hilo_severity;

typedef struct hilo_diag {
	hilo_severity sev;
	char *file;       /* may be NULL */
	int line, col;    /* 1-based; 0 = unknown */
	char *code;       /* optional code such as "GB001"; NULL otherwise */
	char *msg;
	char *src_line;   /* the source line for the caret display, or NULL */
} hilo_diag;

struct hilo_diags {
	hilo_diag *items;
	size_t n, cap;
	size_t nerrors;
	size_t max_errors; /* 0 = unlimited; later errors are counted only */
	bool oom;          /* an "out of memory" error was reported */
	bool oom_lost;     /* ... but could not be stored (printed anyway) */
	hilo_arena *arena; /* non-NULL: a library-internal list (tracked heap) */
};

HILO_API void hilo_diags_init(hilo_diags *d);
/* A list the library keeps internally (a pass swallowing evaluator
 * errors): on a's tracked heap, so an out-of-memory jump frees it. */
HILO_API void hilo_diags_init_in(hilo_diags *d, hilo_arena *a);
HILO_API void hilo_diags_free(hilo_diags *d);
/* Adds a diagnostic; src/srclen is the whole source buffer (or NULL) used
 * to extract the line for the caret display. */
HILO_API void hilo_diag_add(hilo_diags *d, hilo_severity sev, const char *file,
	int line, int col, const char *src, size_t srclen, const char *fmt, ...)
	__attribute__((format(printf, 8, 9)));
/* The one out-of-memory report: "FILE: error: out of memory", d->oom. */
HILO_API void hilo_diag_oom(hilo_diags *d, const char *file);
HILO_API void hilo_diag_addv(hilo_diags *d, hilo_severity sev, const char *file,
	int line, int col, const char *src, size_t srclen, const char *code,
	const char *fmt, va_list ap);
/* hilo_diag_addv with the caret line given as its own text (text[0..n),
 * up to the first newline or carriage return, at most 400 bytes shown, as
 * hilo_diag_addv takes it from a whole buffer); text NULL: no caret line. */
HILO_API void hilo_diag_addv_line(hilo_diags *d, hilo_severity sev, const char *file,
	int line, int col, const char *text, size_t n, const char *code,
	const char *fmt, va_list ap);
/* Prints "FILE:LINE:COL: error: MSG" then the source line and a caret. */
HILO_API void hilo_diags_print(FILE *f, const hilo_diags *d);

/* Internal invariant break: reports file/line and aborts. Only for bugs,
 * never for bad input. */
#define HILO_PANIC(msg) hilo_panic(__FILE__, __LINE__, (msg))
HILO_API void hilo_panic(const char *file, int line, const char *msg)
	__attribute__((noreturn));

/* fault-injection call sites (see "fault injection" above) */
/* (In other builds these exist but do nothing: count 0, no site.) */
HILO_API void hilo_fault_site(const char *file, int line);
typedef void (*hilo_fault_observer)(const char *file, int line, void *ud);
/* Resets the count; fail_at 0 = never fail; obs sees every allocation. */
HILO_API void hilo_fault_configure(unsigned long fail_at, hilo_fault_observer obs, void *ud);
HILO_API unsigned long hilo_fault_count(void);
/* The site of the allocation made to fail (NULL when none failed yet). */
HILO_API const char *hilo_fault_failed_site(int *line);
#ifdef HILO_FAULT_INJECTION
#define HILO_FI_(call) (hilo_fault_site(__FILE__, __LINE__), (call))
#define hilo_arena_create() HILO_FI_((hilo_arena_create)())
#define hilo_arena_alloc(a, n) HILO_FI_((hilo_arena_alloc)(a, n))
#define hilo_arena_strndup(a, s, n) HILO_FI_((hilo_arena_strndup)(a, s, n))
#define hilo_arena_strdup(a, s) HILO_FI_((hilo_arena_strdup)(a, s))
#define hilo_arena_printf(...) HILO_FI_((hilo_arena_printf)(__VA_ARGS__))
#define hilo_arena_grow(a, o, n, c, z) HILO_FI_((hilo_arena_grow)(a, o, n, c, z))
#define hilo_heap_alloc(a, n) HILO_FI_((hilo_heap_alloc)(a, n))
#define hilo_arena_create_in(a) HILO_FI_((hilo_arena_create_in)(a))
#define hilo_heap_realloc(a, p, n) HILO_FI_((hilo_heap_realloc)(a, p, n))
#define hilo_buf_reserve(b, n) HILO_FI_((hilo_buf_reserve)(b, n))
#define hilo_buf_put(b, s, n) HILO_FI_((hilo_buf_put)(b, s, n))
#define hilo_buf_puts(b, s) HILO_FI_((hilo_buf_puts)(b, s))
#define hilo_buf_putc(b, c) HILO_FI_((hilo_buf_putc)(b, c))
#define hilo_buf_printf(...) HILO_FI_((hilo_buf_printf)(__VA_ARGS__))
#define hilo_buf_vprintf(b, f, ap) HILO_FI_((hilo_buf_vprintf)(b, f, ap))
#define hilo_buf_put_i64(b, v) HILO_FI_((hilo_buf_put_i64)(b, v))
#define hilo_buf_cstr(b) HILO_FI_((hilo_buf_cstr)(b))
#define hilo_intern(t, s, n) HILO_FI_((hilo_intern)(t, s, n))
#define hilo_intern_cstr(t, s) HILO_FI_((hilo_intern_cstr)(t, s))
#define hilo_intern_hashed(t, s, n, h) HILO_FI_((hilo_intern_hashed)(t, s, n, h))
#define hilo_ptrmap_put(m, k, v) HILO_FI_((hilo_ptrmap_put)(m, k, v))
#endif

#ifdef __cplusplus
}
#endif

#endif
