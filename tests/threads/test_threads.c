/* Thread safety (issue 14 item 4): the library has no global state, so
 * modules handled on different threads must not interfere. Each of 8
 * threads takes a different module and runs the whole job on it: parse,
 * verify, the neuron pipeline (driver API, verify-each, remarks), the
 * equivalence check against a fresh parse (eval API), print (auto style)
 * and binary proto write. The results (status, diagnostics, remarks,
 * equivalence verdict, printed text, proto bytes) must be identical to the
 * single-threaded run of the same job. Two rounds rotate the assignment of
 * modules to threads. Built and run under ThreadSanitizer in build-tsan
 * (make test), where any data race fails the test.
 *
 *   test_threads FILE... (exactly 8)   exit 0 identical, 1 otherwise
 */
#include "hilo/driver.h"
#include "hilo/eval.h"
#include "hilo/hlo_text.h"
#include "hilo/proto.h"
#include "hilo/verify.h"

#include <pthread.h>
#include <stdlib.h>
#include <string.h>

enum { NTHREADS = 8, EQUIV_INPUTS = 2, ROUNDS = 2 };

typedef struct job {
	const char *path;
	const char *text;
	size_t len;
	/* results */
	int status;              /* driver status, or -1 parse / -2 verify */
	int equiv;               /* hilo_equiv_report.status */
	char equiv_msg[1024];
	char *diags;             /* printed diagnostics */
	size_t ndiags;
	char *remarks;
	size_t nremarks;
	hilo_buf printed, proto;
} job;

static char *print_diags(const hilo_diags *d, size_t *n)
{
	char *s = NULL;
	FILE *f = open_memstream(&s, n);
	if (!f)
		return NULL;
	hilo_diags_print(f, d);
	fclose(f);
	return s;
}

static void run_job(job *j)
{
	hilo_diags d;
	hilo_diags_init(&d);
	hilo_buf_init(&j->printed);
	hilo_buf_init(&j->proto);
	j->status = 0;
	j->equiv = -1;
	j->equiv_msg[0] = 0;
	j->remarks = NULL;
	j->nremarks = 0;
	hilo_module *m = hilo_parse_text(j->text, j->len, j->path, &d);
	if (!m) {
		j->status = -1;
		goto out;
	}
	if (!hilo_verify(m, j->path, &d)) {
		j->status = -2;
		goto out;
	}
	size_t n;
	const char *const *names = hilo_pipeline_passes("neuron", &n);
	const hilo_pass *passes[64];
	size_t np = 0;
	for (size_t k = 0; k < n && np < 64; k++)
		if ((passes[np] = hilo_pass_find(names[k])))
			np++;
	FILE *rem = open_memstream(&j->remarks, &j->nremarks);
	hilo_driver_opts o = { .filename = j->path, .verify_each = true, .remarks = rem };
	j->status = (int)hilo_run_passes(m, passes, np, &o, &d, NULL);
	if (rem)
		fclose(rem);
	if (j->status == HILO_DRIVER_OK) {
		hilo_module *ref = hilo_parse_text(j->text, j->len, j->path, &d);
		if (ref) {
			hilo_equiv_report r;
			memset(&r, 0, sizeof r);
			hilo_eval_opts eo = { 20000000 };
			hilo_check_equivalence(ref, m, EQUIV_INPUTS, 7, &eo, &r);
			j->equiv = r.status;
			memcpy(j->equiv_msg, r.message, sizeof j->equiv_msg);
			hilo_module_destroy(ref);
		}
		hilo_print_text(&j->printed, m, HILO_STYLE_AUTO);
		hilo_proto_write(&j->proto, m, &d);
	}
out:
	j->diags = print_diags(&d, &j->ndiags);
	hilo_diags_free(&d);
	hilo_module_destroy(m);
}

static void free_job(job *j)
{
	free(j->diags);
	free(j->remarks);
	hilo_buf_free(&j->printed);
	hilo_buf_free(&j->proto);
}

typedef struct thread_arg {
	job *j;
	pthread_barrier_t *start;  /* all threads begin together: real overlap */
} thread_arg;

static void *thread_main(void *arg)
{
	thread_arg *a = arg;
	pthread_barrier_wait(a->start);
	run_job(a->j);
	return NULL;
}

static bool same_bytes(const char *a, size_t na, const char *b, size_t nb)
{
	return na == nb && (!na || !memcmp(a, b, na));
}

/* Compares the threaded result t with the single-threaded reference r. */
static int compare(const job *r, const job *t)
{
	int bad = 0;
#define DIFF(cond, what) \
	do { \
		if (!(cond)) { \
			fprintf(stderr, "FAIL %s: %s differs from the single-threaded run\n", r->path, what); \
			bad = 1; \
		} \
	} while (0)
	DIFF(r->status == t->status, "status");
	DIFF(r->equiv == t->equiv && !strcmp(r->equiv_msg, t->equiv_msg), "equivalence verdict");
	DIFF(same_bytes(r->diags, r->ndiags, t->diags, t->ndiags), "diagnostics");
	DIFF(same_bytes(r->remarks, r->nremarks, t->remarks, t->nremarks), "remarks");
	DIFF(same_bytes(r->printed.data, r->printed.len, t->printed.data, t->printed.len), "printed module");
	DIFF(same_bytes(r->proto.data, r->proto.len, t->proto.data, t->proto.len), "proto bytes");
#undef DIFF
	return bad;
}

int main(int argc, char **argv)
{
	if (argc != NTHREADS + 1) {
		fprintf(stderr, "usage: test_threads FILE x %d\n", NTHREADS);
		return 2;
	}
	char *texts[NTHREADS];
	size_t lens[NTHREADS];
	for (int k = 0; k < NTHREADS; k++) {
		hilo_diags d;
		hilo_diags_init(&d);
		texts[k] = hilo_read_file(argv[k + 1], &lens[k], &d);
		hilo_diags_print(stderr, &d);
		hilo_diags_free(&d);
		if (!texts[k])
			return 1;
	}
	/* the single-threaded reference */
	job ref[NTHREADS];
	int changed = 0, checked = 0;
	for (int k = 0; k < NTHREADS; k++) {
		ref[k] = (job){ .path = argv[k + 1], .text = texts[k], .len = lens[k] };
		run_job(&ref[k]);
		if (ref[k].status != HILO_DRIVER_OK || !ref[k].printed.len || ref[k].printed.oom) {
			fprintf(stderr, "FAIL %s: the single-threaded job failed (status %d):\n%s", argv[k + 1],
				ref[k].status, ref[k].diags ? ref[k].diags : "");
			return 1;
		}
		changed += !same_bytes(ref[k].printed.data, ref[k].printed.len, texts[k], lens[k]);
		checked += ref[k].equiv == 0;
	}
	int bad = 0;
	for (int round = 0; round < ROUNDS; round++) {
		job jobs[NTHREADS];
		pthread_t tid[NTHREADS];
		thread_arg args[NTHREADS];
		pthread_barrier_t start;
		pthread_barrier_init(&start, NULL, NTHREADS);
		for (int k = 0; k < NTHREADS; k++) {
			int f = (k + round) % NTHREADS;
			jobs[k] = (job){ .path = argv[f + 1], .text = texts[f], .len = lens[f] };
		}
		for (int k = 0; k < NTHREADS; k++)
			if ((args[k] = (thread_arg){ &jobs[k], &start },
			     pthread_create(&tid[k], NULL, thread_main, &args[k])) != 0) {
				fprintf(stderr, "FAIL: pthread_create\n");
				return 1;
			}
		for (int k = 0; k < NTHREADS; k++)
			pthread_join(tid[k], NULL);
		pthread_barrier_destroy(&start);
		for (int k = 0; k < NTHREADS; k++) {
			bad |= compare(&ref[(k + round) % NTHREADS], &jobs[k]);
			free_job(&jobs[k]);
		}
	}
	for (int k = 0; k < NTHREADS; k++) {
		free_job(&ref[k]);
		free(texts[k]);
	}
	printf("%d threads x %d rounds: %d modules (%d rewritten by the pipeline, %d checked equivalent): %s\n",
		NTHREADS, ROUNDS, NTHREADS, changed, checked, bad ? "DIFFERENT" : "identical to the single-threaded run");
	return bad;
}
