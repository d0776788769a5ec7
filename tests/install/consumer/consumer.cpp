// The C++ consumer of an installed hilo: every public header included from
// C++17 (extern "C" linkage, no C-only constructs), then the work of
// consumer.c - parse a module, verify it, run a pass by name, print it -
// and the same through the flat C API (capi.h). Built by
// tests/install/run.sh with g++ -Werror against the installed headers and
// libhilo.so (pkg-config) and run. Usage: consumer_cxx FILE PASS
#include <hilo/base.h>
#include <hilo/capi.h>
#include <hilo/check.h>
#include <hilo/driver.h>
#include <hilo/eval.h>
#include <hilo/export.h>
#include <hilo/float.h>
#include <hilo/hlo_text.h>
#include <hilo/ir.h>
#include <hilo/npy.h>
#include <hilo/pass.h>
#include <hilo/plugin.h>
#include <hilo/proto.h>
#include <hilo/pto.h>
#include <hilo/tokens.h>
#include <hilo/verify.h>
#include <hilo/version.h>
#include <hilo/viz.h>

#include <cstdio>
#include <cstdlib>
#include <memory>
#include <string>

namespace {

// A module owned by a unique_ptr: hilo's create/destroy pairs fit RAII.
struct module_deleter {
	void operator()(hilo_module *m) const { hilo_module_destroy(m); }
};
using module_ptr = std::unique_ptr<hilo_module, module_deleter>;

std::string run_ir_api(const char *path, const char *pass_name)
{
	hilo_diags d;
	hilo_diags_init(&d);
	size_t len = 0;
	std::unique_ptr<char, decltype(&std::free)> text(hilo_read_file(path, &len, &d), &std::free);
	module_ptr m(text ? hilo_parse_text(text.get(), len, path, &d) : nullptr);
	const hilo_pass *p = hilo_pass_find(pass_name);
	std::string out;
	if (m && p && hilo_verify(m.get(), path, &d)) {
		hilo_driver_opts o{};
		o.filename = path;
		o.verify_each = true;
		if (hilo_run_passes(m.get(), &p, 1, &o, &d, nullptr) == HILO_DRIVER_OK) {
			hilo_buf b;
			hilo_buf_init(&b);
			if (hilo_print_text(&b, m.get(), HILO_STYLE_AUTO))
				out.assign(b.data, b.len);
			hilo_buf_free(&b);
		}
	} else if (m && !p) {
		std::fprintf(stderr, "consumer_cxx: unknown pass '%s'\n", pass_name);
	}
	hilo_diags_print(stderr, &d);
	hilo_diags_free(&d);
	return out;
}

std::string run_capi(const char *path, const char *pass_name)
{
	char *err = nullptr;
	hilo_handle *h = hilo_handle_load(path, &err);
	std::string out;
	if (h) {
		if (char *js = hilo_handle_run_passes(h, pass_name, 1, "rewrites", 3, 0, &err)) {
			hilo_free(js);
			if (char *t = hilo_handle_to_text(h, "auto", &err)) {
				out = t;
				hilo_free(t);
			}
		}
		hilo_handle_free(h);
	}
	if (err) {
		std::fputs(err, stderr);
		hilo_free(err);
	}
	return out;
}

} // namespace

int main(int argc, char **argv)
{
	if (argc != 3) {
		std::fprintf(stderr, "usage: consumer_cxx FILE PASS\n");
		return 2;
	}
	if (std::string(hilo_version()) != HILO_VERSION_STRING) {
		std::fprintf(stderr, "consumer_cxx: header %s, library %s\n", HILO_VERSION_STRING,
			hilo_version());
		return 1;
	}
	std::string a = run_ir_api(argv[1], argv[2]);
	if (a.empty())
		return 1;
	std::string b = run_capi(argv[1], argv[2]);
	if (b != a) {
		std::fprintf(stderr, "consumer_cxx: the C API printed a different module\n");
		return 1;
	}
	std::fwrite(a.data(), 1, a.size(), stdout);
	return 0;
}
