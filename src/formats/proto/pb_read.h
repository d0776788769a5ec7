/* The hand-written HloModuleProto reader's shared pieces (src/formats/proto):
 * the reader state, the field walker over the input bytes and the
 * decoders the three reader files share. pb_read.c builds modules,
 * computations and instructions, pb_read_msg.c decodes the value
 * messages (ShapeProto, LayoutProto, LiteralProto, OpMetadata) and the
 * repeated-field and unknown-field helpers, pb_read_attrs.c turns typed
 * fields into attributes. Everything here is internal to libhilo. */
#ifndef HILO_PB_READ_H
#define HILO_PB_READ_H

#include "support/bytemap.h"
#include "pb_attrs.h"
#include "pb_wire.h"

#include <stdlib.h>
#include <string.h>

enum { MAX_DEPTH = 64 };

typedef struct slice {
	const uint8_t *p;
	size_t n;
} slice;

typedef struct reader {
	hilo_module *m;
	hilo_diags *d;
	const char *file;
	bool failed;
	hilo_buf tmp;
	const uint8_t *base;   /* the input: byte offsets in errors */
	const char *kind;      /* HloModuleProto, HloProto, HloSnapshot */
	ProtobufCAllocator pa; /* protobuf-c's allocations in the module arena */
	pb_extra *x;           /* unknown fields, made on the first one */
	struct svec {          /* per-instruction scratch, reused: operand, control and */
		void *p;           /* called-computation ids, attribute order, */
		size_t n, cap;     /* operand_shapes_with_layout (slices) */
	} sv[6];           /* ..., an async sugar start's own called ids (1006) */
	bool own_called;       /* the instruction has 1007: its called ids are sv[5] */
	slice lit8;            /* the instruction's literal (8), if has_lit8 */
	bool has_lit8;
	struct svec ins;       /* every computation's instruction messages (slices) */
	struct svec insraw;    /* the same instruction fields, tag to end (when keeping) */
	pb_keep *keep;         /* the input kept (pb_internal.h), or NULL */
	struct svec pids;      /* a computation's instruction ids (scratch) */
	hilo_instr **instrs;   /* every instruction, computation after computation */
	struct svec dense;     /* the id -> instruction table of the computation read */
	uint32_t id_end;       /* the id after the last instruction's */
	void *recs;            /* pb_read.c's per-computation records */
	struct svec callees;   /* every instruction's callees, computation indices */
	uint64_t declared[2];  /* HloInstructionProto's field numbers below 128 */
	const char *md_key[13]; /* pb_md_defs keys, interned on first use */
	struct md_prev {       /* per pb_md_defs string field: the last value */
		const uint8_t *p;  /* read (its input bytes) and its text */
		size_t n;
		const char *val;
	} md_prev[13];
	struct kcache {        /* table rows by name (opcodes, attribute keys): */
		uint64_t w;        /* a direct-mapped cache of the names seen, by */
		size_t len;        /* their first 8 bytes and length */
		int row;
	} opc[64], akey[64];
	hilo_bytemap shapes;        /* ShapeProto bytes -> interned shape (top-level shapes) */
	size_t what_k;         /* the instruction being built, for messages */
	const char *what_comp;
	char what[300];
	int nest;              /* modules this one is nested in (pbr_read_nested) */
} reader;

typedef struct field {
	uint32_t num;
	int wt;
	const uint8_t *at;   /* the tag */
	const uint8_t *val;  /* after the tag (an unknown field's raw bytes start here) */
	const uint8_t *end;
	uint64_t v;          /* varint, fixed32 or fixed64 value */
	slice s;             /* length-delimited payload */
} field;

/* The next field of the window; false at its end or on bad bytes (then
 * R->failed, with the byte offset). */

void pbr_rerr(reader *R, const char *fmt, ...) __attribute__((format(printf, 2, 3)));
/* "not a valid binary KIND: WHAT at byte N" */
void pbr_werr(reader *R, const uint8_t *at, const char *what);
void *pbr_ralloc(reader *R, size_t n);
const char *pbr_rintern(reader *R, const char *s);
/* What a message names: the given text, or the instruction being built. */
const char *pbr_what_of(reader *R, const char *what);
#define WHAT pbr_what_of(R, what)

/* Arena arrays that grow by appending (capacity a function of the length). */
void *pbr_grow_to(reader *R, void *old, size_t n, size_t add, size_t sz);
/* Repeated scalars, packed or not, appended: varints of es 8 (int64),
 * 4 (the low 32 bits) or 1 (bool); fixed32/fixed64; length-delimited
 * payloads; int64 varints into a reused scratch vector. */
bool pbr_rep_varint(reader *R, const field *f, size_t es, void **arr, size_t *n);
bool pbr_rep_fixed(reader *R, const field *f, size_t es, void **arr, size_t *n);
bool pbr_rep_slice(reader *R, const field *f, slice **arr, size_t *n);
bool pbr_rep_varint_sv(reader *R, const field *f, struct svec *v);
bool pbr_sv_push_slice(reader *R, struct svec *v, slice s);
char *pbr_sdup(reader *R, slice s);
/* Unknown fields: kept with their tag and raw bytes; other_field skips
 * the ones desc declares. */
bool pbr_keep_field(reader *R, const field *f, pb_unknown *u);
bool pbr_other_field(reader *R, const field *f, const ProtobufCMessageDescriptor *desc,
	pb_unknown *u);
/* A cold sub-message through protobuf-c, its nesting bounded first. */
void *pbr_unpack_sub(reader *R, const field *f, const ProtobufCMessageDescriptor *desc, int depth);

/* Value messages (pb_read_msg.c); NULL + diagnostic on bad input. */
hilo_shape *pbr_shape_from(reader *R, const slice *sp, int depth, const char *what);
hilo_literal *pbr_literal_from(reader *R, slice lp, hilo_shape *shape, int depth,
	const char *what);
void pbr_read_metadata(reader *R, hilo_instr *i, slice ms);

/* Attributes (pb_read_attrs.c). */
hilo_attr *pbr_append_known(reader *R, hilo_instr *i, hilo_attr_id id, hilo_attr_kind kind);
bool pbr_attr_from_typed(reader *R, hilo_instr *i, const Xla__HloInstructionProto *p,
	hilo_attr_id id);
void pbr_attr_from_ext(reader *R, hilo_instr *i, const Xla__HiloAttr *h);
void pbr_attrs_foreign(reader *R, hilo_instr *i, const Xla__HloInstructionProto *p);

static inline bool pbr_next_field(reader *R, pr_cur *c, field *f)
{
	if (c->p >= c->end || R->failed)
		return false;
	f->at = c->p;
	f->v = 0;
	uint64_t tag;
	if (!pr_varint(c, &tag)) {
		pbr_werr(R, f->at, "truncated field tag");
		return false;
	}
	uint64_t num = tag >> 3;
	if (num == 0 || num > 536870911u) {
		pbr_werr(R, f->at, "invalid field number");
		return false;
	}
	f->num = (uint32_t)num;
	f->wt = (int)(tag & 7);
	f->val = c->p;
	switch (f->wt) {
	case PB_VARINT:
		if (!pr_varint(c, &f->v)) {
			pbr_werr(R, f->val, "truncated varint");
			return false;
		}
		break;
	case PB_I64:
		if (c->end - c->p < 8) {
			pbr_werr(R, f->val, "truncated 64-bit field");
			return false;
		}
		memcpy(&f->v, c->p, 8);
		c->p += 8;
		break;
	case PB_I32: {
		if (c->end - c->p < 4) {
			pbr_werr(R, f->val, "truncated 32-bit field");
			return false;
		}
		uint32_t x;
		memcpy(&x, c->p, 4);
		f->v = x;
		c->p += 4;
		break;
	}
	case PB_LEN: {
		uint64_t n;
		if (!pr_varint(c, &n)) {
			pbr_werr(R, f->val, "truncated length");
			return false;
		}
		if (n > (uint64_t)(c->end - c->p)) {
			pbr_werr(R, f->val, "field length runs past the end of the data");
			return false;
		}
		f->s.p = c->p;
		f->s.n = (size_t)n;
		c->p += n;
		break;
	}
	default:
		pbr_werr(R, f->at, "unsupported wire type (groups or garbage)");
		return false;
	}
	f->end = c->p;
	return true;
}

static inline bool pbr_want(reader *R, const field *f, int wt)
{
	if (f->wt == wt)
		return true;
	{
		pbr_rerr(R, "not a valid binary %s: field %u has wire type %d, not %d, at byte %zu", R->kind,
			f->num, f->wt, wt, (size_t)(f->at - R->base));
	}
	return false;
}

/* An instruction's or computation's id (field f, a varint) into *id. Ids
 * above 2^62 are refused: new instructions and computations take ids
 * above every id read (pb_write.c), which must not overflow. */
static inline bool pbr_id_field(reader *R, const field *f, int64_t *id)
{
	if (!pbr_want(R, f, PB_VARINT))
		return false;
	if ((int64_t)f->v > ((int64_t)1 << 62)) {
		pbr_rerr(R, "%s: id %lld at byte %zu is above 2^62, which leaves no ids for new ones", R->kind,
			(long long)(int64_t)f->v, (size_t)(f->at - R->base));
		return false;
	}
	*id = (int64_t)f->v;
	return true;
}

/* ---- int64 -> pointer map (pb_idmap.c): instruction and computation ids ---- */

typedef struct pbr_idmap {
	int64_t *keys;
	void **vals;
	size_t cap, n;
	void **dense;   /* non-NULL: a direct table of ndense slots from id base */
	int64_t base;
	size_t ndense;
} pbr_idmap;

/* An empty hash map for n ids; false (diagnostic) out of memory. */
bool pbr_idmap_init(reader *R, pbr_idmap *M, size_t n);
/* false when the key is already there */
bool pbr_idmap_put(pbr_idmap *M, int64_t k, void *v);
/* The map of n ids to vals, built at once: a direct table when the ids
 * are dense (producers number instructions from 0 or 1 up), else the hash
 * map. false with *dup the index of the first repeated id (or SIZE_MAX:
 * out of memory, diagnostic added). */
bool pbr_idmap_build(reader *R, pbr_idmap *M, const int64_t *ids, void *const *vals, size_t n,
	size_t *dup);

static inline size_t pbr_idhash(int64_t k, size_t cap)
{
	uint64_t x = (uint64_t)k * 0x9e3779b97f4a7c15ull;
	return (size_t)(x >> 32) & (cap - 1);
}

/* k's value, or NULL (inline: the operand wiring's lookup per operand) */
static inline void *pbr_idmap_get(const pbr_idmap *M, int64_t k)
{
	if (M->dense) {
		uint64_t o = (uint64_t)k - (uint64_t)M->base;
		return o < M->ndense ? M->dense[o] : NULL;
	}
	for (size_t i = pbr_idhash(k, M->cap);; i = (i + 1) & (M->cap - 1)) {
		if (!M->vals[i])
			return NULL;
		if (M->keys[i] == k)
			return M->vals[i];
	}
}

/* strnlen inline, eight bytes a step (names and keys are short: the
 * library call cost more than the scan). */
static inline size_t pbr_strnlen(const uint8_t *p, size_t n)
{
	const uint64_t ones = 0x0101010101010101ull, high = 0x8080808080808080ull;
	size_t k = 0;
	for (; n - k >= 8; k += 8) {
		uint64_t w;
		memcpy(&w, p + k, 8);
		if ((w - ones) & ~w & high)
			break;
	}
	while (k < n && p[k])
		k++;
	return k;
}

static inline bool pbr_str_field(reader *R, const field *f, slice *out)
{
	if (!pbr_want(R, f, PB_LEN))
		return false;
	out->p = f->s.p;
	out->n = pbr_strnlen(f->s.p, f->s.n);
	return true;
}

static inline const char *pbr_sintern(reader *R, slice s)
{
	return hilo_intern(R->m->strings, s.n ? (const char *)s.p : "", s.n);
}

/* The second pass over instruction message is (pb_read_attrs.c): ids
 * into R->sv (operands, control predecessors, called computations,
 * attribute order, operand shapes), the literal into R->lit8, typed
 * attribute fields and hilo's attributes into P (initialised here when
 * one is present: *pinit), unknown and unmodelled fields into unk. */
bool pbr_read_wire(reader *R, slice is, Xla__HloInstructionProto *P, bool *pinit,
	pb_unknown *unk, int depth);

/* A module nested in the one R reads (an origin_recovery_table's
 * recovery module, HloModuleProto bytes): a module of its own, read as
 * hilo_proto_read reads one, at most PB_MAX_NEST levels deep. NULL +
 * diagnostic on bad input. */
enum { PB_MAX_NEST = 8 };
/* A literal without elements whose text would still hold more than this
 * many {} (dimensions before its first zero one) is refused
 * (pbr_literal_from). */
enum { PB_MAX_EMPTY_GROUPS = 1 << 20 };
hilo_module *pbr_read_nested(reader *R, slice s);
/* HloModuleProto field 20 as the origin_recovery_table text XLA prints
 * (pb_recovery.c), appended to out; false + diagnostic on bad input. */
bool pbr_recovery_text(reader *R, slice table, hilo_buf *out);

#endif
