/* hilo/ir.h - the HLO intermediate representation.
 *
 * A module owns one arena; every computation, instruction, shape, literal
 * and string of the module lives in it and is freed by hilo_module_destroy.
 * Sections: opcodes, shapes, literals, attributes, instructions,
 * computations, module, rewriting API.
 *
 * Invariants (checked by hilo_verify):
 *  - an instruction's users list holds one entry per (user, operand slot)
 *    that names it; every operand write goes through hilo_instr_set_operand;
 *  - a computation's instruction list is in an order where operands come
 *    first (the printer re-derives such an order if a pass broke it);
 *  - attributes keep the order they were parsed in; new ones are inserted
 *    in XLA's print order, so printing is canonical.
 */
#ifndef HILO_IR_H
#define HILO_IR_H

#include "hilo/base.h"

#ifdef __cplusplus
extern "C" {
#endif

/* ---- opcodes ---------------------------------------------------------- */

enum {
	HILO_OPF_EW = 1,    /* elementwise */
	HILO_OPF_SE = 2,    /* always side-effecting */
	HILO_OPF_COLL = 4,  /* collective communication */
	HILO_OPF_BOUNDS = 8, /* elementwise ternary whose operands 0 and 2 are
	                      * bounds: scalars or the result's shape (clamp) */
	HILO_OPF_ANY_ARITY = 16, /* operand count not enforced (rng-bit-generator) */
	HILO_OPF_COMM = 32,  /* binary, commutative bit for bit */
	HILO_OPF_COMM_INT = 64, /* binary, commutative on integer and pred types only */
	HILO_OPF_CONST = 128, /* a constant value (constant, iota) */
	HILO_OPF_CTRL = 256,  /* control flow: calls a computation */
	HILO_OPF_MOVE = 512,  /* data movement: slices, reshapes, copies, tuples */
	HILO_OPF_DOTC = 1024, /* a contraction: dot, convolution (their own cost category) */
	HILO_OPF_TRANS = 2048, /* transcendental elementwise (cost: transcendentals, not flops) */
};

typedef enum hilo_opcode {
#define X(e, s, a, f) HILO_OP_##e,
#include "hilo/opcodes.def"
#undef X
	HILO_OP_COUNT
} hilo_opcode;

HILO_API const char *hilo_opcode_name(hilo_opcode op);
HILO_API int hilo_opcode_arity(hilo_opcode op);        /* -1 = variadic */
HILO_API unsigned hilo_opcode_flags(hilo_opcode op);
/* Whether n operands suit op by the table: variadic (arity -1), the
 * HILO_OPF_ANY_ARITY flag, or exactly the arity. Verifier, proto reader
 * and evaluator all use this one rule. */
HILO_API bool hilo_opcode_operands_ok(hilo_opcode op, uint32_t n);
/* True for the ops whose operand 0 must be the op that started them
 * (async-update/-done, copy-done, send-done, recv-done and the
 * collectives' -done): a region that keeps one keeps its start. */
HILO_API bool hilo_opcode_completes_async(hilo_opcode op);
/* Returns HILO_OP_COUNT when the name is not an opcode. */
HILO_API hilo_opcode hilo_opcode_lookup(const char *s, size_t len);

/* ---- shapes ----------------------------------------------------------- */

typedef enum hilo_ptype {
	HILO_T_INVALID,
	HILO_T_PRED,
	HILO_T_S1, HILO_T_S2, HILO_T_S4, HILO_T_S8, HILO_T_S16, HILO_T_S32, HILO_T_S64,
	HILO_T_U1, HILO_T_U2, HILO_T_U4, HILO_T_U8, HILO_T_U16, HILO_T_U32, HILO_T_U64,
	HILO_T_F16, HILO_T_BF16, HILO_T_F32, HILO_T_F64, HILO_T_C64, HILO_T_C128,
	HILO_T_F8E5M2, HILO_T_F8E4M3, HILO_T_F8E4M3FN, HILO_T_F8E4M3B11FNUZ,
	HILO_T_F8E3M4, HILO_T_F8E5M2FNUZ, HILO_T_F8E4M3FNUZ, HILO_T_F8E8M0FNU,
	HILO_T_F4E2M1FN, HILO_T_F6E3M2FN, HILO_T_F6E2M3FN,
	HILO_T_TOKEN, HILO_T_OPAQUE,
	HILO_T_TUPLE,
	HILO_T_COUNT
} hilo_ptype;

HILO_API const char *hilo_ptype_name(hilo_ptype t);
HILO_API hilo_ptype hilo_ptype_lookup(const char *s, size_t len); /* INVALID if none */
/* Storage size of one element in bytes in hilo literals (sub-byte types
 * take one byte each; pred one byte; tuple/token/opaque 0). */
HILO_API int hilo_ptype_bytes(hilo_ptype t);
/* Bit width as XLA defines it (pred 1... s4 4, f8 8, ...). */
HILO_API int hilo_ptype_bits(hilo_ptype t);
HILO_API bool hilo_ptype_is_float(hilo_ptype t);   /* incl. f8/f6/f4 variants */
HILO_API bool hilo_ptype_is_complex(hilo_ptype t);
HILO_API bool hilo_ptype_is_signed_int(hilo_ptype t);
HILO_API bool hilo_ptype_is_unsigned_int(hilo_ptype t);
HILO_API bool hilo_ptype_is_int(hilo_ptype t);     /* signed or unsigned */
/* The comparison type compare's operands of element type t get when
 * type= is absent: "SIGNED" (signed ints), "UNSIGNED" (unsigned ints,
 * pred), "FLOAT" (floats, complex); NULL for other types. */
HILO_API const char *hilo_compare_default_type(hilo_ptype t);
/* Whether compare's type= value (NULL: absent) is valid for operands of
 * element type t, as XLA's verifier has it: the default type, or
 * TOTALORDER on real floats. */
HILO_API bool hilo_compare_type_ok(hilo_ptype t, const char *type);

/* The largest rank the library's fixed-size per-dimension buffers take
 * (passes decline higher ranks; the text parser rejects them). */
enum { HILO_MAX_RANK = 64 };

enum { HILO_DIM_STATIC = 0, HILO_DIM_BOUNDED = 1, HILO_DIM_UNBOUNDED = 2 };

typedef struct hilo_layout {
	int n;                  /* entries in minor_to_major */
	int64_t *minor_to_major;
	const char *tail;       /* text after ':' (tiles, memory space, ...) or NULL */
} hilo_layout;

/* Shapes are immutable and interned (hash-consed): every shape is made by
 * the constructors below in a hilo_shape_table, which returns one object
 * per distinct shape. A module owns one table (m->shapes, in its arena):
 * within one module two shapes are equal (hilo_shape_equal) exactly when
 * they are the same pointer, so instructions share a handful of shape
 * objects. To change a shape, ask the table for the changed one. Never
 * build or edit a struct hilo_shape by hand outside src/ir/shape.c (the
 * unit.shape_build test greps for it): a hand-built shape is not interned
 * (table == NULL), the constructors and hilo_shape_intern take it as a
 * description and return the interned copy.
 *
 * The key of a shape is everything that prints: element type, dims,
 * dynamic flags (an all-static dyn array is the same as none), the layout
 * (none, minor_to_major, tail text; "no layout" and the default layout
 * are different shapes), the b(...) flag and, for tuples, the element
 * shapes (themselves interned in the same table). Tuples have no layout.
 *
 * Shapes outside any module (the rewrite validator's term tables) use a
 * table of their own (hilo_shape_table_create in their arena); temporary
 * views that only need a scalar's element type print and count through
 * hilo_print_element / hilo_dims_elements instead of a shape. */
typedef struct hilo_shape hilo_shape;
typedef struct hilo_shape_table hilo_shape_table;
struct hilo_shape {
	hilo_ptype type;
	int rank;               /* arrays: number of dims */
	int64_t *dims;          /* bound for dynamic dims */
	uint8_t *dyn;           /* per-dim HILO_DIM_*, or NULL if all static */
	hilo_layout *layout;    /* NULL: no layout printed */
	int ntuple;             /* tuples: element count */
	hilo_shape **elems;     /* tuples: element shapes */
	bool buffer;            /* the b(...) wrapper (NEW in XLA) */
	uint32_t hash;          /* of the key; same in every table */
	const hilo_shape_table *table; /* the table that interned it; NULL: hand-built */
};

/* A table of interned shapes in arena a (its shapes live as long as a).
 * The slots are one tracked-heap block of a, grown by doubling in place:
 * a guard that catches on a keeps a table made before it intact. NULL only
 * when out of memory without a guard. */
HILO_API hilo_shape_table *hilo_shape_table_create(hilo_arena *a);
/* Distinct shapes in t. */
HILO_API size_t hilo_shape_table_count(const hilo_shape_table *t);

/* The constructors. Each returns the one shape of t equal to what it
 * describes; the inputs are copied (they may live anywhere) and shapes
 * passed in may belong to another table or be hand-built (they are
 * interned into t first). NULL only when out of memory without a guard. */
/* An array without layout; dyn (per-dim HILO_DIM_*) may be NULL. */
HILO_API hilo_shape *hilo_shape_array(hilo_shape_table *t, hilo_ptype type, int rank,
	const int64_t *dims, const uint8_t *dyn);
/* An array with the given layout (copied; NULL: none). */
HILO_API hilo_shape *hilo_shape_array_layout(hilo_shape_table *t, hilo_ptype type, int rank,
	const int64_t *dims, const uint8_t *dyn, const hilo_layout *layout);
/* An array with XLA's default layout (minor_to_major rank-1..0,
 * ShapeUtil::MakeShape); a scalar gets none. */
HILO_API hilo_shape *hilo_shape_array_default(hilo_shape_table *t, hilo_ptype type, int rank,
	const int64_t *dims, const uint8_t *dyn);
/* A scalar (rank 0, no layout); also token[] and opaque[]. */
HILO_API hilo_shape *hilo_shape_scalar(hilo_shape_table *t, hilo_ptype type);
/* A tuple of n elements (not a buffer). */
HILO_API hilo_shape *hilo_shape_tuple(hilo_shape_table *t, int n, hilo_shape *const *elems);
/* s itself when it is t's, else t's copy of it (deep); NULL for NULL. */
HILO_API hilo_shape *hilo_shape_intern(hilo_shape_table *t, const hilo_shape *s);
/* Edits of s (everything else kept): */
/* the layout replaced (NULL: none); */
HILO_API hilo_shape *hilo_shape_with_layout(hilo_shape_table *t, const hilo_shape *s,
	const hilo_layout *layout);
/* another element type, not a b(...) buffer (ShapeUtil::ChangeElementType); */
HILO_API hilo_shape *hilo_shape_retype(hilo_shape_table *t, const hilo_shape *s, hilo_ptype type);
/* dimension d resized to n (its dynamic flag and the layout kept); */
HILO_API hilo_shape *hilo_shape_with_dim(hilo_shape_table *t, const hilo_shape *s, int d, int64_t n);
/* other dynamic flags (NULL: all static); */
HILO_API hilo_shape *hilo_shape_with_dyn(hilo_shape_table *t, const hilo_shape *s, const uint8_t *dyn);
/* with or without the b(...) wrapper; */
HILO_API hilo_shape *hilo_shape_with_buffer(hilo_shape_table *t, const hilo_shape *s, bool buffer);
/* tuple element k replaced by e; */
HILO_API hilo_shape *hilo_shape_tuple_set(hilo_shape_table *t, const hilo_shape *s, int k,
	const hilo_shape *e);
/* e inserted before element k (k == ntuple appends); */
HILO_API hilo_shape *hilo_shape_tuple_insert(hilo_shape_table *t, const hilo_shape *s, int k,
	const hilo_shape *e);
/* tuple element k removed. */
HILO_API hilo_shape *hilo_shape_tuple_remove(hilo_shape_table *t, const hilo_shape *s, int k);

/* Number of elements of dims[0..rank), or -1 on overflow past 2^62 or a
 * negative size. */
HILO_API int64_t hilo_dims_elements(int rank, const int64_t *dims);
/* Number of elements of an array shape, or -1 on overflow past 2^62. */
HILO_API int64_t hilo_shape_elements(const hilo_shape *s);
/* Same rank and dims (element types, layouts and tuples not compared). */
HILO_API bool hilo_shape_same_dims(const hilo_shape *a, const hilo_shape *b);
/* Bytes of an array shape's elements as hilo literals store them, or -1
 * when the element count or the byte size overflows int64. */
HILO_API int64_t hilo_shape_bytes(const hilo_shape *s);
HILO_API bool hilo_shape_is_tuple(const hilo_shape *s);
HILO_API bool hilo_shape_is_array(const hilo_shape *s);
/* Same element type and dims, tuples elementwise (layout ignored); NULL
 * equals only NULL. a == b answers at once. */
HILO_API bool hilo_shape_compatible(const hilo_shape *a, const hilo_shape *b);
/* Same type, dims, dynamic flags, layout and b(...) flag. Shapes of one
 * table (one module) are equal exactly when they are one pointer: the
 * function answers that at once; shapes of different tables compare by
 * hash first, then by content. */
HILO_API bool hilo_shape_equal(const hilo_shape *a, const hilo_shape *b);
/* Renders the shape as XLA prints it (with layout when it has one). */
HILO_API void hilo_shape_print(hilo_buf *b, const hilo_shape *s);
/* The same without layouts (XLA's HumanString, used in signatures). */
HILO_API void hilo_shape_print_human(hilo_buf *b, const hilo_shape *s);
/* Formats into an arena (for messages). */
HILO_API char *hilo_shape_str(hilo_arena *a, const hilo_shape *s);

/* ---- literals --------------------------------------------------------- */

typedef struct hilo_literal hilo_literal;
struct hilo_literal {
	hilo_shape *shape;
	bool elided;            /* printed as {...}: values unknown */
	bool pred_as_int;       /* pred values were printed 1/0 (older XLA) */
	bool splat;             /* every element holds element 0, stored once (nbytes is
	                         * one element's): a zero written as one scalar
	                         * (f32[3,3] constant(0)), the evaluator's broadcasts */
	bool scalar_text;       /* written as one scalar for an array, f32[2,3]
	                         * constant(1.5): XLA's parser (and its CPU) give
	                         * element 0 that value and every other element 0;
	                         * printed back as written. A zero one is a splat */
	size_t nbytes;          /* bytes stored: elements * hilo_ptype_bytes, or one
	                         * element's for a splat (read elements through
	                         * hilo_literal_elem, never past nbytes) */
	void *data;             /* little-endian host values; complex = 2 floats */
	int ntuple;             /* tuple literals */
	hilo_literal **elems;
};

/* Element k of a literal of integer or pred type whose values are known
 * (not elided), as int64 (as XLA's GetIntegralAsS64: unsigned values past
 * INT64_MAX wrap negative); false otherwise or when k is out of range. */
HILO_API bool hilo_literal_int_at(const hilo_literal *l, size_t k, int64_t *out);
/* The bytes of element k (row-major) of an array literal with values:
 * data + k * element size, or data itself for a splat (every element is
 * its one stored element). The one way to read an element: a splat holds
 * one. k must be below the shape's element count. */
HILO_API const void *hilo_literal_elem(const hilo_literal *l, size_t k);
/* Index of element k in l's stored data: k, or 0 for a splat. */
static inline size_t hilo_literal_slot(const hilo_literal *l, size_t k)
{
	return l->splat ? 0 : k;
}

/* ---- attributes ------------------------------------------------------- */

typedef enum hilo_attr_kind {
	HILO_ATTR_RAW,        /* value text kept verbatim (unmodelled attribute) */
	HILO_ATTR_INT,        /* index=, iota_dimension=, channel_id=, ... */
	HILO_ATTR_INTS,       /* {1,2} lists: dimensions=, dynamic_slice_sizes=, ... */
	HILO_ATTR_BOOL,
	HILO_ATTR_STRING,     /* "..." (escaped form kept as printed, quotes excluded) */
	HILO_ATTR_ENUM,       /* bare word: direction=EQ, kind=kLoop, ... */
	HILO_ATTR_SLICE,      /* slice={[0:2], [1:5:2]} */
	HILO_ATTR_PADDING,    /* padding=0_0x1_2_1 */
	HILO_ATTR_COMP,       /* to_apply=%c (index into called) */
	HILO_ATTR_COMPS,      /* branch_computations={%a, %b} (range in called) */
	HILO_ATTR_CONTROL,    /* control-predecessors: marks the position only */
	HILO_ATTR_METADATA,   /* metadata={...}: marks the position only */
} hilo_attr_kind;

/* Attribute ids: one per row of hilo/attrs.def (the one attribute table,
 * which also gives each its kind, proto field, print rank and flags).
 * Passes name attributes by id, never by key string. */
typedef enum hilo_attr_id {
#define A(id, key, kind, field, rank, flags) HILO_A_##id,
#include "hilo/attrs.def"
#undef A
	HILO_A_COUNT,
	HILO_A_UNKNOWN = HILO_A_COUNT /* not in the table: the key names it */
} hilo_attr_id;

enum {
	HILO_AF_NOSEM = 1,    /* no effect on the result (sharding, metadata, ...) */
};

/* The id of a key (HILO_A_UNKNOWN when the table has none). */
HILO_API hilo_attr_id hilo_attr_lookup(const char *s, size_t len);
/* Table columns by id ("?" / RAW / 0 for HILO_A_UNKNOWN). */
HILO_API const char *hilo_attr_id_key(hilo_attr_id id);
HILO_API hilo_attr_kind hilo_attr_id_kind(hilo_attr_id id);
HILO_API int hilo_attr_id_rank(hilo_attr_id id);
HILO_API unsigned hilo_attr_id_flags(hilo_attr_id id);

typedef struct hilo_attr {
	const char *key;      /* the table's key, or interned (unknown keys) */
	uint16_t id;          /* hilo_attr_id; HILO_A_UNKNOWN for unknown keys */
	uint8_t kind;         /* hilo_attr_kind */
	int n;                /* INTS: count; SLICE/PADDING: rank; COMPS: count */
	union {
		const char *text; /* RAW, STRING, ENUM */
		int64_t i;        /* INT, BOOL; COMP/COMPS: first index in called */
		int64_t *ints;    /* INTS; SLICE: 3*n (start,limit,stride); PADDING: 3*n (lo,hi,interior) */
	} v;
} hilo_attr;

/* Metadata: ordered (key, raw value) pairs, e.g. op_name -> "\"jit(f)/add\"". */
typedef struct hilo_md_entry {
	const char *key;
	const char *value;    /* raw text; strings keep their quotes */
} hilo_md_entry;

typedef struct hilo_metadata {
	int n;
	hilo_md_entry *e;
} hilo_metadata;

/* ---- instructions ----------------------------------------------------- */

typedef struct hilo_instr hilo_instr;
typedef struct hilo_comp hilo_comp;
typedef struct hilo_module hilo_module;

typedef struct hilo_use {
	hilo_instr *user;
	uint32_t slot;        /* operand index in user */
} hilo_use;

/* The rarely present parts of an instruction (called computations,
 * control dependencies, a comment), allocated on first use and NULL
 * otherwise; read them through the accessors below. */
typedef struct hilo_instr_cold {
	hilo_comp **called;   /* called computations, referred to by attrs */
	uint32_t ncalled;
	hilo_instr **ctrl_preds;
	uint32_t nctrl_preds, cap_ctrl_preds;
	hilo_instr **ctrl_succs;
	uint32_t nctrl_succs, cap_ctrl_succs;
	const char *comment;  /* comment lines printed before it (verbatim), or NULL */
} hilo_instr_cold;

/* Operands and uses stored inside the instruction; longer lists spill to
 * an arena array (operands/users then point there instead). */
enum { HILO_INLINE_OPERANDS = 2, HILO_INLINE_USERS = 1 };

/* The hot instruction record. Budget: HILO_INSTR_SIZE_BUDGET bytes on LP64
 * (tests/unit/test_compact.c asserts it). Fields that belong to a few
 * opcodes or few instructions live out of line: called computations,
 * control dependencies and the comment in `cold`; the literal (constants) and parameter number
 * (parameters) share a union behind hilo_instr_literal/param_no.
 * operands/users never point into another instruction: copying a
 * hilo_instr by value is not supported (inline lists would alias). */
enum { HILO_INSTR_SIZE_BUDGET = 176 };

struct hilo_instr {
	uint8_t op;           /* hilo_opcode */
	uint8_t async_op;     /* async sugar (custom-call-start ...): the wrapped
	                       * hilo_opcode; HILO_OP_COUNT otherwise */
	bool is_root;
	uint8_t text_bits;    /* HILO_TEXT_*: how the input's text spelled it */
	uint32_t id;          /* stable, unique within the module */
	const char *name;     /* interned, without '%' */
	hilo_shape *shape;
	hilo_comp *parent;
	hilo_instr *prev, *next;   /* order in the parent computation */

	hilo_instr **operands;     /* inline_ops while they fit */
	uint32_t noperands, cap_operands;
	hilo_use *users;           /* inline_users while they fit */
	uint32_t nusers, cap_users;

	hilo_attr *attrs;     /* in print order */
	uint32_t nattrs, cap_attrs;
	int line, col;        /* source position when parsed, else 0 */
	hilo_metadata *metadata;    /* NULL if none */
	hilo_instr_cold *cold;      /* NULL if none */
	union {
		hilo_literal *literal;  /* CONSTANT: constant(...) */
		int64_t param_no;       /* PARAMETER: parameter(N) */
	} u;                  /* read with hilo_instr_literal / hilo_instr_param_no */
	void *aux;            /* scratch pointer for passes (reset before use) */
	int64_t mark;         /* scratch integer for passes/walks */
	hilo_instr *inline_ops[HILO_INLINE_OPERANDS];
	hilo_use inline_users[HILO_INLINE_USERS];
};

HILO_STATIC_ASSERT(HILO_OP_COUNT <= 255, "hilo_instr.op and async_op are 8 bits");

/* hilo_instr.text_bits: an operand list of six or more written without
 * XLA's /\*index=N*\/ markers (older printers), printed so by the auto
 * style. */
enum { HILO_TEXT_NO_INDEX_MARKS = 1 };

/* The constant's literal (NULL unless i is a CONSTANT). */
static inline hilo_literal *hilo_instr_literal(const hilo_instr *i)
{
	return i->op == HILO_OP_CONSTANT ? i->u.literal : NULL;
}

/* The parameter number (-1 unless i is a PARAMETER). */
static inline int64_t hilo_instr_param_no(const hilo_instr *i)
{
	return i->op == HILO_OP_PARAMETER ? i->u.param_no : -1;
}

/* Called computations (count and array, NULL when none); add them with
 * hilo_instr_add_called. The array is the instruction's own: a pass may
 * retarget an entry in place. */
static inline uint32_t hilo_instr_ncalled(const hilo_instr *i)
{
	return i->cold ? i->cold->ncalled : 0;
}

static inline hilo_comp **hilo_instr_called(const hilo_instr *i)
{
	return i->cold ? i->cold->called : NULL;
}

/* Control predecessors / successors (count and array; the array may be
 * NULL when the count is 0). Edit them with hilo_instr_add_ctrl_pred and
 * hilo_instr_remove_ctrl_deps. */
static inline uint32_t hilo_instr_nctrl_preds(const hilo_instr *i)
{
	return i->cold ? i->cold->nctrl_preds : 0;
}

static inline hilo_instr *const *hilo_instr_ctrl_preds(const hilo_instr *i)
{
	return i->cold ? i->cold->ctrl_preds : NULL;
}

static inline uint32_t hilo_instr_nctrl_succs(const hilo_instr *i)
{
	return i->cold ? i->cold->nctrl_succs : 0;
}

static inline hilo_instr *const *hilo_instr_ctrl_succs(const hilo_instr *i)
{
	return i->cold ? i->cold->ctrl_succs : NULL;
}

/* Comment lines printed before the instruction (verbatim), or NULL. */
static inline const char *hilo_instr_comment(const hilo_instr *i)
{
	return i->cold ? i->cold->comment : NULL;
}

/* ---- computations ----------------------------------------------------- */

struct hilo_comp {
	const char *name;
	hilo_module *parent;
	hilo_instr *first, *last;
	uint32_t ninstrs;
	hilo_instr **params;  /* by parameter number */
	uint32_t nparams, cap_params;
	hilo_instr *root;
	bool is_entry;
	bool print_signature;     /* the (p: shape) -> shape header */
	const char *gap_before;   /* text between the previous computation and this
	                           * one when it is not the usual blank line, or NULL */
	const char *execution_thread; /* raw, or NULL */
	const char *brace_comment; /* text after the closing '}' on its line
	                           * (" // _take.352" in JAX dumps), or NULL */
	int line, col;
	int64_t mark;
	void *aux;
};

/* ---- module ----------------------------------------------------------- */

typedef struct hilo_module_attr {
	const char *key;
	const char *value;    /* raw text */
	const char *sep;      /* separator before it when not ", " (e.g. ",\n") */
} hilo_module_attr;

typedef enum hilo_print_style {
	HILO_STYLE_AUTO,
	HILO_STYLE_DEFAULT,   /* HloModule::ToString() */
	HILO_STYLE_LONG,      /* + operand shapes */
	HILO_STYLE_SHORT,     /* ShortParsable: no %, no operand shapes, no metadata */
} hilo_print_style;

struct hilo_module {
	hilo_arena *arena;
	hilo_strtab *strings;
	hilo_shape_table *shapes; /* every shape of the module, interned */
	const char *name;
	hilo_module_attr *attrs;
	uint32_t nattrs;
	const char *header;       /* comment lines before HloModule, verbatim, or NULL */
	const char *stack_frames; /* FileNames ... StackFrames table text, or NULL */
	const char *gap;          /* whitespace after the HloModule line (NULL: "\n\n") */
	const char *trailer;      /* whitespace after the last computation (NULL: "\n") */
	hilo_comp **comps;        /* in print order (callees first) */
	uint32_t ncomps, cap_comps;
	hilo_comp *entry;
	uint32_t next_id;
	hilo_print_style style;   /* the style the input was printed in */
	bool entry_last_no_keyword; /* input had no ENTRY keyword */
	bool no_entry_layout;     /* don't print a derived entry_computation_layout
	                           * (older XLA printers in the long style had none) */
	bool no_final_newline;    /* the input ended right after the last '}' */
	struct name_set *names;   /* every instruction name in use */
	void *proto_extra;        /* proto reader: fields it did not model, written
	                           * back by hilo_proto_write (src/formats/proto), or NULL */
};

/* ---- lifecycle -------------------------------------------------------- */

HILO_API hilo_module *hilo_module_create(const char *name);
/* A module whose arena is a child of parent (hilo_arena_create_in): an
 * out-of-memory jump to parent's guard frees it too. */
HILO_API hilo_module *hilo_module_create_in(const char *name, hilo_arena *parent);
HILO_API void hilo_module_destroy(hilo_module *m);
HILO_API hilo_comp *hilo_comp_create(hilo_module *m, const char *name);
/* Appends (or inserts before `before`, which may be NULL) in print order. */
HILO_API void hilo_module_add_comp(hilo_module *m, hilo_comp *c, hilo_comp *before);
HILO_API void hilo_module_remove_comp(hilo_module *m, hilo_comp *c);
/* Removes every computation keep() rejects, in one pass over the list
 * (order of the rest kept): removing many computations one call each is
 * quadratic in the module's computation count. */
HILO_API void hilo_module_retain_comps(hilo_module *m, bool (*keep)(const hilo_comp *c, void *ud),
	void *ud);
HILO_API hilo_comp *hilo_module_find_comp(const hilo_module *m, const char *name);

/* Returns a module-unique name derived from base ("add" -> "add.3"). */
HILO_API const char *hilo_module_unique_name(hilo_module *m, const char *base);
/* Records a name as used (the parser calls this). */
HILO_API void hilo_module_claim_name(hilo_module *m, const char *name);

/* ---- instruction construction ------------------------------------------ */

/* Creates an instruction (not yet in any computation) with a fresh id.
 * name may be NULL: a unique name is derived from the opcode. */
HILO_API hilo_instr *hilo_instr_create(hilo_module *m, hilo_opcode op, hilo_shape *shape,
	const char *name);
HILO_API void hilo_instr_add_operand(hilo_module *m, hilo_instr *i, hilo_instr *op);
HILO_API void hilo_instr_set_operand(hilo_module *m, hilo_instr *i, uint32_t slot, hilo_instr *op);
/* Drops all operands (updating their use lists). */
HILO_API void hilo_instr_clear_operands(hilo_instr *i);
HILO_API void hilo_instr_add_called(hilo_module *m, hilo_instr *i, hilo_comp *c);
HILO_API void hilo_instr_add_ctrl_pred(hilo_module *m, hilo_instr *i, hilo_instr *pred);
HILO_API void hilo_instr_remove_ctrl_deps(hilo_instr *i);
/* Adds the edge pred -> i to both lists as it stands (no duplicate check,
 * the attribute list untouched): for readers whose input already lists
 * control-predecessors. */
HILO_API void hilo_instr_link_ctrl(hilo_module *m, hilo_instr *i, hilo_instr *pred);
/* The cold record of i, allocated (zeroed) on first use. */
HILO_API hilo_instr_cold *hilo_instr_cold_get(hilo_module *m, hilo_instr *i);
HILO_API void hilo_instr_set_comment(hilo_module *m, hilo_instr *i, const char *comment);

/* Attribute helpers by id (hilo/attrs.def). get returns NULL when absent
 * (always for HILO_A_UNKNOWN). set replaces an existing attribute in place
 * or inserts it in the table's print rank. */
HILO_API hilo_attr *hilo_instr_attr(const hilo_instr *i, hilo_attr_id id);
HILO_API hilo_attr *hilo_instr_set_attr(hilo_module *m, hilo_instr *i, hilo_attr_id id,
	hilo_attr_kind kind);
HILO_API void hilo_instr_remove_attr(hilo_instr *i, hilo_attr_id id);
/* The same by key text, for readers of text and proto and for keys the
 * table does not know (kept verbatim). Passes use the id forms. */
HILO_API hilo_attr *hilo_instr_attr_named(const hilo_instr *i, const char *key);
HILO_API hilo_attr *hilo_instr_set_attr_named(hilo_module *m, hilo_instr *i, const char *key,
	hilo_attr_kind kind);
/* The attribute of i with a's id (a's key when a is not in the table). */
HILO_API hilo_attr *hilo_instr_attr_match(const hilo_instr *i, const hilo_attr *a);
HILO_API void hilo_attr_set_ints(hilo_module *m, hilo_attr *a, const int64_t *v, int n);
/* Whether an attribute can change a result: false for CONTROL, METADATA
 * and the table's NOSEM rows (sharding, frontend_attributes, ...). */
HILO_API bool hilo_attr_is_semantic(const hilo_attr *a);
/* Typed readers: return false / NULL when absent or of another kind. */
HILO_API bool hilo_instr_get_int(const hilo_instr *i, hilo_attr_id id, int64_t *out);
HILO_API const int64_t *hilo_instr_get_ints(const hilo_instr *i, hilo_attr_id id, int *n);
HILO_API bool hilo_instr_get_bool(const hilo_instr *i, hilo_attr_id id, bool *out);
HILO_API const char *hilo_instr_get_string(const hilo_instr *i, hilo_attr_id id);
HILO_API const char *hilo_instr_get_enum(const hilo_instr *i, hilo_attr_id id);
HILO_API const char *hilo_instr_get_raw(const hilo_instr *i, hilo_attr_id id);
HILO_API hilo_comp *hilo_instr_get_comp(const hilo_instr *i, hilo_attr_id id);
/* The value of frontend attribute `key` in frontend_attributes={k="v", ...},
 * unquoted, copied into buf (truncated to cap-1 bytes); false when absent. */
HILO_API bool hilo_instr_frontend_attr(const hilo_instr *i, const char *key, char *buf,
	size_t cap);
/* Sets frontend attribute key to the (unescaped, quote-free) value,
 * replacing its entry or inserting it in XLA's sorted print order. */
HILO_API void hilo_instr_set_frontend_attr(hilo_module *m, hilo_instr *i, const char *key,
	const char *value);
/* Gives dst a copy of src's metadata (none when src has none). */
HILO_API void hilo_instr_copy_metadata(hilo_module *m, hilo_instr *dst, const hilo_instr *src);
/* Is i a NeuronBoundaryMarker-Start or -End custom-call? (The markers are
 * identities of their operand's value whatever their side-effect flag.) */
HILO_API bool hilo_instr_is_boundary_marker(const hilo_instr *i);
/* Is i a NeuronBoundaryMarker-End custom-call? */
HILO_API bool hilo_instr_is_boundary_marker_end(const hilo_instr *i);

/* Metadata: get op_name (unquoted, unescaped into the arena) or NULL. */
HILO_API const char *hilo_instr_op_name(hilo_module *m, const hilo_instr *i);
/* Sets op_name to the given (unescaped) text, keeping other entries. */
HILO_API void hilo_instr_set_op_name(hilo_module *m, hilo_instr *i, const char *op_name);

/* Deep-copies an instruction's attributes, metadata, literal and called
 * computations (not operands) into a new instruction with a fresh id. */
HILO_API hilo_instr *hilo_instr_clone(hilo_module *m, const hilo_instr *src, const char *name);

/* Whether i's two operands may be swapped without changing a bit of its
 * result: the COMM rows of opcodes.def, and the COMMI rows (minimum,
 * maximum) on integer and pred types (on floats the evaluator, like XLA's,
 * returns the lhs on a signed-zero tie and the lhs NaN first). */
HILO_API bool hilo_instr_is_commutative(const hilo_instr *i);
/* The same for opcode op with result element type t. */
HILO_API bool hilo_opcode_is_commutative(hilo_opcode op, hilo_ptype t);

HILO_API bool hilo_instr_has_side_effect(const hilo_module *m, const hilo_instr *i);
/* Side effects through called computations (XLA's HasSideEffect, which
 * looks into called computations; src/ir/effects.c, the one helper): i
 * itself (hilo_instr_has_side_effect) or any instruction of a computation
 * i calls (to_apply, calls, a while's body and condition, ...),
 * transitively. memo caches the answer per computation across calls: a
 * hilo_ptrmap the caller initialises (hilo_ptrmap_init_in(&memo,
 * m->arena)), reserves for this and frees; it stays right while no
 * side-effecting instruction is added to a computation it has seen. NULL:
 * nothing cached. A call-graph cycle (invalid HLO) counts as a side
 * effect. Iterative: any call depth. */
HILO_API bool hilo_instr_has_side_effect_deep(const hilo_module *m, const hilo_instr *i,
	hilo_ptrmap *memo);
/* Does any instruction of c, or of what it calls, have a side effect? */
HILO_API bool hilo_comp_has_side_effect(const hilo_module *m, const hilo_comp *c, hilo_ptrmap *memo);

/* Element k of constant i's value by hilo_literal_int_at: the one reader
 * of integer constants for passes, evaluator and checker. */
HILO_API bool hilo_instr_const_int_at(const hilo_instr *i, size_t k, int64_t *out);

/* ---- computation editing ------------------------------------------------ */

/* Appends to the end, or inserts before `before`. */
HILO_API void hilo_comp_append(hilo_comp *c, hilo_instr *i);
HILO_API void hilo_comp_insert_before(hilo_comp *c, hilo_instr *before, hilo_instr *i);
/* Unlinks an instruction that has no users; drops its operands and control
 * edges. The memory stays in the arena. */
HILO_API void hilo_comp_remove(hilo_comp *c, hilo_instr *i);
HILO_API void hilo_comp_set_root(hilo_comp *c, hilo_instr *root);
/* Registers a parameter instruction (op PARAMETER, param_no set). */
HILO_API void hilo_comp_add_param(hilo_module *m, hilo_comp *c, hilo_instr *p);
/* Redirects every use of from to to (operands, and the root). O(uses). */
HILO_API void hilo_instr_replace_all_uses(hilo_module *m, hilo_instr *from, hilo_instr *to);

/* ---- checked edits (src/ir/edit.c; the rename in ir.c) -------------------
 * The in-place edits a pass written outside hilo needs, so that it never
 * writes a struct field (issue 30 §8). Each checks the whole request and
 * returns false, changing nothing, when it would break an invariant of
 * this header; what it cannot judge (whether attributes and shapes suit a
 * new opcode, whether a rewrite is sound) is left to hilo_verify and the
 * validator (hilo/check.h). None of them exits. */

/* Renames i to `name` (letters, digits, '_', '.', '-'): false when the
 * name is malformed or another instruction of the module holds it. The
 * old name is released, so hilo_module_unique_name may hand it out again. */
HILO_API bool hilo_instr_rename(hilo_module *m, hilo_instr *i, const char *name);
/* Makes c (one of m's computations, else false) the entry computation. */
HILO_API bool hilo_module_set_entry(hilo_module *m, hilo_comp *c);
/* Changes i's opcode in place (same id, operands, uses, attributes):
 * false when hilo_opcode_operands_ok refuses i's operand count for op, or
 * the change is to or from constant or parameter (their value lives in
 * the instruction), or i is async sugar (custom-call-start, ...). */
HILO_API bool hilo_instr_set_opcode(hilo_instr *i, hilo_opcode op);
/* Gives constant i a copy of literal l (from any module or arena) whose
 * shapes are i's: false when i is not a constant or l's element type and
 * dims differ from i's shape (layouts may differ) or l's data does not
 * fill its shape. */
HILO_API bool hilo_instr_set_literal(hilo_module *m, hilo_instr *i, const hilo_literal *l);
/* A new constant holding a copy of l, its shape l's interned in m's table
 * (not yet in any computation; name NULL: "constant", made unique). NULL
 * when l is NULL, its data does not fill its shape, or out of memory. */
HILO_API hilo_instr *hilo_instr_create_constant(hilo_module *m, const hilo_literal *l,
	const char *name);
/* Sets i's shape to s, interned into m's table when it came from
 * elsewhere: false for NULL, or when i is a constant and s's element type
 * or dims differ from its literal's. */
HILO_API bool hilo_instr_set_shape(hilo_module *m, hilo_instr *i, const hilo_shape *s);
/* Moves i, an instruction of c, before `before` (of c too), or to the end
 * when before is NULL: false when one of them is not in c or the new
 * place would put i before one of its operands or control predecessors,
 * or after one of its users or control successors. */
HILO_API bool hilo_comp_move_before(hilo_comp *c, hilo_instr *before, hilo_instr *i);

/* Instructions in post order (operands and control predecessors first),
 * from the roots in list order. Returns an arena array of ninstrs. */
HILO_API hilo_instr **hilo_comp_post_order(hilo_module *m, hilo_comp *c, uint32_t *n);
/* Computations in post order of the call graph (callees first). */
HILO_API hilo_comp **hilo_module_comp_post_order(hilo_module *m, uint32_t *n);
/* The same order; on the way fn(i, ud) is called once for every
 * instruction i of the module's computations that calls something (in no
 * particular order): the callers without a second walk of the module. */
HILO_API hilo_comp **hilo_module_comp_post_order_calls(hilo_module *m, uint32_t *n,
	void (*fn)(hilo_instr *call, void *ud), void *ud);

/* Clones a computation (and nothing it calls) under a new name; returns
 * the clone, not yet added to the module. If map is non-NULL it receives
 * for each source instruction (by list position) its clone. */
HILO_API hilo_comp *hilo_comp_clone(hilo_module *m, hilo_comp *src, const char *name);

/* Total instruction count over all computations. */
HILO_API uint64_t hilo_module_instr_count(const hilo_module *m);
/* Is m past layout assignment (is_scheduled=true)? Then, as XLA's
 * layout-sensitive verifier checks, a called computation's parameters
 * have its operands' layouts (hilo_verify). */
HILO_API bool hilo_module_layout_sensitive(const hilo_module *m);

/* The result shape of an instruction written without one, as XLA's parser
 * infers it (xla::ShapeInference, for the opcodes hlo_parser.cc's
 * CanInferShape lists), from its operands, attributes and called
 * computations. NULL when it cannot be inferred, with the reason in err
 * (src/ir/shape_infer.c). */
HILO_API hilo_shape *hilo_infer_shape(hilo_module *m, const hilo_instr *i, char *err, size_t errlen);

/* Deep-copies a whole module (ids and names preserved). */
HILO_API hilo_module *hilo_module_clone(const hilo_module *src);
/* The clone's arena is a child of parent (see hilo_module_create_in). */
HILO_API hilo_module *hilo_module_clone_in(const hilo_module *src, hilo_arena *parent);

/* ---- replica groups (src/ir/replica_groups.c) ----------------------------
 * The one reader of a collective's replica_groups= text, in both of XLA's
 * forms:
 *  - the list form {{0,1},{2,3}} ({} for none; a group may be empty);
 *  - the iota form [G,S]<=[d0,...,dk] or [G,S]<=[d0,...,dk]T(p0,...,pk)
 *    (XLA's IotaReplicaGroupList): the device ids are iota(d0*...*dk)
 *    reshaped to [d0,...,dk], transposed by the permutation p (identity
 *    without T), and read row-major in G consecutive groups of S. So
 *    [2,4]<=[8] is {{0,1,2,3},{4,5,6,7}} and [2,4]<=[4,2]T(1,0) is
 *    {{0,2,4,6},{1,3,5,7}}. G*S must equal d0*...*dk, every d and G, S at
 *    least 0, and p a permutation of 0..k.
 * White space (blank, tab, newline) may stand between tokens; ids are
 * decimal int64 (a leading '-' is read, not judged). */
#define HILO_REPLICA_GROUPS_MAX_DEVICES (1 << 20) /* ids an expansion may hold */
typedef struct hilo_replica_groups {
	int64_t ngroups;      /* number of groups (G in the iota form) */
	int64_t nids;         /* ids in all groups (0 when not expanded) */
	int64_t *ids;         /* the ids, group after group (tracked heap) */
	int64_t *start;       /* ngroups + 1 offsets: group k is ids[start[k]..start[k+1]) */
	bool iota;            /* written in the iota form; then also: */
	bool transposed;      /* a T(...) was written */
	int64_t group_size;   /* S */
	int ndims;            /* k + 1 */
	int64_t dims[HILO_MAX_RANK];
	int64_t perm[HILO_MAX_RANK]; /* identity without T(...) */
} hilo_replica_groups;

/* Parses text[0..len) into *g. The list form is always expanded; the iota
 * form only with `expand` (then at most HILO_REPLICA_GROUPS_MAX_DEVICES
 * ids and groups), else only its G, S, dims and perm are set. ids and
 * start are blocks of a's tracked heap: release them with
 * hilo_replica_groups_free (an arena's destruction frees them too). False,
 * with nothing held, when the text is neither form, or exceeds a limit
 * (more than HILO_MAX_RANK iota dims, an expansion over the maximum) or
 * memory runs out. */
HILO_API bool hilo_replica_groups_parse(hilo_arena *a, const char *text, size_t len, bool expand,
	hilo_replica_groups *g);
HILO_API void hilo_replica_groups_free(hilo_arena *a, hilo_replica_groups *g);

/* ---- operand aliasing (src/ir/aliasing.c) -------------------------------
 * The one reader and writer of output_to_operand_aliasing= text (fusions,
 * custom-calls; HloInstructionProto field 74): pairs "output shape index:
 * (operand number, operand shape index)", meaning the buffer of that part
 * of the result is the buffer of that part of that operand (an in-place
 * kernel writes its result over the operand). XLA prints it as
 *   {{0}: (1, {}), {1}: (2, {0,1})}
 * pairs joined by ", ", a shape index as {i,j,...} without blanks; the
 * reader also takes blanks, tabs and newlines between tokens. */
typedef struct hilo_shape_index {
	int n;                /* depth; 0: the whole shape ({}) */
	int64_t *v;           /* n tuple element numbers, outermost first */
} hilo_shape_index;

typedef struct hilo_alias_pair {
	hilo_shape_index output;  /* into the instruction's result shape */
	int64_t operand;          /* operand number */
	hilo_shape_index operand_index; /* into that operand's shape */
} hilo_alias_pair;

typedef struct hilo_aliasing {
	size_t n;
	hilo_alias_pair *pairs;   /* in text order */
} hilo_aliasing;

/* Parses text[0..len) (the value, braces included) into *al, its arrays
 * in arena a. False when the text is not of that form or a number does
 * not fit int64 (a negative number is read, not judged: the verifier
 * does). */
HILO_API bool hilo_aliasing_parse(hilo_arena *a, const char *text, size_t len, hilo_aliasing *al);
/* Appends al as XLA's printer writes the value ("{}" for no pair). */
HILO_API void hilo_aliasing_print(hilo_buf *b, const hilo_aliasing *al);
/* Appends one pair as XLA prints it: {0}: (1, {}) */
HILO_API void hilo_alias_pair_print(hilo_buf *b, const hilo_alias_pair *pr);
/* i's output_to_operand_aliasing, parsed into a's memory: true with
 * al->n == 0 when i has none, false when its text does not parse. */
HILO_API bool hilo_instr_aliasing(hilo_arena *a, const hilo_instr *i, hilo_aliasing *al);
/* Operand numbers renumbered for an operand list edit: map[k] is operand
 * k's new number, or -1 when it is removed. False, al unchanged, when a
 * pair names a removed operand or one at or past nmap. */
HILO_API bool hilo_aliasing_renumber(hilo_aliasing *al, const int64_t *map, size_t nmap);
/* Renumbers every operand-indexed attribute of i (output_to_operand_
 * aliasing) for the operand list edit map (as above), before the edit.
 * False, i unchanged, when one cannot follow: it names a removed operand,
 * its text does not parse, or i has operand_layout_constraints (one shape
 * per operand, which hilo does not edit) and an operand goes. */
HILO_API bool hilo_instr_renumber_operand_attrs(hilo_module *m, hilo_instr *i, const int64_t *map,
	size_t nmap);
/* The part of s at index ix (XLA's ShapeUtil::GetSubshape), or NULL when
 * ix is not an index of s (IndexIsValid). */
HILO_API const hilo_shape *hilo_shape_subshape(const hilo_shape *s, const hilo_shape_index *ix);

#ifdef __cplusplus
}
#endif

#endif
