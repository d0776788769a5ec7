/* Attribute texts that are lists or names, for the proto writer and
 * reader (declared in pb_attrs.h): a layout's tail (tiles, tail padding,
 * element size, memory space: LayoutProto 6, 16, 7, 8), a
 * collective-permute's slice_sizes lists (dynamic_slice_sizes), a dot's
 * algorithm= (PrecisionConfig.Algorithm). */
#include "pb_attrs.h"
#include "pb_cursor.h"

#include <stdio.h>

/* ---- a layout's tail: tiles, tail padding, element size, memory space ---- */

/* XLA's Tile::kCombineDimension, printed '*' */
#define COMBINE_DIM INT64_MIN

bool pbx_layout_tail_parse(const char *t, pbx_layout_tail *out)
{
	cur c = {t, t + strlen(t)};
	memset(out, 0, sizeof *out);
	size_t nd = 0;
	if (c.p < c.e && *c.p == 'T') {
		c.p++;
		while (c.p < c.e && *c.p == '(') {
			c.p++;
			if (out->ntiles == PBX_MAX_TILES)
				return false;
			size_t before = nd;
			for (;;) {
				int64_t v;
				if (c.p < c.e && *c.p == '*') {
					c.p++;
					v = COMBINE_DIM;
				} else if (!num(&c, &v)) {
					return false;
				}
				if (nd == PBX_MAX_TILE_DIMS)
					return false;
				out->tile_dims[nd++] = v;
				if (c.p < c.e && *c.p == ',') {
					c.p++;
					continue;
				}
				if (c.p >= c.e || *c.p != ')')
					return false;
				c.p++;
				break;
			}
			out->tile_lens[out->ntiles++] = nd - before;
		}
		if (!out->ntiles)
			return false;
	}
	/* then L(n), E(n), S(n) in XLA's print order, each at most once */
	static const char keys[] = "LES";
	int64_t *vals[3] = {&out->tail_padding, &out->element_bits, &out->memory_space};
	int k = 0;
	while (c.p < c.e) {
		while (k < 3 && *c.p != keys[k])
			k++;
		if (k == 3 || c.p + 1 >= c.e || c.p[1] != '(')
			return false;
		c.p += 2;
		if (!num(&c, vals[k]) || c.p >= c.e || *c.p != ')' || *vals[k] <= 0)
			return false;
		c.p++;
		k++;
	}
	return true;
}

void pbx_layout_tail_render(hilo_buf *b, const pbx_layout_tail *l)
{
	for (size_t k = 0, at = 0; k < l->ntiles; at += l->tile_lens[k++]) {
		if (!k)
			hilo_buf_putc(b, 'T');
		hilo_buf_putc(b, '(');
		for (size_t j = 0; j < l->tile_lens[k]; j++) {
			if (j)
				hilo_buf_putc(b, ',');
			if (l->tile_dims[at + j] == COMBINE_DIM)
				hilo_buf_putc(b, '*');
			else
				hilo_buf_put_i64(b, l->tile_dims[at + j]);
		}
		hilo_buf_putc(b, ')');
	}
	if (l->tail_padding && l->tail_padding != 1)
		hilo_buf_printf(b, "L(%lld)", (long long)l->tail_padding);
	if (l->element_bits)
		hilo_buf_printf(b, "E(%lld)", (long long)l->element_bits);
	if (l->memory_space)
		hilo_buf_printf(b, "S(%lld)", (long long)l->memory_space);
}

/* ---- a collective-permute's slice_sizes={{..},{..}} ---- */

bool pbx_slice_lists_parse(hilo_arena *a, const char *t, int64_t **v, size_t *n, size_t **chunks,
	size_t *nchunks)
{
	cur c = {t, t + strlen(t)};
	ivec x = {0}, ch = {0};
	if (!lit(&c, "{"))
		return false;
	if (!lit(&c, "}")) {
		for (;;) {
			size_t before = x.n;
			if (!int_list(&c, a, &x) || !push(a, &ch, (int64_t)(x.n - before)))
				return false;
			if (lit(&c, ","))
				continue;
			if (!lit(&c, "}"))
				return false;
			break;
		}
	}
	if (!at_end(&c))
		return false;
	size_t *cv = aalloc(a, ch.n * sizeof *cv);
	int64_t *vv = aalloc(a, x.n * sizeof *vv);
	if (!cv || !vv)
		return false;
	for (size_t k = 0; k < ch.n; k++)
		cv[k] = (size_t)ch.v[k];
	if (x.n)
		memcpy(vv, x.v, x.n * sizeof *vv);
	*v = vv;
	*n = x.n;
	*chunks = cv;
	*nchunks = ch.n;
	return true;
}

void pbx_slice_lists_render(hilo_buf *b, const int64_t *v, const size_t *chunks, size_t nchunks)
{
	hilo_buf_putc(b, '{');
	for (size_t k = 0, at = 0; k < nchunks; at += chunks[k++]) {
		if (k)
			hilo_buf_putc(b, ',');
		put_list(b, v + at, chunks[k], '{', '}', ",");
	}
	hilo_buf_putc(b, '}');
}

/* ---- enum names: the one table per proto enum both directions read ---- */

/* FftType (xla_data.proto), fft's fft_type= */
static const char *const fft_names[] = {"FFT", "IFFT", "RFFT", "IRFFT"};
/* RandomDistribution, rng's distribution= (RNG_INVALID is never written) */
static const char *const dist_names[] = {"rng_invalid", "rng_uniform", "rng_normal"};
/* RandomAlgorithm, rng-bit-generator's algorithm= */
static const char *const rng_alg_names[] = {"rng_default", "rng_three_fry", "rng_philox"};
/* PrecisionConfig.Algorithm, a dot's algorithm=: ALG_UNSET (0) prints
 * nothing; the rest as XLA's printer writes them */
static const char *const dot_alg_names[] = {
	NULL, "dot_any_f8_any_f8_f32", "dot_any_f8_any_f8_f32_fast_accum", "dot_f16_f16_f16",
	"dot_f16_f16_f32", "dot_bf16_bf16_bf16", "dot_bf16_bf16_f32", "dot_bf16_bf16_f32_x3",
	"dot_bf16_bf16_f32_x6", "dot_tf32_tf32_f32", "dot_tf32_tf32_f32_x3", "dot_f32_f32_f32",
	"dot_f64_f64_f64", "dot_bf16_bf16_f32_x9",
};
#define NAMES(t, first) {t, (int)(sizeof t / sizeof *t), first}
const pbx_names pbx_fft_types = NAMES(fft_names, 0);
const pbx_names pbx_distributions = NAMES(dist_names, 1);
const pbx_names pbx_rng_algorithms = NAMES(rng_alg_names, 0);
const pbx_names pbx_dot_algorithms = NAMES(dot_alg_names, 1);
#undef NAMES

int pbx_enum_value(const pbx_names *t, const char *name)
{
	for (int k = t->first; k < t->n; k++)
		if (!strcmp(name, t->names[k]))
			return k;
	return -1;
}

const char *pbx_enum_name(const pbx_names *t, int v)
{
	return v >= t->first && v < t->n ? t->names[v] : NULL;
}
