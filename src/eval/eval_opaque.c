/* eval_opaque.c - (being filled in) */
#include "eval_internal.h"

hilo_literal *ev_opaque(ev *e, const hilo_instr *i, hilo_literal *const *ops, bool *handled)
{
	(void)e;
	(void)i;
	(void)ops;
	*handled = false;
	return NULL;
}
