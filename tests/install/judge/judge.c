/* judge - a pass written outside hilo, judged by hilo's validator
 * (docs/proof.md, "Judging a pass written outside hilo"). Built by
 * tests/install/run.sh against the installed headers and library only.
 *
 * Each case clones the parsed module, rewrites the clone with the public
 * IR functions alone (no struct field is written), verifies it and hands
 * (before, after) to hilo_validate_pass:
 *   double     multiply(x, broadcast(2)) -> add(x, x)       sound
 *   xor-or     xor(i, broadcast(0)) -> or(i, ...) in place   sound
 *   add-sub    add(m, y) -> subtract(m, y) in place          unsound
 *   literal    constant 2 -> 3                               unsound
 * A sound case must be proved or tested and none of its records failed; an
 * unsound one must have a failed record. Prints one verdict per record and
 * per case; exits 1 on any unexpected verdict. Usage: judge [FILE.hlo] */
#include <hilo/check.h>
#include <hilo/hlo_text.h>
#include <hilo/ir.h>
#include <hilo/verify.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static const char *k_module =
	"HloModule judge\n"
	"\n"
	"ENTRY main {\n"
	"  x = f32[8] parameter(0)\n"
	"  y = f32[8] parameter(1)\n"
	"  i = s32[8] parameter(2)\n"
	"  two = f32[] constant(2)\n"
	"  b = f32[8] broadcast(two), dimensions={}\n"
	"  m = f32[8] multiply(x, b)\n"
	"  r = f32[8] add(m, y)\n"
	"  zero = s32[] constant(0)\n"
	"  zb = s32[8] broadcast(zero), dimensions={}\n"
	"  o = s32[8] xor(i, zb)\n"
	"  ROOT t = (f32[8], s32[8]) tuple(r, o)\n"
	"}\n";

static hilo_instr *find(hilo_comp *c, const char *name)
{
	for (hilo_instr *i = c->first; i; i = i->next)
		if (strcmp(i->name, name) == 0)
			return i;
	return NULL;
}

/* ---- the rewrites: public IR functions only ---- */

/* m = multiply(x, broadcast(2)) becomes m = add(x, x): x*2 and x+x round
 * alike for every float, NaN and infinity included. The old instruction
 * is renamed first, which frees its name for the new one. */
static bool rewrite_double(hilo_module *m)
{
	hilo_comp *c = m->entry;
	hilo_instr *mul = find(c, "m");
	if (!mul || !hilo_instr_rename(m, mul, "m.dead"))
		return false;
	hilo_instr *x = mul->operands[0];
	hilo_instr *add = hilo_instr_create(m, HILO_OP_ADD, mul->shape, "m");
	hilo_instr_add_operand(m, add, x);
	hilo_instr_add_operand(m, add, x);
	hilo_comp_insert_before(c, mul, add);
	hilo_instr_replace_all_uses(m, mul, add);
	hilo_comp_remove(c, mul);
	return strcmp(add->name, "m") == 0;
}

/* xor with zero and or with zero are both the identity on integers. */
static bool rewrite_xor_or(hilo_module *m)
{
	hilo_instr *o = find(m->entry, "o");
	return o && hilo_instr_set_opcode(o, HILO_OP_OR);
}

/* Unsound: add -> subtract. */
static bool rewrite_add_sub(hilo_module *m)
{
	hilo_instr *r = find(m->entry, "r");
	return r && hilo_instr_set_opcode(r, HILO_OP_SUBTRACT);
}

/* Unsound: the constant 2 becomes 3 (the literal is read in another
 * module: set_literal copies it into m). */
static bool rewrite_literal(hilo_module *m)
{
	hilo_instr *two = find(m->entry, "two");
	hilo_module *tmp = hilo_module_create("tmp");
	if (!two || !tmp)
		return false;
	hilo_diags d;
	hilo_diags_init(&d);
	hilo_literal *three = hilo_read_input_literal(tmp, "f32[] 3", 7, "three", &d);
	bool ok = three && hilo_instr_set_literal(m, two, three);
	hilo_diags_print(stderr, &d);
	hilo_diags_free(&d);
	hilo_module_destroy(tmp);
	return ok;
}

/* ---- judging ---- */

static void print_record(void *arg, const hilo_check_record *r)
{
	(void)arg;
	printf("  record %s: %s (%s)\n", r->after ? r->after->name : "(removed)", r->verdict,
		r->method);
}

/* Runs one case; true when the verdict is the expected one. */
static bool judge(const hilo_module *src, const char *name, bool (*rewrite)(hilo_module *),
	bool sound)
{
	hilo_module *before = hilo_module_clone(src), *after = hilo_module_clone(src);
	hilo_validate_opts o = {.inputs = 8, .seed = 1, .filename = name, .on_record = print_record};
	hilo_validator *v = hilo_validator_create(&o);
	hilo_diags d;
	hilo_diags_init(&d);
	bool ok = false;
	if (!before || !after || !v) {
		fprintf(stderr, "judge: %s: out of memory\n", name);
	} else if (!rewrite(after)) {
		fprintf(stderr, "judge: %s: an IR edit was refused\n", name);
	} else if (!hilo_verify(after, name, &d)) {
		fprintf(stderr, "judge: %s: the rewritten module does not verify\n", name);
	} else if (hilo_validate_pass(v, before, after, name, NULL, &d, NULL)) {
		hilo_validate_summary s;
		hilo_validator_summary(v, &s);
		/* the weakest verdict of the case's records names it */
		const char *verdict = s.failed ? "failed" : s.skipped ? "skipped" : s.tested ? "tested" :
			s.proved ? "proved" : "nothing judged";
		printf("%s: %s (proved %llu, tested %llu, failed %llu, skipped %llu)\n", name, verdict,
			(unsigned long long)s.proved, (unsigned long long)s.tested,
			(unsigned long long)s.failed, (unsigned long long)s.skipped);
		ok = sound ? (s.failed == 0 && s.proved + s.tested > 0) : s.failed > 0;
		if (!ok)
			printf("%s: UNEXPECTED: %s rewrite was judged %s\n", name,
				sound ? "a sound" : "an unsound", verdict);
	}
	/* the validator's findings (the counterexamples of the unsound cases) */
	hilo_diags_print(stdout, &d);
	hilo_diags_free(&d);
	hilo_validator_destroy(v);
	hilo_module_destroy(before);
	hilo_module_destroy(after);
	return ok;
}

int main(int argc, char **argv)
{
	if (argc > 2) {
		fprintf(stderr, "usage: judge [FILE.hlo]\n");
		return 2;
	}
	hilo_diags d;
	hilo_diags_init(&d);
	size_t len = strlen(k_module);
	char *text = argc == 2 ? hilo_read_file(argv[1], &len, &d) : NULL;
	const char *file = argc == 2 ? argv[1] : "judge.hlo";
	hilo_module *m = argc == 2 && !text ? NULL :
		hilo_parse_text(text ? text : k_module, len, file, &d);
	int rc = 1;
	if (m && hilo_verify(m, file, &d)) {
		rc = 0;
		rc |= !judge(m, "double", rewrite_double, true);
		rc |= !judge(m, "xor-or", rewrite_xor_or, true);
		rc |= !judge(m, "add-sub", rewrite_add_sub, false);
		rc |= !judge(m, "literal", rewrite_literal, false);
		printf("judge: %s\n", rc ? "FAIL" : "ok");
	}
	hilo_diags_print(stderr, &d);
	hilo_diags_free(&d);
	hilo_module_destroy(m);
	free(text);
	return rc;
}
