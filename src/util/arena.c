/* Arena allocator, growable buffer and string interning. */
#include "hilo/base.h"

#include <stdlib.h>
#include <string.h>
#include <sys/mman.h>

/* Chunks of 2 MiB and more are mapped directly and marked for huge pages:
 * on virtual machines a page fault per 4 KiB dominated parse time. */
#define HUGE_CHUNK ((size_t)2 << 20)

typedef struct chunk {
	struct chunk *next;
	size_t size, used;
	size_t mapped;          /* bytes mmap'ed (0: came from calloc) */
	_Alignas(16) unsigned char data[];
} chunk;

struct hilo_arena {
	chunk *head;
	size_t total;
};

hilo_arena *hilo_arena_create(void)
{
	return calloc(1, sizeof(hilo_arena));
}

void hilo_arena_destroy(hilo_arena *a)
{
	if (!a)
		return;
	for (chunk *c = a->head, *n; c; c = n) {
		n = c->next;
		if (c->mapped)
			munmap(c, c->mapped);
		else
			free(c);
	}
	free(a);
}

void *hilo_arena_alloc(hilo_arena *a, size_t size)
{
	size = (size + 15) & ~(size_t)15;
	if (size == 0)
		size = 16;
	chunk *c = a->head;
	if (!c || c->size - c->used < size) {
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
				madvise(c, total, MADV_HUGEPAGE);
				mapped = total;
				want = total - sizeof(chunk);
			}
		} else {
			c = calloc(1, total);
		}
		if (!c)
			return NULL;
		c->mapped = mapped;
		c->size = want;
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
	}
	void *p = c->data + c->used;
	c->used += size;
	return p;
}

char *hilo_arena_strndup(hilo_arena *a, const char *s, size_t len)
{
	char *p = hilo_arena_alloc(a, len + 1);
	if (p) {
		if (len)
			memcpy(p, s, len);
		p[len] = 0;
	}
	return p;
}

char *hilo_arena_strdup(hilo_arena *a, const char *s)
{
	return hilo_arena_strndup(a, s, strlen(s));
}

char *hilo_arena_printf(hilo_arena *a, const char *fmt, ...)
{
	va_list ap, ap2;
	va_start(ap, fmt);
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap);
	va_end(ap);
	char *p = n >= 0 ? hilo_arena_alloc(a, (size_t)n + 1) : NULL;
	if (p)
		vsnprintf(p, (size_t)n + 1, fmt, ap2);
	va_end(ap2);
	return p;
}

void *hilo_arena_grow(hilo_arena *a, void *old, size_t n, size_t newcap, size_t sz)
{
	void *p = hilo_arena_alloc(a, newcap * sz);
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

void hilo_buf_free(hilo_buf *b)
{
	free(b->data);
	memset(b, 0, sizeof *b);
}

void hilo_buf_reserve(hilo_buf *b, size_t extra)
{
	if (b->oom || b->len + extra + 1 <= b->cap)
		return;
	size_t cap = b->cap ? b->cap : 256;
	while (cap < b->len + extra + 1)
		cap *= 2;
	char *p = realloc(b->data, cap);
	if (!p) {
		b->oom = true;
		return;
	}
	b->data = p;
	b->cap = cap;
}

void hilo_buf_put(hilo_buf *b, const char *s, size_t n)
{
	hilo_buf_reserve(b, n);
	if (b->oom)
		return;
	memcpy(b->data + b->len, s, n);
	b->len += n;
	b->data[b->len] = 0;
}

void hilo_buf_puts(hilo_buf *b, const char *s)
{
	hilo_buf_put(b, s, strlen(s));
}

void hilo_buf_putc(hilo_buf *b, char c)
{
	if (b->len + 2 > b->cap)
		hilo_buf_reserve(b, 1);
	if (b->oom)
		return;
	b->data[b->len++] = c;
	b->data[b->len] = 0;
}

void hilo_buf_vprintf(hilo_buf *b, const char *fmt, va_list ap)
{
	va_list ap2;
	va_copy(ap2, ap);
	int n = vsnprintf(NULL, 0, fmt, ap);
	if (n > 0) {
		hilo_buf_reserve(b, (size_t)n);
		if (!b->oom) {
			vsnprintf(b->data + b->len, (size_t)n + 1, fmt, ap2);
			b->len += (size_t)n;
		}
	}
	va_end(ap2);
}

void hilo_buf_printf(hilo_buf *b, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	hilo_buf_vprintf(b, fmt, ap);
	va_end(ap);
}

void hilo_buf_put_i64(hilo_buf *b, int64_t v)
{
	char tmp[24];
	char *e = tmp + sizeof tmp, *p = e;
	uint64_t u = v < 0 ? (uint64_t)0 - (uint64_t)v : (uint64_t)v;
	do {
		*--p = (char)('0' + u % 10);
		u /= 10;
	} while (u);
	if (v < 0)
		*--p = '-';
	hilo_buf_put(b, p, (size_t)(e - p));
}

const char *hilo_buf_cstr(hilo_buf *b)
{
	if (!b->data)
		hilo_buf_reserve(b, 0);
	return b->data ? b->data : "";
}

/* ---- string table: open addressing, FNV-1a ---- */

typedef struct {
	const char *s;
	uint32_t len, hash;
} slot;

struct hilo_strtab {
	hilo_arena *a;
	slot *slots;
	size_t cap, n;
};

static uint32_t fnv(const char *s, size_t n)
{
	uint32_t h = 2166136261u;
	for (size_t i = 0; i < n; i++)
		h = (h ^ (unsigned char)s[i]) * 16777619u;
	return h;
}

hilo_strtab *hilo_strtab_create(hilo_arena *a)
{
	hilo_strtab *t = hilo_arena_alloc(a, sizeof *t);
	if (!t)
		return NULL;
	t->a = a;
	t->cap = 4096;
	t->slots = hilo_arena_alloc(a, t->cap * sizeof(slot));
	return t->slots ? t : NULL;
}

/* Slot arrays live in the arena; a grown table abandons the old array
 * (at most as many bytes again as the final one). */
static bool rehash(hilo_strtab *t)
{
	size_t ncap = t->cap * 2;
	slot *ns = hilo_arena_alloc(t->a, ncap * sizeof(slot));
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
	t->slots = ns;
	t->cap = ncap;
	return true;
}

const char *hilo_intern(hilo_strtab *t, const char *s, size_t len)
{
	uint32_t h = fnv(s, len);
	size_t i = h & (t->cap - 1);
	for (;;) {
		slot *sl = &t->slots[i];
		if (!sl->s)
			break;
		if (sl->hash == h && sl->len == len && memcmp(sl->s, s, len) == 0)
			return sl->s;
		i = (i + 1) & (t->cap - 1);
	}
	if ((t->n + 1) * 2 > t->cap) {
		if (!rehash(t))
			return NULL;
		return hilo_intern(t, s, len);
	}
	const char *p = hilo_arena_strndup(t->a, s, len);
	if (!p)
		return NULL;
	t->slots[i] = (slot){p, (uint32_t)len, h};
	t->n++;
	return p;
}

const char *hilo_intern_cstr(hilo_strtab *t, const char *s)
{
	return hilo_intern(t, s, strlen(s));
}
