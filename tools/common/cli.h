/* tools/common/cli.h - the command-line conventions every hilo tool shares:
 * one flag grammar (glibc getopt_long), one wording for option errors, one
 * check of numeric values and one way of reading the input file. Linked
 * into the tools only (it prints and picks exit codes; the library never
 * does either).
 *
 * The grammar: --flag=value and --flag value, -o FILE and -oFILE, "--" ends
 * the options, options and file names in any order. Long options are never
 * abbreviated (glibc would accept a unique prefix; a script that relies on
 * one breaks when a flag is added), so a prefix is an unknown option.
 * A long option may be written with one dash, as absl writes flags and XLA
 * users type them ("-passes=dce" is "--passes=dce"), unless its first
 * letter is a short option that takes a value: "-output-dir=x" could be
 * "-o utput-dir=x", and is reported as ambiguous with both spellings.
 *
 * Errors, on stderr, exit status 2 (CLI_EXIT_USAGE):
 *   TOOL: error: unknown option '--x'            then the usage lines
 *   TOOL: error: option '--x' needs a value      then the usage lines
 *   TOOL: error: option '--x' takes no value     then the usage lines
 *   TOOL: error: invalid value 'abc' for --x: expected ...
 */
#ifndef HILO_TOOLS_CLI_H
#define HILO_TOOLS_CLI_H

#include "hilo/eval.h"
#include "hilo/ir.h"

#include <getopt.h>
#include <stdint.h>

enum { CLI_EXIT_USAGE = 2 };
/* The val of each long-only option is CLI_LONG + k, so it never collides
 * with a short option's character. */
enum { CLI_LONG = 256 };
/* cli_next's answer for an option error (already reported). */
enum { CLI_ERROR = -2 };

typedef struct cli {
	const char *tool;               /* "hilo-opt", the prefix of every message */
	const char *usage;              /* the synopsis: "usage: ..." lines, '\n'-ended */
	const char *shortopts;          /* getopt_long's optstring, without the leading ':' */
	const struct option *longopts;  /* terminated by an all-zero entry */
	int argc;
	char **argv;
	const char *name;               /* the long option just returned, without its dashes ("seed") */
	int short_opt;                  /* the short option just returned ('o'), or 0 */
	const char *ambiguous;          /* a single-dash long option that is also -o VALUE */
	const char *bad_word;           /* "-word" that is no long option and no short one */
} cli;

/* Starts parsing argv (resets getopt's state). */
void cli_init(cli *c, const char *tool, const char *usage, const char *shortopts,
	const struct option *longopts, int argc, char **argv);
/* The next option: its val (optarg holds its value, or NULL), -1 when the
 * options end (the operands are argv[optind..argc)), or CLI_ERROR after
 * printing the error and the usage lines on stderr. */
int cli_next(cli *c);
/* "TOOL: error: MSG" on stderr, no usage lines; returns CLI_EXIT_USAGE. */
int cli_error(const cli *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* Prints the usage lines and the pointer to --help on f. */
void cli_usage(const cli *c, FILE *f);

/* "did you mean": the name closest to want[0..n) among those offered
 * (edit distance, '-' and '_' alike, case folded; an abbreviation counts
 * as one edit), or NULL when none is close (at most 1 edit for names of up
 * to 3 characters, 2 up to 7, 3 beyond). */
typedef struct cli_near {
	const char *want;
	size_t n;
	const char *best;
	size_t dist;
} cli_near;
void cli_near_init(cli_near *s, const char *want, size_t n);
void cli_near_offer(cli_near *s, const char *cand);
const char *cli_near_best(const cli_near *s);

/* "TOOL: error: invalid value 'VAL' for --x: expected WANT" for the option
 * just returned; returns CLI_EXIT_USAGE. */
int cli_invalid(const cli *c, const char *val, const char *want);
/* A decimal (or 0x hexadecimal) integer in [min, max] for the option just
 * returned; false after "invalid value" on stderr. */
bool cli_uint(const cli *c, const char *val, uint64_t min, uint64_t max, uint64_t *out);
/* A finite decimal number in [min, max]; false after "invalid value". */
bool cli_double(const cli *c, const char *val, double min, double max, double *out);

/* Reads the input file ("-" is stdin) the way every tool does: a missing
 * file, a directory or an unreadable one is "PATH: error: ...", a file of
 * only whitespace "PATH:LINE:COL: error: empty input: expected WHAT" at its
 * end (stdin is named "<stdin>" there). Returns the NUL-terminated contents or NULL (diagnostic added). */
char *cli_read_input(const char *path, const char *what, size_t *len, hilo_diags *d);

/* The folder an option names (--output-dir, --dump-after-each), created
 * when missing (its parent must exist; *made, when made non-NULL, is set
 * then). False after "DIR: error: ..." naming the flag, and the parent
 * that does not exist or the file in the way. */
bool cli_make_dir(const char *dir, const char *flag, bool *made, hilo_diags *d);

/* Parses text as HLO text, a binary HloModuleProto or a text proto:
 * format 1, 2 or 3 (--format=hlo|pb|pbtxt), 0 tells them apart by
 * content. NULL with diagnostics on failure. */
hilo_module *cli_parse_module(int format, const char *text, size_t len, const char *fname,
	hilo_diags *d);
/* --check-equivalence=module: text parsed again (the "before" program,
 * independent of any state the passes touched) against after, on n seeded
 * inputs within budget element-ops (0: the default), -0 and +0 alike with
 * nsz. r as hilo_check_equivalence_nsz fills it; status 3 also when the
 * parse ran out of memory, 2 "cannot re-parse the input" when it failed. */
void cli_check_module(int format, const char *text, size_t len, const char *fname,
	hilo_module *after, int n, uint64_t seed, uint64_t budget, bool nsz, hilo_equiv_report *r);
/* Gives the diagnostics d->items[first..) that point at a line of text
 * (the verifier's) the caret line the parser's carry. */
void cli_attach_source_lines(hilo_diags *d, size_t first, const char *text, size_t len);

#endif
