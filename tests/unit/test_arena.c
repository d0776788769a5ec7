/* The arena's page policies (src/support/arena.c, hilo_arena_set_flags).
 * For the default policy, HILO_ARENA_SMALL_PAGES (4 KiB pages faulted in
 * ahead of the bump pointer with MADV_POPULATE_WRITE) and its fallback
 * (HILO_ARENA_TEST_NO_POPULATE: the kernel "lacks" the advice, the pages
 * are touched): every allocation is zeroed and keeps what was written
 * into it while the arena grows past several mapped chunks, one-off
 * blocks bigger than a chunk included; with small pages the pages just
 * ahead of the bump pointer are resident before anything touches them,
 * and pages far ahead are not (that is the memory the policy saves), in
 * child arenas too. Residency is read with mincore(2). */
#include "check.h"

#include "hilo/base.h"

#include <stdint.h>
#include <string.h>
#include <sys/mman.h>
#include <unistd.h>

/* 1: the page holding p is resident, 0: it is not (or not mapped). */
static int resident(const void *p)
{
	uintptr_t pg = (uintptr_t)sysconf(_SC_PAGESIZE);
	unsigned char v = 0;
	if (mincore((void *)((uintptr_t)p & ~(pg - 1)), 1, &v) != 0)
		return 0;
	return v & 1;
}

static int all_zero(const unsigned char *p, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (p[i])
			return 0;
	return 1;
}

typedef struct {
	unsigned char *p;
	size_t n;
} block;

#define NBLOCKS 16384

/* Allocates a mix of sizes (about 14 MB: several mapped chunks and two
 * one-off blocks), checks each is zeroed, fills it with its own byte and
 * checks at the end that every byte is still there. */
static void fill_and_check(unsigned flags)
{
	block *b = malloc(NBLOCKS * sizeof *b);
	hilo_arena *a = hilo_arena_create();
	CHECK(a != NULL && b != NULL);
	if (!a || !b) {
		free(b);
		hilo_arena_destroy(a);
		return;
	}
	hilo_arena_set_flags(a, flags);
	size_t nb = 0, total = 0;
	for (size_t i = 0; nb < NBLOCKS && total < (size_t)14 << 20; i++) {
		size_t n = i == 3000 ? (size_t)40 << 20 : i == 5000 ? (size_t)5 << 20 : 1 + (i * 7919) % 4000;
		unsigned char *p = hilo_arena_alloc(a, n);
		CHECK(p != NULL);
		if (!p)
			break;
		if (!all_zero(p, n)) {
			CHECK(!"an arena allocation is zeroed");
			break;
		}
		memset(p, (int)(nb % 251) + 1, n);
		b[nb++] = (block){p, n};
		if (n < (size_t)1 << 20)
			total += n;
	}
	int intact = 1;
	for (size_t i = 0; i < nb && intact; i++)
		for (size_t j = 0; j < b[i].n; j++)
			if (b[i].p[j] != (unsigned char)(i % 251 + 1)) {
				intact = 0;
				break;
			}
	CHECK(intact);
	CHECK(hilo_arena_bytes(a) >= ((size_t)14 << 20) + ((size_t)45 << 20));
	/* strings go through the same bump pointer, 1-byte aligned */
	char *s = hilo_arena_strndup(a, "abc", 3);
	CHECK_STR(s, "abc");
	hilo_arena_destroy(a);
	free(b);
}

/* The pages just ahead of the bump pointer are faulted in, those 1 MiB
 * ahead are not; a big one-off block is resident whole before its first
 * touch. a has small pages (either way of prefaulting). */
static void check_prefault(hilo_arena *a)
{
	unsigned char *p = NULL;
	size_t total = 0;
	/* past the calloc'ed chunks (64 KiB .. 1 MiB) about 1 MiB into the
	 * first mapped one (4 MiB) */
	while (total < (size_t)3 << 20) {
		p = hilo_arena_alloc(a, 1000);
		CHECK(p != NULL);
		if (!p)
			return;
		total += 1000;
	}
	unsigned char *end = p + 1000;
	CHECK(resident(end + 16 * 1024));
	CHECK(!resident(end + ((size_t)1 << 20)));
	CHECK(!resident(end + ((size_t)2 << 20)));
	/* no allocation grows the resident part by more than it asks plus the window */
	unsigned char *q = hilo_arena_alloc(a, 200 * 1024);
	CHECK(q == end);
	CHECK(resident(q + 200 * 1024 + 16 * 1024));
	CHECK(!resident(q + ((size_t)1 << 20) + 200 * 1024));
	unsigned char *big = hilo_arena_alloc(a, (size_t)24 << 20);
	CHECK(big != NULL);
	if (big) {
		CHECK(resident(big));
		CHECK(resident(big + ((size_t)12 << 20)));
		CHECK(resident(big + ((size_t)24 << 20) - 1));
		CHECK(all_zero(big, (size_t)24 << 20));
	}
	unsigned char *r = hilo_arena_alloc(a, 16);
	CHECK(r != NULL && all_zero(r, 16));
}

int main(void)
{
	fill_and_check(0);
	fill_and_check(HILO_ARENA_SMALL_PAGES);
	fill_and_check(HILO_ARENA_SMALL_PAGES | HILO_ARENA_TEST_NO_POPULATE);

	unsigned modes[] = {HILO_ARENA_SMALL_PAGES, HILO_ARENA_SMALL_PAGES | HILO_ARENA_TEST_NO_POPULATE};
	for (size_t m = 0; m < sizeof modes / sizeof *modes; m++) {
		hilo_arena *a = hilo_arena_create();
		CHECK(a != NULL);
		if (!a)
			continue;
		hilo_arena_set_flags(a, modes[m]);
		check_prefault(a);
		/* a child arena, created after the flags were set, has them too */
		hilo_arena *c = hilo_arena_create_in(a);
		CHECK(c != NULL);
		if (c) {
			check_prefault(c);
			hilo_arena_destroy(c);
		}
		hilo_arena_destroy(a);
	}
	return CHECK_DONE();
}
