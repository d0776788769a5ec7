/* tools/common/cli.c - option parsing, option errors, numeric values and
 * input reading shared by every tool (see cli.h for the conventions). */
#include "cli.h"

#include "hilo/hlo_text.h"
#include "hilo/proto.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

/* The long option called name[0..n), or NULL. */
static const struct option *long_named(const struct option *o, const char *name, size_t n)
{
	for (; o->name; o++)
		if (strlen(o->name) == n && !strncmp(o->name, name, n))
			return o;
	return NULL;
}

/* Single-dash long options, as absl writes them (XLA's tools take
 * "-passes=dce"): "-NAME" or "-NAME=V" where NAME is a long option's whole
 * name is that option, rewritten to "--NAME..." before getopt_long reads
 * argv. Not when the first letter is a short option taking a value
 * ("-output-dir" could be "-o utput-dir"): that is ambiguous, reported by
 * cli_next. A value (the argument after an option that needs one) and
 * everything after "--" are left alone. A rewritten argument is a copy
 * that lives as argv does, to the end of the process (the options' values
 * point into it and must outlive the cli): never freed, reachable from
 * argv. */
static void single_dash_longs(cli *c)
{
	c->ambiguous = NULL;
	c->bad_word = NULL;
	for (int k = 1; k < c->argc; k++) {
		char *a = c->argv[k];
		if (!strcmp(a, "--"))
			return;
		if (a[0] != '-' || !a[1])
			continue; /* an operand, or "-": standard input */
		bool dd = a[1] == '-';
		const char *name = a + (dd ? 2 : 1);
		size_t n = strcspn(name, "=");
		const struct option *o = long_named(c->longopts, name, n);
		if (dd || !((a[1] >= 'a' && a[1] <= 'z') || (a[1] >= 'A' && a[1] <= 'Z')) || !a[2]) {
			/* "--name value", "-o value": skip the value */
			const char *s = dd ? NULL : strchr(c->shortopts, a[1]);
			if ((dd && o && o->has_arg == required_argument && !name[n]) ||
			    (!dd && s && s[1] == ':' && !a[2]))
				k++;
			continue;
		}
		const char *s = strchr(c->shortopts, a[1]);
		if (!o) {
			/* "-oFILE"; "-pases" (no short -p) was meant as a long option */
			if (!s && !c->bad_word)
				c->bad_word = a;
			continue;
		}
		if (s && s[1] == ':') {
			if (!c->ambiguous)
				c->ambiguous = a;
			continue;
		}
		size_t len = strlen(a) + 2;
		char *r = malloc(len);
		if (!r)
			continue; /* left as it is: reported as an unknown option */
		r[0] = '-';
		memcpy(r + 1, a, len - 1);
		c->argv[k] = r;
		if (o->has_arg == required_argument && !name[n])
			k++; /* "-passes dce": dce is the value */
	}
}

void cli_init(cli *c, const char *tool, const char *usage, const char *shortopts,
	const struct option *longopts, int argc, char **argv)
{
	c->tool = tool;
	c->usage = usage;
	c->shortopts = shortopts;
	c->longopts = longopts;
	c->argc = argc;
	c->argv = argv;
	c->name = NULL;
	optind = 0; /* glibc: 0 also resets getopt's internal state */
	opterr = 0; /* the messages are ours */
	single_dash_longs(c);
}

void cli_usage(const cli *c, FILE *f)
{
	fputs(c->usage, f);
	fprintf(f, "Run '%s --help' for every option.\n", c->tool);
}

int cli_error(const cli *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	fprintf(stderr, "%s: error: ", c->tool);
	vfprintf(stderr, fmt, ap);
	fputc('\n', stderr);
	va_end(ap);
	return CLI_EXIT_USAGE;
}

/* The long option whose val is v, or NULL. */
static const struct option *by_val(const cli *c, int v)
{
	for (const struct option *o = c->longopts; o->name; o++)
		if (o->val == v && !o->flag)
			return o;
	return NULL;
}

/* Edit distance of a[0..na) and b[0..nb), '-' and '_' alike and case
 * folded; at most CLI_NEAR_MAX + 1 (larger distances are not told apart). */
enum { CLI_NEAR_MAX = 3 };
static size_t distance(const char *a, size_t na, const char *b, size_t nb)
{
	if (na > 64 || nb > 64)
		return CLI_NEAR_MAX + 1;
	size_t row[65];
	for (size_t j = 0; j <= nb; j++)
		row[j] = j;
	for (size_t i = 1; i <= na; i++) {
		size_t diag = row[0];
		row[0] = i;
		for (size_t j = 1; j <= nb; j++) {
			int x = a[i - 1] == '_' ? '-' : (a[i - 1] | 0x20);
			int y = b[j - 1] == '_' ? '-' : (b[j - 1] | 0x20);
			size_t best = diag + (x != y);
			if (row[j] + 1 < best)
				best = row[j] + 1;
			if (row[j - 1] + 1 < best)
				best = row[j - 1] + 1;
			diag = row[j];
			row[j] = best;
		}
	}
	return row[nb] > CLI_NEAR_MAX ? CLI_NEAR_MAX + 1 : row[nb];
}

void cli_near_init(cli_near *s, const char *want, size_t n)
{
	s->want = want;
	s->n = n;
	s->best = NULL;
	s->dist = CLI_NEAR_MAX + 1;
}

void cli_near_offer(cli_near *s, const char *cand)
{
	size_t cn = strlen(cand);
	size_t d = distance(s->want, s->n, cand, cn);
	/* a prefix (an abbreviation, which is never accepted) counts as one edit */
	if (d > 1 && s->n >= 3 && cn > s->n && !strncmp(cand, s->want, s->n))
		d = 1;
	size_t limit = s->n <= 3 ? 1 : s->n <= 7 ? 2 : CLI_NEAR_MAX;
	if (d <= limit && d < s->n && d < s->dist) {
		s->best = cand;
		s->dist = d;
	}
}

const char *cli_near_best(const cli_near *s)
{
	return s->best;
}

/* Prints "unknown option 'TEXT'" with TEXT cut at its '=', and the long
 * option it is closest to. A single-dash word ("-pases") is shown whole
 * when its first letter is no short option: it was meant as a long one. */
static int unknown(cli *c, const char *text)
{
	bool dd = !strncmp(text, "--", 2);
	bool word = !dd && text[0] == '-' && text[1] && text[2] && !strchr(c->shortopts, text[1]);
	const char *eq = dd || word ? strchr(text, '=') : NULL;
	int n = eq ? (int)(eq - text) : (dd || word) ? (int)strlen(text) : 2;
	fprintf(stderr, "%s: error: unknown option '%.*s'", c->tool, n, text);
	if (dd || word) {
		cli_near s;
		size_t skip = dd ? 2 : 1;
		cli_near_init(&s, text + skip, (size_t)n - skip);
		for (const struct option *o = c->longopts; o->name; o++)
			cli_near_offer(&s, o->name);
		if (cli_near_best(&s))
			fprintf(stderr, " (did you mean '--%s'?)", cli_near_best(&s));
	}
	fputc('\n', stderr);
	cli_usage(c, stderr);
	return CLI_ERROR;
}

/* True when arg ("--name" or "--name=value") spells name in full. */
static bool spelled(const char *arg, const char *name)
{
	if (strncmp(arg, "--", 2))
		return false;
	size_t n = strcspn(arg + 2, "=");
	return n == strlen(name) && !strncmp(arg + 2, name, n);
}

int cli_next(cli *c)
{
	char opts[128];
	snprintf(opts, sizeof opts, ":%s", c->shortopts);
	int idx = -1;
	c->name = NULL;
	c->short_opt = 0;
	if (c->ambiguous) {
		const char *a = c->ambiguous;
		size_t n = strcspn(a + 1, "=");
		fprintf(stderr, "%s: error: '%s' is ambiguous: write '-%s' for the option --%.*s, or "
			"'-%c %s' for -%c\n", c->tool, a, a, (int)n, a + 1, a[1], a + 2, a[1]);
		cli_usage(c, stderr);
		c->ambiguous = NULL;
		return CLI_ERROR;
	}
	if (c->bad_word) {
		const char *a = c->bad_word;
		c->bad_word = NULL;
		return unknown(c, a);
	}
	int r = getopt_long(c->argc, c->argv, opts, c->longopts, &idx);
	if (r == -1)
		return -1;
	/* The argument that held the option. getopt_long has moved optind
	 * past it (and past its value when that was the next argument); the
	 * operands it skipped are moved only by the next call. */
	const char *arg = optind >= 1 && optind <= c->argc ? c->argv[optind - 1] : "";
	if (r != '?' && r != ':' && optarg && optind >= 2 && optarg == c->argv[optind - 1])
		arg = c->argv[optind - 2];
	bool is_long = !strncmp(arg, "--", 2);
	if (r == '?') {
		const struct option *o = optopt ? by_val(c, optopt) : NULL;
		if (is_long && o && spelled(arg, o->name)) {
			fprintf(stderr, "%s: error: option '--%s' takes no value\n", c->tool, o->name);
			cli_usage(c, stderr);
			return CLI_ERROR;
		}
		if (is_long || !optopt)
			return unknown(c, arg);
		char s[3] = {'-', (char)optopt, 0};
		return unknown(c, s);
	}
	if (r == ':') {
		if (is_long) {
			const struct option *o = by_val(c, optopt);
			if (!o || !spelled(arg, o->name))
				return unknown(c, arg);
			fprintf(stderr, "%s: error: option '--%s' needs a value\n", c->tool, o->name);
		} else {
			fprintf(stderr, "%s: error: option '-%c' needs a value\n", c->tool, optopt);
		}
		cli_usage(c, stderr);
		return CLI_ERROR;
	}
	if (idx >= 0) {
		/* no abbreviations: the name as written is the whole name */
		if (!spelled(arg, c->longopts[idx].name))
			return unknown(c, arg);
		c->name = c->longopts[idx].name;
	} else {
		c->short_opt = r;
	}
	return r;
}

/* "--name" of the option just returned, or "-c" for a short one. */
static void option_text(const cli *c, char *buf, size_t cap)
{
	if (c->name)
		snprintf(buf, cap, "--%s", c->name);
	else
		snprintf(buf, cap, "-%c", c->short_opt ? c->short_opt : optopt ? optopt : '?');
}

int cli_invalid(const cli *c, const char *val, const char *want)
{
	char opt[80];
	option_text(c, opt, sizeof opt);
	fprintf(stderr, "%s: error: invalid value '%s' for %s: expected %s\n", c->tool, val, opt, want);
	return CLI_EXIT_USAGE;
}

bool cli_uint(const cli *c, const char *val, uint64_t min, uint64_t max, uint64_t *out)
{
	char want[96];
	if (max == UINT64_MAX)
		snprintf(want, sizeof want, "an integer >= %llu", (unsigned long long)min);
	else
		snprintf(want, sizeof want, "an integer from %llu to %llu", (unsigned long long)min,
			(unsigned long long)max);
	if (!val || !(*val >= '0' && *val <= '9'))
		return !cli_invalid(c, val ? val : "", want);
	bool hex = val[0] == '0' && (val[1] == 'x' || val[1] == 'X');
	char *end;
	errno = 0;
	unsigned long long v = strtoull(hex ? val + 2 : val, &end, hex ? 16 : 10);
	if (errno || *end || (hex && !val[2]) || v < min || v > max)
		return !cli_invalid(c, val, want);
	*out = v;
	return true;
}

bool cli_double(const cli *c, const char *val, double min, double max, double *out)
{
	char want[96];
	snprintf(want, sizeof want, "a number from %g to %g", min, max);
	if (!val || !((*val >= '0' && *val <= '9') || *val == '.'))
		return !cli_invalid(c, val ? val : "", want);
	char *end;
	errno = 0;
	double v = strtod(val, &end);
	if (errno || *end || !isfinite(v) || v < min || v > max)
		return !cli_invalid(c, val, want);
	*out = v;
	return true;
}

char *cli_read_input(const char *path, const char *what, size_t *len, hilo_diags *d)
{
	char *text = hilo_read_file(path, len, d);
	if (!text)
		return NULL;
	int line, col;
	if (!hilo_text_is_blank(text, *len, &line, &col))
		return text;
	hilo_diag_add(d, HILO_SEV_ERROR, strcmp(path, "-") ? path : "<stdin>", line, col, NULL, 0,
		"empty input: expected %s", what);
	free(text);
	return NULL;
}

/* An existing folder, or one created now: the tools call it before they
 * read and compute anything (a run that fails there would otherwise do
 * all the work first). A missing parent or a file in the way is an error
 * that names the part at fault. */
bool cli_make_dir(const char *dir, const char *flag, bool *made, hilo_diags *d)
{
	struct stat st;
	if (stat(dir, &st) == 0) {
		if (S_ISDIR(st.st_mode))
			return true;
		hilo_diag_add(d, HILO_SEV_ERROR, dir, 0, 0, NULL, 0, "%s is not a directory", flag);
		return false;
	}
	if (mkdir(dir, 0777) == 0) {
		if (made)
			*made = true;
		return true;
	}
	int e = errno;
	if (e == ENOENT || e == ENOTDIR) {
		/* the parent is what is missing: name it */
		size_t n = strlen(dir);
		while (n > 1 && dir[n - 1] == '/')
			n--;
		while (n > 0 && dir[n - 1] != '/')
			n--;
		while (n > 1 && dir[n - 1] == '/')
			n--;
		hilo_diag_add(d, HILO_SEV_ERROR, dir, 0, 0, NULL, 0,
			"cannot create the %s directory: '%.*s' %s", flag, n ? (int)n : 1, n ? dir : ".",
			e == ENOENT ? "does not exist" : "is not a directory");
	} else {
		hilo_diag_add(d, HILO_SEV_ERROR, dir, 0, 0, NULL, 0,
			"cannot create the %s directory: %s", flag, strerror(e));
	}
	return false;
}

hilo_module *cli_parse_module(int format, const char *text, size_t len, const char *fname,
	hilo_diags *d)
{
	bool pb = format == 2 || (format == 0 && hilo_proto_looks_binary(text, len));
	bool pbtxt = format == 3 || (format == 0 && !pb && hilo_proto_looks_text(text, len));
	return pb ? hilo_proto_read(text, len, fname, d)
	     : pbtxt ? hilo_proto_read_text(text, len, fname, d) : hilo_parse_text(text, len, fname, d);
}

void cli_check_module(int format, const char *text, size_t len, const char *fname,
	hilo_module *after, int n, uint64_t seed, uint64_t budget, bool nsz, hilo_equiv_report *r)
{
	memset(r, 0, sizeof *r);
	hilo_diags pd;
	hilo_diags_init(&pd);
	hilo_module *ref = cli_parse_module(format, text, len, fname, &pd);
	bool oom = pd.oom;
	hilo_diags_free(&pd);
	if (!ref) {
		r->status = oom ? 3 : 2;
		snprintf(r->message, sizeof r->message, "%s", oom ? "out of memory"
			: "cannot re-parse the input");
		return;
	}
	hilo_eval_opts eo = {budget};
	hilo_check_equivalence_nsz(ref, after, n, seed, &eo, nsz, r);
	hilo_module_destroy(ref);
}

void cli_attach_source_lines(hilo_diags *d, size_t first, const char *text, size_t len)
{
	for (size_t k = first; k < d->n; k++) {
		hilo_diag *g = &d->items[k];
		if (!g->line || g->src_line)
			continue;
		const char *p = text, *e = text + len;
		for (int l = 1; l < g->line && p < e; p++)
			if (*p == '\n')
				l++;
		const char *q = p;
		while (q < e && *q != '\n')
			q++;
		g->src_line = strndup(p, (size_t)(q - p));
	}
}
