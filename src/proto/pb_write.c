/* HloModuleProto writer: IR -> protobuf-c structs -> bytes.
 *
 * Every proto struct lives in a scratch arena freed at the end; large
 * literal arrays point straight at the IR's buffers (no copy) where the
 * IR layout equals the wire layout. Ids: instructions keep their IR ids,
 * computations are numbered by position; operand, control-predecessor
 * and called-computation ids all refer to those. Attributes with a typed
 * XLA field go there; the rest, and text details XLA does not record,
 * go to hilo's extension fields (see proto/hlo.proto).
 */
#include "pb_attrs.h"

#include <stdlib.h>
#include <string.h>

typedef struct writer {
	hilo_arena *a;
	const hilo_module *m;
	hilo_diags *d;
	hilo_buf tmp;
	hilo_ptrmap comp_ids;  /* comp -> (void*)(id + 1) */
	bool oom;
} writer;

static void *walloc(writer *W, size_t size)
{
	void *p = hilo_arena_alloc(W->a, size ? size : 1);
	if (!p)
		W->oom = true;
	return p;
}

static char *wstr(writer *W, const char *s, size_t n)
{
	char *r = hilo_arena_strndup(W->a, s, n);
	if (!r)
		W->oom = true;
	return r;
}

static int64_t *wints(writer *W, const int64_t *v, size_t n)
{
	int64_t *r = walloc(W, n * sizeof *r);
	if (r && n)
		memcpy(r, v, n * sizeof *r);
	return r;
}

/* ---- shapes ---- */

static Xla__ShapeProto *shape_pb(writer *W, const hilo_shape *s, int depth)
{
	Xla__ShapeProto *p = walloc(W, sizeof *p);
	if (!p)
		return NULL;
	xla__shape_proto__init(p);
	p->element_type = (Xla__PrimitiveType)pb_ptype_to_xla(s->type);
	p->hilo_buffer = s->buffer;
	if (s->type == HILO_T_TUPLE) {
		p->n_tuple_shapes = (size_t)s->ntuple;
		p->tuple_shapes = walloc(W, (size_t)s->ntuple * sizeof *p->tuple_shapes);
		if (!p->tuple_shapes || depth > 200)
			return W->oom = true, p;
		for (int k = 0; k < s->ntuple; k++)
			p->tuple_shapes[k] = shape_pb(W, s->elems[k], depth + 1);
		return p;
	}
	p->n_dimensions = (size_t)s->rank;
	p->dimensions = walloc(W, (size_t)s->rank * sizeof *p->dimensions);
	if (s->dyn) {
		p->n_is_dynamic_dimension = (size_t)s->rank;
		p->is_dynamic_dimension = walloc(W, (size_t)s->rank * sizeof *p->is_dynamic_dimension);
	}
	if (W->oom)
		return p;
	for (int k = 0; k < s->rank; k++) {
		int dyn = s->dyn ? s->dyn[k] : HILO_DIM_STATIC;
		p->dimensions[k] = dyn == HILO_DIM_UNBOUNDED ? INT64_MIN : s->dims[k];
		if (s->dyn)
			p->is_dynamic_dimension[k] = dyn != HILO_DIM_STATIC;
	}
	if (s->layout) {
		Xla__LayoutProto *l = walloc(W, sizeof *l);
		if (!l)
			return p;
		xla__layout_proto__init(l);
		l->n_minor_to_major = (size_t)s->layout->n;
		l->minor_to_major = s->layout->minor_to_major;
		if (s->layout->tail)
			l->hilo_tail = (char *)s->layout->tail;
		p->layout = l;
	}
	return p;
}

/* ---- literals ---- */

static ProtobufCBinaryData bin(const hilo_literal *l)
{
	return (ProtobufCBinaryData){l->nbytes, (uint8_t *)l->data};
}

static Xla__LiteralProto *literal_pb(writer *W, const hilo_literal *l, int depth)
{
	Xla__LiteralProto *p = walloc(W, sizeof *p);
	if (!p)
		return NULL;
	xla__literal_proto__init(p);
	p->shape = shape_pb(W, l->shape, 0);
	p->hilo_pred_as_int = l->pred_as_int;
	p->hilo_splat = l->splat;
	if (l->elided) {
		p->hilo_elided = true;
		return p;
	}
	if (l->shape->type == HILO_T_TUPLE) {
		p->n_tuple_literals = (size_t)l->ntuple;
		p->tuple_literals = walloc(W, (size_t)l->ntuple * sizeof *p->tuple_literals);
		if (!p->tuple_literals || depth > 200)
			return W->oom = true, p;
		for (int k = 0; k < l->ntuple; k++)
			p->tuple_literals[k] = literal_pb(W, l->elems[k], depth + 1);
		return p;
	}
	size_t es = (size_t)hilo_ptype_bytes(l->shape->type);
	size_t n = es ? l->nbytes / es : 0;
	switch (l->shape->type) {
	case HILO_T_PRED: {
		p->n_preds = n;
		p->preds = walloc(W, n * sizeof *p->preds);
		if (p->preds)
			for (size_t k = 0; k < n; k++)
				p->preds[k] = ((const uint8_t *)l->data)[k] != 0;
		break;
	}
	case HILO_T_S1: p->s1s = bin(l); break;
	case HILO_T_S2: p->s2s = bin(l); break;
	case HILO_T_S4: p->s4s = bin(l); break;
	case HILO_T_S8: p->s8s = bin(l); break;
	case HILO_T_U1: p->u1s = bin(l); break;
	case HILO_T_U2: p->u2s = bin(l); break;
	case HILO_T_U4: p->u4s = bin(l); break;
	case HILO_T_U8: p->u8s = bin(l); break;
	case HILO_T_S16: p->s16s = bin(l); break;
	case HILO_T_U16: p->u16s = bin(l); break;
	case HILO_T_F16: p->f16s = bin(l); break;
	case HILO_T_BF16: p->bf16s = bin(l); break;
	case HILO_T_F4E2M1FN: p->f4e2m1fns = bin(l); break;
	case HILO_T_F8E3M4: p->f8e3m4s = bin(l); break;
	case HILO_T_F8E4M3B11FNUZ: p->f8e4m3b11fnuzs = bin(l); break;
	case HILO_T_F8E4M3FN: p->f8e4m3fns = bin(l); break;
	case HILO_T_F8E4M3FNUZ: p->f8e4m3fnuzs = bin(l); break;
	case HILO_T_F8E4M3: p->f8e4m3s = bin(l); break;
	case HILO_T_F8E5M2FNUZ: p->f8e5m2fnuzs = bin(l); break;
	case HILO_T_F8E5M2: p->f8e5m2s = bin(l); break;
	case HILO_T_F8E8M0FNU: p->f8e8m0fnus = bin(l); break;
	case HILO_T_F6E2M3FN: p->hilo_f6e2m3fns = bin(l); break;
	case HILO_T_F6E3M2FN: p->hilo_f6e3m2fns = bin(l); break;
	case HILO_T_S32: p->n_s32s = n; p->s32s = l->data; break;
	case HILO_T_S64: p->n_s64s = n; p->s64s = l->data; break;
	case HILO_T_U32: p->n_u32s = n; p->u32s = l->data; break;
	case HILO_T_U64: p->n_u64s = n; p->u64s = l->data; break;
	case HILO_T_F32: p->n_f32s = n; p->f32s = l->data; break;
	case HILO_T_F64: p->n_f64s = n; p->f64s = l->data; break;
	case HILO_T_C64: p->n_c64s = 2 * n; p->c64s = l->data; break;
	case HILO_T_C128: p->n_c128s = 2 * n; p->c128s = l->data; break;
	default:
		break;
	}
	return p;
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

static Xla__OpMetadata *metadata_pb(writer *W, const hilo_metadata *md)
{
	Xla__OpMetadata *p = walloc(W, sizeof *p);
	if (!p)
		return NULL;
	xla__op_metadata__init(p);
	bool exact = true;
	for (int k = 0; k < md->n && exact; k++) {
		const char *key = md->e[k].key, *v = md->e[k].value;
		int def = -1;
		for (int j = 0; j < pb_n_md_defs; j++)
			if (!strcmp(pb_md_defs[j].key, key))
				def = j;
		if (def < 0) {
			exact = false;
			break;
		}
		if (pb_md_defs[def].kind == PBM_STRING) {
			size_t vn = strlen(v);
			W->tmp.len = 0;
			if (vn < 2 || v[0] != '"' || v[vn - 1] != '"' || !pb_unescape(&W->tmp, v + 1, vn - 2)) {
				exact = false;
				break;
			}
			char *s = wstr(W, W->tmp.data ? W->tmp.data : "", W->tmp.len);
			if (!s)
				return p;
			switch (def) {
			case 0: p->op_type = s; break;
			case 1: p->op_name = s; break;
			case 2: p->source_file = s; break;
			case 7: p->deduplicated_name = s; break;
			case 8: p->scheduling_name = s; break;
			}
		} else {
			int64_t x;
			if (!parse_i64(v, &x)) {
				exact = false;
				break;
			}
			switch (def) {
			case 3: p->source_line = (int32_t)x; exact = x == p->source_line; break;
			case 4: p->source_end_line = (int32_t)x; exact = x == p->source_end_line; break;
			case 5: p->source_column = (int32_t)x; exact = x == p->source_column; break;
			case 6: p->source_end_column = (int32_t)x; exact = x == p->source_end_column; break;
			case 9: p->stack_frame_id = (int32_t)x; exact = x == p->stack_frame_id; break;
			case 10: p->size_of_generated_code_in_bytes = x; break;
			case 11: p->size_of_memory_working_set_in_bytes = x; break;
			}
		}
	}
	if (exact) {
		/* would the reader print the same entries back? */
		hilo_md_entry back[32];
		int nb = pb_md_entries(W->a, p, back, 32);
		if (nb != md->n)
			exact = false;
		for (int k = 0; k < nb && exact; k++)
			if (strcmp(back[k].key, md->e[k].key) || strcmp(back[k].value, md->e[k].value))
				exact = false;
	}
	if (!exact) {
		p->n_hilo_entries = (size_t)md->n;
		p->hilo_entries = walloc(W, (size_t)md->n * sizeof *p->hilo_entries);
		if (!p->hilo_entries)
			return p;
		for (int k = 0; k < md->n; k++) {
			Xla__HiloKeyValue *kv = walloc(W, sizeof *kv);
			if (!kv)
				return p;
			xla__hilo_key_value__init(kv);
			kv->key = (char *)md->e[k].key;
			kv->value = (char *)md->e[k].value;
			p->hilo_entries[k] = kv;
		}
	}
	return p;
}

/* ---- attributes ---- */

typedef struct inst_ctx {
	Xla__HloInstructionProto *p;
	bool used[PBF_COUNT];
	Xla__DotDimensionNumbers *dot;
	Xla__GatherDimensionNumbers *gather;
	Xla__ScatterDimensionNumbers *scatter;
	Xla__RaggedDotDimensionNumbers *ragged;
} inst_ctx;

static Xla__DotDimensionNumbers *dot_of(writer *W, inst_ctx *X)
{
	if (!X->dot) {
		X->dot = walloc(W, sizeof *X->dot);
		if (!X->dot)
			return NULL;
		xla__dot_dimension_numbers__init(X->dot);
		if (X->p->opcode && !strcmp(X->p->opcode, "ragged-dot")) {
			if (!X->ragged) {
				X->ragged = walloc(W, sizeof *X->ragged);
				if (!X->ragged)
					return NULL;
				xla__ragged_dot_dimension_numbers__init(X->ragged);
				X->p->ragged_dot_dimension_numbers = X->ragged;
			}
			X->ragged->dot_dimension_numbers = X->dot;
		} else {
			X->p->dot_dimension_numbers = X->dot;
		}
	}
	return X->dot;
}

/* String attribute text (escaped, no quotes) -> raw bytes, only when
 * escaping the bytes gives the text back. */
static bool unescape_exact(writer *W, const char *text, char **out, size_t *outn)
{
	size_t n = strlen(text);
	W->tmp.len = 0;
	if (!pb_unescape(&W->tmp, text, n))
		return false;
	size_t rn = W->tmp.len;
	char *raw = wstr(W, W->tmp.data ? W->tmp.data : "", rn);
	if (!raw)
		return false;
	W->tmp.len = 0;
	pb_escape(&W->tmp, raw, rn);
	if (W->tmp.len != n || memcmp(W->tmp.data ? W->tmp.data : "", text, n))
		return false;
	*out = raw;
	*outn = rn;
	return true;
}

static const char *const fft_names[] = {"FFT", "IFFT", "RFFT", "IRFFT"};
static const char *const dist_names[] = {"rng_invalid", "rng_uniform", "rng_normal"};

/* Puts attribute a into its typed field; false when it has none (or
 * the typed field cannot reproduce it). */
static bool attr_typed(writer *W, inst_ctx *X, const hilo_instr *i, const hilo_attr *a)
{
	const pb_attr_def *def = pb_attr_def_of((hilo_attr_id)a->id);
	if (!def || def->kind != a->kind || X->used[def->field])
		return false;
	Xla__HloInstructionProto *p = X->p;
	hilo_opcode op = i->op;
	int64_t v = a->v.i;
	size_t n = (size_t)a->n;
	const int64_t *iv = a->v.ints;
	switch (def->field) {
	case PBF_TUPLE_INDEX: p->tuple_index = v; break;
	case PBF_DIMENSIONS:
		if (X->used[PBF_IOTA_DIMENSION])
			return false;
		p->n_dimensions = n; p->dimensions = wints(W, iv, n); break;
	case PBF_IOTA_DIMENSION:
		if (X->used[PBF_DIMENSIONS])
			return false;
		p->n_dimensions = 1; p->dimensions = wints(W, &v, 1); break;
	case PBF_CHANNEL_ID: p->channel_id = v; break;
	case PBF_FEATURE_INDEX: p->feature_index = v; break;
	case PBF_FEATURE_GROUP_COUNT: p->feature_group_count = v; break;
	case PBF_BATCH_GROUP_COUNT: p->batch_group_count = v; break;
	case PBF_EXPONENT_BITS:
		if (v != (int32_t)v) return false;
		p->exponent_bits = (int32_t)v; break;
	case PBF_MANTISSA_BITS:
		if (v != (int32_t)v) return false;
		p->mantissa_bits = (int32_t)v; break;
	case PBF_K: p->k = v; break;
	case PBF_DELTA: p->delta = v; break;
	case PBF_NUM_CARRIES: p->num_carries = v; break;
	case PBF_CPP_INDEX:
		if (v != (int32_t)v) return false;
		p->optional_cross_program_prefetch_index_case =
			XLA__HLO_INSTRUCTION_PROTO__OPTIONAL_CROSS_PROGRAM_PREFETCH_INDEX_CROSS_PROGRAM_PREFETCH_INDEX;
		p->cross_program_prefetch_index = (int32_t)v;
		break;
	case PBF_DYNAMIC_SLICE_SIZES: p->n_dynamic_slice_sizes = n; p->dynamic_slice_sizes = wints(W, iv, n); break;
	case PBF_FFT_LENGTH: p->n_fft_length = n; p->fft_length = wints(W, iv, n); break;
	case PBF_GATHER_SLICE_SIZES:
		if (op != HILO_OP_GATHER) return false;
		p->n_gather_slice_sizes = n; p->gather_slice_sizes = wints(W, iv, n); break;
	case PBF_DOT_LC: case PBF_DOT_RC: case PBF_DOT_LB: case PBF_DOT_RB: {
		if (op != HILO_OP_DOT && op != HILO_OP_RAGGED_DOT) return false;
		Xla__DotDimensionNumbers *dd = dot_of(W, X);
		if (!dd) return false;
		int64_t *c = wints(W, iv, n);
		if (def->field == PBF_DOT_LC) { dd->n_lhs_contracting_dimensions = n; dd->lhs_contracting_dimensions = c; }
		if (def->field == PBF_DOT_RC) { dd->n_rhs_contracting_dimensions = n; dd->rhs_contracting_dimensions = c; }
		if (def->field == PBF_DOT_LB) { dd->n_lhs_batch_dimensions = n; dd->lhs_batch_dimensions = c; }
		if (def->field == PBF_DOT_RB) { dd->n_rhs_batch_dimensions = n; dd->rhs_batch_dimensions = c; }
		break;
	}
	case PBF_RAGGED_L: case PBF_RAGGED_R: {
		if (op != HILO_OP_RAGGED_DOT || !dot_of(W, X) || !X->ragged) return false;
		int64_t *c = wints(W, iv, n);
		if (def->field == PBF_RAGGED_L) { X->ragged->n_lhs_ragged_dimensions = n; X->ragged->lhs_ragged_dimensions = c; }
		else { X->ragged->n_rhs_group_dimensions = n; X->ragged->rhs_group_dimensions = c; }
		break;
	}
	case PBF_G_OFFSET: case PBF_G_COLLAPSED: case PBF_G_START_MAP: case PBF_G_OBD: case PBF_G_SIBD: {
		if (op != HILO_OP_GATHER) return false;
		if (!X->gather) {
			X->gather = walloc(W, sizeof *X->gather);
			if (!X->gather) return false;
			xla__gather_dimension_numbers__init(X->gather);
			p->gather_dimension_numbers = X->gather;
		}
		Xla__GatherDimensionNumbers *g = X->gather;
		int64_t *c = wints(W, iv, n);
		if (def->field == PBF_G_OFFSET) { g->n_offset_dims = n; g->offset_dims = c; }
		if (def->field == PBF_G_COLLAPSED) { g->n_collapsed_slice_dims = n; g->collapsed_slice_dims = c; }
		if (def->field == PBF_G_START_MAP) { g->n_start_index_map = n; g->start_index_map = c; }
		if (def->field == PBF_G_OBD) { g->n_operand_batching_dims = n; g->operand_batching_dims = c; }
		if (def->field == PBF_G_SIBD) { g->n_start_indices_batching_dims = n; g->start_indices_batching_dims = c; }
		break;
	}
	case PBF_S_UWD: case PBF_S_IWD: case PBF_S_SDOD: case PBF_S_IBD: case PBF_S_SIBD: {
		if (op != HILO_OP_SCATTER) return false;
		if (!X->scatter) {
			X->scatter = walloc(W, sizeof *X->scatter);
			if (!X->scatter) return false;
			xla__scatter_dimension_numbers__init(X->scatter);
			p->scatter_dimension_numbers = X->scatter;
		}
		Xla__ScatterDimensionNumbers *s = X->scatter;
		int64_t *c = wints(W, iv, n);
		if (def->field == PBF_S_UWD) { s->n_update_window_dims = n; s->update_window_dims = c; }
		if (def->field == PBF_S_IWD) { s->n_inserted_window_dims = n; s->inserted_window_dims = c; }
		if (def->field == PBF_S_SDOD) { s->n_scatter_dims_to_operand_dims = n; s->scatter_dims_to_operand_dims = c; }
		if (def->field == PBF_S_IBD) { s->n_input_batching_dims = n; s->input_batching_dims = c; }
		if (def->field == PBF_S_SIBD) { s->n_scatter_indices_batching_dims = n; s->scatter_indices_batching_dims = c; }
		break;
	}
	case PBF_IVD:
		if (op == HILO_OP_GATHER) {
			if (!X->gather) {
				X->gather = walloc(W, sizeof *X->gather);
				if (!X->gather) return false;
				xla__gather_dimension_numbers__init(X->gather);
				p->gather_dimension_numbers = X->gather;
			}
			X->gather->index_vector_dim = v;
		} else if (op == HILO_OP_SCATTER) {
			if (!X->scatter) {
				X->scatter = walloc(W, sizeof *X->scatter);
				if (!X->scatter) return false;
				xla__scatter_dimension_numbers__init(X->scatter);
				p->scatter_dimension_numbers = X->scatter;
			}
			X->scatter->index_vector_dim = v;
		} else {
			return false;
		}
		break;
	case PBF_IS_STABLE: p->is_stable = v != 0; break;
	case PBF_CONSTRAIN_LAYOUT: p->constrain_layout = v != 0; break;
	case PBF_USE_GLOBAL_DEVICE_IDS: p->use_global_device_ids = v != 0; break;
	case PBF_INDICES_SORTED: p->indices_are_sorted = v != 0; break;
	case PBF_UNIQUE_INDICES: p->unique_indices = v != 0; break;
	case PBF_IS_HOST_TRANSFER: p->is_host_transfer = v != 0; break;
	case PBF_CC_SIDE_EFFECT: p->custom_call_has_side_effect = v != 0; break;
	case PBF_LARGEST: p->largest = v != 0; break;
	case PBF_IS_COMPOSITE: p->is_composite = v != 0; break;
	case PBF_IS_REVERSE: p->is_reverse = v != 0; break;
	case PBF_HAS_DYNAMIC_ROOT: p->has_dynamic_root = v != 0; break;
	case PBF_IS_ASSOCIATIVE: p->is_associative = v != 0; break;
	case PBF_CC_TARGET: case PBF_ASYNC_THREAD: case PBF_INFEED_CONFIG: case PBF_OUTFEED_CONFIG: {
		char *raw;
		size_t rn;
		if (!unescape_exact(W, a->v.text, &raw, &rn))
			return false;
		if (def->field == PBF_CC_TARGET) {
			if (memchr(raw, 0, rn)) return false;
			p->custom_call_target = raw;
		} else if (def->field == PBF_ASYNC_THREAD) {
			if (memchr(raw, 0, rn)) return false;
			p->async_execution_thread = raw;
		} else if (def->field == PBF_INFEED_CONFIG) {
			p->infeed_config = (ProtobufCBinaryData){rn, (uint8_t *)raw};
		} else {
			p->outfeed_config = (ProtobufCBinaryData){rn, (uint8_t *)raw};
		}
		break;
	}
	case PBF_DIRECTION:
		if (op != HILO_OP_COMPARE) return false;
		p->comparison_direction = (char *)a->v.text; break;
	case PBF_CMP_TYPE:
		if (op != HILO_OP_COMPARE) return false;
		p->comparison_type = (char *)a->v.text; break;
	case PBF_FUSION_KIND:
		if (op != HILO_OP_FUSION) return false;
		p->fusion_kind = (char *)a->v.text; break;
	case PBF_FFT_TYPE: {
		int k = 0;
		while (k < 4 && strcmp(fft_names[k], a->v.text))
			k++;
		if (k == 4) return false;
		p->fft_type = (Xla__FftType)k;
		break;
	}
	case PBF_DISTRIBUTION: {
		int k = 1;
		while (k < 3 && strcmp(dist_names[k], a->v.text))
			k++;
		if (k == 3) return false;
		p->distribution = (Xla__RandomDistribution)k;
		break;
	}
	case PBF_SLICE:
		p->n_slice_dimensions = n;
		p->slice_dimensions = walloc(W, n * sizeof *p->slice_dimensions);
		if (!p->slice_dimensions) return false;
		for (size_t k = 0; k < n; k++) {
			Xla__HloInstructionProto__SliceDimensions *s = walloc(W, sizeof *s);
			if (!s) return false;
			xla__hlo_instruction_proto__slice_dimensions__init(s);
			s->start = iv[3 * k];
			s->limit = iv[3 * k + 1];
			s->stride = iv[3 * k + 2];
			p->slice_dimensions[k] = s;
		}
		break;
	case PBF_PADDING: {
		Xla__PaddingConfig *pc = walloc(W, sizeof *pc);
		if (!pc) return false;
		xla__padding_config__init(pc);
		pc->n_dimensions = n;
		pc->dimensions = walloc(W, n * sizeof *pc->dimensions);
		if (!pc->dimensions) return false;
		for (size_t k = 0; k < n; k++) {
			Xla__PaddingConfig__PaddingConfigDimension *dd = walloc(W, sizeof *dd);
			if (!dd) return false;
			xla__padding_config__padding_config_dimension__init(dd);
			dd->edge_padding_low = iv[3 * k];
			dd->edge_padding_high = iv[3 * k + 1];
			dd->interior_padding = iv[3 * k + 2];
			pc->dimensions[k] = dd;
		}
		p->padding_config = pc;
		break;
	}
	case PBF_BACKEND_CONFIG: case PBF_FRONTEND_ATTRS: case PBF_REPLICA_GROUPS:
	case PBF_SOURCE_TARGET: case PBF_WINDOW: case PBF_DIM_LABELS: case PBF_SHARDING:
	case PBF_EPSILON: case PBF_API_VERSION: case PBF_PRECISION: {
		/* parse into a scratch message, take the field on success */
		Xla__HloInstructionProto t;
		xla__hlo_instruction_proto__init(&t);
		if (!pbx_parse(W->a, &t, def->field, a->v.text))
			return false;
		switch (def->field) {
		case PBF_BACKEND_CONFIG: p->backend_config = t.backend_config; break;
		case PBF_FRONTEND_ATTRS: p->frontend_attributes = t.frontend_attributes; break;
		case PBF_REPLICA_GROUPS:
			p->n_replica_groups = t.n_replica_groups;
			p->replica_groups = t.replica_groups;
			p->collective_device_list = t.collective_device_list;
			break;
		case PBF_SOURCE_TARGET:
			p->n_source_target_pairs = t.n_source_target_pairs;
			p->source_target_pairs = t.source_target_pairs;
			break;
		case PBF_WINDOW: p->window = t.window; break;
		case PBF_SHARDING: p->sharding = t.sharding; break;
		case PBF_EPSILON: p->epsilon = t.epsilon; break;
		case PBF_API_VERSION: p->custom_call_api_version = t.custom_call_api_version; break;
		case PBF_PRECISION: p->precision_config = t.precision_config; break;
		default: p->convolution_dimension_numbers = t.convolution_dimension_numbers; break;
		}
		X->used[def->field] = true;
		/* exact only when XLA's rendering gives the text back */
		W->tmp.len = 0;
		if (!pbx_render(&W->tmp, p, def->field) || W->tmp.oom)
			return false;
		return W->tmp.len == strlen(a->v.text) && !memcmp(W->tmp.data, a->v.text, W->tmp.len);
	}
	default:
		/* attributes without a typed field here: extension */
		return false;
	}
	X->used[def->field] = true;
	return !W->oom;
}

static Xla__HiloAttr *attr_ext(writer *W, const hilo_attr *a)
{
	Xla__HiloAttr *h = walloc(W, sizeof *h);
	if (!h)
		return NULL;
	xla__hilo_attr__init(h);
	h->key = (char *)a->key;
	h->kind = (int32_t)a->kind;
	h->n = a->n;
	switch (a->kind) {
	case HILO_ATTR_RAW: case HILO_ATTR_STRING: case HILO_ATTR_ENUM:
		h->text = (char *)(a->v.text ? a->v.text : "");
		break;
	case HILO_ATTR_INTS:
		h->n_ints = (size_t)a->n;
		h->ints = a->v.ints;
		break;
	case HILO_ATTR_SLICE: case HILO_ATTR_PADDING:
		h->n_ints = 3 * (size_t)a->n;
		h->ints = a->v.ints;
		break;
	default:
		h->i = a->v.i;
		break;
	}
	return h;
}

/* ---- instructions ---- */

static int64_t comp_id(writer *W, const hilo_comp *c)
{
	return (int64_t)(uintptr_t)hilo_ptrmap_get(&W->comp_ids, c) - 1; /* ids from 1 */
}

static Xla__HloInstructionProto *instr_pb(writer *W, const hilo_instr *i)
{
	Xla__HloInstructionProto *p = walloc(W, sizeof *p);
	if (!p)
		return NULL;
	xla__hlo_instruction_proto__init(p);
	p->name = (char *)i->name;
	p->opcode = (char *)hilo_opcode_name(i->op);
	if (i->async_op != HILO_OP_COUNT)
		p->hilo_async_op = (char *)hilo_opcode_name(i->async_op);
	p->shape = shape_pb(W, i->shape, 0);
	p->id = i->id;
	if (i->op == HILO_OP_PARAMETER)
		p->parameter_number = i->param_no;
	if (i->literal)
		p->literal = literal_pb(W, i->literal, 0);
	if (i->metadata)
		p->metadata = metadata_pb(W, i->metadata);
	p->n_operand_ids = i->noperands;
	p->operand_ids = walloc(W, i->noperands * sizeof *p->operand_ids);
	for (uint32_t k = 0; k < i->noperands && p->operand_ids; k++)
		p->operand_ids[k] = i->operands[k]->id;
	p->n_control_predecessor_ids = i->nctrl_preds;
	p->control_predecessor_ids = walloc(W, i->nctrl_preds * sizeof *p->control_predecessor_ids);
	for (uint32_t k = 0; k < i->nctrl_preds && p->control_predecessor_ids; k++)
		p->control_predecessor_ids[k] = i->ctrl_preds[k]->id;
	/* called computations; XLA orders a while's as {body, condition} */
	p->n_called_computation_ids = i->ncalled;
	p->called_computation_ids = walloc(W, i->ncalled * sizeof *p->called_computation_ids);
	for (uint32_t k = 0; k < i->ncalled && p->called_computation_ids; k++)
		p->called_computation_ids[k] = comp_id(W, i->called[k]);
	if (i->op == HILO_OP_WHILE && i->ncalled == 2 && p->called_computation_ids) {
		hilo_attr *cond = hilo_instr_attr(i, HILO_A_CONDITION);
		if (cond && cond->kind == HILO_ATTR_COMP && cond->v.i == 0) {
			int64_t t = p->called_computation_ids[0];
			p->called_computation_ids[0] = p->called_computation_ids[1];
			p->called_computation_ids[1] = t;
		}
	}
	if (i->comment)
		p->hilo_comment = (char *)i->comment;
	const pb_extra *x = W->m->proto_extra;
	if (x && i->id < x->ninstr && x->instr[i->id].n) {
		p->base.n_unknown_fields = x->instr[i->id].n;
		p->base.unknown_fields = x->instr[i->id].f;
	}
	inst_ctx X;
	memset(&X, 0, sizeof X);
	X.p = p;
	if (i->nattrs) {
		p->n_hilo_attr_order = i->nattrs;
		p->hilo_attr_order = walloc(W, i->nattrs * sizeof *p->hilo_attr_order);
		p->hilo_attrs = walloc(W, i->nattrs * sizeof *p->hilo_attrs);
		if (!p->hilo_attr_order || !p->hilo_attrs)
			return p;
	}
	for (uint32_t k = 0; k < i->nattrs; k++) {
		const hilo_attr *a = &i->attrs[k];
		p->hilo_attr_order[k] = (char *)a->key;
		if (a->kind == HILO_ATTR_METADATA || a->kind == HILO_ATTR_CONTROL)
			continue;
		if (attr_typed(W, &X, i, a))
			continue;
		if (W->oom)
			return p;
		p->hilo_attrs[p->n_hilo_attrs++] = attr_ext(W, a);
	}
	return p;
}

/* ---- computations and module ---- */

static Xla__ProgramShapeProto *program_shape(writer *W, const hilo_comp *c)
{
	Xla__ProgramShapeProto *ps = walloc(W, sizeof *ps);
	if (!ps)
		return NULL;
	xla__program_shape_proto__init(ps);
	ps->n_parameters = c->nparams;
	ps->parameters = walloc(W, c->nparams * sizeof *ps->parameters);
	ps->n_parameter_names = c->nparams;
	ps->parameter_names = walloc(W, c->nparams * sizeof *ps->parameter_names);
	if (!ps->parameters || !ps->parameter_names)
		return ps;
	for (uint32_t k = 0; k < c->nparams; k++) {
		const hilo_instr *pi = c->params[k];
		ps->parameters[k] = pi ? shape_pb(W, pi->shape, 0) : NULL;
		ps->parameter_names[k] = (char *)(pi ? pi->name : "");
		if (!pi) {
			ps->parameters[k] = walloc(W, sizeof(Xla__ShapeProto));
			if (ps->parameters[k])
				xla__shape_proto__init(ps->parameters[k]);
		}
	}
	if (c->root)
		ps->result = shape_pb(W, c->root->shape, 0);
	return ps;
}

static Xla__HloComputationProto *comp_pb(writer *W, const hilo_comp *c, int64_t id,
	bool fusion)
{
	Xla__HloComputationProto *p = walloc(W, sizeof *p);
	if (!p)
		return NULL;
	xla__hlo_computation_proto__init(p);
	p->name = (char *)c->name;
	p->id = id;
	p->root_id = c->root ? (int64_t)c->root->id : -1;
	p->is_fusion_computation = fusion;
	p->program_shape = program_shape(W, c);
	p->hilo_print_signature = c->print_signature;
	if (c->gap_before)
		p->hilo_gap_before = (char *)c->gap_before;
	if (c->execution_thread) {
		p->execution_thread = (char *)c->execution_thread;
		p->hilo_has_execution_thread = true;
	}
	const pb_extra *x = W->m->proto_extra;
	for (size_t k = 0; x && k < x->ncomp; k++)
		if (x->comp[k] == c) {
			p->base.n_unknown_fields = x->comp_f[k].n;
			p->base.unknown_fields = x->comp_f[k].f;
		}
	p->n_instructions = c->ninstrs;
	p->instructions = walloc(W, c->ninstrs * sizeof *p->instructions);
	if (!p->instructions)
		return p;
	size_t k = 0;
	for (hilo_instr *i = c->first; i && k < c->ninstrs; i = i->next)
		p->instructions[k++] = instr_pb(W, i);
	p->n_instructions = k;
	return p;
}

static bool write_module(writer *wp, hilo_buf *out);

bool hilo_proto_write(hilo_buf *out, const hilo_module *m, hilo_diags *d)
{
	writer W;
	memset(&W, 0, sizeof W);
	W.m = m;
	W.d = d;
	W.a = hilo_arena_create();
	if (!W.a) {
		hilo_diag_oom(d, NULL);
		return false;
	}
	size_t len0 = out->len;
	HILO_OOM_CATCH(g, W.a) {
		hilo_arena_destroy(W.a);
		out->len = len0; /* no partial output */
		hilo_diag_oom(d, NULL);
		return false;
	}
	bool ok = write_module(&W, out);
	hilo_oom_end(&g);
	hilo_arena_destroy(W.a);
	return ok;
}

/* Builds the message in W->a and packs it onto out. */
static bool write_module(writer *wp, hilo_buf *out)
{
	writer W = *wp; /* the fields below are read through W */
	const hilo_module *m = W.m;
	hilo_diags *d = W.d;
	hilo_buf_init_in(&W.tmp, W.a);
	hilo_ptrmap_init_in(&W.comp_ids, W.a);
	for (uint32_t k = 0; k < m->ncomps; k++)
		hilo_ptrmap_put(&W.comp_ids, m->comps[k], (void *)(uintptr_t)(k + 2));
	/* computations called by a fusion are fusion computations */
	hilo_ptrmap fused;
	hilo_ptrmap_init_in(&fused, W.a);
	for (uint32_t k = 0; k < m->ncomps; k++)
		for (hilo_instr *i = m->comps[k]->first; i; i = i->next)
			if (i->op == HILO_OP_FUSION)
				for (uint32_t j = 0; j < i->ncalled; j++)
					hilo_ptrmap_put(&fused, i->called[j], (void *)1);

	Xla__HloModuleProto mp;
	xla__hlo_module_proto__init(&mp);
	mp.name = (char *)m->name;
	if (m->entry) {
		mp.entry_computation_name = (char *)m->entry->name;
		mp.entry_computation_id = comp_id(&W, m->entry);
		mp.host_program_shape = program_shape(&W, m->entry);
	}
	mp.n_computations = m->ncomps;
	mp.computations = walloc(&W, m->ncomps * sizeof *mp.computations);
	for (uint32_t k = 0; k < m->ncomps && mp.computations; k++)
		mp.computations[k] = comp_pb(&W, m->comps[k], (int64_t)k + 1,
			hilo_ptrmap_get(&fused, m->comps[k]) != NULL);
	mp.n_hilo_module_attrs = m->nattrs;
	mp.hilo_module_attrs = walloc(&W, m->nattrs * sizeof *mp.hilo_module_attrs);
	for (uint32_t k = 0; k < m->nattrs && mp.hilo_module_attrs; k++) {
		Xla__HiloKeyValue *kv = walloc(&W, sizeof *kv);
		if (!kv)
			break;
		xla__hilo_key_value__init(kv);
		kv->key = (char *)m->attrs[k].key;
		kv->value = (char *)m->attrs[k].value;
		if (m->attrs[k].sep)
			kv->sep = (char *)m->attrs[k].sep;
		mp.hilo_module_attrs[k] = kv;
	}
	/* typed copies of module attributes XLA models (the text stays verbatim) */
	for (uint32_t k = 0; k < m->nattrs; k++) {
		const char *key = m->attrs[k].key, *v = m->attrs[k].value;
		if (!strcmp(key, "frontend_attributes"))
			pbx_module_fa(W.a, &mp.frontend_attributes, v);
		else if (!strcmp(key, "input_output_alias"))
			pbx_io_alias(W.a, &mp.input_output_alias, v);
		else if (!strcmp(key, "buffer_donor"))
			pbx_buffer_donor(W.a, &mp.buffer_donor, v);
	}
	if (m->header)
		mp.hilo_header = (char *)m->header;
	if (m->gap) {
		mp.hilo_gap = (char *)m->gap;
		mp.hilo_has_gap = true;
	}
	if (m->trailer) {
		mp.hilo_trailer = (char *)m->trailer;
		mp.hilo_has_trailer = true;
	}
	if (m->stack_frames)
		mp.hilo_stack_frames = (char *)m->stack_frames;
	mp.hilo_style = (int32_t)m->style;
	mp.hilo_entry_last_no_keyword = m->entry_last_no_keyword;
	mp.hilo_written = true;
	if (m->proto_extra) {
		const pb_extra *x = m->proto_extra;
		mp.base.n_unknown_fields = x->module.n;
		mp.base.unknown_fields = x->module.f;
	}
	mp.hilo_no_entry_layout = m->no_entry_layout;
	mp.hilo_no_final_newline = m->no_final_newline;

	bool ok = !W.oom;
	if (ok) {
		size_t n = xla__hlo_module_proto__get_packed_size(&mp);
		hilo_buf_reserve(out, n + 1);
		if (out->oom) {
			ok = false;
		} else {
			size_t w = xla__hlo_module_proto__pack(&mp, (uint8_t *)out->data + out->len);
			out->len += w;
			ok = w == n;
		}
	}
	if (!ok)
		hilo_diag_oom(d, NULL);
	hilo_ptrmap_free(&fused);
	hilo_ptrmap_free(&W.comp_ids);
	hilo_buf_free(&W.tmp);
	return ok;
}
