/* Arena allocator, growable buffer and string interning. */
#include "hilo/base.h"
#include "support/fmt.h"
#include "support/strhash.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

#ifndef MADV_POPULATE_WRITE
#define MADV_POPULATE_WRITE 23 /* Linux 5.14; older kernels answer EINVAL */
#endif

/* Page policy. Chunks of 2 MiB and more are mapped directly. By default
 * they are marked for huge pages: on virtual machines a page fault per
 * 4 KiB dominated parse time. The cost is the head chunk's last huge
 * page, resident whole however little of it the bump pointer reached (up
 * to 2 MB of a peak). An arena with HILO_ARENA_SMALL_PAGES keeps 4 KiB
 * pages and instead faults them in ahead of the bump pointer, PREFAULT
 * bytes at a time, with one madvise(MADV_POPULATE_WRITE) each (or by
 * touching the pages where the kernel lacks it): the faults are taken in
 * batches, and at most PREFAULT bytes past the bump pointer (a chunk's)
 * are resident but unused. */
#define HUGE_CHUNK ((size_t)2 << 20)
#define PREFAULT ((size_t)64 << 10)
#define PAGE ((uintptr_t)4096)

typedef struct chunk {
	struct chunk *next;
	size_t size, used;
	size_t lim;             /* the bump pointer stops here: size, or the
	                         * end of the faulted-in part (prefaulting) */
	size_t mapped;          /* bytes mmap'ed (0: came from calloc) */
	_Alignas(16) unsigned char data[];
} chunk;

/* A tracked heap block: a header before the caller's bytes, in a list
 * newest first (seq decreasing). */
typedef struct hblock {
	struct hblock *prev, *next;
	uint64_t seq;
	bool is_arena;          /* holds a child arena (hilo_arena_create_in) */
	_Alignas(16) unsigned char data[];
} hblock;

struct hilo_arena {
	chunk *head;
	size_t total;
	hilo_oom_guard *guard; /* the entry point's handler, or NULL */
	hblock *heap;          /* live tracked heap blocks */
	uint64_t heap_seq;
	hilo_arena *parent;    /* a child arena lives in its parent's heap */
	unsigned flags;        /* HILO_ARENA_*, inherited by child arenas */
	bool touch_pages;      /* MADV_POPULATE_WRITE is unknown here: touch */
	bool failed;           /* root only: an allocation in the tree failed */
};

static void release(hilo_arena *a);

/* Frees one tracked block (a child arena with everything in it). */
static void block_free(hblock *b)
{
	if (b->is_arena)
		release((hilo_arena *)(void *)b->data);
	free(b);
}

/* ---- fault injection ---- */

#ifdef HILO_FAULT_INJECTION
#include <stdatomic.h>

/* Test builds only (see base.h): the process-wide allocation count, the
 * K to fail at (-1 = not read from the environment yet) and the site of
 * the allocating call being made on this thread. */
static atomic_ulong fi_count;
static atomic_long fi_fail_at = -1;
static hilo_fault_observer fi_obs;
static void *fi_ud;
static _Thread_local const char *fi_file;
static _Thread_local int fi_line;
static const char *fi_failed_file;
static int fi_failed_line;

void hilo_fault_site(const char *file, int line)
{
	fi_file = file;
	fi_line = line;
}

void hilo_fault_configure(unsigned long fail_at, hilo_fault_observer obs, void *ud)
{
	fi_obs = obs;
	fi_ud = ud;
	fi_failed_file = NULL;
	fi_failed_line = 0;
	atomic_store(&fi_count, 0);
	atomic_store(&fi_fail_at, (long)fail_at);
}

unsigned long hilo_fault_count(void)
{
	return atomic_load(&fi_count);
}

const char *hilo_fault_failed_site(int *line)
{
	if (line)
		*line = fi_failed_line;
	return fi_failed_file;
}

/* Counts one allocation; true when it is the one to fail. */
static bool injected(void)
{
	long k = atomic_load(&fi_fail_at);
	if (k < 0) {
		const char *e = getenv("HILO_FAIL_ALLOC");
		k = e && *e ? strtol(e, NULL, 10) : 0;
		atomic_store(&fi_fail_at, k < 0 ? 0 : k);
	}
	unsigned long n = atomic_fetch_add(&fi_count, 1) + 1;
	const char *file = fi_file ? fi_file : "?";
	if (fi_obs)
		fi_obs(file, fi_line, fi_ud);
	if (k > 0 && n == (unsigned long)k) {
		fi_failed_file = file;
		fi_failed_line = fi_line;
		return true;
	}
	return false;
}
#define INJECTED() injected()
#else
/* release builds: the hooks exist and do nothing; allocation is uncounted */
void hilo_fault_site(const char *file, int line)
{
	(void)file;
	(void)line;
}

void hilo_fault_configure(unsigned long fail_at, hilo_fault_observer obs, void *ud)
{
	(void)fail_at;
	(void)obs;
	(void)ud;
}

unsigned long hilo_fault_count(void)
{
	return 0;
}

const char *hilo_fault_failed_site(int *line)
{
	if (line)
		*line = 0;
	return NULL;
}
#define INJECTED() false
#endif

/* ---- guards ---- */

bool hilo_oom_begin(hilo_oom_guard *g, hilo_arena *a)
{
	g->a = NULL;
	if (!a || a->guard)
		return false;
	g->a = a;
	g->heap_seq = a->heap_seq;
	a->guard = g;
	return true;
}

void hilo_oom_end(hilo_oom_guard *g)
{
	if (g->a)
		g->a->guard = NULL;
	g->a = NULL;
}

hilo_oom_guard *hilo_oom_suspend(hilo_arena *a)
{
	hilo_oom_guard *g = a->guard;
	a->guard = NULL;
	return g;
}

void hilo_oom_resume(hilo_arena *a, hilo_oom_guard *g)
{
	a->guard = g;
}

bool hilo_arena_failed(hilo_arena *a, bool clear)
{
	while (a->parent)
		a = a->parent;
	bool f = a->failed;
	if (clear)
		a->failed = false;
	return f;
}

void hilo_oom_raise(hilo_arena *a)
{
	if (a) {
		hilo_arena *r = a;
		while (r->parent)
			r = r->parent;
		r->failed = true;
	}
	while (a && !a->guard)
		a = a->parent; /* a child arena answers to its parent's guard */
	hilo_oom_guard *g = a ? a->guard : NULL;
	if (!g)
		return;
	while (a->heap && a->heap->seq > g->heap_seq) {
		hblock *b = a->heap;
		a->heap = b->next;
		if (a->heap)
			a->heap->prev = NULL;
		block_free(b);
	}
	a->guard = NULL;
	g->a = NULL;
	longjmp(g->jb, 1);
}

/* ---- tracked heap ---- */

/* n zeroed bytes. A block of 2 MiB and more (a reader's string table or
 * name map, touched all over) is advised for huge pages before its first
 * touch, as the arena's big chunks are: calloc's fresh pages took one
 * fault per 4 KiB, which on virtual machines cost more than the zeroing.
 * Under either page policy: the memset touches every byte and a huge page
 * lies only inside the advised range, so none is partly used (a block
 * grown by hilo_heap_realloc keeps the advice on its new, untouched part). */
static void *zalloc(size_t n)
{
	if (n < HUGE_CHUNK)
		return calloc(1, n);
	unsigned char *p = malloc(n);
	if (!p)
		return NULL;
	uintptr_t lo = ((uintptr_t)p + 4095) & ~(uintptr_t)4095;
	uintptr_t hi = ((uintptr_t)p + n) & ~(uintptr_t)4095;
	if (hi > lo)
		madvise((void *)lo, hi - lo, MADV_HUGEPAGE); /* advice: failure is harmless */
	memset(p, 0, n);
	return p;
}

void *(hilo_heap_alloc)(hilo_arena *a, size_t size)
{
	if (!a)
		return INJECTED() ? NULL : calloc(1, size ? size : 1);
	hblock *b = INJECTED() || size > SIZE_MAX - sizeof *b ? NULL : zalloc(sizeof *b + size);
	if (!b) {
		hilo_oom_raise(a);
		return NULL;
	}
	b->seq = ++a->heap_seq;
	b->next = a->heap;
	if (a->heap)
		a->heap->prev = b;
	a->heap = b;
	return b->data;
}

void *(hilo_heap_realloc)(hilo_arena *a, void *p, size_t size)
{
	if (!a)
		return INJECTED() ? NULL : realloc(p, size ? size : 1);
	if (!p)
		return (hilo_heap_alloc)(a, size);
	hblock *old = (hblock *)((unsigned char *)p - offsetof(hblock, data));
	hblock *b = INJECTED() || size > SIZE_MAX - sizeof *b ? NULL : realloc(old, sizeof *b + size);
	if (!b) {
		hilo_oom_raise(a); /* the old block is still listed: freed there */
		return NULL;
	}
	if (b->prev)
		b->prev->next = b;
	else
		a->heap = b;
	if (b->next)
		b->next->prev = b;
	return b->data;
}

void hilo_heap_free(hilo_arena *a, void *p)
{
	if (!p)
		return;
	if (!a) {
		free(p);
		return;
	}
	hblock *b = (hblock *)((unsigned char *)p - offsetof(hblock, data));
	if (b->prev)
		b->prev->next = b->next;
	else
		a->heap = b->next;
	if (b->next)
		b->next->prev = b->prev;
	free(b);
}

/* ---- arena ---- */

hilo_arena *(hilo_arena_create)(void)
{
	return INJECTED() ? NULL : calloc(1, sizeof(hilo_arena));
}

hilo_arena *(hilo_arena_create_in)(hilo_arena *parent)
{
	hilo_arena *a = (hilo_heap_alloc)(parent, sizeof *a);
	if (!a)
		return NULL;
	hblock *b = (hblock *)((unsigned char *)(void *)a - offsetof(hblock, data));
	b->is_arena = true;
	a->parent = parent;
	a->flags = parent ? parent->flags : 0;
	return a;
}

void hilo_arena_set_flags(hilo_arena *a, unsigned flags)
{
	a->flags = flags;
}

void hilo_arena_destroy(hilo_arena *a)
{
	if (!a)
		return;
	if (a->parent) {
		release(a);
		hilo_heap_free(a->parent, a);
		return;
	}
	release(a);
	free(a);
}

/* Frees everything a holds (not a itself). */
static void release(hilo_arena *a)
{
	for (hblock *b = a->heap, *n; b; b = n) {
		n = b->next;
		block_free(b);
	}
	for (chunk *c = a->head, *n; c; c = n) {
		n = c->next;
		if (c->mapped)
			munmap(c, c->mapped);
		else
			free(c);
	}
	a->heap = NULL;
	a->head = NULL;
}

/* Allocations are 8-byte aligned (nothing in an arena needs more: the
 * widest members are 8-byte int64/double/pointers), strings 1-byte
 * (arena_take with align 1): rounding every block to 16 bytes cost ~8% of
 * a parsed module. */
static void *arena_take(hilo_arena *a, size_t size, size_t align);

/* Faults in the pages of [lo, hi) (page-aligned, none of them holding
 * data yet). Prefaulting is an optimization: a failure other than an
 * unknown advice leaves the pages to fault one by one, as they would. */
static void populate(hilo_arena *a, uintptr_t lo, uintptr_t hi)
{
	if (!a->touch_pages) {
		int r = a->flags & HILO_ARENA_TEST_NO_POPULATE ? (errno = EINVAL, -1)
			: madvise((void *)lo, hi - lo, MADV_POPULATE_WRITE);
		if (r == 0 || (errno != EINVAL && errno != ENOSYS))
			return;
		a->touch_pages = true; /* a kernel before 5.14: asked once per arena */
	}
	for (uintptr_t p = lo; p < hi; p += PAGE)
		*(volatile unsigned char *)p = 0; /* fresh memory is zero already */
}

/* Moves c's bump limit past need bytes of its data and PREFAULT more
 * (within the mapping), faulting in the pages between. */
static void prefault(hilo_arena *a, chunk *c, size_t need)
{
	uintptr_t base = (uintptr_t)c->data, end = (uintptr_t)c + c->mapped;
	uintptr_t lo = (base + c->lim + PAGE - 1) & ~(PAGE - 1); /* the page at lim holds the header or data */
	uintptr_t hi = c->size - need <= PREFAULT ? end : (base + need + PREFAULT + PAGE - 1) & ~(PAGE - 1);
	if (hi > end)
		hi = end;
	if (hi > lo)
		populate(a, lo, hi);
	c->lim = hi - base;
}

void *(hilo_arena_alloc)(hilo_arena *a, size_t size)
{
	return arena_take(a, size, 8);
}

static void *arena_take(hilo_arena *a, size_t size, size_t align)
{
	if (INJECTED() || size > SIZE_MAX / 2) {
		hilo_oom_raise(a);
		return NULL;
	}
	if (size == 0)
		size = 1;
	chunk *c = a->head;
	size_t pad = c ? (align - (c->used & (align - 1))) & (align - 1) : 0;
	if (c && c->lim - c->used < size + pad && c->size - c->used >= size + pad) {
		prefault(a, c, c->used + pad + size); /* fits past the faulted-in part */
	} else if (!c || c->lim - c->used < size + pad) {
		pad = 0; /* a fresh chunk's data is 16-byte aligned */
		size_t want = c ? c->size * 2 : 64 * 1024;
		if (want > 64 * 1024 * 1024)
			want = 64 * 1024 * 1024;
		if (want < size)
			want = size;
		/* fresh memory is zero and arena memory is never reused, so
		 * allocations need no memset */
		size_t total = sizeof(chunk) + want, mapped = 0;
		if (total >= HUGE_CHUNK) {
			total = (total + HUGE_CHUNK - 1) & ~(HUGE_CHUNK - 1);
			void *p = mmap(NULL, total, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
			c = p == MAP_FAILED ? NULL : p;
			if (c) {
				/* advice: failure is harmless */
				madvise(c, total, a->flags & HILO_ARENA_SMALL_PAGES ? MADV_NOHUGEPAGE : MADV_HUGEPAGE);
				mapped = total;
				want = total - sizeof(chunk);
			}
		} else {
			c = calloc(1, total);
		}
		if (!c) {
			hilo_oom_raise(a);
			return NULL;
		}
		c->mapped = mapped;
		c->size = c->lim = want;
		c->used = 0;
		/* A big one-off block goes behind the head so the head keeps
		 * serving small allocations. */
		if (a->head && size > a->head->size - a->head->used && want == size) {
			c->next = a->head->next;
			a->head->next = c;
		} else {
			c->next = a->head;
			a->head = c;
		}
		a->total += want;
		if (mapped && a->flags & HILO_ARENA_SMALL_PAGES) {
			c->lim = 0;
			prefault(a, c, size);
		}
	}
	void *p = c->data + c->used + pad;
	c->used += pad + size;
	return p;
}

char *(hilo_arena_strndup)(hilo_arena *a, const char *s, size_t len)
{
	char *p = len < SIZE_MAX ? arena_take(a, len + 1, 1) : (hilo_arena_alloc)(a, SIZE_MAX);
	if (p) {
		if (len)
			memcpy(p, s, len);
		p[len] = 0;
	}
	return p;
}

char *(hilo_arena_strdup)(hilo_arena *a, const char *s)
{
	return (hilo_arena_strndup)(a, s, strlen(s));
}

char *(hilo_arena_printf)(hilo_arena *a, const char *fmt, ...)
{
	va_list ap, ap2;
	va_start(ap, fmt);
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	char *p = n >= 0 ? arena_take(a, (size_t)n + 1, 1) : NULL;
	if (p)
		vsnprintf(p, (size_t)n + 1, fmt, ap2);
	va_end(ap2);
	return p;
}

void *(hilo_arena_grow)(hilo_arena *a, void *old, size_t n, size_t newcap, size_t sz)
{
	if (sz && newcap > SIZE_MAX / sz) {
		hilo_oom_raise(a);
		return NULL;
	}
	void *p = (hilo_arena_alloc)(a, newcap * sz);
	if (p && n)
		memcpy(p, old, n * sz);
	return p;
}

size_t hilo_arena_bytes(const hilo_arena *a)
{
	return a->total;
}

/* ---- buffer ---- */

void hilo_buf_init(hilo_buf *b)
{
	memset(b, 0, sizeof *b);
}

void hilo_buf_init_in(hilo_buf *b, hilo_arena *a)
{
	memset(b, 0, sizeof *b);
	b->arena = a;
}

void hilo_buf_free(hilo_buf *b)
{
	hilo_arena *a = b->arena;
	hilo_heap_free(a, b->data);
	memset(b, 0, sizeof *b);
	b->arena = a;
}

void (hilo_buf_reserve)(hilo_buf *b, size_t extra)
{
	if (b->oom || b->len + extra + 1 <= b->cap)
		return;
	if (b->sink && b->len > 1) {
		/* streamed: out with all but the last byte */
		if (!hilo_output_write(b->sink, b->data, b->len - 1)) {
			b->oom = true;
			return;
		}
		b->data[0] = b->data[b->len - 1];
		b->len = 1;
		b->data[1] = 0;
		if (b->len + extra + 1 <= b->cap)
			return;
	}
	size_t cap = b->cap ? b->cap : 256;
	while (cap < b->len + extra + 1 && cap < SIZE_MAX / 2)
		cap *= 2;
	char *p = cap < b->len + extra + 1 ? NULL : (hilo_heap_realloc)(b->arena, b->data, cap);
	if (!p) {
		hilo_oom_raise(b->arena);
		b->oom = true;
		return;
	}
	b->data = p;
	b->cap = cap;
}

void hilo_buf_stream_to(hilo_buf *b, struct hilo_output *o)
{
	(hilo_buf_reserve)(b, 64 * 1024 - 1); /* a 64 KiB buffer */
	b->sink = o;
}

bool hilo_buf_stream_end(hilo_buf *b)
{
	if (b->sink && !b->oom && b->len && !hilo_output_write(b->sink, b->data, b->len))
		b->oom = true;
	if (b->sink && !b->oom)
		b->len = 0;
	b->sink = NULL;
	return !b->oom;
}

void (hilo_buf_put)(hilo_buf *b, const char *s, size_t n)
{
	(hilo_buf_reserve)(b, n);
	if (b->oom)
		return;
	memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = 0;
}

void (hilo_buf_puts)(hilo_buf *b, const char *s)
{
	(hilo_buf_put)(b, s, strlen(s));
}

void (hilo_buf_putc)(hilo_buf *b, char c)
{
	if (b->len + 2 > b->cap)
		(hilo_buf_reserve)(b, 1);
	if (b->oom)
		return;
	b->data[b->len++] = c;
	b->data[b->len] = 0;
}

void (hilo_buf_vprintf)(hilo_buf *b, const char *fmt, va_list ap)
{
	va_list ap2;
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap);
	if (n > 0) {
		(hilo_buf_reserve)(b, (size_t)n);
		if (!b->oom) {
			vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap2);
			b->len += (size_t)n;
		}
	}
	va_end(ap2);
}

void (hilo_buf_printf)(hilo_buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	(hilo_buf_vprintf)(b, fmt, ap);
	va_end(ap);
}

void (hilo_buf_put_i64)(hilo_buf *b, int64_t v)
{
	char tmp[24];
	char *e = tmp + sizeof tmp, *p = hilo_fmt_i64(e, v);
	(hilo_buf_put)(b, p, (size_t)(e - p));
}

const char *(hilo_buf_cstr)(hilo_buf *b)
{
	if (!b->data) {
		(hilo_buf_reserve)(b, 0);
		if (b->data)
			b->data[0] = 0; /* the fresh block is not cleared: an empty buffer reads "" */
	}
	return b->data ? b->data : "";
}

/* ---- string table: open addressing, word-at-a-time hash ---- */

typedef struct {
	const char *s;
	uint32_t len, hash;
} slot;

struct hilo_strtab {
	hilo_arena *a;
	slot *slots;
	size_t cap, n;
	bool heap_slots;    /* slots are a tracked heap block (grown once) */
};

/* The hash is hilo_hash_inline (support/strhash.h), inlined by the text
 * reader; this is its exported form. */
uint32_t hilo_str_hash(const char *s, size_t n)
{
	return hilo_hash_inline(s, n);
}

hilo_strtab *hilo_strtab_create(hilo_arena *a)
{
	hilo_strtab *t = (hilo_arena_alloc)(a, sizeof *t);
	if (!t)
		return NULL;
	t->a = a;
	t->cap = 4096;
	t->slots = (hilo_arena_alloc)(a, t->cap * sizeof(slot));
	return t->slots ? t : NULL;
}

/* The first slot array lives in the arena; grown ones are tracked heap
 * blocks, and a growth frees the array it replaces (an arena would keep
 * it: as many bytes again as the final table, on a program of 100k names
 * several MB of dead slots). */
static bool rehash_to(hilo_strtab *t, size_t ncap)
{
	slot *ns = (hilo_heap_alloc)(t->a, ncap * sizeof(slot));
	if (!ns)
		return false;
	for (size_t i = 0; i < t->cap; i++) {
		slot s = t->slots[i];
		if (!s.s)
			continue;
		size_t j = s.hash & (ncap - 1);
		while (ns[j].s)
			j = (j + 1) & (ncap - 1);
		ns[j] = s;
	}
	if (t->heap_slots)
		hilo_heap_free(t->a, t->slots);
	t->heap_slots = true;
	t->slots = ns;
	t->cap = ncap;
	return true;
}

static bool rehash(hilo_strtab *t)
{
	return rehash_to(t, t->cap * 2);
}

void hilo_strtab_reserve(hilo_strtab *t, size_t n)
{
	size_t cap = t->cap;
	while ((t->n + n + 1) * 2 > cap && cap < ((size_t)1 << 40) / sizeof(slot))
		cap *= 2;
	if (cap > t->cap)
		rehash_to(t, cap);
}

void hilo_strtab_prefetch(const hilo_strtab *t, uint32_t hash)
{
	__builtin_prefetch(&t->slots[hash & (t->cap - 1)]);
}

const char *(hilo_intern_hashed)(hilo_strtab *t, const char *s, size_t len, uint32_t h)
{
	size_t i = h & (t->cap - 1);
	for (;;) {
		slot *sl = &t->slots[i];
		if (!sl->s)
			break;
		if (sl->hash == h && sl->len == len && hilo_mem_eq(sl->s, s, len))
			return sl->s;
		i = (i + 1) & (t->cap - 1);
	}
	if ((t->n + 1) * 2 > t->cap) {
		if (!rehash(t))
			return NULL;
		return (hilo_intern_hashed)(t, s, len, h);
	}
	const char *p = (hilo_arena_strndup)(t->a, s, len);
	if (!p)
		return NULL;
	t->slots[i] = (slot){p, (uint32_t)len, h};
	t->n++;
	return p;
}

const char *(hilo_intern)(hilo_strtab *t, const char *s, size_t len)
{
	return (hilo_intern_hashed)(t, s, len, hilo_hash_inline(s, len));
}

const char *(hilo_intern_cstr)(hilo_strtab *t, const char *s)
{
	return (hilo_intern)(t, s, strlen(s));
}
