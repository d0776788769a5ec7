/* The pass driver: runs a list of registered passes over one module,
 * verifying after each on request and recording wall time, instruction
 * counts and rewrites per pass. The named pipelines are the PIPELINE rows of
 * passes.def, so the CLI and library users agree on what "--pipeline=neuron"
 * means. */
#include "hilo/driver.h"
#include "hilo/verify.h"

#include <stdlib.h>
#include <string.h>
#include <time.h>

/* The PIPELINE rows of passes.def: the pipeline of each row, and its pass
 * (the rows of one pipeline are together, in order). */
#define PASS(id, name, desc)
static const char *const step_pipeline[] = {
#define PIPELINE(pipeline, pass) pipeline,
#include "pass/passes.def"
#undef PIPELINE
};
static const char *const step_pass[] = {
#define PIPELINE(pipeline, pass) pass,
#include "pass/passes.def"
#undef PIPELINE
};
#undef PASS

const char *const *hilo_pipeline_passes(const char *pipeline, size_t *n)
{
	size_t rows = sizeof step_pass / sizeof *step_pass, k = 0;
	while (k < rows && strcmp(step_pipeline[k], pipeline) != 0)
		k++;
	*n = 0;
	while (k + *n < rows && strcmp(step_pipeline[k + *n], pipeline) == 0)
		(*n)++;
	return *n ? &step_pass[k] : NULL;
}

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

/* Verifies m after pass `pass`; on failure every new error names the pass
 * (`last`: it is the last pass of the run, checked before output). */
static hilo_driver_status verify_after(hilo_module *m, const char *pass, bool last,
	const char *fname, hilo_diags *d)
{
	size_t first = d->n;
	if (hilo_verify(m, fname, d))
		return HILO_DRIVER_OK;
	/* the verifier names the instruction; say which pass broke it */
	for (size_t j = first; j < d->n; j++) {
		hilo_diag *g = &d->items[j];
		if (g->sev != HILO_SEV_ERROR)
			continue;
		size_t len = strlen(g->msg) + strlen(pass) + 64;
		char *msg = malloc(len);
		if (msg) {
			snprintf(msg, len, "after pass '%s': %s", pass, g->msg);
			free(g->msg);
			g->msg = msg;
		}
	}
	if (last)
		hilo_diag_add(d, HILO_SEV_ERROR, fname, 0, 0, NULL, 0,
			"internal error: the final module is rejected by the verifier "
			"(last pass that ran: '%s'); nothing written", pass);
	else
		hilo_diag_add(d, HILO_SEV_ERROR, fname, 0, 0, NULL, 0,
			"internal error: pass '%s' produced IR the verifier rejects", pass);
	return HILO_DRIVER_VERIFY_ERROR;
}

/* Runs pass p (the k-th of the list) on m. */
static hilo_driver_status run_one(hilo_module *m, const hilo_pass *p, size_t k,
	hilo_run_state *run, const char *fname, const hilo_driver_opts *o, hilo_diags *d,
	hilo_pass_stat *stats, hilo_module **snapshot)
{
	hilo_pass_ctx ctx;
	memset(&ctx, 0, sizeof ctx);
	ctx.m = m;
	ctx.run = run;
	ctx.pass = p->name;
	ctx.filename = fname;
	ctx.diags = d;
	if (o) {
		ctx.remarks = o->remarks;
		ctx.unroll_markers = o->unroll_markers;
		ctx.disable_slice_move_from_param = o->disable_slice_move_from_param;
		ctx.assume_equivalent_kernels = o->assume_equivalent_kernels;
		ctx.assume_no_signed_zeros = o->assume_no_signed_zeros;
	}
	uint64_t before = hilo_module_instr_count(m);
	/* the rewrite validator compares against a snapshot (ids preserved) */
	double c0 = now_seconds();
	hilo_module *snap = *snapshot;
	*snapshot = NULL;
	/* a child of m's arena: an out-of-memory jump frees it with the rest */
	if (o && o->validate && !snap && !(snap = hilo_module_clone_in(m, m->arena))) {
		hilo_diag_oom(d, fname); /* cloning the module to validate the pass */
		return HILO_DRIVER_PASS_ERROR;
	}
	double t0 = now_seconds();
	hilo_pass_result r = p->run(&ctx);
	hilo_pass_scratch_release(&ctx); /* the pass's scratch ends with its run */
	double t1 = now_seconds();
	if (stats)
		stats[k] = (hilo_pass_stat){p->name, t1 - t0, before,
			hilo_module_instr_count(m), ctx.rewrites, r, t0 - c0};
	if (r == HILO_PASS_ERROR) {
		if (snap)
			hilo_module_destroy(snap);
		if (d->nerrors == 0)
			hilo_diag_add(d, HILO_SEV_ERROR, fname, 0, 0, NULL, 0,
				"pass '%s' failed", p->name);
		return HILO_DRIVER_PASS_ERROR;
	}
	/* validation evaluates the module: it must be valid IR first */
	if (o && (o->verify_each || snap) &&
	    verify_after(m, p->name, false, fname, d) != HILO_DRIVER_OK) {
		if (snap)
			hilo_module_destroy(snap);
		return HILO_DRIVER_VERIFY_ERROR;
	}
	if (snap) {
		double v0 = now_seconds();
		bool same = false;
		/* the validator keeps malloc'd state a jump would leak: it runs
		 * with m's guard suspended, its allocations fail with NULL (the
		 * evaluator entry points it calls guard themselves) */
		hilo_oom_guard *held = hilo_oom_suspend(m->arena);
		(void)hilo_arena_failed(m->arena, true);
		bool ok = hilo_validate_pass(o->validate, snap, m, p->name, run, d, &same);
		/* the validator's own arenas are children of m's: a failed
		 * allocation anywhere in it is out of memory, even where the
		 * validator would only have skipped a check */
		if (hilo_arena_failed(m->arena, true))
			ok = false;
		hilo_oom_resume(m->arena, held);
		/* an unchanged module keeps its snapshot for the next pass */
		if (same && ok)
			*snapshot = snap;
		else
			hilo_module_destroy(snap);
		if (stats)
			stats[k].check_seconds += now_seconds() - v0;
		if (!ok) {
			hilo_diag_oom(d, fname); /* validating the pass */
			return HILO_DRIVER_PASS_ERROR;
		}
	}
	return HILO_DRIVER_OK;
}

static hilo_driver_status run_passes(hilo_module *m, const hilo_pass *const *passes,
	size_t n, const hilo_driver_opts *o, hilo_diags *d, hilo_pass_stat *stats)
{
	const char *fname = o && o->filename ? o->filename : "<module>";
	/* facts passes prove for later passes of this run (tracked heap of the
	 * module's arena, so an out-of-memory jump frees them) */
	hilo_run_state *run = hilo_run_state_create(m->arena);
	hilo_driver_status status = HILO_DRIVER_OK;
	hilo_module *snapshot = NULL; /* validation: the module as the next pass gets it */
	for (size_t k = 0; k < n && status == HILO_DRIVER_OK; k++) {
		status = run_one(m, passes[k], k, run, fname, o, d, stats, &snapshot);
		if (status == HILO_DRIVER_OK && o && o->after_pass &&
		    !o->after_pass(o->after_pass_arg, m, passes[k], k, d))
			status = HILO_DRIVER_PASS_ERROR;
	}
	if (snapshot)
		hilo_module_destroy(snapshot);
	/* The tools' contract: the final module is always verified before anything
	 * is written (with --verify-each the last pass's check already did) */
	if (status == HILO_DRIVER_OK && n > 0 && !(o && o->verify_each))
		status = verify_after(m, passes[n - 1]->name, true, fname, d);
	hilo_run_state_destroy(run);
	return status;
}

/* Out of memory anywhere in a pass (or the verifier after it) ends the run
 * with HILO_DRIVER_PASS_ERROR and "out of memory"; the module may be half
 * rewritten and is only fit for hilo_module_destroy. */
hilo_driver_status hilo_run_passes(hilo_module *m, const hilo_pass *const *passes,
	size_t n, const hilo_driver_opts *o, hilo_diags *d, hilo_pass_stat *stats)
{
	HILO_OOM_CATCH(g, m->arena) {
		hilo_diag_oom(d, o && o->filename ? o->filename : "<module>");
		return HILO_DRIVER_PASS_ERROR;
	}
	hilo_driver_status s = run_passes(m, passes, n, o, d, stats);
	hilo_oom_end(&g);
	return s;
}
