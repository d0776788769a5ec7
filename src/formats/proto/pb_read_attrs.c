/* HloModuleProto reader, attributes (see pb_read.h): an instruction's
 * second pass over its fields (pbr_read_wire: ids, typed fields, hilo's
 * extension, unknown fields), then typed HloInstructionProto fields ->
 * hilo attributes in hilo's recorded order (attr_from_typed, hilo's
 * HiloAttr extension: attr_from_ext), or in XLA's print order for protos
 * hilo did not write (attrs_foreign). */
#include "pb_read.h"
#include "hilo/hlo_text.h"

/* ---- attributes ---- */

/* Appends attribute id (key k when HILO_A_UNKNOWN) in reading order. */
static hilo_attr *append_id(reader *R, hilo_instr *i, hilo_attr_id id, const char *k,
	hilo_attr_kind kind)
{
	if (id != HILO_A_UNKNOWN ? hilo_instr_attr(i, id) != NULL : hilo_instr_attr_named(i, k) != NULL) {
		pbr_rerr(R, "instruction '%s': attribute '%s' appears twice", i->name, k);
		return NULL;
	}
	if (i->nattrs == i->cap_attrs) {
		uint32_t cap = i->cap_attrs ? i->cap_attrs * 2 : 4;
		i->attrs = hilo_arena_grow(R->m->arena, i->attrs, i->nattrs, cap, sizeof(hilo_attr));
		if (!i->attrs) {
			pbr_rerr(R, "out of memory");
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

hilo_attr *pbr_append_known(reader *R, hilo_instr *i, hilo_attr_id id, hilo_attr_kind kind)
{
	return append_id(R, i, id, hilo_attr_id_key(id), kind);
}

static hilo_attr *append_attr(reader *R, hilo_instr *i, const char *key, hilo_attr_kind kind)
{
	hilo_attr_id id = hilo_attr_lookup(key, strlen(key));
	return append_id(R, i, id, id != HILO_A_UNKNOWN ? hilo_attr_id_key(id) : pbr_rintern(R, key), kind);
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

static const int64_t *nz(const int64_t *p)
{
	static const int64_t zero = 0;
	return p ? p : &zero;
}

/* A custom-call's operand_shapes_with_layout (the slices read_wire kept
 * in R->sv[4]) as its operand_layout_constraints text. */
static bool operand_shapes(reader *R, hilo_instr *i)
{
	size_t n = R->sv[4].n;
	const hilo_shape **v = pbr_ralloc(R, (n ? n : 1) * sizeof *v);
	if (!v)
		return true;
	for (size_t k = 0; k < n; k++)
		if (!(v[k] = pbr_shape_from(R, &((const slice *)R->sv[4].p)[k], 3,
			      "operand_shapes_with_layout")))
			return true;
	R->tmp.len = 0;
	pbx_shapes_render(&R->tmp, v, n);
	hilo_attr *a = R->tmp.oom ? NULL : pbr_append_known(R, i, HILO_A_OPERAND_LAYOUT_CONSTRAINTS, HILO_ATTR_RAW);
	if (a)
		a->v.text = hilo_intern(R->m->strings, R->tmp.data, R->tmp.len);
	return true;
}

/* A custom-call's literal as XLA prints it: an array with its shape, a
 * tuple as ( ELEMENT, ELEMENT ) with each element's shape. */
static void cc_literal_text(hilo_buf *b, const hilo_literal *l, int depth)
{
	if (l->shape->type != HILO_T_TUPLE || depth > 64) {
		hilo_print_literal(b, l, true);
		return;
	}
	hilo_buf_puts(b, "( ");
	for (int k = 0; k < l->ntuple; k++) {
		if (k)
			hilo_buf_puts(b, ", ");
		cc_literal_text(b, l->elems[k], depth + 1);
	}
	hilo_buf_puts(b, " )");
}

/* A custom-call's literal (field 8, kept by read_wire) as its literal=
 * text: the literal's own shape, then its values. */
static bool cc_literal(reader *R, hilo_instr *i)
{
	if (!R->has_lit8)
		return true;
	pr_cur c = {R->lit8.p, R->lit8.p + R->lit8.n};
	field f;
	hilo_shape *shape = NULL;
	while (pbr_next_field(R, &c, &f))
		if (f.num == 1 && pbr_want(R, &f, PB_LEN)) {
			slice sh = f.s;
			shape = pbr_shape_from(R, &sh, 3, "a custom-call's literal");
		}
	if (!shape) {
		if (!R->failed)
			pbr_rerr(R, "instruction '%s': a custom-call's literal without a shape", i->name);
		return true;
	}
	hilo_literal *lit = pbr_literal_from(R, R->lit8, shape, 0, "a custom-call's literal");
	if (!lit)
		return true;
	R->tmp.len = 0;
	cc_literal_text(&R->tmp, lit, 0);
	hilo_attr *a = R->tmp.oom ? NULL : pbr_append_known(R, i, HILO_A_LITERAL, HILO_ATTR_RAW);
	if (a)
		a->v.text = hilo_intern(R->m->strings, R->tmp.data, R->tmp.len);
	return true;
}

/* How XLA's reader cuts an in-place collective-permute's flat
 * dynamic_slice_sizes (operands: input, output, input and output start
 * indices): one list per input part, or per start-index tuple of it, each
 * as long as that part's rank. nchunks 0 when the operands do not say. */
static size_t permute_chunks(const hilo_instr *i, size_t *chunks, size_t cap)
{
	if (i->noperands != 4)
		return 0;
	const hilo_shape *in = i->operands[0]->shape, *si = i->operands[2]->shape;
	size_t n = 0;
	bool nested = si->type == HILO_T_TUPLE && si->ntuple && si->elems[0]->type == HILO_T_TUPLE;
	if (in->type != HILO_T_TUPLE) {
		size_t times = nested ? (size_t)si->ntuple : 1;
		for (size_t k = 0; k < times && n < cap; k++)
			chunks[n++] = (size_t)in->rank;
		return n;
	}
	bool per_part = nested && si->elems[0]->ntuple && si->elems[0]->elems[0]->type != HILO_T_TUPLE;
	for (int k = 0; k < in->ntuple; k++) {
		size_t times = 1;
		if (!per_part) {
			if (si->type != HILO_T_TUPLE || k >= si->ntuple)
				return 0;
			const hilo_shape *e = si->elems[k];
			times = e->type == HILO_T_TUPLE ? (size_t)e->ntuple : 1;
		}
		for (size_t t = 0; t < times; t++) {
			if (n == cap)
				return 0;
			chunks[n++] = (size_t)in->elems[k]->rank;
		}
	}
	return n;
}

/* An in-place collective-permute's slice_sizes text from its
 * dynamic_slice_sizes, cut as XLA's reader cuts them. */
static bool permute_slices(reader *R, hilo_instr *i, const Xla__HloInstructionProto *p)
{
	size_t cap = p->n_dynamic_slice_sizes + 1;
	size_t *chunks = pbr_ralloc(R, cap * sizeof *chunks);
	if (!chunks)
		return true;
	size_t nc = permute_chunks(i, chunks, cap), sum = 0;
	for (size_t k = 0; k < nc; k++)
		sum += chunks[k];
	if (sum != p->n_dynamic_slice_sizes) { /* not XLA's cut: one list */
		chunks[0] = p->n_dynamic_slice_sizes;
		nc = 1;
	}
	R->tmp.len = 0;
	pbx_slice_lists_render(&R->tmp, p->dynamic_slice_sizes, chunks, nc);
	hilo_attr *a = R->tmp.oom ? NULL : pbr_append_known(R, i, HILO_A_SLICE_SIZES, HILO_ATTR_RAW);
	if (a)
		a->v.text = hilo_intern(R->m->strings, R->tmp.data, R->tmp.len);
	return true;
}

/* Fills attribute id from its typed field. false: no typed field. */
bool pbr_attr_from_typed(reader *R, hilo_instr *i, const Xla__HloInstructionProto *p,
	hilo_attr_id id)
{
	const pb_attr_def *def = pb_attr_def_of(id);
	if (!def)
		return false;
	if (def->field == PBF_OPERAND_SHAPES)
		return operand_shapes(R, i);
	if (def->field == PBF_CC_LITERAL)
		return cc_literal(R, i);
	if (id == HILO_A_SLICE_SIZES &&
	    (i->op == HILO_OP_COLLECTIVE_PERMUTE || i->op == HILO_OP_COLLECTIVE_PERMUTE_START))
		return permute_slices(R, i, p);
	if (def->kind == HILO_ATTR_RAW) {
		R->tmp.len = 0;
		if (!pbx_render(&R->tmp, p, def->field) || R->tmp.oom)
			return true; /* absent: nothing to print */
		hilo_attr *a = pbr_append_known(R, i, id, HILO_ATTR_RAW);
		if (a)
			a->v.text = hilo_intern(R->m->strings, R->tmp.data, R->tmp.len);
		return true;
	}
	hilo_attr *a = pbr_append_known(R, i, id, def->kind);
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
	case PBF_DIRECTION: a->v.text = pbr_rintern(R, p->comparison_direction); break;
	case PBF_CMP_TYPE: a->v.text = pbr_rintern(R, p->comparison_type); break;
	case PBF_FUSION_KIND: a->v.text = pbr_rintern(R, p->fusion_kind); break;
	case PBF_FFT_TYPE:
		a->v.text = pbr_rintern(R, pbx_enum_name_or(&pbx_fft_types, p->fft_type, "FFT"));
		break;
	case PBF_DISTRIBUTION:
		a->v.text = pbr_rintern(R, pbx_enum_name_or(&pbx_distributions, p->distribution, "rng_invalid"));
		break;
	case PBF_RNG_ALGORITHM:
		if (i->op == HILO_OP_DOT) {
			int v = p->precision_config ? p->precision_config->algorithm : 0;
			a->v.text = pbr_rintern(R, pbx_enum_name_or(&pbx_dot_algorithms, v, "unset"));
			break;
		}
		a->v.text = pbr_rintern(R, pbx_enum_name_or(&pbx_rng_algorithms, p->rng_algorithm, "rng_default"));
		break;
	case PBF_SLICE: {
		size_t n = p->n_slice_dimensions;
		int64_t *v = pbr_ralloc(R, 3 * n * sizeof *v);
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
		int64_t *v = pbr_ralloc(R, 3 * n * sizeof *v);
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

void pbr_attr_from_ext(reader *R, hilo_instr *i, const Xla__HiloAttr *h)
{
	if (h->kind < HILO_ATTR_RAW || h->kind > HILO_ATTR_METADATA ||
	    h->kind == HILO_ATTR_CONTROL || h->kind == HILO_ATTR_METADATA) {
		pbr_rerr(R, "instruction '%s': attribute '%s' has invalid kind %d", i->name, h->key, h->kind);
		return;
	}
	hilo_attr_kind kind = (hilo_attr_kind)h->kind;
	hilo_attr *a = append_attr(R, i, h->key, kind);
	if (!a)
		return;
	switch (kind) {
	case HILO_ATTR_RAW: case HILO_ATTR_STRING: case HILO_ATTR_ENUM:
		a->v.text = pbr_rintern(R, h->text);
		break;
	case HILO_ATTR_INTS:
		set_ints(a, h->ints ? h->ints : (int64_t *)nz(NULL), h->n_ints);
		break;
	case HILO_ATTR_SLICE: case HILO_ATTR_PADDING:
		if (h->n_ints % 3) {
			pbr_rerr(R, "instruction '%s': attribute '%s' needs triples", i->name, h->key);
			return;
		}
		set_ints(a, h->ints ? h->ints : (int64_t *)nz(NULL), h->n_ints / 3);
		break;
	case HILO_ATTR_COMP:
		if (h->i < 0 || (uint64_t)h->i >= hilo_instr_ncalled(i)) {
			pbr_rerr(R, "instruction '%s': attribute '%s' names called computation %lld of %u",
				i->name, h->key, (long long)h->i, hilo_instr_ncalled(i));
			return;
		}
		a->v.i = h->i;
		break;
	case HILO_ATTR_COMPS:
		if (h->i < 0 || h->n < 0 || (uint64_t)h->i + (uint64_t)h->n > hilo_instr_ncalled(i)) {
			pbr_rerr(R, "instruction '%s': attribute '%s' names called computations past the %u it has",
				i->name, h->key, hilo_instr_ncalled(i));
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
/* XLA prints operand_precision only when some operand's is not DEFAULT
 * (an algorithm= prints on its own): a proto of XLA's prints as XLA does. */
static bool all_default(const Xla__PrecisionConfig *pc)
{
	for (size_t k = 0; k < pc->n_operand_precision; k++)
		if (pc->operand_precision[k] != XLA__PRECISION_CONFIG__PRECISION__DEFAULT)
			return false;
	return true;
}

void pbr_attrs_foreign(reader *R, hilo_instr *i, const Xla__HloInstructionProto *p)
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
	static const hilo_attr_id k_rng[] = {HILO_A_DISTRIBUTION, HILO_A_UNKNOWN};
	static const hilo_attr_id k_rbg[] = {HILO_A_ALGORITHM, HILO_A_UNKNOWN};
	static const hilo_attr_id k_rp[] = {HILO_A_EXPONENT_BITS, HILO_A_MANTISSA_BITS, HILO_A_UNKNOWN};
	static const hilo_attr_id k_topk[] = {HILO_A_K, HILO_A_LARGEST, HILO_A_UNKNOWN};
	static const hilo_attr_id k_fft[] = {HILO_A_FFT_TYPE, HILO_A_FFT_LENGTH, HILO_A_UNKNOWN};
	static const hilo_attr_id k_scan[] = {HILO_A_DIMENSIONS, HILO_A_NUM_CARRIES, HILO_A_IS_REVERSE,
		HILO_A_IS_ASSOCIATIVE, HILO_A_UNKNOWN};
	static const hilo_attr_id k_state[] = {HILO_A_DELTA, HILO_A_UNKNOWN};
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
	case HILO_OP_RNG: keys = k_rng; break;
	case HILO_OP_RNG_BIT_GENERATOR: keys = k_rbg; break;
	case HILO_OP_REDUCE_PRECISION: keys = k_rp; break;
	case HILO_OP_TOPK: keys = k_topk; break;
	case HILO_OP_FFT: keys = k_fft; break;
	case HILO_OP_SCAN: keys = k_scan; break;
	case HILO_OP_RNG_GET_AND_UPDATE_STATE: keys = k_state; break;
	default: keys = none; break;
	}
	const pb_attr_def *def;
	for (int k = 0; keys[k] != HILO_A_UNKNOWN; k++) {
		def = pb_attr_def_of(keys[k]);
		bool present = true;
		if (def->kind == HILO_ATTR_BOOL) {
			present = (def->field == PBF_INDICES_SORTED && p->indices_are_sorted) ||
			          (def->field == PBF_UNIQUE_INDICES && p->unique_indices) ||
			          (def->field == PBF_IS_REVERSE && p->is_reverse) ||
			          (def->field == PBF_IS_ASSOCIATIVE && p->is_associative) ||
			          def->field == PBF_LARGEST; /* topk prints largest=false too */
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
			pbr_attr_from_typed(R, i, p, keys[k]);
	}
	if (p->window && p->window->n_dimensions) /* XLA prints no empty window */
		pbr_attr_from_typed(R, i, p, HILO_A_WINDOW);
	if (p->convolution_dimension_numbers)
		pbr_attr_from_typed(R, i, p, HILO_A_DIM_LABELS);
	/* convolutions and custom-calls print group counts other than 1 */
	if (p->feature_group_count > 1)
		pbr_attr_from_typed(R, i, p, HILO_A_FEATURE_GROUP_COUNT);
	if (p->batch_group_count > 1)
		pbr_attr_from_typed(R, i, p, HILO_A_BATCH_GROUP_COUNT);
	if (op == HILO_OP_CUSTOM_CALL && p->padding_type)
		pbr_attr_from_typed(R, i, p, HILO_A_PADDING_TYPE);
	if (op == HILO_OP_TRIANGULAR_SOLVE && p->triangular_solve_options) {
		/* the flags when set; transpose_a always */
		const Xla__TriangularSolveOptions *o = p->triangular_solve_options;
		if (o->left_side)
			pbr_attr_from_typed(R, i, p, HILO_A_LEFT_SIDE);
		if (o->lower)
			pbr_attr_from_typed(R, i, p, HILO_A_LOWER);
		if (o->unit_diagonal)
			pbr_attr_from_typed(R, i, p, HILO_A_UNIT_DIAGONAL);
		pbr_attr_from_typed(R, i, p, HILO_A_TRANSPOSE_A);
	}
	if (op == HILO_OP_CHOLESKY && p->cholesky_options && p->cholesky_options->lower)
		pbr_attr_from_typed(R, i, p, HILO_A_LOWER);
	if (op == HILO_OP_DOMAIN && p->domain_entry_sharding && p->domain_exit_sharding)
		pbr_attr_from_typed(R, i, p, HILO_A_DOMAIN);
	if (op == HILO_OP_PARAMETER && p->parameter_replication)
		pbr_attr_from_typed(R, i, p, HILO_A_PARAMETER_REPLICATION);
	if (op == HILO_OP_INFEED && p->infeed_config.len)
		pbr_attr_from_typed(R, i, p, HILO_A_INFEED_CONFIG);
	if (op == HILO_OP_OUTFEED && p->outfeed_config.len)
		pbr_attr_from_typed(R, i, p, HILO_A_OUTFEED_CONFIG);
	if (p->optional_cross_program_prefetch_index_case ==
	    XLA__HLO_INSTRUCTION_PROTO__OPTIONAL_CROSS_PROGRAM_PREFETCH_INDEX_CROSS_PROGRAM_PREFETCH_INDEX)
		pbr_attr_from_typed(R, i, p, HILO_A_CROSS_PROGRAM_PREFETCH_INDEX);
	if ((op == HILO_OP_FUSION || op == HILO_OP_CALL || op == HILO_OP_ASYNC_START) && p->n_output_operand_aliasing)
		pbr_attr_from_typed(R, i, p, HILO_A_OUTPUT_TO_OPERAND_ALIASING);
	if (p->channel_id)
		pbr_attr_from_typed(R, i, p, HILO_A_CHANNEL_ID);
	/* collectives print their groups, {} for none; not a permute (its
	 * pairs say it all) nor a -done (its start's) */
	bool coll = (hilo_opcode_flags(op) & HILO_OPF_COLL) && op != HILO_OP_COLLECTIVE_PERMUTE &&
	            op != HILO_OP_COLLECTIVE_PERMUTE_START && op != HILO_OP_COLLECTIVE_PERMUTE_DONE &&
	            op != HILO_OP_ALL_GATHER_DONE && op != HILO_OP_ALL_REDUCE_DONE;
	if (p->n_replica_groups || p->collective_device_list || p->iota_collective_device_list ||
	    p->mesh_axes_replica_group_list || coll)
		pbr_attr_from_typed(R, i, p, HILO_A_REPLICA_GROUPS);
	if (p->n_dimensions && !hilo_instr_attr(i, HILO_A_DIMENSIONS) && op != HILO_OP_IOTA)
		pbr_attr_from_typed(R, i, p, HILO_A_DIMENSIONS);
	/* a custom-call's constrain_layout says field 57 holds its operand
	 * layouts (XLA prints those, never constrain_layout) */
	if (p->constrain_layout && op != HILO_OP_CUSTOM_CALL)
		pbr_attr_from_typed(R, i, p, HILO_A_CONSTRAIN_LAYOUT);
	if (p->use_global_device_ids)
		pbr_attr_from_typed(R, i, p, HILO_A_USE_GLOBAL_DEVICE_IDS);
	if (p->is_host_transfer)
		pbr_attr_from_typed(R, i, p, HILO_A_IS_HOST_TRANSFER);
	if (p->is_stable)
		pbr_attr_from_typed(R, i, p, HILO_A_IS_STABLE);
	if (p->n_source_target_pairs)
		pbr_attr_from_typed(R, i, p, HILO_A_SOURCE_TARGET_PAIRS);
	if ((op == HILO_OP_COLLECTIVE_PERMUTE || op == HILO_OP_COLLECTIVE_PERMUTE_START) &&
	    p->n_dynamic_slice_sizes)
		pbr_attr_from_typed(R, i, p, HILO_A_SLICE_SIZES);
	/* called computations */
	if (hilo_instr_ncalled(i)) {
		hilo_attr *a = NULL;
		if (op == HILO_OP_WHILE && hilo_instr_ncalled(i) == 2) {
			if ((a = pbr_append_known(R, i, HILO_A_CONDITION, HILO_ATTR_COMP)))
				a->v.i = 0;
			if ((a = pbr_append_known(R, i, HILO_A_BODY, HILO_ATTR_COMP)))
				a->v.i = 1;
		} else if (op == HILO_OP_CONDITIONAL && hilo_instr_ncalled(i) == 2 && i->noperands &&
		           i->operands[0]->shape->type == HILO_T_PRED) {
			/* a predicated conditional: XLA's parser takes these only */
			if ((a = pbr_append_known(R, i, HILO_A_TRUE_COMPUTATION, HILO_ATTR_COMP)))
				a->v.i = 0;
			if ((a = pbr_append_known(R, i, HILO_A_FALSE_COMPUTATION, HILO_ATTR_COMP)))
				a->v.i = 1;
		} else if (op == HILO_OP_CONDITIONAL || (op == HILO_OP_CUSTOM_CALL && hilo_instr_ncalled(i) > 1)) {
			if ((a = pbr_append_known(R, i, op == HILO_OP_CONDITIONAL ? HILO_A_BRANCH_COMPUTATIONS
			                                 : HILO_A_CALLED_COMPUTATIONS, HILO_ATTR_COMPS))) {
				a->v.i = 0;
				a->n = (int)hilo_instr_ncalled(i);
			}
		} else if (op == HILO_OP_SELECT_AND_SCATTER && hilo_instr_ncalled(i) == 2) {
			if ((a = pbr_append_known(R, i, HILO_A_SELECT, HILO_ATTR_COMP)))
				a->v.i = 0;
			if ((a = pbr_append_known(R, i, HILO_A_SCATTER, HILO_ATTR_COMP)))
				a->v.i = 1;
		} else if (hilo_instr_ncalled(i) == 1) {
			hilo_attr_id id = op == HILO_OP_FUSION || op == HILO_OP_ASYNC_START ? HILO_A_CALLS
			                                                                    : HILO_A_TO_APPLY;
			if ((a = pbr_append_known(R, i, id, HILO_ATTR_COMP)))
				a->v.i = 0;
		}
	}
	if (op == HILO_OP_CUSTOM_CALL && p->constrain_layout)
		pbr_attr_from_typed(R, i, p, HILO_A_OPERAND_LAYOUT_CONSTRAINTS);
	if (p->custom_call_has_side_effect)
		pbr_attr_from_typed(R, i, p, HILO_A_CUSTOM_CALL_HAS_SIDE_EFFECT);
	if (op == HILO_OP_CUSTOM_CALL) {
		if (R->has_lit8)
			pbr_attr_from_typed(R, i, p, HILO_A_LITERAL);
		if (p->n_output_operand_aliasing)
			pbr_attr_from_typed(R, i, p, HILO_A_OUTPUT_TO_OPERAND_ALIASING);
		if (p->custom_call_schedule)
			pbr_attr_from_typed(R, i, p, HILO_A_SCHEDULE);
	}
	if (p->async_execution_thread && *p->async_execution_thread &&
	    strcmp(p->async_execution_thread, "main"))
		pbr_attr_from_typed(R, i, p, HILO_A_ASYNC_EXECUTION_THREAD);
	if (p->is_composite)
		pbr_attr_from_typed(R, i, p, HILO_A_IS_COMPOSITE);
	if (op == HILO_OP_BATCH_NORM_TRAINING || op == HILO_OP_BATCH_NORM_INFERENCE ||
	    op == HILO_OP_BATCH_NORM_GRAD) {
		pbr_attr_from_typed(R, i, p, HILO_A_EPSILON);
		pbr_attr_from_typed(R, i, p, HILO_A_FEATURE_INDEX);
	}
	if (p->precision_config && p->precision_config->n_operand_precision &&
	    !(R->keep && all_default(p->precision_config)))
		pbr_attr_from_typed(R, i, p, HILO_A_OPERAND_PRECISION);
	if (op == HILO_OP_DOT && p->precision_config && pbx_enum_name(&pbx_dot_algorithms, p->precision_config->algorithm))
		pbr_attr_from_typed(R, i, p, HILO_A_ALGORITHM);
	/* ORIGINAL is what no api_version= means (XLA prints none) */
	if (op == HILO_OP_CUSTOM_CALL && p->custom_call_api_version &&
	    p->custom_call_api_version != 1 /* API_VERSION_ORIGINAL */)
		pbr_attr_from_typed(R, i, p, HILO_A_API_VERSION);
	if (p->sharding)
		pbr_attr_from_typed(R, i, p, HILO_A_SHARDING);
	if (p->frontend_attributes && p->frontend_attributes->n_map)
		pbr_attr_from_typed(R, i, p, HILO_A_FRONTEND_ATTRIBUTES);
	if (hilo_instr_nctrl_preds(i))
		pbr_append_known(R, i, HILO_A_CONTROL_PREDECESSORS, HILO_ATTR_CONTROL);
	/* XLA prints each only when it says something (pbx_*_render false) */
	if (p->statistics_viz)
		pbr_attr_from_typed(R, i, p, HILO_A_STATISTICS);
	if (p->result_accuracy)
		pbr_attr_from_typed(R, i, p, HILO_A_RESULT_ACCURACY);
	if (p->original_value)
		pbr_attr_from_typed(R, i, p, HILO_A_ORIGIN);
	if (i->metadata && i->metadata->n)
		pbr_append_known(R, i, HILO_A_METADATA, HILO_ATTR_METADATA);
	if (p->backend_config.len && !memchr(p->backend_config.data, 0, p->backend_config.len))
		pbr_attr_from_typed(R, i, p, HILO_A_BACKEND_CONFIG);
}

/* A HiloAttr message (hilo's extension) into a protobuf-c struct. */
static Xla__HiloAttr *read_hilo_attr(reader *R, const field *af)
{
	if (!pbr_want(R, af, PB_LEN))
		return NULL;
	Xla__HiloAttr *h = pbr_ralloc(R, sizeof *h);
	if (!h)
		return NULL;
	xla__hilo_attr__init(h);
	pr_cur c = {af->s.p, af->s.p + af->s.n};
	field f;
	slice s;
	while (pbr_next_field(R, &c, &f)) {
		switch (f.num) {
		case 1: if (!pbr_str_field(R, &f, &s) || !(h->key = pbr_sdup(R, s))) return NULL; break;
		case 2: if (!pbr_want(R, &f, PB_VARINT)) return NULL; h->kind = (int32_t)f.v; break;
		case 3: if (!pbr_str_field(R, &f, &s) || !(h->text = pbr_sdup(R, s))) return NULL; break;
		case 4: if (!pbr_rep_varint(R, &f, 8, (void **)&h->ints, &h->n_ints)) return NULL; break;
		case 5: if (!pbr_want(R, &f, PB_VARINT)) return NULL; h->i = (int64_t)f.v; break;
		case 6: if (!pbr_want(R, &f, PB_VARINT)) return NULL; h->n = (int32_t)f.v; break;
		default: break;
		}
	}
	return R->failed ? NULL : h;
}

/* ---- the second pass over an instruction (pb_read.c wire_instrs) ---- */

bool pbr_read_wire(reader *R, slice is, Xla__HloInstructionProto *P, bool *pinit,
	pb_unknown *unk, int depth)
{
	*pinit = false;
	for (int k = 0; k < 6; k++)
		R->sv[k].n = 0;
	R->own_called = false;
	R->has_lit8 = false;
	pr_cur c = {is.p, is.p + is.n};
	field f;
	slice s;
#define VARINT(dst, T) do { if (!pbr_want(R, &f, PB_VARINT)) return false; P->dst = (T)f.v; } while (0)
#define BOOL(dst) do { if (!pbr_want(R, &f, PB_VARINT)) return false; P->dst = f.v != 0; } while (0)
#define REP64(dst) do { if (!pbr_rep_varint(R, &f, 8, (void **)&P->dst, &P->n_##dst)) return false; } while (0)
#define CSTR(dst) do { if (!pbr_str_field(R, &f, &s) || !(P->dst = pbr_sdup(R, s))) return false; } while (0)
#define BYTES(dst) do { if (!pbr_want(R, &f, PB_LEN)) return false; P->dst = (ProtobufCBinaryData){f.s.n, (uint8_t *)f.s.p}; } while (0)
#define SUB(dst, d) do { if (!(P->dst = pbr_unpack_sub(R, &f, &d, depth))) return false; } while (0)
#define REPSUB(dst, d) do { \
	void *x = pbr_unpack_sub(R, &f, &d, depth); \
	void **a = x ? pbr_grow_to(R, P->dst, P->n_##dst, 1, sizeof(void *)) : NULL; \
	if (!a) return false; \
	a[P->n_##dst++] = x; \
	P->dst = (void *)a; \
} while (0)
	while (pbr_next_field(R, &c, &f)) {
		switch (f.num) {
		case 8: /* the first pass's; a custom-call's literal= is made from it */
			if (!pbr_want(R, &f, PB_LEN))
				return false;
			R->lit8 = f.s;
			R->has_lit8 = true;
			continue;
		case 1: case 2: case 3: case 7: case 9: case 35: case 1002: case 1003: case 1004: case 1005:
			continue; /* the first pass's */
		case 29:
			continue; /* outfeed_shape: the writer derives it from the operand */
		case 36: case 37: case 38:
			if (!pbr_rep_varint_sv(R, &f, &R->sv[f.num - 36]))
				return false;
			continue;
		case 1001:
			if (!pbr_str_field(R, &f, &s) || !pbr_sv_push_slice(R, &R->sv[3], s))
				return false;
			continue;
		case 1006: /* an async sugar start's callees; 38 names its wrapper */
			if (!pbr_rep_varint_sv(R, &f, &R->sv[5]))
				return false;
			continue;
		case 1007:
			if (!pbr_want(R, &f, PB_VARINT))
				return false;
			R->own_called = f.v != 0;
			continue;
		case 57: /* operand_shapes_with_layout: decoded when its attribute is made */
			if (!pbr_want(R, &f, PB_LEN) || !pbr_sv_push_slice(R, &R->sv[4], f.s))
				return false;
			continue;
		default:
			if (f.num < 128 ? R->declared[f.num >> 6] >> (f.num & 63) & 1
			                : protobuf_c_message_descriptor_get_field(&xla__hlo_instruction_proto__descriptor, f.num) != NULL)
				break;
			if (!pbr_keep_field(R, &f, unk))
				return false;
			continue;
		}
		/* a typed field: P holds them */
		if (!*pinit) {
			xla__hlo_instruction_proto__init(P);
			*pinit = true;
		}
		switch (f.num) {
		case 11: CSTR(fusion_kind); break;
		case 13: VARINT(tuple_index, int64_t); break;
		case 14: REP64(dimensions); break;
		case 15: SUB(window, xla__window__descriptor); break;
		case 16: SUB(convolution_dimension_numbers, xla__convolution_dimension_numbers__descriptor); break;
		case 17: REPSUB(slice_dimensions, xla__hlo_instruction_proto__slice_dimensions__descriptor); break;
		case 18: VARINT(exponent_bits, int32_t); break;
		case 19: VARINT(mantissa_bits, int32_t); break;
		case 20: REP64(dynamic_slice_sizes); break;
		case 21: SUB(padding_config, xla__padding_config__descriptor); break;
		case 22: BYTES(outfeed_config); break;
		case 23: VARINT(distribution, Xla__RandomDistribution); break;
		case 24: {
			if (!pbr_want(R, &f, PB_I32))
				return false;
			uint32_t x = (uint32_t)f.v;
			memcpy(&P->epsilon, &x, 4);
			break;
		}
		case 25: VARINT(feature_index, int64_t); break;
		case 26: VARINT(channel_id, int64_t); break;
		case 27: BYTES(infeed_config); break;
		case 28: CSTR(custom_call_target); break;
		case 30: SUB(dot_dimension_numbers, xla__dot_dimension_numbers__descriptor); break;
		case 31: VARINT(fft_type, Xla__FftType); break;
		case 32: REP64(fft_length); break;
		case 33: SUB(gather_dimension_numbers, xla__gather_dimension_numbers__descriptor); break;
		case 34: REP64(gather_slice_sizes); break;
		case 40: SUB(sharding, xla__op_sharding__descriptor); break;
		case 43: BYTES(backend_config); break;
		case 47: BOOL(is_host_transfer); break;
		case 48: SUB(scatter_dimension_numbers, xla__scatter_dimension_numbers__descriptor); break;
		case 49: REPSUB(replica_groups, xla__replica_group__descriptor); break;
		case 50: VARINT(feature_group_count, int64_t); break;
		case 51: SUB(precision_config, xla__precision_config__descriptor); break;
		case 52: REPSUB(source_target_pairs, xla__source_target__descriptor); break;
		case 54: SUB(domain_entry_sharding, xla__op_sharding__descriptor); break;
		case 55: SUB(domain_exit_sharding, xla__op_sharding__descriptor); break;
		case 56: BOOL(constrain_layout); break;
		case 58: VARINT(batch_group_count, int64_t); break;
		case 59: SUB(triangular_solve_options, xla__triangular_solve_options__descriptor); break;
		case 60: BOOL(is_stable); break;
		case 61: SUB(parameter_replication, xla__parameter_replication__descriptor); break;
		case 62: SUB(cholesky_options, xla__cholesky_options__descriptor); break;
		case 63: CSTR(comparison_direction); break;
		case 65: BOOL(custom_call_has_side_effect); break;
		case 66: VARINT(delta, int64_t); break;
		case 67: BOOL(indices_are_sorted); break;
		case 68: SUB(frontend_attributes, xla__frontend_attributes__descriptor); break;
		case 69: BOOL(unique_indices); break;
		case 70: VARINT(rng_algorithm, int32_t); break;
		case 71: BOOL(use_global_device_ids); break;
		case 72: CSTR(comparison_type); break;
		case 74: REPSUB(output_operand_aliasing, xla__output_operand_aliasing__descriptor); break;
		case 75: VARINT(padding_type, int32_t); break;
		case 76: VARINT(custom_call_schedule, int32_t); break;
		case 77: VARINT(custom_call_api_version, int32_t); break;
		case 79: CSTR(async_execution_thread); break;
		case 80:
			VARINT(cross_program_prefetch_index, int32_t);
			P->optional_cross_program_prefetch_index_case =
				XLA__HLO_INSTRUCTION_PROTO__OPTIONAL_CROSS_PROGRAM_PREFETCH_INDEX_CROSS_PROGRAM_PREFETCH_INDEX;
			break;
		case 81: VARINT(k, int64_t); break;
		case 85: BOOL(largest); break;
		case 87: SUB(collective_device_list, xla__collective_device_list_proto__descriptor); break;
		case 92: SUB(iota_collective_device_list, xla__iota_replica_group_list_proto__descriptor); break;
		case 93: SUB(mesh_axes_replica_group_list, xla__mesh_axes_replica_group_list_proto__descriptor); break;
		case 89: BOOL(is_composite); break;
		case 90: SUB(ragged_dot_dimension_numbers, xla__ragged_dot_dimension_numbers__descriptor); break;
		case 94: BOOL(is_reverse); break;
		case 95: VARINT(num_carries, int64_t); break;
		case 96: BOOL(is_associative); break;
		case 100: BOOL(has_dynamic_root); break;
		case 82: SUB(statistics_viz, xla__statistics_viz__descriptor); break;
		case 88: SUB(original_value, xla__original_value_proto__descriptor); break;
		case 91: SUB(result_accuracy, xla__result_accuracy__descriptor); break;
		case 1000: {
			Xla__HiloAttr *h = read_hilo_attr(R, &f);
			Xla__HiloAttr **a = h ? pbr_grow_to(R, P->hilo_attrs, P->n_hilo_attrs, 1, sizeof *a) : NULL;
			if (!a)
				return false;
			a[P->n_hilo_attrs++] = h;
			P->hilo_attrs = a;
			break;
		}
		default:
			/* declared, not modelled (all_reduce_id,
			 * is_cross_program_prefetch): kept
			 * verbatim, as an unknown field is */
			if (!pbr_keep_field(R, &f, unk))
				return false;
			break;
		}
	}
#undef VARINT
#undef BOOL
#undef REP64
#undef CSTR
#undef BYTES
#undef SUB
#undef REPSUB
	return !R->failed;
}
