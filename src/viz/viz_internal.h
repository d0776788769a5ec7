/* viz_internal.h - helpers shared by the files of src/viz. */
#ifndef HILO_VIZ_INTERNAL_H
#define HILO_VIZ_INTERNAL_H

#include "hilo/ir.h"

/* The instruction named `name` in any computation of m, or NULL. */
hilo_instr *viz_find_instr(const hilo_module *m, const char *name);

#endif
