/* Shared pieces of the HloModuleProto reader and writer: the arena
 * allocator handed to protobuf-c, element-type numbers, the C escapes XLA
 * uses in quoted text, a wire-format checker that bounds nesting before
 * protobuf-c (which recurses without a limit) sees the bytes, and the
 * attribute and metadata key tables. */
#include "pb_internal.h"
#include "pb_wire.h"

#include <string.h>

static void *arena_alloc_cb(void *data, size_t size)
{
	return hilo_arena_alloc((hilo_arena *)data, size ? size : 1);
}

static void arena_free_cb(void *data, void *p)
{
	(void)data;
	(void)p;
}

void pb_arena_allocator(ProtobufCAllocator *pa, hilo_arena *a)
{
	pa->alloc = arena_alloc_cb;
	pa->free = arena_free_cb;
	pa->allocator_data = a;
}

/* ---- element types ---- */

/* One list of the pairs; both directions are switches built from it. */
#define PB_PTYPES(T) \
	T(HILO_T_PRED, 1) T(HILO_T_S1, 30) T(HILO_T_S2, 26) T(HILO_T_S4, 21) T(HILO_T_S8, 2) \
	T(HILO_T_S16, 3) T(HILO_T_S32, 4) T(HILO_T_S64, 5) T(HILO_T_U1, 31) T(HILO_T_U2, 27) \
	T(HILO_T_U4, 22) T(HILO_T_U8, 6) T(HILO_T_U16, 7) T(HILO_T_U32, 8) T(HILO_T_U64, 9) \
	T(HILO_T_F16, 10) T(HILO_T_F32, 11) T(HILO_T_BF16, 16) T(HILO_T_F64, 12) \
	T(HILO_T_F8E5M2, 19) T(HILO_T_F8E4M3, 28) T(HILO_T_F8E4M3FN, 20) \
	T(HILO_T_F8E4M3B11FNUZ, 23) T(HILO_T_F8E3M4, 29) T(HILO_T_F8E5M2FNUZ, 24) \
	T(HILO_T_F8E4M3FNUZ, 25) T(HILO_T_F4E2M1FN, 32) T(HILO_T_F8E8M0FNU, 33) \
	T(HILO_T_C64, 15) T(HILO_T_C128, 18) T(HILO_T_TUPLE, 13) T(HILO_T_OPAQUE, 14) \
	T(HILO_T_TOKEN, 17) T(HILO_T_F6E2M3FN, 1001) T(HILO_T_F6E3M2FN, 1002)

int pb_ptype_to_xla(hilo_ptype t)
{
	switch (t) {
#define T(h, x) case h: return x;
	PB_PTYPES(T)
#undef T
	default: return 0;
	}
}

hilo_ptype pb_ptype_from_xla(int v)
{
	switch (v) {
#define T(h, x) case x: return h;
	PB_PTYPES(T)
#undef T
	default: return HILO_T_INVALID;
	}
}

/* ---- escapes ---- */

bool pb_unescape(hilo_buf *out, const char *s, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		char c = s[i];
		if (c != '\\') {
			hilo_buf_putc(out, c);
			continue;
		}
		if (++i >= n)
			return false;
		c = s[i];
		switch (c) {
		case 'n': hilo_buf_putc(out, '\n'); break;
		case 'r': hilo_buf_putc(out, '\r'); break;
		case 't': hilo_buf_putc(out, '\t'); break;
		case '"': hilo_buf_putc(out, '"'); break;
		case '\'': hilo_buf_putc(out, '\''); break;
		case '\\': hilo_buf_putc(out, '\\'); break;
		case 'x': {
			unsigned v = 0;
			int k = 0;
			while (i + 1 < n && k < 2) {
				char h = s[i + 1];
				int d = h >= '0' && h <= '9' ? h - '0' : h >= 'a' && h <= 'f' ? h - 'a' + 10
				      : h >= 'A' && h <= 'F' ? h - 'A' + 10 : -1;
				if (d < 0)
					break;
				v = v * 16 + (unsigned)d;
				i++;
				k++;
			}
			if (!k)
				return false;
			hilo_buf_putc(out, (char)v);
			break;
		}
		default:
			if (c >= '0' && c <= '7') {
				unsigned v = (unsigned)(c - '0');
				for (int k = 0; k < 2 && i + 1 < n && s[i + 1] >= '0' && s[i + 1] <= '7'; k++)
					v = v * 8 + (unsigned)(s[++i] - '0');
				if (v > 255)
					return false;
				hilo_buf_putc(out, (char)v);
				break;
			}
			return false;
		}
	}
	return true;
}

/* How many bytes each byte takes escaped: 1 as it is, 2 a named escape
 * (\n \r \t \" \' \\), 4 an octal one (other controls and DEL). */
static const uint8_t esc_len[256] = {
	4, 4, 4, 4, 4, 4, 4, 4, 4, 2, 2, 4, 4, 2, 4, 4,
	4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4, 4,
	1, 1, 2, 1, 1, 1, 1, 2, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 2, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 4,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
	1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1, 1,
};

/* The length of s's leading run of bytes that need no escape: sixteen
 * bytes a step (GCC/Clang vector extensions, SSE2 on x86-64), then one at
 * a time. Metadata strings are long (op_name paths) and rarely escaped. */
typedef unsigned char esc_v16 __attribute__((vector_size(16)));

static size_t plain_run(const char *s, size_t n)
{
	size_t i = 0;
	for (; i + 16 <= n; i += 16) {
		esc_v16 x;
		memcpy(&x, s + i, 16);
		esc_v16 m = (esc_v16)((x < 0x20) | (x == '"') | (x == '\'') | (x == '\\') | (x == 0x7f));
		uint64_t w[2];
		memcpy(w, &m, 16);
		if (w[0] | w[1])
			break;
	}
	while (i < n && esc_len[(unsigned char)s[i]] == 1)
		i++;
	return i;
}

size_t pb_escaped_len(const char *s, size_t n)
{
	size_t i = plain_run(s, n), r = i;
	for (; i < n; i++)
		r += esc_len[(unsigned char)s[i]];
	return r;
}

char *pb_escape_to(char *q, const char *s, size_t n)
{
	size_t i = 0;
	while (i < n) {
		/* a run of bytes written as they are, in one copy */
		size_t j = i + plain_run(s + i, n - i);
		memcpy(q, s + i, j - i);
		q += j - i;
		if (j == n)
			break;
		unsigned char c = (unsigned char)s[j];
		*q++ = '\\';
		switch (c) {
		case '\n': *q++ = 'n'; break;
		case '\r': *q++ = 'r'; break;
		case '\t': *q++ = 't'; break;
		case '"': case '\'': case '\\': *q++ = (char)c; break;
		default:
			*q++ = (char)('0' + (c >> 6));
			*q++ = (char)('0' + ((c >> 3) & 7));
			*q++ = (char)('0' + (c & 7));
		}
		i = j + 1;
	}
	return q;
}

void pb_escape(hilo_buf *out, const char *s, size_t n)
{
	size_t k = pb_escaped_len(s, n);
	if (!k)
		return;
	hilo_buf_reserve(out, k);
	if (out->oom)
		return;
	out->len = (size_t)(pb_escape_to(out->data + out->len, s, n) - out->data);
	out->data[out->len] = 0;
}

/* ---- cold sub-messages, decoded directly ---- */

/* Room for one more element of a repeated member (count at qoff, array
 * at off), the array grown by doubling from 4 (its capacity follows from
 * the count, as pbr_grow_to's). */
static void *rep_slot(hilo_arena *a, char *m, const ProtobufCFieldDescriptor *fd, size_t es)
{
	size_t *n = (size_t *)(void *)(m + fd->quantifier_offset);
	char **arr = (char **)(void *)(m + fd->offset);
	size_t cap = *n ? 4 : 0;
	while (cap && cap < *n)
		cap *= 2;
	if (*n == cap) {
		if (*n > ((size_t)1 << 40) / es)
			return NULL;
		char *g = hilo_arena_grow(a, *arr, *n, cap ? 2 * cap : 4, es);
		if (!g)
			return NULL;
		*arr = g;
	}
	return *arr + es * (*n)++;
}

static bool fast_scalar(hilo_arena *a, char *m, const ProtobufCFieldDescriptor *fd, uint64_t v,
	size_t vlen)
{
	size_t es = fd->type == PROTOBUF_C_TYPE_INT64 || fd->type == PROTOBUF_C_TYPE_UINT64 ? 8 : 4;
	if (fd->type == PROTOBUF_C_TYPE_BOOL) {
		if (vlen > 9) /* bits past 64: protobuf-c looks at every byte */
			return false;
		es = sizeof(protobuf_c_boolean);
	}
	void *dst = fd->label == PROTOBUF_C_LABEL_REPEATED ? rep_slot(a, m, fd, es) : m + fd->offset;
	if (!dst)
		return false;
	if (es == 8) {
		memcpy(dst, &v, 8);
	} else if (fd->type == PROTOBUF_C_TYPE_BOOL) {
		protobuf_c_boolean b = v != 0;
		memcpy(dst, &b, sizeof b);
	} else {
		uint32_t x = (uint32_t)v; /* int32, uint32, enum: the low 32 bits */
		memcpy(dst, &x, 4);
	}
	return true;
}

/* A varint as pb_wire.h's reader reads it (at most ten bytes). */
static bool fast_varint(const uint8_t **pp, const uint8_t *end, uint64_t *v)
{
	pr_cur c = {*pp, end};
	if (!pr_varint(&c, v))
		return false;
	*pp = c.p;
	return true;
}

void *pb_fast_unpack(hilo_arena *a, const ProtobufCMessageDescriptor *desc, const uint8_t *p,
	size_t len, int max_depth)
{
	if (max_depth <= 0)
		return NULL;
	char *m = hilo_arena_alloc(a, desc->sizeof_message);
	if (!m)
		return NULL;
	desc->message_init((ProtobufCMessage *)(void *)m);
	const uint8_t *end = p + len;
	while (p < end) {
		uint64_t tag, v;
		if (!fast_varint(&p, end, &tag) || tag >> 3 == 0 || tag >> 3 > 536870911u)
			return NULL;
		const ProtobufCFieldDescriptor *fd =
			protobuf_c_message_descriptor_get_field(desc, (unsigned)(tag >> 3));
		if (!fd || (fd->flags & PROTOBUF_C_FIELD_FLAG_ONEOF) ||
		    (fd->label != PROTOBUF_C_LABEL_NONE && fd->label != PROTOBUF_C_LABEL_REPEATED))
			return NULL;
		bool rep = fd->label == PROTOBUF_C_LABEL_REPEATED;
		int wt = (int)(tag & 7);
		switch (fd->type) {
		case PROTOBUF_C_TYPE_INT32: case PROTOBUF_C_TYPE_INT64: case PROTOBUF_C_TYPE_UINT32:
		case PROTOBUF_C_TYPE_UINT64: case PROTOBUF_C_TYPE_BOOL: case PROTOBUF_C_TYPE_ENUM: {
			const uint8_t *at = p;
			if (wt == PB_VARINT) {
				if (!fast_varint(&p, end, &v) || !fast_scalar(a, m, fd, v, (size_t)(p - at)))
					return NULL;
				break;
			}
			if (wt != PB_LEN || !rep || !fast_varint(&p, end, &v) || v > (uint64_t)(end - p))
				return NULL;
			const uint8_t *pend = p + v;
			while (p < pend) {
				at = p;
				if (!fast_varint(&p, pend, &v) || !fast_scalar(a, m, fd, v, (size_t)(p - at)))
					return NULL;
			}
			break;
		}
		case PROTOBUF_C_TYPE_STRING: case PROTOBUF_C_TYPE_MESSAGE: {
			if (wt != PB_LEN || !fast_varint(&p, end, &v) || v > (uint64_t)(end - p))
				return NULL;
			const uint8_t *q = p;
			p += v;
			void *x;
			if (fd->type == PROTOBUF_C_TYPE_STRING) {
				char *str = hilo_arena_alloc(a, (size_t)v + 1);
				if (!str)
					return NULL;
				memcpy(str, q, (size_t)v);
				str[v] = 0;
				x = str;
			} else {
				if (!rep && *(void **)(void *)(m + fd->offset))
					return NULL;
				if (!(x = pb_fast_unpack(a, fd->descriptor, q, (size_t)v, max_depth - 1)))
					return NULL;
			}
			void **dst = rep ? rep_slot(a, m, fd, sizeof(void *)) : (void **)(void *)(m + fd->offset);
			if (!dst)
				return NULL;
			*dst = x;
			break;
		}
		default:
			return NULL;
		}
	}
	return m;
}

/* ---- wire format check ---- */

static bool read_varint(const uint8_t **pp, const uint8_t *end, uint64_t *v)
{
	const uint8_t *p = *pp;
	uint64_t r = 0;
	for (int shift = 0; shift < 64; shift += 7) {
		if (p >= end)
			return false;
		uint8_t b = *p++;
		r |= (uint64_t)(b & 0x7f) << shift;
		if (!(b & 0x80)) {
			*pp = p;
			*v = r;
			return true;
		}
	}
	return false;
}

const char *pb_check_wire(const uint8_t *p, size_t len,
	const ProtobufCMessageDescriptor *desc, int max_depth)
{
	if (max_depth <= 0)
		return "messages nested too deeply";
	const uint8_t *end = p + len;
	while (p < end) {
		uint64_t tag, v;
		if (!read_varint(&p, end, &tag))
			return "truncated field tag";
		uint64_t field = tag >> 3;
		if (field == 0 || field > 536870911u)
			return "invalid field number";
		switch (tag & 7) {
		case 0:
			if (!read_varint(&p, end, &v))
				return "truncated varint";
			break;
		case 1:
			if (end - p < 8)
				return "truncated 64-bit field";
			p += 8;
			break;
		case 5:
			if (end - p < 4)
				return "truncated 32-bit field";
			p += 4;
			break;
		case 2: {
			if (!read_varint(&p, end, &v))
				return "truncated length";
			if (v > (uint64_t)(end - p))
				return "field length runs past the end of the data";
			const ProtobufCFieldDescriptor *f =
				desc ? protobuf_c_message_descriptor_get_field(desc, (unsigned)field) : NULL;
			if (f && f->type == PROTOBUF_C_TYPE_MESSAGE) {
				const char *e = pb_check_wire(p, (size_t)v, f->descriptor, max_depth - 1);
				if (e)
					return e;
			}
			p += v;
			break;
		}
		default:
			return "unsupported wire type (groups or garbage)";
		}
	}
	return NULL;
}

/* ---- attribute table ---- */

/* Generated from the one attribute table (hilo/attrs.def): its proto
 * field column, by attribute id. */
static const pb_attr_def attr_defs[HILO_A_COUNT] = {
#define A(id, key, kind, field, rank, flags) {key, HILO_ATTR_##kind, PBF_##field},
#include "hilo/attrs.def"
#undef A
};

const pb_attr_def *pb_attr_def_of(hilo_attr_id id)
{
	return id < HILO_A_COUNT && attr_defs[id].field != PBF_NONE ? &attr_defs[id] : NULL;
}

const pb_attr_def *pb_attr_lookup(const char *key)
{
	return pb_attr_def_of(hilo_attr_lookup(key, strlen(key)));
}

/* ---- metadata ---- */

#define MD(key, kind) {key, sizeof key - 1, kind}
const pb_md_def pb_md_defs[] = {
	MD("op_type", PBM_STRING), MD("op_name", PBM_STRING), MD("source_file", PBM_STRING),
	MD("source_line", PBM_INT), MD("source_end_line", PBM_INT), MD("source_column", PBM_INT),
	MD("source_end_column", PBM_INT), MD("profile_type", PBM_INTS), MD("deduplicated_name", PBM_STRING),
	MD("scheduling_name", PBM_STRING), MD("stack_frame_id", PBM_INT),
	MD("size_of_generated_code_in_bytes", PBM_INT),
	MD("size_of_memory_working_set_in_bytes", PBM_INT),
};
#undef MD
const int pb_n_md_defs = (int)(sizeof pb_md_defs / sizeof *pb_md_defs);

static const char *md_string(const Xla__OpMetadata *md, int k)
{
	switch (k) {
	case 0: return md->op_type;
	case 1: return md->op_name;
	case 2: return md->source_file;
	case 8: return md->deduplicated_name;
	case 9: return md->scheduling_name;
	}
	return NULL;
}

static int64_t md_int(const Xla__OpMetadata *md, int k)
{
	switch (k) {
	case 3: return md->source_line;
	case 4: return md->source_end_line;
	case 5: return md->source_column;
	case 6: return md->source_end_column;
	case 10: return md->stack_frame_id;
	case 11: return md->size_of_generated_code_in_bytes;
	case 12: return md->size_of_memory_working_set_in_bytes;
	}
	return 0;
}

int pb_md_entries(hilo_arena *a, const Xla__OpMetadata *md, hilo_md_entry *out, int max)
{
	int n = 0;
	hilo_buf b;
	hilo_buf_init_in(&b, a);
	for (int k = 0; k < pb_n_md_defs && n < max; k++) {
		b.len = 0;
		if (pb_md_defs[k].kind == PBM_STRING) {
			const char *s = md_string(md, k);
			if (!s || !*s)
				continue;
			hilo_buf_putc(&b, '"');
			pb_escape(&b, s, strlen(s));
			hilo_buf_putc(&b, '"');
		} else if (pb_md_defs[k].kind == PBM_INTS) {
			if (!md->n_profile_type)
				continue;
			hilo_buf_putc(&b, '{');
			for (size_t j = 0; j < md->n_profile_type; j++) {
				if (j)
					hilo_buf_putc(&b, ',');
				hilo_buf_put_i64(&b, md->profile_type[j]);
			}
			hilo_buf_putc(&b, '}');
		} else {
			int64_t v = md_int(md, k);
			if (!v)
				continue;
			hilo_buf_put_i64(&b, v);
		}
		out[n].key = pb_md_defs[k].key;
		out[n].value = hilo_arena_strndup(a, b.data ? b.data : "", b.len);
		n++;
	}
	hilo_buf_free(&b);
	return n;
}

/* LiteralProto's field for the values of element type t, with the
 * value encoding: 'b' bytes, 'v' varints (es = element size), 'f' fixed. */
uint32_t pb_literal_field(hilo_ptype t, char *enc)
{
	*enc = 'b';
	switch (t) {
	case HILO_T_PRED: *enc = 'v'; return 2;
	case HILO_T_S1: return 30;
	case HILO_T_S2: return 26;
	case HILO_T_S4: return 21;
	case HILO_T_S8: return 15;
	case HILO_T_U1: return 31;
	case HILO_T_U2: return 27;
	case HILO_T_U4: return 22;
	case HILO_T_U8: return 3;
	case HILO_T_S16: return 17;
	case HILO_T_U16: return 16;
	case HILO_T_F16: return 11;
	case HILO_T_BF16: return 13;
	case HILO_T_F4E2M1FN: return 32;
	case HILO_T_F8E3M4: return 29;
	case HILO_T_F8E4M3B11FNUZ: return 23;
	case HILO_T_F8E4M3FN: return 20;
	case HILO_T_F8E4M3FNUZ: return 25;
	case HILO_T_F8E4M3: return 28;
	case HILO_T_F8E5M2FNUZ: return 24;
	case HILO_T_F8E5M2: return 19;
	case HILO_T_F8E8M0FNU: return 33;
	case HILO_T_F6E2M3FN: return 1001;
	case HILO_T_F6E3M2FN: return 1002;
	case HILO_T_S32: *enc = 'v'; return 4;
	case HILO_T_S64: *enc = 'v'; return 5;
	case HILO_T_U32: *enc = 'v'; return 6;
	case HILO_T_U64: *enc = 'v'; return 7;
	case HILO_T_F32: *enc = 'f'; return 8;
	case HILO_T_F64: *enc = 'f'; return 9;
	case HILO_T_C64: *enc = 'f'; return 12;
	case HILO_T_C128: *enc = 'f'; return 18;
	default: *enc = 0; return 0;
	}
}
