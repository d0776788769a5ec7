/* An out-of-tree program using an installed hilo: parse a module, verify
 * it, run a pass by name through the driver, print the result. Built by
 * tests/install/run.sh with pkg-config (static and shared) and with
 * find_package(hilo CONFIG). Usage: consumer FILE PASS */
#include <hilo/driver.h>
#include <hilo/hlo_text.h>
#include <hilo/verify.h>
#include <hilo/version.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int main(int argc, char **argv)
{
	if (argc != 3) {
		fprintf(stderr, "usage: consumer FILE PASS\n");
		return 2;
	}
	if (strcmp(hilo_version(), HILO_VERSION_STRING) != 0) {
		fprintf(stderr, "consumer: header %s, library %s\n", HILO_VERSION_STRING, hilo_version());
		return 1;
	}
	hilo_diags d;
	hilo_diags_init(&d);
	size_t len;
	char *text = hilo_read_file(argv[1], &len, &d);
	hilo_module *m = text ? hilo_parse_text(text, len, argv[1], &d) : NULL;
	int rc = 1;
	const hilo_pass *p = hilo_pass_find(argv[2]);
	if (m && p && hilo_verify(m, argv[1], &d)) {
		hilo_driver_opts o = {.filename = argv[1], .verify_each = true};
		if (hilo_run_passes(m, &p, 1, &o, &d, NULL) == HILO_DRIVER_OK) {
			hilo_buf out;
			hilo_buf_init(&out);
			if (hilo_print_text(&out, m, HILO_STYLE_AUTO)) {
				fwrite(out.data, 1, out.len, stdout);
				rc = 0;
			}
			hilo_buf_free(&out);
		}
	} else if (m && !p) {
		fprintf(stderr, "consumer: unknown pass '%s'\n", argv[2]);
	}
	hilo_diags_print(stderr, &d);
	hilo_diags_free(&d);
	if (m)
		hilo_module_destroy(m);
	free(text);
	return rc;
}
