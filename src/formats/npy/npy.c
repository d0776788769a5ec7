/* NumPy .npy reading and writing (include/hilo/npy.h). The header is a
 * Python dict literal: {'descr': '<f4', 'fortran_order': False,
 * 'shape': (2, 3), }, padded with spaces and a newline so the data starts
 * on a 64-byte boundary. Only what NumPy itself writes is accepted:
 * little-endian or byte-order-free descrs, C order. */
#include "hilo/eval.h"
#include "hilo/npy.h"
#include "ir/literal.h"

#include <stdlib.h>
#include <string.h>

/* ml_dtypes names for the types NumPy lacks (accepted when reading). */
static const struct {
	hilo_ptype t;
	const char *ml;
} ml_names[] = {
	{HILO_T_BF16, "bfloat16"}, {HILO_T_F8E5M2, "float8_e5m2"}, {HILO_T_F8E4M3, "float8_e4m3"},
	{HILO_T_F8E4M3FN, "float8_e4m3fn"}, {HILO_T_F8E4M3B11FNUZ, "float8_e4m3b11fnuz"},
	{HILO_T_F8E3M4, "float8_e3m4"}, {HILO_T_F8E5M2FNUZ, "float8_e5m2fnuz"},
	{HILO_T_F8E4M3FNUZ, "float8_e4m3fnuz"}, {HILO_T_F8E8M0FNU, "float8_e8m0fnu"},
	{HILO_T_F4E2M1FN, "float4_e2m1fn"}, {HILO_T_F6E3M2FN, "float6_e3m2fn"},
	{HILO_T_F6E2M3FN, "float6_e2m3fn"}, {HILO_T_S4, "int4"}, {HILO_T_U4, "uint4"},
	{HILO_T_S2, "int2"}, {HILO_T_U2, "uint2"},
};

const char *hilo_npy_descr(hilo_ptype t)
{
	switch (t) {
	case HILO_T_PRED: return "|b1";
	case HILO_T_S1: case HILO_T_S2: case HILO_T_S4: case HILO_T_S8: return "|i1";
	case HILO_T_S16: return "<i2";
	case HILO_T_S32: return "<i4";
	case HILO_T_S64: return "<i8";
	case HILO_T_U1: case HILO_T_U2: case HILO_T_U4: case HILO_T_U8: return "|u1";
	case HILO_T_U16: return "<u2";
	case HILO_T_U32: return "<u4";
	case HILO_T_U64: return "<u8";
	case HILO_T_F16: return "<f2";
	case HILO_T_BF16: return "<u2";
	case HILO_T_F32: return "<f4";
	case HILO_T_F64: return "<f8";
	case HILO_T_C64: return "<c8";
	case HILO_T_C128: return "<c16";
	default:
		if (hilo_ptype_is_float(t))
			return "|u1"; /* f8/f6/f4: raw bits, one per byte */
		return NULL;
	}
}

/* Whether a file's descr can be read into elements of type t. */
static bool descr_ok(hilo_ptype t, const char *descr)
{
	const char *mine = hilo_npy_descr(t);
	if (!mine)
		return false;
	if (!strcmp(descr, mine))
		return true;
	/* '=' and '<' are the same on the little-endian hosts hilo targets;
	 * one-byte types may be spelled with any order mark */
	int w = hilo_ptype_bytes(t);
	if ((descr[0] == '<' || descr[0] == '=' || descr[0] == '|') && !strcmp(descr + 1, mine + 1))
		return true;
	/* a raw view of the same width */
	char raw[8];
	snprintf(raw, sizeof raw, "%c%c%d", w == 1 ? '|' : '<', 'u', w);
	if (!strcmp(descr, raw) || ((descr[0] == '<' || descr[0] == '|') && descr[1] == 'V' &&
	    atoi(descr + 2) == w))
		return true;
	if (w == 1 && !strcmp(descr, "<u1"))
		return true;
	for (size_t k = 0; k < sizeof ml_names / sizeof *ml_names; k++)
		if (ml_names[k].t == t && !strcmp(descr, ml_names[k].ml))
			return true;
	return false;
}

/* The quoted value after key in the dict text, or the raw token. */
static bool dict_value(const char *h, const char *key, char *out, size_t cap)
{
	char pat[32];
	snprintf(pat, sizeof pat, "'%s'", key);
	const char *p = strstr(h, pat);
	if (!p)
		return false;
	p += strlen(pat);
	while (*p == ' ')
		p++;
	if (*p++ != ':')
		return false;
	while (*p == ' ')
		p++;
	size_t n = 0;
	if (*p == '\'') {
		p++;
		while (*p && *p != '\'' && n + 1 < cap)
			out[n++] = *p++;
		if (*p != '\'')
			return false;
	} else if (*p == '(') {
		while (*p && *p != ')' && n + 1 < cap)
			out[n++] = *p++;
		if (*p != ')')
			return false;
		out[n++] = ')';
	} else {
		while (*p && *p != ',' && *p != '}' && *p != ' ' && n + 1 < cap)
			out[n++] = *p++;
	}
	out[n] = 0;
	return true;
}

hilo_literal *hilo_npy_read(hilo_module *m, const void *data, size_t len,
	const hilo_shape *want, const char *fname, hilo_diags *d)
{
	const unsigned char *b = data;
#define NPY_FAIL(...) do { hilo_diag_add(d, HILO_SEV_ERROR, fname, 0, 0, NULL, 0, __VA_ARGS__); return NULL; } while (0)
	if (want->type == HILO_T_TUPLE)
		NPY_FAIL("a .npy file holds one array; the parameter is a tuple %s",
			hilo_shape_str(m->arena, want));
	if (len < 10 || memcmp(b, "\x93NUMPY", 6) != 0)
		NPY_FAIL("not a .npy file (no \\x93NUMPY magic)");
	unsigned major = b[6];
	size_t hlen, hoff;
	if (major == 1) {
		hlen = (size_t)b[8] | (size_t)b[9] << 8;
		hoff = 10;
	} else if (major == 2 || major == 3) {
		if (len < 12)
			NPY_FAIL("truncated .npy header");
		hlen = (size_t)b[8] | (size_t)b[9] << 8 | (size_t)b[10] << 16 | (size_t)b[11] << 24;
		hoff = 12;
	} else {
		NPY_FAIL(".npy format version %u.%u is not supported", major, b[7]);
	}
	if (hlen > len - hoff || hlen > 65536)
		NPY_FAIL("truncated .npy header");
	char h[65537];
	memcpy(h, b + hoff, hlen);
	h[hlen] = 0;
	if (memchr(h, 0, hlen))
		NPY_FAIL("NUL byte in the .npy header");
	char descr[64], fortran[16], shape[1024];
	if (!dict_value(h, "descr", descr, sizeof descr) ||
	    !dict_value(h, "fortran_order", fortran, sizeof fortran) ||
	    !dict_value(h, "shape", shape, sizeof shape))
		NPY_FAIL("malformed .npy header: %.200s", h);
	if (strcmp(fortran, "False") != 0)
		NPY_FAIL("Fortran-order .npy files are not supported: save with np.ascontiguousarray");
	if (!descr_ok(want->type, descr))
		NPY_FAIL("the file holds '%s' elements, the parameter is %s (hilo writes '%s')",
			descr, hilo_shape_str(m->arena, want), hilo_npy_descr(want->type) ? hilo_npy_descr(want->type) : "?");
	/* shape tuple "(2, 3)" or "(4,)" or "()" */
	int64_t dims[128];
	int rank = 0;
	const char *p = shape + 1;
	while (*p && *p != ')') {
		while (*p == ' ' || *p == ',')
			p++;
		if (*p == ')')
			break;
		char *e;
		long long v = strtoll(p, &e, 10);
		if (e == p || v < 0 || rank == 128)
			NPY_FAIL("malformed .npy shape %.200s", shape);
		dims[rank++] = v;
		p = e;
	}
	bool same = rank == want->rank;
	for (int k = 0; same && k < rank; k++)
		same = dims[k] == want->dims[k];
	if (!same) {
		char got[512];
		size_t n = 0;
		n += (size_t)snprintf(got + n, sizeof got - n, "(");
		for (int k = 0; k < rank && n < sizeof got - 24; k++)
			n += (size_t)snprintf(got + n, sizeof got - n, "%s%lld", k ? ", " : "", (long long)dims[k]);
		snprintf(got + n, sizeof got - n, ")");
		NPY_FAIL("the array has shape %s, the parameter is %s", got, hilo_shape_str(m->arena, want));
	}
	hilo_literal *l = hilo_literal_create(m, want);
	if (!l)
		NPY_FAIL("the parameter %s is too large to hold", hilo_shape_str(m->arena, want));
	size_t off = hoff + hlen;
	if (len - off != l->nbytes)
		NPY_FAIL("the .npy data has %zu bytes, %s needs %zu", len - off,
			hilo_shape_str(m->arena, want), l->nbytes);
	if (l->nbytes)
		memcpy(l->data, b + off, l->nbytes);
	if (want->type == HILO_T_PRED)
		for (size_t k = 0; k < l->nbytes; k++)
			((unsigned char *)l->data)[k] = ((unsigned char *)l->data)[k] != 0;
	return l;
#undef NPY_FAIL
}

bool hilo_npy_write(hilo_buf *out, const hilo_literal *l)
{
	if (!l || l->shape->type == HILO_T_TUPLE || l->elided)
		return false;
	const char *descr = hilo_npy_descr(l->shape->type);
	if (!descr)
		return false;
	char h[4096];
	int n = snprintf(h, sizeof h, "{'descr': '%s', 'fortran_order': False, 'shape': (", descr);
	for (int k = 0; k < l->shape->rank && n < 3900; k++)
		n += snprintf(h + n, sizeof h - (size_t)n, "%lld%s", (long long)l->shape->dims[k],
			l->shape->rank == 1 ? "," : k + 1 < l->shape->rank ? ", " : "");
	n += snprintf(h + n, sizeof h - (size_t)n, "), }");
	/* pad with spaces so magic + length + header + '\n' is a multiple of 64 */
	size_t total = 10 + (size_t)n + 1;
	size_t pad = (64 - total % 64) % 64;
	hilo_buf_put(out, "\x93NUMPY\x01\x00", 8);
	size_t hl = (size_t)n + pad + 1;
	char lenb[2] = {(char)(hl & 0xff), (char)(hl >> 8)};
	hilo_buf_put(out, lenb, 2);
	hilo_buf_put(out, h, (size_t)n);
	for (size_t k = 0; k < pad; k++)
		hilo_buf_putc(out, ' ');
	hilo_buf_putc(out, '\n');
	if (l->splat) /* every element is the one stored */
		for (size_t k = 0, n = hilo_literal_count(l); k < n; k++)
			hilo_buf_put(out, l->data, l->nbytes);
	else if (l->nbytes)
		hilo_buf_put(out, l->data, l->nbytes);
	return true;
}
