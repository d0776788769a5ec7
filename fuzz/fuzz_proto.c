/* fuzz_proto.c - libFuzzer target for the binary HloModuleProto reader.
 *
 * Any bytes: read (errors are fine, crashes and leaks are not). A module
 * that reads must print as text and write a proto that reads again and
 * writes the same bytes (the writer is a fixed point of read-then-write).
 * The verifier is left to its own fuzzing (fuzz_hlo_text): it assumes
 * operand counts it does not check yet.
 *
 * Mutations: half of them libFuzzer's own bytes, half field by field
 * (proto_mutator.h), which gets past the length prefixes a byte flip
 * breaks: fields deleted, duplicated, moved, renumbered, their values set
 * to boundaries, at any depth of the module's messages.
 */
#include "hilo/hlo_text.h"
#include "hilo/proto.h"

#include <stdlib.h>
#include <string.h>

#include "proto_mutator.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);
size_t LLVMFuzzerMutate(uint8_t *data, size_t size, size_t max_size);
size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed);

size_t LLVMFuzzerCustomMutator(uint8_t *data, size_t size, size_t max_size, unsigned int seed)
{
	if (seed & 1)
		return LLVMFuzzerMutate(data, size, max_size);
	return pm_mutate(data, size, max_size, seed >> 1, LLVMFuzzerMutate);
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	hilo_diags d;
	hilo_diags_init(&d);
	(void)hilo_proto_looks_binary(data, size);
	hilo_module *m = hilo_proto_read(data, size, "fuzz.pb", &d);
	if (m) {
		hilo_buf t, a, b;
		hilo_buf_init(&t);
		hilo_buf_init(&a);
		hilo_buf_init(&b);
		hilo_print_text(&t, m, HILO_STYLE_DEFAULT);
		if (!hilo_proto_write(&a, m, &d))
			abort();
		hilo_module *m2 = hilo_proto_read(a.data ? a.data : "", a.len, "fuzz2.pb", &d);
		if (!m2)
			abort(); /* what we write must read back */
		if (!hilo_proto_write(&b, m2, &d) || a.len != b.len || (a.len && memcmp(a.data, b.data, a.len)))
			abort(); /* write(read(write(x))) == write(x) */
		hilo_module_destroy(m2);
		hilo_buf_free(&t);
		hilo_buf_free(&a);
		hilo_buf_free(&b);
		hilo_module_destroy(m);
	}
	hilo_diags_free(&d);
	return 0;
}
