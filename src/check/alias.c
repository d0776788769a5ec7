/* alias.c - buffer aliasing as part of a program's meaning (docs/proof.md,
 * "Aliasing").
 *
 * Values alone do not say what a program does to its buffers: an
 * instruction's output_to_operand_aliasing makes its result overwrite the
 * named operand (an in-place kernel), and the module's input_output_alias
 * and buffer_donor let the entry's results reuse its parameters' buffers.
 * Two programs that compute the same values but overwrite different
 * buffers are not the same program (issue 30: dce dropped a fusion operand
 * and the alias moved from z to w, an entry parameter also returned).
 *
 * The rule. A pair names an operand by number; it is resolved to the
 * operand instruction, so renumbering with the operands is the same
 * aliasing and pointing at another operand is not. The instruction of the
 * after module is compared with the before instruction of its id (ids are
 * stable across a pass): the same pairs, as a set of (output index,
 * operand id, operand index), or the aliasing changed. A pair naming no
 * operand changed it too. An after instruction with aliasing and no
 * before instruction of its id and opcode is not judged. The module's
 * aliasing header is compared as text, blanks aside: entry parameters and
 * results keep their numbers under every pass.
 */
#include "check_internal.h"

#include <stdio.h>

static bool index_same(const hilo_shape_index *x, const hilo_shape_index *y)
{
	if (x->n != y->n)
		return false;
	for (int k = 0; k < x->n; k++)
		if (x->v[k] != y->v[k])
			return false;
	return true;
}

static void index_text(char *buf, size_t cap, const hilo_shape_index *ix)
{
	size_t n = (size_t)snprintf(buf, cap, "{");
	for (int k = 0; k < ix->n && n < cap; k++)
		n += (size_t)snprintf(buf + n, cap - n, "%s%lld", k ? "," : "", (long long)ix->v[k]);
	if (n < cap)
		snprintf(buf + n, cap - n, "}");
}

/* The operand pair pr of i names, or NULL when it names none. */
static const hilo_instr *named(const hilo_instr *i, const hilo_alias_pair *pr)
{
	return pr->operand >= 0 && pr->operand < (int64_t)i->noperands ? i->operands[pr->operand] : NULL;
}

/* Does y hold a pair of i equal to pair x of j (resolved)? */
static bool holds(const hilo_instr *i, const hilo_aliasing *y, const hilo_instr *j,
	const hilo_alias_pair *x)
{
	const hilo_instr *o = named(j, x);
	for (size_t k = 0; o && k < y->n; k++) {
		const hilo_instr *p = named(i, &y->pairs[k]);
		if (p && p->id == o->id && index_same(&y->pairs[k].output, &x->output) &&
		    index_same(&y->pairs[k].operand_index, &x->operand_index))
			return true;
	}
	return false;
}

/* One line on a pair of x (instruction i) that y (instruction j) lacks. */
static void describe_pair(char *why, size_t cap, const char *side, const hilo_instr *i,
	const hilo_alias_pair *pr)
{
	char out[96], oix[96];
	index_text(out, sizeof out, &pr->output);
	index_text(oix, sizeof oix, &pr->operand_index);
	const hilo_instr *o = named(i, pr);
	snprintf(why, cap, "output_to_operand_aliasing of %s changed: %s output %s aliases operand "
		"%lld (%s) at %s, which the other side does not", i->name, side, out,
		(long long)pr->operand, o ? o->name : "no such operand", oix);
}

/* 0 same, 1 changed (why), between before instruction b and after a. */
static int instr_diff(hilo_arena *ar, const hilo_instr *b, const hilo_instr *a, char *why, size_t cap)
{
	hilo_aliasing xb, xa;
	bool okb = hilo_instr_aliasing(ar, b, &xb), oka = hilo_instr_aliasing(ar, a, &xa);
	if (!okb || !oka) {
		snprintf(why, cap, "output_to_operand_aliasing of %s does not parse (%s)", a->name,
			okb ? "after" : "before");
		return 1;
	}
	for (size_t k = 0; k < xa.n; k++)
		if (!holds(b, &xb, a, &xa.pairs[k])) {
			describe_pair(why, cap, "after", a, &xa.pairs[k]);
			return 1;
		}
	for (size_t k = 0; k < xb.n; k++)
		if (!holds(a, &xa, b, &xb.pairs[k])) {
			describe_pair(why, cap, "before", b, &xb.pairs[k]);
			return 1;
		}
	return 0;
}

/* The module attribute key of m, or NULL. */
static const char *module_attr(const hilo_module *m, const char *key)
{
	for (uint32_t k = 0; k < m->nattrs; k++)
		if (!strcmp(m->attrs[k].key, key))
			return m->attrs[k].value;
	return NULL;
}

/* x and y equal but for blanks, tabs and newlines (NULL equals NULL). */
static bool text_same(const char *x, const char *y)
{
	if (!x || !y)
		return x == y;
	for (;;) {
		while (*x == ' ' || *x == '\t' || *x == '\n' || *x == '\r')
			x++;
		while (*y == ' ' || *y == '\t' || *y == '\n' || *y == '\r')
			y++;
		if (*x != *y)
			return false;
		if (!*x)
			return true;
		x++, y++;
	}
}

static const char *const header_keys[] = {"input_output_alias", "buffer_donor"};
enum { NHEADER_KEYS = sizeof header_keys / sizeof header_keys[0] };

/* The first header key whose values differ, or NHEADER_KEYS. */
static size_t header_diff(const hilo_module *b, const hilo_module *a)
{
	size_t k = 0;
	while (k < NHEADER_KEYS && text_same(module_attr(b, header_keys[k]), module_attr(a, header_keys[k])))
		k++;
	return k;
}

bool alias_header_same(const hilo_module *b, const hilo_module *a)
{
	return header_diff(b, a) == NHEADER_KEYS;
}

int alias_diff(pairctx *P, const hilo_instr **b, const hilo_instr **a, char *why, size_t cap)
{
	const hilo_module *B = P->s[0].m, *A = P->s[1].m;
	size_t k = header_diff(B, A);
	if (k < NHEADER_KEYS) {
		const char *vb = module_attr(B, header_keys[k]), *va = module_attr(A, header_keys[k]);
		*b = B->entry ? B->entry->root : NULL;
		*a = A->entry ? A->entry->root : NULL;
		snprintf(why, cap, "the module's %s changed: %s -> %s", header_keys[k], vb ? vb : "(none)",
			va ? va : "(none)");
		return 1;
	}
	hilo_arena *ar = P->scratch->arena;
	int verdict = 0;
	for (uint32_t c = 0; c < A->ncomps; c++)
		for (const hilo_instr *i = A->comps[c]->first; i; i = i->next) {
			const hilo_instr *o = i->id < P->s[0].nid ? P->s[0].by_id[i->id] : NULL;
			bool has = hilo_instr_attr(i, HILO_A_OUTPUT_TO_OPERAND_ALIASING) != NULL;
			if (!o || o->op != i->op) {
				if (has && !verdict) {
					*b = *a = i;
					snprintf(why, cap, "%s is new and has output_to_operand_aliasing: not "
						"judged", i->name);
					verdict = 2;
				}
				continue;
			}
			if (!has && !hilo_instr_attr(o, HILO_A_OUTPUT_TO_OPERAND_ALIASING))
				continue;
			if (instr_diff(ar, o, i, why, cap)) {
				*b = o;
				*a = i;
				return 1;
			}
		}
	return verdict;
}
