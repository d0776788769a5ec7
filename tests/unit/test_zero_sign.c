/* Output comparison modulo the sign of zero (hilo-opt
 * --assume-no-signed-zeros): hilo_literal_describe_diff_nsz treats -0 and
 * +0 as equal only when asked, for real floats and complex halves; every
 * other difference still counts, and NaN == NaN either way. */
#include "check.h"

#include "hilo/eval.h"
#include "hilo/float.h"

#include <math.h>

static void test_f32(void)
{
	int64_t dims[1] = {3};
	hilo_shape s = {.type = HILO_T_F32, .rank = 1, .dims = dims};
	float xa[3] = {0.0f, 1.0f, NAN}, xb[3] = {-0.0f, 1.0f, NAN};
	hilo_literal a = {.shape = &s, .nbytes = sizeof xa, .data = xa};
	hilo_literal b = {.shape = &s, .nbytes = sizeof xb, .data = xb};
	char msg[256];
	CHECK(hilo_literal_describe_diff_nsz(&a, &b, 0, false, msg, sizeof msg));
	CHECK(hilo_literal_describe_diff(&a, &b, 0, msg, sizeof msg));
	CHECK(!hilo_literal_describe_diff_nsz(&a, &b, 0, true, msg, sizeof msg));
	xb[1] = 2.0f; /* a real difference stays one */
	CHECK(hilo_literal_describe_diff_nsz(&a, &b, 0, true, msg, sizeof msg));
	xb[1] = 1.0f;
	xb[0] = 1e-45f; /* the smallest subnormal is not a zero */
	CHECK(hilo_literal_describe_diff_nsz(&a, &b, 0, true, msg, sizeof msg));
}

static void test_other_types(void)
{
	int64_t dims[1] = {2};
	hilo_shape c = {.type = HILO_T_C64, .rank = 1, .dims = dims};
	float ca[4] = {0.0f, -0.0f, 1.0f, 2.0f}, cb[4] = {-0.0f, 0.0f, 1.0f, 2.0f};
	hilo_literal a = {.shape = &c, .nbytes = sizeof ca, .data = ca};
	hilo_literal b = {.shape = &c, .nbytes = sizeof cb, .data = cb};
	char msg[256];
	CHECK(hilo_literal_describe_diff_nsz(&a, &b, 0, false, msg, sizeof msg));
	CHECK(!hilo_literal_describe_diff_nsz(&a, &b, 0, true, msg, sizeof msg));
	/* integers have no signed zero: 0 vs INT_MIN bit patterns differ */
	hilo_shape si = {.type = HILO_T_S32, .rank = 1, .dims = dims};
	int32_t ia[2] = {0, 5}, ib[2] = {INT32_MIN, 5};
	hilo_literal x = {.shape = &si, .nbytes = sizeof ia, .data = ia};
	hilo_literal y = {.shape = &si, .nbytes = sizeof ib, .data = ib};
	CHECK(hilo_literal_describe_diff_nsz(&x, &y, 0, true, msg, sizeof msg));
	/* bf16 zeros: 0x0000 vs 0x8000 */
	hilo_shape sb = {.type = HILO_T_BF16, .rank = 1, .dims = dims};
	uint16_t ba[2] = {0x0000, 0x3F80}, bb[2] = {0x8000, 0x3F80};
	hilo_literal p = {.shape = &sb, .nbytes = sizeof ba, .data = ba};
	hilo_literal q = {.shape = &sb, .nbytes = sizeof bb, .data = bb};
	CHECK(hilo_literal_describe_diff_nsz(&p, &q, 0, false, msg, sizeof msg));
	CHECK(!hilo_literal_describe_diff_nsz(&p, &q, 0, true, msg, sizeof msg));
}

int main(void)
{
	test_f32();
	test_other_types();
	return CHECK_DONE();
}
