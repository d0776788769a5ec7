/* check.h - a tiny assertion helper for hilo's C unit tests.
 *
 * CHECK(cond) and friends report FILE:LINE and the failed expression, then
 * keep going so one run lists every failure; CHECK_DONE() returns the
 * process exit status (0 when nothing failed). Tests only: the counters
 * live in one static struct per test executable.
 */
#ifndef HILO_TEST_CHECK_H
#define HILO_TEST_CHECK_H

#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "hilo/hlo_text.h"
#include "hilo/verify.h"

static struct {
	int checks, failures;
} check_state;

#define CHECK(cond) check_true((cond) != 0, __FILE__, __LINE__, #cond)
#define CHECK_EQ_I64(a, b) check_i64((int64_t)(a), (int64_t)(b), __FILE__, __LINE__, #a, #b)
#define CHECK_STR(a, b) check_str((a), (b), __FILE__, __LINE__, #a)
#define CHECK_DONE() check_done(__FILE__)

static inline int check_true(int ok, const char *f, int l, const char *e)
{
	check_state.checks++;
	if (!ok) {
		check_state.failures++;
		fprintf(stderr, "%s:%d: check failed: %s\n", f, l, e);
	}
	return ok;
}

static inline int check_i64(int64_t a, int64_t b, const char *f, int l, const char *ea, const char *eb)
{
	check_state.checks++;
	if (a != b) {
		check_state.failures++;
		fprintf(stderr, "%s:%d: check failed: %s == %s (%" PRId64 " vs %" PRId64 ")\n",
			f, l, ea, eb, a, b);
		return 0;
	}
	return 1;
}

static inline int check_str(const char *a, const char *b, const char *f, int l, const char *ea)
{
	check_state.checks++;
	if (!a || !b || strcmp(a, b) != 0) {
		check_state.failures++;
		fprintf(stderr, "%s:%d: check failed: %s\n  got:      \"%s\"\n  expected: \"%s\"\n",
			f, l, ea, a ? a : "(null)", b ? b : "(null)");
		return 0;
	}
	return 1;
}

static inline int check_done(const char *f)
{
	fprintf(stderr, "%s: %d checks, %d failed\n", f, check_state.checks, check_state.failures);
	return check_state.failures ? 1 : 0;
}

/* Parses and verifies a module from a C string; prints the diagnostics
 * and returns NULL on failure. */
static inline hilo_module *check_parse(const char *text)
{
	hilo_diags d;
	hilo_diags_init(&d);
	hilo_module *m = hilo_parse_text(text, strlen(text), "test.hlo", &d);
	if (m && !hilo_verify(m, "test.hlo", &d)) {
		hilo_module_destroy(m);
		m = NULL;
	}
	if (!m)
		hilo_diags_print(stderr, &d);
	hilo_diags_free(&d);
	return m;
}

/* True when the module passes hilo_verify (diagnostics go to stderr). */
static inline int check_verifies(hilo_module *m)
{
	hilo_diags d;
	hilo_diags_init(&d);
	int ok = hilo_verify(m, "test.hlo", &d);
	if (!ok)
		hilo_diags_print(stderr, &d);
	hilo_diags_free(&d);
	return ok;
}

/* Prints a module into a malloc'ed string (caller frees). */
static inline char *check_print(const hilo_module *m, hilo_print_style style)
{
	hilo_buf b;
	hilo_buf_init(&b);
	hilo_print_text(&b, m, style);
	char *s = strdup(hilo_buf_cstr(&b));
	hilo_buf_free(&b);
	return s;
}

#endif
