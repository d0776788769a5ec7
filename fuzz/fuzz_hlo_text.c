/* fuzz_hlo_text.c - libFuzzer target for the HLO text parser, verifier,
 * printer and module clone.
 *
 * Any input: parse (errors are fine; crashes, hangs, leaks and UB are
 * not). A parsed module is verified; a verified one is printed in every
 * style, each printout is parsed again, and the default style is printed
 * from a hilo_module_clone too. With HILO_FUZZ_STRICT=1 in the
 * environment the target also aborts when a printout of a verified module
 * does not parse back or does not print identically (the printer must be
 * a fixed point); the bounded smoke run in `make test` leaves that off so
 * it only gates on crashes.
 */
#include "fuzz_limits.h"
#include "hilo/hlo_text.h"
#include "hilo/verify.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

static void check(bool ok, bool strict)
{
	if (!ok && strict)
		abort();
}

static void print_and_reparse(const hilo_module *m, hilo_print_style style, bool strict)
{
	hilo_buf a;
	hilo_buf_init(&a);
	if (!hilo_print_text(&a, m, style)) {
		hilo_buf_free(&a);
		return;
	}
	hilo_diags d;
	hilo_diags_init(&d);
	hilo_module *m2 = hilo_parse_text(a.data ? a.data : "", a.len, "print.hlo", &d);
	check(m2 != NULL, strict);
	if (m2) {
		hilo_buf b;
		hilo_buf_init(&b);
		hilo_print_text(&b, m2, style);
		check(a.len == b.len && (!a.len || memcmp(a.data, b.data, a.len) == 0), strict);
		hilo_buf_free(&b);
		hilo_module_destroy(m2);
	}
	hilo_diags_free(&d);
	hilo_buf_free(&a);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (fuzz_declares_huge_shapes(data, size))
		return 0; /* fuzz_limits.h */
	const char *env = getenv("HILO_FUZZ_STRICT");
	bool strict = env && *env == '1';
	hilo_diags d;
	hilo_diags_init(&d);
	d.max_errors = 20;
	hilo_module *m = hilo_parse_text((const char *)data, size, "fuzz.hlo", &d);
	if (m && hilo_verify(m, "fuzz.hlo", &d)) {
		print_and_reparse(m, HILO_STYLE_AUTO, strict);
		print_and_reparse(m, HILO_STYLE_DEFAULT, strict);
		print_and_reparse(m, HILO_STYLE_LONG, strict);
		print_and_reparse(m, HILO_STYLE_SHORT, strict);
		hilo_module *c = hilo_module_clone(m);
		if (c) {
			hilo_buf a, b;
			hilo_buf_init(&a);
			hilo_buf_init(&b);
			hilo_print_text(&a, m, HILO_STYLE_DEFAULT);
			hilo_print_text(&b, c, HILO_STYLE_DEFAULT);
			/* the clone must print exactly like its source, always */
			if (a.len != b.len || (a.len && memcmp(a.data, b.data, a.len)))
				abort();
			hilo_buf_free(&a);
			hilo_buf_free(&b);
			hilo_module_destroy(c);
		}
	}
	hilo_module_destroy(m);
	/* exercise the diagnostic printer too (to a sink) */
	FILE *sink = fopen("/dev/null", "w");
	if (sink) {
		hilo_diags_print(sink, &d);
		fclose(sink);
	}
	hilo_diags_free(&d);
	return 0;
}
