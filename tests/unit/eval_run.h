/* eval_run.h - shared by the evaluator unit tests (test_eval.c,
 * test_eval_edges.c): parse a module from text and evaluate its entry
 * computation to the printed literal, so expected values are written as
 * HLO literal text. Tests only. */
#ifndef HILO_TEST_EVAL_RUN_H
#define HILO_TEST_EVAL_RUN_H

#include "hilo/eval.h"
#include "hilo/hlo_text.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static hilo_module *parse(const char *src)
{
	hilo_diags d;
	hilo_diags_init(&d);
	hilo_module *m = hilo_parse_text(src, strlen(src), "test.hlo", &d);
	if (!m)
		hilo_diags_print(stderr, &d);
	hilo_diags_free(&d);
	return m;
}

/* Evaluates the entry computation (seeded inputs if it has parameters) and
 * prints the result without its shape; "ERROR: msg" on failure. */
static char *run_budget(const char *src, uint64_t budget)
{
	hilo_module *m = parse(src);
	if (!m)
		return strdup("PARSE ERROR");
	hilo_diags d;
	hilo_diags_init(&d);
	hilo_buf b;
	hilo_buf_init(&b);
	hilo_literal **args = hilo_eval_random_args(m, m->entry, 1, budget, &d);
	hilo_eval_opts o = {budget};
	hilo_literal *r = args ? hilo_eval_comp(m, m->entry, args, &o, &d) : NULL;
	if (r && r->shape->type == HILO_T_TUPLE) {
		/* elements one by one, so the test does not depend on how the
		 * printer lays out tuples */
		for (int k = 0; k < r->ntuple; k++) {
			if (k)
				hilo_buf_puts(&b, " | ");
			hilo_print_literal(&b, r->elems[k], false);
		}
	} else if (r) {
		hilo_print_literal(&b, r, false);
	} else {
		hilo_buf_puts(&b, "ERROR: ");
		hilo_buf_puts(&b, d.n ? d.items[0].msg : "(no diagnostic)");
	}
	char *s = strdup(hilo_buf_cstr(&b));
	hilo_buf_free(&b);
	hilo_diags_free(&d);
	hilo_module_destroy(m);
	return s;
}

#endif
