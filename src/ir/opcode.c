/* Opcode table accessors and primitive types, all derived from
 * hilo/opcodes.def (the one opcode table). */
#include "hilo/ir.h"

#include <string.h>

static const struct {
	const char *name;
	int arity;
	unsigned flags;
} op_info[HILO_OP_COUNT] = {
#define EW HILO_OPF_EW
#define SE HILO_OPF_SE
#define COLL HILO_OPF_COLL
#define SB HILO_OPF_BOUNDS
#define X(e, s, a, f) {s, a, f},
#include "hilo/opcodes.def"
#undef X
#undef EW
#undef SE
#undef COLL
#undef SB
};

/* Sorted by name for binary search; tests/unit/test_ir.c checks it covers
 * every opcode in the table. */
static const struct {
	const char *name;
	hilo_opcode op;
} by_name[] = {
	{"abs", HILO_OP_ABS},
	{"acos", HILO_OP_ACOS},
	{"acosh", HILO_OP_ACOSH},
	{"add", HILO_OP_ADD},
	{"add-dependency", HILO_OP_ADD_DEPENDENCY},
	{"after-all", HILO_OP_AFTER_ALL},
	{"all-gather", HILO_OP_ALL_GATHER},
	{"all-gather-done", HILO_OP_ALL_GATHER_DONE},
	{"all-gather-start", HILO_OP_ALL_GATHER_START},
	{"all-reduce", HILO_OP_ALL_REDUCE},
	{"all-reduce-done", HILO_OP_ALL_REDUCE_DONE},
	{"all-reduce-start", HILO_OP_ALL_REDUCE_START},
	{"all-to-all", HILO_OP_ALL_TO_ALL},
	{"and", HILO_OP_AND},
	{"asin", HILO_OP_ASIN},
	{"asinh", HILO_OP_ASINH},
	{"async-done", HILO_OP_ASYNC_DONE},
	{"async-start", HILO_OP_ASYNC_START},
	{"async-update", HILO_OP_ASYNC_UPDATE},
	{"atan2", HILO_OP_ATAN2},
	{"atanh", HILO_OP_ATANH},
	{"batch-norm-grad", HILO_OP_BATCH_NORM_GRAD},
	{"batch-norm-inference", HILO_OP_BATCH_NORM_INFERENCE},
	{"batch-norm-training", HILO_OP_BATCH_NORM_TRAINING},
	{"bitcast", HILO_OP_BITCAST},
	{"bitcast-convert", HILO_OP_BITCAST_CONVERT},
	{"broadcast", HILO_OP_BROADCAST},
	{"call", HILO_OP_CALL},
	{"cbrt", HILO_OP_CBRT},
	{"ceil", HILO_OP_CEIL},
	{"cholesky", HILO_OP_CHOLESKY},
	{"clamp", HILO_OP_CLAMP},
	{"collective-broadcast", HILO_OP_COLLECTIVE_BROADCAST},
	{"collective-permute", HILO_OP_COLLECTIVE_PERMUTE},
	{"collective-permute-done", HILO_OP_COLLECTIVE_PERMUTE_DONE},
	{"collective-permute-start", HILO_OP_COLLECTIVE_PERMUTE_START},
	{"collective-reduce", HILO_OP_COLLECTIVE_REDUCE},
	{"compare", HILO_OP_COMPARE},
	{"complex", HILO_OP_COMPLEX},
	{"concatenate", HILO_OP_CONCATENATE},
	{"conditional", HILO_OP_CONDITIONAL},
	{"constant", HILO_OP_CONSTANT},
	{"convert", HILO_OP_CONVERT},
	{"convolution", HILO_OP_CONVOLUTION},
	{"copy", HILO_OP_COPY},
	{"copy-done", HILO_OP_COPY_DONE},
	{"copy-start", HILO_OP_COPY_START},
	{"cosh", HILO_OP_COSH},
	{"cosine", HILO_OP_COSINE},
	{"count-leading-zeros", HILO_OP_CLZ},
	{"custom-call", HILO_OP_CUSTOM_CALL},
	{"divide", HILO_OP_DIVIDE},
	{"domain", HILO_OP_DOMAIN},
	{"dot", HILO_OP_DOT},
	{"dynamic-reshape", HILO_OP_DYNAMIC_RESHAPE},
	{"dynamic-slice", HILO_OP_DYNAMIC_SLICE},
	{"dynamic-update-slice", HILO_OP_DYNAMIC_UPDATE_SLICE},
	{"erf", HILO_OP_ERF},
	{"exponential", HILO_OP_EXP},
	{"exponential-minus-one", HILO_OP_EXPM1},
	{"fft", HILO_OP_FFT},
	{"floor", HILO_OP_FLOOR},
	{"fusion", HILO_OP_FUSION},
	{"gather", HILO_OP_GATHER},
	{"get-dimension-size", HILO_OP_GET_DIMENSION_SIZE},
	{"get-tuple-element", HILO_OP_GET_TUPLE_ELEMENT},
	{"imag", HILO_OP_IMAG},
	{"infeed", HILO_OP_INFEED},
	{"iota", HILO_OP_IOTA},
	{"is-finite", HILO_OP_IS_FINITE},
	{"log", HILO_OP_LOG},
	{"log-plus-one", HILO_OP_LOG1P},
	{"logistic", HILO_OP_LOGISTIC},
	{"map", HILO_OP_MAP},
	{"maximum", HILO_OP_MAXIMUM},
	{"minimum", HILO_OP_MINIMUM},
	{"mulhi", HILO_OP_MULHI},
	{"multiply", HILO_OP_MULTIPLY},
	{"negate", HILO_OP_NEGATE},
	{"not", HILO_OP_NOT},
	{"opt-barrier", HILO_OP_OPT_BARRIER},
	{"or", HILO_OP_OR},
	{"outfeed", HILO_OP_OUTFEED},
	{"pad", HILO_OP_PAD},
	{"parameter", HILO_OP_PARAMETER},
	{"partition-id", HILO_OP_PARTITION_ID},
	{"popcnt", HILO_OP_POPCNT},
	{"power", HILO_OP_POWER},
	{"ragged-all-to-all", HILO_OP_RAGGED_ALL_TO_ALL},
	{"ragged-dot", HILO_OP_RAGGED_DOT},
	{"real", HILO_OP_REAL},
	{"recv", HILO_OP_RECV},
	{"recv-done", HILO_OP_RECV_DONE},
	{"reduce", HILO_OP_REDUCE},
	{"reduce-precision", HILO_OP_REDUCE_PRECISION},
	{"reduce-scatter", HILO_OP_REDUCE_SCATTER},
	{"reduce-window", HILO_OP_REDUCE_WINDOW},
	{"remainder", HILO_OP_REMAINDER},
	{"replica-id", HILO_OP_REPLICA_ID},
	{"reshape", HILO_OP_RESHAPE},
	{"reverse", HILO_OP_REVERSE},
	{"rng", HILO_OP_RNG},
	{"rng-bit-generator", HILO_OP_RNG_BIT_GENERATOR},
	{"rng-get-and-update-state", HILO_OP_RNG_GET_AND_UPDATE_STATE},
	{"round-nearest-afz", HILO_OP_ROUND_AFZ},
	{"round-nearest-even", HILO_OP_ROUND_EVEN},
	{"rsqrt", HILO_OP_RSQRT},
	{"scaled-dot", HILO_OP_SCALED_DOT},
	{"scan", HILO_OP_SCAN},
	{"scatter", HILO_OP_SCATTER},
	{"select", HILO_OP_SELECT},
	{"select-and-scatter", HILO_OP_SELECT_AND_SCATTER},
	{"send", HILO_OP_SEND},
	{"send-done", HILO_OP_SEND_DONE},
	{"set-dimension-size", HILO_OP_SET_DIMENSION_SIZE},
	{"shift-left", HILO_OP_SHL},
	{"shift-right-arithmetic", HILO_OP_SHRA},
	{"shift-right-logical", HILO_OP_SHRL},
	{"sign", HILO_OP_SIGN},
	{"sine", HILO_OP_SINE},
	{"sinh", HILO_OP_SINH},
	{"slice", HILO_OP_SLICE},
	{"sort", HILO_OP_SORT},
	{"sqrt", HILO_OP_SQRT},
	{"stochastic-convert", HILO_OP_STOCHASTIC_CONVERT},
	{"subtract", HILO_OP_SUBTRACT},
	{"tan", HILO_OP_TAN},
	{"tanh", HILO_OP_TANH},
	{"topk", HILO_OP_TOPK},
	{"transpose", HILO_OP_TRANSPOSE},
	{"triangular-solve", HILO_OP_TRIANGULAR_SOLVE},
	{"tuple", HILO_OP_TUPLE},
	{"while", HILO_OP_WHILE},
	{"xor", HILO_OP_XOR},
};

const char *hilo_opcode_name(hilo_opcode op)
{
	return op < HILO_OP_COUNT ? op_info[op].name : "<bad-opcode>";
}

int hilo_opcode_arity(hilo_opcode op)
{
	return op < HILO_OP_COUNT ? op_info[op].arity : -1;
}

unsigned hilo_opcode_flags(hilo_opcode op)
{
	return op < HILO_OP_COUNT ? op_info[op].flags : 0;
}

static int cmpn(const char *a, const char *s, size_t len)
{
	int c = strncmp(a, s, len);
	if (c)
		return c;
	return a[len] ? 1 : 0;
}

hilo_opcode hilo_opcode_lookup(const char *s, size_t len)
{
	size_t lo = 0, hi = sizeof by_name / sizeof by_name[0];
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		int c = cmpn(by_name[mid].name, s, len);
		if (c == 0)
			return by_name[mid].op;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return HILO_OP_COUNT;
}

/* ---- primitive types ---- */

static const struct {
	const char *name;
	int bits;
	int bytes;
} pt_info[HILO_T_COUNT] = {
	[HILO_T_INVALID] = {"invalid", 0, 0},
	[HILO_T_PRED] = {"pred", 1, 1},
	[HILO_T_S1] = {"s1", 1, 1}, [HILO_T_S2] = {"s2", 2, 1}, [HILO_T_S4] = {"s4", 4, 1},
	[HILO_T_S8] = {"s8", 8, 1}, [HILO_T_S16] = {"s16", 16, 2}, [HILO_T_S32] = {"s32", 32, 4},
	[HILO_T_S64] = {"s64", 64, 8},
	[HILO_T_U1] = {"u1", 1, 1}, [HILO_T_U2] = {"u2", 2, 1}, [HILO_T_U4] = {"u4", 4, 1},
	[HILO_T_U8] = {"u8", 8, 1}, [HILO_T_U16] = {"u16", 16, 2}, [HILO_T_U32] = {"u32", 32, 4},
	[HILO_T_U64] = {"u64", 64, 8},
	[HILO_T_F16] = {"f16", 16, 2}, [HILO_T_BF16] = {"bf16", 16, 2}, [HILO_T_F32] = {"f32", 32, 4},
	[HILO_T_F64] = {"f64", 64, 8}, [HILO_T_C64] = {"c64", 64, 8}, [HILO_T_C128] = {"c128", 128, 16},
	[HILO_T_F8E5M2] = {"f8e5m2", 8, 1}, [HILO_T_F8E4M3] = {"f8e4m3", 8, 1},
	[HILO_T_F8E4M3FN] = {"f8e4m3fn", 8, 1}, [HILO_T_F8E4M3B11FNUZ] = {"f8e4m3b11fnuz", 8, 1},
	[HILO_T_F8E3M4] = {"f8e3m4", 8, 1}, [HILO_T_F8E5M2FNUZ] = {"f8e5m2fnuz", 8, 1},
	[HILO_T_F8E4M3FNUZ] = {"f8e4m3fnuz", 8, 1}, [HILO_T_F8E8M0FNU] = {"f8e8m0fnu", 8, 1},
	[HILO_T_F4E2M1FN] = {"f4e2m1fn", 4, 1}, [HILO_T_F6E3M2FN] = {"f6e3m2fn", 6, 1},
	[HILO_T_F6E2M3FN] = {"f6e2m3fn", 6, 1},
	[HILO_T_TOKEN] = {"token", 0, 0}, [HILO_T_OPAQUE] = {"opaque", 0, 0},
	[HILO_T_TUPLE] = {"tuple", 0, 0},
};

const char *hilo_ptype_name(hilo_ptype t)
{
	return t < HILO_T_COUNT ? pt_info[t].name : "invalid";
}

hilo_ptype hilo_ptype_lookup(const char *s, size_t len)
{
	for (int t = HILO_T_PRED; t <= HILO_T_OPAQUE; t++)
		if (cmpn(pt_info[t].name, s, len) == 0)
			return (hilo_ptype)t;
	return HILO_T_INVALID;
}

int hilo_ptype_bytes(hilo_ptype t)
{
	return t < HILO_T_COUNT ? pt_info[t].bytes : 0;
}

int hilo_ptype_bits(hilo_ptype t)
{
	return t < HILO_T_COUNT ? pt_info[t].bits : 0;
}

bool hilo_ptype_is_float(hilo_ptype t)
{
	return (t >= HILO_T_F16 && t <= HILO_T_F64) || (t >= HILO_T_F8E5M2 && t <= HILO_T_F6E2M3FN);
}

bool hilo_ptype_is_complex(hilo_ptype t)
{
	return t == HILO_T_C64 || t == HILO_T_C128;
}

bool hilo_ptype_is_signed_int(hilo_ptype t)
{
	return t >= HILO_T_S1 && t <= HILO_T_S64;
}

bool hilo_ptype_is_unsigned_int(hilo_ptype t)
{
	return t >= HILO_T_U1 && t <= HILO_T_U64;
}

bool hilo_ptype_is_int(hilo_ptype t)
{
	return hilo_ptype_is_signed_int(t) || hilo_ptype_is_unsigned_int(t);
}

const char *hilo_compare_default_type(hilo_ptype t)
{
	if (hilo_ptype_is_signed_int(t))
		return "SIGNED";
	if (hilo_ptype_is_unsigned_int(t) || t == HILO_T_PRED)
		return "UNSIGNED";
	if (hilo_ptype_is_float(t) || hilo_ptype_is_complex(t))
		return "FLOAT";
	return NULL;
}

bool hilo_compare_type_ok(hilo_ptype t, const char *type)
{
	if (!type)
		return true;
	const char *def = hilo_compare_default_type(t);
	if (def && !strcmp(type, def))
		return true;
	return hilo_ptype_is_float(t) && !strcmp(type, "TOTALORDER");
}
