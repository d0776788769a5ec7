/* test_pass_corpus DIR PASS [STRIDE] [BUDGET]
 *
 * Issue 4's corpus run, in one process (spawning hilo-opt per module costs
 * more than the work): for every *.hlo under DIR (recursively, sorted),
 * parse, run PASS through the driver with verify-each, and check
 * equivalence against a fresh parse of the same text on 3 seeded input
 * sets (hilo_check_equivalence, BUDGET element-ops, default 2e6).
 * Failing: a verifier rejection after the pass, a pass error, an
 * equivalence mismatch. Counted, not failing: modules the parser or the
 * verifier rejects (the input's problem) and equivalence skipped for
 * budget/unsupported ops. STRIDE > 1 takes every STRIDE-th module.
 * Exits 77 (ctest: skipped) when DIR does not exist. Without arguments
 * (the plain unit.test_pass_corpus run) it does the same for every one of
 * the six passes over this repository's tests/lit inputs.
 */
#include "check.h"
#include "hilo/driver.h"
#include "hilo/eval.h"

#include <dirent.h>
#include <time.h>
#include <sys/stat.h>

typedef struct paths {
	char **v;
	size_t n, cap;
} paths;

static void collect(paths *p, const char *dir)
{
	DIR *d = opendir(dir);
	if (!d)
		return;
	struct dirent *e;
	while ((e = readdir(d)) != NULL) {
		if (e->d_name[0] == '.')
			continue;
		size_t len = strlen(dir) + strlen(e->d_name) + 2;
		char *path = malloc(len);
		if (!path)
			break;
		snprintf(path, len, "%s/%s", dir, e->d_name);
		struct stat st;
		if (stat(path, &st) == 0 && S_ISDIR(st.st_mode)) {
			collect(p, path);
			free(path);
		} else if (len > 5 && !strcmp(path + strlen(path) - 4, ".hlo")) {
			if (p->n == p->cap) {
				p->cap = p->cap ? p->cap * 2 : 64;
				p->v = realloc(p->v, p->cap * sizeof *p->v);
			}
			p->v[p->n++] = path;
		} else {
			free(path);
		}
	}
	closedir(d);
}

static int cmp(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

/* Runs one pass over every module of dir; returns the number of failures. */
static size_t run_dir(const char *dir, const hilo_pass *pass, long stride, hilo_eval_opts eo)
{
	paths p = {0};
	collect(&p, dir);
	qsort(p.v, p.n, sizeof *p.v, cmp);
	size_t n = 0, ok = 0, skipped = 0, unparsed = 0, failed = 0;
	for (size_t k = 0; k < p.n; k += (size_t)stride) {
		const char *f = p.v[k];
		n++;
		struct timespec t0, t1;
		clock_gettime(CLOCK_MONOTONIC, &t0);
		hilo_diags d;
		hilo_diags_init(&d);
		size_t len;
		char *text = hilo_read_file(f, &len, &d);
		hilo_module *m = text ? hilo_parse_text(text, len, f, &d) : NULL;
		if (!m || !hilo_verify(m, f, &d)) {
			unparsed++;
			hilo_module_destroy(m);
			hilo_diags_free(&d);
			free(text);
			continue;
		}
		hilo_driver_opts o = {.filename = f, .verify_each = true};
		hilo_driver_status s = hilo_run_passes(m, &pass, 1, &o, &d, NULL);
		if (s != HILO_DRIVER_OK) {
			failed++;
			printf("FAIL %s: %s\n", f, s == HILO_DRIVER_VERIFY_ERROR ? "verifier" : "pass error");
			hilo_diags_print(stdout, &d);
		} else {
			hilo_diags pd;
			hilo_diags_init(&pd);
			hilo_module *before = hilo_parse_text(text, len, f, &pd);
			hilo_diags_free(&pd);
			hilo_equiv_report r;
			memset(&r, 0, sizeof r);
			if (before)
				hilo_check_equivalence(before, m, 3, 0, &eo, &r);
			else
				r.status = 2;
			hilo_module_destroy(before);
			if (r.status == 1) {
				failed++;
				printf("FAIL %s: equivalence: %s\n", f, r.message);
			} else if (r.status == 2) {
				skipped++;
			} else {
				ok++;
			}
		}
		hilo_module_destroy(m);
		hilo_diags_free(&d);
		free(text);
		clock_gettime(CLOCK_MONOTONIC, &t1);
		double secs = (double)(t1.tv_sec - t0.tv_sec) + (double)(t1.tv_nsec - t0.tv_nsec) * 1e-9;
		if (secs > 1.0)
			printf("slow (%.1f s): %s\n", secs, f);
	}
	printf("%s: %zu modules: %zu equivalent, %zu equivalence skipped, %zu not parsed/verified, %zu failed\n",
		pass->name, n, ok, skipped, unparsed, failed);
	for (size_t k = 0; k < p.n; k++)
		free(p.v[k]);
	free(p.v);
	return failed;
}

int main(int argc, char **argv)
{
	if (argc < 3) {
		/* no arguments (the plain unit-test run): every XLA-equivalent
		 * pass over this repository's own lit inputs */
		static const char *const names[] = {"dce", "tuple-simplifier", "call-inliner",
			"cse", "constant-folding", "boundary-marker-removal"};
		char dir[4096];
		snprintf(dir, sizeof dir, "%s", __FILE__);
		char *slash = strrchr(dir, '/');
		if (!slash)
			return 77;
		snprintf(slash, sizeof dir - (size_t)(slash - dir), "/../lit");
		struct stat st;
		if (stat(dir, &st) != 0)
			return 77;
		hilo_eval_opts eo = {2000000};
		for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
			const hilo_pass *pass = hilo_pass_find(names[k]);
			CHECK(pass != NULL);
			if (pass)
				CHECK(run_dir(dir, pass, 1, eo) == 0);
		}
		return CHECK_DONE();
	}
	struct stat st;
	if (stat(argv[1], &st) != 0 || !S_ISDIR(st.st_mode)) {
		printf("%s missing: skipped\n", argv[1]);
		return 77;
	}
	const hilo_pass *pass = hilo_pass_find(argv[2]);
	if (!pass) {
		fprintf(stderr, "unknown pass %s\n", argv[2]);
		return 2;
	}
	long stride = argc > 3 ? strtol(argv[3], NULL, 10) : 1;
	if (stride < 1)
		stride = 1;
	hilo_eval_opts eo = {argc > 4 ? strtoull(argv[4], NULL, 10) : 2000000};
	CHECK(run_dir(argv[1], pass, stride, eo) == 0);
	return CHECK_DONE();
}
