/* tools/common/batch.c - hilo-opt --batch (see batch.h).
 *
 *   operands --expand--> modules (a folder: its *.hlo, *.pb, *.pbtxt,
 *            not recursive, sorted by name)
 *   refuse   two modules with one file name; --out-dir = an input's folder
 *   workers  take the next module, with -j 2 and up the largest file first
 *            (a long module started last would keep one thread busy after
 *            the others end): read, parse, verify, passes (+ check),
 *            write OUT_DIR/NAME atomically (hilo_write_output, as -o)
 *   in order each finished module's diagnostics, once all before it are
 *            printed (one lock, so no two modules' lines interleave)
 *   summary  the table on stdout, --batch-summary as JSON
 *
 * The output form follows the output's name as -o's does: NAME.pb a
 * binary proto in the form read, NAME.pbtxt a text proto, anything else
 * HLO text in --print-style; so each result is byte for byte what
 * `hilo-opt IN --passes=... -o OUT_DIR/NAME` writes. A module that fails
 * gets no output (a file of an earlier run stays, as with -o).
 */
#include "batch.h"

#include "cli.h"
#include "hilo/check.h"
#include "hilo/driver.h"
#include "hilo/eval.h"
#include "hilo/proto.h"
#include "hilo/verify.h"
#include "support/json.h"

#include <dirent.h>
#include <errno.h>
#include <pthread.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <time.h>
#include <unistd.h>

enum { ST_OK = 0, ST_INPUT = 1, ST_USAGE = 2, ST_INTERNAL = 3, ST_EQUIV = 4 };

/* One module: its paths, then what its run found. */
typedef struct job {
	char *path;            /* the input, as given or as DIR/NAME */
	char *out_path;        /* OUT_DIR/NAME */
	int status;            /* ST_* */
	bool parsed;           /* before is known */
	bool ran;              /* the passes ran to the end: after, rewrites known */
	uint64_t before, after, rewrites;
	hilo_validate_summary vs; /* with --check-equivalence (=module: one module's verdict) */
	double seconds;
	char *message;         /* the first error, "FILE:LINE:COL: MSG", or NULL */
	hilo_diags diags;      /* printed and freed in input order */
	bool done;
} job;

typedef struct batch {
	const batch_config *c;
	job *jobs;
	size_t n;
	pthread_mutex_t lock;  /* next, printed, jobs[].done */
	size_t *order;         /* the modules by decreasing input size */
	size_t next;           /* order[next] is the next module a worker takes */
	size_t threads;        /* the workers (1: the main thread alone) */
	size_t printed;        /* modules whose diagnostics are out */
} batch;

static double now_seconds(void)
{
	struct timespec ts;
	clock_gettime(CLOCK_MONOTONIC, &ts);
	return (double)ts.tv_sec + (double)ts.tv_nsec * 1e-9;
}

static const char *base_name(const char *path)
{
	const char *s = strrchr(path, '/');
	return s ? s + 1 : path;
}

static bool ends_with(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n > k && !strcmp(s + n - k, suffix);
}

static char *join(const char *dir, const char *name)
{
	size_t n = strlen(dir);
	while (n > 1 && dir[n - 1] == '/')
		n--;
	size_t len = n + 1 + strlen(name) + 1;
	char *p = malloc(len);
	if (p)
		snprintf(p, len, "%.*s/%s", (int)n, dir, name);
	return p;
}

/* ---- per module ---------------------------------------------------- */

/* The passes and the equivalence check, as hilo-opt runs them on one
 * module (tools/hilo-opt.c run_passes), with the counts kept for the
 * table instead of printed. */
static int run_passes(const batch_config *c, job *j, hilo_module *m, const char *text,
	size_t len)
{
	hilo_diags *d = &j->diags;
	hilo_driver_opts dopts = {
		.filename = j->path,
		.verify_each = c->verify_each,
		.unroll_markers = c->unroll_markers,
		.assume_equivalent_kernels = c->assume_equivalent_kernels,
		.assume_no_signed_zeros = c->assume_no_signed_zeros,
		.disable_slice_move_from_param = c->disable_slice_move,
	};
	hilo_validator *val = NULL;
	if (c->equiv_n && !c->equiv_module) {
		hilo_validate_opts vo = {.inputs = c->equiv_n, .seed = c->seed, .budget = c->eval_budget,
			.filename = j->path, .zero_sign_insensitive = c->assume_no_signed_zeros};
		if (!(val = hilo_validator_create(&vo))) {
			hilo_diag_oom(d, j->path);
			return ST_INPUT;
		}
		dopts.validate = val;
	}
	hilo_pass_stat *st = calloc(c->npasses ? c->npasses : 1, sizeof *st);
	if (!st) {
		hilo_validator_destroy(val);
		hilo_diag_oom(d, j->path);
		return ST_INPUT;
	}
	hilo_driver_status s = hilo_run_passes(m, c->passes, c->npasses, &dopts, d, st);
	for (size_t k = 0; k < c->npasses && st[k].pass; k++)
		j->rewrites += st[k].rewrites;
	free(st);
	j->after = hilo_module_instr_count(m);
	if (val) {
		hilo_validator_summary(val, &j->vs);
		hilo_validator_destroy(val);
	}
	if (s == HILO_DRIVER_PASS_ERROR)
		return ST_INPUT;
	if (s == HILO_DRIVER_VERIFY_ERROR)
		return ST_INTERNAL;
	j->ran = true;
	if (val) {
		if (j->vs.failed)
			return ST_EQUIV;
		if (c->equiv_strict && j->vs.skipped) {
			hilo_diag_add(d, HILO_SEV_ERROR, j->path, 0, 0, NULL, 0,
				"equivalence check failed: %llu rewrite%s skipped (--check-equivalence=strict)",
				(unsigned long long)j->vs.skipped, j->vs.skipped == 1 ? "" : "s");
			return ST_EQUIV;
		}
		return ST_OK;
	}
	if (!c->equiv_n)
		return ST_OK;
	/* =module: the input parsed again is the "before" program */
	hilo_equiv_report r;
	cli_check_module(c->format, text, len, j->path, m, c->equiv_n, c->seed, c->eval_budget,
		c->assume_no_signed_zeros, &r);
	/* the verdict columns count the module: one of them is 1 */
	switch (r.status) {
	case 0:
		j->vs.tested = 1;
		return ST_OK;
	case 1:
		j->vs.failed = 1;
		hilo_diag_add(d, HILO_SEV_ERROR, j->path, 0, 0, NULL, 0, "equivalence check failed: %s",
			r.message);
		return ST_EQUIV;
	case 2:
		j->vs.skipped = 1;
		if (!c->equiv_strict)
			return ST_OK;
		hilo_diag_add(d, HILO_SEV_ERROR, j->path, 0, 0, NULL, 0,
			"equivalence check failed: skipped (%s; --check-equivalence=strict)", r.message);
		return ST_EQUIV;
	default:
		hilo_diag_oom(d, j->path);
		return ST_INPUT;
	}
}

/* The result in the form its name asks for, as -o OUT writes it. */
static int write_result(const batch_config *c, job *j, const hilo_module *m)
{
	hilo_diags *d = &j->diags;
	hilo_buf out;
	hilo_buf_init(&out);
	bool ok = ends_with(j->out_path, ".pb") ? hilo_proto_write_as(&out, m, HILO_PROTO_AS_READ, d)
		: ends_with(j->out_path, ".pbtxt") ? hilo_proto_write_text(&out, m, HILO_PROTO_AS_READ, d)
		: hilo_print_text(&out, m, c->style);
	if (ok && out.oom) {
		hilo_diag_oom(d, j->path);
		ok = false;
	}
	if (ok)
		ok = hilo_write_output(j->out_path, out.data ? out.data : "", out.len, d);
	hilo_buf_free(&out);
	return ok ? ST_OK : ST_INPUT;
}

static void first_error(job *j)
{
	const hilo_diag *g = NULL;
	for (size_t k = 0; k < j->diags.n && !g; k++)
		if (j->diags.items[k].sev == HILO_SEV_ERROR)
			g = &j->diags.items[k];
	if (!g) {
		if (j->status != ST_OK && (j->message = malloc(32)))
			strcpy(j->message, j->diags.oom ? "out of memory" : "failed");
		return;
	}
	const char *file = g->file ? g->file : j->path;
	size_t len = strlen(file) + strlen(g->msg) + 48;
	if (!(j->message = malloc(len)))
		return;
	if (g->line && g->col)
		snprintf(j->message, len, "%s:%d:%d: %s", file, g->line, g->col, g->msg);
	else if (g->line)
		snprintf(j->message, len, "%s:%d: %s", file, g->line, g->msg);
	else
		snprintf(j->message, len, "%s: %s", file, g->msg);
	for (char *p = j->message; *p; p++)
		if (*p == '\n' || *p == '\t')
			*p = ' ';
}

static void run_module(const batch_config *c, job *j)
{
	double t0 = now_seconds();
	hilo_diags *d = &j->diags;
	size_t len = 0;
	char *text = cli_read_input(j->path, "'HloModule'", &len, d);
	hilo_module *m = text ? cli_parse_module(c->format, text, len, j->path, d) : NULL;
	if (!m) {
		j->status = ST_INPUT;
	} else {
		j->parsed = true;
		j->before = j->after = hilo_module_instr_count(m);
		if (!hilo_verify(m, j->path, d))
			j->status = ST_INPUT;
		else if ((j->status = run_passes(c, j, m, text, len)) == ST_OK)
			j->status = write_result(c, j, m);
		cli_attach_source_lines(d, 0, text, len);
		hilo_module_destroy(m);
	}
	free(text);
	first_error(j);
	j->seconds = now_seconds() - t0;
}

/* Prints the diagnostics of every finished module no earlier module is
 * still running before; b->lock held. */
static void print_ready(batch *b)
{
	while (b->printed < b->n && b->jobs[b->printed].done) {
		job *j = &b->jobs[b->printed++];
		hilo_diags_print(stderr, &j->diags);
		hilo_diags_free(&j->diags);
	}
	fflush(stderr);
}

static void *worker(void *arg)
{
	batch *b = arg;
	for (;;) {
		pthread_mutex_lock(&b->lock);
		size_t k = b->next < b->n ? b->order[b->next++] : b->n;
		pthread_mutex_unlock(&b->lock);
		if (k == b->n)
			return NULL;
		run_module(b->c, &b->jobs[k]);
		pthread_mutex_lock(&b->lock);
		b->jobs[k].done = true;
		print_ready(b);
		pthread_mutex_unlock(&b->lock);
	}
}

/* ---- before anything runs ------------------------------------------ */

static bool module_name(const char *name)
{
	return ends_with(name, ".hlo") || ends_with(name, ".pb") || ends_with(name, ".pbtxt");
}

typedef struct sized {
	long long size;
	size_t k;
} sized;

/* The largest input first; ties in input order. */
static int by_size(const void *a, const void *b)
{
	const sized *x = a, *y = b;
	if (x->size != y->size)
		return x->size > y->size ? -1 : 1;
	return x->k < y->k ? -1 : x->k > y->k;
}

static int by_string(const void *a, const void *b)
{
	return strcmp(*(char *const *)a, *(char *const *)b);
}

static bool add_job(batch *b, size_t *cap, char *path)
{
	if (!path)
		return false;
	if (b->n == *cap) {
		size_t nc = *cap ? *cap * 2 : 16;
		job *nj = realloc(b->jobs, nc * sizeof *nj);
		if (!nj) {
			free(path);
			return false;
		}
		b->jobs = nj;
		*cap = nc;
	}
	job *j = &b->jobs[b->n++];
	memset(j, 0, sizeof *j);
	j->path = path;
	hilo_diags_init(&j->diags);
	j->diags.max_errors = 20; /* as hilo-opt on one module */
	return true;
}

/* A folder operand: its module files, sorted; anything else: one file
 * (a missing one is that module's error, reported in its row). */
static int expand(const batch_config *c, batch *b)
{
	size_t cap = 0;
	for (size_t k = 0; k < c->noperands; k++) {
		const char *op = c->operands[k];
		struct stat st;
		if (!strcmp(op, "-")) {
			fprintf(stderr, "%s: error: --batch reads files and folders, not standard input "
				"('-')\n", c->tool);
			return ST_USAGE;
		}
		if (stat(op, &st) != 0 || !S_ISDIR(st.st_mode)) {
			if (!add_job(b, &cap, strdup(op)))
				goto oom;
			continue;
		}
		DIR *dir = opendir(op);
		if (!dir) {
			fprintf(stderr, "%s: error: cannot read the folder: %s\n", op, strerror(errno));
			return ST_INPUT;
		}
		char **names = NULL;
		size_t n = 0, ncap = 0;
		bool ok = true;
		for (struct dirent *e; ok && (e = readdir(dir));) {
			if (e->d_name[0] == '.' || !module_name(e->d_name))
				continue;
			char *p = join(op, e->d_name);
			struct stat fs;
			if (p && (stat(p, &fs) != 0 || S_ISDIR(fs.st_mode))) {
				free(p);
				continue;
			}
			if (n == ncap) {
				ncap = ncap ? ncap * 2 : 64;
				char **nn = realloc(names, ncap * sizeof *nn);
				ok = nn != NULL;
				names = ok ? nn : names;
			}
			if (ok && (ok = p != NULL))
				names[n++] = p;
			else
				free(p);
		}
		closedir(dir);
		if (n)
			qsort(names, n, sizeof *names, by_string);
		size_t added = 0;
		if (ok) {
			while (added < n && add_job(b, &cap, names[added]))
				added++;
			if (added < n) {
				ok = false;
				added++; /* add_job freed it */
			}
		}
		for (size_t i = added; i < n; i++)
			free(names[i]);
		free(names);
		if (!ok)
			goto oom;
	}
	if (!b->n) {
		fprintf(stderr, "%s: error: --batch: no modules (the folders hold no *.hlo, *.pb or "
			"*.pbtxt file)\n", c->tool);
		return ST_INPUT;
	}
	return ST_OK;
oom:
	fprintf(stderr, "%s: error: out of memory\n", c->tool);
	return ST_INPUT;
}

/* Two inputs of one file name would write one output: refused. */
static int same_names(const batch_config *c, batch *b)
{
	const char **v = malloc(b->n * sizeof *v);
	if (!v) {
		fprintf(stderr, "%s: error: out of memory\n", c->tool);
		return ST_INPUT;
	}
	for (size_t k = 0; k < b->n; k++)
		v[k] = b->jobs[k].path;
	int rc = ST_OK;
	for (size_t k = 0; k < b->n && rc == ST_OK; k++)
		for (size_t i = 0; i < k; i++)
			if (!strcmp(base_name(v[i]), base_name(v[k]))) {
				fprintf(stderr, "%s: error: --batch: inputs '%s' and '%s' have the same name: "
					"both results would be %s/%s\n", c->tool, v[i], v[k], c->out_dir,
					base_name(v[k]));
				rc = ST_USAGE;
				break;
			}
	free(v);
	return rc;
}

/* --out-dir must not be the folder an input is in (its result would
 * replace it), nor hold a link to an input under the input's name. */
static int overwrites_input(const batch_config *c, batch *b)
{
	struct stat ds;
	if (stat(c->out_dir, &ds) != 0)
		return ST_OK; /* created below: it holds no input */
	for (size_t k = 0; k < b->n; k++) {
		job *j = &b->jobs[k];
		const char *p = j->path, *s = strrchr(p, '/');
		char *folder = s ? strndup(p, (size_t)(s - p) + (s == p)) : strdup(".");
		struct stat fs, is, os;
		bool same = folder && stat(folder, &fs) == 0 && fs.st_dev == ds.st_dev &&
			fs.st_ino == ds.st_ino;
		free(folder);
		same = same || (stat(p, &is) == 0 && stat(j->out_path, &os) == 0 &&
			is.st_dev == os.st_dev && is.st_ino == os.st_ino);
		if (same) {
			fprintf(stderr, "%s: error: --batch: --out-dir '%s' holds input '%s': its result "
				"would replace it (give another --out-dir)\n", c->tool, c->out_dir, p);
			return ST_USAGE;
		}
	}
	return ST_OK;
}

/* ---- the summary --------------------------------------------------- */

static void put_count(FILE *f, bool known, uint64_t v, int width)
{
	if (known)
		fprintf(f, " %*llu", width, (unsigned long long)v);
	else
		fprintf(f, " %*s", width, "-");
}

static const char *status_name(int st)
{
	return st == ST_OK ? "ok" : st == ST_EQUIV ? "check-failed" : "error";
}

typedef struct totals {
	uint64_t before, after, rewrites, proved, tested, skipped, failed;
	size_t ok, errors, check_failed;
	double module_seconds;
} totals;

static totals add_up(const batch *b)
{
	totals t = {0};
	for (size_t k = 0; k < b->n; k++) {
		const job *j = &b->jobs[k];
		if (j->parsed)
			t.before += j->before;
		if (j->ran) {
			t.after += j->after;
			t.rewrites += j->rewrites;
		}
		t.proved += j->vs.proved;
		t.tested += j->vs.tested;
		t.skipped += j->vs.skipped;
		t.failed += j->vs.failed;
		*(j->status == ST_OK ? &t.ok : j->status == ST_EQUIV ? &t.check_failed : &t.errors) += 1;
		t.module_seconds += j->seconds;
	}
	return t;
}

/* The table: one row a module in input order, then the totals. */
static void print_table(const batch *b, const totals *t, double wall)
{
	const batch_config *c = b->c;
	bool checked = c->equiv_n != 0;
	int w = 6;
	for (size_t k = 0; k < b->n; k++)
		if ((int)strlen(b->jobs[k].path) > w)
			w = (int)strlen(b->jobs[k].path);
	char total[64];
	snprintf(total, sizeof total, "total (%zu modules)", b->n);
	if ((int)strlen(total) > w)
		w = (int)strlen(total);
	printf("%-*s %10s %10s %9s", w, "module", "before", "after", "rewrites");
	if (checked)
		printf(" %7s %7s %7s %7s", "proved", "tested", "skipped", "failed");
	printf(" %10s  %s\n", "time_ms", "status");
	for (size_t k = 0; k < b->n; k++) {
		const job *j = &b->jobs[k];
		printf("%-*s", w, j->path);
		put_count(stdout, j->parsed, j->before, 10);
		put_count(stdout, j->ran, j->after, 10);
		put_count(stdout, j->ran, j->rewrites, 9);
		if (checked) {
			bool v = j->ran;
			put_count(stdout, v, j->vs.proved, 7);
			put_count(stdout, v, j->vs.tested, 7);
			put_count(stdout, v, j->vs.skipped, 7);
			put_count(stdout, v, j->vs.failed, 7);
		}
		printf(" %10.3f  %s%s%s\n", j->seconds * 1e3, status_name(j->status),
			j->message ? ": " : "", j->message ? j->message : "");
	}
	printf("%-*s %10llu %10llu %9llu", w, total, (unsigned long long)t->before,
		(unsigned long long)t->after, (unsigned long long)t->rewrites);
	if (checked)
		printf(" %7llu %7llu %7llu %7llu", (unsigned long long)t->proved,
			(unsigned long long)t->tested, (unsigned long long)t->skipped,
			(unsigned long long)t->failed);
	printf(" %10.3f  %zu ok, %zu error%s, %zu check-failed; %zu thread%s, wall %.3f ms\n",
		t->module_seconds * 1e3, t->ok, t->errors, t->errors == 1 ? "" : "s", t->check_failed,
		b->threads, b->threads == 1 ? "" : "s", wall * 1e3);
}

static void json_count(hilo_buf *o, const char *key, bool known, uint64_t v)
{
	if (known)
		hilo_buf_printf(o, ", \"%s\": %llu", key, (unsigned long long)v);
	else
		hilo_buf_printf(o, ", \"%s\": null", key);
}

static void json_verdicts(hilo_buf *o, bool known, uint64_t p, uint64_t t, uint64_t s,
	uint64_t f)
{
	if (!known) {
		hilo_buf_puts(o, ", \"verdicts\": null");
		return;
	}
	hilo_buf_printf(o, ", \"verdicts\": {\"proved\": %llu, \"tested\": %llu, \"skipped\": %llu, "
		"\"failed\": %llu}", (unsigned long long)p, (unsigned long long)t,
		(unsigned long long)s, (unsigned long long)f);
}

/* --batch-summary: the table's content as one JSON object (keys in
 * man/hilo-opt.1). */
static bool write_json(const batch *b, const totals *t, double wall, int status)
{
	const batch_config *c = b->c;
	bool checked = c->equiv_n != 0;
	hilo_buf o;
	hilo_buf_init(&o);
	hilo_buf_puts(&o, "{\"modules\": [");
	for (size_t k = 0; k < b->n; k++) {
		const job *j = &b->jobs[k];
		hilo_buf_puts(&o, k ? ",\n  {\"input\": " : "\n  {\"input\": ");
		hilo_json_str_buf(&o, j->path);
		hilo_buf_puts(&o, ", \"output\": ");
		if (j->status == ST_OK)
			hilo_json_str_buf(&o, j->out_path);
		else
			hilo_buf_puts(&o, "null");
		hilo_buf_printf(&o, ", \"status\": \"%s\", \"exit_status\": %d", status_name(j->status),
			j->status);
		json_count(&o, "instructions_before", j->parsed, j->before);
		json_count(&o, "instructions_after", j->ran, j->after);
		json_count(&o, "rewrites", j->ran, j->rewrites);
		json_verdicts(&o, checked && j->ran, j->vs.proved, j->vs.tested, j->vs.skipped,
			j->vs.failed);
		hilo_buf_printf(&o, ", \"seconds\": %.6f, \"message\": ", j->seconds);
		if (j->message)
			hilo_json_str_buf(&o, j->message);
		else
			hilo_buf_puts(&o, "null");
		hilo_buf_putc(&o, '}');
	}
	hilo_buf_printf(&o, "\n],\n\"totals\": {\"modules\": %zu, \"ok\": %zu, \"errors\": %zu, "
		"\"check_failed\": %zu, \"instructions_before\": %llu, \"instructions_after\": %llu, "
		"\"rewrites\": %llu", b->n, t->ok, t->errors, t->check_failed,
		(unsigned long long)t->before, (unsigned long long)t->after,
		(unsigned long long)t->rewrites);
	json_verdicts(&o, checked, t->proved, t->tested, t->skipped, t->failed);
	hilo_buf_printf(&o, ", \"module_seconds\": %.6f, \"wall_seconds\": %.6f, "
		"\"exit_status\": %d}}\n", t->module_seconds, wall, status);
	hilo_diags d;
	hilo_diags_init(&d);
	bool ok = !o.oom && hilo_write_output(c->summary_path, o.data, o.len, &d);
	if (o.oom)
		fprintf(stderr, "%s: error: out of memory writing the batch summary\n", c->tool);
	hilo_diags_print(stderr, &d);
	hilo_diags_free(&d);
	hilo_buf_free(&o);
	return ok;
}

/* ---- the run ------------------------------------------------------- */

static int prepare(const batch_config *c, batch *b)
{
	int rc = expand(c, b);
	if (rc == ST_OK)
		rc = same_names(c, b);
	for (size_t k = 0; rc == ST_OK && k < b->n; k++)
		if (!(b->jobs[k].out_path = join(c->out_dir, base_name(b->jobs[k].path)))) {
			fprintf(stderr, "%s: error: out of memory\n", c->tool);
			rc = ST_INPUT;
		}
	if (rc == ST_OK)
		rc = overwrites_input(c, b);
	sized *v = rc == ST_OK ? malloc(b->n * sizeof *v) : NULL;
	if (rc == ST_OK && (!v || !(b->order = malloc(b->n * sizeof *b->order)))) {
		fprintf(stderr, "%s: error: out of memory\n", c->tool);
		rc = ST_INPUT;
	}
	if (rc == ST_OK) {
		for (size_t k = 0; k < b->n; k++) {
			struct stat st;
			v[k] = (sized){stat(b->jobs[k].path, &st) == 0 ? (long long)st.st_size : 0, k};
		}
		if (c->jobs > 1) /* one thread: input order, each module's lines as it ends */
			qsort(v, b->n, sizeof *v, by_size);
		for (size_t k = 0; k < b->n; k++)
			b->order[k] = v[k].k;
	}
	free(v);
	if (rc == ST_OK) {
		hilo_diags d;
		hilo_diags_init(&d);
		if (!cli_make_dir(c->out_dir, "--out-dir", NULL, &d))
			rc = ST_INPUT;
		hilo_diags_print(stderr, &d);
		hilo_diags_free(&d);
	}
	return rc;
}

int batch_run(const batch_config *cfg)
{
	batch_config c = *cfg;
	if (!c.jobs) {
		long cpus = sysconf(_SC_NPROCESSORS_ONLN);
		c.jobs = cpus > 0 ? (unsigned)cpus : 1;
	}
	batch b = {.c = &c};
	int rc = prepare(&c, &b);
	if (rc == ST_OK) {
		double t0 = now_seconds();
		size_t threads = c.jobs < b.n ? c.jobs : b.n;
		b.threads = 1;
		pthread_mutex_init(&b.lock, NULL);
		pthread_t *tid = threads > 1 ? calloc(threads, sizeof *tid) : NULL;
		size_t started = 0;
		while (started < threads && tid && pthread_create(&tid[started], NULL, worker, &b) == 0)
			started++;
		if (threads > 1 && started < threads)
			fprintf(stderr, "%s: warning: --batch: %zu of %zu threads started\n", c.tool,
				started, threads);
		if (started)
			b.threads = started;
		else
			worker(&b); /* -j 1, or no thread could start: this one */
		for (size_t k = 0; k < started; k++)
			pthread_join(tid[k], NULL);
		free(tid);
		pthread_mutex_destroy(&b.lock);
		double wall = now_seconds() - t0;
		for (size_t k = 0; k < b.n; k++)
			if (b.jobs[k].status > rc)
				rc = b.jobs[k].status;
		totals t = add_up(&b);
		print_table(&b, &t, wall);
		fflush(stdout);
		if (c.summary_path && !write_json(&b, &t, wall, rc) && rc == ST_OK)
			rc = ST_INPUT;
	}
	for (size_t k = 0; k < b.n; k++) {
		free(b.jobs[k].path);
		free(b.jobs[k].out_path);
		free(b.jobs[k].message);
		hilo_diags_free(&b.jobs[k].diags);
	}
	free(b.jobs);
	free(b.order);
	return rc;
}
