/* tagpool.c - the validator's tag arrays, kept across records and passes
 * (check_internal.h, "tag arrays"; docs/proof.md, "Tagged evaluation",
 * Cost). Tagged evaluation gives every element of every frontier leaf a
 * distinct tag that depends only on the leaf's ordinal in its record and
 * the element's index, so the arrays are written once per ordinal and
 * read in place by every later record's literals (the evaluator never
 * writes its operands). Storage only: what a tag means is tagged.c's.
 */
#include "check_internal.h"

#include <stdlib.h>

/* at most 2^25 elements (256 MiB) over leaf ordinals below 4096 */
#define TAGPOOL_MAX (1ull << 25)
enum { TAGPOOL_ORDS = 4096 };

void tagpool_fill(uint64_t *d, uint32_t ord, uint64_t from, uint64_t to)
{
	uint64_t hi = ((uint64_t)ord + 1) << TAG_IDX_BITS;
	for (uint64_t k = from; k < to; k++)
		d[k] = hi | k;
}

const uint64_t *tagpool_get(tagpool *t, uint32_t ord, uint64_t n)
{
	if (ord >= TAGPOOL_ORDS)
		return NULL;
	if (ord >= t->n) {
		uint32_t nn = t->n ? t->n : 16;
		while (nn <= ord)
			nn *= 2;
		uint64_t **na = realloc(t->arr, nn * sizeof *na);
		if (!na)
			return NULL;
		t->arr = na;
		uint64_t *nl = realloc(t->len, nn * sizeof *nl);
		if (!nl)
			return NULL;
		t->len = nl;
		for (uint32_t k = t->n; k < nn; k++) {
			t->arr[k] = NULL;
			t->len[k] = 0;
		}
		t->n = nn;
	}
	if (t->len[ord] >= n)
		return t->arr[ord];
	if (n - t->len[ord] > TAGPOOL_MAX - t->total)
		return NULL;
	uint64_t *na = realloc(t->arr[ord], (size_t)n * sizeof *na);
	if (!na)
		return NULL;
	tagpool_fill(na, ord, t->len[ord], n);
	t->arr[ord] = na;
	t->total += n - t->len[ord];
	t->len[ord] = n;
	return na;
}

void tagpool_free(tagpool *t)
{
	for (uint32_t k = 0; k < t->n; k++)
		free(t->arr[k]);
	free(t->arr);
	free(t->len);
	memset(t, 0, sizeof *t);
}
