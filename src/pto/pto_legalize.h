/* pto_legalize.h - internal interface between the legalize-graph-boundary
 * driver (pto_legalize.c, Steps A-C) and its Step D checks
 * (pto_legalize_check.c). Each check returns false after adding one GBnnn
 * error: the pass stops at the first rejection, like PyPTO's. */
#ifndef HILO_PTO_LEGALIZE_H
#define HILO_PTO_LEGALIZE_H

#include "pto/pto_sema.h"

/* The runtime's boundary limits of a Graph function (PyPTO's
 * GRAPH_MAX_TENSOR_ARGS and GRAPH_MAX_SCALAR_ARGS): the Step D check,
 * the arena packing that keeps a hoisted Graph inside them, and the
 * verifier all read these. */
#define PTO_GRAPH_MAX_TENSORS 128
#define PTO_GRAPH_MAX_SCALARS 64

bool lg_check_signature(hilo_pto_program *p, pto_func *f, hilo_diags *d);
bool lg_check_alloc(hilo_pto_program *p, pto_func *f, unsigned flags, hilo_diags *d);
bool lg_check_launch_spec(hilo_pto_program *p, pto_func *f, hilo_diags *d);
bool lg_check_nested(hilo_pto_program *p, pto_func *f, hilo_diags *d);
bool lg_check_returns(hilo_pto_program *p, pto_func *f, hilo_diags *d);
bool lg_check_scalars(hilo_pto_program *p, pto_func *f, hilo_diags *d);
bool lg_check_node_count(hilo_pto_program *p, pto_func *f, hilo_diags *d);
bool lg_check_task_arity(hilo_pto_program *p, pto_func *f, hilo_diags *d);
bool lg_check_call_sites(hilo_pto_program *p, pto_func *f, hilo_diags *d);
/* GB025/GB026 host control tensors (pto_host_control.c), over the whole
 * program (the rules follow tensors through calls): the number of
 * violations reported (the first only unless all). */
int lg_check_host_control(hilo_pto_program *p, hilo_diags *d, bool all);
/* Keyword arguments of the pl.* calls the passes read, against PyPTO's
 * signatures (pto_keywords.c): the number of unknown ones reported (the
 * first only unless all), each a located error without a GB code. */
int lg_check_keywords(hilo_pto_program *p, hilo_diags *d, bool all);
bool lg_expr_scalar(pto_fctx *c, const pto_expr *e, bool *task_id);
bool lg_block_has_gm_pipe(const pto_block *b);
const pto_expr *lg_gm_pipe_core_num(hilo_pto_program *p, const pto_block *b, size_t at, const char *var);

#endif
