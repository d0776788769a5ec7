/* equiv.c - the module-level equivalence check behind hilo-opt
 * --check-equivalence=module and the C API: the entry computations of two
 * modules evaluated on the same seeded input sets (src/eval/eval_equiv.c
 * makes them), compared bit for bit with NaN == NaN (ir/literal.c). */
#include "check_internal.h"
#include "eval/eval_internal.h"

#include <stdio.h>
#include <string.h>

bool chk_same_params(const hilo_comp *a, const hilo_comp *b)
{
	if (a->nparams != b->nparams)
		return false;
	for (uint32_t k = 0; k < a->nparams; k++)
		if (!a->params[k] || !b->params[k] ||
		    !hilo_shape_compatible(a->params[k]->shape, b->params[k]->shape))
			return false;
	return true;
}

static void first_error(const hilo_diags *d, char *out, size_t cap)
{
	for (size_t k = 0; k < d->n; k++)
		if (d->items[k].sev == HILO_SEV_ERROR) {
			snprintf(out, cap, "%s", d->items[k].msg);
			return;
		}
	snprintf(out, cap, "evaluation failed");
}

void hilo_check_equivalence(hilo_module *before, hilo_module *after, int n,
	uint64_t seed, const hilo_eval_opts *o, hilo_equiv_report *r)
{
	hilo_check_equivalence_nsz(before, after, n, seed, o, false, r);
}

void hilo_check_equivalence_nsz(hilo_module *before, hilo_module *after, int n,
	uint64_t seed, const hilo_eval_opts *o, bool nsz, hilo_equiv_report *r)
{
	memset(r, 0, sizeof *r);
	if (n <= 0)
		n = 3;
	const hilo_comp *ca = before->entry, *cb = after->entry;
	if (!ca || !cb) {
		r->status = 2;
		snprintf(r->message, sizeof r->message, "a module has no entry computation");
		return;
	}
	if (!chk_same_params(ca, cb)) {
		r->status = 1;
		snprintf(r->message, sizeof r->message,
			"entry parameters differ between before and after");
		return;
	}
	/* enough consecutive seeds to try every value of small index ranges */
	int sweep = hilo_eval_index_sweep(before, ca);
	if (sweep < 0) {
		r->status = 3;
		snprintf(r->message, sizeof r->message, "out of memory");
		return;
	}
	if (sweep > n)
		n = sweep;
	/* input sets with special values (docs/proof.md "Special values"),
	 * except after the first set of a sweep of index-aware values, which
	 * meets ordinary values as it always has; a set with special values
	 * that cannot be evaluated within ev_special_budget is not counted */
	int dropped = 0;
	uint64_t ref = 0, dropped_seed = 0;
	char dropped_why[300] = "";
	uint64_t budget = o && o->budget ? o->budget : HILO_EVAL_DEFAULT_BUDGET;
	for (int t = 0; t < n; t++) {
		uint64_t s = seed + (uint64_t)t;
		bool drawn = !(sweep > 0 && t > 0);
		bool special = drawn && ev_draw_mode(s) != EV_DRAW_PLAIN;
		hilo_eval_opts so = {special ? ev_special_budget(budget, ref) : budget};
		uint64_t ua = 0, ub = 0;
		hilo_diags d;
		hilo_diags_init(&d);
		hilo_literal **args = ev_check_args(before, ca, s, budget, &d, drawn);
		hilo_literal *ra = args ? ev_comp_used(before, ca, args, &so, &d, &ua) : NULL;
		hilo_literal *rb = ra ? ev_comp_used(after, cb, args, &so, &d, &ub) : NULL;
		if (!rb) {
			char why[700];
			first_error(&d, why, sizeof why);
			if (special && !d.oom) {
				if (!dropped++) {
					dropped_seed = s;
					snprintf(dropped_why, sizeof dropped_why, "%s: %.280s",
						ra ? "after" : "before", why);
				}
				hilo_diags_free(&d);
				continue;
			}
			/* the original evaluates but the result does not: that is a
			 * difference only when it is not a budget/support limit */
			r->status = d.oom ? 3 : 2;
			snprintf(r->message, sizeof r->message, "%s: %s", ra ? "after" : "before", why);
			hilo_diags_free(&d);
			return;
		}
		hilo_diags_free(&d);
		if (ua > ref)
			ref = ua;
		if (ub > ref)
			ref = ub;
		hilo_buf path;
		hilo_buf_init(&path);
		bool diff = hilo_literal_describe_diff_path(&path, ra, rb, r->message, sizeof r->message, s, nsz);
		bool oom = path.oom;
		hilo_buf_free(&path);
		if (oom) {
			r->status = 3;
			snprintf(r->message, sizeof r->message, "out of memory");
			return;
		}
		if (diff) {
			r->status = 1;
			if (special) {
				size_t len = strlen(r->message);
				snprintf(r->message + len, sizeof r->message - len, "; seed %llu draws %s",
					(unsigned long long)s, ev_draw_name(s));
			}
			return;
		}
	}
	if (dropped == n) {
		r->status = 2;
		snprintf(r->message, sizeof r->message, "seed %llu (%s): %s",
			(unsigned long long)dropped_seed, ev_draw_name(dropped_seed), dropped_why);
		return;
	}
	r->status = 0;
	int agreed = n - dropped;
	snprintf(r->message, sizeof r->message, "%d input set%s agree (seeds %llu..%llu)",
		agreed, agreed == 1 ? "" : "s", (unsigned long long)seed,
		(unsigned long long)(seed + (uint64_t)n - 1));
	if (dropped) {
		size_t len = strlen(r->message);
		snprintf(r->message + len, sizeof r->message - len, "; %d with special values could "
			"not be evaluated and %s not counted (seed %llu: %s)", dropped,
			dropped == 1 ? "is" : "are", (unsigned long long)dropped_seed, dropped_why);
	}
}
