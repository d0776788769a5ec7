/* HloModuleProto writer: IR -> wire bytes, written straight into the
 * output buffer.
 *
 * Design (issue 19): the hot messages (HloModuleProto, HloComputationProto,
 * ProgramShapeProto, HloInstructionProto, ShapeProto, LayoutProto,
 * LiteralProto, OpMetadata, hilo's HiloAttr and HiloKeyValue) are encoded
 * by hand from the IR with the primitives of pb_wire.h: no intermediate
 * message structs, no size pass (nested lengths are patched in place), no
 * copies of literal data beyond the one into the output. Fields go out in
 * field-number order with proto3's zero-skipping, so the bytes are the
 * ones protobuf-c's packer wrote for the same messages (tests/proto
 * compares the corpus with the previous writer's output). The cold typed
 * attribute messages (window, convolution dimension numbers, dot, gather,
 * scatter, sharding, replica groups, precision, frontend attributes...) are
 * still built as protobuf-c structs by pb_write_attrs.c / pb_attrs.c in a
 * scratch arena and packed one sub-message at a time. Fields the reader
 * kept unmodelled (hilo_module.proto_extra) are appended to their message
 * unchanged.
 *
 * Ids: instructions keep their IR ids, computations are numbered by
 * position; operand, control-predecessor and called-computation ids all
 * refer to those. Attributes with a typed XLA field go there; the rest,
 * and text details XLA does not record, go to hilo's extension fields
 * (see proto/hlo.proto). On failure the output buffer is left as it was.
 */
#include "pb_write.h"
#include "pb_wire.h"
#include "ir/literal.h"
#include "hilo/hlo_text.h"

#include <stdlib.h>
#include <string.h>

/* A protobuf-c sub-message (the cold typed attribute messages). */
static void put_pc(writer *W, uint32_t field, const void *msg)
{
	if (!msg)
		return;
	hilo_buf *b = W->out;
	size_t n = protobuf_c_message_get_packed_size(msg);
	pw_tag(b, field, PB_LEN);
	pw_varint(b, n);
	uint8_t *q = pw_need(b, n);
	if (q)
		b->len += protobuf_c_message_pack(msg, q);
}

static void put_unknown(hilo_buf *b, const pb_unknown *u)
{
	for (size_t k = 0; k < u->n; k++) {
		const ProtobufCMessageUnknownField *f = &u->f[k];
		pw_varint(b, ((uint64_t)f->tag << 3) | (uint64_t)f->wire_type);
		pw_raw(b, f->data, f->len);
	}
}

/* ---- shapes ---- */

/* A ShapeProto. literal: the shape of a LiteralProto or of a constant,
 * which XLA's reader refuses without a layout ("LiteralProto has no
 * layout", Literal::CreateFromProto; then the constant's shape must equal
 * its literal's, layouts included, hlo_instruction.cc): an array shape the
 * text gave none is written with the default (major-to-minor) one, as
 * XLA's own writer does, and field 1001 says it was implied, so hilo's
 * reader drops it again (the text prints back as it was). */
/* A layout's tail (the text after ':'): the tiles, tail padding,
 * element size and memory space in XLA's LayoutProto fields (6, 16, 7,
 * 8); hilo's verbatim copy (1000) too when they do not give the text
 * back, or alone for what they cannot hold. A literal's shape has no
 * element size (XLA's literals are unpacked: its reader refuses one). */
static void put_layout_tail(writer *W, const char *tail, bool literal)
{
	if (!tail)
		return;
	hilo_buf *b = W->out;
	pbx_layout_tail lt;
	bool typed = pbx_layout_tail_parse(tail, &lt), exact = false;
	if (typed && literal)
		lt.element_bits = 0;
	if (typed) {
		for (size_t k = 0, at = 0; k < lt.ntiles; at += lt.tile_lens[k++]) {
			size_t t = pw_open(b, 6);
			pw_packed_i64(b, 1, lt.tile_dims + at, lt.tile_lens[k]);
			pw_close(b, t);
		}
		pw_int(b, 7, lt.element_bits);
		pw_int(b, 8, lt.memory_space);
		pw_int(b, 16, lt.tail_padding);
		W->tmp.len = 0;
		pbx_layout_tail_render(&W->tmp, &lt);
		exact = !W->tmp.oom && W->tmp.len == strlen(tail) && !memcmp(W->tmp.data, tail, W->tmp.len);
	}
	if (!exact)
		pw_str(b, 1000, tail);
}

static void put_shape_as(writer *W, uint32_t field, const hilo_shape *s, int depth, bool literal)
{
	hilo_buf *b = W->out;
	size_t at = pw_open(b, field);
	bool implied = false;
	pw_int(b, 2, pb_ptype_to_xla(s->type));
	if (s->type == HILO_T_TUPLE) {
		if (depth > 200) {
			W->oom = true;
			return;
		}
		for (int k = 0; k < s->ntuple; k++)
			put_shape_as(W, 4, s->elems[k], depth + 1, literal);
	} else {
		if (s->rank) {
			size_t sz = 0;
			for (int k = 0; k < s->rank; k++) {
				bool unb = s->dyn && s->dyn[k] == HILO_DIM_UNBOUNDED;
				sz += unb ? 10 : pw_varint_size((uint64_t)s->dims[k]);
			}
			pw_tag(b, 3, PB_LEN);
			pw_varint(b, sz);
			uint8_t *q = pw_need(b, sz);
			if (q) {
				for (int k = 0; k < s->rank; k++) {
					bool unb = s->dyn && s->dyn[k] == HILO_DIM_UNBOUNDED;
					q = pw_varint_at(q, unb ? (uint64_t)INT64_MIN : (uint64_t)s->dims[k]);
				}
				b->len += sz;
			}
		}
		if (s->layout) {
			size_t l = pw_open(b, 5);
			pw_packed_i64(b, 1, s->layout->minor_to_major, (size_t)s->layout->n);
			put_layout_tail(W, s->layout->tail, literal);
			pw_close(b, l);
		} else if (!s->rank && s->type != HILO_T_TOKEN && s->type != HILO_T_OPAQUE) {
			/* a scalar has its (empty) layout in XLA's protos, as XLA's
			 * parser gives it one: XLA's reader requires one in a
			 * LiteralProto and that a constant's shape equal its
			 * literal's, layout included; it prints as nothing. Not
			 * a token or opaque: XLA refuses their layouts ("TOKEN
			 * should not have a layout") */
			pw_close(b, pw_open(b, 5));
		} else if (literal && s->rank && s->type != HILO_T_TOKEN && s->type != HILO_T_OPAQUE) {
			int64_t m2m[HILO_MAX_RANK];
			for (int k = 0; k < s->rank; k++)
				m2m[k] = s->rank - 1 - k;
			size_t l = pw_open(b, 5);
			pw_packed_i64(b, 1, m2m, (size_t)s->rank);
			pw_close(b, l);
			implied = true;
		}
		if (s->dyn && s->rank) {
			pw_tag(b, 6, PB_LEN);
			pw_varint(b, (uint64_t)s->rank);
			uint8_t *q = pw_need(b, (size_t)s->rank);
			if (q) {
				for (int k = 0; k < s->rank; k++)
					q[k] = s->dyn[k] != HILO_DIM_STATIC;
				b->len += (size_t)s->rank;
			}
		}
	}
	pw_int(b, 1000, s->buffer);
	pw_int(b, 1001, implied);
	pw_close(b, at);
}

void pbw_put_shape(writer *W, uint32_t field, const hilo_shape *s, int depth)
{
	put_shape_as(W, field, s, depth, false);
}

/* ---- literals ---- */

/* LiteralProto field of the byte-per-value and 16-bit types (0: another
 * encoding). */
static uint32_t literal_bytes_field(hilo_ptype t)
{
	char enc;
	uint32_t f = pb_literal_field(t, &enc);
	return enc == 'b' ? f : 0;
}

static void put_literal(writer *W, uint32_t field, const hilo_literal *l, int depth)
{
	hilo_buf *b = W->out;
	size_t at = pw_open(b, field);
	put_shape_as(W, 1, l->shape, 0, true);
	hilo_ptype t = l->shape->type;
	size_t es = (size_t)hilo_ptype_bytes(t);
	size_t n = es ? l->nbytes / es : 0;
	uint32_t bf;
	/* XLA's LiteralProto holds the values in the order of the literal's
	 * layout (its minor_to_major), the IR's are row-major */
	const void *data = l->data;
	if (l->splat && !l->elided && t != HILO_T_TUPLE && es && l->data) {
		/* a LiteralProto holds every element (XLA's reader refuses fewer):
		 * the one stored element, repeated (by doubling); no reordering */
		n = hilo_literal_count(l);
		void *p = n <= SIZE_MAX / es ? walloc(W, n * es) : NULL;
		if (!p) {
			W->oom = true;
			n = 0;
		} else {
			size_t all = n * es, done = es;
			memcpy(p, l->data, es);
			while (done < all) {
				size_t c = done < all - done ? done : all - done;
				memcpy((char *)p + done, p, c);
				done += c;
			}
			data = p;
		}
	} else if (!l->elided && t != HILO_T_TUPLE && n && hilo_shape_layout_reorders(l->shape) &&
	    (int64_t)n == hilo_shape_elements(l->shape)) {
		void *p = walloc(W, l->nbytes); /* out of memory: W->oom fails the write */
		if (p && hilo_layout_permute(l->shape, l->data, p, es, true))
			data = p;
	}
	if (l->elided && t != HILO_T_TUPLE && t != HILO_T_TOKEN && t != HILO_T_OPAQUE) {
		/* `{...}`: XLA's reader refuses a LiteralProto without its
		 * elements, and XLA's own parser fills an elided literal with
		 * arbitrary values; hilo writes zeros (every encoding's zero is
		 * all-zero bytes: one per packed varint or pred, es per fixed or
		 * byte-string element) and flag 1003, so it reads back elided */
		int64_t count = hilo_shape_elements(l->shape);
		char enc;
		uint32_t vf = pb_literal_field(t, &enc);
		size_t per = enc == 'v' ? 1 : es;
		if (vf && count > 0 && per && (uint64_t)count <= (SIZE_MAX >> 1) / per) {
			size_t len = (size_t)count * per;
			pw_tag(b, vf, PB_LEN);
			pw_varint(b, len);
			uint8_t *q = pw_need(b, len);
			if (q) {
				memset(q, 0, len);
				b->len += len;
			}
		}
	} else if (l->elided) {
		/* flags only */
	} else if (t == HILO_T_TUPLE) {
		if (depth > 200) {
			W->oom = true;
			return;
		}
		for (int k = 0; k < l->ntuple; k++)
			put_literal(W, 10, l->elems[k], depth + 1);
	} else if ((bf = literal_bytes_field(t))) {
		pw_bytes(b, bf, data, n * es);
	} else if (t == HILO_T_PRED && n) {
		pw_tag(b, 2, PB_LEN);
		pw_varint(b, n);
		uint8_t *q = pw_need(b, n);
		if (q) {
			for (size_t k = 0; k < n; k++)
				q[k] = ((const uint8_t *)data)[k] != 0;
			b->len += n;
		}
	} else if ((t == HILO_T_F32 || t == HILO_T_F64 || t == HILO_T_C64 || t == HILO_T_C128) && n) {
		/* packed fixed32/fixed64: the IR's little-endian bytes as they are */
		pw_tag(b, t == HILO_T_F32 ? 8 : t == HILO_T_F64 ? 9 : t == HILO_T_C64 ? 12 : 18, PB_LEN);
		pw_varint(b, n * es);
		pw_raw(b, data, n * es);
	} else if ((t == HILO_T_S32 || t == HILO_T_U32 || t == HILO_T_S64 || t == HILO_T_U64) && n) {
		/* packed varints: s32 sign-extended, u32 zero-extended */
		size_t sz = 0;
		for (int pass = 0; pass < 2; pass++) {
			uint8_t *q = NULL;
			if (pass) {
				pw_tag(b, t == HILO_T_S32 ? 4 : t == HILO_T_S64 ? 5 : t == HILO_T_U32 ? 6 : 7, PB_LEN);
				pw_varint(b, sz);
				if (!(q = pw_need(b, sz)))
					break;
			}
			for (size_t k = 0; k < n; k++) {
				uint64_t v;
				if (t == HILO_T_S32) {
					int32_t x;
					memcpy(&x, (const char *)data + 4 * k, 4);
					v = (uint64_t)(int64_t)x;
				} else if (t == HILO_T_U32) {
					uint32_t x;
					memcpy(&x, (const char *)data + 4 * k, 4);
					v = x;
				} else {
					memcpy(&v, (const char *)data + 8 * k, 8);
				}
				if (pass)
					q = pw_varint_at(q, v);
				else
					sz += pw_varint_size(v);
			}
			if (pass)
				b->len += sz;
		}
	}
	pw_int(b, 1003, l->elided);
	pw_int(b, 1004, l->pred_as_int);
	pw_int(b, 1005, l->splat);
	pw_int(b, 1006, l->scalar_text);
	pw_close(b, at);
}

/* ---- metadata ---- */

static bool parse_i64(const char *s, int64_t *out)
{
	if (!*s)
		return false;
	char *e;
	long long v = strtoll(s, &e, 10);
	if (*e)
		return false;
	*out = v;
	return true;
}

/* Does escaping raw[0..n) give exactly text[0..tn)? */
static bool escapes_to(const char *raw, size_t n, const char *text, size_t tn)
{
	size_t j = 0;
	for (size_t k = 0; k < n; k++) {
		unsigned char c = (unsigned char)raw[k];
		char e[5];
		size_t en = 2;
		e[0] = '\\';
		switch (c) {
		case '\n': e[1] = 'n'; break;
		case '\r': e[1] = 'r'; break;
		case '\t': e[1] = 't'; break;
		case '"': e[1] = '"'; break;
		case '\'': e[1] = '\''; break;
		case '\\': e[1] = '\\'; break;
		default:
			if (c < 0x20 || c == 0x7f) {
				e[1] = (char)('0' + (c >> 6));
				e[2] = (char)('0' + ((c >> 3) & 7));
				e[3] = (char)('0' + (c & 7));
				en = 4;
			} else {
				e[0] = (char)c;
				en = 1;
			}
		}
		if (tn - j < en)
			return false;
		for (size_t q = 0; q < en; q++)
			if (text[j + q] != e[q])
				return false;
		j += en;
	}
	return j == tn;
}

/* Metadata entries go to OpMetadata's typed fields when the reader's
 * rendering of those fields (pb_md_entries: XLA's order, quoted escaped
 * strings, decimal integers, empty and zero values left out) gives the
 * entries back exactly; otherwise they also travel verbatim in
 * hilo_entries (the typed fields then hold what was read before the
 * first entry they could not take, as before). */
static void put_metadata(writer *W, const hilo_metadata *md)
{
	enum { ND = 13, MAX_PT = 16 };
	bool set[ND] = {0};
	size_t off[ND], len[ND];
	const char *direct[ND]; /* the string's bytes in the entry, or NULL: at off in tmp */
	int64_t iv[ND];
	int64_t pt[MAX_PT]; /* profile_type={..} */
	size_t npt = 0;
	bool exact = true; /* every entry taken by a typed field */
	bool same = true;  /* and rendering them back gives the entries */
	int last = -1;
	W->tmp.len = 0;
	/* an entry no typed field takes (a value of another form) sends the whole text to hilo's entries as well, and
	 * the typed fields of the others still go to XLA */
	for (int k = 0; k < md->n; k++) {
		const char *key = md->e[k].key, *v = md->e[k].value;
		size_t kn = strlen(key);
		int def = -1;
		for (int j = 0; j < pb_n_md_defs && def < 0; j++)
			if (pb_md_defs[j].len == kn && !memcmp(pb_md_defs[j].key, key, kn))
				def = j;
		if (def < 0) {
			exact = false;
			continue;
		}
		if (def <= last)
			same = false; /* out of XLA's order or twice */
		last = def;
		if (pb_md_defs[def].kind == PBM_STRING) {
			size_t vn = strlen(v);
			if (vn < 2 || v[0] != '"' || v[vn - 1] != '"') {
				exact = false;
				continue;
			}
			/* fast path: nothing escaped or to escape, the bytes are the text */
			bool plain = vn > 2;
			for (size_t j = 1; j + 1 < vn && plain; j++) {
				unsigned char c = (unsigned char)v[j];
				plain = c >= 0x20 && c != 0x7f && c != '\\' && c != '"' && c != '\'';
			}
			if (plain) {
				set[def] = true;
				direct[def] = v + 1;
				len[def] = vn - 2;
				continue;
			}
			size_t o = W->tmp.len;
			if (!pb_unescape(&W->tmp, v + 1, vn - 2)) {
				W->tmp.len = o;
				exact = false;
				continue;
			}
			size_t rn = W->tmp.len - o;
			const char *raw = W->tmp.data ? W->tmp.data + o : "";
			size_t cn = strnlen(raw, rn); /* a C string: up to the first NUL */
			if (!cn || cn != rn || !escapes_to(raw, rn, v + 1, vn - 2))
				same = false;
			set[def] = true;
			direct[def] = NULL;
			off[def] = o;
			len[def] = cn;
		} else if (pb_md_defs[def].kind == PBM_INTS) {
			/* {1,2}: ProfileType numbers, exactly as XLA prints them */
			const char *q = v;
			char tmp[24];
			bool ok = *q++ == '{';
			npt = 0;
			while (ok && *q != '}' && npt < MAX_PT) {
				char *e;
				long long x = strtoll(q, &e, 10);
				snprintf(tmp, sizeof tmp, "%lld", x);
				ok = e != q && x == (int32_t)x && x >= 0 && !strncmp(q, tmp, (size_t)(e - q)) &&
				     (size_t)(e - q) == strlen(tmp);
				pt[npt++] = x;
				q = e;
				if (ok && *q == ',' && q[1] != '}')
					q++;
				else
					ok = ok && *q == '}';
			}
			if (!ok || *q != '}' || q[1] || !npt) {
				exact = false;
				npt = 0;
				continue;
			}
			set[def] = true;
		} else {
			int64_t x;
			if (!parse_i64(v, &x)) {
				exact = false;
				continue;
			}
			bool i32 = def <= 6 || def == 10;
			if (i32 && x != (int32_t)x) {
				exact = false;
				x = (int32_t)x;
			}
			char tmp[24];
			snprintf(tmp, sizeof tmp, "%lld", (long long)x);
			if (!x || strcmp(tmp, v))
				same = false;
			set[def] = true;
			iv[def] = x;
		}
	}
	exact = exact && same;
	if (W->tmp.oom)
		W->oom = true;
	hilo_buf *b = W->out;
	size_t at = pw_open(b, 7);
	/* field numbers of pb_md_defs, in number order */
	static const struct { uint8_t def, field; } order[ND] = {
		{0, 1}, {1, 2}, {2, 3}, {3, 4}, {7, 5}, {11, 8}, {12, 9}, {8, 12}, {10, 15}, {9, 16},
		{4, 17}, {5, 18}, {6, 19},
	};
	for (int k = 0; k < ND; k++) {
		int def = order[k].def;
		if (!set[def])
			continue;
		if (pb_md_defs[def].kind == PBM_INTS)
			pw_packed_i64(b, order[k].field, pt, npt);
		else if (pb_md_defs[def].kind == PBM_STRING)
			pw_bytes(b, order[k].field, direct[def] ? direct[def] : W->tmp.data + off[def], len[def]);
		else
			pw_int(b, order[k].field, iv[def]);
	}
	if (!exact) {
		for (int k = 0; k < md->n; k++) {
			size_t e = pw_open(b, 1000);
			pw_str(b, 1, md->e[k].key);
			pw_str(b, 2, md->e[k].value);
			pw_close(b, e);
		}
	}
	pw_close(b, at);
}

/* An attribute without a typed field (or whose text the typed field
 * cannot reproduce): hilo's HiloAttr, field 1000. */
static void put_hilo_attr(hilo_buf *b, const hilo_attr *a)
{
	size_t at = pw_open(b, 1000);
	pw_str(b, 1, a->key);
	pw_int(b, 2, (int32_t)a->kind);
	switch (a->kind) {
	case HILO_ATTR_RAW: case HILO_ATTR_STRING: case HILO_ATTR_ENUM:
		pw_str(b, 3, a->v.text);
		break;
	case HILO_ATTR_INTS:
		pw_packed_i64(b, 4, a->v.ints, (size_t)a->n);
		break;
	case HILO_ATTR_SLICE: case HILO_ATTR_PADDING:
		pw_packed_i64(b, 4, a->v.ints, 3 * (size_t)a->n);
		break;
	default:
		pw_int(b, 5, a->v.i);
		break;
	}
	pw_int(b, 6, (int32_t)a->n);
	pw_close(b, at);
}

/* ---- instructions ---- */

static int64_t comp_id(writer *W, const hilo_comp *c)
{
	return (int64_t)(uintptr_t)hilo_ptrmap_get(&W->comp_ids, c) - 1; /* ids from 1 */
}

/* An instruction's id in the output: its IR id, or for a kept input the
 * input's id (new instructions: above every id read). */
int64_t pbw_instr_id(const writer *W, const hilo_instr *i)
{
	const pb_keep *K = W->K;
	if (!K)
		return i->id;
	if (i->id >= K->ibase && i->id < K->iend)
		return K->iid[i->id - K->ibase];
	return K->max_iid + 1 + (int64_t)i->id;
}

static void put_ids(writer *W, uint32_t field, hilo_instr *const *v, uint32_t n)
{
	hilo_buf *b = W->out;
	if (!n)
		return;
	size_t sz = 0;
	for (uint32_t k = 0; k < n; k++)
		sz += pw_varint_size((uint64_t)pbw_instr_id(W, v[k]));
	pw_tag(b, field, PB_LEN);
	pw_varint(b, sz);
	uint8_t *q = pw_need(b, sz);
	if (!q)
		return;
	for (uint32_t k = 0; k < n; k++)
		q = pw_varint_at(q, (uint64_t)pbw_instr_id(W, v[k]));
	b->len += sz;
}

/* Bytes of the kept input. */
static void kept_raw(writer *W, pb_span s)
{
	pw_raw(W->out, W->K->buf + s.off, s.len);
}

/* A message just written at out[t0..) whose kept twin has fingerprint
 * *fp and input bytes raw: when they agree, puts the input's bytes in its
 * place and returns true. Right after reading (fingerprinting) it records
 * the fingerprint and uses the input's bytes too, so that a computation's
 * fingerprint covers its instructions as an unchanged one is written. */
static bool use_kept(writer *W, size_t t0, uint64_t *fp, pb_span raw)
{
	hilo_buf *b = W->out;
	if (b->oom || !raw.len)
		return false;
	uint64_t h = pb_hash64(b->data + t0, b->len - t0);
	if (W->K->fingerprinting)
		*fp = h;
	else if (h != *fp)
		return false;
	b->len = t0;
	pw_raw(b, W->K->buf + raw.off, raw.len);
	return true;
}

/* Typed attribute fields below the id (field 35) and above the
 * called-computation ids (38), in field-number order. */
static void put_typed_lo(writer *W, const Xla__HloInstructionProto *p)
{
	hilo_buf *b = W->out;
	pw_str(b, 11, p->fusion_kind);
	pw_int(b, 13, p->tuple_index);
	pw_packed_i64(b, 14, p->dimensions, p->n_dimensions);
	put_pc(W, 15, p->window);
	put_pc(W, 16, p->convolution_dimension_numbers);
	for (size_t k = 0; k < p->n_slice_dimensions; k++)
		put_pc(W, 17, p->slice_dimensions[k]);
	pw_int(b, 18, p->exponent_bits);
	pw_int(b, 19, p->mantissa_bits);
	pw_packed_i64(b, 20, p->dynamic_slice_sizes, p->n_dynamic_slice_sizes);
	put_pc(W, 21, p->padding_config);
	pw_bytes(b, 22, p->outfeed_config.data, p->outfeed_config.len);
	pw_int(b, 23, p->distribution);
	uint32_t eps;
	memcpy(&eps, &p->epsilon, 4);
	if (eps) {
		pw_tag(b, 24, PB_I32);
		pw_raw(b, &eps, 4);
	}
	pw_int(b, 25, p->feature_index);
	pw_int(b, 26, p->channel_id);
	pw_bytes(b, 27, p->infeed_config.data, p->infeed_config.len);
	pw_str(b, 28, p->custom_call_target);
	put_pc(W, 30, p->dot_dimension_numbers);
	pw_int(b, 31, p->fft_type);
	pw_packed_i64(b, 32, p->fft_length, p->n_fft_length);
	put_pc(W, 33, p->gather_dimension_numbers);
	pw_packed_i64(b, 34, p->gather_slice_sizes, p->n_gather_slice_sizes);
}

static void put_typed_hi(writer *W, const inst_ctx *X)
{
	const Xla__HloInstructionProto *p = X->p;
	hilo_buf *b = W->out;
	put_pc(W, 40, p->sharding);
	pw_bytes(b, 43, p->backend_config.data, p->backend_config.len);
	pw_int(b, 47, p->is_host_transfer);
	put_pc(W, 48, p->scatter_dimension_numbers);
	for (size_t k = 0; k < p->n_replica_groups; k++)
		put_pc(W, 49, p->replica_groups[k]);
	pw_int(b, 50, p->feature_group_count);
	put_pc(W, 51, p->precision_config);
	for (size_t k = 0; k < p->n_source_target_pairs; k++)
		put_pc(W, 52, p->source_target_pairs[k]);
	put_pc(W, 54, p->domain_entry_sharding);
	put_pc(W, 55, p->domain_exit_sharding);
	pw_int(b, 56, p->constrain_layout);
	for (size_t k = 0; k < X->nopshapes; k++)
		pbw_put_shape(W, 57, X->opshapes[k], 0);
	pw_int(b, 58, p->batch_group_count);
	put_pc(W, 59, p->triangular_solve_options);
	pw_int(b, 60, p->is_stable);
	put_pc(W, 61, p->parameter_replication);
	put_pc(W, 62, p->cholesky_options);
	pw_str(b, 63, p->comparison_direction);
	pw_int(b, 65, p->custom_call_has_side_effect);
	pw_int(b, 66, p->delta);
	pw_int(b, 67, p->indices_are_sorted);
	put_pc(W, 68, p->frontend_attributes);
	pw_int(b, 69, p->unique_indices);
	pw_int(b, 70, p->rng_algorithm);
	pw_int(b, 71, p->use_global_device_ids);
	pw_str(b, 72, p->comparison_type);
	for (size_t k = 0; k < p->n_output_operand_aliasing; k++)
		put_pc(W, 74, p->output_operand_aliasing[k]);
	pw_int(b, 75, p->padding_type);
	pw_int(b, 76, p->custom_call_schedule);
	pw_int(b, 77, p->custom_call_api_version);
	pw_str(b, 79, p->async_execution_thread);
	if (p->optional_cross_program_prefetch_index_case ==
	    XLA__HLO_INSTRUCTION_PROTO__OPTIONAL_CROSS_PROGRAM_PREFETCH_INDEX_CROSS_PROGRAM_PREFETCH_INDEX) {
		pw_tag(b, 80, PB_VARINT);
		pw_varint(b, (uint64_t)(int64_t)p->cross_program_prefetch_index);
	}
	pw_int(b, 81, p->k);
	put_pc(W, 82, p->statistics_viz);
	pw_int(b, 85, p->largest);
	put_pc(W, 87, p->collective_device_list);
	put_pc(W, 88, p->original_value);
	pw_int(b, 89, p->is_composite);
	put_pc(W, 90, p->ragged_dot_dimension_numbers);
	put_pc(W, 91, p->result_accuracy);
	put_pc(W, 92, p->iota_collective_device_list);
	put_pc(W, 93, p->mesh_axes_replica_group_list);
	pw_int(b, 94, p->is_reverse);
	pw_int(b, 95, p->num_carries);
	pw_int(b, 96, p->is_associative);
	pw_int(b, 100, p->has_dynamic_root);
}

void pbw_put_instr(writer *W, const hilo_instr *i)
{
	hilo_buf *b = W->out;
	/* typed attribute fields first, into a scratch message */
	Xla__HloInstructionProto p;
	bool typed = false; /* p initialised and holding some typed field */
	inst_ctx X;
	memset(&X, 0, sizeof X);
	X.p = &p;
	if (i->nattrs > W->cap_ext) {
		W->cap_ext = 2 * (size_t)i->nattrs;
		if (!(W->ext = walloc(W, W->cap_ext)))
			return;
	}
	for (uint32_t k = 0; k < i->nattrs; k++) {
		const hilo_attr *a = &i->attrs[k];
		W->ext[k] = 0;
		if (a->kind == HILO_ATTR_METADATA || a->kind == HILO_ATTR_CONTROL)
			continue;
		if (!typed && pb_attr_def_of((hilo_attr_id)a->id)) {
			xla__hlo_instruction_proto__init(&p);
			p.opcode = (char *)hilo_opcode_name(i->op);
			typed = true;
		}
		if (typed && pbw_attr_typed(W, &X, i, a))
			continue;
		if (W->oom)
			return;
		W->ext[k] = 1;
	}
	/* a custom-call the text gave no api_version= is API_VERSION_ORIGINAL
	 * (XLA's parser's default); the proto's 0 is UNSPECIFIED, which XLA's
	 * reader keeps and its printer then writes out */
	if (i->op == HILO_OP_CUSTOM_CALL && !X.used[PBF_API_VERSION]) {
		if (!typed) {
			xla__hlo_instruction_proto__init(&p);
			p.opcode = (char *)hilo_opcode_name(i->op);
			typed = true;
		}
		p.custom_call_api_version = 1 /* API_VERSION_ORIGINAL */;
	}
	/* a dot's algorithm= lives in its precision_config, beside the
	 * operand precisions (DEFAULT for each operand when the text gives
	 * none, as XLA's parser fills them) */
	if (X.dot_alg) {
		Xla__PrecisionConfig *pc = p.precision_config;
		if (!pc) {
			if (!(pc = walloc(W, sizeof *pc)))
				return;
			xla__precision_config__init(pc);
			pc->n_operand_precision = i->noperands;
			pc->operand_precision = walloc(W, i->noperands * sizeof *pc->operand_precision);
			if (!pc->operand_precision)
				return;
			for (uint32_t k = 0; k < i->noperands; k++)
				pc->operand_precision[k] = XLA__PRECISION_CONFIG__PRECISION__DEFAULT;
			p.precision_config = pc;
		}
		pc->algorithm = X.dot_alg;
	}
	/* XLA's reader requires a convolution's window and a dot's
	 * dimension numbers; the text leaves them out when they are empty
	 * (no spatial dimensions, no contracting or batch dimension) */
	if ((i->op == HILO_OP_CONVOLUTION && !(typed && p.window)) ||
	    (i->op == HILO_OP_DOT && !X.dot)) {
		if (!typed) {
			xla__hlo_instruction_proto__init(&p);
			p.opcode = (char *)hilo_opcode_name(i->op);
			typed = true;
		}
		if (i->op == HILO_OP_DOT) {
			if (!pbw_dot_of(W, &X))
				return;
		} else {
			Xla__Window *w = walloc(W, sizeof *w);
			if (!w)
				return;
			xla__window__init(w);
			p.window = w;
		}
	}
	size_t t0 = b->len;
	size_t at = pw_open_n(b, 2, 2); /* instructions: mostly 128 bytes to 16 KB */
	const char *unique = hilo_ptrmap_get(&W->renamed, i);
	pw_str(b, 1, unique ? unique : i->name);
	pw_str(b, 2, hilo_opcode_name(i->op));
	const pb_keep *K0 = W->K;
	size_t kat = K0 && i->id >= K0->ibase && i->id < K0->iend ? i->id - K0->ibase : SIZE_MAX;
	if (kat != SIZE_MAX && K0->ishape[kat] == i->shape && K0->ishape_raw[kat].len)
		kept_raw(W, K0->ishape_raw[kat]);
	else
		put_shape_as(W, 3, i->shape, 0, i->op == HILO_OP_CONSTANT);
	if (i->metadata && kat != SIZE_MAX && K0->imd_raw[kat].len &&
	    K0->imd_fp[kat] == pb_metadata_fp(i->metadata))
		kept_raw(W, K0->imd_raw[kat]); /* unknown OpMetadata fields too */
	else if (i->metadata)
		put_metadata(W, i->metadata);
	if (kat != SIZE_MAX && hilo_instr_literal(i) && K0->ilit[kat] == hilo_instr_literal(i) &&
	    K0->ilit_raw[kat].len)
		kept_raw(W, K0->ilit_raw[kat]);
	else if (hilo_instr_literal(i))
		put_literal(W, 8, hilo_instr_literal(i), 0);
	else if (X.cclit)
		put_literal(W, 8, X.cclit, 0);
	if (i->op == HILO_OP_PARAMETER)
		pw_int(b, 9, hilo_instr_param_no(i));
	if (typed)
		put_typed_lo(W, &p);
	/* XLA's reader builds an outfeed from outfeed_shape (29), which its
	 * parser takes from the operand when the text gives none; without it
	 * XLA refuses the proto (invalid element type). An outfeed_shape= in
	 * the text stays in hilo's attributes (its layout, if it differs from
	 * the operand's, does not reach XLA) */
	if (i->op == HILO_OP_OUTFEED && i->noperands)
		pbw_put_shape(W, 29, i->operands[0]->shape, 0);
	pw_int(b, 35, pbw_instr_id(W, i));
	put_ids(W, 36, i->operands, i->noperands);
	put_ids(W, 37, hilo_instr_ctrl_preds(i), hilo_instr_nctrl_preds(i));
	/* called computations; XLA orders a while's as {body, condition}.
	 * An async sugar start (call-start, custom-call-start) calls the
	 * computation written for it (XLA's async_wrapped); its own callees
	 * go to hilo's field 1006 */
	int64_t wrap = pbw_async_wrapper_id(W, i);
	if (wrap >= 0) {
		pw_packed_i64(b, 38, &wrap, 1);
		pw_int(b, 1007, 1);
	}
	if (hilo_instr_ncalled(i)) {
		int64_t *ids = walloc(W, hilo_instr_ncalled(i) * sizeof *ids);
		if (!ids)
			return;
		for (uint32_t k = 0; k < hilo_instr_ncalled(i); k++)
			ids[k] = comp_id(W, hilo_instr_called(i)[k]);
		if (i->op == HILO_OP_WHILE && hilo_instr_ncalled(i) == 2) {
			hilo_attr *cond = hilo_instr_attr(i, HILO_A_CONDITION);
			if (cond && cond->kind == HILO_ATTR_COMP && cond->v.i == 0) {
				int64_t t = ids[0];
				ids[0] = ids[1];
				ids[1] = t;
			}
		}
		pw_packed_i64(b, wrap >= 0 ? 1006 : 38, ids, hilo_instr_ncalled(i));
	}
	if (typed)
		put_typed_hi(W, &X);
	for (uint32_t k = 0; k < i->nattrs; k++)
		if (W->ext[k])
			put_hilo_attr(b, &i->attrs[k]);
	for (uint32_t k = 0; k < i->nattrs; k++)
		pw_str_elem(b, 1001, i->attrs[k].key);
	pw_str(b, 1002, hilo_instr_comment(i));
	if (unique)
		pw_str(b, 1004, i->name);
	if (i->async_op != HILO_OP_COUNT)
		pw_str(b, 1003, hilo_opcode_name(i->async_op));
	pw_int(b, 1005, (i->text_bits & HILO_TEXT_NO_INDEX_MARKS) != 0);
	const pb_extra *x = W->m->proto_extra;
	if (x && i->id < x->ninstr)
		put_unknown(b, &x->instr[i->id]);
	pw_close_n(b, at, 2);
	pb_keep *K = W->K;
	if (K && i->id >= K->ibase && i->id < K->iend)
		use_kept(W, t0, &K->ifp[i->id - K->ibase], K->iraw[i->id - K->ibase]);
}

/* ---- computations and module ---- */

/* c's ProgramShapeProto: its parameters' and root's shapes, or, with
 * layout (a tuple of one shape per parameter) and root given, those
 * (the header's entry_computation_layout); the parameter names. */
static void put_program_shape_as(writer *W, uint32_t field, const hilo_comp *c, const hilo_shape *layout,
	const hilo_shape *root)
{
	hilo_buf *b = W->out;
	size_t at = pw_open(b, field);
	for (uint32_t k = 0; k < c->nparams; k++) {
		const hilo_instr *pi = c->params[k];
		if (layout)
			pbw_put_shape(W, 1, layout->elems[k], 0);
		else if (pi)
			pbw_put_shape(W, 1, pi->shape, 0);
		else
			pw_close(b, pw_open(b, 1));
	}
	if (root || c->root)
		pbw_put_shape(W, 2, root ? root : c->root->shape, 0);
	for (uint32_t k = 0; k < c->nparams; k++) {
		const char *u = c->params[k] ? hilo_ptrmap_get(&W->renamed, c->params[k]) : NULL;
		pw_str_elem(b, 3, u ? u : c->params[k] ? c->params[k]->name : "");
	}
	pw_close(b, at);
}

static void put_program_shape(writer *W, uint32_t field, const hilo_comp *c)
{
	put_program_shape_as(W, field, c, NULL, NULL);
}

/* The module's host_program_shape: the header's entry_computation_layout
 * when it has one (its layouts are the entry's: XLA's reader takes the
 * entry computation layout from this field), else the entry's own. */
static void put_entry_program_shape(writer *W, const hilo_module *m)
{
	const char *t = NULL;
	for (uint32_t k = 0; k < m->nattrs; k++)
		if (!strcmp(m->attrs[k].key, "entry_computation_layout"))
			t = m->attrs[k].value;
	const hilo_comp *e = m->entry;
	size_t n = t ? strlen(t) : 0;
	if (n < 4 || t[0] != '{' || t[n - 1] != '}' ||
	    (!W->scratch && !(W->scratch = hilo_module_create_in("entry_layout", W->a)))) {
		put_program_shape(W, 4, e);
		return;
	}
	/* the text without its index comments, between the braces */
	W->tmp.len = 0;
	for (size_t k = 1; k + 1 < n; k++) {
		if (t[k] == '/' && t[k + 1] == '*') {
			const char *end = strstr(t + k + 2, "*/");
			if (!end)
				break;
			k = (size_t)(end - t) + 1;
			continue;
		}
		hilo_buf_putc(&W->tmp, t[k]);
	}
	const char *v = hilo_buf_cstr(&W->tmp);
	size_t vn = W->tmp.len, used = 0;
	hilo_diags d;
	hilo_diags_init_in(&d, W->a);
	hilo_shape *ps = W->tmp.oom ? NULL : hilo_parse_shape(W->scratch, v, vn, &used, "", &d);
	hilo_shape *root = NULL;
	if (ps && ps->type == HILO_T_TUPLE && (uint32_t)ps->ntuple == e->nparams && used + 2 < vn &&
	    v[used] == '-' && v[used + 1] == '>')
		root = hilo_parse_shape(W->scratch, v + used + 2, vn - used - 2, NULL, "", &d);
	hilo_diags_free(&d);
	if (!root) {
		if (!scratch_oom(W))
			put_program_shape(W, 4, e);
		return;
	}
	put_program_shape_as(W, 4, e, ps, root);
}

static bool put_comp(writer *W, const hilo_comp *c, int64_t id, bool fusion)
{
	hilo_buf *b = W->out;
	size_t t0 = b->len;
	size_t at = pw_open_n(b, 3, 3); /* computations: mostly 16 KB to 2 MB */
	pw_str(b, 1, c->name);
	uint32_t k = 0;
	for (hilo_instr *i = c->first; i && k < c->ninstrs && !W->oom; i = i->next, k++)
		pbw_put_instr(W, i);
	put_program_shape(W, 4, c);
	pw_int(b, 5, id);
	pw_int(b, 6, c->root ? pbw_instr_id(W, c->root) : -1);
	pw_int(b, 7, fusion);
	if (c->execution_thread)
		pw_str(b, 8, c->execution_thread);
	pw_int(b, 1000, c->print_signature);
	pw_str(b, 1001, c->gap_before);
	pw_int(b, 1002, c->execution_thread != NULL);
	pw_str(b, 1003, c->brace_comment);
	const pb_extra *x = W->m->proto_extra;
	for (size_t j = 0; x && j < x->ncomp; j++)
		if (x->comp[j] == c)
			put_unknown(b, &x->comp_f[j]);
	pw_close_n(b, at, 3);
	size_t kk = (size_t)(uintptr_t)hilo_ptrmap_get(&W->kept, c);
	return kk && use_kept(W, t0, &W->K->cfp[kk - 1], W->K->craw[kk - 1]);
}

static bool write_module(writer *wp, hilo_buf *out);

/* XLA wants instruction names unique in the module (its proto reader
 * refuses a module otherwise: RET_CHECK "Instruction name is not unique",
 * hlo_module.cc), while text, XLA's and hilo's, scopes them per
 * computation. The first instruction (in write order) of a name keeps it;
 * a later one is written as name.K, K the smallest that no instruction
 * of the module is named (XLA's uniquifier's form), with its own name in
 * field 1004, which hilo's reader puts back: text -> pb -> text stays
 * byte for byte, and a module whose names are unique (every module XLA
 * wrote) is written as before. */
static void unique_names(writer *W)
{
	const hilo_module *m = W->m;
	hilo_ptrmap_init_in(&W->renamed, W->a);
	hilo_strtab *st = hilo_strtab_create(W->a);
	if (!st) {
		W->oom = true;
		return;
	}
	hilo_ptrmap taken, seen;
	hilo_ptrmap_init_in(&taken, W->a);
	hilo_ptrmap_init_in(&seen, W->a);
	bool dup = false;
	for (uint32_t k = 0; k < m->ncomps; k++)
		for (hilo_instr *i = m->comps[k]->first; i; i = i->next) {
			const char *key = hilo_intern_cstr(st, i->name);
			if (hilo_ptrmap_get(&taken, key))
				dup = true;
			hilo_ptrmap_put(&taken, key, (void *)1);
		}
	if (!dup)
		return;
	hilo_buf cand;
	hilo_buf_init_in(&cand, W->a);
	/* name -> the K its last duplicate got: the names taken only grow, so
	 * the smallest free K of a name never goes down, and the search starts
	 * there (from 1 each time it was quadratic in a name's duplicates) */
	hilo_ptrmap lastk;
	hilo_ptrmap_init_in(&lastk, W->a);
	for (uint32_t k = 0; k < m->ncomps; k++)
		for (hilo_instr *i = m->comps[k]->first; i; i = i->next) {
			const char *key = hilo_intern_cstr(st, i->name);
			if (!hilo_ptrmap_get(&seen, key)) {
				hilo_ptrmap_put(&seen, key, (void *)1);
				continue;
			}
			for (int64_t n = (int64_t)(uintptr_t)hilo_ptrmap_get(&lastk, key) + 1;; n++) {
				cand.len = 0;
				hilo_buf_puts(&cand, i->name);
				hilo_buf_putc(&cand, '.');
				hilo_buf_put_i64(&cand, n);
				const char *ck = hilo_intern(st, cand.data, cand.len);
				if (!ck) {
					W->oom = true;
					return;
				}
				if (!hilo_ptrmap_get(&taken, ck) && !hilo_ptrmap_get(&seen, ck)) {
					hilo_ptrmap_put(&seen, ck, (void *)1);
					hilo_ptrmap_put(&W->renamed, i, (void *)ck);
					hilo_ptrmap_put(&lastk, key, (void *)(uintptr_t)n);
					break;
				}
			}
		}
}

/* ---- a kept input's module (issue 34) ---- */

static bool kept_str_is(const writer *W, const pb_rawfield *f, const char *s)
{
	size_t n = s ? strlen(s) : 0;
	return f->wt == PB_LEN && f->val.len == n && !memcmp(W->K->buf + f->val.off, s, n);
}

/* A field that cannot be kept valid: dropped, and said so. */
static void kept_drop(writer *W, const char *what)
{
	if (!W->K->fingerprinting)
		hilo_diag_add(W->d, HILO_SEV_WARNING, NULL, 0, 0, NULL, 0,
			"%s of module '%s' dropped: the entry computation's signature changed", what, W->m->name);
}

static int64_t sched_iid(void *ud, const hilo_instr *i)
{
	return pbw_instr_id(ud, i);
}

static int64_t sched_cid(void *ud, const hilo_comp *c)
{
	return comp_id(ud, c);
}

/* The module's HloScheduleProto on W->out, from the kept one (K, its
 * field 7 payload sched) or, K NULL, from the instructions' order; the
 * computations in fused are fusion computations (no sequence). */
static void put_schedule(writer *W, const pb_keep *K, pb_span sched, const hilo_ptrmap *fused)
{
	const hilo_module *m = W->m;
	bool *fusion = walloc(W, (m->ncomps + 1) * sizeof *fusion);
	if (!fusion)
		return;
	for (uint32_t k = 0; k < m->ncomps; k++)
		fusion[k] = hilo_ptrmap_get(fused, m->comps[k]) != NULL;
	pb_keep_schedule(W->out, m, K, sched, fusion, sched_iid, sched_cid, pbw_async_sequences, W);
}

/* The HloModuleProto of a kept input: its fields in input order, each
 * one as read when what it depends on is unchanged, else from the IR
 * (computations, entry, host program shape), rebuilt (schedule) or
 * dropped with a warning (aliasing, donors, prefetches and SPMD
 * shardings, which refer to the entry's parameters and result). */
static void write_kept_module(writer *W, const hilo_ptrmap *fused)
{
	const hilo_module *m = W->m;
	pb_keep *K = W->K;
	hilo_buf *out = W->out;
	hilo_buf cb, ps;
	hilo_buf_init_in(&cb, W->a);
	hilo_buf_init_in(&ps, W->a);
	/* computations first (the schedule and the host shape depend on them) */
	bool same = m->ncomps == K->ncomp;
	W->out = &cb;
	for (uint32_t k = 0; k < m->ncomps && !W->oom; k++) {
		bool raw = put_comp(W, m->comps[k], comp_id(W, m->comps[k]),
			hilo_ptrmap_get(fused, m->comps[k]) != NULL);
		same = same && raw && m->comps[k] == K->comp[k];
	}
	W->out = &ps;
	if (m->entry)
		put_entry_program_shape(W, m);
	uint64_t efp = pb_hash64(ps.data, ps.len);
	if (K->fingerprinting)
		K->entry_fp = efp;
	bool entry_same = m->entry == K->entry && efp == K->entry_fp;
	W->out = out;
	bool comps_done = false;
	for (size_t k = 0; k < K->nmf && !W->oom; k++) {
		const pb_rawfield *f = &K->mf[k];
		switch (f->num) {
		case 1:
			if (kept_str_is(W, f, m->name))
				kept_raw(W, f->all);
			else
				pw_str(out, 1, m->name);
			break;
		case 2:
			if (m->entry && kept_str_is(W, f, m->entry->name))
				kept_raw(W, f->all);
			else if (m->entry)
				pw_str(out, 2, m->entry->name);
			break;
		case 3:
			if (!comps_done)
				pw_raw(out, cb.data, cb.len);
			comps_done = true;
			break;
		case 4:
			if (entry_same)
				kept_raw(W, f->all);
			else
				pw_raw(out, ps.data, ps.len);
			break;
		case 6:
			if (m->entry == K->entry)
				kept_raw(W, f->all);
			else if (m->entry)
				pw_int(out, 6, comp_id(W, m->entry));
			break;
		case 7:
			if (same || f->wt != PB_LEN)
				kept_raw(W, f->all);
			else
				put_schedule(W, K, f->val, fused);
			break;
		case 8: case 10: case 12: case 14: case 18:
			if (entry_same)
				kept_raw(W, f->all);
			else
				kept_drop(W, f->num == 8 ? "input_output_alias" : f->num == 18 ? "buffer_donor" :
					f->num == 10 ? "cross_program_prefetches" : "an SPMD sharding");
			break;
		default:
			kept_raw(W, f->all);
			break;
		}
	}
	if (!comps_done)
		pw_raw(out, cb.data, cb.len);
	W->kept_same = same && entry_same;
	if (cb.oom || ps.oom)
		W->oom = true;
	hilo_buf_free(&cb);
	hilo_buf_free(&ps);
}

/* The wrapper of a kept input around its module (level 0: HloSnapshot,
 * 1: HloProto, 2: the module itself): HloProto's other fields (the
 * buffer assignment, which names instructions) kept only while the module
 * is unchanged; HloSnapshot's arguments, result and platform kept. */
static void write_kept_form(writer *W, int level, const hilo_ptrmap *fused)
{
	if (level == 2) {
		write_kept_module(W, fused);
		return;
	}
	pb_keep *K = W->K;
	hilo_buf *b = W->out, inner;
	hilo_buf_init_in(&inner, W->a);
	W->out = &inner;
	write_kept_form(W, level + 1, fused);
	W->out = b;
	bool done = false;
	for (size_t k = 0; k < K->nouter[level] && !W->oom; k++) {
		const pb_rawfield *f = &K->outer[level][k];
		if (f->num == 1) {
			if (!done) {
				pw_tag(b, 1, PB_LEN);
				pw_varint(b, inner.len);
				pw_raw(b, inner.data, inner.len);
			}
			done = true;
		} else if (level == 1 && f->num == 3 && !W->kept_same) {
			if (!K->fingerprinting)
				hilo_diag_add(W->d, HILO_SEV_WARNING, NULL, 0, 0, NULL, 0,
					"HloProto field %u (buffer assignment) of module '%s' dropped: the module changed",
					f->num, W->m->name);
		} else {
			kept_raw(W, f->all);
		}
	}
	if (inner.oom)
		W->oom = true;
	hilo_buf_free(&inner);
}

bool hilo_proto_write(hilo_buf *out, const hilo_module *m, hilo_diags *d)
{
	return hilo_proto_write_as(out, m, HILO_PROTO_AS_READ, d);
}

/* hilo_proto_write_as, and hilo_proto_write_snapshot when args or result
 * (snap) are given. */
static bool write_guarded(hilo_buf *out, const hilo_module *m, hilo_proto_form form,
	const hilo_literal *const *args, size_t nargs, const hilo_literal *result, bool snap,
	hilo_diags *d)
{
	writer W;
	memset(&W, 0, sizeof W);
	W.m = m;
	W.d = d;
	W.form = form;
	W.snap = snap;
	W.args = args;
	W.nargs = nargs;
	W.result = result;
	W.K = m->proto_extra ? ((const pb_extra *)m->proto_extra)->keep : NULL;
	W.a = hilo_arena_create();
	if (!W.a) {
		hilo_diag_oom(d, NULL);
		return false;
	}
	size_t len0 = out->len;
	HILO_OOM_CATCH(g, W.a) {
		hilo_arena_destroy(W.a);
		out->len = len0; /* no partial output */
		if (out->data && out->cap > len0)
			out->data[len0] = 0;
		hilo_diag_oom(d, NULL);
		return false;
	}
	bool ok = write_module(&W, out);
	hilo_oom_end(&g);
	hilo_arena_destroy(W.a);
	if (!ok) {
		out->len = len0;
		if (out->data && out->cap > len0)
			out->data[len0] = 0;
	}
	return ok;
}

bool hilo_proto_write_as(hilo_buf *out, const hilo_module *m, hilo_proto_form form, hilo_diags *d)
{
	return write_guarded(out, m, form, NULL, 0, NULL, false, d);
}

bool hilo_proto_write_snapshot(hilo_buf *out, const hilo_module *m, const hilo_literal *const *args,
	size_t nargs, const hilo_literal *result, hilo_diags *d)
{
	return write_guarded(out, m, HILO_PROTO_SNAPSHOT, args, nargs, result, true, d);
}

/* The depth of a form's module: 0 in a snapshot, 1 in an HloProto, 2 bare. */
static int form_level(int form)
{
	return form == PB_FORM_SNAPSHOT ? 0 : form == PB_FORM_HLO_PROTO ? 1 : 2;
}

/* Puts what W->out holds from `from` on into `levels` wrappers (field 1
 * each); the outermost, when a snapshot, also gets the arguments: the
 * given ones (hilo_proto_write_snapshot), else those read. */
static void wrap_levels(writer *W, size_t from, int levels, bool snapshot)
{
	hilo_buf *b = W->out;
	for (int k = 0; k < levels && !b->oom; k++) {
		size_t n = b->len - from;
		size_t g = pw_varint_size(n) + 1;
		if (!pw_need(b, g))
			return;
		memmove(b->data + from + g, b->data + from, n);
		uint8_t *q = (uint8_t *)b->data + from;
		*q++ = 1 << 3 | PB_LEN;
		q = pw_varint_at(q, n);
		b->len += g;
	}
	if (!snapshot)
		return;
	const pb_extra *x = W->m->proto_extra;
	if (W->snap) {
		for (size_t k = 0; k < W->nargs; k++)
			put_literal(W, 2, W->args[k], 0);
		if (W->result)
			put_literal(W, 3, W->result, 0);
	} else if (x) {
		for (size_t k = 0; k < x->nargs; k++)
			pw_bytes(b, 2, x->arg[k], x->argn[k]);
	}
}

/* Writes the module message onto out. */
static bool write_module(writer *wp, hilo_buf *out)
{
	writer W = *wp; /* the fields below are read through W */
	const hilo_module *m = W.m;
	hilo_diags *d = W.d;
	W.out = out;
	hilo_buf_init_in(&W.tmp, W.a);
	hilo_ptrmap_init_in(&W.comp_ids, W.a);
	hilo_ptrmap_init_in(&W.wrapped, W.a);
	hilo_ptrmap_init_in(&W.wrap_base, W.a);
	for (uint32_t k = 0; k < m->ncomps; k++)
		hilo_ptrmap_put(&W.comp_ids, m->comps[k], (void *)(uintptr_t)(k + 2));
	/* computations called by a fusion are fusion computations; the
	 * async sugar's wrappers get their ids (after every computation's)
	 * in the same walk */
	hilo_ptrmap fused;
	hilo_ptrmap_init_in(&fused, W.a);
	int64_t next_wrapper = (int64_t)m->ncomps + 1;
	for (uint32_t k = 0; k < m->ncomps; k++)
		for (hilo_instr *i = m->comps[k]->first; i; i = i->next) {
			if (i->op == HILO_OP_FUSION)
				for (uint32_t j = 0; j < hilo_instr_ncalled(i); j++)
					hilo_ptrmap_put(&fused, hilo_instr_called(i)[j], (void *)1);
			pbw_number_async_wrapper(&W, i, &next_wrapper);
		}
	unique_names(&W);
	if (W.K) {
		/* the input's computation ids; new computations after them */
		pb_keep *K = W.K;
		hilo_ptrmap_init_in(&W.kept, W.a);
		for (size_t k = 0; k < K->ncomp; k++)
			hilo_ptrmap_put(&W.kept, K->comp[k], (void *)(uintptr_t)(k + 1));
		int64_t next = K->max_cid + 1;
		for (uint32_t k = 0; k < m->ncomps; k++) {
			size_t kk = (size_t)(uintptr_t)hilo_ptrmap_get(&W.kept, m->comps[k]);
			int64_t id = kk ? K->cid[kk - 1] : next++;
			hilo_ptrmap_put(&W.comp_ids, m->comps[k], (void *)(uintptr_t)(id + 1));
		}
		int want = W.form == HILO_PROTO_AS_READ ? K->form : (int)W.form - 1;
		/* the kept levels as deep as both forms go, wrapped to the one asked */
		int have = form_level(K->form), lvl = form_level(want);
		if (W.snap)
			lvl = 1; /* a new snapshot: the kept HloProto (or module), new arguments */
		int start = lvl > have ? lvl : have;
		size_t from = out->len;
		write_kept_form(&W, start, &fused);
		wrap_levels(&W, from, start - form_level(want), want == PB_FORM_SNAPSHOT &&
			(W.snap || K->form != PB_FORM_SNAPSHOT));
		bool ok = !W.oom && !out->oom && !W.tmp.oom;
		if (!ok)
			hilo_diag_oom(d, NULL);
		hilo_ptrmap_free(&W.kept);
		hilo_ptrmap_free(&fused);
		hilo_ptrmap_free(&W.comp_ids);
		hilo_ptrmap_free(&W.wrapped);
		hilo_ptrmap_free(&W.wrap_base);
		hilo_buf_free(&W.tmp);
		return ok;
	}
	/* typed copies of module attributes XLA models (the text stays verbatim) */
	Xla__FrontendAttributes *fa = NULL;
	Xla__HloInputOutputAliasProto *io = NULL;
	Xla__HloBufferDonorProto *bd = NULL;
	for (uint32_t k = 0; k < m->nattrs; k++) {
		const char *key = m->attrs[k].key, *v = m->attrs[k].value;
		if (!strcmp(key, "frontend_attributes"))
			pbx_module_fa(W.a, &fa, v);
		else if (!strcmp(key, "input_output_alias"))
			pbx_io_alias(W.a, &io, v);
		else if (!strcmp(key, "buffer_donor"))
			pbx_buffer_donor(W.a, &bd, v);
	}

	hilo_buf *b = out;
	size_t from = out->len;
	pw_str(b, 1, m->name);
	if (m->entry)
		pw_str(b, 2, m->entry->name);
	for (uint32_t k = 0; k < m->ncomps && !W.oom; k++) {
		pbw_put_async_wrappers(&W, m->comps[k]);
		put_comp(&W, m->comps[k], (int64_t)k + 1, hilo_ptrmap_get(&fused, m->comps[k]) != NULL);
	}
	if (m->entry) {
		put_entry_program_shape(&W, m);
		pw_int(b, 6, comp_id(&W, m->entry));
	}
	if (hilo_module_layout_sensitive(m)) {
		/* is_scheduled=true: XLA's reader takes a module as scheduled
		 * only with a schedule (field 7), the instructions' order */
		put_schedule(&W, NULL, (pb_span){0, 0}, &fused);
	}
	put_pc(&W, 8, io);
	pb_frames_from_text(b, m->stack_frames); /* XLA resolves stack_frame_id by it */
	put_pc(&W, 18, bd);
	put_pc(&W, 19, fa);
	bool bad = false; /* an origin_recovery_table that does not parse */
	for (uint32_t k = 0; k < m->nattrs && !bad; k++)
		if (!strcmp(m->attrs[k].key, "origin_recovery_table"))
			bad = !pbw_recovery_table(b, W.a, m->attrs[k].value, d);
	for (uint32_t k = 0; k < m->nattrs; k++) {
		size_t at = pw_open(b, 1000);
		pw_str(b, 1, m->attrs[k].key);
		pw_str(b, 2, m->attrs[k].value);
		pw_str(b, 3, m->attrs[k].sep);
		pw_close(b, at);
	}
	pw_str(b, 1001, m->header);
	pw_str(b, 1002, m->gap);
	pw_str(b, 1003, m->trailer);
	pw_str(b, 1004, m->stack_frames);
	pw_int(b, 1005, (int32_t)m->style);
	pw_int(b, 1006, m->entry_last_no_keyword);
	pw_int(b, 1007, m->gap != NULL);
	pw_int(b, 1008, m->trailer != NULL);
	pw_int(b, 1009, 1); /* hilo_written */
	pw_int(b, 1010, m->no_entry_layout);
	pw_int(b, 1011, m->no_final_newline);
	const pb_extra *x = m->proto_extra;
	if (x)
		put_unknown(b, &x->module);
	int want = W.snap ? PB_FORM_SNAPSHOT
	         : W.form == HILO_PROTO_AS_READ ? (x ? x->form : PB_FORM_MODULE) : (int)W.form - 1;
	wrap_levels(&W, from, 2 - form_level(want), want == PB_FORM_SNAPSHOT);
	bool ok = !W.oom && !out->oom && !W.tmp.oom;
	if (!ok && !bad)
		hilo_diag_oom(d, NULL);
	ok = ok && !bad;
	hilo_ptrmap_free(&fused);
	hilo_ptrmap_free(&W.comp_ids);
	hilo_ptrmap_free(&W.wrapped);
	hilo_ptrmap_free(&W.wrap_base);
	hilo_buf_free(&W.tmp);
	return ok;
}

/* Right after reading: one write of the module records the fingerprint of
 * every instruction, computation and the entry's program shape. */
bool pb_keep_fingerprint(const hilo_module *m, hilo_diags *d)
{
	pb_extra *x = m->proto_extra;
	if (!x || !x->keep)
		return true;
	hilo_buf out;
	hilo_buf_init(&out);
	x->keep->fingerprinting = true;
	bool ok = hilo_proto_write(&out, m, d);
	x->keep->fingerprinting = false;
	hilo_buf_free(&out);
	return ok;
}
