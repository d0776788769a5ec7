/* HloModuleProto reader: bytes -> protobuf-c structs -> IR.
 *
 * The bytes are first checked by pb_check_wire (tags, lengths, nesting
 * depth), then unpacked by protobuf-c into the module's own arena, so
 * big literal arrays become the IR's literal buffers without a copy.
 * Accepts HloModuleProto, HloProto{hlo_module} and HloSnapshot{hlo}.
 * Every reference is checked: operand, control-predecessor, root, entry
 * and called-computation ids must exist; instruction graphs and the call
 * graph must be acyclic; shapes and literal sizes must agree. Any failure
 * is a diagnostic and a NULL module, never a crash.
 */
#include "pb_attrs.h"

#include <stdlib.h>
#include <string.h>

enum { MAX_DEPTH = 64 };

typedef struct reader {
	hilo_module *m;
	hilo_diags *d;
	const char *file;
	bool failed;
	hilo_buf tmp;
} reader;

static void rerr(reader *R, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
static void rerr(reader *R, const char *fmt, ...)
{
	if (R->failed)
		return;
	R->failed = true;
	va_list ap;
	va_start(ap, fmt);
	hilo_diag_addv(R->d, HILO_SEV_ERROR, R->file, 0, 0, NULL, 0, NULL, fmt, ap);
	va_end(ap);
}

static void *ralloc(reader *R, size_t n)
{
	void *p = hilo_arena_alloc(R->m->arena, n ? n : 1);
	if (!p)
		rerr(R, "out of memory");
	return p;
}

static const char *rintern(reader *R, const char *s)
{
	return hilo_intern_cstr(R->m->strings, s ? s : "");
}

/* ---- int64 -> pointer map (open addressing) ---- */

typedef struct idmap {
	int64_t *keys;
	void **vals;
	size_t cap, n;
} idmap;

static bool idmap_init(reader *R, idmap *M, size_t n)
{
	size_t cap = 16;
	while (cap < 2 * n + 2)
		cap *= 2;
	M->keys = ralloc(R, cap * sizeof *M->keys);
	M->vals = ralloc(R, cap * sizeof *M->vals);
	M->cap = cap;
	M->n = 0;
	return M->keys && M->vals;
}

static size_t idhash(int64_t k, size_t cap)
{
	uint64_t x = (uint64_t)k * 0x9e3779b97f4a7c15ull;
	return (size_t)(x >> 32) & (cap - 1);
}

static void *idmap_get(const idmap *M, int64_t k)
{
	for (size_t i = idhash(k, M->cap);; i = (i + 1) & (M->cap - 1)) {
		if (!M->vals[i])
			return NULL;
		if (M->keys[i] == k)
			return M->vals[i];
	}
}

/* false when the key is already there */
static bool idmap_put(idmap *M, int64_t k, void *v)
{
	size_t i = idhash(k, M->cap);
	for (; M->vals[i]; i = (i + 1) & (M->cap - 1))
		if (M->keys[i] == k)
			return false;
	M->keys[i] = k;
	M->vals[i] = v;
	M->n++;
	return true;
}

/* ---- shapes ---- */

static hilo_shape *shape_from(reader *R, const Xla__ShapeProto *p, int depth, const char *what)
{
	if (!p) {
		rerr(R, "%s has no shape", what);
		return NULL;
	}
	if (depth > MAX_DEPTH) {
		rerr(R, "%s: tuple shape nested too deeply", what);
		return NULL;
	}
	hilo_shape *s = ralloc(R, sizeof *s);
	if (!s)
		return NULL;
	s->type = pb_ptype_from_xla((int)p->element_type);
	s->buffer = p->hilo_buffer;
	if (s->type == HILO_T_INVALID) {
		rerr(R, "%s: unknown element type %d", what, (int)p->element_type);
		return NULL;
	}
	if (s->type == HILO_T_TUPLE) {
		if (p->n_dimensions) {
			rerr(R, "%s: a tuple shape has dimensions", what);
			return NULL;
		}
		if (p->n_tuple_shapes > 1000000) {
			rerr(R, "%s: tuple too large", what);
			return NULL;
		}
		s->ntuple = (int)p->n_tuple_shapes;
		s->elems = ralloc(R, p->n_tuple_shapes * sizeof *s->elems);
		if (!s->elems)
			return NULL;
		for (size_t k = 0; k < p->n_tuple_shapes; k++)
			if (!(s->elems[k] = shape_from(R, p->tuple_shapes[k], depth + 1, what)))
				return NULL;
		return s;
	}
	if (p->n_tuple_shapes && s->type != HILO_T_TUPLE) {
		rerr(R, "%s: an array shape has tuple elements", what);
		return NULL;
	}
	if (p->n_dimensions > 4096) {
		rerr(R, "%s: rank %zu is too large", what, p->n_dimensions);
		return NULL;
	}
	if (p->n_is_dynamic_dimension && p->n_is_dynamic_dimension != p->n_dimensions) {
		rerr(R, "%s: %zu dynamic-dimension flags for rank %zu", what,
			p->n_is_dynamic_dimension, p->n_dimensions);
		return NULL;
	}
	s->rank = (int)p->n_dimensions;
	s->dims = p->dimensions;
	bool any_dyn = false;
	for (size_t k = 0; k < p->n_is_dynamic_dimension; k++)
		any_dyn |= p->is_dynamic_dimension[k] != 0;
	if (any_dyn) {
		s->dyn = ralloc(R, p->n_dimensions);
		if (!s->dyn)
			return NULL;
	}
	for (size_t k = 0; k < p->n_dimensions; k++) {
		bool dyn = any_dyn && p->is_dynamic_dimension[k];
		if (dyn && p->dimensions[k] == INT64_MIN) {
			s->dyn[k] = HILO_DIM_UNBOUNDED;
			continue;
		}
		if (p->dimensions[k] < 0) {
			rerr(R, "%s: negative dimension size %lld", what, (long long)p->dimensions[k]);
			return NULL;
		}
		if (dyn)
			s->dyn[k] = HILO_DIM_BOUNDED;
	}
	if (hilo_shape_elements(s) < 0 && s->rank) {
		bool unb = false;
		for (int k = 0; k < s->rank && s->dyn; k++)
			unb |= s->dyn[k] == HILO_DIM_UNBOUNDED;
		if (!unb) {
			rerr(R, "%s: element count overflows", what);
			return NULL;
		}
	} else if (s->rank && hilo_shape_bytes(s) < 0) {
		rerr(R, "%s: shape size in bytes overflows int64", what);
		return NULL;
	}
	if (p->layout) {
		const Xla__LayoutProto *l = p->layout;
		bool tail = l->hilo_tail && *l->hilo_tail;
		if (l->n_minor_to_major != p->n_dimensions && !(l->n_minor_to_major == 0 && tail)) {
			rerr(R, "%s: layout has %zu entries for rank %zu", what, l->n_minor_to_major,
				p->n_dimensions);
			return NULL;
		}
		for (size_t k = 0; k < l->n_minor_to_major; k++)
			if (l->minor_to_major[k] < 0 || (size_t)l->minor_to_major[k] >= p->n_dimensions) {
				rerr(R, "%s: layout names dimension %lld of a rank-%zu shape", what,
					(long long)l->minor_to_major[k], p->n_dimensions);
				return NULL;
			}
		s->layout = ralloc(R, sizeof *s->layout);
		if (!s->layout)
			return NULL;
		s->layout->n = (int)l->n_minor_to_major;
		s->layout->minor_to_major = l->minor_to_major;
		if (tail)
			s->layout->tail = rintern(R, l->hilo_tail);
	}
	return s;
}

/* ---- literals ---- */

static hilo_literal *literal_from(reader *R, const Xla__LiteralProto *p, hilo_shape *shape,
	int depth, const char *what)
{
	if (depth > MAX_DEPTH) {
		rerr(R, "%s: literal nested too deeply", what);
		return NULL;
	}
	hilo_literal *l = ralloc(R, sizeof *l);
	if (!l)
		return NULL;
	if (p->shape) {
		hilo_shape *ls = shape_from(R, p->shape, 0, what);
		if (!ls)
			return NULL;
		if (!hilo_shape_compatible(ls, shape)) {
			rerr(R, "%s: literal shape does not match the instruction's", what);
			return NULL;
		}
	}
	l->shape = shape;
	l->pred_as_int = p->hilo_pred_as_int;
	l->splat = p->hilo_splat;
	if (p->hilo_elided) {
		l->elided = true;
		return l;
	}
	if (shape->type == HILO_T_TUPLE) {
		if (p->n_tuple_literals != (size_t)shape->ntuple) {
			rerr(R, "%s: tuple literal has %zu elements, the shape %d", what,
				p->n_tuple_literals, shape->ntuple);
			return NULL;
		}
		l->ntuple = shape->ntuple;
		l->elems = ralloc(R, (size_t)shape->ntuple * sizeof *l->elems);
		if (!l->elems)
			return NULL;
		for (int k = 0; k < shape->ntuple; k++)
			if (!(l->elems[k] = literal_from(R, p->tuple_literals[k], shape->elems[k], depth + 1, what)))
				return NULL;
		return l;
	}
	if (shape->type == HILO_T_TOKEN || shape->type == HILO_T_OPAQUE)
		return l;
	int64_t count = hilo_shape_elements(shape);
	if (count < 0) {
		rerr(R, "%s: literal of a dynamic or overflowing shape", what);
		return NULL;
	}
	size_t es = (size_t)hilo_ptype_bytes(shape->type);
	if (es && (uint64_t)count > (uint64_t)INT64_MAX / es) {
		rerr(R, "%s: literal size in bytes overflows int64", what);
		return NULL;
	}
	size_t want = (size_t)count * es;
	const void *data = NULL;
	size_t have = 0; /* in bytes */
#define BIN(f) do { data = p->f.data; have = p->f.len; } while (0)
#define ARR(f, m) do { data = p->f; have = p->n_##f * (m); } while (0)
	switch (shape->type) {
	case HILO_T_PRED: {
		if (p->n_preds != (size_t)count)
			break;
		uint8_t *b = ralloc(R, (size_t)count);
		if (!b)
			return NULL;
		for (size_t k = 0; k < p->n_preds; k++)
			b[k] = p->preds[k] != 0;
		data = b;
		have = p->n_preds;
		break;
	}
	case HILO_T_S1: BIN(s1s); break;
	case HILO_T_S2: BIN(s2s); break;
	case HILO_T_S4: BIN(s4s); break;
	case HILO_T_S8: BIN(s8s); break;
	case HILO_T_U1: BIN(u1s); break;
	case HILO_T_U2: BIN(u2s); break;
	case HILO_T_U4: BIN(u4s); break;
	case HILO_T_U8: BIN(u8s); break;
	case HILO_T_S16: BIN(s16s); break;
	case HILO_T_U16: BIN(u16s); break;
	case HILO_T_F16: BIN(f16s); break;
	case HILO_T_BF16: BIN(bf16s); break;
	case HILO_T_F4E2M1FN: BIN(f4e2m1fns); break;
	case HILO_T_F8E3M4: BIN(f8e3m4s); break;
	case HILO_T_F8E4M3B11FNUZ: BIN(f8e4m3b11fnuzs); break;
	case HILO_T_F8E4M3FN: BIN(f8e4m3fns); break;
	case HILO_T_F8E4M3FNUZ: BIN(f8e4m3fnuzs); break;
	case HILO_T_F8E4M3: BIN(f8e4m3s); break;
	case HILO_T_F8E5M2FNUZ: BIN(f8e5m2fnuzs); break;
	case HILO_T_F8E5M2: BIN(f8e5m2s); break;
	case HILO_T_F8E8M0FNU: BIN(f8e8m0fnus); break;
	case HILO_T_F6E2M3FN: BIN(hilo_f6e2m3fns); break;
	case HILO_T_F6E3M2FN: BIN(hilo_f6e3m2fns); break;
	case HILO_T_S32: ARR(s32s, 4); break;
	case HILO_T_S64: ARR(s64s, 8); break;
	case HILO_T_U32: ARR(u32s, 4); break;
	case HILO_T_U64: ARR(u64s, 8); break;
	case HILO_T_F32: ARR(f32s, 4); break;
	case HILO_T_F64: ARR(f64s, 8); break;
	case HILO_T_C64: ARR(c64s, 4); break;
	case HILO_T_C128: ARR(c128s, 8); break;
	default:
		break;
	}
#undef BIN
#undef ARR
	if (have != want) {
		rerr(R, "%s: literal has %zu bytes of values, its shape needs %zu", what, have, want);
		return NULL;
	}
	l->nbytes = want;
	l->data = want ? (void *)data : ralloc(R, 1);
	if (es == 1 && hilo_ptype_bits(shape->type) < 8 && shape->type != HILO_T_PRED) {
		/* sub-byte values: one per byte, must fit the type */
		int bits = hilo_ptype_bits(shape->type);
		const uint8_t *b = data;
		for (size_t k = 0; k < want; k++) {
			uint8_t v = b[k];
			bool ok = hilo_ptype_is_signed_int(shape->type)
				? ((int8_t)v >= -(1 << (bits - 1)) && (int8_t)v < (1 << (bits - 1)))
				: v < (1u << bits);
			if (!ok) {
				rerr(R, "%s: literal value %u does not fit %s", what, v,
					hilo_ptype_name(shape->type));
				return NULL;
			}
		}
	}
	return l;
}

/* ---- attributes ---- */

/* Appends attribute id (key k when HILO_A_UNKNOWN) in reading order. */
static hilo_attr *append_id(reader *R, hilo_instr *i, hilo_attr_id id, const char *k,
	hilo_attr_kind kind)
{
	if (id != HILO_A_UNKNOWN ? hilo_instr_attr(i, id) != NULL : hilo_instr_attr_named(i, k) != NULL) {
		rerr(R, "instruction '%s': attribute '%s' appears twice", i->name, k);
		return NULL;
	}
	if (i->nattrs == i->cap_attrs) {
		uint32_t cap = i->cap_attrs ? i->cap_attrs * 2 : 4;
		i->attrs = hilo_arena_grow(R->m->arena, i->attrs, i->nattrs, cap, sizeof(hilo_attr));
		if (!i->attrs) {
			rerr(R, "out of memory");
			return NULL;
		}
		i->cap_attrs = cap;
	}
	hilo_attr *a = &i->attrs[i->nattrs++];
	memset(a, 0, sizeof *a);
	a->key = k;
	a->id = (uint16_t)id;
	a->kind = (uint8_t)kind;
	return a;
}

static hilo_attr *append_known(reader *R, hilo_instr *i, hilo_attr_id id, hilo_attr_kind kind)
{
	return append_id(R, i, id, hilo_attr_id_key(id), kind);
}

static hilo_attr *append_attr(reader *R, hilo_instr *i, const char *key, hilo_attr_kind kind)
{
	hilo_attr_id id = hilo_attr_lookup(key, strlen(key));
	return append_id(R, i, id, id != HILO_A_UNKNOWN ? hilo_attr_id_key(id) : rintern(R, key), kind);
}

static void set_ints(hilo_attr *a, int64_t *v, size_t n)
{
	a->n = (int)n;
	a->v.ints = v;
}

static const char *escaped(reader *R, const char *s, size_t n)
{
	R->tmp.len = 0;
	pb_escape(&R->tmp, s, n);
	return hilo_intern(R->m->strings, R->tmp.data ? R->tmp.data : "", R->tmp.len);
}

static const char *const fft_names[] = {"FFT", "IFFT", "RFFT", "IRFFT"};
static const char *const dist_names[] = {"rng_invalid", "rng_uniform", "rng_normal"};

static const int64_t *nz(const int64_t *p)
{
	static const int64_t zero = 0;
	return p ? p : &zero;
}

/* Fills attribute id from its typed field. false: no typed field. */
static bool attr_from_typed(reader *R, hilo_instr *i, const Xla__HloInstructionProto *p,
	hilo_attr_id id)
{
	const pb_attr_def *def = pb_attr_def_of(id);
	if (!def)
		return false;
	if (def->kind == HILO_ATTR_RAW) {
		R->tmp.len = 0;
		if (!pbx_render(&R->tmp, p, def->field) || R->tmp.oom)
			return true; /* absent: nothing to print */
		hilo_attr *a = append_known(R, i, id, HILO_ATTR_RAW);
		if (a)
			a->v.text = hilo_intern(R->m->strings, R->tmp.data, R->tmp.len);
		return true;
	}
	hilo_attr *a = append_known(R, i, id, def->kind);
	if (!a)
		return true;
	const Xla__DotDimensionNumbers *dd = p->dot_dimension_numbers;
	if (!dd && p->ragged_dot_dimension_numbers)
		dd = p->ragged_dot_dimension_numbers->dot_dimension_numbers;
	const Xla__GatherDimensionNumbers *g = p->gather_dimension_numbers;
	const Xla__ScatterDimensionNumbers *sc = p->scatter_dimension_numbers;
	const Xla__RaggedDotDimensionNumbers *rg = p->ragged_dot_dimension_numbers;
	switch (def->field) {
	case PBF_TUPLE_INDEX: a->v.i = p->tuple_index; break;
	case PBF_DIMENSIONS: set_ints(a, p->dimensions, p->n_dimensions); break;
	case PBF_IOTA_DIMENSION: a->v.i = p->n_dimensions ? p->dimensions[0] : 0; break;
	case PBF_CHANNEL_ID: a->v.i = p->channel_id; break;
	case PBF_FEATURE_INDEX: a->v.i = p->feature_index; break;
	case PBF_FEATURE_GROUP_COUNT: a->v.i = p->feature_group_count; break;
	case PBF_BATCH_GROUP_COUNT: a->v.i = p->batch_group_count; break;
	case PBF_EXPONENT_BITS: a->v.i = p->exponent_bits; break;
	case PBF_MANTISSA_BITS: a->v.i = p->mantissa_bits; break;
	case PBF_K: a->v.i = p->k; break;
	case PBF_DELTA: a->v.i = p->delta; break;
	case PBF_NUM_CARRIES: a->v.i = p->num_carries; break;
	case PBF_CPP_INDEX: a->v.i = p->cross_program_prefetch_index; break;
	case PBF_DYNAMIC_SLICE_SIZES: set_ints(a, p->dynamic_slice_sizes, p->n_dynamic_slice_sizes); break;
	case PBF_FFT_LENGTH: set_ints(a, p->fft_length, p->n_fft_length); break;
	case PBF_GATHER_SLICE_SIZES: set_ints(a, p->gather_slice_sizes, p->n_gather_slice_sizes); break;
	case PBF_DOT_LC: if (dd) set_ints(a, dd->lhs_contracting_dimensions, dd->n_lhs_contracting_dimensions); break;
	case PBF_DOT_RC: if (dd) set_ints(a, dd->rhs_contracting_dimensions, dd->n_rhs_contracting_dimensions); break;
	case PBF_DOT_LB: if (dd) set_ints(a, dd->lhs_batch_dimensions, dd->n_lhs_batch_dimensions); break;
	case PBF_DOT_RB: if (dd) set_ints(a, dd->rhs_batch_dimensions, dd->n_rhs_batch_dimensions); break;
	case PBF_RAGGED_L: if (rg) set_ints(a, rg->lhs_ragged_dimensions, rg->n_lhs_ragged_dimensions); break;
	case PBF_RAGGED_R: if (rg) set_ints(a, rg->rhs_group_dimensions, rg->n_rhs_group_dimensions); break;
	case PBF_G_OFFSET: if (g) set_ints(a, g->offset_dims, g->n_offset_dims); break;
	case PBF_G_COLLAPSED: if (g) set_ints(a, g->collapsed_slice_dims, g->n_collapsed_slice_dims); break;
	case PBF_G_START_MAP: if (g) set_ints(a, g->start_index_map, g->n_start_index_map); break;
	case PBF_G_OBD: if (g) set_ints(a, g->operand_batching_dims, g->n_operand_batching_dims); break;
	case PBF_G_SIBD: if (g) set_ints(a, g->start_indices_batching_dims, g->n_start_indices_batching_dims); break;
	case PBF_S_UWD: if (sc) set_ints(a, sc->update_window_dims, sc->n_update_window_dims); break;
	case PBF_S_IWD: if (sc) set_ints(a, sc->inserted_window_dims, sc->n_inserted_window_dims); break;
	case PBF_S_SDOD: if (sc) set_ints(a, sc->scatter_dims_to_operand_dims, sc->n_scatter_dims_to_operand_dims); break;
	case PBF_S_IBD: if (sc) set_ints(a, sc->input_batching_dims, sc->n_input_batching_dims); break;
	case PBF_S_SIBD: if (sc) set_ints(a, sc->scatter_indices_batching_dims, sc->n_scatter_indices_batching_dims); break;
	case PBF_IVD: a->v.i = g ? g->index_vector_dim : sc ? sc->index_vector_dim : 0; break;
	case PBF_IS_STABLE: a->v.i = p->is_stable; break;
	case PBF_CONSTRAIN_LAYOUT: a->v.i = p->constrain_layout; break;
	case PBF_USE_GLOBAL_DEVICE_IDS: a->v.i = p->use_global_device_ids; break;
	case PBF_INDICES_SORTED: a->v.i = p->indices_are_sorted; break;
	case PBF_UNIQUE_INDICES: a->v.i = p->unique_indices; break;
	case PBF_IS_HOST_TRANSFER: a->v.i = p->is_host_transfer; break;
	case PBF_CC_SIDE_EFFECT: a->v.i = p->custom_call_has_side_effect; break;
	case PBF_LARGEST: a->v.i = p->largest; break;
	case PBF_IS_COMPOSITE: a->v.i = p->is_composite; break;
	case PBF_IS_REVERSE: a->v.i = p->is_reverse; break;
	case PBF_HAS_DYNAMIC_ROOT: a->v.i = p->has_dynamic_root; break;
	case PBF_IS_ASSOCIATIVE: a->v.i = p->is_associative; break;
	case PBF_CC_TARGET: {
		const char *s = p->custom_call_target ? p->custom_call_target : "";
		a->v.text = escaped(R, s, strlen(s));
		break;
	}
	case PBF_ASYNC_THREAD: {
		const char *s = p->async_execution_thread ? p->async_execution_thread : "";
		a->v.text = escaped(R, s, strlen(s));
		break;
	}
	case PBF_INFEED_CONFIG:
		a->v.text = escaped(R, (const char *)p->infeed_config.data, p->infeed_config.len);
		break;
	case PBF_OUTFEED_CONFIG:
		a->v.text = escaped(R, (const char *)p->outfeed_config.data, p->outfeed_config.len);
		break;
	case PBF_DIRECTION: a->v.text = rintern(R, p->comparison_direction); break;
	case PBF_CMP_TYPE: a->v.text = rintern(R, p->comparison_type); break;
	case PBF_FUSION_KIND: a->v.text = rintern(R, p->fusion_kind); break;
	case PBF_FFT_TYPE:
		a->v.text = rintern(R, (unsigned)p->fft_type < 4 ? fft_names[p->fft_type] : "FFT");
		break;
	case PBF_DISTRIBUTION:
		a->v.text = rintern(R, (unsigned)p->distribution < 3 ? dist_names[p->distribution] : "rng_invalid");
		break;
	case PBF_SLICE: {
		size_t n = p->n_slice_dimensions;
		int64_t *v = ralloc(R, 3 * n * sizeof *v);
		if (!v)
			return true;
		for (size_t k = 0; k < n; k++) {
			v[3 * k] = p->slice_dimensions[k]->start;
			v[3 * k + 1] = p->slice_dimensions[k]->limit;
			v[3 * k + 2] = p->slice_dimensions[k]->stride;
		}
		set_ints(a, v, n);
		break;
	}
	case PBF_PADDING: {
		size_t n = p->padding_config ? p->padding_config->n_dimensions : 0;
		int64_t *v = ralloc(R, 3 * n * sizeof *v);
		if (!v)
			return true;
		for (size_t k = 0; k < n; k++) {
			const Xla__PaddingConfig__PaddingConfigDimension *pd = p->padding_config->dimensions[k];
			v[3 * k] = pd->edge_padding_low;
			v[3 * k + 1] = pd->edge_padding_high;
			v[3 * k + 2] = pd->interior_padding;
		}
		set_ints(a, v, n);
		break;
	}
	default:
		break;
	}
	if ((a->kind == HILO_ATTR_INTS || a->kind == HILO_ATTR_SLICE || a->kind == HILO_ATTR_PADDING) && !a->v.ints)
		a->v.ints = (int64_t *)nz(NULL);
	return true;
}

static void attr_from_ext(reader *R, hilo_instr *i, const Xla__HiloAttr *h)
{
	if (h->kind < HILO_ATTR_RAW || h->kind > HILO_ATTR_METADATA ||
	    h->kind == HILO_ATTR_CONTROL || h->kind == HILO_ATTR_METADATA) {
		rerr(R, "instruction '%s': attribute '%s' has invalid kind %d", i->name, h->key, h->kind);
		return;
	}
	hilo_attr_kind kind = (hilo_attr_kind)h->kind;
	hilo_attr *a = append_attr(R, i, h->key, kind);
	if (!a)
		return;
	switch (kind) {
	case HILO_ATTR_RAW: case HILO_ATTR_STRING: case HILO_ATTR_ENUM:
		a->v.text = rintern(R, h->text);
		break;
	case HILO_ATTR_INTS:
		set_ints(a, h->ints ? h->ints : (int64_t *)nz(NULL), h->n_ints);
		break;
	case HILO_ATTR_SLICE: case HILO_ATTR_PADDING:
		if (h->n_ints % 3) {
			rerr(R, "instruction '%s': attribute '%s' needs triples", i->name, h->key);
			return;
		}
		set_ints(a, h->ints ? h->ints : (int64_t *)nz(NULL), h->n_ints / 3);
		break;
	case HILO_ATTR_COMP:
		if (h->i < 0 || (uint64_t)h->i >= i->ncalled) {
			rerr(R, "instruction '%s': attribute '%s' names called computation %lld of %u",
				i->name, h->key, (long long)h->i, i->ncalled);
			return;
		}
		a->v.i = h->i;
		break;
	case HILO_ATTR_COMPS:
		if (h->i < 0 || h->n < 0 || (uint64_t)h->i + (uint64_t)h->n > i->ncalled) {
			rerr(R, "instruction '%s': attribute '%s' names called computations past the %u it has",
				i->name, h->key, i->ncalled);
			return;
		}
		a->v.i = h->i;
		a->n = h->n;
		break;
	default:
		a->v.i = h->i;
		break;
	}
}

/* Attributes of a proto hilo did not write: derived from the typed
 * fields in XLA's print order (best effort). */
static void attrs_foreign(reader *R, hilo_instr *i, const Xla__HloInstructionProto *p)
{
	hilo_opcode op = i->op;
	const hilo_attr_id *keys;
	static const hilo_attr_id none[] = {HILO_A_UNKNOWN};
	static const hilo_attr_id k_gte[] = {HILO_A_INDEX, HILO_A_UNKNOWN};
	static const hilo_attr_id k_dims[] = {HILO_A_DIMENSIONS, HILO_A_UNKNOWN};
	static const hilo_attr_id k_iota[] = {HILO_A_IOTA_DIMENSION, HILO_A_UNKNOWN};
	static const hilo_attr_id k_slice[] = {HILO_A_SLICE, HILO_A_UNKNOWN};
	static const hilo_attr_id k_pad[] = {HILO_A_PADDING, HILO_A_UNKNOWN};
	static const hilo_attr_id k_cmp[] = {HILO_A_DIRECTION, HILO_A_TYPE, HILO_A_UNKNOWN};
	static const hilo_attr_id k_ds[] = {HILO_A_DYNAMIC_SLICE_SIZES, HILO_A_UNKNOWN};
	static const hilo_attr_id k_dot[] = {HILO_A_LHS_BATCH_DIMS, HILO_A_LHS_CONTRACTING_DIMS,
		HILO_A_RHS_BATCH_DIMS, HILO_A_RHS_CONTRACTING_DIMS, HILO_A_UNKNOWN};
	static const hilo_attr_id k_gather[] = {HILO_A_OFFSET_DIMS, HILO_A_COLLAPSED_SLICE_DIMS,
		HILO_A_START_INDEX_MAP, HILO_A_OPERAND_BATCHING_DIMS, HILO_A_START_INDICES_BATCHING_DIMS,
		HILO_A_INDEX_VECTOR_DIM, HILO_A_SLICE_SIZES, HILO_A_INDICES_ARE_SORTED, HILO_A_UNKNOWN};
	static const hilo_attr_id k_scatter[] = {HILO_A_UPDATE_WINDOW_DIMS, HILO_A_INSERTED_WINDOW_DIMS,
		HILO_A_SCATTER_DIMS_TO_OPERAND_DIMS, HILO_A_INPUT_BATCHING_DIMS,
		HILO_A_SCATTER_INDICES_BATCHING_DIMS, HILO_A_INDEX_VECTOR_DIM, HILO_A_INDICES_ARE_SORTED,
		HILO_A_UNIQUE_INDICES, HILO_A_UNKNOWN};
	static const hilo_attr_id k_cc[] = {HILO_A_CUSTOM_CALL_TARGET, HILO_A_UNKNOWN};
	static const hilo_attr_id k_fusion[] = {HILO_A_KIND, HILO_A_UNKNOWN};
	switch (op) {
	case HILO_OP_GET_TUPLE_ELEMENT: keys = k_gte; break;
	case HILO_OP_BROADCAST: case HILO_OP_TRANSPOSE: case HILO_OP_REDUCE:
	case HILO_OP_REVERSE: case HILO_OP_CONCATENATE:
		keys = k_dims; break;
	case HILO_OP_IOTA: keys = k_iota; break;
	case HILO_OP_SLICE: keys = k_slice; break;
	case HILO_OP_PAD: keys = k_pad; break;
	case HILO_OP_COMPARE: keys = k_cmp; break;
	case HILO_OP_DYNAMIC_SLICE: keys = k_ds; break;
	case HILO_OP_DOT: keys = k_dot; break;
	case HILO_OP_GATHER: keys = k_gather; break;
	case HILO_OP_SCATTER: keys = k_scatter; break;
	case HILO_OP_CUSTOM_CALL: keys = k_cc; break;
	case HILO_OP_FUSION: keys = k_fusion; break;
	default: keys = none; break;
	}
	const pb_attr_def *def;
	for (int k = 0; keys[k] != HILO_A_UNKNOWN; k++) {
		def = pb_attr_def_of(keys[k]);
		bool present = true;
		if (def->kind == HILO_ATTR_BOOL) {
			present = (def->field == PBF_INDICES_SORTED && p->indices_are_sorted) ||
			          (def->field == PBF_UNIQUE_INDICES && p->unique_indices);
		} else if (def->field == PBF_CMP_TYPE) {
			present = p->comparison_type && *p->comparison_type;
		} else if (def->field == PBF_G_OBD || def->field == PBF_G_SIBD) {
			present = p->gather_dimension_numbers &&
				(def->field == PBF_G_OBD ? p->gather_dimension_numbers->n_operand_batching_dims
				 : p->gather_dimension_numbers->n_start_indices_batching_dims);
		} else if (def->field == PBF_S_IBD || def->field == PBF_S_SIBD) {
			present = p->scatter_dimension_numbers &&
				(def->field == PBF_S_IBD ? p->scatter_dimension_numbers->n_input_batching_dims
				 : p->scatter_dimension_numbers->n_scatter_indices_batching_dims);
		} else if (def->field == PBF_DOT_LB || def->field == PBF_DOT_RB) {
			const Xla__DotDimensionNumbers *dd = p->dot_dimension_numbers;
			present = dd && (def->field == PBF_DOT_LB ? dd->n_lhs_batch_dimensions : dd->n_rhs_batch_dimensions);
		}
		if (present)
			attr_from_typed(R, i, p, keys[k]);
	}
	if (p->window)
		attr_from_typed(R, i, p, HILO_A_WINDOW);
	if (p->convolution_dimension_numbers)
		attr_from_typed(R, i, p, HILO_A_DIM_LABELS);
	if (p->channel_id)
		attr_from_typed(R, i, p, HILO_A_CHANNEL_ID);
	bool coll = (hilo_opcode_flags(op) & HILO_OPF_COLL) != 0;
	if (p->n_replica_groups || p->collective_device_list || coll)
		attr_from_typed(R, i, p, HILO_A_REPLICA_GROUPS);
	if (p->n_dimensions && !hilo_instr_attr(i, HILO_A_DIMENSIONS) && op != HILO_OP_IOTA)
		attr_from_typed(R, i, p, HILO_A_DIMENSIONS);
	if (p->constrain_layout)
		attr_from_typed(R, i, p, HILO_A_CONSTRAIN_LAYOUT);
	if (p->use_global_device_ids)
		attr_from_typed(R, i, p, HILO_A_USE_GLOBAL_DEVICE_IDS);
	if (p->is_host_transfer)
		attr_from_typed(R, i, p, HILO_A_IS_HOST_TRANSFER);
	if (p->is_stable)
		attr_from_typed(R, i, p, HILO_A_IS_STABLE);
	if (p->n_source_target_pairs)
		attr_from_typed(R, i, p, HILO_A_SOURCE_TARGET_PAIRS);
	/* called computations */
	if (i->ncalled) {
		hilo_attr *a = NULL;
		if (op == HILO_OP_WHILE && i->ncalled == 2) {
			if ((a = append_known(R, i, HILO_A_CONDITION, HILO_ATTR_COMP)))
				a->v.i = 0;
			if ((a = append_known(R, i, HILO_A_BODY, HILO_ATTR_COMP)))
				a->v.i = 1;
		} else if (op == HILO_OP_CONDITIONAL || (op == HILO_OP_CUSTOM_CALL && i->ncalled > 1)) {
			if ((a = append_known(R, i, op == HILO_OP_CONDITIONAL ? HILO_A_BRANCH_COMPUTATIONS
			                                 : HILO_A_CALLED_COMPUTATIONS, HILO_ATTR_COMPS))) {
				a->v.i = 0;
				a->n = (int)i->ncalled;
			}
		} else if (op == HILO_OP_SELECT_AND_SCATTER && i->ncalled == 2) {
			if ((a = append_known(R, i, HILO_A_SELECT, HILO_ATTR_COMP)))
				a->v.i = 0;
			if ((a = append_known(R, i, HILO_A_SCATTER, HILO_ATTR_COMP)))
				a->v.i = 1;
		} else if (i->ncalled == 1) {
			hilo_attr_id id = op == HILO_OP_FUSION || op == HILO_OP_ASYNC_START ? HILO_A_CALLS
			                                                                    : HILO_A_TO_APPLY;
			if ((a = append_known(R, i, id, HILO_ATTR_COMP)))
				a->v.i = 0;
		}
	}
	if (p->custom_call_has_side_effect)
		attr_from_typed(R, i, p, HILO_A_CUSTOM_CALL_HAS_SIDE_EFFECT);
	if (op == HILO_OP_BATCH_NORM_TRAINING || op == HILO_OP_BATCH_NORM_INFERENCE ||
	    op == HILO_OP_BATCH_NORM_GRAD) {
		attr_from_typed(R, i, p, HILO_A_EPSILON);
		attr_from_typed(R, i, p, HILO_A_FEATURE_INDEX);
	}
	if (p->precision_config && p->precision_config->n_operand_precision)
		attr_from_typed(R, i, p, HILO_A_OPERAND_PRECISION);
	if (op == HILO_OP_CUSTOM_CALL && p->custom_call_api_version)
		attr_from_typed(R, i, p, HILO_A_API_VERSION);
	if (p->sharding)
		attr_from_typed(R, i, p, HILO_A_SHARDING);
	if (p->frontend_attributes && p->frontend_attributes->n_map)
		attr_from_typed(R, i, p, HILO_A_FRONTEND_ATTRIBUTES);
	if (i->nctrl_preds)
		append_known(R, i, HILO_A_CONTROL_PREDECESSORS, HILO_ATTR_CONTROL);
	if (i->metadata && i->metadata->n)
		append_known(R, i, HILO_A_METADATA, HILO_ATTR_METADATA);
	if (p->backend_config.len && !memchr(p->backend_config.data, 0, p->backend_config.len))
		attr_from_typed(R, i, p, HILO_A_BACKEND_CONFIG);
}

static void read_metadata(reader *R, hilo_instr *i, const Xla__OpMetadata *md)
{
	hilo_metadata *h = ralloc(R, sizeof *h);
	if (!h)
		return;
	if (md->n_hilo_entries) {
		if (md->n_hilo_entries > 4096) {
			rerr(R, "instruction '%s': too many metadata entries", i->name);
			return;
		}
		h->n = (int)md->n_hilo_entries;
		h->e = ralloc(R, (md->n_hilo_entries + 1) * sizeof *h->e);
		if (!h->e)
			return;
		for (size_t k = 0; k < md->n_hilo_entries; k++) {
			h->e[k].key = rintern(R, md->hilo_entries[k]->key);
			h->e[k].value = hilo_arena_strdup(R->m->arena,
				md->hilo_entries[k]->value ? md->hilo_entries[k]->value : "");
		}
	} else {
		hilo_md_entry tmp[32];
		int n = pb_md_entries(R->m->arena, md, tmp, 32);
		h->n = n;
		h->e = ralloc(R, (size_t)(n + 1) * sizeof *h->e);
		if (!h->e)
			return;
		for (int k = 0; k < n; k++) {
			h->e[k].key = rintern(R, tmp[k].key);
			h->e[k].value = tmp[k].value;
		}
	}
	i->metadata = h;
}

/* ---- computations ---- */

typedef struct comp_rec {
	const Xla__HloComputationProto *p;
	hilo_comp *c;
	hilo_instr **instrs;   /* in proto order */
	idmap ids;
} comp_rec;

static bool build_instrs(reader *R, comp_rec *cr)
{
	const Xla__HloComputationProto *p = cr->p;
	hilo_module *m = R->m;
	hilo_comp *c = cr->c;
	if (!p->n_instructions) {
		rerr(R, "computation '%s' has no instructions", c->name);
		return false;
	}
	cr->instrs = ralloc(R, p->n_instructions * sizeof *cr->instrs);
	if (!cr->instrs || !idmap_init(R, &cr->ids, p->n_instructions))
		return false;
	for (size_t k = 0; k < p->n_instructions; k++) {
		const Xla__HloInstructionProto *ip = p->instructions[k];
		char what[300];
		snprintf(what, sizeof what, "instruction %zu of computation '%s'", k, c->name);
		const char *opname = ip->opcode ? ip->opcode : "";
		hilo_opcode op = hilo_opcode_lookup(opname, strlen(opname));
		if (op == HILO_OP_COUNT) {
			rerr(R, "%s: unknown opcode '%s'", what, opname);
			return false;
		}
		hilo_shape *shape = shape_from(R, ip->shape, 0, what);
		if (!shape)
			return false;
		hilo_instr *i = ralloc(R, sizeof *i);
		if (!i)
			return false;
		i->op = op;
		i->async_op = HILO_OP_COUNT;
		if (ip->hilo_async_op && *ip->hilo_async_op) {
			hilo_opcode w = hilo_opcode_lookup(ip->hilo_async_op, strlen(ip->hilo_async_op));
			if (w == HILO_OP_COUNT || (op != HILO_OP_ASYNC_START && op != HILO_OP_ASYNC_UPDATE &&
			                           op != HILO_OP_ASYNC_DONE)) {
				rerr(R, "%s: bad async wrapped opcode '%s'", what, ip->hilo_async_op);
				return false;
			}
			i->async_op = w;
		}
		i->id = m->next_id++;
		i->shape = shape;
		/* names: as given, else as XLA names unnamed instructions */
		const char *name = ip->name && *ip->name ? ip->name : NULL;
		char buf[64];
		if (!name) {
			snprintf(buf, sizeof buf, "%s.%lld", hilo_opcode_name(op), (long long)ip->id);
			name = buf;
		}
		const char *in = rintern(R, name);
		for (const char *q = in; *q; q++)
			if ((unsigned char)*q <= ' ' || *q == ',' || *q == '(' || *q == ')' || *q == '=' ||
			    *q == '{' || *q == '}' || *q == '%') {
				rerr(R, "%s: instruction name '%s' cannot be printed", what, in);
				return false;
			}
		i->name = in;
		hilo_module_claim_name(m, in);
		if (ip->hilo_comment && *ip->hilo_comment)
			i->comment = hilo_arena_strdup(m->arena, ip->hilo_comment);
		if (!idmap_put(&cr->ids, ip->id, i)) {
			rerr(R, "%s ('%s'): duplicate instruction id %lld", what, in, (long long)ip->id);
			return false;
		}
		if (op == HILO_OP_PARAMETER) {
			if (ip->parameter_number < 0 || ip->parameter_number > 1000000) {
				rerr(R, "%s ('%s'): parameter number %lld out of range", what, in,
					(long long)ip->parameter_number);
				return false;
			}
			i->param_no = ip->parameter_number;
			if ((uint64_t)i->param_no < c->nparams && c->params[i->param_no]) {
				rerr(R, "computation '%s': duplicate parameter number %lld", c->name,
					(long long)i->param_no);
				return false;
			}
			hilo_comp_add_param(m, c, i);
		}
		if (op == HILO_OP_CONSTANT) {
			if (!ip->literal) {
				rerr(R, "%s ('%s'): constant without a literal", what, in);
				return false;
			}
			if (!(i->literal = literal_from(R, ip->literal, shape, 0, what)))
				return false;
		}
		if (ip->metadata)
			read_metadata(R, i, ip->metadata);
		hilo_comp_append(c, i);
		cr->instrs[k] = i;
		if (R->failed)
			return false;
	}
	for (uint32_t k = 0; k < c->nparams; k++)
		if (!c->params[k]) {
			rerr(R, "computation '%s' is missing parameter %u", c->name, k);
			return false;
		}
	hilo_instr *root = idmap_get(&cr->ids, p->root_id);
	if (!root) {
		rerr(R, "computation '%s': root id %lld is not one of its instructions", c->name,
			(long long)p->root_id);
		return false;
	}
	hilo_comp_set_root(c, root);
	return true;
}

static bool wire_instrs(reader *R, comp_rec *cr, const idmap *comps, bool own)
{
	const Xla__HloComputationProto *p = cr->p;
	hilo_module *m = R->m;
	for (size_t k = 0; k < p->n_instructions; k++) {
		const Xla__HloInstructionProto *ip = p->instructions[k];
		hilo_instr *i = cr->instrs[k];
		if (ip->n_operand_ids > 1000000 || ip->n_called_computation_ids > 100000) {
			rerr(R, "instruction '%s': too many operands", i->name);
			return false;
		}
		if (!hilo_opcode_operands_ok(i->op, (uint32_t)ip->n_operand_ids) &&
		    i->async_op == HILO_OP_COUNT) {
			rerr(R, "instruction '%s' in '%s': %s takes %d operands, not %zu", i->name,
				cr->c->name, hilo_opcode_name(i->op), hilo_opcode_arity(i->op), ip->n_operand_ids);
			return false;
		}
		for (size_t j = 0; j < ip->n_operand_ids; j++) {
			hilo_instr *o = idmap_get(&cr->ids, ip->operand_ids[j]);
			if (!o) {
				rerr(R, "instruction '%s' in '%s': operand %zu has id %lld, which is not in the computation",
					i->name, cr->c->name, j, (long long)ip->operand_ids[j]);
				return false;
			}
			hilo_instr_add_operand(m, i, o);
		}
		for (size_t j = 0; j < ip->n_control_predecessor_ids; j++) {
			hilo_instr *o = idmap_get(&cr->ids, ip->control_predecessor_ids[j]);
			if (!o) {
				rerr(R, "instruction '%s': control predecessor id %lld is not in the computation",
					i->name, (long long)ip->control_predecessor_ids[j]);
				return false;
			}
			i->ctrl_preds = hilo_arena_grow(m->arena, i->ctrl_preds, i->nctrl_preds, i->nctrl_preds + 1, sizeof(hilo_instr *));
			i->ctrl_preds[i->nctrl_preds++] = o;
			i->cap_ctrl_preds = i->nctrl_preds;
			o->ctrl_succs = hilo_arena_grow(m->arena, o->ctrl_succs, o->nctrl_succs, o->nctrl_succs + 1, sizeof(hilo_instr *));
			o->ctrl_succs[o->nctrl_succs++] = i;
			o->cap_ctrl_succs = o->nctrl_succs;
		}
		size_t nc = ip->n_called_computation_ids;
		for (size_t j = 0; j < nc; j++) {
			/* a while's proto order is {body, condition}; the IR's is text order */
			size_t src = j;
			bool swap = i->op == HILO_OP_WHILE && nc == 2;
			if (swap)
				src = 1 - j;
			comp_rec *callee = idmap_get(comps, ip->called_computation_ids[src]);
			if (!callee) {
				rerr(R, "instruction '%s': called computation id %lld does not exist",
					i->name, (long long)ip->called_computation_ids[src]);
				return false;
			}
			hilo_instr_add_called(m, i, callee->c);
		}
		if (own || ip->n_hilo_attr_order) {
			for (size_t j = 0; j < ip->n_hilo_attr_order && !R->failed; j++) {
				const char *key = ip->hilo_attr_order[j];
				hilo_attr_id id = hilo_attr_lookup(key, strlen(key));
				if (id == HILO_A_METADATA) {
					if (i->metadata)
						append_known(R, i, id, HILO_ATTR_METADATA);
					continue;
				}
				if (id == HILO_A_CONTROL_PREDECESSORS) {
					append_known(R, i, id, HILO_ATTR_CONTROL);
					continue;
				}
				const Xla__HiloAttr *h = NULL;
				for (size_t q = 0; q < ip->n_hilo_attrs && !h; q++)
					if (ip->hilo_attrs[q]->key && !strcmp(ip->hilo_attrs[q]->key, key))
						h = ip->hilo_attrs[q];
				if (h)
					attr_from_ext(R, i, h);
				else
					attr_from_typed(R, i, ip, id);
			}
		} else {
			attrs_foreign(R, i, ip);
		}
		if (i->nctrl_preds && !hilo_instr_attr(i, HILO_A_CONTROL_PREDECESSORS))
			append_known(R, i, HILO_A_CONTROL_PREDECESSORS, HILO_ATTR_CONTROL);
		if (R->failed)
			return false;
	}
	return true;
}

/* Operands and control predecessors must form a DAG. */
static bool check_acyclic(reader *R, hilo_comp *c)
{
	uint32_t n = c->ninstrs, sp = 0;
	hilo_instr **stack = hilo_heap_alloc(R->m->arena, (size_t)(n + 1) * sizeof *stack);
	uint32_t *pos = hilo_heap_alloc(R->m->arena, (size_t)(n + 1) * sizeof *pos);
	if (!stack || !pos) {
		hilo_heap_free(R->m->arena, stack);
		hilo_heap_free(R->m->arena, pos);
		rerr(R, "out of memory");
		return false;
	}
	bool ok = true;
	for (hilo_instr *i = c->first; i; i = i->next)
		i->mark = 0; /* 0 new, 1 on stack, 2 done */
	for (hilo_instr *s = c->first; s && ok; s = s->next) {
		if (s->mark)
			continue;
		stack[sp] = s;
		pos[sp++] = 0;
		s->mark = 1;
		while (sp && ok) {
			hilo_instr *i = stack[sp - 1];
			uint32_t k = pos[sp - 1]++;
			uint32_t deg = i->noperands + i->nctrl_preds;
			if (k >= deg) {
				i->mark = 2;
				sp--;
				continue;
			}
			hilo_instr *o = k < i->noperands ? i->operands[k] : i->ctrl_preds[k - i->noperands];
			if (o->mark == 1) {
				rerr(R, "computation '%s': instruction '%s' depends on itself (cycle through '%s')",
					c->name, o->name, i->name);
				ok = false;
			} else if (!o->mark) {
				o->mark = 1;
				stack[sp] = o;
				pos[sp++] = 0;
			}
		}
	}
	for (hilo_instr *i = c->first; i; i = i->next)
		i->mark = 0;
	hilo_heap_free(R->m->arena, stack);
	hilo_heap_free(R->m->arena, pos);
	return ok;
}

static bool check_call_graph(reader *R, comp_rec *recs, size_t n)
{
	/* flat callee lists (computation indices), then an iterative DFS;
	 * mark 1 = on the stack, 2 = done */
	hilo_ptrmap idx;
	hilo_ptrmap_init_in(&idx, R->m->arena);
	size_t total = 0;
	bool ok = true;
	for (size_t k = 0; k < n && ok; k++) {
		recs[k].c->mark = 0;
		ok = hilo_ptrmap_put(&idx, recs[k].c, (void *)(uintptr_t)(k + 1));
		for (size_t j = 0; j < recs[k].p->n_instructions; j++)
			total += recs[k].instrs[j]->ncalled;
	}
	size_t *first = hilo_heap_alloc(R->m->arena, (n + 1) * sizeof *first);
	size_t *callee = hilo_heap_alloc(R->m->arena, (total + 1) * sizeof *callee);
	size_t *stack = hilo_heap_alloc(R->m->arena, (n + 1) * sizeof *stack);
	size_t *pos = hilo_heap_alloc(R->m->arena, (n + 1) * sizeof *pos);
	ok = ok && first && callee && stack && pos;
	if (!ok)
		rerr(R, "out of memory");
	size_t t = 0;
	for (size_t k = 0; k < n && ok; k++) {
		first[k] = t;
		for (size_t j = 0; j < recs[k].p->n_instructions; j++) {
			const hilo_instr *i = recs[k].instrs[j];
			for (uint32_t q = 0; q < i->ncalled; q++)
				callee[t++] = (size_t)(uintptr_t)hilo_ptrmap_get(&idx, i->called[q]) - 1;
		}
	}
	if (ok)
		first[n] = t;
	for (size_t s = 0; s < n && ok; s++) {
		if (recs[s].c->mark)
			continue;
		size_t sp = 0;
		stack[sp] = s;
		pos[sp++] = first[s];
		recs[s].c->mark = 1;
		while (sp && ok) {
			size_t r = stack[sp - 1];
			if (pos[sp - 1] >= first[r + 1]) {
				recs[r].c->mark = 2;
				sp--;
				continue;
			}
			size_t ce = callee[pos[sp - 1]++];
			hilo_comp *cc = recs[ce].c;
			if (cc->mark == 1) {
				rerr(R, "computation '%s' calls itself (through '%s')", cc->name, recs[r].c->name);
				ok = false;
			} else if (!cc->mark) {
				cc->mark = 1;
				stack[sp] = ce;
				pos[sp++] = first[ce];
			}
		}
	}
	for (size_t k = 0; k < n; k++)
		recs[k].c->mark = 0;
	hilo_ptrmap_free(&idx);
	hilo_heap_free(R->m->arena, first);
	hilo_heap_free(R->m->arena, callee);
	hilo_heap_free(R->m->arena, stack);
	hilo_heap_free(R->m->arena, pos);
	return ok;
}

/* ---- module ---- */

/* Unknown fields of the module, computation and instruction messages. */
static void keep_unknown(reader *R, const Xla__HloModuleProto *mp, comp_rec *recs)
{
	size_t ncomp = 0, ninstr = 0;
	for (size_t k = 0; k < mp->n_computations; k++) {
		const Xla__HloComputationProto *cp = recs[k].p;
		ncomp += cp->base.n_unknown_fields != 0;
		for (size_t j = 0; j < cp->n_instructions; j++)
			ninstr += cp->instructions[j]->base.n_unknown_fields != 0;
	}
	if (!ncomp && !ninstr && !mp->base.n_unknown_fields)
		return;
	pb_extra *x = ralloc(R, sizeof *x);
	if (!x)
		return;
	x->module.n = mp->base.n_unknown_fields;
	x->module.f = mp->base.unknown_fields;
	x->ninstr = R->m->next_id;
	x->instr = ralloc(R, (size_t)x->ninstr * sizeof *x->instr);
	x->comp = ralloc(R, (ncomp + 1) * sizeof *x->comp);
	x->comp_f = ralloc(R, (ncomp + 1) * sizeof *x->comp_f);
	if (!x->instr || !x->comp || !x->comp_f)
		return;
	for (size_t k = 0; k < mp->n_computations; k++) {
		const Xla__HloComputationProto *cp = recs[k].p;
		if (cp->base.n_unknown_fields) {
			x->comp[x->ncomp] = recs[k].c;
			x->comp_f[x->ncomp].n = cp->base.n_unknown_fields;
			x->comp_f[x->ncomp++].f = cp->base.unknown_fields;
		}
		for (size_t j = 0; j < cp->n_instructions; j++) {
			const Xla__HloInstructionProto *ip = cp->instructions[j];
			if (ip->base.n_unknown_fields && recs[k].instrs[j]->id < x->ninstr) {
				x->instr[recs[k].instrs[j]->id].n = ip->base.n_unknown_fields;
				x->instr[recs[k].instrs[j]->id].f = ip->base.unknown_fields;
			}
		}
	}
	R->m->proto_extra = x;
}

static bool build_module(reader *R, const Xla__HloModuleProto *mp)
{
	hilo_module *m = R->m;
	if (!mp->n_computations) {
		rerr(R, "the module has no computations");
		return false;
	}
	m->name = rintern(R, mp->name && *mp->name ? mp->name : "module");
	comp_rec *recs = ralloc(R, mp->n_computations * sizeof *recs);
	idmap comps;
	if (!recs || !idmap_init(R, &comps, mp->n_computations))
		return false;
	hilo_ptrmap names;
	hilo_ptrmap_init_in(&names, R->m->arena);
	for (size_t k = 0; k < mp->n_computations && !R->failed; k++) {
		const Xla__HloComputationProto *cp = mp->computations[k];
		char buf[64];
		const char *name = cp->name && *cp->name ? cp->name : NULL;
		if (!name) {
			snprintf(buf, sizeof buf, "computation.%lld", (long long)cp->id);
			name = buf;
		}
		hilo_comp *c = hilo_comp_create(m, name);
		if (!c || !c->name) {
			rerr(R, "out of memory");
			break;
		}
		if (hilo_ptrmap_get(&names, c->name)) {
			rerr(R, "computation '%s' appears twice", c->name);
			break;
		}
		hilo_ptrmap_put(&names, c->name, c);
		c->print_signature = cp->hilo_print_signature;
		if (cp->hilo_gap_before && *cp->hilo_gap_before)
			c->gap_before = hilo_arena_strdup(m->arena, cp->hilo_gap_before);
		if (cp->hilo_has_execution_thread || (cp->execution_thread && *cp->execution_thread &&
		    strcmp(cp->execution_thread, "main")))
			c->execution_thread = rintern(R, cp->execution_thread);
		recs[k].p = cp;
		recs[k].c = c;
		if (!idmap_put(&comps, cp->id, &recs[k])) {
			rerr(R, "computation '%s': duplicate computation id %lld", c->name, (long long)cp->id);
			break;
		}
		hilo_module_add_comp(m, c, NULL);
	}
	hilo_ptrmap_free(&names);
	if (R->failed)
		return false;
	for (size_t k = 0; k < mp->n_computations; k++)
		if (!build_instrs(R, &recs[k]))
			return false;
	for (size_t k = 0; k < mp->n_computations; k++)
		if (!wire_instrs(R, &recs[k], &comps, mp->hilo_written) || !check_acyclic(R, recs[k].c))
			return false;
	if (!check_call_graph(R, recs, mp->n_computations))
		return false;
	/* entry: by id, else by name, else the last computation */
	comp_rec *e = idmap_get(&comps, mp->entry_computation_id);
	if (mp->entry_computation_name && *mp->entry_computation_name &&
	    (!e || strcmp(e->c->name, mp->entry_computation_name))) {
		comp_rec *byname = NULL;
		for (size_t k = 0; k < mp->n_computations; k++)
			if (!strcmp(recs[k].c->name, mp->entry_computation_name))
				byname = &recs[k];
		if (!byname && !e) {
			rerr(R, "entry computation '%s' does not exist", mp->entry_computation_name);
			return false;
		}
		if (byname)
			e = byname;
	}
	m->entry = e ? e->c : recs[mp->n_computations - 1].c;
	m->entry->is_entry = true;
	m->entry_last_no_keyword = mp->hilo_entry_last_no_keyword;
	m->no_entry_layout = mp->hilo_no_entry_layout;
	m->no_final_newline = mp->hilo_no_final_newline;
	/* module attributes and text details */
	if (mp->n_hilo_module_attrs) {
		m->nattrs = (uint32_t)mp->n_hilo_module_attrs;
		m->attrs = ralloc(R, (mp->n_hilo_module_attrs + 1) * sizeof *m->attrs);
		if (!m->attrs)
			return false;
		for (size_t k = 0; k < mp->n_hilo_module_attrs; k++) {
			m->attrs[k].key = rintern(R, mp->hilo_module_attrs[k]->key);
			m->attrs[k].value = hilo_arena_strdup(m->arena,
				mp->hilo_module_attrs[k]->value ? mp->hilo_module_attrs[k]->value : "");
			if (mp->hilo_module_attrs[k]->sep && *mp->hilo_module_attrs[k]->sep)
				m->attrs[k].sep = hilo_arena_strdup(m->arena, mp->hilo_module_attrs[k]->sep);
		}
	}
	if (mp->hilo_header && *mp->hilo_header)
		m->header = hilo_arena_strdup(m->arena, mp->hilo_header);
	if (mp->hilo_has_gap)
		m->gap = hilo_arena_strdup(m->arena, mp->hilo_gap ? mp->hilo_gap : "");
	if (mp->hilo_has_trailer)
		m->trailer = hilo_arena_strdup(m->arena, mp->hilo_trailer ? mp->hilo_trailer : "");
	if (mp->hilo_stack_frames && *mp->hilo_stack_frames)
		m->stack_frames = hilo_arena_strdup(m->arena, mp->hilo_stack_frames);
	if (mp->hilo_style == HILO_STYLE_LONG || mp->hilo_style == HILO_STYLE_SHORT)
		m->style = (hilo_print_style)mp->hilo_style;
	keep_unknown(R, mp, recs);
	return !R->failed;
}

/* ---- entry points ---- */

/* Payload of field 1 when it is length-delimited, else NULL. */
static const uint8_t *field1(const uint8_t *p, size_t len, size_t *out)
{
	const uint8_t *end = p + len;
	const uint8_t *found = NULL;
	while (p < end) {
		uint64_t tag = 0, v = 0;
		int shift = 0;
		do {
			if (p >= end || shift > 63)
				return NULL;
			tag |= (uint64_t)(*p & 0x7f) << shift;
			shift += 7;
		} while (*p++ & 0x80);
		switch (tag & 7) {
		case 0:
			do {
				if (p >= end)
					return NULL;
			} while (*p++ & 0x80);
			break;
		case 1: if (end - p < 8) return NULL; p += 8; break;
		case 5: if (end - p < 4) return NULL; p += 4; break;
		case 2:
			shift = 0;
			do {
				if (p >= end || shift > 63)
					return NULL;
				v |= (uint64_t)(*p & 0x7f) << shift;
				shift += 7;
			} while (*p++ & 0x80);
			if (v > (uint64_t)(end - p))
				return NULL;
			if ((tag >> 3) == 1) {
				found = p;
				*out = (size_t)v;
			}
			p += v;
			break;
		default:
			return NULL;
		}
	}
	return found;
}

/* A wrapper's field 1 holds a message (starting with a field-1 string
 * tag); a module's field 1 is its name. */
static bool is_wrapper(const uint8_t *p, size_t len)
{
	size_t n;
	const uint8_t *f = field1(p, len, &n);
	if (!f || n == 0 || f[0] != 0x0a)
		return false;
	return pb_check_wire(f, n, NULL, 2) == NULL;
}

static bool read_module(hilo_module *m, const ProtobufCMessageDescriptor *desc,
	const char *kind, const uint8_t *p, size_t len, const char *filename, hilo_diags *d);
static hilo_module *read_guarded(const ProtobufCMessageDescriptor *desc,
	const char *kind, const uint8_t *p, size_t len, const char *filename, hilo_diags *d);

hilo_module *hilo_proto_read(const void *data, size_t len, const char *filename,
	hilo_diags *d)
{
	const uint8_t *p = data;
	const char *kind = "HloModuleProto";
	const ProtobufCMessageDescriptor *desc = &xla__hlo_module_proto__descriptor;
	if (is_wrapper(p, len)) {
		size_t n1;
		const uint8_t *f1 = field1(p, len, &n1);
		if (is_wrapper(f1, n1)) {
			kind = "HloSnapshot";
			desc = &xla__hlo_snapshot__descriptor;
		} else {
			kind = "HloProto";
			desc = &xla__hlo_proto__descriptor;
		}
	}
	const char *werr = pb_check_wire(p, len, desc, MAX_DEPTH);
	if (werr) {
		hilo_diag_add(d, HILO_SEV_ERROR, filename, 0, 0, NULL, 0,
			"not a valid binary %s: %s", kind, werr);
		return NULL;
	}
	return read_guarded(desc, kind, p, len, filename, d);
}

/* Creates the module and reads it under an out-of-memory guard. */
static hilo_module *read_guarded(const ProtobufCMessageDescriptor *desc,
	const char *kind, const uint8_t *p, size_t len, const char *filename, hilo_diags *d)
{
	hilo_module *m = hilo_module_create("module");
	if (!m) {
		hilo_diag_oom(d, filename);
		return NULL;
	}
	HILO_OOM_CATCH(g, m->arena) {
		hilo_module_destroy(m);
		hilo_diag_oom(d, filename);
		return NULL;
	}
	bool ok = read_module(m, desc, kind, p, len, filename, d);
	hilo_oom_end(&g);
	if (!ok) {
		hilo_module_destroy(m);
		return NULL;
	}
	return m;
}

/* Unpacks and builds into m; false (+ diagnostic) on bad input. */
static bool read_module(hilo_module *m, const ProtobufCMessageDescriptor *desc,
	const char *kind, const uint8_t *p, size_t len, const char *filename, hilo_diags *d)
{
	ProtobufCAllocator pa;
	pb_arena_allocator(&pa, m->arena);
	ProtobufCMessage *msg = protobuf_c_message_unpack(desc, &pa, len, p);
	if (!msg) {
		hilo_diag_add(d, HILO_SEV_ERROR, filename, 0, 0, NULL, 0,
			"not a valid binary %s (wrong field types or truncated data)", kind);
		return false;
	}
	const Xla__HloModuleProto *mp = NULL;
	if (desc == &xla__hlo_module_proto__descriptor) {
		mp = (const Xla__HloModuleProto *)msg;
	} else if (desc == &xla__hlo_proto__descriptor) {
		mp = ((const Xla__HloProto *)msg)->hlo_module;
	} else {
		const Xla__HloSnapshot *s = (const Xla__HloSnapshot *)msg;
		mp = s->hlo ? s->hlo->hlo_module : NULL;
	}
	if (!mp) {
		hilo_diag_add(d, HILO_SEV_ERROR, filename, 0, 0, NULL, 0, "%s holds no module", kind);
		return false;
	}
	reader R;
	memset(&R, 0, sizeof R);
	R.m = m;
	R.d = d;
	R.file = filename;
	hilo_buf_init_in(&R.tmp, m->arena);
	bool ok = build_module(&R, mp);
	hilo_buf_free(&R.tmp);
	if (!ok) {
		return false;
	}
	return m;
}

bool hilo_proto_looks_binary(const void *data, size_t len)
{
	const uint8_t *p = data;
	if (!len)
		return false;
	/* HLO text starts with a comment, blank space or "HloModule" */
	size_t k = 0;
	while (k < len && (p[k] == ' ' || p[k] == '\t' || p[k] == '\n' || p[k] == '\r'))
		k++;
	if (k < len && (p[k] == '/' || p[k] == 'H' || p[k] == '#'))
		return memchr(p, 0, len) != NULL && pb_check_wire(p, len, NULL, 1) == NULL;
	return pb_check_wire(p, len, NULL, 1) == NULL;
}
