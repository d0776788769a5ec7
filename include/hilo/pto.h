/* hilo/pto.h - PyPTO program text: IR, parser, printer, and the
 * LegalizeGraphBoundary pass with its GraphBoundaryLegalized verifier.
 *
 * The input is the text PyPTO's python_print emits for a program
 * (`@pl.program class X: ...`). hilo_pto_parse builds a hilo_pto_program
 * that owns everything in one arena; hilo_pto_print regenerates the text,
 * and an unmodified program prints back byte for byte (comments included).
 *
 * Rejections are reported through hilo_diags with a GBnnn code (see
 * docs/pto.md for the table); the library never exits the process.
 */
#ifndef HILO_PTO_H
#define HILO_PTO_H

#include "hilo/base.h"

#ifdef __cplusplus
extern "C" {
#endif

typedef struct hilo_pto_program hilo_pto_program;

typedef enum hilo_pto_runtime {
	HILO_PTO_RUNTIME_TENSORMAP_AND_RINGBUFFER, /* PyPTO's default */
	HILO_PTO_RUNTIME_HOST_BUILD_GRAPH,
} hilo_pto_runtime;

/* Parses program text. file names the input in diagnostics; src need not
 * be NUL-terminated and must outlive the program only during this call
 * (the text is copied). Returns NULL and adds located errors to diags on
 * malformed input. */
HILO_API hilo_pto_program *hilo_pto_parse(const char *file, const char *src, size_t len,
	hilo_diags *diags);
/* As hilo_pto_parse, but takes src over instead of copying it: a buffer
 * from malloc holding len bytes and a NUL after them (as hilo_read_file
 * returns). The program keeps it as its text and frees it; on failure it
 * is freed before the call returns. Saves the copy, the input's share of
 * the peak memory while parsing. */
HILO_API hilo_pto_program *hilo_pto_parse_owned(const char *file, char *src, size_t len,
	hilo_diags *diags);
/* Reads and parses the file at path ("-": standard input); name names it
 * in diagnostics (NULL: path, "<stdin>" for "-"). A file that cannot be
 * read, is a directory, or holds only whitespace is an error ("empty
 * input: expected a PyPTO program"), as is a file that defines no function
 * (located at its first code line: "not a PyPTO program"; an HLO module or
 * any other text is not echoed back), and the parse errors of
 * hilo_pto_parse. For a regular file the program does not keep the text:
 * it is freed when parsing ends (line:col come from a table of line
 * starts, 4 bytes a line), and a later message (legalize, verify) shows
 * its source line read again from the file by offset - only while the
 * file is unchanged (device, inode, size, modification and change times as
 * when it was read; else the message has no source line). The program
 * holds the file open (close-on-exec) until it is destroyed. Standard
 * input, a pipe or a device is kept as text, like hilo_pto_parse_owned. */
HILO_API hilo_pto_program *hilo_pto_parse_file(const char *path, const char *name,
	hilo_diags *diags);
HILO_API void hilo_pto_program_destroy(hilo_pto_program *p);

/* Appends the program text to out. */
HILO_API void hilo_pto_print(const hilo_pto_program *p, hilo_buf *out);

/* legalize-graph-boundary (seed 002 Steps A-D). Returns 0 when the program
 * is legal (possibly rewritten), -1 with GBnnn errors in diags otherwise.
 * On error the program may be partially rewritten and must not be printed. */
HILO_API int hilo_pto_legalize_graph_boundary(hilo_pto_program *p, hilo_pto_runtime rt,
	hilo_diags *diags);

/* Rewrites beyond PyPTO's own pass, off by default so the default output
 * matches PyPTO's (docs/pto.md). */
enum {
	/* a tensor.create in a constant-trip loop becomes a view of one slot of
	 * a call-site buffer (trip count x the allocation) */
	HILO_PTO_SLOT_LOOP_ALLOCATIONS = 1u << 0,
	/* a top-level tensor.create whose shape reads boundary scalars (or
	 * values derived from them) is hoisted to the call site, which computes
	 * the shape, instead of being rejected with GB010 */
	HILO_PTO_HOIST_SCALAR_SHAPED_ALLOCATIONS = 1u << 1,
};
HILO_API int hilo_pto_legalize_graph_boundary_ex(hilo_pto_program *p, hilo_pto_runtime rt,
	unsigned flags, hilo_diags *diags);

/* verify-graph-boundary: re-derives the GraphBoundaryLegalized property.
 * Returns the number of violations added to diags (0 = verified). */
HILO_API int hilo_pto_verify_graph_boundary(const hilo_pto_program *p, hilo_diags *diags);

/* Statistics for --stats style reporting. */
HILO_API size_t hilo_pto_statement_count(const hilo_pto_program *p);

#ifdef __cplusplus
}
#endif

#endif
