/* The flat C API (include/hilo/capi.h): handles over modules for
 * foreign-function callers. Everything here is glue over the library's
 * own entry points (parser, proto reader/writer, verifier, driver,
 * evaluator); results are malloc'd strings and buffers, errors are the
 * printed diagnostics. */
#include "hilo/capi.h"
#include "hilo/check.h"
#include "hilo/driver.h"
#include "hilo/eval.h"
#include "hilo/hlo_text.h"
#include "hilo/proto.h"
#include "hilo/verify.h"
#include "support/json.h"

#include <stdlib.h>
#include <string.h>

struct hilo_handle {
	hilo_module *m;
	char *filename;
	/* the last evaluation: its module copy owns the output literals */
	hilo_module *eval_m;
	const hilo_literal **outs;
	size_t nouts;
};

void hilo_free(void *p)
{
	free(p);
}

/* Stores the printed diagnostics (or msg when there are none) in *error. */
static void set_error(char **error, const hilo_diags *d, const char *msg)
{
	if (!error)
		return;
	char *s = NULL;
	size_t len = 0;
	FILE *f = open_memstream(&s, &len);
	if (!f) {
		*error = NULL;
		return;
	}
	if (d && d->n)
		hilo_diags_print(f, d);
	else
		fprintf(f, "error: %s\n", msg ? msg : "failed");
	fclose(f);
	*error = s;
}

static hilo_handle *wrap(hilo_module *m, const char *filename, hilo_diags *d, char **error)
{
	if (!m) {
		set_error(error, d, "cannot read the module");
		return NULL;
	}
	if (!hilo_verify(m, filename, d)) {
		set_error(error, d, "the module does not verify");
		hilo_module_destroy(m);
		return NULL;
	}
	hilo_handle *h = calloc(1, sizeof *h);
	char *fn = strdup(filename);
	if (!h || !fn) {
		free(h);
		free(fn);
		hilo_module_destroy(m);
		set_error(error, NULL, "out of memory");
		return NULL;
	}
	h->m = m;
	h->filename = fn;
	return h;
}

hilo_handle *hilo_handle_from_text(const char *text, size_t len, const char *filename,
	char **error)
{
	const char *fn = filename ? filename : "<text>";
	hilo_diags d;
	hilo_diags_init(&d);
	hilo_handle *h = wrap(hilo_parse_text(text ? text : "", text ? len : 0, fn, &d), fn, &d, error);
	hilo_diags_free(&d);
	return h;
}

hilo_handle *hilo_handle_from_proto(const void *data, size_t len, const char *filename,
	char **error)
{
	const char *fn = filename ? filename : "<proto>";
	hilo_diags d;
	hilo_diags_init(&d);
	hilo_handle *h = wrap(hilo_proto_read(data ? data : "", data ? len : 0, fn, &d), fn, &d, error);
	hilo_diags_free(&d);
	return h;
}

hilo_handle *hilo_handle_load(const char *path, char **error)
{
	hilo_diags d;
	hilo_diags_init(&d);
	size_t len = 0;
	char *buf = path ? hilo_read_file(path, &len, &d) : NULL;
	hilo_handle *h = NULL;
	if (!buf) {
		set_error(error, &d, "no path given");
	} else {
		hilo_module *m = hilo_proto_looks_binary(buf, len)
			? hilo_proto_read(buf, len, path, &d) : hilo_parse_text(buf, len, path, &d);
		h = wrap(m, path, &d, error);
	}
	free(buf);
	hilo_diags_free(&d);
	return h;
}

static void drop_eval(hilo_handle *h)
{
	if (h->eval_m)
		hilo_module_destroy(h->eval_m);
	free(h->outs);
	h->eval_m = NULL;
	h->outs = NULL;
	h->nouts = 0;
}

void hilo_handle_free(hilo_handle *h)
{
	if (!h)
		return;
	drop_eval(h);
	hilo_module_destroy(h->m);
	free(h->filename);
	free(h);
}

hilo_module *hilo_handle_module(hilo_handle *h)
{
	return h ? h->m : NULL;
}

char *hilo_handle_to_text(hilo_handle *h, const char *style, char **error)
{
	hilo_print_style st;
	if (!style || !strcmp(style, "auto"))
		st = HILO_STYLE_AUTO;
	else if (!strcmp(style, "default"))
		st = HILO_STYLE_DEFAULT;
	else if (!strcmp(style, "long"))
		st = HILO_STYLE_LONG;
	else if (!strcmp(style, "short"))
		st = HILO_STYLE_SHORT;
	else {
		set_error(error, NULL, "unknown print style (auto, default, long, short)");
		return NULL;
	}
	hilo_buf b;
	hilo_buf_init(&b);
	if (!hilo_print_text(&b, h->m, st)) {
		hilo_buf_free(&b);
		set_error(error, NULL, "out of memory while printing");
		return NULL;
	}
	char *s = malloc(b.len + 1);
	if (s) {
		if (b.len)
			memcpy(s, b.data, b.len);
		s[b.len] = 0;
	} else {
		set_error(error, NULL, "out of memory");
	}
	hilo_buf_free(&b);
	return s;
}

void *hilo_handle_to_proto(hilo_handle *h, size_t *len, char **error)
{
	hilo_diags d;
	hilo_diags_init(&d);
	hilo_buf b;
	hilo_buf_init(&b);
	void *out = NULL;
	if (!hilo_proto_write(&b, h->m, &d)) {
		set_error(error, &d, "cannot write the proto");
	} else if ((out = malloc(b.len ? b.len : 1))) {
		if (b.len)
			memcpy(out, b.data, b.len);
		*len = b.len;
	} else {
		set_error(error, NULL, "out of memory");
	}
	hilo_buf_free(&b);
	hilo_diags_free(&d);
	return out;
}

/* ---- passes ------------------------------------------------------------- */

/* A memory stream for building JSON; finish() returns the text. */
typedef struct jout {
	FILE *f;
	char *s;
	size_t len;
} jout;

static bool jopen(jout *j)
{
	j->s = NULL;
	j->len = 0;
	j->f = open_memstream(&j->s, &j->len);
	return j->f != NULL;
}

static char *jfinish(jout *j)
{
	if (fclose(j->f) != 0) {
		free(j->s);
		return NULL;
	}
	return j->s;
}

char *hilo_passes_json(void)
{
	jout j;
	if (!jopen(&j))
		return NULL;
	size_t n;
	const hilo_pass *p = hilo_pass_list(&n);
	fputc('[', j.f);
	for (size_t k = 0; k < n; k++) {
		fputs(k ? ", {\"name\": " : "{\"name\": ", j.f);
		hilo_json_str(j.f, p[k].name);
		fputs(", \"description\": ", j.f);
		hilo_json_str(j.f, p[k].description);
		fputs(p[k].test_only ? ", \"test_only\": true" : ", \"test_only\": false", j.f);
		fputs(", \"aliases\": [", j.f);
		for (size_t a = 0; hilo_pass_alias(&p[k], a); a++) {
			fputs(a ? ", " : "", j.f);
			hilo_json_str(j.f, hilo_pass_alias(&p[k], a));
		}
		fputs("]}", j.f);
	}
	fputc(']', j.f);
	return jfinish(&j);
}

char *hilo_pipelines_json(void)
{
	static const char *const names[] = {"neuron"};
	jout j;
	if (!jopen(&j))
		return NULL;
	fputc('{', j.f);
	for (size_t k = 0; k < sizeof names / sizeof *names; k++) {
		size_t n;
		const char *const *ps = hilo_pipeline_passes(names[k], &n);
		if (k)
			fputs(", ", j.f);
		hilo_json_str(j.f, names[k]);
		fputs(": [", j.f);
		for (size_t i = 0; i < n; i++) {
			if (i)
				fputs(", ", j.f);
			hilo_json_str(j.f, ps[i]);
		}
		fputc(']', j.f);
	}
	fputc('}', j.f);
	return jfinish(&j);
}

enum { MAX_RUN = 256 };

/* Resolves "a,b,pipeline:neuron" into pass pointers; false + message. */
static bool resolve(const char *spec, const hilo_pass **out, size_t *n, char **error)
{
	*n = 0;
	const char *s = spec ? spec : "";
	while (*s) {
		const char *c = strchr(s, ',');
		size_t len = c ? (size_t)(c - s) : strlen(s);
		char name[256];
		if (len >= sizeof name) {
			set_error(error, NULL, "pass name too long");
			return false;
		}
		memcpy(name, s, len);
		name[len] = 0;
		const char *const *names = NULL;
		size_t nn = 0;
		if (!strncmp(name, "pipeline:", 9)) {
			names = hilo_pipeline_passes(name + 9, &nn);
			if (!names) {
				char msg[320];
				snprintf(msg, sizeof msg, "unknown pipeline '%s'", name + 9);
				set_error(error, NULL, msg);
				return false;
			}
		}
		for (size_t k = 0; k < (names ? nn : (len ? 1 : 0)); k++) {
			const char *pn = names ? names[k] : name;
			const hilo_pass *p = hilo_pass_find(pn);
			if (!p) {
				char msg[320];
				snprintf(msg, sizeof msg, "unknown pass '%s'", pn);
				set_error(error, NULL, msg);
				return false;
			}
			if (*n == MAX_RUN) {
				set_error(error, NULL, "too many passes");
				return false;
			}
			out[(*n)++] = p;
		}
		if (!c)
			break;
		s = c + 1;
	}
	return true;
}

/* Copies the remarks' JSON Lines into a JSON array body. */
static void remarks_array(FILE *f, const char *lines, size_t len)
{
	bool first = true;
	const char *p = lines, *e = lines + len;
	while (p < e) {
		const char *nl = memchr(p, '\n', (size_t)(e - p));
		const char *le = nl ? nl : e;
		if (le > p) {
			if (!first)
				fputs(", ", f);
			fwrite(p, 1, (size_t)(le - p), f);
			first = false;
		}
		p = le + 1;
	}
}

char *hilo_handle_run_passes(hilo_handle *h, const char *passes, int verify_each,
	const char *equivalence, int inputs, uint64_t seed, char **error)
{
	const hilo_pass *list[MAX_RUN];
	size_t n;
	if (!resolve(passes, list, &n, error))
		return NULL;
	/* "module": whole entry computation; "rewrites" (or "default"): the
	 * per-rewrite validator; "strict": the validator, a skipped rewrite
	 * fails too */
	bool module_mode = false, validate = false, strict = false;
	if (equivalence && *equivalence) {
		if (!strcmp(equivalence, "module"))
			module_mode = true;
		else if (!strcmp(equivalence, "rewrites") || !strcmp(equivalence, "default"))
			validate = true;
		else if (!strcmp(equivalence, "strict"))
			validate = strict = true;
		else {
			char msg[160];
			snprintf(msg, sizeof msg, "unknown equivalence mode '%.32s' (rewrites, strict, module)",
				equivalence);
			set_error(error, NULL, msg);
			return NULL;
		}
	}
	hilo_module *work = hilo_module_clone(h->m);
	if (!work) {
		set_error(error, NULL, "out of memory");
		return NULL;
	}
	char *rbuf = NULL;
	size_t rlen = 0;
	FILE *rf = open_memstream(&rbuf, &rlen);
	if (!rf) { /* the remarks would be dropped without a word */
		hilo_module_destroy(work);
		set_error(error, NULL, "out of memory");
		return NULL;
	}
	hilo_diags d;
	hilo_diags_init(&d);
	hilo_driver_opts o = {.filename = h->filename, .verify_each = verify_each != 0,
		.remarks = rf};
	hilo_validator *val = NULL;
	if (validate) {
		hilo_validate_opts vo = {.inputs = inputs > 0 ? inputs : 3, .seed = seed,
			.remarks = rf, .filename = h->filename};
		if (!(val = hilo_validator_create(&vo))) {
			fclose(rf);
			free(rbuf);
			hilo_module_destroy(work);
			set_error(error, NULL, "out of memory");
			return NULL;
		}
		o.validate = val;
	}
	hilo_pass_stat st[MAX_RUN];
	memset(st, 0, sizeof st);
	hilo_driver_status s = hilo_run_passes(work, list, n, &o, &d, st);
	bool ok = s == HILO_DRIVER_OK;
	/* never hand back IR the verifier rejects */
	if (ok && !hilo_verify(work, h->filename, &d)) {
		hilo_diag_add(&d, HILO_SEV_ERROR, h->filename, 0, 0, NULL, 0,
			"internal error: the passes produced IR the verifier rejects (last pass '%s')",
			n ? list[n - 1]->name : "none");
		ok = false;
	}
	hilo_validate_summary vs;
	memset(&vs, 0, sizeof vs);
	if (val) {
		hilo_validator_summary(val, &vs);
		hilo_validator_destroy(val);
		if (ok && vs.failed)
			ok = false; /* the validator's diagnostics say which rewrite */
		if (ok && strict && vs.skipped) {
			hilo_diag_add(&d, HILO_SEV_ERROR, h->filename, 0, 0, NULL, 0,
				"equivalence check failed: %llu rewrite(s) skipped (strict mode)",
				(unsigned long long)vs.skipped);
			ok = false;
		}
	}
	hilo_equiv_report r;
	memset(&r, 0, sizeof r);
	if (ok && module_mode) {
		hilo_check_equivalence(h->m, work, inputs > 0 ? inputs : 3, seed, NULL, &r);
		if (r.status == 3) { /* not a skipped check: a failed call */
			hilo_diag_oom(&d, h->filename);
			ok = false;
		} else if (r.status == 1) {
			hilo_diag_add(&d, HILO_SEV_ERROR, h->filename, 0, 0, NULL, 0,
				"equivalence check failed: %s", r.message);
			ok = false;
		}
	}
	/* a remark lost to a full stream fails the call like any other
	 * allocation failure */
	if (fclose(rf) != 0 && ok) {
		hilo_diag_oom(&d, h->filename);
		ok = false;
	}
	char *result = NULL;
	jout j;
	if (ok && jopen(&j)) {
		fputs("{\"passes\": [", j.f);
		for (size_t k = 0; k < n && st[k].pass; k++) {
			const char *res = st[k].result == HILO_PASS_CHANGED ? "changed"
				: st[k].result == HILO_PASS_UNCHANGED ? "unchanged" : "error";
			fprintf(j.f, "%s{\"pass\": ", k ? ", " : "");
			hilo_json_str(j.f, st[k].pass);
			fprintf(j.f, ", \"seconds\": %.6f, \"instrs_before\": %llu, \"instrs_after\": %llu, "
				"\"rewrites\": %llu, \"result\": \"%s\"}", st[k].seconds,
				(unsigned long long)st[k].instrs_before, (unsigned long long)st[k].instrs_after,
				(unsigned long long)st[k].rewrites, res);
		}
		fputs("], \"remarks\": [", j.f);
		if (rbuf)
			remarks_array(j.f, rbuf, rlen);
		fputs("], \"equivalence\": ", j.f);
		if (module_mode) {
			fputs("{\"mode\": \"module\", \"status\": ", j.f);
			hilo_json_str(j.f, r.status == 0 ? "equal" : "skipped");
			fputs(", \"message\": ", j.f);
			hilo_json_str(j.f, r.message);
			fputc('}', j.f);
		} else if (val) {
			fprintf(j.f, "{\"mode\": \"%s\", \"status\": \"%s\", \"rewrites\": %llu, "
				"\"proved\": %llu, \"tested\": %llu, \"skipped\": %llu, \"failed\": %llu, "
				"\"assumed\": %llu, \"inputs\": %d, \"message\": ", strict ? "strict" : "rewrites",
				vs.skipped ? "partial" : "equal",
				(unsigned long long)vs.rewrites, (unsigned long long)vs.proved,
				(unsigned long long)vs.tested, (unsigned long long)vs.skipped,
				(unsigned long long)vs.failed, (unsigned long long)vs.assumed, vs.inputs);
			char line[256];
			snprintf(line, sizeof line, "equivalence: %llu rewrites: %llu proved, %llu tested (%d inputs), "
				"%llu skipped, %llu failed", (unsigned long long)vs.rewrites,
				(unsigned long long)vs.proved, (unsigned long long)vs.tested, vs.inputs,
				(unsigned long long)vs.skipped, (unsigned long long)vs.failed);
			hilo_json_str(j.f, line);
			fputc('}', j.f);
		} else {
			fputs("null", j.f);
		}
		fputc('}', j.f);
		result = jfinish(&j);
		if (!result)
			set_error(error, NULL, "out of memory");
	} else if (ok) {
		set_error(error, NULL, "out of memory");
	} else {
		set_error(error, &d, "the passes failed");
	}
	if (result) {
		drop_eval(h);
		hilo_module_destroy(h->m);
		h->m = work;
	} else {
		hilo_module_destroy(work);
	}
	free(rbuf);
	hilo_diags_free(&d);
	return result;
}

/* ---- evaluation ---------------------------------------------------------- */

static void shape_json(FILE *f, const hilo_shape *s, const char *name)
{
	fputs("{", f);
	if (name) { /* a parameter: its name, for messages about its input */
		fputs("\"name\": ", f);
		hilo_json_str(f, name);
		fputs(", ", f);
	}
	fputs("\"dtype\": ", f);
	hilo_json_str(f, hilo_ptype_name(s->type));
	fputs(", \"dims\": [", f);
	for (int k = 0; k < s->rank; k++)
		fprintf(f, "%s%lld", k ? ", " : "", (long long)s->dims[k]);
	int64_t n = hilo_shape_elements(s);
	fprintf(f, "], \"bytes\": %lld}", (long long)(n < 0 ? -1 : n * hilo_ptype_bytes(s->type)));
}

/* Writes the array leaves of a (tuple) shape, comma-separated. */
static void leaves_json(FILE *f, const hilo_shape *s, bool *first)
{
	if (s->type == HILO_T_TUPLE) {
		for (int k = 0; k < s->ntuple; k++)
			leaves_json(f, s->elems[k], first);
		return;
	}
	if (!*first)
		fputs(", ", f);
	*first = false;
	shape_json(f, s, NULL);
}

char *hilo_handle_signature_json(hilo_handle *h)
{
	const hilo_comp *c = h->m->entry;
	jout j;
	if (!c || !jopen(&j))
		return NULL;
	fputs("{\"parameters\": [", j.f);
	for (uint32_t k = 0; k < c->nparams; k++) {
		if (k)
			fputs(", ", j.f);
		if (c->params[k])
			shape_json(j.f, c->params[k]->shape, c->params[k]->name);
		else
			fputs("null", j.f);
	}
	fputs("], \"outputs\": [", j.f);
	bool first = true;
	if (c->root)
		leaves_json(j.f, c->root->shape, &first);
	fputs("]}", j.f);
	return jfinish(&j);
}

static size_t count_leaves(const hilo_literal *l)
{
	if (l->shape->type != HILO_T_TUPLE)
		return 1;
	size_t n = 0;
	for (int k = 0; k < l->ntuple; k++)
		n += count_leaves(l->elems[k]);
	return n;
}

static void collect_leaves(const hilo_literal *l, const hilo_literal **out, size_t *n)
{
	if (l->shape->type != HILO_T_TUPLE) {
		out[(*n)++] = l;
		return;
	}
	for (int k = 0; k < l->ntuple; k++)
		collect_leaves(l->elems[k], out, n);
}

int hilo_handle_evaluate(hilo_handle *h, size_t n, const void *const *inputs,
	const size_t *sizes, uint64_t seed, uint64_t budget, char **error)
{
	drop_eval(h);
	hilo_module *m = hilo_module_clone(h->m);
	if (!m) {
		set_error(error, NULL, "out of memory");
		return -1;
	}
	const hilo_comp *c = m->entry;
	hilo_diags d;
	hilo_diags_init(&d);
	/* building the inputs and evaluating allocate from the copy's arena:
	 * out of memory there (the nested evaluator entry points leave this
	 * guard in charge) fails the call and frees the copy */
	HILO_OOM_CATCH(g, m->arena) {
		hilo_module_destroy(m);
		hilo_diags_free(&d);
		set_error(error, NULL, "out of memory");
		return -1;
	}
	hilo_literal **args = NULL;
	int rc = -1;
	if (!c) {
		set_error(error, NULL, "the module has no entry computation");
		goto out;
	}
	if (n == 0) {
		args = hilo_eval_random_args(m, c, seed, budget, &d);
		if (!args && c->nparams) {
			set_error(error, &d, "cannot make random inputs");
			goto out;
		}
	} else {
		char msg[256];
		if (n != c->nparams) {
			snprintf(msg, sizeof msg, "the entry computation takes %u parameters, %zu inputs given",
				c->nparams, n);
			set_error(error, NULL, msg);
			goto out;
		}
		args = hilo_arena_alloc(m->arena, n * sizeof *args);
		for (size_t k = 0; args && k < n; k++) {
			const hilo_shape *s = c->params[k]->shape;
			if (s->type == HILO_T_TUPLE) {
				snprintf(msg, sizeof msg, "parameter %zu is a tuple: give its leaves as HLO literal text to hilo-run instead", k);
				set_error(error, NULL, msg);
				goto out;
			}
			args[k] = hilo_literal_create(m, s);
			if (!args[k]) {
				snprintf(msg, sizeof msg, "parameter %zu is too large to hold", k);
				set_error(error, NULL, msg);
				goto out;
			}
			if (sizes[k] != args[k]->nbytes) {
				snprintf(msg, sizeof msg, "input %zu has %zu bytes, parameter %zu (%s) needs %zu",
					k, sizes[k], k, hilo_shape_str(m->arena, s), args[k]->nbytes);
				set_error(error, NULL, msg);
				goto out;
			}
			if (sizes[k])
				memcpy(args[k]->data, inputs[k], sizes[k]);
		}
		if (!args) {
			set_error(error, NULL, "out of memory");
			goto out;
		}
	}
	hilo_eval_opts eo = {budget};
	hilo_literal *res = hilo_eval_comp(m, c, args, &eo, &d);
	hilo_oom_end(&g);
	if (!res) {
		set_error(error, &d, "evaluation failed");
		goto out;
	}
	size_t nl = count_leaves(res);
	h->outs = malloc(nl * sizeof *h->outs);
	if (!h->outs) {
		set_error(error, NULL, "out of memory");
		goto out;
	}
	h->nouts = 0;
	collect_leaves(res, h->outs, &h->nouts);
	h->eval_m = m;
	m = NULL;
	rc = (int)h->nouts;
out:
	hilo_oom_end(&g); /* (a no-op when already ended) */
	if (m)
		hilo_module_destroy(m);
	hilo_diags_free(&d);
	return rc;
}

const void *hilo_handle_output(hilo_handle *h, size_t k, size_t *len, char **json)
{
	if (!h || k >= h->nouts)
		return NULL;
	const hilo_literal *l = h->outs[k];
	if (len)
		*len = l->nbytes;
	if (json) {
		jout j;
		*json = NULL;
		if (jopen(&j)) {
			shape_json(j.f, l->shape, NULL);
			*json = jfinish(&j);
		}
	}
	return l->data ? l->data : (const void *)"";
}
