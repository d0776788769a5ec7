/* window.h - the window attribute, per dimension (internal to libhilo).
 * Read by shape inference (ir/shape_infer.c), the evaluator and the cost
 * model (viz/stats.c); the one reader is hilo_window_parse (ir/window.c). */
#ifndef HILO_IR_WINDOW_H
#define HILO_IR_WINDOW_H

#include <stdbool.h>
#include <stdint.h>

#define HILO_MAX_WINDOW_RANK 64
typedef struct hilo_window {
	int64_t size[HILO_MAX_WINDOW_RANK], stride[HILO_MAX_WINDOW_RANK];
	int64_t lo[HILO_MAX_WINDOW_RANK], hi[HILO_MAX_WINDOW_RANK];
	int64_t ldil[HILO_MAX_WINDOW_RANK], rdil[HILO_MAX_WINDOW_RANK];
} hilo_window;
/* Parses the window text for an operand of the given rank (defaults:
 * size/stride/dilation 1, no padding); false when it does not fit. */
bool hilo_window_parse(const char *text, int rank, hilo_window *w);

#endif
