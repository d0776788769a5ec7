/* oom_sweep.c - the out-of-memory sweep (issue 14 item 3), in process.
 *
 *   oom_sweep [--max-runs=N] [--workload=tool|viz|api] FILE...
 *
 * For each module file the workload of `hilo-opt FILE --pipeline=neuron
 * --verify-each --check-equivalence` (the rewrite validator after every
 * pass, then the whole-module check) plus printing and a proto write/read
 * is run once to count its allocations (and record every allocating call
 * site, file:line), then again with the K-th allocation failing, for every
 * K that is the first allocation of some site and for K = 1, 1+s, 1+2s,
 * ... (stride s keeps the runs under --max-runs). Each failing run must end
 * in a failed status with an "out of memory" diagnostic -- no crash, no
 * other error, no result -- and the sanitizer build checks that nothing
 * leaks. Needs a -DHILO_FAULT_INJECTION=ON build.
 *
 * --workload=viz sweeps the views of src/viz instead (DOT of the whole
 * module and of a neighbourhood, statistics as text and JSON, extraction
 * of the root's operand cone, and the rewrite report over a validated
 * pipeline run); --workload=api the flat C API of src/api (load, passes
 * with both equivalence modes, print, proto, signature, evaluation),
 * where a failed call must say "out of memory" in its error text.
 */
#include "hilo/capi.h"
#include "hilo/check.h"
#include "hilo/driver.h"
#include "hilo/eval.h"
#include "hilo/hlo_text.h"
#include "hilo/proto.h"
#include "hilo/verify.h"
#include "hilo/viz.h"

#include <stdlib.h>
#include <string.h>

#ifndef HILO_FAULT_INJECTION
int main(void)
{
	fprintf(stderr, "oom_sweep: needs a -DHILO_FAULT_INJECTION=ON build\n");
	return 1;
}
#else

typedef struct site {
	const char *file;
	int line;
	unsigned long first; /* allocation number of its first call */
	bool hit;            /* made to fail in the sweep */
} site;

typedef struct sites {
	site *v;
	size_t n, cap;
	unsigned long count;
} sites;

static void observe(const char *file, int line, void *ud)
{
	sites *s = ud;
	s->count++;
	for (size_t k = 0; k < s->n; k++)
		if (s->v[k].line == line && !strcmp(s->v[k].file, file))
			return;
	if (s->n == s->cap) {
		s->cap = s->cap ? 2 * s->cap : 256;
		s->v = realloc(s->v, s->cap * sizeof *s->v);
		if (!s->v)
			abort();
	}
	s->v[s->n++] = (site){file, line, s->count, false};
}

enum { OK, OOM, OTHER };

static bool has_oom(const hilo_diags *d)
{
	for (size_t k = 0; k < d->n; k++)
		if (d->items[k].sev == HILO_SEV_ERROR && d->items[k].msg &&
		    !strcmp(d->items[k].msg, "out of memory"))
			return true;
	return d->oom_lost;
}

/* The hilo-opt workload on one module. OK, OOM (failed with the message)
 * or OTHER (failed some other way: a bug under fault injection). */
static int workload(const char *text, size_t len, const char *name)
{
	size_t n = 0;
	const char *const *names = hilo_pipeline_passes("neuron", &n);
	const hilo_pass *passes[64];
	size_t np = 0;
	for (size_t k = 0; k < n && np < 64; k++)
		if (hilo_pass_find(names[k]))
			passes[np++] = hilo_pass_find(names[k]);
	hilo_diags d;
	hilo_diags_init(&d);
	int rc = OTHER;
	hilo_module *ref = NULL, *back = NULL;
	hilo_validator *val = NULL;
	hilo_buf txt, pb;
	hilo_buf_init(&txt);
	hilo_buf_init(&pb);
	hilo_module *m = hilo_parse_text(text, len, name, &d);
	if (!m || !hilo_verify(m, name, &d))
		goto out;
	/* hilo-opt --check-equivalence: every rewrite validated, then the whole */
	hilo_validate_opts vo = {.inputs = 1, .budget = 2000000, .filename = name};
	if (!(val = hilo_validator_create(&vo))) {
		hilo_diag_oom(&d, name);
		goto out;
	}
	hilo_driver_opts o = {.filename = name, .verify_each = true, .validate = val};
	if (hilo_run_passes(m, passes, np, &o, &d, NULL) != HILO_DRIVER_OK)
		goto out;
	if (!(ref = hilo_parse_text(text, len, name, &d)))
		goto out;
	hilo_equiv_report r;
	hilo_eval_opts eo = {.budget = 2000000};
	hilo_check_equivalence(ref, m, 1, 0, &eo, &r);
	if (r.status == 3) {
		hilo_diag_oom(&d, name);
		goto out;
	}
	if (r.status == 1) {
		fprintf(stderr, "%s: equivalence: %s\n", name, r.message);
		goto out;
	}
	if (!hilo_print_text(&txt, m, HILO_STYLE_DEFAULT)) {
		hilo_diag_oom(&d, name);
		goto out;
	}
	if (!hilo_proto_write(&pb, m, &d))
		goto out;
	if (!(back = hilo_proto_read(pb.data, pb.len, name, &d)))
		goto out;
	rc = OK;
out:
	if (rc != OK && has_oom(&d))
		rc = OOM;
	if (rc == OTHER) {
		fprintf(stderr, "%s: failed without \"out of memory\":\n", name);
		hilo_diags_print(stderr, &d);
	}
	hilo_validator_destroy(val);
	hilo_module_destroy(back);
	hilo_module_destroy(ref);
	hilo_module_destroy(m);
	hilo_buf_free(&txt);
	hilo_buf_free(&pb);
	hilo_diags_free(&d);
	return rc;
}

/* The src/viz views of one module. */
static int workload_viz(const char *text, size_t len, const char *name)
{
	hilo_diags d;
	hilo_diags_init(&d);
	int rc = OTHER;
	hilo_module *x = NULL;
	hilo_report *rep = NULL;
	hilo_validator *val = NULL;
	hilo_buf b;
	hilo_buf_init(&b);
	hilo_module *m = hilo_parse_text(text, len, name, &d);
	if (!m || !hilo_verify(m, name, &d) || !m->entry || !m->entry->root)
		goto out;
	if (!hilo_write_dot(&b, m, NULL, &d))
		goto out;
	hilo_dot_opts around = {.around = m->entry->root->name, .depth = 2};
	if (!hilo_write_dot(&b, m, &around, &d))
		goto out;
	hilo_write_stats(&b, m, false);
	hilo_write_stats(&b, m, true);
	if (b.oom) {
		hilo_diag_oom(&d, name);
		goto out;
	}
	if (!(x = hilo_extract(m, m->entry->root->name, -1, &d)))
		goto out;
	/* the report: the validator's records drawn, then the page */
	size_t n = 0;
	const char *const *names = hilo_pipeline_passes("neuron", &n);
	const hilo_pass *passes[64];
	size_t np = 0;
	for (size_t k = 0; k < n && np < 64; k++)
		if (hilo_pass_find(names[k]))
			passes[np++] = hilo_pass_find(names[k]);
	if (!(rep = hilo_report_create(name)) || !hilo_report_note_input(rep, m)) {
		hilo_diag_oom(&d, name);
		goto out;
	}
	hilo_validate_opts vo = {.inputs = 1, .budget = 2000000, .filename = name,
		.on_record = hilo_report_on_record, .on_record_arg = rep};
	if (!(val = hilo_validator_create(&vo))) {
		hilo_diag_oom(&d, name);
		goto out;
	}
	hilo_driver_opts o = {.filename = name, .validate = val};
	if (hilo_run_passes(m, passes, np, &o, &d, NULL) != HILO_DRIVER_OK)
		goto out;
	hilo_buf_free(&b);
	hilo_buf_init(&b);
	const char *argv[] = {"hilo-opt", name, "--report=it's.html"};
	hilo_report_info info = {name, "equivalence", NULL, 0, NULL, 0, argv, 3, m};
	if (!hilo_report_write(rep, &b, &info)) {
		hilo_diag_oom(&d, name);
		goto out;
	}
	rc = OK;
out:
	if (rc != OK && has_oom(&d))
		rc = OOM;
	if (rc == OTHER) {
		fprintf(stderr, "%s: failed without \"out of memory\":\n", name);
		hilo_diags_print(stderr, &d);
	}
	hilo_validator_destroy(val);
	hilo_report_destroy(rep);
	hilo_module_destroy(x);
	hilo_module_destroy(m);
	hilo_buf_free(&b);
	hilo_diags_free(&d);
	return rc;
}

/* One call of the flat C API: NULL/-1 results must come with an error
 * text saying "out of memory" (*oom), anything else is a bug (*other). */
static bool api_ok(bool ok, char *err, const char *what, bool *oom, bool *other)
{
	if (!ok) {
		if (err && strstr(err, "out of memory")) {
			*oom = true;
		} else {
			fprintf(stderr, "%s failed without \"out of memory\": %s", what, err ? err : "(no error text)\n");
			*other = true;
		}
	}
	hilo_free(err);
	return ok;
}

/* The flat C API over one module. */
static int workload_api(const char *text, size_t len, const char *name)
{
	bool oom = false, other = false;
	char *err = NULL;
	hilo_handle *h = hilo_handle_from_text(text, len, name, &err);
	if (!api_ok(h != NULL, err, "hilo_handle_from_text", &oom, &other))
		goto out;
	err = NULL;
	char *r = hilo_handle_run_passes(h, "pipeline:neuron", 1, "rewrites", 1, 0, &err);
	hilo_free(r);
	if (!api_ok(r != NULL, err, "hilo_handle_run_passes (rewrites)", &oom, &other))
		goto out;
	err = NULL;
	r = hilo_handle_run_passes(h, "pipeline:neuron", 0, "module", 1, 0, &err);
	hilo_free(r);
	if (!api_ok(r != NULL, err, "hilo_handle_run_passes (module)", &oom, &other))
		goto out;
	err = NULL;
	r = hilo_handle_to_text(h, NULL, &err);
	hilo_free(r);
	if (!api_ok(r != NULL, err, "hilo_handle_to_text", &oom, &other))
		goto out;
	err = NULL;
	size_t plen = 0;
	void *pb = hilo_handle_to_proto(h, &plen, &err);
	bool pok = pb != NULL;
	hilo_handle *back = NULL;
	if (pok) {
		char *err2 = NULL;
		back = hilo_handle_from_proto(pb, plen, name, &err2);
		hilo_free(pb);
		if (!api_ok(back != NULL, err2, "hilo_handle_from_proto", &oom, &other)) {
			hilo_free(err);
			goto out;
		}
		hilo_handle_free(back);
	}
	if (!api_ok(pok, err, "hilo_handle_to_proto", &oom, &other))
		goto out;
	err = NULL;
	int nout = hilo_handle_evaluate(h, 0, NULL, NULL, 0, 2000000, &err);
	if (!api_ok(nout >= 0, err, "hilo_handle_evaluate", &oom, &other))
		goto out;
	/* and with the caller's inputs (zeros of each parameter's size) */
	const hilo_comp *c = hilo_handle_module(h)->entry;
	const void *ins[16];
	size_t sizes[16];
	static const unsigned char zeros[4096];
	size_t ni = c && c->nparams <= 16 ? c->nparams : 0;
	for (size_t k = 0; k < ni; k++) {
		int64_t nb = c->params[k] ? hilo_shape_bytes(c->params[k]->shape) : -1;
		if (nb < 0 || nb > (int64_t)sizeof zeros)
			ni = 0;
		else {
			ins[k] = zeros;
			sizes[k] = (size_t)nb;
		}
	}
	if (ni) {
		err = NULL;
		nout = hilo_handle_evaluate(h, ni, ins, sizes, 0, 2000000, &err);
		if (!api_ok(nout >= 0, err, "hilo_handle_evaluate (inputs)", &oom, &other))
			goto out;
	}
out:
	hilo_handle_free(h);
	return other ? OTHER : oom ? OOM : OK;
}

static char *slurp(const char *path, size_t *len)
{
	FILE *f = fopen(path, "rb");
	if (!f)
		return NULL;
	fseek(f, 0, SEEK_END);
	long n = ftell(f);
	fseek(f, 0, SEEK_SET);
	char *p = n >= 0 ? malloc((size_t)n + 1) : NULL;
	if (p && fread(p, 1, (size_t)n, f) != (size_t)n) {
		free(p);
		p = NULL;
	}
	fclose(f);
	if (p)
		*len = (size_t)n;
	return p;
}

static int cmp_ul(const void *a, const void *b)
{
	unsigned long x = *(const unsigned long *)a, y = *(const unsigned long *)b;
	return x < y ? -1 : x > y;
}

int main(int argc, char **argv)
{
	unsigned long max_runs = 2000;
	int (*workload_fn)(const char *, size_t, const char *) = workload;
	int bad = 0;
	unsigned long all_runs = 0, all_allocs = 0;
	size_t all_sites = 0, all_hit = 0;
	for (int a = 1; a < argc; a++) {
		if (!strncmp(argv[a], "--max-runs=", 11)) {
			max_runs = strtoul(argv[a] + 11, NULL, 10);
			continue;
		}
		if (!strncmp(argv[a], "--workload=", 11)) {
			const char *w = argv[a] + 11;
			workload_fn = !strcmp(w, "viz") ? workload_viz : !strcmp(w, "api") ? workload_api
				: !strcmp(w, "tool") ? workload : NULL;
			if (!workload_fn) {
				fprintf(stderr, "oom_sweep: unknown workload '%s' (tool, viz, api)\n", w);
				return 2;
			}
			continue;
		}
		size_t len = 0;
		char *text = slurp(argv[a], &len);
		if (!text) {
			fprintf(stderr, "oom_sweep: cannot read %s\n", argv[a]);
			return 1;
		}
		sites s = {0};
		hilo_fault_configure(0, observe, &s);
		int rc = workload_fn(text, len, argv[a]);
		hilo_fault_configure(0, NULL, NULL);
		if (rc != OK) {
			fprintf(stderr, "%s: the workload fails without fault injection\n", argv[a]);
			return 1;
		}
		/* the first allocation of every site, then a stride over all */
		unsigned long total = s.count;
		unsigned long stride = total / (max_runs > s.n ? max_runs - s.n : 1) + 1;
		unsigned long *ks = malloc((s.n + total / stride + 2) * sizeof *ks);
		size_t nk = 0;
		for (size_t k = 0; k < s.n; k++)
			ks[nk++] = s.v[k].first;
		for (unsigned long k = 1; k <= total; k += stride)
			ks[nk++] = k;
		qsort(ks, nk, sizeof *ks, cmp_ul);
		size_t runs = 0;
		for (size_t j = 0; j < nk; j++) {
			if (j && ks[j] == ks[j - 1])
				continue;
			runs++;
			hilo_fault_configure(ks[j], NULL, NULL);
			rc = workload_fn(text, len, argv[a]);
			int line = 0;
			const char *file = hilo_fault_failed_site(&line);
			hilo_fault_configure(0, NULL, NULL);
			if (file) {
				for (size_t k = 0; k < s.n; k++)
					if (s.v[k].line == line && !strcmp(s.v[k].file, file))
						s.v[k].hit = true;
			}
			if (file && rc != OOM) {
				fprintf(stderr, "%s: K=%lu (%s:%d) ended %s\n", argv[a], ks[j], file, line,
					rc == OK ? "successfully" : "in another error");
				bad++;
			} else if (!file && rc != OK) {
				fprintf(stderr, "%s: K=%lu failed although no allocation failed\n", argv[a], ks[j]);
				bad++;
			}
		}
		size_t hit = 0;
		for (size_t k = 0; k < s.n; k++) {
			hit += s.v[k].hit;
			if (!s.v[k].hit)
				fprintf(stderr, "%s: site %s:%d never failed in the sweep\n", argv[a],
					s.v[k].file, s.v[k].line);
		}
		if (hit != s.n)
			bad++;
		printf("%s: %lu allocations, %zu sites; %zu runs (stride %lu), %zu sites made to fail\n",
			argv[a], total, s.n, runs, stride, hit);
		all_runs += runs;
		all_allocs += total;
		all_sites += s.n;
		all_hit += hit;
		free(ks);
		free(s.v);
		free(text);
	}
	printf("oom sweep: %lu allocations swept in %lu runs; %zu of %zu allocation sites failed at least once; %d problem(s)\n",
		all_allocs, all_runs, all_hit, all_sites, bad);
	return bad ? 1 : 0;
}
#endif
