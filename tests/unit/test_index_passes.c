/* Unit tests for the index-token protocol (SPEC section 5) and the index
 * passes' helpers. */
#include "hilo/hlo_text.h"
#include "hilo/pass.h"
#include "hilo/tokens.h"
#include "hilo/verify.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int failures;

#define CHECK(c) do { if (!(c)) { fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #c); failures++; } } while (0)

static hilo_module *parse(const char *src)
{
	hilo_diags d;
	hilo_diags_init(&d);
	hilo_module *m = hilo_parse_text(src, strlen(src), "t.hlo", &d);
	if (!m)
		hilo_diags_print(stderr, &d);
	hilo_diags_free(&d);
	return m;
}

static hilo_instr *find(hilo_module *m, const char *name)
{
	for (uint32_t c = 0; c < m->ncomps; c++)
		for (hilo_instr *i = m->comps[c]->first; i; i = i->next)
			if (strcmp(i->name, name) == 0)
				return i;
	return NULL;
}

static const char *mod_src =
	"HloModule t\n\n"
	"ENTRY e {\n"
	"  p = f32[8,4] parameter(0)\n"
	"  a = s32[] constant(1)\n"
	"  b = s32[] constant(0)\n"
	"  ds = f32[2,4] dynamic-slice(p, a, b), dynamic_slice_sizes={2,4}, metadata={op_type=\"x\" op_name=\"jit(f)/ds,dsidxnow=9,iterationidx=2,dsidxnow=bad,dsidxnow=7\"}\n"
	"  ds2 = f32[2,4] dynamic-slice(p, a, b), dynamic_slice_sizes={2,4}, backend_config=\"dusidxnow=3,dusidxnow=-1\"\n"
	"  ROOT r = f32[2,4] add(ds, ds2)\n"
	"}\n";

static void test_tokens(void)
{
	hilo_module *m = parse(mod_src);
	CHECK(m != NULL);
	if (!m)
		return;
	hilo_instr *ds = find(m, "ds"), *ds2 = find(m, "ds2"), *r = find(m, "r");
	int64_t v[8];
	CHECK(hilo_tokens_get(m, ds, HILO_TOK_DS, v, 8) == 2);
	CHECK(v[0] == 9 && v[1] == 7);
	CHECK(hilo_tokens_malformed(m, ds, HILO_TOK_DS) == 1);
	CHECK(hilo_tokens_get(m, ds, HILO_TOK_ITER, v, 8) == 1 && v[0] == 2);
	CHECK(hilo_tokens_get(m, ds, HILO_TOK_DUS, v, 8) == 0);
	/* backend_config fallback */
	CHECK(hilo_tokens_get(m, ds2, HILO_TOK_DUS, v, 8) == 2);
	CHECK(v[0] == 3 && v[1] == -1);
	CHECK(hilo_tokens_get(m, r, HILO_TOK_DS, v, 8) == 0);
	/* max smaller than count */
	CHECK(hilo_tokens_get(m, ds, HILO_TOK_DS, v, 1) == 2 && v[0] == 9);

	/* set replaces, keeps other text, idempotent */
	int64_t nv[2] = {1, 0};
	hilo_tokens_set(m, ds, HILO_TOK_DS, nv, 2);
	const char *on = hilo_instr_op_name(m, ds);
	CHECK(strcmp(on, "jit(f)/ds,iterationidx=2,dsidxnow=1,dsidxnow=0") == 0);
	hilo_tokens_set(m, ds, HILO_TOK_DS, nv, 2);
	CHECK(strcmp(hilo_instr_op_name(m, ds), on) == 0);
	CHECK(hilo_tokens_get(m, ds, HILO_TOK_DS, v, 8) == 2 && v[0] == 1 && v[1] == 0);
	CHECK(hilo_tokens_malformed(m, ds, HILO_TOK_DS) == 0);

	/* no metadata: set creates op_name; n == 0 on none is a no-op */
	hilo_tokens_set(m, r, HILO_TOK_DS, NULL, 0);
	CHECK(r->metadata == NULL);
	int64_t it = 5;
	hilo_tokens_set(m, r, HILO_TOK_ITER, &it, 1);
	CHECK(strcmp(hilo_instr_op_name(m, r), "iterationidx=5") == 0);
	/* op_name tokens win over backend_config */
	hilo_tokens_set(m, ds2, HILO_TOK_DUS, &it, 1);
	CHECK(hilo_tokens_get(m, ds2, HILO_TOK_DUS, v, 8) == 1 && v[0] == 5);
	hilo_module_destroy(m);
}


/* a path-like segment starting with a key is op_name text, kept */
static void test_tokens_path_prefix(void)
{
	const char *src =
		"HloModule t\n\nENTRY e {\n"
		"  p = f32[8] parameter(0)\n"
		"  c = s32[] constant(1)\n"
		"  ROOT ds = f32[2] dynamic-slice(p, c), dynamic_slice_sizes={2}, metadata={op_name=\"iterationidx=0/jit(f)/ds,iterationidx=0,dsidxnow=1\"}\n"
		"}\n";
	hilo_module *m = parse(src);
	CHECK(m != NULL);
	if (!m)
		return;
	hilo_instr *ds = m->entry->root;
	int64_t v = 3;
	hilo_tokens_set(m, ds, HILO_TOK_ITER, &v, 1);
	CHECK(strcmp(hilo_instr_op_name(m, ds), "iterationidx=0/jit(f)/ds,dsidxnow=1,iterationidx=3") == 0);
	hilo_module_destroy(m);
}

static hilo_pass_result run_pass(hilo_module *m, const char *name, bool markers, bool noparam, uint64_t *rewrites)
{
	const hilo_pass *p = hilo_pass_find(name);
	CHECK(p != NULL);
	if (!p)
		return HILO_PASS_ERROR;
	hilo_diags d;
	hilo_diags_init(&d);
	hilo_pass_ctx ctx = {.m = m, .pass = name, .filename = "t.hlo", .diags = &d,
		.unroll_markers = markers, .disable_slice_move_from_param = noparam};
	hilo_pass_result r = p->run(&ctx);
	if (r != HILO_PASS_ERROR) {
		hilo_diags vd;
		hilo_diags_init(&vd);
		CHECK(hilo_verify(m, "t.hlo", &vd));
		if (vd.nerrors)
			hilo_diags_print(stderr, &vd);
		hilo_diags_free(&vd);
	}
	hilo_diags_free(&d);
	if (rewrites)
		*rewrites = ctx.rewrites;
	return r;
}

static char *loop_src(int trip)
{
	static const char *fmt =
		"HloModule loop\n\n"
		"%%body (p: (s32[], f32[2])) -> (s32[], f32[2]) {\n"
		"  %%p = (s32[], f32[2]) parameter(0)\n"
		"  %%i = s32[] get-tuple-element(%%p), index=0\n"
		"  %%v = f32[2] get-tuple-element(%%p), index=1\n"
		"  %%s = f32[2] add(%%v, %%v)\n"
		"  %%one = s32[] constant(1)\n"
		"  %%n = s32[] add(%%i, %%one)\n"
		"  ROOT %%t = (s32[], f32[2]) tuple(%%n, %%s)\n"
		"}\n\n"
		"%%cond (p: (s32[], f32[2])) -> pred[] {\n"
		"  %%p = (s32[], f32[2]) parameter(0)\n"
		"  %%i = s32[] get-tuple-element(%%p), index=0\n"
		"  %%c = s32[] constant(%d)\n"
		"  ROOT %%lt = pred[] compare(%%i, %%c), direction=LT\n"
		"}\n\n"
		"ENTRY %%main (x: f32[2]) -> f32[2] {\n"
		"  %%x = f32[2] parameter(0)\n"
		"  %%z = s32[] constant(0)\n"
		"  %%init = (s32[], f32[2]) tuple(%%z, %%x)\n"
		"  %%loop = (s32[], f32[2]) while(%%init), condition=%%cond, body=%%body\n"
		"  ROOT %%out = f32[2] get-tuple-element(%%loop), index=1\n"
		"}\n";
	static char buf[4096];
	snprintf(buf, sizeof buf, fmt, trip);
	return buf;
}

static int count_op(hilo_module *m, hilo_comp *c, hilo_opcode op)
{
	(void)m;
	int n = 0;
	for (hilo_instr *i = c->first; i; i = i->next)
		n += i->op == op;
	return n;
}

/* SPEC section 4 budget: trip count <= 1000 is unrolled, 1001 is not */
static void test_unroller_budget(void)
{
	hilo_module *m = parse(loop_src(1000));
	CHECK(m != NULL);
	if (m) {
		uint64_t rw = 0;
		CHECK(run_pass(m, "while-loop-unroller", false, false, &rw) == HILO_PASS_CHANGED);
		CHECK(rw == 1);
		CHECK(count_op(m, m->entry, HILO_OP_CALL) == 1000);
		CHECK(count_op(m, m->entry, HILO_OP_WHILE) == 0);
		hilo_module_destroy(m);
	}
	m = parse(loop_src(1001));
	CHECK(m != NULL);
	if (m) {
		CHECK(run_pass(m, "while-loop-unroller", false, false, NULL) == HILO_PASS_UNCHANGED);
		CHECK(count_op(m, m->entry, HILO_OP_WHILE) == 1);
		hilo_module_destroy(m);
	}
}

/* unroll (with markers) -> simplify twice -> move: tokens are stable on
 * the second run, markers are gone, every slice is static */
static void test_flow(void)
{
	const char *src =
		"HloModule flow\n\n"
		"%body (p: (s32[], f32[2], f32[3,2])) -> (s32[], f32[2], f32[3,2]) {\n"
		"  %p = (s32[], f32[2], f32[3,2]) parameter(0)\n"
		"  %i = s32[] get-tuple-element(%p), index=0\n"
		"  %h = f32[2] get-tuple-element(%p), index=1\n"
		"  %w = f32[3,2] get-tuple-element(%p), index=2\n"
		"  %z = s32[] constant(0)\n"
		"  %ds = f32[1,2] dynamic-slice(%w, %i, %z), dynamic_slice_sizes={1,2}\n"
		"  %r = f32[2] reshape(%ds)\n"
		"  %s = f32[2] add(%h, %r)\n"
		"  %one = s32[] constant(1)\n"
		"  %n = s32[] add(%i, %one)\n"
		"  ROOT %t = (s32[], f32[2], f32[3,2]) tuple(%n, %s, %w)\n"
		"}\n\n"
		"%cond (p: (s32[], f32[2], f32[3,2])) -> pred[] {\n"
		"  %p = (s32[], f32[2], f32[3,2]) parameter(0)\n"
		"  %i = s32[] get-tuple-element(%p), index=0\n"
		"  %c = s32[] constant(3)\n"
		"  ROOT %lt = pred[] compare(%i, %c), direction=LT\n"
		"}\n\n"
		"ENTRY %main (x: f32[2], w: f32[3,2]) -> f32[2] {\n"
		"  %x = f32[2] parameter(0)\n"
		"  %w = f32[3,2] parameter(1)\n"
		"  %z = s32[] constant(0)\n"
		"  %init = (s32[], f32[2], f32[3,2]) tuple(%z, %x, %w)\n"
		"  %loop = (s32[], f32[2], f32[3,2]) while(%init), condition=%cond, body=%body\n"
		"  ROOT %out = f32[2] get-tuple-element(%loop), index=1\n"
		"}\n";
	hilo_module *m = parse(src);
	CHECK(m != NULL);
	if (!m)
		return;
	CHECK(run_pass(m, "while-loop-unroller", true, false, NULL) == HILO_PASS_CHANGED);
	CHECK(run_pass(m, "neuron-dus-ds-index-simplifier", false, false, NULL) == HILO_PASS_CHANGED);
	hilo_buf a, b;
	hilo_buf_init(&a);
	hilo_buf_init(&b);
	hilo_print_text(&a, m, HILO_STYLE_DEFAULT);
	uint64_t rw = 99;
	run_pass(m, "neuron-dus-ds-index-simplifier", false, false, &rw);
	CHECK(rw == 0);
	hilo_print_text(&b, m, HILO_STYLE_DEFAULT);
	CHECK(a.len == b.len && memcmp(a.data, b.data, a.len) == 0);
	CHECK(strstr(hilo_buf_cstr(&b), "NeuronBoundaryMarker") == NULL);
	CHECK(strstr(hilo_buf_cstr(&b), "iterationidx=2,dsidxnow=2,dsidxnow=0") != NULL);
	hilo_buf_free(&a);
	hilo_buf_free(&b);

	/* kill-switch: the first iteration's weights are an entry parameter */
	rw = 0;
	run_pass(m, "dynamic-slice-mover", false, true, &rw);
	CHECK(rw == 0);
	CHECK(run_pass(m, "dynamic-slice-mover", false, false, &rw) == HILO_PASS_CHANGED);
	CHECK(rw == 3);
	CHECK(count_op(m, m->entry, HILO_OP_SLICE) == 3);
	hilo_module_destroy(m);
}

int main(void)
{
	test_tokens();
	test_tokens_path_prefix();
	test_unroller_budget();
	test_flow();
	if (failures) {
		fprintf(stderr, "%d failure(s)\n", failures);
		return 1;
	}
	printf("ok\n");
	return 0;
}
