/* tools/common/cli.c - option parsing, option errors, numeric values and
 * input reading shared by every tool (see cli.h for the conventions). */
#include "cli.h"

#include <errno.h>
#include <math.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

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

/* Prints "unknown option 'TEXT'" with TEXT cut at its '='. */
static int unknown(cli *c, const char *text)
{
	const char *eq = strncmp(text, "--", 2) ? NULL : strchr(text, '=');
	int n = eq ? (int)(eq - text) : (int)strlen(text);
	fprintf(stderr, "%s: error: unknown option '%.*s'\n", c->tool, n, text);
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
	}
	return r;
}

/* "--name" of the option just returned, or "-c" for a short one. */
static void option_text(const cli *c, char *buf, size_t cap)
{
	if (c->name)
		snprintf(buf, cap, "--%s", c->name);
	else
		snprintf(buf, cap, "-%c", optopt ? optopt : '?');
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
