/* fuzz_pbtxt.c - libFuzzer target for the text-format proto reader
 * (.pbtxt: HloModuleProto, HloProto, HloSnapshot in protobuf's text format).
 *
 * Any bytes: read (errors are fine, crashes and leaks are not). A module
 * that reads must print as a text proto that reads again and prints the
 * same text, and as HLO text.
 */
#include "hilo/hlo_text.h"
#include "hilo/proto.h"

#include <stdlib.h>
#include <string.h>

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size);

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	hilo_diags d;
	hilo_diags_init(&d);
	(void)hilo_proto_looks_text(data, size);
	hilo_module *m = hilo_proto_read_text(data, size, "fuzz.pbtxt", &d);
	if (m) {
		hilo_buf t, a, b;
		hilo_buf_init(&t);
		hilo_buf_init(&a);
		hilo_buf_init(&b);
		hilo_print_text(&t, m, HILO_STYLE_DEFAULT);
		if (!hilo_proto_write_text(&a, m, HILO_PROTO_AS_READ, &d))
			abort();
		hilo_module *m2 = hilo_proto_read_text(a.data ? a.data : "", a.len, "fuzz2.pbtxt", &d);
		if (!m2)
			abort(); /* what we write must read back */
		if (!hilo_proto_write_text(&b, m2, HILO_PROTO_AS_READ, &d) || a.len != b.len ||
		    (a.len && memcmp(a.data, b.data, a.len)))
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
