/* Unit tests for hilo_known_starts (src/transforms/analyses/known_starts.c): constant
 * and evaluator-folded start operands, clamping, full-extent windows,
 * proven starts from the run state, and input tokens never taken as facts
 * (SPEC section 5). */
#include "check.h"

#include "hilo/pass.h"

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

static const char *src =
	"HloModule t\n\n"
	"ENTRY e {\n"
	"  p = f32[8,4] parameter(0)\n"
	"  i = s32[] parameter(1)\n"
	"  u = f32[2,4] parameter(2)\n"
	"  lo = s32[] constant(5)\n"
	"  x = s32[] constant(0)\n"
	"  hi = s32[] constant(2)\n"
	"  c = s32[] clamp(lo, x, hi)\n"
	"  m8 = s8[] constant(-128)\n"
	"  s6 = s8[] constant(6)\n"
	"  sh = s8[] shift-right-logical(m8, s6)\n"
	"  big = s32[] constant(100)\n"
	"  neg = s32[] constant(-3)\n"
	"  z = s32[] constant(0)\n"
	"  huge = u64[] constant(18446744073709551615)\n"
	"  ds_clamp = f32[2,4] dynamic-slice(p, c, z), dynamic_slice_sizes={2,4}\n"
	"  ds_shr = f32[2,4] dynamic-slice(p, sh, z), dynamic_slice_sizes={2,4}\n"
	"  ds_big = f32[2,4] dynamic-slice(p, big, neg), dynamic_slice_sizes={2,4}\n"
	"  ds_huge = f32[2,4] dynamic-slice(p, huge, z), dynamic_slice_sizes={2,4}\n"
	"  ds_tok = f32[2,4] dynamic-slice(p, i, z), dynamic_slice_sizes={2,4}, metadata={op_name=\"dsidxnow=0,dsidxnow=0\"}\n"
	"  ds_bc = f32[2,4] dynamic-slice(p, i, i), dynamic_slice_sizes={2,4}, backend_config=\"dsidxnow=2,dsidxnow=0\"\n"
	"  ds_full = f32[8,2] dynamic-slice(p, i, big), dynamic_slice_sizes={8,2}\n"
	"  dus = f32[8,4] dynamic-update-slice(p, u, i, big), metadata={op_name=\"dusidxnow=4,dusidxnow=0\"}\n"
	"  t = (f32[2,4], f32[2,4], f32[2,4], f32[2,4], f32[2,4], f32[2,4], f32[8,2], f32[8,4]) tuple(ds_clamp, ds_shr, ds_big, ds_huge, ds_tok, ds_bc, ds_full, dus)\n"
	"  ROOT r = f32[2,4] add(ds_tok, ds_bc)\n"
	"}\n";

int main(void)
{
	hilo_module *m = parse(src);
	CHECK(m != NULL);
	if (!m)
		return CHECK_DONE();
	hilo_pass_ctx ctx = {.m = m, .pass = "test"};
	int64_t v[4] = {0};
	char why[256];

	/* clamp(lo=5, x=0, hi=2) = min(max(0, 5), 2) = 2 (evaluator) */
	CHECK_EQ_I64(hilo_known_starts(&ctx, find(m, "ds_clamp"), v, 4), 2);
	CHECK_EQ_I64(v[0], 2);
	CHECK_EQ_I64(v[1], 0);
	/* s8 0x80 >>> 6 = 2 */
	CHECK_EQ_I64(hilo_known_starts(&ctx, find(m, "ds_shr"), v, 4), 2);
	CHECK_EQ_I64(v[0], 2);
	/* clamped into [0, 6] and [0, 0] */
	CHECK_EQ_I64(hilo_known_starts(&ctx, find(m, "ds_big"), v, 4), 2);
	CHECK_EQ_I64(v[0], 6);
	CHECK_EQ_I64(v[1], 0);
	CHECK_EQ_I64(hilo_known_starts(&ctx, find(m, "ds_huge"), v, 4), 2);
	CHECK_EQ_I64(v[0], 6);
	/* tokens in op_name or backend_config are not facts */
	hilo_instr *tok = find(m, "ds_tok"), *bc = find(m, "ds_bc");
	CHECK_EQ_I64(hilo_known_starts(&ctx, tok, v, 4), -1);
	hilo_known_starts_why(&ctx, tok, why, sizeof why);
	CHECK(strstr(why, "dsidxnow= token ignored: not proven") != NULL);
	CHECK(strstr(why, "dimension 0") != NULL);
	CHECK_EQ_I64(hilo_known_starts(&ctx, bc, v, 4), -1);
	hilo_known_starts_why(&ctx, bc, why, sizeof why);
	CHECK(strstr(why, "token ignored: not proven") != NULL);
	/* a full-extent window is pinned at 0 whatever the index */
	CHECK_EQ_I64(hilo_known_starts(&ctx, find(m, "ds_full"), v, 4), 2);
	CHECK_EQ_I64(v[0], 0);
	CHECK_EQ_I64(v[1], 2);
	/* DUS: dimension 1 is full extent (update 4 of 4) */
	hilo_instr *dus = find(m, "dus");
	CHECK_EQ_I64(hilo_known_starts(&ctx, dus, v, 4), -1);
	hilo_known_starts_why(&ctx, dus, why, sizeof why);
	CHECK(strstr(why, "dusidxnow= token ignored") != NULL);
	/* not a DS/DUS */
	CHECK_EQ_I64(hilo_known_starts(&ctx, find(m, "r"), v, 4), -1);

	/* proven starts: only with a run state, only in range, constants win */
	int64_t pv[2] = {3, 0};
	hilo_proven_starts_set(&ctx, tok, pv, 2);
	CHECK_EQ_I64(hilo_known_starts(&ctx, tok, v, 4), -1); /* no run state */
	ctx.run = hilo_run_state_create(m->arena);
	hilo_proven_starts_set(&ctx, tok, pv, 2);
	CHECK_EQ_I64(hilo_known_starts(&ctx, tok, v, 4), 2);
	CHECK_EQ_I64(v[0], 3);
	CHECK_EQ_I64(v[1], 0);
	int64_t bad[2] = {7, 0}; /* outside [0, 6]: not used */
	hilo_proven_starts_set(&ctx, bc, bad, 2);
	CHECK_EQ_I64(hilo_known_starts(&ctx, bc, v, 4), -1);
	int64_t short1[1] = {1}; /* wrong rank: not used */
	hilo_proven_starts_set(&ctx, bc, short1, 1);
	CHECK_EQ_I64(hilo_known_starts(&ctx, bc, v, 4), -1);
	int64_t wrongc[2] = {5, 0}; /* the constant operand wins */
	hilo_proven_starts_set(&ctx, find(m, "ds_clamp"), wrongc, 2);
	CHECK_EQ_I64(hilo_known_starts(&ctx, find(m, "ds_clamp"), v, 4), 2);
	CHECK_EQ_I64(v[0], 2);
	int64_t dv[2] = {4, 1}; /* DUS: constant 100 clamps to 0 on dim 1 */
	hilo_proven_starts_set(&ctx, dus, dv, 2);
	CHECK_EQ_I64(hilo_known_starts(&ctx, dus, v, 4), 2);
	CHECK_EQ_I64(v[0], 4);
	CHECK_EQ_I64(v[1], 0);
	hilo_proven_starts_clear(&ctx, tok);
	CHECK_EQ_I64(hilo_known_starts(&ctx, tok, v, 4), -1);

	hilo_run_state_destroy(ctx.run);
	hilo_module_destroy(m);
	return CHECK_DONE();
}
