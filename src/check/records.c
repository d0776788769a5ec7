/* records.c - the rewrite validator's driver glue: rewrite records derived
 * from an id-stable diff of the modules before and after a pass, their
 * verdicts, the summary, remarks and failure messages (docs/proof.md).
 *
 * Correspondence: a computation corresponds to the one of the same name in
 * the other module when both have the same signature (parameter and root
 * shapes). An instruction of the after-module is *shared* when the before-
 * module has an instruction with the same id in the corresponding
 * computation with the same opcode, shape, meaningful attributes, literal,
 * parameter number, equivalent called computations and the same shared
 * operands (by id). Shared instructions compute the same function of their
 * computation's parameters, so they are the frontier of every cone.
 *
 * Records (grouped when identical), per corresponding computation pair:
 *  (a) an operand slot of a same-defined instruction whose operand id
 *      changed: old operand value vs new operand value; when one neither
 *      proves nor passes a test, the instructions using it are judged
 *      whole (before vs after, as in (b)): an in-place operand swap of a
 *      commutative op is sound though its slots differ;
 *  (b) an instruction with the same id but another definition;
 *  (r) a computation whose root id changed: old root vs new root;
 *  (c) a side-effecting instruction that disappeared: failed (a live
 *      side effect must never be dropped) unless an instruction of the
 *      same opcode and target took its place in the same computation;
 *  (e) an entry computation that no longer corresponds (signature or name
 *      changed): the two entry roots as one record, never silence.
 * Computations are processed callees first; one all of whose records are
 * proved or tested is equivalent, so call sites that did not change are
 * shared again and do not re-prove the callee.
 */
#include "check_internal.h"
#include "support/json.h"

#include <stdlib.h>
#include <time.h>

struct hilo_validator {
	hilo_validate_opts o;
	hilo_validate_summary s;
	tagpool tags;
};

hilo_validator *hilo_validator_create(const hilo_validate_opts *o)
{
	hilo_validator *v = calloc(1, sizeof *v);
	if (!v)
		return NULL;
	if (o)
		v->o = *o;
	if (v->o.inputs <= 0)
		v->o.inputs = 3;
	if (!v->o.budget)
		v->o.budget = HILO_EVAL_DEFAULT_BUDGET;
	v->s.inputs = v->o.inputs;
	return v;
}

void hilo_validator_destroy(hilo_validator *v)
{
	if (!v)
		return;
	tagpool_free(&v->tags);
	free(v);
}

void hilo_validator_summary(const hilo_validator *v, hilo_validate_summary *s)
{
	*s = v->s;
}

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* ---- id maps and correspondence ----------------------------------------- */

static bool side_init(side *s, hilo_module *m, int k, uint32_t nid)
{
	s->m = m;
	s->k = k;
	s->nid = nid;
	s->by_id = calloc((size_t)nid + 1, sizeof *s->by_id);
	if (!s->by_id)
		return false;
	for (uint32_t c = 0; c < m->ncomps; c++)
		for (hilo_instr *i = m->comps[c]->first; i; i = i->next)
			if (i->id < nid)
				s->by_id[i->id] = i;
	return true;
}

static int cmp_comp_name(const void *a, const void *b)
{
	return strcmp((*(hilo_comp *const *)a)->name, (*(hilo_comp *const *)b)->name);
}

static bool same_signature(const hilo_comp *a, const hilo_comp *b)
{
	return a->root && b->root && hilo_shape_compatible(a->root->shape, b->root->shape) &&
	       chk_same_params(a, b);
}

/* Is there a computation of this name in the after-module? */
static bool hilo_module_find_named(pairctx *P, const char *name)
{
	hilo_comp key = {0};
	key.name = name;
	hilo_comp *kp = &key;
	return bsearch(&kp, P->after_sorted, P->s[1].m->ncomps, sizeof *P->after_sorted,
		cmp_comp_name) != NULL;
}

/* Pairs computations by name (sorted array + binary search). */
static bool correspond(pairctx *P)
{
	hilo_module *Am = P->s[1].m;
	P->after_sorted = malloc(((size_t)Am->ncomps + 1) * sizeof *P->after_sorted);
	if (!P->after_sorted)
		return false;
	memcpy(P->after_sorted, Am->comps, Am->ncomps * sizeof *P->after_sorted);
	qsort(P->after_sorted, Am->ncomps, sizeof *P->after_sorted, cmp_comp_name);
	hilo_module *B = P->s[0].m, *A = P->s[1].m;
	hilo_comp **sorted = malloc(((size_t)B->ncomps + 1) * sizeof *sorted);
	if (!sorted)
		return false;
	memcpy(sorted, B->comps, B->ncomps * sizeof *sorted);
	qsort(sorted, B->ncomps, sizeof *sorted, cmp_comp_name);
	bool ok = true;
	for (uint32_t k = 0; k < A->ncomps && ok; k++) {
		hilo_comp *ca = A->comps[k];
		hilo_comp key = {0};
		key.name = ca->name;
		hilo_comp *kp = &key;
		hilo_comp **f = bsearch(&kp, sorted, B->ncomps, sizeof *sorted, cmp_comp_name);
		if (!f || !same_signature(*f, ca) || (*f)->is_entry != ca->is_entry)
			continue;
		ok = hilo_ptrmap_put(&P->corr, ca, *f) && hilo_ptrmap_put(&P->corr, *f, ca);
	}
	free(sorted);
	return ok;
}

/* ---- attributes and shared instructions ---------------------------------- */

const hilo_instr *chk_param_element(const hilo_instr *i, int64_t *path, int max, int *depth)
{
	const hilo_comp *c = i->parent;
	int n = 0;
	while (i->op == HILO_OP_GET_TUPLE_ELEMENT && i->noperands == 1) {
		int64_t k;
		if (n == max || !hilo_instr_get_int(i, HILO_A_INDEX, &k))
			return NULL;
		path[n++] = k;
		i = i->operands[0];
	}
	if (i->op != HILO_OP_PARAMETER || hilo_instr_param_no(i) < 0 || i->parent != c)
		return NULL;
	for (int q = 0; q < n / 2; q++) { /* innermost first -> outermost first */
		int64_t t = path[q];
		path[q] = path[n - 1 - q];
		path[n - 1 - q] = t;
	}
	*depth = n;
	return i;
}

static const hilo_instr *layout_source(const hilo_instr *i, int depth)
{
	while (depth++ < 256) {
		switch (i->op) {
		case HILO_OP_OPT_BARRIER: case HILO_OP_DOMAIN: case HILO_OP_ADD_DEPENDENCY:
		case HILO_OP_SET_DIMENSION_SIZE:
			if (!i->noperands)
				return i;
			i = i->operands[0];
			continue;
		case HILO_OP_CUSTOM_CALL:
			if (!hilo_instr_is_boundary_marker(i) || i->noperands != 1)
				return i;
			i = i->operands[0];
			continue;
		case HILO_OP_COPY_DONE:
			if (i->noperands != 1 || i->operands[0]->op != HILO_OP_COPY_START ||
			    !i->operands[0]->noperands)
				return i;
			i = i->operands[0]->operands[0];
			continue;
		case HILO_OP_CALL: case HILO_OP_FUSION:
			if (hilo_instr_ncalled(i) < 1 || !hilo_instr_called(i)[0]->root)
				return i;
			i = hilo_instr_called(i)[0]->root;
			continue;
		case HILO_OP_GET_TUPLE_ELEMENT: {
			int64_t k;
			if (i->noperands != 1 || !hilo_instr_get_int(i, HILO_A_INDEX, &k))
				return i;
			const hilo_instr *x = layout_source(i->operands[0], depth);
			if (x->op != HILO_OP_TUPLE || k < 0 || k >= (int64_t)x->noperands)
				return i;
			i = x->operands[k];
			continue;
		}
		default:
			return i;
		}
	}
	return i;
}

const hilo_instr *chk_layout_source(const hilo_instr *i)
{
	return layout_source(i, 0);
}

bool chk_layout_unknown(const hilo_module *m, const hilo_instr *i)
{
	if (i->op != HILO_OP_BITCAST || i->noperands != 1)
		return false;
	const hilo_instr *src = chk_layout_source(i->operands[0]);
	return src->op == HILO_OP_PARAMETER && src->parent && !src->parent->is_entry &&
	       !hilo_module_layout_sensitive(m);
}

/* Do the operands of a call, while, conditional or fusion keep their
 * layouts? The layout of an operand is the layout that reaches the
 * callee's parameter (a bitcast there reads it): resetting a copy's
 * layout in place left the call shared, 0 rewrites (issue 30). */
static bool call_layouts_same(const hilo_instr *b, const hilo_instr *a)
{
	switch (a->op) {
	case HILO_OP_CALL: case HILO_OP_FUSION: case HILO_OP_WHILE: case HILO_OP_CONDITIONAL:
		break;
	default:
		return true;
	}
	for (uint32_t q = 0; q < a->noperands && q < b->noperands; q++)
		if (!hilo_shape_equal(a->operands[q]->shape, b->operands[q]->shape))
			return false;
	return true;
}

/* A bitcast reads its operand's physical layout: the same definition needs
 * the same layout where the operand's value is made (a copy's layout reset,
 * a layout-changing copy removed or skipped through an opt-barrier change
 * the result while every value stays the same). */
static bool bitcast_source_same(const hilo_instr *b, const hilo_instr *a)
{
	if (b->noperands != 1 || a->noperands != 1)
		return b->noperands == a->noperands;
	return hilo_shape_equal(chk_layout_source(b->operands[0])->shape,
		chk_layout_source(a->operands[0])->shape);
}

bool chk_attr_skip(const hilo_attr *a)
{
	return !hilo_attr_is_semantic(a);
}

/* How two called computations are compared: judged equivalent by this
 * pair (comp_equiv), or, in the lockstep walk, by name (same_name). */
typedef bool (*comp_eq_fn)(const void *ud, const hilo_comp *cb, const hilo_comp *ca);

static bool comp_equiv(const void *ud, const hilo_comp *cb, const hilo_comp *ca)
{
	const pairctx *P = ud;
	return hilo_ptrmap_get(&P->corr, ca) == cb && hilo_ptrmap_get(&P->equiv, ca);
}

static bool same_name(const void *ud, const hilo_comp *cb, const hilo_comp *ca)
{
	(void)ud;
	return cb && ca && !strcmp(cb->name, ca->name);
}

static bool attrs_same(comp_eq_fn ceq, const void *ud, const hilo_instr *b, const hilo_instr *a)
{
	uint32_t kb = 0, ka = 0;
	for (;;) {
		while (kb < b->nattrs && chk_attr_skip(&b->attrs[kb]))
			kb++;
		while (ka < a->nattrs && chk_attr_skip(&a->attrs[ka]))
			ka++;
		if (kb == b->nattrs || ka == a->nattrs)
			return kb == b->nattrs && ka == a->nattrs;
		const hilo_attr *x = &b->attrs[kb++], *y = &a->attrs[ka++];
		if (strcmp(x->key, y->key) || x->kind != y->kind || x->n != y->n)
			return false;
		switch (x->kind) {
		case HILO_ATTR_RAW: case HILO_ATTR_STRING: case HILO_ATTR_ENUM:
			if ((x->v.text == NULL) != (y->v.text == NULL) ||
			    (x->v.text && strcmp(x->v.text, y->v.text)))
				return false;
			break;
		case HILO_ATTR_INT: case HILO_ATTR_BOOL:
			if (x->v.i != y->v.i)
				return false;
			break;
		case HILO_ATTR_INTS:
			if (x->n && memcmp(x->v.ints, y->v.ints, (size_t)x->n * sizeof *x->v.ints))
				return false;
			break;
		case HILO_ATTR_SLICE: case HILO_ATTR_PADDING:
			if (x->n && memcmp(x->v.ints, y->v.ints, 3 * (size_t)x->n * sizeof *x->v.ints))
				return false;
			break;
		case HILO_ATTR_COMP: case HILO_ATTR_COMPS: {
			int cnt = x->kind == HILO_ATTR_COMP ? 1 : x->n;
			for (int q = 0; q < cnt; q++) {
				int64_t ib = x->v.i + q, ia = y->v.i + q;
				if (ib < 0 || ia < 0 || ib >= (int64_t)hilo_instr_ncalled(b) || ia >= (int64_t)hilo_instr_ncalled(a) ||
				    !ceq(ud, hilo_instr_called(b)[ib], hilo_instr_called(a)[ia]))
					return false;
			}
			break;
		}
		default:
			break;
		}
	}
}

static bool lit_bytes_same(const hilo_literal *a, const hilo_literal *b)
{
	if (a == b)
		return true;
	if (!a || !b || a->elided != b->elided || a->nbytes != b->nbytes || a->ntuple != b->ntuple ||
	    a->splat != b->splat)
		return false;
	for (int k = 0; k < a->ntuple; k++)
		if (!lit_bytes_same(a->elems[k], b->elems[k]))
			return false;
	return !a->nbytes || !memcmp(a->data, b->data, a->nbytes);
}

/* Same definition apart from the operands. */
static bool same_local_by(comp_eq_fn ceq, const void *ud, const hilo_instr *b, const hilo_instr *a)
{
	if (b->op != a->op || b->async_op != a->async_op || b->noperands != a->noperands ||
	    hilo_instr_ncalled(b) != hilo_instr_ncalled(a) || !hilo_shape_compatible(b->shape, a->shape))
		return false;
	if (a->op == HILO_OP_PARAMETER && hilo_instr_param_no(a) != hilo_instr_param_no(b))
		return false;
	if (a->op == HILO_OP_BITCAST && (!hilo_shape_equal(b->shape, a->shape) ||
	                                 !bitcast_source_same(b, a)))
		return false;
	if (a->op == HILO_OP_CONSTANT && !lit_bytes_same(hilo_instr_literal(b), hilo_instr_literal(a)))
		return false;
	/* a called computation not referenced by an attribute still counts */
	for (uint32_t k = 0; k < hilo_instr_ncalled(a); k++)
		if (!ceq(ud, hilo_instr_called(b)[k], hilo_instr_called(a)[k]))
			return false;
	return attrs_same(ceq, ud, b, a);
}

bool chk_same_def(const hilo_instr *b, const hilo_instr *a)
{
	return same_local_by(same_name, NULL, b, a);
}

static bool same_local(pairctx *P, const hilo_instr *b, const hilo_instr *a)
{
	return same_local_by(comp_equiv, P, b, a);
}

/* Are the two modules the same instruction for instruction: the same
 * computations in the same order (name, entry flag, parameters, root), the
 * same instructions in the same order (id, definition as same_local
 * compares it with called computations by name, exact shapes, operands by
 * id)? Names are unique in a verified module, so a called computation of
 * the same name is the one compared at the same position. This implies
 * what the record walk calls unchanged (every instruction shared, the same
 * roots, no computation gone), without its tables: a pass that changed
 * nothing costs one walk of both modules. Any difference, a reordering
 * included, leaves the judgement to the walk. */
static bool lockstep_same(const hilo_module *b, const hilo_module *a)
{
	if (b->ncomps != a->ncomps || (b->entry == NULL) != (a->entry == NULL) ||
	    !alias_header_same(b, a))
		return false;
	for (uint32_t k = 0; k < a->ncomps; k++) {
		const hilo_comp *cb = b->comps[k], *ca = a->comps[k];
		if (strcmp(cb->name, ca->name) || cb->is_entry != ca->is_entry ||
		    (cb == b->entry) != (ca == a->entry) || cb->nparams != ca->nparams ||
		    cb->ninstrs != ca->ninstrs || !cb->root || !ca->root || cb->root->id != ca->root->id)
			return false;
		for (uint32_t q = 0; q < ca->nparams; q++)
			if (!cb->params[q] || !ca->params[q] || cb->params[q]->id != ca->params[q]->id)
				return false;
		const hilo_instr *x = cb->first, *y = ca->first;
		for (; x && y; x = x->next, y = y->next) {
			if (x->id != y->id || !hilo_shape_equal(x->shape, y->shape) ||
			    !same_local_by(same_name, NULL, x, y) ||
			    hilo_instr_nctrl_preds(x) != hilo_instr_nctrl_preds(y))
				return false;
			for (uint32_t q = 0; q < hilo_instr_nctrl_preds(y); q++)
				if (hilo_instr_ctrl_preds(x)[q]->id != hilo_instr_ctrl_preds(y)[q]->id)
					return false;
			for (uint32_t q = 0; q < y->noperands; q++)
				if (x->operands[q]->id != y->operands[q]->id ||
				    x->operands[q]->parent != cb || y->operands[q]->parent != ca)
					return false;
		}
		if (x || y)
			return false;
	}
	return true;
}

/* Instructions of c in an order where operands come first (malloc'd).
 * seen: a per-pair array by id holding the stamp of the last walk. */
static const hilo_instr **post_order(pairctx *P, const hilo_comp *c, uint32_t *n)
{
	size_t cap = (size_t)c->ninstrs + 1;
	const hilo_instr **out = malloc(cap * sizeof *out);
	typedef struct { const hilo_instr *i; uint32_t k; } frame;
	frame *st = malloc(cap * sizeof *st);
	uint32_t stamp = ++P->stamp;
	uint32_t *seen = P->seen;
	uint32_t no = 0;
	bool ok = out && st;
	for (const hilo_instr *r = c->first; r && ok; r = r->next) {
		if (r->id >= P->nshared || seen[r->id] == stamp)
			continue;
		uint32_t sp = 0;
		st[sp++] = (frame){r, 0};
		seen[r->id] = stamp;
		while (sp && ok) {
			frame *f = &st[sp - 1];
			if (f->k < f->i->noperands) {
				const hilo_instr *o = f->i->operands[f->k++];
				if (o->parent != c || o->id >= P->nshared || seen[o->id] == stamp)
					continue;
				if (sp >= cap) {
					ok = false;
					break;
				}
				st[sp++] = (frame){o, 0};
				seen[o->id] = stamp;
				continue;
			}
			if (no < cap)
				out[no++] = f->i;
			sp--;
		}
	}
	free(st);
	if (!ok) {
		free(out);
		return NULL;
	}
	*n = no;
	return out;
}

/* Before-side post-order positions of cb's instructions in their mark
 * fields (cone tests prune with them), computed once per computation and
 * only when a cone is tested. */
static void ensure_marks(pairctx *P, const hilo_comp *cb)
{
	if (!cb || P->marked == cb)
		return;
	uint32_t nb = 0;
	const hilo_instr **ordb = post_order(P, cb, &nb);
	if (!ordb) {
		/* no positions: every leaf looks earliest, which only widens the
		 * search (still exact) */
		for (hilo_instr *i = cb->first; i; i = i->next)
			i->mark = 0;
	} else {
		for (uint32_t k = 0; k < nb; k++)
			((hilo_instr *)ordb[k])->mark = k;
		free(ordb);
	}
	P->marked = cb;
}

/* ---- records --------------------------------------------------------------- */

enum { R_OPERAND, R_REDEF, R_ROOT, R_EFFECTS, R_ENTRY, R_DEAD, R_GONE, R_ALIASING };

typedef struct record {
	int kind;
	const hilo_instr *b, *a;     /* before value, after value (a NULL for R_DEAD, R_GONE) */
	const hilo_instr *user;      /* R_OPERAND: one after-instruction that uses a */
	uint32_t slot;
	uint32_t count;              /* identical records grouped */
} record;

typedef struct recset {
	record *v;
	size_t n, cap;
	hilo_ptrmap idx;             /* (b id, a id) key -> index + 1 */
} recset;

static bool rec_add(recset *R, int kind, const hilo_instr *b, const hilo_instr *a,
	const hilo_instr *user, uint32_t slot)
{
	uint64_t key = ((uint64_t)b->id << 32 | (a ? a->id : 0xffffffffu)) + 1;
	void *got = hilo_ptrmap_get(&R->idx, (void *)(uintptr_t)key);
	if (got) {
		R->v[(uintptr_t)got - 1].count++;
		return true;
	}
	if (R->n == R->cap) {
		size_t nc = R->cap ? R->cap * 2 : 16;
		record *nv = realloc(R->v, nc * sizeof *nv);
		if (!nv)
			return false;
		R->v = nv;
		R->cap = nc;
	}
	R->v[R->n] = (record){kind, b, a, user, slot, 1};
	R->n++;
	return hilo_ptrmap_put(&R->idx, (void *)(uintptr_t)key, (void *)(uintptr_t)R->n);
}

/* ---- verdicts -------------------------------------------------------------- */

enum { V_PROVED, V_TESTED, V_SKIPPED, V_FAILED, V_ASSUMED, V_DEFERRED };
static const char *const verdict_name[] = {"proved", "tested", "skipped", "failed", "assumed",
	"deferred"};

static void pos(char *buf, size_t cap, const hilo_instr *i)
{
	if (i && i->line)
		snprintf(buf, cap, " (%d:%d)", i->line, i->col);
	else
		buf[0] = 0;
}

static void describe(const record *r, char *buf, size_t cap)
{
	char pb[32], pa[32];
	pos(pb, sizeof pb, r->b);
	pos(pa, sizeof pa, r->a);
	const char *cn = r->b->parent ? r->b->parent->name : "?";
	switch (r->kind) {
	case R_OPERAND:
		snprintf(buf, cap, "in %s: operand %u of %s: %s%s replaced by %s%s", cn, r->slot,
			r->user ? r->user->name : "?", r->b->name, pb, r->a->name, pa);
		break;
	case R_REDEF:
		snprintf(buf, cap, "in %s: %s%s redefined", cn, r->b->name, pb);
		break;
	case R_ROOT:
		snprintf(buf, cap, "in %s: root %s%s replaced by %s%s", cn, r->b->name, pb,
			r->a->name, pa);
		break;
	case R_EFFECTS:
		snprintf(buf, cap, "the effects of entry %s", cn);
		break;
	case R_ALIASING:
		snprintf(buf, cap, "the buffer aliasing (in %s: %s%s)", cn, r->b->name, pb);
		break;
	case R_GONE:
		snprintf(buf, cap, "%u computation%s no longer in the module (%s, ...)", r->count,
			r->count == 1 ? "" : "s", cn);
		break;
	case R_DEAD:
		snprintf(buf, cap, "in %s: %u unused side-effect-free instruction%s removed (%s%s, ...)",
			cn, r->count, r->count == 1 ? "" : "s", r->b->name, pb);
		break;
	default:
		snprintf(buf, cap, "entry %s no longer corresponds: root %s%s vs %s%s", cn,
			r->b->name, pb, r->a->name, pa);
		break;
	}
}

static void remark(pairctx *P, const record *r, int verdict, const char *method, const char *why)
{
	FILE *f = P->v->o.remarks;
	if (!f && !P->v->o.on_record)
		return;
	char what[600];
	describe(r, what, sizeof what);
	char reason[1600];
	snprintf(reason, sizeof reason, "%s%s%s", what, why && *why ? ": " : "", why ? why : "");
	if (P->v->o.on_record) {
		hilo_check_record cr = {P->pass, r->b, r->a, verdict_name[verdict], method, reason,
			r->count};
		P->v->o.on_record(P->v->o.on_record_arg, &cr);
	}
	if (!f)
		return;
	fputs("{\"pass\":", f);
	hilo_json_str(f, P->pass);
	fputs(",\"computation\":", f);
	hilo_json_str(f, r->b->parent ? r->b->parent->name : "");
	fputs(",\"instruction\":", f);
	hilo_json_str(f, r->a ? r->a->name : r->b->name);
	fputs(",\"action\":", f);
	hilo_json_str(f, verdict_name[verdict]);
	fputs(",\"method\":", f);
	hilo_json_str(f, method);
	fprintf(f, ",\"count\":%u", r->count);
	fputs(",\"reason\":", f);
	hilo_json_str(f, reason);
	fputs("}\n", f);
}

static bool is_assumed(const hilo_run_state *run, const record *r)
{
	size_t n = 0;
	const hilo_assumed_eq *q = run ? hilo_run_assumed(run, &n) : NULL;
	for (size_t k = 0; k < n; k++)
		if (r->a && q[k].replaced_id == r->b->id && q[k].by_id == r->a->id)
			return true;
	return false;
}

/* The whole cone is over the testing budget: judge the terms where they
 * differ (cut.c). The deep terms first (their leaves are the computation's
 * parameters: free variables), then the shallow ones, whose leaves are
 * shared instructions that may be related (two of them may be equal, one
 * may repeat a value): there only a proof counts. Returns the verdict
 * (V_SKIPPED with both reasons when undecided). */
static int judge_cuts(pairctx *P, tid sb, tid sa, tid db, tid da, char *why, size_t cap,
	const char **method)
{
	cone_result c;
	c.status = 2;
	snprintf(c.msg, sizeof c.msg, "no terms");
	if (db != TID_NONE && da != TID_NONE && db != da)
		cut_judge(P, db, da, true, &c);
	if (c.status == 2 && sb != TID_NONE && sa != TID_NONE && sb != sa && (db != sb || da != sa)) {
		cone_result s;
		cut_judge(P, sb, sa, false, &s);
		if (s.status == 0)
			c = s;
	}
	if (c.status == 2) {
		size_t len = strlen(why);
		snprintf(why + len, cap - len, "; cuts: %s", c.msg);
		return V_SKIPPED;
	}
	*method = "cut";
	snprintf(why, cap, "%s", c.msg);
	return c.status == 0 ? V_PROVED : V_FAILED;
}

/* Judges one record; returns the verdict. may_defer: the record lives in a
 * called computation, so a counterexample found with free parameters may
 * be impossible in the calling contexts (a pass may specialise a body to
 * its only call site): the call sites are judged instead. */
/* Is every leaf of this shape a token? */
static bool tokens_only(const hilo_shape *s)
{
	if (s->type == HILO_T_TOKEN)
		return true;
	if (s->type != HILO_T_TUPLE || !s->ntuple)
		return false;
	for (int k = 0; k < s->ntuple; k++)
		if (!tokens_only(s->elems[k]))
			return false;
	return true;
}

/* The verdict of one record, before assumptions and deferral. */
static int judge_value(pairctx *P, const record *r, char *why, size_t whycap,
	const char **method_out)
{
	hilo_validator *v = P->v;
	const char *method = "term";
	int verdict;
	if (r->kind == R_DEAD) {
		/* nothing kept uses them (a use would be a changed operand, its
		 * own record) and they have no effect: the results cannot change */
		method = "dead";
		verdict = V_PROVED;
	} else if (!hilo_shape_compatible(r->b->shape, r->a->shape)) {
		method = "structure";
		verdict = V_FAILED;
		snprintf(why, whycap, "the value's shape changed");
	} else {
		tid sb = terms_of(P, 0, r->b, false);
		tid sa = sb != TID_NONE ? terms_of(P, 1, r->a, false) : TID_NONE;
		tid tb = sb, ta = sa;
		if (tb == TID_NONE || tb != ta) {
			/* the two sides may cut the frontier at different depths */
			tb = terms_of(P, 0, r->b, true);
			ta = tb != TID_NONE ? terms_of(P, 1, r->a, true) : TID_NONE;
		}
		tagged_result tr = {2, NULL, ""};
		if (tb != TID_NONE && tb == ta) {
			verdict = V_PROVED;
		} else if (tb != TID_NONE && ta != TID_NONE && tokens_only(r->b->shape)) {
			/* a token is the events it follows (events.c), never a value
			 * that compares equal to every other token */
			method = "effects";
			verdict = V_FAILED;
			snprintf(why, whycap, "the token follows other events after the pass (tokens are "
				"judged by the events they order)");
		} else if (tagged_judge(P, r->b, r->a, v->o.budget, &tr), tr.status != 2) {
			method = tr.method;
			snprintf(why, whycap, "%s", tr.msg);
			verdict = tr.status == 0 ? V_PROVED : V_FAILED;
		} else {
			method = "random";
			cone_result cr;
			ensure_marks(P, r->b->parent);
			cone_test(P, r->b, r->a, v->o.inputs, v->o.seed, v->o.budget, &cr);
			/* per-device values: every device of the grid (partition-id
			 * and replica-id are never one value) */
			uint32_t nd = P->npart * P->nrep;
			for (uint32_t dv = 1; cr.status == 0 && nd > 1 && dv < nd && dv < 16; dv++) {
				P->device = dv;
				cone_test(P, r->b, r->a, v->o.inputs, v->o.seed, v->o.budget, &cr);
				if (cr.status != 0) {
					size_t len = strlen(cr.msg);
					snprintf(cr.msg + len, sizeof cr.msg - len, " on partition %lld, replica %lld",
						(long long)(dv % P->npart), (long long)(dv / P->npart));
				}
			}
			P->device = 0;
			snprintf(why, whycap, "%s", cr.msg);
			verdict = cr.status == 0 ? V_TESTED : cr.status == 1 ? V_FAILED : V_SKIPPED;
			if (verdict == V_SKIPPED)
				verdict = judge_cuts(P, sb, sa, tb, ta, why, whycap, &method);
		}
	}
	*method_out = method;
	return verdict;
}

/* A verdict judged before it is reported. */
typedef struct held {
	int verdict;
	const char *method;
	char *why;
} held;

/* Applies assumptions and deferral to a verdict, emits the remark and the
 * failure diagnostic; returns the final verdict. */
static int judge_report(pairctx *P, const record *r, int verdict, const char *method, char *why,
	size_t whycap, const hilo_run_state *run, hilo_diags *d, bool may_defer)
{
	hilo_validator *v = P->v;
	if (verdict != V_PROVED && verdict != V_TESTED && is_assumed(run, r))
		verdict = V_ASSUMED;
	if ((verdict == V_FAILED || verdict == V_SKIPPED) && may_defer && strcmp(method, "structure")) {
		verdict = V_DEFERRED;
		P->deferred++;
		size_t len = strlen(why);
		snprintf(why + len, whycap - len, "; judged again at the call sites");
	}
	remark(P, r, verdict, method, why);
	if (verdict == V_FAILED) {
		char what[600], fr[400];
		describe(r, what, sizeof what);
		if (r->a && r->kind != R_EFFECTS && r->kind != R_ALIASING)
			cone_frontier(P, r->b, r->a, fr, sizeof fr);
		else
			snprintf(fr, sizeof fr, "-");
		const hilo_instr *at = r->b->line ? r->b : r->a;
		hilo_diag_add(d, HILO_SEV_ERROR, v->o.filename, at ? at->line : 0, at ? at->col : 0,
			NULL, 0, "equivalence check failed: pass '%s' changed the program's result: %s; "
			"frontier: %s; method %s: %s", P->pass, what, fr, method, why);
	}
	return verdict;
}

static int judge(pairctx *P, const record *r, const hilo_run_state *run, hilo_diags *d,
	bool may_defer, const char **method_out)
{
	char why[1000] = "";
	int verdict = judge_value(P, r, why, sizeof why, method_out);
	return judge_report(P, r, verdict, *method_out, why, sizeof why, run, d, may_defer);
}

static void count(hilo_validator *v, int verdict, const char *method)
{
	switch (verdict) {
	case V_PROVED:
		v->s.rewrites++;
		v->s.proved++;
		if (!strncmp(method, "tagged", 6))
			v->s.by_tagged++;
		else
			v->s.by_term++;
		break;
	case V_TESTED: v->s.rewrites++; v->s.tested++; break;
	case V_SKIPPED: v->s.rewrites++; v->s.skipped++; break;
	case V_FAILED: v->s.rewrites++; v->s.failed++; break;
	case V_ASSUMED: v->s.assumed++; break;
	default: break;
	}
}

/* ---- per computation -------------------------------------------------------- */

/* The same control predecessors (by id, each shared): an edge orders
 * effects, so an instruction whose edges changed is not the same event. */
static bool same_ctrl(pairctx *P, const hilo_instr *b, const hilo_instr *a)
{
	uint32_t n = hilo_instr_nctrl_preds(a);
	if (n != hilo_instr_nctrl_preds(b))
		return false;
	for (uint32_t k = 0; k < n; k++) {
		const hilo_instr *pa = hilo_instr_ctrl_preds(a)[k], *pb = hilo_instr_ctrl_preds(b)[k];
		if (pa->id != pb->id || (pa->parent == a->parent && !is_same(P, pa)))
			return false;
	}
	return true;
}

/* Judging instructions whole, before vs after, for the records whose
 * change may not reach what the computation returns. */
typedef struct whole_ctx {
	pairctx *P;
	const hilo_comp *ca, *cb;
	const hilo_run_state *run;
	hilo_diags *d;
	bool good;                   /* every whole record reported held */
	hilo_ptrmap memo;            /* after-instr -> 1 holds, 2 does not */
} whole_ctx;

static bool holds_whole(whole_ctx *W, const hilo_instr *b, const hilo_instr *a, int depth);

/* Is a's value (b before) seen only by users that hold whole, in both
 * modules: not a root, no control successors, no effect, and every user
 * of either side kept (same id) and holding whole? Then a change of a's
 * own value does not reach anything (integer (x + c1) + c2 regrouped in
 * place as x + (c1 + c2): a1 changes, a2 is the same sum). At most 4
 * levels of users. */
static bool users_hold(whole_ctx *W, const hilo_instr *b, const hilo_instr *a, int depth)
{
	pairctx *P = W->P;
	if (depth > 4 || a == W->ca->root || b == W->cb->root || !a->nusers || !b->nusers ||
	    hilo_instr_nctrl_succs(a) || hilo_instr_nctrl_succs(b) || events_deep(P, 1, a) ||
	    events_deep(P, 0, b))
		return false;
	for (uint32_t u = 0; u < a->nusers; u++) {
		const hilo_instr *ua = a->users[u].user;
		const hilo_instr *ub = ua->id < P->s[0].nid ? P->s[0].by_id[ua->id] : NULL;
		if (!ub || ub->parent != W->cb || !holds_whole(W, ub, ua, depth))
			return false;
	}
	for (uint32_t u = 0; u < b->nusers; u++) {
		const hilo_instr *ub = b->users[u].user;
		const hilo_instr *ua = ub->id < P->s[1].nid ? P->s[1].by_id[ub->id] : NULL;
		if (!ua || ua->parent != W->ca || !holds_whole(W, ub, ua, depth))
			return false;
	}
	return true;
}

/* Does after-instruction a (b before) hold whole: its value proved or
 * tested equal, or else seen only by users that hold (users_hold)? A
 * whole record that holds is reported and counted, once. */
static bool holds_whole(whole_ctx *W, const hilo_instr *b, const hilo_instr *a, int depth)
{
	void *got = hilo_ptrmap_get(&W->memo, a);
	if (got)
		return got == (void *)1;
	hilo_ptrmap_put(&W->memo, a, (void *)2); /* a cycle of users does not hold */
	record whole = {R_REDEF, b, a, NULL, 0, 1};
	const char *method = "";
	char why[1000] = "";
	int verdict = judge_value(W->P, &whole, why, sizeof why, &method);
	bool ok = verdict == V_PROVED || verdict == V_TESTED;
	if (ok) {
		verdict = judge_report(W->P, &whole, verdict, method, why, sizeof why, W->run, W->d,
			!W->ca->is_entry);
		count(W->P->v, verdict, method);
		if (verdict != V_PROVED && verdict != V_TESTED)
			W->good = false;
	} else {
		ok = users_hold(W, b, a, depth + 1);
	}
	hilo_ptrmap_put(&W->memo, a, (void *)(uintptr_t)(ok ? 1 : 2));
	return ok;
}

static bool process_comp(pairctx *P, hilo_comp *ca, const hilo_run_state *run, hilo_diags *d)
{
	hilo_comp *cb = hilo_ptrmap_get(&P->corr, ca);
	side *SB = &P->s[0];
	uint32_t n = 0;
	const hilo_instr **ord = post_order(P, ca, &n);
	if (!ord)
		return false;
	recset R = {0};
	hilo_ptrmap_init_in(&R.idx, P->scratch->arena);
	bool ok = true;
	/* shared flags (operands first) */
	uint32_t nsh = 0;
	for (uint32_t k = 0; k < n; k++) {
		const hilo_instr *a = ord[k];
		const hilo_instr *b = cb && a->id < SB->nid ? SB->by_id[a->id] : NULL;
		bool sh = b && b->parent == cb && same_local(P, b, a) && same_ctrl(P, b, a) &&
			call_layouts_same(b, a);
		for (uint32_t q = 0; sh && q < a->noperands; q++)
			sh = a->operands[q]->id == b->operands[q]->id && is_same(P, a->operands[q]);
		if (a->id < P->nshared)
			P->shared[a->id] = sh;
		nsh += sh;
	}
	if (!cb) {
		free(ord);
		hilo_ptrmap_free(&R.idx);
		return true;
	}
	/* unchanged: every instruction shared (distinct ids, so a bijection
	 * when the counts agree), the same root: no records */
	if (nsh == n && n == ca->ninstrs && cb->ninstrs == ca->ninstrs && ca->root && cb->root &&
	    ca->root->id == cb->root->id) {
		free(ord);
		hilo_ptrmap_free(&R.idx);
		return hilo_ptrmap_put(&P->equiv, ca, (void *)2);
	}
	/* an instruction redefined with another shape cannot be compared with
	 * its old self: its users are compared instead (reshaped[id] = 1) */
	uint8_t *reshaped = P->reshaped;
	for (uint32_t k = 0; k < n && ok; k++) {
		const hilo_instr *a = ord[k];
		const hilo_instr *b = a->id < SB->nid ? SB->by_id[a->id] : NULL;
		if (!b || b->parent != cb || is_same(P, a))
			continue;
		bool via_reshaped = false;
		for (uint32_t q = 0; q < a->noperands; q++)
			if (a->operands[q]->id < P->nshared && reshaped[a->operands[q]->id])
				via_reshaped = true;
		if (!same_local(P, b, a) || !same_ctrl(P, b, a) || !call_layouts_same(b, a) ||
		    via_reshaped) {
			if (!hilo_shape_compatible(b->shape, a->shape)) {
				if (a->id < P->nshared)
					reshaped[a->id] = 1; /* ids are unique: no reset needed */
				continue;
			}
			ok = rec_add(&R, R_REDEF, b, a, NULL, 0);
			continue;
		}
		for (uint32_t q = 0; q < a->noperands && ok; q++)
			if (a->operands[q]->id != b->operands[q]->id)
				ok = rec_add(&R, R_OPERAND, b->operands[q], a->operands[q], a, q);
	}
	if (ok && ca->root && cb->root && ca->root->id != cb->root->id)
		ok = rec_add(&R, R_ROOT, cb->root, ca->root, NULL, 0);
	/* removed instructions: one record (effects are judged as events) */
	const hilo_instr *dead = NULL;
	uint32_t ndead = 0;
	for (const hilo_instr *b = cb->first; b && ok; b = b->next) {
		const hilo_instr *a = b->id < P->s[1].nid ? P->s[1].by_id[b->id] : NULL;
		if (a && a->parent == ca)
			continue;
		/* a removed effect is the effects record's (events.c) */
		if (events_deep(P, 0, b))
			continue;
		if (!dead) {
			dead = b;
		} else {
			ndead++;
		}
	}
	if (ok && dead) {
		ok = rec_add(&R, R_DEAD, dead, NULL, NULL, 0);
		R.v[R.n - 1].count += ndead;
	}
	bool all_good = ok;
	/* operand records that neither prove nor pass a test (bad[k] = 1) wait:
	 * the instructions using them are judged whole first (below) */
	uint8_t *bad = ok ? calloc(R.n + 1, 1) : NULL;
	uint32_t *left = ok ? calloc(R.n + 1, sizeof *left) : NULL;
	/* a bad slot record's own verdict, kept for when it is reported */
	held *kept = ok ? calloc(R.n + 1, sizeof *kept) : NULL;
	ok = ok && bad && left && kept;
	size_t nbad = 0;
	whole_ctx W = {P, ca, cb, run, d, true, {0}};
	hilo_ptrmap_init_in(&W.memo, P->scratch->arena);
	for (size_t k = 0; k < R.n && ok; k++) {
		const char *method = "";
		char why[1000] = "";
		int verdict = judge_value(P, &R.v[k], why, sizeof why, &method);
		if (R.v[k].kind == R_OPERAND && verdict != V_PROVED && verdict != V_TESTED &&
		    !is_assumed(run, &R.v[k])) {
			bad[k] = 1;
			left[k] = R.v[k].count; /* uses not judged whole yet */
			nbad++;
			kept[k].verdict = verdict;
			kept[k].method = method;
			ok = (kept[k].why = strdup(why)) != NULL;
			continue;
		}
		/* a redefined instruction whose value only its users see, each of
		 * which holds whole: the change does not reach them */
		if (R.v[k].kind == R_REDEF && verdict != V_PROVED && verdict != V_TESTED &&
		    !is_assumed(run, &R.v[k]) && users_hold(&W, R.v[k].b, R.v[k].a, 1))
			continue;
		verdict = judge_report(P, &R.v[k], verdict, method, why, sizeof why, run, d,
			!ca->is_entry);
		count(P->v, verdict, method);
		if (verdict == V_SKIPPED || verdict == V_FAILED || verdict == V_DEFERRED)
			all_good = false;
	}
	/* an instruction with the same id and definition whose operand slots
	 * changed, one of them badly (e.g. its operands swapped in place: add(a,b)
	 * -> add(b,a)): its own value is judged, before vs after, as a redefined
	 * instruction. A slot record all of whose uses are in instructions that
	 * hold whole is not reported; any other is (the more precise message). */
	for (uint32_t k = 0; k < n && ok && nbad; k++) {
		const hilo_instr *a = ord[k];
		const hilo_instr *b = a->id < SB->nid ? SB->by_id[a->id] : NULL;
		if (!b || b->parent != cb || is_same(P, a) || !same_local(P, b, a))
			continue;
		bool any = false, via_reshaped = false;
		for (uint32_t q = 0; q < a->noperands; q++) {
			if (a->operands[q]->id < P->nshared && reshaped[a->operands[q]->id])
				via_reshaped = true;
			if (a->operands[q]->id == b->operands[q]->id)
				continue;
			uint64_t key = ((uint64_t)b->operands[q]->id << 32 | a->operands[q]->id) + 1;
			uintptr_t at = (uintptr_t)hilo_ptrmap_get(&R.idx, (void *)(uintptr_t)key);
			any = any || (at && bad[at - 1]);
		}
		if (!any || via_reshaped)
			continue;
		if (!holds_whole(&W, b, a, 0))
			continue;
		for (uint32_t q = 0; q < a->noperands; q++) {
			uint64_t key = ((uint64_t)b->operands[q]->id << 32 | a->operands[q]->id) + 1;
			uintptr_t at = (uintptr_t)hilo_ptrmap_get(&R.idx, (void *)(uintptr_t)key);
			if (a->operands[q]->id != b->operands[q]->id && at && bad[at - 1] && left[at - 1])
				left[at - 1]--;
		}
	}
	for (size_t k = 0; k < R.n && ok; k++) {
		if (!bad[k] || !left[k])
			continue;
		/* its verdict from the first loop (judging is deterministic) */
		char why[1000];
		snprintf(why, sizeof why, "%s", kept[k].why);
		int verdict = judge_report(P, &R.v[k], kept[k].verdict, kept[k].method, why,
			sizeof why, run, d, !ca->is_entry);
		count(P->v, verdict, kept[k].method);
		if (verdict == V_SKIPPED || verdict == V_FAILED || verdict == V_DEFERRED)
			all_good = false;
	}
	if (!W.good)
		all_good = false;
	hilo_ptrmap_free(&W.memo);
	for (size_t k = 0; kept && k < R.n; k++)
		free(kept[k].why);
	free(kept);
	free(bad);
	free(left);
	free(ord);
	if (ok && all_good)
		ok = hilo_ptrmap_put(&P->equiv, ca, (void *)1);
	free(R.v);
	hilo_ptrmap_free(&R.idx);
	return ok;
}

/* The device grid the modules run on when either reads partition-id or
 * replica-id (num_partitions x replica_count, at least 1 x 1); 1 x 1
 * otherwise (nothing differs between devices). */
static void device_grid(const hilo_module *b, const hilo_module *a, uint32_t *np, uint32_t *nr)
{
	*np = *nr = 1;
	bool reads = false;
	for (int s = 0; s < 2 && !reads; s++) {
		const hilo_module *m = s ? a : b;
		for (uint32_t c = 0; c < m->ncomps && !reads; c++)
			for (const hilo_instr *i = m->comps[c]->first; i && !reads; i = i->next)
				reads = i->op == HILO_OP_PARTITION_ID || i->op == HILO_OP_REPLICA_ID;
	}
	if (!reads)
		return;
	for (uint32_t k = 0; k < b->nattrs; k++) {
		long v = strtol(b->attrs[k].value, NULL, 10);
		if (v < 1 || v > 1 << 20)
			continue;
		if (!strcmp(b->attrs[k].key, "num_partitions"))
			*np = (uint32_t)v;
		else if (!strcmp(b->attrs[k].key, "replica_count"))
			*nr = (uint32_t)v;
	}
}

/* Does module m perform any event (events.c)? */
static bool module_has_events(const hilo_module *m)
{
	for (uint32_t c = 0; c < m->ncomps; c++)
		for (const hilo_instr *i = m->comps[c]->first; i; i = i->next)
			if (events_is_event(m, i))
				return true;
	return false;
}

/* The effects record: the events of the two entries, as multisets of
 * event terms (each with its kind, attributes, operand values and past).
 * Equal: proved; different: failed, naming an event one side performs and
 * the other does not; not built (over the budget, two events that nothing
 * tells apart): skipped. Effects are never judged per instruction: a
 * removed, added, duplicated, moved or rewired effect shows here, where
 * source positions and names play no part. */
static void judge_effects(pairctx *P, hilo_diags *d)
{
	hilo_module *B = P->s[0].m, *A = P->s[1].m;
	if (!B->entry || !A->entry || !B->entry->root || !A->entry->root ||
	    (!module_has_events(B) && !module_has_events(A)))
		return;
	tid tb = events_module(P, 0);
	tid ta = tb != TID_NONE ? events_module(P, 1) : TID_NONE;
	record r = {R_EFFECTS, B->entry->root, A->entry->root, NULL, 0, 1};
	char why[1000] = "";
	int verdict;
	if (tb == TID_NONE || ta == TID_NONE) {
		verdict = V_SKIPPED;
		snprintf(why, sizeof why, "the events could not be built (too large, or two events "
			"returning data that nothing tells apart: the same kind, operands and past)");
	} else if (tb == ta) {
		verdict = V_PROVED;
	} else {
		verdict = V_FAILED;
		events_describe_diff(P, tb, ta, why, sizeof why);
	}
	verdict = judge_report(P, &r, verdict, "effects", why, sizeof why, NULL, d, false);
	/* counted when it is not proved: equal events are no rewrite of their
	 * own (the records of the instructions that moved them are counted) */
	if (verdict != V_PROVED)
		count(P->v, verdict, "effects");
}

/* The aliasing record (alias.c): operand aliasing resolved to the operands
 * it names, and the module's input_output_alias and buffer_donor, the same
 * on both sides or failed; an instruction it cannot judge: skipped.
 * Counted when it is not proved, as the effects record. */
static void judge_aliasing(pairctx *P, hilo_diags *d)
{
	const hilo_instr *b = NULL, *a = NULL;
	char why[1000] = "";
	int diff = alias_diff(P, &b, &a, why, sizeof why);
	if (diff == 0 || !b)
		return;
	record r = {R_ALIASING, b, a, NULL, 0, 1};
	int verdict = judge_report(P, &r, diff == 1 ? V_FAILED : V_SKIPPED, "aliasing", why,
		sizeof why, NULL, d, false);
	count(P->v, verdict, "aliasing");
}

bool hilo_validate_pass(hilo_validator *v, hilo_module *before, hilo_module *after,
	const char *pass, const hilo_run_state *run, hilo_diags *d, bool *identical)
{
	if (identical)
		*identical = false;
	double t0 = now_seconds();
	if (lockstep_same(before, after)) {
		if (identical)
			*identical = true;
		v->s.seconds += now_seconds() - t0;
		return true;
	}
	pairctx P;
	memset(&P, 0, sizeof P);
	P.v = v;
	P.tags = &v->tags;
	P.zero_sign_insensitive = v->o.zero_sign_insensitive;
	device_grid(before, after, &P.npart, &P.nrep);
	P.pass = pass;
	P.work_limit = 50000000;
	uint32_t nid = before->next_id > after->next_id ? before->next_id : after->next_id;
	hilo_ptrmap_init_in(&P.corr, after->arena);
	hilo_ptrmap_init_in(&P.equiv, after->arena);
	hilo_ptrmap_init_in(&P.effmemo, after->arena);
	hilo_ptrmap_init_in(&P.ordmemo, after->arena);
	for (int k = 0; k < 4; k++)
		hilo_ptrmap_init_in(&P.top[k], after->arena);
	for (int k = 0; k < 2; k++) {
		hilo_ptrmap_init_in(&P.canon[k], after->arena);
		hilo_ptrmap_init_in(&P.inl[k], after->arena);
	}
	bool ok = side_init(&P.s[0], before, 0, nid) && side_init(&P.s[1], after, 1, nid);
	P.nshared = nid;
	ok = ok && (P.shared = calloc((size_t)nid + 1, 1)) != NULL;
	ok = ok && (P.reshaped = calloc((size_t)nid + 1, 1)) != NULL;
	ok = ok && (P.seen = calloc((size_t)nid + 1, sizeof *P.seen)) != NULL;
	/* children of the after module's arena (out-of-memory bookkeeping) */
	ok = ok && (P.T = terms_create(after->arena)) != NULL;
	ok = ok && (P.scratch = hilo_module_create_in("validator-scratch", after->arena)) != NULL;
	ok = ok && correspond(&P);
	uint32_t nc = 0;
	hilo_comp **order = ok ? hilo_module_comp_post_order(after, &nc) : NULL;
	ok = ok && order;
	uint64_t recs0 = v->s.rewrites + v->s.assumed;
	for (uint32_t k = 0; k < nc && ok; k++)
		ok = process_comp(&P, order[k], run, d);
	bool same = ok && before->ncomps == after->ncomps && v->s.rewrites + v->s.assumed == recs0 &&
		P.deferred == 0 && hilo_module_instr_count(before) == hilo_module_instr_count(after) &&
		alias_header_same(before, after);
	for (uint32_t k = 0; same && k < after->ncomps; k++) {
		const hilo_comp *ca = after->comps[k];
		/* every instruction shared (process_comp's fast path) */
		same = hilo_ptrmap_get(&P.corr, ca) != NULL && hilo_ptrmap_get(&P.equiv, ca) == (void *)2;
	}
	if (identical)
		*identical = same;
	/* computations that disappeared (by name): nothing can call them any
	 * more (a call would be a changed instruction, judged above); one
	 * record for all of them */
	if (ok) {
		const hilo_comp *gone = NULL;
		uint32_t ngone = 0;
		for (uint32_t k = 0; k < before->ncomps; k++) {
			hilo_comp *cb = before->comps[k];
			if (hilo_ptrmap_get(&P.corr, cb) || !cb->root || hilo_module_find_named(&P, cb->name))
				continue;
			if (!gone)
				gone = cb;
			ngone++;
		}
		if (gone) {
			record r = {R_GONE, gone->root, NULL, NULL, 0, ngone};
			remark(&P, &r, V_PROVED, "dead", "");
			count(v, V_PROVED, "dead");
		}
	}
	/* an entry computation the diff cannot pair: its roots as one record */
	if (ok && before->entry && after->entry && !hilo_ptrmap_get(&P.corr, after->entry)) {
		record r = {R_ENTRY, before->entry->root, after->entry->root, NULL, 0, 1};
		if (r.b && r.a) {
			int verdict;
			const char *method = "structure";
			if (!same_signature(before->entry, after->entry)) {
				char what[600];
				describe(&r, what, sizeof what);
				hilo_diag_add(d, HILO_SEV_ERROR, v->o.filename, 0, 0, NULL, 0,
					"equivalence check failed: pass '%s' changed the entry computation's "
					"signature: %s; method structure", pass, what);
				remark(&P, &r, V_FAILED, "structure", "entry signature changed");
				verdict = V_FAILED;
			} else {
				verdict = judge(&P, &r, run, d, false, &method);
			}
			count(v, verdict, method);
		}
	}
	if (ok) {
		judge_effects(&P, d);
		judge_aliasing(&P, d);
	}
	terms_pair_fini(&P);
	terms_destroy(P.T);
	if (P.scratch)
		hilo_module_destroy(P.scratch);
	free(P.shared);
	free(P.reshaped);
	free(P.after_sorted);
	free(P.seen);
	free(P.s[0].by_id);
	free(P.s[1].by_id);
	hilo_ptrmap_free(&P.corr);
	hilo_ptrmap_free(&P.effmemo);
	hilo_ptrmap_free(&P.ordmemo);
	hilo_ptrmap_free(&P.equiv);
	v->s.seconds += now_seconds() - t0;
	return ok;
}
