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
 * unknown keyword argument 'stepp' in pl.range() ..."). So is a keyword
 * PyPTO accepts for an operand the passes read by position, as PyPTO
 * prints it (a view's window, an allocation's shape, the tensor a host
 * read names): `pl.tensor.slice(t, s, offset=o)` would leave o unchecked.
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
	unsigned npos;               /* the first npos parameters of kw are read by position */
	const char *const *kw;       /* the keywords PyPTO accepts, NULL-terminated */
} pto_sig;

#define KW(...) ((const char *const[]){ __VA_ARGS__, NULL })

static const pto_sig sigs[] = {
	/* iterators: positional bounds, then the parser's keywords */
	{ "range", 0, KW("init_values", "attrs") },
	{ "parallel", 0, KW("init_values", "attrs") },
	{ "unroll", 0, KW("init_values", "attrs") },
	{ "pipeline", 0, KW("init_values", "stage", "attrs") },
	{ "while_", 0, KW("init_values") },
	{ "yield_", 0, KW(NULL) },
	/* scopes */
	{ "at", 0, KW("level", "role", "optimizations", "deps", "no_dep_args", "dumps", "allow_early_resolve",
		"name_hint", "windowize") },
	{ "scope", 0, KW("mode") },
	{ "spmd", 0, KW("core_num", "sync_start", "name_hint", "optimizations", "deps", "allow_early_resolve",
		"predicate") },
	/* submits: the kernel call's keywords */
	{ "submit", 0, KW("attrs", "deps", "dumps", "allow_early_resolve", "predicate") },
	{ "spmd_submit", 0, KW("attrs", "deps", "dumps", "allow_early_resolve", "predicate", "core_num", "sync_start") },
	{ "system.task_dummy", 0, KW("deps") },
	/* tensor ops legalize reads */
	{ "tensor.create", 1, KW("shape", "dtype", "layout", "manual_dep", "init_value") },
	{ "tensor.slice", 3, KW("tensor", "shape", "offset", "valid_shape", "drop_dims", "pad_value", "clamp") },
	{ "tensor.view", 3, KW("tensor", "shape", "valid_shape", "layout") },
	{ "tensor.reshape", 2, KW("tensor", "shape") },
	{ "tensor.read", 1, KW("tensor", "indices") },
	{ "tensor.write", 1, KW("tensor", "indices", "value") },
	{ "tensor.dim", 2, KW("tensor", "axis") },
	{ "tensor.full", 0, KW("shape", "dtype", "value") },
	{ "array.get_element", 2, KW("array", "index") },
	/* the decorator */
	{ "function", 0, KW("type", "level", "role", "attrs", "auto_scope", "strict_ssa", "external_source") },
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
		size_t at = 0;
		while (s->kw[at] && strcmp(s->kw[at], e->kwnames[i]))
			at++;
		if (s->kw[at] && at < s->npos) {
			/* PyPTO accepts it, but the passes read this operand by
			 * position (as PyPTO prints it): as a keyword it would go
			 * unchecked (a view's offset escaping GB019) */
			pto_error_at(k->p, k->d, e->kwvals[i], NULL,
				"keyword argument '%s' in pl.%s(): the pass reads '%s' as positional argument %zu, "
				"as PyPTO prints it; write it positionally", e->kwnames[i], s->op, e->kwnames[i], at + 1);
			k->errors++;
			continue;
		}
		if (s->kw[at])
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
