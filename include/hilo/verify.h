/* hilo/verify.h - the structural verifier. */
#ifndef HILO_VERIFY_H
#define HILO_VERIFY_H

#include "hilo/ir.h"

#ifdef __cplusplus
extern "C" {
#endif

/* Checks the module's invariants (see hilo/ir.h and docs/verifier.md):
 * operands defined before use, exact use lists, one root, called
 * computations present, operand counts, and shape agreement for the ops
 * the passes rewrite. Adds one diagnostic per problem (located at the
 * instruction's source position when known) and returns false if any. */
HILO_API bool hilo_verify(hilo_module *m, const char *filename, hilo_diags *diags);

#ifdef __cplusplus
}
#endif

#endif
