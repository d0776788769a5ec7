/* What XLA's proto reader demands of an HloModuleProto that hilo writes
 * (issue 28: defects real XLA found, docs/xla-departures.md). Each module
 * is written by hilo_proto_write and decoded again with protobuf-c's
 * generated reader for XLA's own message definitions, and the fields XLA
 * checks are looked at directly:
 *  - a LiteralProto's shape has a layout even when the text gave the
 *    constant none (XLA: "LiteralProto has no layout");
 *  - an iota tile assignment or replica-group list without T(...) carries
 *    the identity transpose, as long as its reshape dims (XLA:
 *    RET_CHECK iota_reshape_dims().size() == iota_transpose_perm().size()),
 *    and iota replica groups go in iota_collective_device_list (92): XLA
 *    read them inside collective_device_list (87) as replica_groups={};
 *  - rng-bit-generator's algorithm= is the typed rng_algorithm field
 *    (XLA read rng_philox back as rng_default);
 *  - a custom-call without api_version= is API_VERSION_ORIGINAL, XLA's
 *    default (XLA printed the proto's UNSPECIFIED back as
 *    api_version=API_VERSION_UNSPECIFIED, which its parser refuses).
 *  - instruction names are unique in the module (XLA: RET_CHECK
 *    "Instruction name is not unique"), though the text scopes them per
 *    computation: a repeated one is written name.K and hilo's reader puts
 *    the text's name back.
 *  - an elided constant ({...}) has its elements (zeros): XLA refuses a
 *    LiteralProto without them; hilo's flag reads it back elided;
 *  - a token's shape has no layout (XLA: "TOKEN should not have a
 *    layout");
 *  - an outfeed has its outfeed_shape, the operand's (XLA refused an
 *    outfeed without one: "Invalid element type");
 *  - a module printed is_scheduled=true has a schedule (field 7): one
 *    sequence per non-fusion computation, in the instructions' order
 *    (XLA's reader takes a module without one as unscheduled).
 *  - a custom-call's operand_layout_constraints are its
 *    operand_shapes_with_layout (57) with constrain_layout (56), which
 *    XLA reads them under (they were hilo's extension only, so XLA lost
 *    them); read from a proto hilo did not write, they print as XLA's
 *    printer does, without constrain_layout=true.
 *  - operand aliasing, a custom-call's literal, schedule and padding_type,
 *    triangular-solve and cholesky options and parameter_replication are
 *    XLA's typed fields (XLA lost them: hilo's extension only), and a
 *    proto hilo did not write prints them as XLA does; a convolution
 *    always has a window and a dot its dimension numbers (XLA's reader
 *    refuses either missing);
 *  - a LiteralProto's values are in its layout's order (hilo wrote and
 *    read them row-major: a {0,1} constant came out transposed), and
 *    XLA's s4 -8 (the byte 8) reads as -8 (hilo refused it);
 *  - origin= (original_value, 88), statistics= (statistics_viz, 82),
 *    result_accuracy= (91) and sharding={unreduced} (type 6) are XLA's
 *    typed fields, byte for byte what XLA writes for the same text (they
 *    were hilo's extension only, or refused: XLA lost them);
 *  - the mesh forms, replica_groups=mesh[..] {..} (93) and a sharding
 *    over a mesh (OpSharding.named_sharding, 14), and dim_labels with '?'
 *    (a dimension of no role) likewise;
 *  - metadata's profile_type={1,2} is OpMetadata field 5 (packed), XLA's
 *    print order kept (XLA lost it: the whole metadata went to hilo's
 *    entries as well).
 * And the text still comes back byte for byte through the proto. */
#include "check.h"

#include "hilo/proto.h"
#include "hlo.pb-c.h"

static const char text[] =
	"HloModule m\n"
	"\n"
	"f {\n"
	"  q = f32[8]{0} parameter(0)\n"
	"  ROOT a = f32[8]{0} negate(q)\n"
	"}\n"
	"\n"
	"ENTRY e {\n"
	"  p = f32[8]{0} parameter(0), sharding={devices=[4,2]<=[8]}\n"
	"  s = u64[2]{0} parameter(1)\n"
	"  c = f32[8] constant({1, 2, 3, 4, 5, 6, 7, 8})\n"
	"  k = s32[] constant(3)\n"
	"  a = f32[8]{0} add(p, c)\n"
	"  g = f32[16]{0} all-gather(a), replica_groups=[4,2]<=[8], dimensions={0}\n"
	"  x = f32[16]{0} custom-call(g), custom_call_target=\"foo\"\n"
	"  y = f32[8]{0} call(a), to_apply=f\n"
	"  r = (u64[2]{0}, u32[4]{0}) rng-bit-generator(s), algorithm=rng_philox\n"
	"  ROOT t = (f32[16]{0}, (u64[2]{0}, u32[4]{0}), s32[], f32[8]{0}) tuple(x, r, k, y)\n"
	"}\n";

static const char scheduled[] =
	"HloModule s, is_scheduled=true\n"
	"\n"
	"fc {\n"
	"  a = f32[4]{0} parameter(0)\n"
	"  ROOT n = f32[4]{0} negate(a)\n"
	"}\n"
	"\n"
	"ENTRY e {\n"
	"  p = f32[4]{0} parameter(0)\n"
	"  c = f32[3,5]{1,0} constant({...})\n"
	"  h = bf16[2]{0} constant({...})\n"
	"  t = token[] after-all()\n"
	"  f = f32[4]{0} fusion(p), kind=kLoop, calls=fc\n"
	"  o = token[] outfeed(p, t)\n"
	"  ROOT r = (f32[4]{0}, f32[3,5]{1,0}, bf16[2]{0}, token[]) tuple(f, c, h, o)\n"
	"}\n";

/* The entry computation's instruction of that name. */
static const Xla__HloInstructionProto *find(const Xla__HloModuleProto *mp, const char *name)
{
	for (size_t c = 0; c < mp->n_computations; c++)
		for (size_t k = 0; !strcmp(mp->computations[c]->name, mp->entry_computation_name) &&
		     k < mp->computations[c]->n_instructions; k++)
			if (!strcmp(mp->computations[c]->instructions[k]->name, name))
				return mp->computations[c]->instructions[k];
	return NULL;
}

static hilo_module *parse(const char *src, size_t n, hilo_diags *d)
{
	hilo_module *m = hilo_parse_text(src, n, "xla.hlo", d);
	if (!CHECK(m != NULL))
		hilo_diags_print(stderr, d);
	return m;
}

/* mp packed into fb as a proto hilo did not write (no attribute order,
 * hilo_written off: XLA's form); its length (0 out of memory). mp is left
 * as it was. */
static size_t pack_as_foreign(Xla__HloModuleProto *mp, hilo_buf *fb)
{
	size_t nsaved = 0, at = 0;
	for (size_t k = 0; k < mp->n_computations; k++)
		nsaved += mp->computations[k]->n_instructions;
	size_t *saved = calloc(nsaved ? nsaved : 1, sizeof *saved);
	if (!saved)
		return 0;
	for (size_t k = 0; k < mp->n_computations; k++)
		for (size_t j = 0; j < mp->computations[k]->n_instructions; j++) {
			saved[at++] = mp->computations[k]->instructions[j]->n_hilo_attr_order;
			mp->computations[k]->instructions[j]->n_hilo_attr_order = 0;
		}
	bool written = mp->hilo_written;
	mp->hilo_written = false;
	size_t n = xla__hlo_module_proto__get_packed_size(mp);
	hilo_buf_reserve(fb, n);
	xla__hlo_module_proto__pack(mp, (uint8_t *)fb->data);
	mp->hilo_written = written;
	at = 0;
	for (size_t k = 0; k < mp->n_computations; k++)
		for (size_t j = 0; j < mp->computations[k]->n_instructions; j++)
			mp->computations[k]->instructions[j]->n_hilo_attr_order = saved[at++];
	free(saved);
	return n;
}

/* mp's text as hilo prints a proto it did not write (pack_as_foreign),
 * into t; false when hilo refuses it. mp is left as it was. */
static bool print_as_foreign(Xla__HloModuleProto *mp, hilo_buf *t, hilo_diags *d)
{
	hilo_buf fb;
	hilo_buf_init(&fb);
	size_t n = pack_as_foreign(mp, &fb);
	hilo_module *f = hilo_proto_read(fb.data, n, "foreign.pb", d);
	hilo_buf_free(&fb);
	if (!f) {
		hilo_diags_print(stderr, d);
		return false;
	}
	hilo_print_text(t, f, HILO_STYLE_AUTO);
	hilo_module_destroy(f);
	return true;
}

/* Every one of the n strings want[] occurs in s (each missing one
 * reported with s). */
static void check_contains(const char *s, const char *const *want, size_t n)
{
	for (size_t k = 0; k < n; k++)
		if (!CHECK(strstr(s, want[k]) != NULL))
			fprintf(stderr, "  missing: %s\nin:\n%s\n", want[k], s);
}

/* The text comes back byte for byte through hilo's proto. */
static void check_round_trip(const hilo_module *m, const hilo_buf *pb, hilo_diags *d)
{
	hilo_buf t1, t2;
	hilo_buf_init(&t1);
	hilo_buf_init(&t2);
	hilo_print_text(&t1, m, HILO_STYLE_AUTO);
	hilo_module *m2 = hilo_proto_read(pb->data, pb->len, "xla.pb", d);
	if (CHECK(m2 != NULL)) {
		hilo_print_text(&t2, m2, HILO_STYLE_AUTO);
		CHECK_STR(hilo_buf_cstr(&t2), hilo_buf_cstr(&t1));
		hilo_module_destroy(m2);
	}
	hilo_buf_free(&t1);
	hilo_buf_free(&t2);
}

static void test_scheduled_elided_token(hilo_diags *d)
{
	hilo_module *m = parse(scheduled, sizeof scheduled - 1, d);
	if (!m)
		return;
	hilo_buf pb;
	hilo_buf_init(&pb);
	CHECK(hilo_proto_write(&pb, m, d));
	Xla__HloModuleProto *mp = xla__hlo_module_proto__unpack(NULL, pb.len, (const uint8_t *)pb.data);
	if (CHECK(mp != NULL)) {
		const Xla__HloInstructionProto *c = find(mp, "c"), *h = find(mp, "h"), *t = find(mp, "t");
		CHECK(c && c->literal && c->literal->n_f32s == 15);
		int zero = 1;
		for (size_t k = 0; c && c->literal && k < c->literal->n_f32s; k++)
			zero = zero && c->literal->f32s[k] == 0.0f;
		CHECK(zero);
		CHECK(h && h->literal && h->literal->bf16s.len == 4);
		CHECK(t && t->shape && !t->shape->layout);
		/* an outfeed has its outfeed_shape, the operand's */
		const Xla__HloInstructionProto *o = find(mp, "o");
		CHECK(o && o->outfeed_shape && o->outfeed_shape->element_type == XLA__PRIMITIVE_TYPE__F32 &&
		      o->outfeed_shape->n_dimensions == 1 && o->outfeed_shape->dimensions[0] == 4);
		/* one sequence, the entry's (fc is a fusion computation), in
		 * the instructions' order */
		const Xla__HloScheduleProto *sp = mp->schedule;
		if (CHECK(sp && sp->n_sequences == 1)) {
			CHECK(sp->sequences[0]->key == mp->entry_computation_id);
			const Xla__HloScheduleProto__InstructionSequence *q = sp->sequences[0]->value;
			const char *order[] = {"p", "c", "h", "t", "f", "o", "r"};
			if (CHECK(q && q->n_instruction_ids == 7))
				for (size_t k = 0; k < 7; k++) {
					const Xla__HloInstructionProto *i = find(mp, order[k]);
					CHECK(i && i->id == q->instruction_ids[k]);
				}
		}
		xla__hlo_module_proto__free_unpacked(mp, NULL);
	}
	check_round_trip(m, &pb, d);
	hilo_buf_free(&pb);
	hilo_module_destroy(m);
}

static const char layouts[] =
	"HloModule l\n"
	"\n"
	"ENTRY e {\n"
	"  a = f32[2,3]{0,1} parameter(0)\n"
	"  b = (f32[4]{0}, s32[]) parameter(1)\n"
	"  ROOT c = f32[2,3]{1,0} custom-call(a, b), custom_call_target=\"k\", "
	"operand_layout_constraints={f32[2,3]{0,1}, (f32[4]{0}, s32[])}\n"
	"}\n";

static void test_operand_layouts(hilo_diags *d)
{
	hilo_module *m = parse(layouts, sizeof layouts - 1, d);
	if (!m)
		return;
	hilo_buf pb, t;
	hilo_buf_init(&pb);
	hilo_buf_init(&t);
	CHECK(hilo_proto_write(&pb, m, d));
	Xla__HloModuleProto *mp = xla__hlo_module_proto__unpack(NULL, pb.len, (const uint8_t *)pb.data);
	if (CHECK(mp != NULL)) {
		Xla__HloInstructionProto *c = (Xla__HloInstructionProto *)find(mp, "c");
		if (CHECK(c && c->constrain_layout && c->n_operand_shapes_with_layout == 2)) {
			const Xla__ShapeProto *s0 = c->operand_shapes_with_layout[0];
			const Xla__ShapeProto *s1 = c->operand_shapes_with_layout[1];
			CHECK(s0->layout && s0->layout->n_minor_to_major == 2 &&
			      s0->layout->minor_to_major[0] == 0 && s0->layout->minor_to_major[1] == 1);
			CHECK(s1->element_type == XLA__PRIMITIVE_TYPE__TUPLE && s1->n_tuple_shapes == 2);
			CHECK(c->n_hilo_attrs == 0); /* the typed field says it all */
			/* as a proto hilo did not write: XLA's print order, no
			 * constrain_layout=true */
			if (CHECK(print_as_foreign(mp, &t, d))) {
				CHECK(strstr(hilo_buf_cstr(&t), "custom_call_target=\"k\", operand_layout_constraints="
				                                 "{f32[2,3]{0,1}, (f32[4]{0}, s32[])}") != NULL);
				CHECK(!strstr(hilo_buf_cstr(&t), "constrain_layout"));
			}
		}
		xla__hlo_module_proto__free_unpacked(mp, NULL);
	}
	check_round_trip(m, &pb, d);
	hilo_buf_free(&pb);
	hilo_buf_free(&t);
	hilo_module_destroy(m);
}

/* Attributes XLA reads from typed fields only (they were hilo's
 * extension, or dropped on a proto hilo did not write): operand aliasing
 * (74) of a fusion and a custom-call, a custom-call's literal (8),
 * schedule (76) and padding_type (75), triangular-solve (59) and
 * cholesky (62) options, parameter_replication (61); and the messages
 * XLA's reader requires although the text gives nothing to put in them:
 * a convolution's window, a dot's dimension numbers. */
static const char typed[] =
	"HloModule t\n"
	"\n"
	"f {\n"
	"  a = f32[4]{0} parameter(0)\n"
	"  ROOT n = f32[4]{0} negate(a)\n"
	"}\n"
	"\n"
	"ENTRY e {\n"
	"  p = f32[4]{0} parameter(0), parameter_replication={true}\n"
	"  q = f32[4,4]{1,0} parameter(1)\n"
	"  x = f32[4]{0} fusion(p), kind=kLoop, output_to_operand_aliasing={{}: (0, {})}, calls=f\n"
	"  y = f32[4]{0} custom-call(x), custom_call_target=\"k\", literal=s32[2]{0} {1, 2}, "
	"output_to_operand_aliasing={{}: (0, {})}, schedule=SCHEDULE_EARLIEST\n"
	"  z = f32[4]{0} custom-call(y), window={size=1}, dim_labels=b0f_0io->b0f, padding_type=PADDING_SAME, custom_call_target=\"c\"\n"
	"  t = f32[4,4]{1,0} triangular-solve(q, q), left_side=true, lower=true, unit_diagonal=true, transpose_a=ADJOINT\n"
	"  h = f32[4,4]{1,0} cholesky(q), lower=true\n"
	"  v = f32[4,4]{1,0} convolution(q, q), dim_labels=bf_io->bf\n"
	"  w = f32[4,4,4,4]{3,2,1,0} dot(q, q)\n"
	"  ROOT r = (f32[4]{0}, f32[4,4]{1,0}, f32[4,4]{1,0}, f32[4,4]{1,0}, f32[4,4,4,4]{3,2,1,0}) tuple(z, t, h, v, w)\n"
	"}\n";

static bool aliases_whole_operand0(const Xla__HloInstructionProto *i)
{
	return i && i->n_output_operand_aliasing == 1 &&
	       i->output_operand_aliasing[0]->n_output_shape_index == 0 &&
	       i->output_operand_aliasing[0]->operand_index == 0 &&
	       i->output_operand_aliasing[0]->n_operand_shape_index == 0;
}

static void test_typed_fields(hilo_diags *d)
{
	hilo_module *m = parse(typed, sizeof typed - 1, d);
	if (!m)
		return;
	hilo_buf pb, t;
	hilo_buf_init(&pb);
	hilo_buf_init(&t);
	CHECK(hilo_proto_write(&pb, m, d));
	Xla__HloModuleProto *mp = xla__hlo_module_proto__unpack(NULL, pb.len, (const uint8_t *)pb.data);
	if (CHECK(mp != NULL)) {
		const Xla__HloInstructionProto *p = find(mp, "p"), *x = find(mp, "x"), *y = find(mp, "y"),
			*z = find(mp, "z"), *ts = find(mp, "t"), *h = find(mp, "h"), *v = find(mp, "v"),
			*w = find(mp, "w");
		CHECK(p && p->parameter_replication && p->parameter_replication->n_replicated_at_leaf_buffers == 1 &&
		      p->parameter_replication->replicated_at_leaf_buffers[0]);
		CHECK(aliases_whole_operand0(x));
		CHECK(aliases_whole_operand0(y));
		CHECK(y && y->custom_call_schedule == 2); /* SCHEDULE_EARLIEST */
		CHECK(y && y->literal && y->literal->shape && y->literal->n_s32s == 2 &&
		      y->literal->s32s[0] == 1 && y->literal->s32s[1] == 2);
		CHECK(z && z->padding_type == 2); /* PADDING_SAME */
		const Xla__TriangularSolveOptions *o = ts ? ts->triangular_solve_options : NULL;
		CHECK(o && o->left_side && o->lower && o->unit_diagonal && o->transpose_a == 3 /* ADJOINT */);
		CHECK(ts && !ts->cholesky_options);
		CHECK(h && h->cholesky_options && h->cholesky_options->lower && !h->triangular_solve_options);
		CHECK(v && v->window && v->window->n_dimensions == 0);
		CHECK(w && w->dot_dimension_numbers);
		/* the typed fields say it all: none of these is also hilo's */
		static const char *const typed_keys[] = {"output_to_operand_aliasing", "literal", "schedule",
			"padding_type", "left_side", "lower", "unit_diagonal", "transpose_a", "parameter_replication"};
		for (size_t k = 0; k < mp->n_computations; k++)
			for (size_t j = 0; j < mp->computations[k]->n_instructions; j++) {
				const Xla__HloInstructionProto *in = mp->computations[k]->instructions[j];
				for (size_t a = 0; a < in->n_hilo_attrs; a++)
					for (size_t q = 0; q < sizeof typed_keys / sizeof *typed_keys; q++)
						if (!CHECK(strcmp(in->hilo_attrs[a]->key, typed_keys[q])))
							fprintf(stderr, "  %s keeps %s\n", in->name, typed_keys[q]);
			}
		/* read as a proto hilo did not write: XLA's print of each */
		if (CHECK(print_as_foreign(mp, &t, d))) {
			const char *s = hilo_buf_cstr(&t);
			static const char *const want[] = {
				"parameter(0), parameter_replication={true}\n",
				"fusion(p), kind=kLoop, output_to_operand_aliasing={{}: (0, {})}, calls=f\n",
				("custom_call_target=\"k\", literal=s32[2]{0} {1, 2}, output_to_operand_aliasing={{}: (0, {})}, "
				 "schedule=SCHEDULE_EARLIEST\n"),
				"padding_type=PADDING_SAME",
				"convolution(q, q), dim_labels=bf_io->bf\n", /* no window={} */
				"triangular-solve(q, q), left_side=true, lower=true, unit_diagonal=true, transpose_a=ADJOINT\n",
				"cholesky(q), lower=true\n",
			};
			check_contains(s, want, sizeof want / sizeof *want);
		}
		xla__hlo_module_proto__free_unpacked(mp, NULL);
	}
	check_round_trip(m, &pb, d);
	hilo_buf_free(&pb);
	hilo_buf_free(&t);
	hilo_module_destroy(m);
}

/* More fields XLA reads typed: a layout's tiles and memory space, the
 * header's entry_computation_layout (host_program_shape), a domain's
 * shardings (XLA's entry field is the text's exit=), an in-place
 * collective-permute's slice_sizes (dynamic_slice_sizes), a tuple
 * sharding written with index comments, a custom-call's tuple literal. */
static const char typed2[] =
	"HloModule t2, entry_computation_layout={(f32[8,128]{1,0:T(8,128)S(1)})->f32[8,128]{1,0:T(8,128)}}\n"
	"\n"
	"ENTRY e {\n"
	"  p = f32[8,128]{1,0:T(8,128)S(1)} parameter(0)\n"
	"  d = f32[8,128]{1,0:T(8,128)} domain(p), domain={kind=\"sharding\", entry={maximal device=0}, exit={maximal device=1}}\n"
	"  z = s32[] constant(0)\n"
	"  s = (s32[], s32[]) tuple(z, z)\n"
	"  c = f32[8,128]{1,0:T(8,128)} collective-permute(d, d, s, s), source_target_pairs={{0,1}}, slice_sizes={{4,64}}\n"
	"  l = f32[8,128]{1,0:T(8,128)} custom-call(c), custom_call_target=\"k\", literal=( s32[2]{0} {1, 2}, f32[] 3 )\n"
	"  ROOT r = (f32[8,128]{1,0:T(8,128)}, s32[], s32[], s32[], s32[], /*index=5*/s32[]) tuple(l, z, z, z, z, z), "
	"sharding={{replicated}, {maximal device=0}, {replicated}, {replicated}, {replicated}, /*index=5*/{replicated}}\n"
	"}\n";

static void test_typed_fields2(hilo_diags *d)
{
	hilo_module *m = parse(typed2, sizeof typed2 - 1, d);
	if (!m)
		return;
	hilo_buf pb, t;
	hilo_buf_init(&pb);
	hilo_buf_init(&t);
	CHECK(hilo_proto_write(&pb, m, d));
	Xla__HloModuleProto *mp = xla__hlo_module_proto__unpack(NULL, pb.len, (const uint8_t *)pb.data);
	if (CHECK(mp != NULL)) {
		const Xla__HloInstructionProto *p = find(mp, "p"), *dm = find(mp, "d"), *c = find(mp, "c"),
			*l = find(mp, "l"), *r = find(mp, "r");
		const Xla__LayoutProto *lay = p && p->shape ? p->shape->layout : NULL;
		CHECK(lay && lay->n_tiles == 1 && lay->tiles[0]->n_dimensions == 2 &&
		      lay->tiles[0]->dimensions[0] == 8 && lay->tiles[0]->dimensions[1] == 128 &&
		      lay->memory_space == 1 && !(lay->hilo_tail && *lay->hilo_tail));
		const Xla__ProgramShapeProto *ps = mp->host_program_shape;
		CHECK(ps && ps->n_parameters == 1 && ps->parameters[0]->layout &&
		      ps->parameters[0]->layout->memory_space == 1 && ps->result && ps->result->layout &&
		      ps->result->layout->n_tiles == 1 && ps->result->layout->memory_space == 0);
		CHECK(dm && dm->domain_entry_sharding && dm->domain_exit_sharding &&
		      dm->domain_entry_sharding->n_tile_assignment_devices == 1 &&
		      dm->domain_entry_sharding->tile_assignment_devices[0] == 1 && /* exit= */
		      dm->domain_exit_sharding->tile_assignment_devices[0] == 0);
		CHECK(c && c->n_dynamic_slice_sizes == 2 && c->dynamic_slice_sizes[0] == 4 &&
		      c->dynamic_slice_sizes[1] == 64);
		CHECK(l && l->literal && l->literal->n_tuple_literals == 2 &&
		      l->literal->tuple_literals[0]->n_s32s == 2);
		CHECK(r && r->sharding && r->sharding->n_tuple_shardings == 6);
		/* read as a proto hilo did not write: XLA's print of each */
		if (CHECK(print_as_foreign(mp, &t, d))) {
			const char *x = hilo_buf_cstr(&t);
			static const char *const want[] = {
				"p = f32[8,128]{1,0:T(8,128)S(1)} parameter(0)",
				"domain(p), domain={kind=\"sharding\", entry={maximal device=0}, exit={maximal device=1}}\n",
				"source_target_pairs={{0,1}}, slice_sizes={{4,64}}\n",
				"literal=( s32[2]{0} {1, 2}, f32[] 3 )",
			};
			check_contains(x, want, sizeof want / sizeof *want);
		}
		xla__hlo_module_proto__free_unpacked(mp, NULL);
	}
	check_round_trip(m, &pb, d);
	hilo_buf_free(&pb);
	hilo_buf_free(&t);
	hilo_module_destroy(m);
}

/* A LiteralProto holds its values in the order of its shape's layout
 * (XLA's literals are laid out by it): f32[2,3]{0,1} {{1,2,3},{4,5,6}} is
 * 1,4,2,5,3,6 on the wire, written so and read back row-major; and XLA
 * writes a signed sub-byte value as its low bits (s4 -8 is the byte 8). */
static const char laid_out[] =
	"HloModule l\n"
	"\n"
	"ENTRY e {\n"
	"  c = f32[2,3]{0,1} constant({ { 1, 2, 3 }, { 4, 5, 6 } })\n"
	"  ROOT s = s4[2]{0} constant({-8, 7})\n"
	"}\n";

static void test_literal_order(hilo_diags *d)
{
	hilo_module *m = parse(laid_out, sizeof laid_out - 1, d);
	if (!m)
		return;
	hilo_buf pb, t;
	hilo_buf_init(&pb);
	hilo_buf_init(&t);
	CHECK(hilo_proto_write(&pb, m, d));
	Xla__HloModuleProto *mp = xla__hlo_module_proto__unpack(NULL, pb.len, (const uint8_t *)pb.data);
	if (CHECK(mp != NULL)) {
		Xla__HloInstructionProto *c = (Xla__HloInstructionProto *)find(mp, "c");
		Xla__HloInstructionProto *sc = (Xla__HloInstructionProto *)find(mp, "s");
		static const float want[] = {1, 4, 2, 5, 3, 6};
		if (CHECK(c && c->literal && c->literal->n_f32s == 6))
			for (int k = 0; k < 6; k++)
				CHECK(c->literal->f32s[k] == want[k]);
		/* XLA's form of the s4 values: the low four bits */
		if (CHECK(sc && sc->literal && sc->literal->s4s.len == 2))
			sc->literal->s4s.data[0] = 8;
		if (CHECK(print_as_foreign(mp, &t, d))) {
			CHECK(strstr(hilo_buf_cstr(&t), "constant({ { 1, 2, 3 }, { 4, 5, 6 } })") != NULL);
			CHECK(strstr(hilo_buf_cstr(&t), "constant({-8, 7})") != NULL);
		}
		xla__hlo_module_proto__free_unpacked(mp, NULL);
	}
	check_round_trip(m, &pb, d);
	hilo_buf_free(&pb);
	hilo_buf_free(&t);
	hilo_module_destroy(m);
}

/* The generic attributes in XLA's typed fields. The golden payloads are
 * the bytes jaxlib 0.10.2 writes for this module (from
 * as_serialized_hlo_module_proto of its parse of the same text). */
static const char generic[] =
	"HloModule g\n"
	"\n"
	"ENTRY e {\n"
	"  a = f32[2]{0} parameter(0), origin={{\"v1\" {1}}}\n"
	"  b = (f32[2]{0}, f32[2]{0}) tuple(a, a), origin={({\"x\" {0,1}}, {\"y\"})}\n"
	"  c = s32[] constant(-42), statistics={visualizing_index=1,stat-1=33.5,s=1e-07}\n"
	"  d = f32[2]{0} exponential(a), result_accuracy={tolerance={atol=1.5,rtol=0.25,ulps=2}}\n"
	"  s = f32[2]{0} parameter(1), origin={[synthetic_call]}\n"
	"  ROOT r = f32[2]{0} exponential(a), sharding={unreduced}, result_accuracy={mode=highest}\n"
	"}\n";

/* msg packed is the hex string want. */
static void check_packed(const void *msg, const char *want, const char *what)
{
	if (!CHECK(msg != NULL)) {
		fprintf(stderr, "  %s: absent\n", what);
		return;
	}
	size_t n = protobuf_c_message_get_packed_size(msg);
	uint8_t *q = malloc(n ? n : 1);
	char *hex = malloc(2 * n + 1);
	if (q && hex) {
		protobuf_c_message_pack(msg, q);
		for (size_t k = 0; k < n; k++)
			snprintf(hex + 2 * k, 3, "%02x", q[k]);
		hex[2 * n] = 0;
		if (!CHECK(!strcmp(hex, want)))
			fprintf(stderr, "  %s: %s, XLA writes %s\n", what, hex, want);
	}
	free(q);
	free(hex);
}

static void test_generic_fields(hilo_diags *d)
{
	hilo_module *m = parse(generic, sizeof generic - 1, d);
	if (!m)
		return;
	hilo_buf pb, t;
	hilo_buf_init(&pb);
	hilo_buf_init(&t);
	CHECK(hilo_proto_write(&pb, m, d));
	Xla__HloModuleProto *mp = xla__hlo_module_proto__unpack(NULL, pb.len, (const uint8_t *)pb.data);
	if (CHECK(mp != NULL)) {
		const Xla__HloInstructionProto *a = find(mp, "a"), *b = find(mp, "b"), *c = find(mp, "c"),
			*dd = find(mp, "d"), *s = find(mp, "s"), *r = find(mp, "r");
		check_packed(a ? a->original_value : NULL, "0a0912070a027631120101", "a origin");
		check_packed(b ? b->original_value : NULL,
			"0a0c0a010012070a0178120200010a080a010112030a0179", "b origin");
		check_packed(c ? c->statistics_viz : NULL,
			"080112110a06737461742d31110000000000c04040120c0a01731148afbc9af2d77a3e", "c statistics");
		check_packed(dd ? dd->result_accuracy : NULL,
			"121409000000000000f83f11000000000000d03f1802", "d result_accuracy");
		check_packed(s ? s->original_value : NULL, "1001", "s origin");
		check_packed(r ? r->sharding : NULL, "0806", "r sharding");
		check_packed(r ? r->result_accuracy : NULL, "0801", "r result_accuracy");
		/* every one exact: none left in hilo's extension */
		size_t ext = 0;
		for (size_t k = 0; k < mp->computations[0]->n_instructions; k++)
			ext += mp->computations[0]->instructions[k]->n_hilo_attrs;
		CHECK(ext == 0);
		/* read as a proto hilo did not write: XLA's print of each */
		if (CHECK(print_as_foreign(mp, &t, d))) {
			static const char *const want[] = {
				"parameter(0), origin={{\"v1\" {1}}}\n",
				"tuple(a, a), origin={({\"x\" {0,1}}, {\"y\"})}\n",
				"constant(-42), statistics={visualizing_index=1,stat-1=33.5,s=1e-07}\n",
				"exponential(a), result_accuracy={tolerance={atol=1.5,rtol=0.25,ulps=2}}\n",
				"parameter(1), origin={[synthetic_call]}\n",
				"exponential(a), sharding={unreduced}, result_accuracy={mode=highest}\n",
			};
			check_contains(hilo_buf_cstr(&t), want, sizeof want / sizeof *want);
		}
		xla__hlo_module_proto__free_unpacked(mp, NULL);
	}
	check_round_trip(m, &pb, d);
	hilo_buf_free(&pb);
	hilo_buf_free(&t);
	hilo_module_destroy(m);
}

/* What XLA prints no typed field for stays in hilo's extension, and the
 * text still comes back: a default mode, a statistic XLA would print in
 * six digits, an original value XLA's grammar does not have. */
static const char generic_ext[] =
	"HloModule x\n"
	"\n"
	"ENTRY e {\n"
	"  a = f32[2]{0} parameter(0), origin={{\"v1\"}, junk}\n"
	"  c = s32[] constant(1), statistics={visualizing_index=0,t=123456789}\n"
	"  ROOT r = f32[2]{0} exponential(a), result_accuracy={mode=default}\n"
	"}\n";

static void test_generic_ext(hilo_diags *d)
{
	hilo_module *m = parse(generic_ext, sizeof generic_ext - 1, d);
	if (!m)
		return;
	hilo_buf pb;
	hilo_buf_init(&pb);
	CHECK(hilo_proto_write(&pb, m, d));
	Xla__HloModuleProto *mp = xla__hlo_module_proto__unpack(NULL, pb.len, (const uint8_t *)pb.data);
	if (CHECK(mp != NULL)) {
		const Xla__HloInstructionProto *a = find(mp, "a"), *c = find(mp, "c"), *r = find(mp, "r");
		CHECK(a && !a->original_value && a->n_hilo_attrs == 1);
		/* XLA gets the value, hilo's extension the text */
		CHECK(c && c->statistics_viz && c->statistics_viz->n_statistics == 1 &&
		      c->statistics_viz->statistics[0]->stat_val == 123456789.0 && c->n_hilo_attrs == 1);
		CHECK(r && r->n_hilo_attrs == 1);
		xla__hlo_module_proto__free_unpacked(mp, NULL);
	}
	check_round_trip(m, &pb, d);
	hilo_buf_free(&pb);
	hilo_module_destroy(m);
}

static size_t varint_size(uint64_t v)
{
	size_t n = 1;
	while (v > 0x7f) {
		v >>= 7;
		n++;
	}
	return n;
}

static void put_varint(hilo_buf *b, uint64_t v)
{
	do {
		hilo_buf_putc(b, (char)((v & 0x7f) | (v > 0x7f ? 0x80 : 0)));
		v >>= 7;
	} while (v);
}

/* A module whose recovery module holds a table whose recovery module ...
 * `depth` levels: read up to the bound, refused past it (not a stack
 * overflow on a crafted file). */
static bool read_nested(size_t depth, hilo_diags *d)
{
	static const char tiny[] = "HloModule t\n\nENTRY e {\n  ROOT c = f32[] constant(1)\n}\n";
	hilo_module *m = parse(tiny, sizeof tiny - 1, d);
	hilo_buf pb, e, t;
	hilo_buf_init(&pb);
	hilo_buf_init(&e);
	hilo_buf_init(&t);
	if (m)
		CHECK(hilo_proto_write(&pb, m, d));
	/* as XLA writes it: without hilo's fields (1000 on) */
	t.len = 0;
	for (size_t at = 0; at < pb.len;) {
		size_t from = at;
		uint64_t tag = 0, v = 0;
		for (int sh = 0; at < pb.len; sh += 7) {
			uint8_t c = (uint8_t)pb.data[at++];
			tag |= (uint64_t)(c & 0x7f) << sh;
			if (c < 0x80)
				break;
		}
		for (int sh = 0; at < pb.len; sh += 7) {
			uint8_t c = (uint8_t)pb.data[at++];
			v |= (uint64_t)(c & 0x7f) << sh;
			if (c < 0x80)
				break;
		}
		if ((tag & 7) == 2)
			at += v;
		if ((tag >> 3) < 1000)
			hilo_buf_put(&t, pb.data + from, at - from);
	}
	hilo_buf sw0 = pb;
	pb = t;
	t = sw0;
	size_t base = pb.len;
	for (size_t k = 0; k < depth; k++) {
		/* entry {old {name "a"}, new {name "b"}, recovery_module <pb>} */
		e.len = 0;
		hilo_buf_put(&e, "\x0a\x03\x0a\x01" "a" "\x12\x03\x0a\x01" "b\x1a", 11);
		put_varint(&e, pb.len);
		hilo_buf_put(&e, pb.data, pb.len);
		t.len = 0;
		hilo_buf_put(&t, pb.data, base); /* the tiny module's own fields */
		hilo_buf_putc(&t, (char)0xa2); /* field 20, LEN */
		hilo_buf_putc(&t, 0x01);
		put_varint(&t, 1 + varint_size(e.len) + e.len);
		hilo_buf_putc(&t, 0x0a); /* entries = 1 */
		put_varint(&t, e.len);
		hilo_buf_put(&t, e.data, e.len);
		hilo_buf sw = pb;
		pb = t;
		t = sw;
	}
	hilo_diags rd;
	hilo_diags_init(&rd);
	hilo_module *r = hilo_proto_read(pb.data, pb.len, "nested.pb", &rd);
	bool ok = r != NULL;
	if (!ok && depth < 8)
		hilo_diags_print(stderr, &rd);
	if (!ok)
		CHECK(rd.n && strstr(rd.items[0].msg, "nested more than"));
	hilo_module_destroy(r);
	hilo_diags_free(&rd);
	hilo_module_destroy(m);
	hilo_buf_free(&pb);
	hilo_buf_free(&e);
	hilo_buf_free(&t);
	return ok;
}

/* origin_recovery_table: field 20 for XLA (the recovery module a whole
 * HloModuleProto, its quotes unescaped), and back as XLA prints it. */
static const char recovery[] =
	"HloModule r, origin_recovery_table={\n"
	"  {\"b\" {1}} : {\"n\"}\n"
	"  {\"a\"} : {\"a__ovp0\"},\n"
	"  \"\n"
	"    HloModule recovery_module, frontend_attributes={k=\\\"v\\\"}\n"
	"\n"
	"    ENTRY %rc (p: f32[2]) -> f32[2] {\n"
	"      ROOT %p = f32[2]{0} parameter(0)\n"
	"    }\n"
	"  \"\n"
	"}\n"
	"\n"
	"ENTRY e {\n"
	"  ROOT c = f32[2]{0} constant({1, 2}), origin={{\"a__ovp0\"}}\n"
	"}\n";

static void test_recovery_table(hilo_diags *d)
{
	hilo_module *m = parse(recovery, sizeof recovery - 1, d);
	if (!m)
		return;
	hilo_buf pb, t;
	hilo_buf_init(&pb);
	hilo_buf_init(&t);
	CHECK(hilo_proto_write(&pb, m, d));
	Xla__HloModuleProto *mp = xla__hlo_module_proto__unpack(NULL, pb.len, (const uint8_t *)pb.data);
	const Xla__OriginalValueRecoveryTableProto *rt = mp ? mp->original_value_recovery_table : NULL;
	if (CHECK(rt && rt->n_entries == 2)) {
		const Xla__OriginalValueRecoveryTableProto__Entry *e0 = rt->entries[0], *e1 = rt->entries[1];
		CHECK_STR(e0->old_original_array->instruction_name, "b");
		CHECK(e0->old_original_array->n_shape_index == 1 && e0->old_original_array->shape_index[0] == 1);
		CHECK_STR(e0->new_original_array->instruction_name, "n");
		CHECK(!e0->recovery_module);
		CHECK_STR(e1->new_original_array->instruction_name, "a__ovp0");
		const Xla__HloModuleProto *rm = e1->recovery_module;
		if (CHECK(rm && rm->frontend_attributes && rm->frontend_attributes->n_map == 1)) {
			CHECK_STR(rm->name, "recovery_module");
			CHECK_STR(rm->frontend_attributes->map[0]->value, "v");
		}
		/* read as XLA wrote it: the table is the text XLA prints */
		size_t nma = mp->n_hilo_module_attrs;
		mp->n_hilo_module_attrs = 0;
		bool read = print_as_foreign(mp, &t, d);
		mp->n_hilo_module_attrs = nma;
		if (CHECK(read)) {
			const char *want[] = {
				"origin_recovery_table={\n  {\"b\" {1}} : {\"n\"}\n  {\"a\"} : {\"a__ovp0\"},\n  \"\n"
				"    HloModule recovery_module, entry_computation_layout={(f32[2]{0})->f32[2]{0}}, "
				"frontend_attributes={k=\\\"v\\\"}\n\n    ENTRY %rc (p: f32[2]) -> f32[2] {\n",
				"      ROOT %p = f32[2]{0} parameter(0)\n    }\n\n\n  \"\n}",
			};
			check_contains(hilo_buf_cstr(&t), want, 2);
		}
	}
	if (mp)
		xla__hlo_module_proto__free_unpacked(mp, NULL);
	check_round_trip(m, &pb, d);
	/* not a table: the writer says so and writes nothing it would lose */
	hilo_module *bad = parse("HloModule r, origin_recovery_table={ {\"a\"} : }\n\nENTRY e {\n"
		"  ROOT c = f32[] constant(1)\n}\n", 89, d);
	if (bad) {
		hilo_diags bd;
		hilo_diags_init(&bd);
		pb.len = 0;
		CHECK(!hilo_proto_write(&pb, bad, &bd));
		CHECK(bd.n && strstr(bd.items[0].msg, "origin_recovery_table"));
		hilo_diags_free(&bd);
		hilo_module_destroy(bad);
	}
	hilo_buf_free(&pb);
	hilo_buf_free(&t);
	hilo_module_destroy(m);
	CHECK(read_nested(3, d));
	CHECK(read_nested(7, d));
	CHECK(!read_nested(8, d));
	CHECK(!read_nested(40, d));
}

/* OpMetadata fields hilo does not read survive a rewrite that leaves the
 * metadata as it was (the instruction renamed), and go when a pass
 * rewrites the metadata (a new op_name, which must then be written). */
static const char md_module[] =
	"HloModule md\n\n"
	"ENTRY e {\n"
	"  p = f32[4]{0} parameter(0)\n"
	"  a = f32[4]{0} add(p, p), metadata={op_name=\"x\"}\n"
	"  ROOT n = f32[4]{0} negate(a), metadata={op_name=\"y\" source_line=3}\n"
	"}\n";

static Xla__HloInstructionProto *find_mut(Xla__HloModuleProto *mp, const char *name)
{
	return (Xla__HloInstructionProto *)find(mp, name);
}

static bool md_has_unknown(const Xla__HloInstructionProto *ip, uint32_t tag, uint8_t v)
{
	const Xla__OpMetadata *md = ip ? ip->metadata : NULL;
	for (size_t k = 0; md && k < md->base.n_unknown_fields; k++) {
		const ProtobufCMessageUnknownField *f = &md->base.unknown_fields[k];
		if (f->tag == tag && f->len == 1 && f->data[0] == v)
			return true;
	}
	return false;
}

static void test_metadata_unknown_kept(hilo_diags *d)
{
	hilo_module *m = parse(md_module, sizeof md_module - 1, d);
	hilo_buf pb;
	hilo_buf_init(&pb);
	if (!m || !CHECK(hilo_proto_write(&pb, m, d))) {
		hilo_module_destroy(m);
		hilo_buf_free(&pb);
		return;
	}
	Xla__HloModuleProto *mp = xla__hlo_module_proto__unpack(NULL, pb.len, (const uint8_t *)pb.data);
	Xla__HloInstructionProto *a = mp ? find_mut(mp, "a") : NULL, *n = mp ? find_mut(mp, "n") : NULL;
	if (!CHECK(a && n && a->metadata && n->metadata)) {
		if (mp)
			xla__hlo_module_proto__free_unpacked(mp, NULL);
		hilo_module_destroy(m);
		hilo_buf_free(&pb);
		return;
	}
	/* as another tool writes it: OpMetadata field 99 = 42 on both */
	uint8_t v = 42;
	ProtobufCMessageUnknownField uf = {99, PROTOBUF_C_WIRE_TYPE_VARINT, 1, &v};
	a->metadata->base.n_unknown_fields = n->metadata->base.n_unknown_fields = 1;
	a->metadata->base.unknown_fields = n->metadata->base.unknown_fields = &uf;
	hilo_buf fb;
	hilo_buf_init(&fb);
	size_t len = pack_as_foreign(mp, &fb);
	a->metadata->base.n_unknown_fields = n->metadata->base.n_unknown_fields = 0;
	a->metadata->base.unknown_fields = n->metadata->base.unknown_fields = NULL;
	xla__hlo_module_proto__free_unpacked(mp, NULL);

	hilo_module *f = hilo_proto_read(fb.data, len, "foreign.pb", d);
	hilo_instr *fa = NULL, *fn = NULL;
	for (hilo_instr *i = f ? f->entry->first : NULL; i; i = i->next) {
		if (!strcmp(i->name, "a"))
			fa = i;
		if (!strcmp(i->name, "n"))
			fn = i;
	}
	if (CHECK(fa && fn)) {
		CHECK(hilo_instr_rename(f, fn, "n2"));
		hilo_instr_set_op_name(f, fa, "x2");
		hilo_buf out;
		hilo_buf_init(&out);
		CHECK(hilo_proto_write(&out, f, d));
		Xla__HloModuleProto *rp = xla__hlo_module_proto__unpack(NULL, out.len, (const uint8_t *)out.data);
		if (CHECK(rp != NULL)) {
			const Xla__HloInstructionProto *ra = find(rp, "a"), *rn = find(rp, "n2");
			CHECK(rn && md_has_unknown(rn, 99, 42));    /* kept: n's metadata is as read */
			CHECK(rn && rn->metadata && !strcmp(rn->metadata->op_name, "y") &&
			      rn->metadata->source_line == 3);
			CHECK(ra && !md_has_unknown(ra, 99, 42));   /* a's was rewritten: */
			CHECK(ra && ra->metadata && !strcmp(ra->metadata->op_name, "x2")); /* the new one */
			xla__hlo_module_proto__free_unpacked(rp, NULL);
		}
		hilo_buf_free(&out);
	}
	hilo_module_destroy(f);
	hilo_buf_free(&fb);
	hilo_buf_free(&pb);
	hilo_module_destroy(m);
}

static const char meshes[] =
	"HloModule m2, replica_count=4\n"
	"\n"
	"add {\n"
	"  x = f32[] parameter(0)\n"
	"  y = f32[] parameter(1)\n"
	"  ROOT s = f32[] add(x, y)\n"
	"}\n"
	"\n"
	"ENTRY e {\n"
	"  p = f32[8]{0} parameter(0)\n"
	"  g = f32[8]{0} all-reduce(p), replica_groups=mesh['a'=2,'b'=4] {'a','b':(1)2}, to_apply=add\n"
	"  c = f32[8]{0} custom-call(g), window={size=2x2}, dim_labels=?b01f_0?1io->b01?f, custom_call_target=\"t\"\n"
	"  ROOT r = f32[8]{0} custom-call(c), custom_call_target=\"Sharding\", "
	"sharding={mesh['x'=1,'y'=2], [{'y'}, {}], unreduced={'x'}}\n"
	"}\n";

static void test_mesh_fields(hilo_diags *d)
{
	hilo_module *m = parse(meshes, sizeof meshes - 1, d);
	if (!m)
		return;
	hilo_buf pb, t;
	hilo_buf_init(&pb);
	hilo_buf_init(&t);
	CHECK(hilo_proto_write(&pb, m, d));
	Xla__HloModuleProto *mp = xla__hlo_module_proto__unpack(NULL, pb.len, (const uint8_t *)pb.data);
	if (CHECK(mp != NULL)) {
		const Xla__HloInstructionProto *g = find(mp, "g"), *c = find(mp, "c"), *r = find(mp, "r");
		/* jaxlib 0.10.2's payloads for the same text */
		check_packed(g ? g->mesh_axes_replica_group_list : NULL,
			"0a0e0a050a016110020a050a01621004120012080801120408011002", "g replica groups");
		check_packed(c ? c->convolution_dimension_numbers : NULL,
			"18032004320200023801400450045a02020362020102", "c dim_labels");
		check_packed(r ? r->sharding : NULL,
			"721e120e0a050a017810010a050a017910021a060a02080110011a0210012a00", "r sharding");
		/* none left in hilo's extension (g's to_apply always is) */
		CHECK(g && g->n_hilo_attrs == 1 && !strcmp(g->hilo_attrs[0]->key, "to_apply"));
		CHECK(c && !c->n_hilo_attrs && r && !r->n_hilo_attrs);
		if (CHECK(print_as_foreign(mp, &t, d))) {
			static const char *const want[] = {
				"all-reduce(p), replica_groups=mesh['a'=2,'b'=4] {'a','b':(1)2}, to_apply=add\n",
				"dim_labels=?b01f_0?1io->b01?f",
				"sharding={mesh['x'=1,'y'=2], [{'y'}, {}], unreduced={'x'}}\n",
			};
			check_contains(hilo_buf_cstr(&t), want, sizeof want / sizeof *want);
		}
		xla__hlo_module_proto__free_unpacked(mp, NULL);
	}
	check_round_trip(m, &pb, d);
	hilo_buf_free(&pb);
	hilo_buf_free(&t);
	hilo_module_destroy(m);
}

static const char profiled[] =
	"HloModule p\n"
	"\n"
	"ENTRY e {\n"
	"  ROOT p = f32[2]{0} parameter(0), metadata={op_type=\"a\" source_line=1 profile_type={1,2} "
	"deduplicated_name=\"d\" scheduling_name=\"foo\"}\n"
	"}\n";

static void test_profile_type(hilo_diags *d)
{
	hilo_module *m = parse(profiled, sizeof profiled - 1, d);
	if (!m)
		return;
	hilo_buf pb, t;
	hilo_buf_init(&pb);
	hilo_buf_init(&t);
	CHECK(hilo_proto_write(&pb, m, d));
	Xla__HloModuleProto *mp = xla__hlo_module_proto__unpack(NULL, pb.len, (const uint8_t *)pb.data);
	if (CHECK(mp != NULL)) {
		const Xla__HloInstructionProto *p = find(mp, "p");
		/* jaxlib 0.10.2 writes 0a0161 2001 2a020102 6201 64 8201 03666f6f */
		check_packed(p ? p->metadata : NULL, "0a016120012a020102620164820103666f6f", "p metadata");
		if (CHECK(print_as_foreign(mp, &t, d))) {
			static const char *const want[] = {
				"metadata={op_type=\"a\" source_line=1 profile_type={1,2} deduplicated_name=\"d\" "
				"scheduling_name=\"foo\"}\n",
			};
			check_contains(hilo_buf_cstr(&t), want, 1);
		}
		xla__hlo_module_proto__free_unpacked(mp, NULL);
	}
	check_round_trip(m, &pb, d);
	hilo_buf_free(&pb);
	hilo_buf_free(&t);
	hilo_module_destroy(m);
}

int main(void)
{
	hilo_diags d;
	hilo_diags_init(&d);
	test_scheduled_elided_token(&d);
	test_operand_layouts(&d);
	test_typed_fields(&d);
	test_literal_order(&d);
	test_typed_fields2(&d);
	test_generic_fields(&d);
	test_generic_ext(&d);
	test_mesh_fields(&d);
	test_profile_type(&d);
	test_recovery_table(&d);
	test_metadata_unknown_kept(&d);
	hilo_module *m = parse(text, sizeof text - 1, &d);
	if (!m)
		return CHECK_DONE();
	hilo_buf pb;
	hilo_buf_init(&pb);
	CHECK(hilo_proto_write(&pb, m, &d));
	Xla__HloModuleProto *mp = xla__hlo_module_proto__unpack(NULL, pb.len, (const uint8_t *)pb.data);
	if (CHECK(mp != NULL)) {
		const Xla__HloInstructionProto *c = find(mp, "c"), *k = find(mp, "k");
		CHECK(c && c->literal && c->literal->shape && c->literal->shape->layout);
		CHECK(c && c->literal && c->literal->shape->layout &&
		      c->literal->shape->layout->n_minor_to_major == 1);
		CHECK(k && k->literal && k->literal->shape && k->literal->shape->layout);
		const Xla__HloInstructionProto *p = find(mp, "p");
		CHECK(p && p->sharding && p->sharding->n_iota_reshape_dims == 1 &&
		      p->sharding->n_iota_transpose_perm == 1 && p->sharding->iota_transpose_perm[0] == 0);
		const Xla__HloInstructionProto *g = find(mp, "g");
		/* iota groups in iota_collective_device_list (92), where XLA
		 * reads them (inside collective_device_list, 87, XLA read none) */
		const Xla__IotaReplicaGroupListProto *io = g ? g->iota_collective_device_list : NULL;
		CHECK(io && io->num_replica_groups == 4 && io->num_devices_per_group == 2);
		CHECK(io && io->n_iota_reshape_dims == io->n_iota_transpose_perm);
		CHECK(g && !g->collective_device_list);
		const Xla__HloInstructionProto *r = find(mp, "r");
		CHECK(r && r->rng_algorithm == 2); /* RNG_PHILOX */
		const Xla__HloInstructionProto *x = find(mp, "x");
		CHECK(x && x->custom_call_api_version == 1); /* API_VERSION_ORIGINAL */
		/* a is in both computations: one keeps its name, one is a.1 */
		int np = 0, na = 0, total = 0, unique = 1;
		for (size_t c1 = 0; c1 < mp->n_computations; c1++)
			for (size_t k1 = 0; k1 < mp->computations[c1]->n_instructions; k1++) {
				const char *n1 = mp->computations[c1]->instructions[k1]->name;
				np += !strcmp(n1, "a.1");
				na += !strcmp(n1, "a");
				total++;
				for (size_t c2 = 0; c2 < mp->n_computations; c2++)
					for (size_t k2 = 0; k2 < mp->computations[c2]->n_instructions; k2++)
						if ((c1 != c2 || k1 != k2) &&
						    !strcmp(n1, mp->computations[c2]->instructions[k2]->name))
							unique = 0;
			}
		CHECK(unique);
		CHECK(np == 1 && na == 1 && total == 12);
		xla__hlo_module_proto__free_unpacked(mp, NULL);
	}
	/* and hilo reads its proto back to the same text */
	check_round_trip(m, &pb, &d);
	hilo_buf_free(&pb);
	hilo_module_destroy(m);
	hilo_diags_free(&d);
	return CHECK_DONE();
}
