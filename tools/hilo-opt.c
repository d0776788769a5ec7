/* hilo-opt: read an HLO module (text), verify it, run passes, print it.
 *
 *   hilo-opt [INPUT|-] [-o OUT] [--print-style=auto|default|long|short]
 *            [--split-input-file] [--format=hlo]
 *
 * Exit status: 0 ok; 1 bad input; 2 usage error; 3 internal error (a pass
 * produced IR the verifier rejects); 4 equivalence check failed.
 */
#include "hilo/hlo_text.h"
#include "hilo/verify.h"

#include <stdlib.h>
#include <string.h>

enum { EXIT_OK = 0, EXIT_INPUT = 1, EXIT_USAGE = 2, EXIT_INTERNAL = 3, EXIT_EQUIV = 4 };

typedef struct options {
	const char *input;
	const char *output;
	hilo_print_style style;
	bool split;
} options;

static void usage(FILE *f)
{
	fputs("usage: hilo-opt [INPUT|-] [-o OUT] [--print-style=auto|default|long|short]\n"
	      "                [--split-input-file] [--format=hlo]\n", f);
}

static int parse_args(int argc, char **argv, options *o)
{
	memset(o, 0, sizeof *o);
	o->style = HILO_STYLE_AUTO;
	for (int k = 1; k < argc; k++) {
		const char *a = argv[k];
		if (!strcmp(a, "-o")) {
			if (++k >= argc) {
				fprintf(stderr, "hilo-opt: error: -o needs a file name\n");
				return EXIT_USAGE;
			}
			o->output = argv[k];
		} else if (!strncmp(a, "--print-style=", 14)) {
			const char *v = a + 14;
			if (!strcmp(v, "auto"))
				o->style = HILO_STYLE_AUTO;
			else if (!strcmp(v, "default"))
				o->style = HILO_STYLE_DEFAULT;
			else if (!strcmp(v, "long"))
				o->style = HILO_STYLE_LONG;
			else if (!strcmp(v, "short"))
				o->style = HILO_STYLE_SHORT;
			else {
				fprintf(stderr, "hilo-opt: error: unknown print style '%s' (auto, default, long, short)\n", v);
				return EXIT_USAGE;
			}
		} else if (!strcmp(a, "--split-input-file")) {
			o->split = true;
		} else if (!strcmp(a, "--format=hlo")) {
			/* the only format so far */
		} else if (!strcmp(a, "-h") || !strcmp(a, "--help")) {
			usage(stdout);
			exit(EXIT_OK);
		} else if (a[0] == '-' && a[1]) {
			fprintf(stderr, "hilo-opt: error: unknown option '%s'\n", a);
			usage(stderr);
			return EXIT_USAGE;
		} else if (!o->input) {
			o->input = a;
		} else {
			fprintf(stderr, "hilo-opt: error: more than one input file\n");
			return EXIT_USAGE;
		}
	}
	if (!o->input)
		o->input = "-";
	return EXIT_OK;
}

/* Processes one module's text; appends the output to out. */
static int process(const options *o, const char *text, size_t len, int line_offset,
	hilo_buf *out, hilo_diags *d)
{
	const char *fname = strcmp(o->input, "-") ? o->input : "<stdin>";
	size_t first = d->n;
	hilo_module *m = hilo_parse_text(text, len, fname, d);
	if (!m) {
		for (size_t k = first; k < d->n; k++)
			if (d->items[k].line)
				d->items[k].line += line_offset;
		return EXIT_INPUT;
	}
	int rc = EXIT_OK;
	if (!hilo_verify(m, fname, d)) {
		rc = EXIT_INPUT;
	} else if (!hilo_print_text(out, m, o->style)) {
		hilo_diag_add(d, HILO_SEV_ERROR, fname, 0, 0, NULL, 0, "out of memory while printing");
		rc = EXIT_INPUT;
	}
	/* show the source line under verifier errors too */
	for (size_t k = first; k < d->n; k++) {
		hilo_diag *g = &d->items[k];
		if (g->line && !g->src_line) {
			const char *p = text, *e = text + len;
			for (int l = 1; l < g->line && p < e; p++)
				if (*p == '\n')
					l++;
			const char *q = p;
			while (q < e && *q != '\n')
				q++;
			g->src_line = strndup(p, (size_t)(q - p));
		}
		if (g->line)
			g->line += line_offset;
	}
	hilo_module_destroy(m);
	return rc;
}

int main(int argc, char **argv)
{
	options o;
	int rc = parse_args(argc, argv, &o);
	if (rc != EXIT_OK)
		return rc;
	hilo_diags d;
	hilo_diags_init(&d);
	d.max_errors = 20;
	size_t len;
	char *text = hilo_read_file(o.input, &len, &d);
	if (!text) {
		hilo_diags_print(stderr, &d);
		hilo_diags_free(&d);
		return EXIT_INPUT;
	}
	hilo_buf out;
	hilo_buf_init(&out);
	if (o.split) {
		/* chunks separated by lines that start with "// -----" */
		const char *p = text, *e = text + len, *chunk = text;
		int line = 0, chunk_line = 0;
		bool first = true;
		while (p <= e) {
			const char *nl = memchr(p, '\n', (size_t)(e - p));
			const char *le = nl ? nl : e;
			bool sep = le - p >= 8 && !memcmp(p, "// -----", 8);
			if (sep || p >= e || !nl) {
				const char *cend = sep ? p : e;
				if (!first)
					hilo_buf_puts(&out, "// -----\n");
				int r = process(&o, chunk, (size_t)(cend - chunk), chunk_line, &out, &d);
				if (r > rc)
					rc = r;
				first = false;
				if (!sep)
					break;
				chunk = nl ? nl + 1 : e;
				chunk_line = line + 1;
			}
			line++;
			if (!nl)
				break;
			p = nl + 1;
		}
	} else {
		rc = process(&o, text, len, 0, &out, &d);
	}
	hilo_diags_print(stderr, &d);
	if (rc == EXIT_OK) {
		if (o.output) {
			if (!hilo_write_file_atomic(o.output, out.data ? out.data : "", out.len, &d)) {
				hilo_diags_print(stderr, &d);
				rc = EXIT_INPUT;
			}
		} else if (out.len && fwrite(out.data, 1, out.len, stdout) != out.len) {
			fprintf(stderr, "hilo-opt: error: cannot write to stdout\n");
			rc = EXIT_INPUT;
		}
	}
	hilo_buf_free(&out);
	hilo_diags_free(&d);
	free(text);
	return rc;
}
