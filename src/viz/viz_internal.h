/* viz_internal.h - helpers shared by the files of src/viz. */
#ifndef HILO_VIZ_INTERNAL_H
#define HILO_VIZ_INTERNAL_H

#include "hilo/ir.h"

/* The instruction named `name` in any computation of m, or NULL. */
hilo_instr *viz_find_instr(const hilo_module *m, const char *name);

/* The op categories of the graph views and the statistics, one table
 * (dot.c): the name hilo_op_category returns, the fill colour of the
 * pictures and what the report's legend says. Derived from the category
 * columns of opcodes.def by viz_category. */
typedef enum viz_cat {
	VIZ_PARAMETER, VIZ_CONSTANT, VIZ_DOT_CONV, VIZ_ELEMENTWISE, VIZ_DATA_MOVEMENT,
	VIZ_COLLECTIVE, VIZ_CUSTOM_CALL, VIZ_CONTROL_FLOW, VIZ_OTHER, VIZ_NCAT
} viz_cat;

typedef struct viz_cat_info {
	const char *name, *color, *what;
} viz_cat_info;

extern const viz_cat_info viz_cats[VIZ_NCAT];

viz_cat viz_category(const hilo_instr *i);

#endif
