/* The proto writer's attribute mapping: each IR attribute into the typed
 * HloInstructionProto field XLA reads it from (hilo/attrs.def's field
 * column), built as protobuf-c structs in the writer's scratch arena.
 * Raw-text attributes parse through pb_attrs.c; an attribute whose typed
 * field cannot give its text back byte for byte also goes to hilo's
 * extension, so the text round trip stays exact (pb_write.c). */
#include "pb_write.h"
#include "hilo/hlo_text.h"

#include <string.h>

Xla__DotDimensionNumbers *pbw_dot_of(writer *W, inst_ctx *X)
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

/* Puts attribute a into its typed field; false when it has none (or
 * the typed field cannot reproduce it). */
/* A custom-call's operand_layout_constraints={SHAPE, ...} as the shapes
 * of operand_shapes_with_layout (field 57), parsed into a scratch module
 * (X->opshapes). 0: not shapes (nothing kept); 1: shapes, but XLA's print
 * of them is not the text; 2: the text exactly. */
static int operand_shapes(writer *W, inst_ctx *X, const char *text)
{
	size_t n = strlen(text), at = 1, cap = 0;
	if (n < 2 || text[0] != '{' || text[n - 1] != '}')
		return 0;
	if (!W->scratch && !(W->scratch = hilo_module_create_in("operand_shapes", W->a)))
		return 0;
	hilo_diags d;
	hilo_diags_init_in(&d, W->a); /* an out-of-memory jump frees it */
	bool ok = true;
	while (ok && at < n - 1) {
		size_t used = 0;
		hilo_shape *s = hilo_parse_shape(W->scratch, text + at, n - 1 - at, &used, "", &d);
		if (!s) {
			ok = false;
			break;
		}
		if (X->nopshapes == cap) {
			cap = cap ? 2 * cap : 4;
			hilo_shape **v = walloc(W, cap * sizeof *v);
			if (!v) {
				ok = false;
				break;
			}
			if (X->nopshapes)
				memcpy(v, X->opshapes, X->nopshapes * sizeof *v);
			X->opshapes = v;
		}
		X->opshapes[X->nopshapes++] = s;
		at += used;
		if (at < n - 1 && !(text[at] == ',' && text[at + 1] == ' '))
			ok = false;
		else if (at < n - 1)
			at += 2;
	}
	hilo_diags_free(&d);
	if (!ok) {
		scratch_oom(W);
		X->nopshapes = 0;
		return 0;
	}
	W->tmp.len = 0;
	pbx_shapes_render(&W->tmp, (const hilo_shape *const *)X->opshapes, X->nopshapes);
	return !W->tmp.oom && W->tmp.len == n && !memcmp(W->tmp.data, text, n) ? 2 : 1;
}

/* A custom-call's literal=SHAPE VALUES as the literal (field 8), parsed
 * into the scratch module; exact (true) when hilo's print of it is the
 * text, else the text goes to hilo_attrs as well. */
/* A literal's text: SHAPE VALUES, or XLA's print of a tuple literal,
 * ( SHAPE VALUES, SHAPE VALUES ), each element with its own shape. */
static hilo_literal *literal_text(writer *W, const char *t, size_t n, hilo_diags *d, int depth)
{
	while (n && *t == ' ')
		t++, n--;
	while (n && t[n - 1] == ' ')
		n--;
	if (!n || t[0] != '(' || t[n - 1] != ')' || depth > 64)
		return hilo_parse_literal(W->scratch, t, n, "", d);
	/* the elements: split at the commas outside brackets and quotes */
	hilo_literal **el = NULL;
	int ne = 0, cap = 0, lvl = 0;
	size_t from = 1;
	for (size_t k = 1; k < n; k++) {
		char c = t[k];
		if (c == '(' || c == '{' || c == '[')
			lvl++;
		else if ((c == ')' || c == '}' || c == ']') && (lvl || k != n - 1))
			lvl--;
		if (!((c == ',' && !lvl) || k == n - 1))
			continue;
		if (ne == cap) {
			cap = cap ? 2 * cap : 4;
			hilo_literal **nv = walloc(W, (size_t)cap * sizeof *nv);
			if (!nv)
				return NULL;
			if (ne)
				memcpy(nv, el, (size_t)ne * sizeof *nv);
			el = nv;
		}
		if (!(el[ne++] = literal_text(W, t + from, k - from, d, depth + 1)))
			return NULL;
		from = k + 1;
	}
	hilo_shape **es = walloc(W, (size_t)(ne ? ne : 1) * sizeof *es);
	hilo_literal *l = walloc(W, sizeof *l);
	if (!es || !l)
		return NULL;
	for (int k = 0; k < ne; k++)
		es[k] = el[k]->shape;
	memset(l, 0, sizeof *l);
	l->shape = hilo_shape_tuple(W->scratch->shapes, ne, es);
	l->ntuple = ne;
	l->elems = el;
	return l->shape ? l : NULL;
}

static bool cc_literal(writer *W, inst_ctx *X, const char *text)
{
	if (!W->scratch && !(W->scratch = hilo_module_create_in("literal", W->a)))
		return false;
	hilo_diags d;
	hilo_diags_init_in(&d, W->a); /* an out-of-memory jump frees it */
	size_t n = strlen(text);
	X->cclit = literal_text(W, text, n, &d, 0);
	hilo_diags_free(&d);
	if (!X->cclit) {
		scratch_oom(W);
		return false;
	}
	X->used[PBF_CC_LITERAL] = true;
	W->tmp.len = 0;
	hilo_print_literal(&W->tmp, X->cclit, true);
	return !W->tmp.oom && W->tmp.len == n && !memcmp(W->tmp.data, text, n);
}

/* An in-place collective-permute's slice_sizes={{..},..}: the lists
 * flattened into dynamic_slice_sizes (20), which XLA's reader cuts by the
 * operands' ranks (pb_read_attrs.c permute_chunks). Exact when XLA's print
 * of them is the text. */
static bool permute_slices(writer *W, inst_ctx *X, const char *text)
{
	int64_t *v;
	size_t n, *chunks, nchunks;
	if (X->used[PBF_DYNAMIC_SLICE_SIZES] || !pbx_slice_lists_parse(W->a, text, &v, &n, &chunks, &nchunks))
		return false;
	X->p->n_dynamic_slice_sizes = n;
	X->p->dynamic_slice_sizes = v;
	X->used[PBF_DYNAMIC_SLICE_SIZES] = true;
	W->tmp.len = 0;
	pbx_slice_lists_render(&W->tmp, v, chunks, nchunks);
	return !W->tmp.oom && W->tmp.len == strlen(text) && !memcmp(W->tmp.data, text, W->tmp.len);
}

bool pbw_attr_typed(writer *W, inst_ctx *X, const hilo_instr *i, const hilo_attr *a)
{
	if (a->id == HILO_A_SLICE_SIZES && a->kind == HILO_ATTR_RAW &&
	    (i->op == HILO_OP_COLLECTIVE_PERMUTE || i->op == HILO_OP_COLLECTIVE_PERMUTE_START))
		return permute_slices(W, X, a->v.text);
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
		p->n_dimensions = n; p->dimensions = (int64_t *)iv; break;
	case PBF_IOTA_DIMENSION:
		if (X->used[PBF_DIMENSIONS])
			return false;
		X->iota = v; p->n_dimensions = 1; p->dimensions = &X->iota; break;
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
	case PBF_DYNAMIC_SLICE_SIZES: p->n_dynamic_slice_sizes = n; p->dynamic_slice_sizes = (int64_t *)iv; break;
	case PBF_FFT_LENGTH: p->n_fft_length = n; p->fft_length = (int64_t *)iv; break;
	case PBF_GATHER_SLICE_SIZES:
		if (op != HILO_OP_GATHER) return false;
		p->n_gather_slice_sizes = n; p->gather_slice_sizes = (int64_t *)iv; break;
	case PBF_DOT_LC: case PBF_DOT_RC: case PBF_DOT_LB: case PBF_DOT_RB: {
		if (op != HILO_OP_DOT && op != HILO_OP_RAGGED_DOT) return false;
		Xla__DotDimensionNumbers *dd = pbw_dot_of(W, X);
		if (!dd) return false;
		int64_t *c = (int64_t *)iv;
		if (def->field == PBF_DOT_LC) { dd->n_lhs_contracting_dimensions = n; dd->lhs_contracting_dimensions = c; }
		if (def->field == PBF_DOT_RC) { dd->n_rhs_contracting_dimensions = n; dd->rhs_contracting_dimensions = c; }
		if (def->field == PBF_DOT_LB) { dd->n_lhs_batch_dimensions = n; dd->lhs_batch_dimensions = c; }
		if (def->field == PBF_DOT_RB) { dd->n_rhs_batch_dimensions = n; dd->rhs_batch_dimensions = c; }
		break;
	}
	case PBF_RAGGED_L: case PBF_RAGGED_R: {
		if (op != HILO_OP_RAGGED_DOT || !pbw_dot_of(W, X) || !X->ragged) return false;
		int64_t *c = (int64_t *)iv;
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
		int64_t *c = (int64_t *)iv;
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
		int64_t *c = (int64_t *)iv;
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
		int k = pbx_enum_value(&pbx_fft_types, a->v.text);
		if (k < 0) return false;
		p->fft_type = (Xla__FftType)k;
		break;
	}
	case PBF_DISTRIBUTION: {
		int k = pbx_enum_value(&pbx_distributions, a->v.text);
		if (k < 0) return false;
		p->distribution = (Xla__RandomDistribution)k;
		break;
	}
	case PBF_RNG_ALGORITHM: {
		if (op == HILO_OP_DOT) {
			/* a dot's goes into its precision_config (put_instr) */
			X->dot_alg = pbx_enum_value(&pbx_dot_algorithms, a->v.text);
			if (X->dot_alg < 0)
				X->dot_alg = 0; /* a name XLA does not know: ALG_UNSET */
			break;
		}
		int k = pbx_enum_value(&pbx_rng_algorithms, a->v.text);
		if (k < 0 || op != HILO_OP_RNG_BIT_GENERATOR) return false;
		p->rng_algorithm = k;
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
	case PBF_OPERAND_SHAPES: {
		int got = op == HILO_OP_CUSTOM_CALL ? operand_shapes(W, X, a->v.text) : 0;
		if (got)
			p->constrain_layout = true; /* XLA reads field 57 only with it */
		X->used[def->field] = got != 0;
		return got == 2; /* else the text goes to hilo_attrs as well */
	}
	case PBF_CC_LITERAL:
		if (op != HILO_OP_CUSTOM_CALL)
			return false;
		return cc_literal(W, X, a->v.text);
	case PBF_OUTPUT_ALIASING:
		/* XLA's reader takes field 74 on these (an async-start's too:
		 * HloAsyncStartInstruction keeps it, and XLA writes it there) */
		if (op != HILO_OP_FUSION && op != HILO_OP_CUSTOM_CALL && op != HILO_OP_CALL &&
		    op != HILO_OP_ASYNC_START)
			return false;
		goto scratch;
	case PBF_PARAM_REPLICATION:
		if (op != HILO_OP_PARAMETER)
			return false;
		goto scratch;
	case PBF_CC_SCHEDULE: case PBF_PADDING_TYPE:
		if (op != HILO_OP_CUSTOM_CALL)
			return false;
		goto scratch;
	case PBF_DOMAIN:
		if (op != HILO_OP_DOMAIN)
			return false;
		goto scratch;
	case PBF_TS_LEFT_SIDE: case PBF_TS_UNIT_DIAGONAL: case PBF_TS_TRANSPOSE: case PBF_LOWER:
		if (op != HILO_OP_TRIANGULAR_SOLVE && !(op == HILO_OP_CHOLESKY && def->field == PBF_LOWER))
			return false;
		goto scratch;
	case PBF_BACKEND_CONFIG: case PBF_FRONTEND_ATTRS: case PBF_REPLICA_GROUPS:
	case PBF_SOURCE_TARGET: case PBF_WINDOW: case PBF_DIM_LABELS: case PBF_SHARDING:
	case PBF_EPSILON: case PBF_API_VERSION: case PBF_PRECISION:
	case PBF_STATISTICS: case PBF_RESULT_ACCURACY: case PBF_ORIGIN:
	scratch: {
		/* parse into a scratch message, take the field on success; the
		 * options messages of several attributes accumulate */
		Xla__HloInstructionProto t;
		xla__hlo_instruction_proto__init(&t);
		t.triangular_solve_options = p->triangular_solve_options;
		t.cholesky_options = p->cholesky_options;
		if (!pbx_parse(W->a, &t, def->field, a->v.text))
			return false;
		switch (def->field) {
		case PBF_BACKEND_CONFIG: p->backend_config = t.backend_config; break;
		case PBF_FRONTEND_ATTRS: p->frontend_attributes = t.frontend_attributes; break;
		case PBF_REPLICA_GROUPS:
			p->n_replica_groups = t.n_replica_groups;
			p->replica_groups = t.replica_groups;
			p->collective_device_list = t.collective_device_list;
			p->iota_collective_device_list = t.iota_collective_device_list;
			p->mesh_axes_replica_group_list = t.mesh_axes_replica_group_list;
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
		case PBF_OUTPUT_ALIASING:
			p->n_output_operand_aliasing = t.n_output_operand_aliasing;
			p->output_operand_aliasing = t.output_operand_aliasing;
			break;
		case PBF_PARAM_REPLICATION: p->parameter_replication = t.parameter_replication; break;
		case PBF_CC_SCHEDULE: p->custom_call_schedule = t.custom_call_schedule; break;
		case PBF_PADDING_TYPE: p->padding_type = t.padding_type; break;
		case PBF_DOMAIN:
			p->domain_entry_sharding = t.domain_entry_sharding;
			p->domain_exit_sharding = t.domain_exit_sharding;
			break;
		case PBF_TS_LEFT_SIDE: case PBF_TS_UNIT_DIAGONAL: case PBF_TS_TRANSPOSE: case PBF_LOWER:
			if (op == HILO_OP_CHOLESKY)
				p->cholesky_options = t.cholesky_options;
			else
				p->triangular_solve_options = t.triangular_solve_options;
			break;
		case PBF_DIM_LABELS: p->convolution_dimension_numbers = t.convolution_dimension_numbers; break;
		case PBF_STATISTICS: p->statistics_viz = t.statistics_viz; break;
		case PBF_RESULT_ACCURACY: p->result_accuracy = t.result_accuracy; break;
		case PBF_ORIGIN: p->original_value = t.original_value; break;
		default: return false;
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
