/* cone_test.c - the validator's testing fallback: a record's two cones are
 * evaluated with the reference evaluator (the one semantics) on N seeded
 * random values of their frontier (shared instructions and parameters of
 * the record's computation, with their real shapes), bit for bit with
 * NaN = NaN (-0 and +0 differ). Both sides see the same value for a leaf:
 * it is keyed by the leaf's id (parameters by number) and the seed. Input
 * set `seed` draws ordinary values, special values (NaN, infinities,
 * signed zeros, extremes, subnormals; integer extremes) at random
 * elements, or whole leaves of one special value, by seed mod 3
 * (ev_fill_drawn, docs/proof.md "Special values"); a set with special
 * values that cannot be evaluated within 8 times the element-ops of the
 * costliest completed set is not counted. The budget (element-ops)
 * covers one input set of both cones, frontier values included. A
 * difference is a counterexample: the seed and the first differing element
 * with both values are reported. Related leaves (one an ancestor of
 * another, or a common ancestor) cannot take independent values: the cones
 * are evaluated from the computation's parameters instead (common ancestors
 * are looked for only once independent values differ).
 */
#include "check_internal.h"
#include "eval/eval_internal.h"
#include "ir/literal.h"

#include <stdlib.h>

typedef struct cone_eval {
	pairctx *P;
	const hilo_comp *cb;      /* the record's before-computation */
	bool params_only;         /* the frontier is not independent: from parameters */
	bool wide;                /* parameters take index-aware and boundary values */
	hilo_ptrmap *ranges;      /* before-parameter -> its ev_ranges (wide) */
	int sweep;                /* input sets that sweep those values (wide) */
	bool special;             /* a parameter took such values (wide) */
	bool derived;             /* a shared non-parameter leaf took a value */
	bool drawn;               /* leaves take the seed's draws, special values
	                           * included (ev_fill_drawn); else plain values */
	hilo_module *sm;          /* arena of this input set's values */
	uint64_t seed;
	uint64_t used, budget;
	hilo_ptrmap leaves;       /* key -> literal */
	hilo_diags d;
} cone_eval;

/* Pushes x on a growing instruction stack (a first capacity of 64);
 * false when out of memory (the stack is kept for the caller to free). */
static bool push(const hilo_instr ***st, uint32_t *sp, uint32_t *cap, const hilo_instr *x)
{
	if (*sp == *cap) {
		uint32_t nc = *cap ? *cap * 2 : 64;
		const hilo_instr **ns = realloc(*st, nc * sizeof *ns);
		if (!ns)
			return false;
		*st = ns;
		*cap = nc;
	}
	(*st)[(*sp)++] = x;
	return true;
}

static bool is_frontier(const pairctx *P, const hilo_instr *i)
{
	return i->op == HILO_OP_PARAMETER || is_shared(P, i);
}

/* The before-module instruction standing for frontier leaf i. */
static const hilo_instr *leaf_in_before(pairctx *P, const hilo_instr *i, const hilo_comp *cb)
{
	if (i->op == HILO_OP_PARAMETER)
		return hilo_instr_param_no(i) >= 0 && (uint64_t)hilo_instr_param_no(i) < cb->nparams ? cb->params[hilo_instr_param_no(i)] : NULL;
	return i->id < P->s[0].nid ? P->s[0].by_id[i->id] : NULL;
}

/* Collects the frontier leaves of root's cone (as before-instructions). */
static bool collect_leaves(pairctx *P, const hilo_instr *root, const hilo_comp *cb,
	hilo_ptrmap *seen, hilo_ptrmap *leaves, int64_t *minpos)
{
	const hilo_comp *c = root->parent;
	uint32_t cap = 64, sp = 0;
	const hilo_instr **st = malloc(cap * sizeof *st);
	if (!st)
		return false;
	st[sp++] = root;
	bool ok = true;
	while (sp && ok) {
		const hilo_instr *i = st[--sp];
		if (hilo_ptrmap_get(seen, i))
			continue;
		ok = hilo_ptrmap_put(seen, i, (void *)1);
		if (is_frontier(P, i)) {
			const hilo_instr *l = leaf_in_before(P, i, cb);
			if (!l)
				ok = false;
			else if (!hilo_ptrmap_get(leaves, l)) {
				ok = hilo_ptrmap_put(leaves, l, (void *)1);
				if (l->mark < *minpos)
					*minpos = l->mark;
			}
			continue;
		}
		for (uint32_t k = 0; k < i->noperands && ok; k++) {
			if (i->operands[k]->parent != c)
				continue;
			if (!push(&st, &sp, &cap, i->operands[k])) {
				ok = false;
				break;
			}
		}
	}
	free(st);
	return ok;
}

/* Are the frontier leaves independent (none an operand ancestor of another)?
 * Only then may they take independent random values. Before-instructions'
 * mark holds their post-order position (operands first), which prunes the
 * search to positions at or after the earliest leaf. */
static bool frontier_independent(pairctx *P, const hilo_instr *b, const hilo_instr *a)
{
	const hilo_comp *cb = b->parent;
	hilo_ptrmap seen, leaves;
	hilo_ptrmap_init_in(&seen, P->scratch->arena);
	hilo_ptrmap_init_in(&leaves, P->scratch->arena);
	int64_t minpos = INT64_MAX;
	bool ok = collect_leaves(P, b, cb, &seen, &leaves, &minpos);
	hilo_ptrmap_clear(&seen);
	ok = ok && collect_leaves(P, a, cb, &seen, &leaves, &minpos);
	uint64_t steps = 0;
	const hilo_instr **st = NULL;
	uint32_t cap = 0;
	for (size_t k = 0; ok && k < leaves.cap; k++) {
		const hilo_instr *l = leaves.keys ? leaves.keys[k] : NULL;
		if (!l || l->op == HILO_OP_PARAMETER)
			continue;
		hilo_ptrmap_clear(&seen);
		uint32_t sp = 0;
		for (uint32_t q = 0; q < l->noperands && ok; q++) {
			if (!push(&st, &sp, &cap, l->operands[q])) {
				ok = false;
				break;
			}
		}
		while (sp && ok) {
			const hilo_instr *i = st[--sp];
			if (i->parent != cb || i->mark < minpos || hilo_ptrmap_get(&seen, i))
				continue;
			if (hilo_ptrmap_get(&leaves, i) || ++steps > 2000000) {
				ok = false;
				break;
			}
			if (!hilo_ptrmap_put(&seen, i, (void *)1)) {
				ok = false;
				break;
			}
			for (uint32_t q = 0; q < i->noperands; q++) {
				if (!push(&st, &sp, &cap, i->operands[q])) {
					ok = false;
					break;
				}
			}
		}
	}
	free(st);
	hilo_ptrmap_free(&seen);
	hilo_ptrmap_free(&leaves);
	return ok;
}

/* Elements of a shape, tuples summed; -1 on overflow. */
static int64_t total_elements(const hilo_shape *s)
{
	if (s->type != HILO_T_TUPLE)
		return hilo_shape_elements(s);
	int64_t n = 0;
	for (int k = 0; k < s->ntuple; k++) {
		int64_t e = total_elements(s->elems[k]);
		if (e < 0 || n > INT64_MAX / 2 - e)
			return -1;
		n += e;
	}
	return n;
}

static bool ranges_of(hilo_arena *a, const hilo_instr *p, ev_ranges *r)
{
	HILO_OOM_CATCH(g, a)
		return false;
	ev_param_ranges(a, p, true, r);
	hilo_oom_end(&g);
	return true;
}

/* The index-aware and boundary values of parameter i (analysed on the
 * before-module's parameter of that number, so both sides draw the same
 * values), memoised across input sets. NULL when out of memory. */
static const ev_ranges *param_ranges(cone_eval *E, const hilo_instr *i)
{
	const hilo_instr *p = leaf_in_before(E->P, i, E->cb);
	if (!p)
		p = i;
	ev_ranges *r = hilo_ptrmap_get(E->ranges, p);
	if (!r) {
		hilo_arena *a = E->P->scratch->arena;
		if (!(r = hilo_arena_alloc(a, sizeof *r)) || !ranges_of(a, p, r) ||
		    !hilo_ptrmap_put(E->ranges, p, r))
			goto oom;
	}
	int s = ev_ranges_sweep(r);
	if (s > E->sweep)
		E->sweep = s;
	E->special |= r->n || r->nf;
	return r;
oom:
	hilo_diag_add(&E->d, HILO_SEV_ERROR, NULL, 0, 0, NULL, 0, "out of memory");
	return NULL;
}

enum { GTE_PATH_MAX = 16 };

/* Is shared leaf i's value one the world chooses (an infeed's or recv's
 * data, what a side-effecting custom-call returns), so that any value of
 * it is realisable, independently of every other leaf? Two such
 * instructions with the same operands are two events with two values (the
 * evaluator would hash them alike). rng draws are excluded: their values
 * lie in the distribution's range, which a random literal ignores. */
static bool world_value(const pairctx *P, const hilo_instr *i)
{
	switch (i->op) {
	case HILO_OP_RNG: case HILO_OP_RNG_BIT_GENERATOR: case HILO_OP_RNG_GET_AND_UPDATE_STATE:
		return false;
	default:
		return !hilo_instr_is_boundary_marker(i) &&
		       hilo_instr_has_side_effect(P->s[0].m, i) &&
		       !(hilo_opcode_flags(i->op) & HILO_OPF_COLL);
	}
}

static hilo_literal *leaf_value(cone_eval *E, const hilo_instr *i)
{
	uint64_t stream = i->op == HILO_OP_PARAMETER ? (uint64_t)hilo_instr_param_no(i) : 0x1000000ull + i->id;
	void *key = (void *)(uintptr_t)(stream + 1);
	hilo_literal *l = hilo_ptrmap_get(&E->leaves, key);
	if (l)
		return l;
	int64_t ne = total_elements(i->shape);
	if (ne < 0 || (uint64_t)ne > E->budget - E->used) {
		hilo_diag_add(&E->d, HILO_SEV_ERROR, NULL, 0, 0, NULL, 0,
			"the frontier value %s (%lld elements) is over the budget of %llu element-ops",
			i->name, (long long)ne, (unsigned long long)E->budget);
		return NULL;
	}
	E->used += (uint64_t)ne;
	l = hilo_literal_create(E->sm, i->shape);
	if (!l) {
		hilo_diag_add(&E->d, HILO_SEV_ERROR, NULL, 0, 0, NULL, 0,
			"the frontier value %s is too large to create", i->name);
		return NULL;
	}
	int64_t path[GTE_PATH_MAX];
	int np = 0;
	const hilo_instr *p = i->op == HILO_OP_PARAMETER ? NULL
		: chk_param_element(i, path, GTE_PATH_MAX, &np);
	const ev_ranges *r = i->op == HILO_OP_PARAMETER && E->wide ? param_ranges(E, i) : NULL;
	if (i->op == HILO_OP_PARAMETER && E->wide && !r)
		return NULL;
	if (p) {
		/* an element of a parameter: the value that element takes
		 * when the whole parameter is drawn (realisable, consistent with
		 * the parameter and its other elements) */
		if (E->drawn)
			ev_fill_drawn(l, E->seed, (uint64_t)hilo_instr_param_no(p), path, np);
		else
			ev_fill_random_at(l, E->seed, (uint64_t)hilo_instr_param_no(p), path, np);
	} else if (r && (r->n || r->nf)) {
		ev_fill_ranges(l, r, E->seed, stream);
	} else {
		if (i->op != HILO_OP_PARAMETER && !world_value(E->P, i))
			E->derived = true;
		if (E->drawn)
			ev_fill_drawn(l, E->seed, stream, NULL, 0);
		else
			hilo_literal_fill_random(l, E->seed, stream);
	}
	return hilo_ptrmap_put(&E->leaves, key, l) ? l : NULL;
}

/* Value of instruction root (in the record's computation) on this input. */
static hilo_literal *eval_cone(cone_eval *E, const hilo_instr *root)
{
	hilo_ptrmap memo;
	hilo_ptrmap_init_in(&memo, E->P->scratch->arena);
	typedef struct { const hilo_instr *i; uint32_t k; } frame;
	uint32_t cap = 64, sp = 0;
	frame *st = malloc(cap * sizeof *st);
	hilo_literal **ops = NULL;
	uint32_t opcap = 0;
	hilo_literal *res = NULL;
	const hilo_comp *c = root->parent;
	if (!st)
		goto out;
	st[sp++] = (frame){root, 0};
	while (sp) {
		frame *f = &st[sp - 1];
		const hilo_instr *i = f->i;
		if (f->k == 0 && (E->params_only ? i->op == HILO_OP_PARAMETER : is_frontier(E->P, i))) {
			hilo_literal *l = leaf_value(E, i);
			if (!l || !hilo_ptrmap_put(&memo, i, l))
				goto out;
			sp--;
			continue;
		}
		if (f->k < i->noperands) {
			const hilo_instr *o = i->operands[f->k++];
			if (hilo_ptrmap_get(&memo, o))
				continue;
			if (o->parent != c || sp > c->ninstrs + 1)
				goto out;
			if (sp == cap) {
				cap *= 2;
				frame *ns = realloc(st, cap * sizeof *ns);
				if (!ns)
					goto out;
				st = ns;
			}
			st[sp++] = (frame){o, 0};
			continue;
		}
		if (i->noperands > opcap) {
			free(ops);
			opcap = i->noperands * 2;
			if (!(ops = malloc(opcap * sizeof *ops)))
				goto out;
		}
		for (uint32_t k = 0; k < i->noperands; k++)
			ops[k] = hilo_ptrmap_get(&memo, i->operands[k]);
		if (i->parent == c && (i->op == HILO_OP_PARTITION_ID || i->op == HILO_OP_REPLICA_ID) &&
		    i->shape->type != HILO_T_TUPLE && i->shape->rank == 0) {
			/* this device's id, not the evaluator's 0 */
			hilo_literal *l = hilo_literal_create(E->sm, i->shape);
			if (!l)
				goto out;
			uint32_t np = E->P->npart ? E->P->npart : 1;
			hilo_elem_set_i64(i->shape->type, l->data, 0, i->op == HILO_OP_PARTITION_ID
				? E->P->device % np : E->P->device / np);
			if (!hilo_ptrmap_put(&memo, i, l))
				goto out;
			sp--;
			continue;
		}
		if (i->parent == c && chk_layout_unknown(i->id < E->P->s[0].nid && E->P->s[0].by_id[i->id] == i
			? E->P->s[0].m : E->P->s[1].m, i)) {
			hilo_diag_add(&E->d, HILO_SEV_ERROR, NULL, 0, 0, NULL, 0, "%s is a bitcast of a "
				"parameter's layout, which the call sites decide (judged there)", i->name);
			goto out;
		}
		hilo_eval_opts eo = {E->budget};
		hilo_literal *r = ev_instr_in_elided(E->sm, i, ops, &eo, &E->used, true, E->seed, &E->d);
		if (r && world_value(E->P, i)) {
			/* what the world returns to an event depends on the event (its
			 * kind, operands and past: its term, events.c), not on the
			 * operand bytes alone, which two reads of one token share */
			int sk = i->id < E->P->s[0].nid && E->P->s[0].by_id[i->id] == i ? 0 : 1;
			tid t = terms_of(E->P, sk, i, false);
			if (t == TID_NONE)
				goto out;
			hilo_literal_fill_random(r, E->seed, 0x2000000000ull + t);
		}
		if (!r || !hilo_ptrmap_put(&memo, i, r))
			goto out;
		sp--;
	}
	res = hilo_ptrmap_get(&memo, root);
out:
	free(st);
	free(ops);
	hilo_ptrmap_free(&memo);
	return res;
}

static void first_error(const hilo_diags *d, char *out, size_t cap)
{
	for (size_t k = 0; k < d->n; k++)
		if (d->items[k].sev == HILO_SEV_ERROR) {
			snprintf(out, cap, "%s", d->items[k].msg);
			return;
		}
	snprintf(out, cap, "out of memory");
}

/* How the input sets of run_sets are drawn and what they met. */
typedef struct set_mode {
	bool params_only;         /* from the computation's parameters */
	bool wide;                /* index-aware and boundary parameter values */
	hilo_ptrmap *ranges;      /* (wide) memo of the parameters' ranges */
	bool same_as_plain;       /* (wide) stop after one set if no parameter has
	                           * such values: the sets would repeat the first */
	bool derived;             /* out: a shared non-parameter leaf took a value */
	bool plain;               /* out: (wide) no parameter had such values */
	int sets;                 /* out: input sets evaluated */
	int dropped;              /* out: sets with special values that could not
	                           * be evaluated (not counted) */
	uint64_t dropped_seed;    /* out: the first of them */
	char dropped_why[300];    /* out: and why */
} set_mode;

/* Evaluates both cones on n input sets (wide: at least as many as sweep
 * every parameter's index-aware and boundary values, at most 64); r->status
 * 0 agree, 1 differ, 2 could not evaluate. */
static void run_sets(pairctx *P, const hilo_instr *b, const hilo_instr *a, int n, uint64_t seed,
	uint64_t budget, set_mode *mo, cone_result *r)
{
	memset(r, 0, sizeof *r);
	int sweep = 0;
	mo->sets = 0;
	mo->dropped = 0;
	uint64_t total = 0, ref = 0;
	/* beyond n, a sweep's sets cost at most an eighth of one cone's budget
	 * in all (it widens coverage; it is not needed for soundness) */
	for (int t = 0; t < n || (t < sweep && total <= budget / 8); t++) {
		cone_eval E;
		memset(&E, 0, sizeof E);
		E.P = P;
		E.cb = b->parent;
		E.params_only = mo->params_only;
		E.wide = mo->wide;
		E.ranges = mo->ranges;
		E.seed = seed + (uint64_t)t;
		/* the seed's draws, special values included (ev_fill_drawn); a
		 * sweep of index-aware and boundary values keeps the other
		 * parameters' ordinary values after its first set, as it has
		 * always drawn them (every swept value meets ordinary ones) */
		E.drawn = !(mo->wide && t > 0 && sweep > 0);
		bool special = E.drawn && ev_draw_mode(E.seed) != EV_DRAW_PLAIN;
		E.budget = special ? ev_special_budget(budget, ref) : budget;
		hilo_ptrmap_init_in(&E.leaves, P->scratch->arena);
		hilo_diags_init(&E.d);
		E.sm = hilo_module_create_in("cone", P->scratch->arena);
		hilo_literal *vb = E.sm ? eval_cone(&E, b) : NULL;
		hilo_literal *va = vb ? eval_cone(&E, a) : NULL;
		int status = 0;
		if (!va) {
			char why[700];
			first_error(&E.d, why, sizeof why);
			snprintf(r->msg, sizeof r->msg, "%s: %s", vb ? "after" : "before", why);
			status = 2;
		} else {
			hilo_buf path;
			hilo_buf_init(&path);
			if (hilo_literal_describe_diff_path(&path, vb, va, r->msg, sizeof r->msg, E.seed,
				(P->zero_sign_insensitive ? HILO_CMP_NSZ : 0) | HILO_CMP_NAN_BITS))
				status = 1;
			hilo_buf_free(&path);
		}
		hilo_ptrmap_free(&E.leaves);
		hilo_diags_free(&E.d);
		if (E.sm)
			hilo_module_destroy(E.sm);
		mo->derived |= E.derived;
		total += E.used;
		mo->sets = t + 1;
		if (E.sweep > sweep)
			sweep = E.sweep;
		if (status == 2 && special) {
			/* over its budget (a loop special values keep running) or
			 * otherwise not evaluable: not counted */
			if (!mo->dropped++) {
				mo->dropped_seed = E.seed;
				snprintf(mo->dropped_why, sizeof mo->dropped_why, "%s", r->msg);
			}
			r->msg[0] = 0;
			continue;
		}
		if (status == 1 && special) {
			size_t len = strlen(r->msg);
			snprintf(r->msg + len, sizeof r->msg - len, "; seed %llu draws %s",
				(unsigned long long)E.seed, ev_draw_name(E.seed));
		}
		if (status) {
			r->status = status;
			return;
		}
		if (E.used > ref)
			ref = E.used;
		if (t == 0 && mo->wide) {
			mo->plain = !E.special;
			if (mo->plain && mo->same_as_plain)
				return;
		}
	}
	if (mo->dropped && mo->dropped == mo->sets) {
		/* no set was evaluated */
		snprintf(r->msg, sizeof r->msg, "seed %llu (%s): %s",
			(unsigned long long)mo->dropped_seed, ev_draw_name(mo->dropped_seed),
			mo->dropped_why);
		r->status = 2;
	}
}

/* Does an op with called computations get its value from the evaluator's
 * own definition (the callee run on the values), or is it uninterpreted
 * (hashed, src/eval/eval_opaque.c)? */
static bool runs_callee(hilo_opcode op)
{
	switch (op) {
	case HILO_OP_CALL: case HILO_OP_FUSION: case HILO_OP_WHILE: case HILO_OP_CONDITIONAL:
	case HILO_OP_REDUCE: case HILO_OP_REDUCE_WINDOW: case HILO_OP_MAP: case HILO_OP_SORT:
	case HILO_OP_SCATTER:
		return true;
	default:
		return false;
	}
}

/* Has computation c of side sk changed (not judged equivalent)? */
static bool comp_changed(pairctx *P, int sk, const hilo_comp *c)
{
	const hilo_comp *ca = sk == 1 ? c : hilo_ptrmap_get(&P->corr, c);
	return !ca || !hilo_ptrmap_get(&P->equiv, ca);
}

/* The first uninterpreted op in root's cone (side sk; through the
 * computations the evaluator runs) that calls a computation which changed:
 * the evaluator hashes an uninterpreted op's callee by its outline only
 * (opcodes and shapes, not its operands' wiring nor its constants), so a
 * reducer with its operands swapped hashes alike and agreement on random
 * inputs shows nothing. NULL when none (or out of memory: then the walk
 * answers none only if it finished). */
static const hilo_instr *hashed_changed_callee(pairctx *P, int sk, const hilo_instr *root,
	const hilo_comp **callee)
{
	hilo_ptrmap seen;
	hilo_ptrmap_init_in(&seen, P->scratch->arena);
	uint32_t cap = 64, sp = 0;
	const hilo_instr **st = malloc(cap * sizeof *st);
	const hilo_instr *found = NULL;
	bool ok = st != NULL;
	if (ok)
		st[sp++] = root;
	while (ok && sp && !found) {
		const hilo_instr *i = st[--sp];
		if (hilo_ptrmap_get(&seen, i))
			continue;
		ok = hilo_ptrmap_put(&seen, i, (void *)1);
		if (i->parent == root->parent && is_frontier(P, i))
			continue; /* shared: its callees are equivalent */
		for (uint32_t k = 0; ok && !found && k < hilo_instr_ncalled(i); k++) {
			const hilo_comp *c = hilo_instr_called(i)[k];
			if (!runs_callee(i->op)) {
				if (comp_changed(P, sk, c)) {
					found = i;
					*callee = c;
				}
				continue;
			}
			/* the evaluator runs c: look inside it (once) */
			if (hilo_ptrmap_get(&seen, c))
				continue;
			ok = hilo_ptrmap_put(&seen, c, (void *)1);
			for (const hilo_instr *y = c->first; ok && y; y = y->next) {
				if (!push(&st, &sp, &cap, y)) {
					ok = false;
					break;
				}
			}
		}
		for (uint32_t k = 0; ok && !found && k < i->noperands; k++) {
			if (!push(&st, &sp, &cap, i->operands[k])) {
				ok = false;
				break;
			}
		}
	}
	free(st);
	hilo_ptrmap_free(&seen);
	if (!ok && !found) {
		found = root; /* could not tell: do not trust agreement */
		*callee = NULL;
	}
	return found;
}

static void append(cone_result *r, const char *text)
{
	size_t len = strlen(r->msg);
	snprintf(r->msg + len, sizeof r->msg - len, "%s", text);
}

void cone_test(pairctx *P, const hilo_instr *b, const hilo_instr *a, int n,
	uint64_t seed, uint64_t budget, cone_result *r)
{
	/* independent random frontier values only where they are realisable */
	set_mode first = {.params_only = !frontier_independent(P, b, a)};
	run_sets(P, b, a, n, seed, budget, &first, r);
	if (r->status == 2 || (r->status == 1 && (first.params_only || !first.derived ||
	    !b->parent->is_entry))) {
		/* over the budget, or a difference on free values (parameters);
		 * in a called computation a difference is judged again at the
		 * call sites whatever its leaves (records.c), so it is not
		 * confirmed here */
		if (r->status == 1 && first.params_only)
			append(r, ", from the computation's parameters");
		return;
	}
	/* Again from the parameters, with index-aware and boundary values (a
	 * branch index for every branch, a float at the constants it is
	 * compared with, a start at both ends of its clamp): values real inputs
	 * take. After a difference on independent values of shared
	 * non-parameter leaves, which may not be realisable (exp(x) drawn
	 * negative; leaves with a common ancestor drawn apart), only a
	 * difference there fails. After agreement, because realisable leaf
	 * values and boundary values reach what the first draws may miss (a
	 * branch taken only for an infinite input). */
	hilo_ptrmap ranges;
	hilo_ptrmap_init_in(&ranges, P->scratch->arena);
	set_mode wide = {.params_only = true, .wide = true, .ranges = &ranges,
		.same_as_plain = !first.derived};
	cone_result w;
	run_sets(P, b, a, n, seed, budget, &wide, &w);
	hilo_ptrmap_free(&ranges);
	if (r->status == 1) {
		if (w.status == 2) {
			char first_msg[sizeof r->msg];
			snprintf(first_msg, sizeof first_msg, "%s", r->msg);
			snprintf(r->msg, sizeof r->msg, "a difference on independent values of shared "
				"frontier leaves (%.300s) may not be realisable; from the computation's "
				"parameters: %.300s", first_msg, w.msg);
			return;
		}
		if (w.status == 1) {
			*r = w;
			append(r, ", from the computation's parameters");
			return;
		}
	} else if (w.status == 1) {
		*r = w;
		append(r, ", from the computation's parameters with index-aware and boundary values");
		return;
	}
	/* agreement shows nothing where an uninterpreted op's callee changed
	 * (the evaluator hashes the callee by its outline) */
	const hilo_comp *hc = NULL;
	const hilo_instr *hi = hashed_changed_callee(P, 0, b, &hc);
	if (!hi)
		hi = hashed_changed_callee(P, 1, a, &hc);
	if (hi) {
		snprintf(r->msg, sizeof r->msg, "%d input sets agree, which is no test: %s (%s) calls "
			"%s, which changed, and the evaluator values an uninterpreted op by its callee's "
			"outline only (opcodes and shapes)", n, hi->name, hilo_opcode_name(hi->op),
			hc ? hc->name : "a computation");
		r->status = 2;
		return;
	}
	/* agreement (a difference on unrealisable leaf values is not one) of
	 * the first sets, or after a difference on unrealisable leaf values
	 * of the ones from the parameters; sets not evaluated are not counted */
	bool from_params = first.params_only || r->status == 1;
	const set_mode *counted = r->status == 1 ? &wide : &first;
	int agreed = n - counted->dropped;
	snprintf(r->msg, sizeof r->msg, "%d input set%s agree%s (seeds %llu..%llu%s)", agreed,
		agreed == 1 ? "" : "s", P->zero_sign_insensitive ? " modulo the sign of zero" : "",
		(unsigned long long)seed, (unsigned long long)(seed + (uint64_t)n - 1),
		from_params ? ", from the computation's parameters" : "");
	if (r->status == 1)
		append(r, "; a difference on independent values of shared frontier leaves was not "
			"realisable");
	if (counted->dropped) {
		char more[500];
		snprintf(more, sizeof more, "; %d with special values could not be evaluated and %s "
			"not counted (seed %llu: %.300s)", counted->dropped,
			counted->dropped == 1 ? "is" : "are", (unsigned long long)counted->dropped_seed,
			counted->dropped_why);
		append(r, more);
	}
	r->status = 0;
	if (w.status == 0 && !wide.plain) {
		char more[160];
		snprintf(more, sizeof more, "; %d from the computation's parameters with index-aware "
			"and boundary values agree", wide.sets - wide.dropped);
		append(r, more);
	}
}

/* Collects the frontier names of the cone of root into buf. */
static void frontier_of(pairctx *P, const hilo_instr *root, hilo_ptrmap *seen, hilo_buf *out,
	int *shown, int *more)
{
	const hilo_comp *c = root->parent;
	uint32_t cap = 64, sp = 0;
	const hilo_instr **st = malloc(cap * sizeof *st);
	if (!st)
		return;
	st[sp++] = root;
	while (sp) {
		const hilo_instr *i = st[--sp];
		if (hilo_ptrmap_get(seen, i))
			continue;
		if (!hilo_ptrmap_put(seen, i, (void *)1))
			break;
		if (i->op == HILO_OP_PARAMETER || is_shared(P, i)) {
			if (*shown < 6) {
				hilo_buf_printf(out, "%s%s", *shown ? ", " : "", i->name);
				(*shown)++;
			} else {
				(*more)++;
			}
			continue;
		}
		for (uint32_t k = 0; k < i->noperands; k++) {
			if (i->operands[k]->parent != c)
				continue;
			if (!push(&st, &sp, &cap, i->operands[k])) {
				free(st);
				return;
			}
		}
	}
	free(st);
}

void cone_frontier(pairctx *P, const hilo_instr *b, const hilo_instr *a, char *buf, size_t cap)
{
	hilo_buf out;
	hilo_buf_init_in(&out, P->scratch->arena);
	hilo_ptrmap seen;
	hilo_ptrmap_init_in(&seen, P->scratch->arena);
	int shown = 0, more = 0;
	frontier_of(P, b, &seen, &out, &shown, &more);
	hilo_ptrmap_clear(&seen);
	/* after-side leaves are the same instructions by id: report new ones */
	frontier_of(P, a, &seen, &out, &shown, &more);
	if (more)
		hilo_buf_printf(&out, " and %d more", more);
	snprintf(buf, cap, "%s", out.len ? hilo_buf_cstr(&out) : "(constants only)");
	hilo_buf_free(&out);
	hilo_ptrmap_free(&seen);
}
