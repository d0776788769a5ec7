/* Opcode table accessors and primitive types, all derived from
 * hilo/opcodes.def (the one opcode table). */
#include "hilo/ir.h"
#include "table.h"

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
#define NA HILO_OPF_ANY_ARITY
#define COMM HILO_OPF_COMM
#define COMMI HILO_OPF_COMM_INT
#define CONST HILO_OPF_CONST
#define CTRL HILO_OPF_CTRL
#define MOVE HILO_OPF_MOVE
#define DOTC HILO_OPF_DOTC
#define TRANS HILO_OPF_TRANS
#define X(e, s, a, f) {s, a, f},
#include "hilo/opcodes.def"
#undef X
#undef EW
#undef SE
#undef COLL
#undef SB
#undef NA
#undef COMM
#undef COMMI
#undef CONST
#undef CTRL
#undef MOVE
#undef DOTC
#undef TRANS
};

const char *hilo_opcode_name(hilo_opcode op)
{
	return op < HILO_OP_COUNT ? op_info[op].name : "<bad-opcode>";
}

bool hilo_opcode_is_commutative(hilo_opcode op, hilo_ptype t)
{
	unsigned f = hilo_opcode_flags(op);
	if (f & HILO_OPF_COMM)
		return true;
	return (f & HILO_OPF_COMM_INT) && (hilo_ptype_is_int(t) || t == HILO_T_PRED);
}

bool hilo_instr_is_commutative(const hilo_instr *i)
{
	return hilo_opcode_is_commutative(i->op, i->shape->type);
}

int hilo_opcode_arity(hilo_opcode op)
{
	return op < HILO_OP_COUNT ? op_info[op].arity : -1;
}

unsigned hilo_opcode_flags(hilo_opcode op)
{
	return op < HILO_OP_COUNT ? op_info[op].flags : 0;
}

bool hilo_opcode_completes_async(hilo_opcode op)
{
	switch (op) {
	case HILO_OP_ASYNC_UPDATE: case HILO_OP_ASYNC_DONE: case HILO_OP_COPY_DONE:
	case HILO_OP_SEND_DONE: case HILO_OP_RECV_DONE: case HILO_OP_ALL_REDUCE_DONE:
	case HILO_OP_ALL_GATHER_DONE: case HILO_OP_COLLECTIVE_PERMUTE_DONE:
		return true;
	default:
		return false;
	}
}

bool hilo_opcode_operands_ok(hilo_opcode op, uint32_t n)
{
	if (op >= HILO_OP_COUNT)
		return false;
	int a = op_info[op].arity;
	return a < 0 || (op_info[op].flags & HILO_OPF_ANY_ARITY) || (uint32_t)a == n;
}

/* Byte loop, no library call: the names are short and the parser looks
 * one up per instruction (opcode), per shape (element type) and per
 * attribute. */
int hilo_table_cmpn(const char *a, const char *s, size_t len)
{
	for (size_t k = 0; k < len; k++) {
		unsigned char x = (unsigned char)a[k], y = (unsigned char)s[k];
		if (x != y || !x)
			return x < y || !x ? -1 : 1; /* a ended: a sorts first */
	}
	return a[len] ? 1 : 0;
}

size_t hilo_table_find(const void *rows, size_t n, size_t stride, const char *s, size_t len)
{
	size_t lo = 0, hi = n;
	while (lo < hi) {
		size_t mid = (lo + hi) / 2;
		const char *name = *(const char *const *)((const char *)rows + mid * stride);
		int c = hilo_table_cmpn(name, s, len);
		if (c == 0)
			return mid;
		if (c < 0)
			lo = mid + 1;
		else
			hi = mid;
	}
	return n;
}

/* The table's rows are in name order (tests/unit/test_ir.c checks it),
 * so the enum itself is the sorted index. */
hilo_opcode hilo_opcode_lookup(const char *s, size_t len)
{
	return (hilo_opcode)hilo_table_find(op_info, HILO_OP_COUNT, sizeof op_info[0], s, len);
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
	if (len < 2 || len > 13)
		return HILO_T_INVALID;
	/* the rows a first letter can start (the enum keeps each letter's
	 * types together, but for f and c) */
	int lo, hi;
	switch (s[0]) {
	case 'p': lo = HILO_T_PRED; hi = HILO_T_PRED; break;
	case 's': lo = HILO_T_S1; hi = HILO_T_S64; break;
	case 'u': lo = HILO_T_U1; hi = HILO_T_U64; break;
	case 'b': lo = HILO_T_BF16; hi = HILO_T_BF16; break;
	case 'f': lo = HILO_T_F16; hi = HILO_T_F6E2M3FN; break;
	case 'c': lo = HILO_T_C64; hi = HILO_T_C128; break;
	case 't': lo = HILO_T_TOKEN; hi = HILO_T_TOKEN; break;
	case 'o': lo = HILO_T_OPAQUE; hi = HILO_T_OPAQUE; break;
	default: return HILO_T_INVALID;
	}
	for (int t = lo; t <= hi; t++)
		if (pt_info[t].name[0] == s[0] && hilo_table_cmpn(pt_info[t].name, s, len) == 0)
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
