/* Unit tests for the index-token protocol (SPEC section 5) and the index
 * passes' helpers. */
#include "hilo/hlo_text.h"
#include "hilo/tokens.h"

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

int main(void)
{
	test_tokens();
	if (failures) {
		fprintf(stderr, "%d failure(s)\n", failures);
		return 1;
	}
	printf("ok\n");
	return 0;
}
