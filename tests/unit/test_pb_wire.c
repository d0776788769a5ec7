/* The hand-written proto writer and reader (src/proto/pb_wire.h,
 * pb_write.c, pb_read.c) against protobuf-c, which stays linked for the
 * cold sub-messages: the writer's bytes are canonical (protobuf-c unpacks
 * and repacks them to the same bytes: field order, shortest varints,
 * packed repeated fields, proto3 zero-skipping), for modules using every
 * literal encoding, metadata that does and does not fit OpMetadata, and
 * typed attribute messages. */
#include "check.h"

#include "hilo/hlo_text.h"
#include "hilo/proto.h"
#include "hlo.pb-c.h"

#include <string.h>

static const char mod_literals[] =
	"HloModule lits\n"
	"\n"
	"ENTRY %main (p: f32[2]) -> (s32[3], u32[2], s64[2], u64[2], c64[1], f64[2], pred[3], s8[2], f32[2]) {\n"
	"  %p = f32[2]{0} parameter(0), metadata={op_type=\"a\\\"b\" op_name=\"x/y\" source_line=7}\n"
	"  %a = s32[3]{0} constant({-1, 0, 2147483647}), metadata={op_name=\"z\" op_type=\"q\"}\n"
	"  %b = u32[2]{0} constant({4294967295, 1}), metadata={custom=\"k\"}\n"
	"  %c = s64[2]{0} constant({-9223372036854775808, 300})\n"
	"  %d = u64[2]{0} constant({18446744073709551615, 0})\n"
	"  %e = c64[1]{0} constant({(1, -2)})\n"
	"  %f = f64[2]{0} constant({0.5, -0})\n"
	"  %g = pred[3]{0} constant({true, false, true})\n"
	"  %h = s8[2]{0} constant({-128, 127})\n"
	"  %n = f32[2]{0} negate(%p), metadata={source_line=0}\n"
	"  ROOT %t = (s32[3], u32[2], s64[2], u64[2], c64[1], f64[2], pred[3], s8[2], f32[2]) tuple(%a, %b, %c, %d, %e, %f, %g, %h, %n)\n"
	"}\n";

static const char mod_attrs[] =
	"HloModule attrs, input_output_alias={ {0}: (0, {}, may-alias) }, frontend_attributes={a=\"b\"}\n"
	"\n"
	"%add (x: f32[], y: f32[]) -> f32[] {\n"
	"  %x = f32[] parameter(0)\n"
	"  %y = f32[] parameter(1)\n"
	"  ROOT %s = f32[] add(%x, %y)\n"
	"}\n"
	"\n"
	"ENTRY %main (p: f32[4,8], i: s32[2,1]) -> f32[2,8] {\n"
	"  %p = f32[4,8]{1,0} parameter(0), sharding={devices=[2,1]0,1}\n"
	"  %i = s32[2,1]{1,0} parameter(1)\n"
	"  %g = f32[2,8]{1,0} gather(%p, %i), offset_dims={1}, collapsed_slice_dims={0}, start_index_map={0}, index_vector_dim=1, slice_sizes={1,8}\n"
	"  %z = f32[] constant(0)\n"
	"  %rw = f32[2,8]{1,0} reduce-window(%g, %z), window={size=1x2 stride=1x1 pad=0_0x0_1}, to_apply=%add\n"
	"  %ar = f32[2,8]{1,0} all-reduce(%rw), replica_groups=[1,2]<=[2], to_apply=%add\n"
	"  %cp = f32[2,8]{1,0} collective-permute(%ar), source_target_pairs={{0,1},{1,0}}\n"
	"  %io = f32[2,8]{1,0} iota(), iota_dimension=1\n"
	"  ROOT %d = f32[2,8]{1,0} add(%cp, %io), frontend_attributes={x=\"y\"}\n"
	"}\n";

static void canonical(const char *text, size_t n, const char *name)
{
	hilo_diags d;
	hilo_diags_init(&d);
	hilo_module *m = hilo_parse_text(text, n, name, &d);
	if (!CHECK(m != NULL)) {
		hilo_diags_print(stderr, &d);
		hilo_diags_free(&d);
		return;
	}
	hilo_buf pb;
	hilo_buf_init(&pb);
	CHECK(hilo_proto_write(&pb, m, &d));
	Xla__HloModuleProto *mp = xla__hlo_module_proto__unpack(NULL, pb.len, (const uint8_t *)pb.data);
	if (CHECK(mp != NULL)) {
		size_t sz = xla__hlo_module_proto__get_packed_size(mp);
		uint8_t *again = malloc(sz + 1);
		size_t w = xla__hlo_module_proto__pack(mp, again);
		CHECK_EQ_I64((int64_t)w, (int64_t)pb.len);
		if (!CHECK(w == pb.len && !memcmp(again, pb.data, w))) {
			size_t k = 0;
			while (k < w && k < pb.len && again[k] == (uint8_t)pb.data[k])
				k++;
			fprintf(stderr, "  %s: first difference at byte %zu\n", name, k);
		}
		free(again);
		xla__hlo_module_proto__free_unpacked(mp, NULL);
	}
	/* and the reader gives the text back */
	hilo_module *m2 = hilo_proto_read(pb.data, pb.len, name, &d);
	if (CHECK(m2 != NULL)) {
		hilo_buf t1, t2;
		hilo_buf_init(&t1);
		hilo_buf_init(&t2);
		hilo_print_text(&t1, m, HILO_STYLE_AUTO);
		hilo_print_text(&t2, m2, HILO_STYLE_AUTO);
		CHECK_STR(hilo_buf_cstr(&t2), hilo_buf_cstr(&t1));
		hilo_buf_free(&t1);
		hilo_buf_free(&t2);
		hilo_module_destroy(m2);
	} else {
		hilo_diags_print(stderr, &d);
	}
	hilo_buf_free(&pb);
	hilo_module_destroy(m);
	hilo_diags_free(&d);
}

int main(void)
{
	canonical(mod_literals, sizeof mod_literals - 1, "lits.hlo");
	canonical(mod_attrs, sizeof mod_attrs - 1, "attrs.hlo");
	return CHECK_DONE();
}
