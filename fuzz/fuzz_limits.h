/* fuzz_limits.h - inputs the fuzz targets leave out.
 *
 * A literal or constant is stored whole: a few bytes of text such as
 * "f32[961974200] 9" (one value filling the array) or "constant(9)" under
 * that shape make the reader allocate gigabytes, past libFuzzer's
 * -rss_limit_mb / -malloc_limit_mb, and the smoke run (fuzz/CMakeLists.txt,
 * unseeded) would fail at random on a known property rather than a bug.
 * Lazily stored splat literals would remove the cost; until then the
 * targets skip an input whose bracketed dimension lists ("[2,3]", "[?]"
 * and "<=" bounds included) declare more than FUZZ_MAX_ELEMENTS elements
 * in total. The check is lexical and over-approximates: a skipped input
 * that was not a shape only loses coverage, and the readers' own
 * element-count limits are exercised by tests/limits.
 */
#ifndef HILO_FUZZ_LIMITS_H
#define HILO_FUZZ_LIMITS_H

#include <stddef.h>
#include <stdint.h>

#define FUZZ_MAX_ELEMENTS ((uint64_t)1 << 24)

/* prod times one more dimension (0 counts as 1), saturating past the cap */
static inline uint64_t fuzz_fold_dim(uint64_t prod, uint64_t dim)
{
	return prod > FUZZ_MAX_ELEMENTS || dim > FUZZ_MAX_ELEMENTS ? FUZZ_MAX_ELEMENTS + 1
	                                                           : prod * (dim ? dim : 1);
}

/* Does the text declare more than FUZZ_MAX_ELEMENTS array elements? */
static inline int fuzz_declares_huge_shapes(const uint8_t *s, size_t n)
{
	uint64_t total = 0;
	for (size_t k = 0; k < n; k++) {
		if (s[k] != '[')
			continue;
		uint64_t prod = 1, dim = 0;
		int digits = 0;
		size_t j = k + 1;
		for (; j < n && s[j] != ']' && s[j] != '['; j++) {
			if (s[j] >= '0' && s[j] <= '9') {
				dim = dim > FUZZ_MAX_ELEMENTS ? dim : dim * 10 + (uint64_t)(s[j] - '0');
				digits = 1;
			} else if (s[j] == ',') {
				if (digits)
					prod = fuzz_fold_dim(prod, dim);
				dim = 0;
				digits = 0;
			}
		}
		if (digits)
			prod = fuzz_fold_dim(prod, dim);
		total += prod; /* at most 2^48: no overflow below the cap */
		if (total > FUZZ_MAX_ELEMENTS)
			return 1;
		k = j - 1; /* at the closing bracket (or a new one) next */
	}
	return 0;
}

#endif
