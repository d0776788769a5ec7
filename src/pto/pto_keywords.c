/* pto_keywords.c - keyword arguments of the pl.* calls the passes read,
 * held to PyPTO's signatures.
 *
 * What: every call the passes interpret - the loop iterators (pl.range and
 * its kin: trip count, init_values), pl.while_, pl.at / pl.scope / pl.spmd,
 * pl.submit / pl.spmd_submit (deps, core_num, predicate), the pl.tensor ops
 * whose operands legalize reads (create, slice, view, reshape, read, write,
 * dim, full), pl.system.task_dummy, pl.array.get_element, pl.yield_, and
 * the pl.function decorator (type=) - may carry only the keywords PyPTO
 * accepts there. Anything else is a located error ("FILE:LINE:COL: error:
 * unknown keyword argument 'stepp' in pl.range() ...").
 *
 * Why: Python would reject such a call (PyPTO's parser reports "Unknown
 * keyword argument"), but the passes look keywords up by name, so a
 * misspelt one (`stepp=2`, `typ=pl.FunctionType.Graph`) was silently
 * ignored and the program analysed as something it does not say. The
 * tables follow PyPTO's DSL signatures (python/pypto/language: dsl_api.py,
 * scope.py, op/tensor_ops.py, op/system_ops.py, op/array_ops.py,
 * parser/decorator.py) and its parser's keyword checks for the parser
 * constructs (iterators, pl.at, pl.scope, submits). Calls outside the
 * table are not the passes' to judge and are left alone.
 *
 * When: first in legalize-graph-boundary and verify-graph-boundary, before
 * anything reads a keyword. Input errors, not GB rules: no code.
 */
#include "pto/pto_legalize.h"

#include <string.h>

typedef struct pto_sig {
	const char *op;              /* the attribute path after `pl.` */
	const char *const *kw;       /* the keywords PyPTO accepts, NULL-terminated */
} pto_sig;

#define KW(...) ((const char *const[]){ __VA_ARGS__, NULL })

static const pto_sig sigs[] = {
	/* iterators: positional bounds, then the parser's keywords */
	{ "range", KW("init_values", "attrs") },
	{ "parallel", KW("init_values", "attrs") },
	{ "unroll", KW("init_values", "attrs") },
	{ "pipeline", KW("init_values", "stage", "attrs") },
	{ "while_", KW("init_values") },
	{ "yield_", KW(NULL) },
	/* scopes */
	{ "at", KW("level", "role", "optimizations", "deps", "no_dep_args", "dumps", "allow_early_resolve",
		"name_hint", "windowize") },
	{ "scope", KW("mode") },
	{ "spmd", KW("core_num", "sync_start", "name_hint", "optimizations", "deps", "allow_early_resolve",
		"predicate") },
	/* submits: the kernel call's keywords */
	{ "submit", KW("attrs", "deps", "dumps", "allow_early_resolve", "predicate") },
	{ "spmd_submit", KW("attrs", "deps", "dumps", "allow_early_resolve", "predicate", "core_num", "sync_start") },
	{ "system.task_dummy", KW("deps") },
	/* tensor ops legalize reads */
	{ "tensor.create", KW("shape", "dtype", "layout", "manual_dep", "init_value") },
	{ "tensor.slice", KW("tensor", "shape", "offset", "valid_shape", "drop_dims", "pad_value", "clamp") },
	{ "tensor.view", KW("tensor", "shape", "valid_shape", "layout") },
	{ "tensor.reshape", KW("tensor", "shape") },
	{ "tensor.read", KW("tensor", "indices") },
	{ "tensor.write", KW("tensor", "indices", "value") },
	{ "tensor.dim", KW("tensor", "axis") },
	{ "tensor.full", KW("shape", "dtype", "value") },
	{ "array.get_element", KW("array", "index") },
	/* the decorator */
	{ "function", KW("type", "level", "role", "attrs", "auto_scope", "strict_ssa", "external_source") },
};

typedef struct kwcheck {
	hilo_pto_program *p;
	hilo_diags *d;
	bool all;
	int errors;
} kwcheck;

/* The signature of call e (a pl.* call in the table), or NULL. */
static const pto_sig *call_sig(hilo_pto_program *p, pto_expr *e)
{
	pto_call cl;
	if (!pto_call_decode(p, e, &cl))
		return NULL;
	if (cl.kind != PTO_C_OP && cl.kind != PTO_C_SUBMIT) /* a submit's op is "submit"/"spmd_submit" */
		return NULL;
	const char *op = cl.op;
	for (size_t i = 0; i < sizeof sigs / sizeof sigs[0]; i++)
		if (!strcmp(sigs[i].op, op))
			return &sigs[i];
	return NULL;
}

static void check_call(kwcheck *k, pto_expr *e)
{
	const pto_sig *s = call_sig(k->p, e);
	if (!s)
		return;
	for (size_t i = 0; i < e->nkw && (k->all || !k->errors); i++) {
		bool known = false;
		for (size_t j = 0; s->kw[j] && !known; j++)
			known = !strcmp(s->kw[j], e->kwnames[i]);
		if (known)
			continue;
		char list[400];
		size_t n = 0;
		list[0] = '\0';
		for (size_t j = 0; s->kw[j] && n < sizeof list; j++)
			n += (size_t)snprintf(list + n, sizeof list - n, "%s%s", j ? ", " : "", s->kw[j]);
		pto_error_at(k->p, k->d, e->kwvals[i], NULL,
			"unknown keyword argument '%s' in pl.%s(): PyPTO's pl.%s() takes %s%s. PyPTO rejects the "
			"call; the pass would read the program as if the argument were not there",
			e->kwnames[i], s->op, s->op, s->kw[0] ? "only " : "no keyword arguments", list);
		k->errors++;
	}
}

/* Every call in e, nested ones included (the tree's depth is the parser's
 * bound, pto_parse.c "depth"). */
static void check_expr(kwcheck *k, pto_expr *e)
{
	if (!e || (!k->all && k->errors))
		return;
	if (e->kind == PTO_E_CALL)
		check_call(k, e);
	check_expr(k, pto_expr_base(e));
	check_expr(k, pto_expr_rhs(e));
	for (size_t i = 0; i < pto_expr_nitems(e); i++)
		check_expr(k, e->items[i]);
	if (e->kind == PTO_E_CALL)
		for (size_t i = 0; i < e->nkw; i++)
			check_expr(k, e->kwvals[i]);
	if (e->kind == PTO_E_DICT)
		for (size_t i = 0; i < pto_expr_nitems(e); i++)
			check_expr(k, e->keys[i]);
}

static void check_block(kwcheck *k, const pto_block *b)
{
	for (size_t i = 0; i < b->n && (k->all || !k->errors); i++) {
		pto_stmt *s = b->stmts[i];
		if (s->kind == PTO_S_COMMENT || s->kind == PTO_S_PASS || s->kind == PTO_S_KEYWORD)
			continue;
		check_expr(k, s->target);
		check_expr(k, s->value);
		if (pto_stmt_has_body(s->kind))
			check_block(k, &s->body);
		if (s->kind == PTO_S_IF)
			check_block(k, &s->orelse);
	}
}

int lg_check_keywords(hilo_pto_program *p, hilo_diags *d, bool all)
{
	kwcheck k = { p, d, all, 0 };
	for (size_t i = 0; i < p->nfuncs && (all || !k.errors); i++) {
		pto_func *f = p->funcs[i];
		for (size_t j = 0; j < f->ndecos; j++)
			check_expr(&k, f->decos[j]);
		check_block(&k, &f->body);
	}
	return k.errors;
}
