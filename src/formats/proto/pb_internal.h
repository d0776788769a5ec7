/* Shared pieces of the HloModuleProto reader and writer (src/formats/proto). */
#ifndef HILO_PB_INTERNAL_H
#define HILO_PB_INTERNAL_H

#include "hilo/proto.h"
#include "hlo.pb-c.h"

/* A protobuf-c allocator drawing from an arena (free is a no-op: the
 * arena goes in one piece). */
void pb_arena_allocator(ProtobufCAllocator *pa, hilo_arena *a);

/* Element types: hilo <-> XLA PrimitiveType numbers. */
int pb_ptype_to_xla(hilo_ptype t);
hilo_ptype pb_ptype_from_xla(int v);     /* HILO_T_INVALID when unknown */
/* LiteralProto's field for the values of element type t (the one table of
 * it, for reader and writer), with the value encoding in *enc: 'b' bytes,
 * 'v' varints, 'f' fixed; 0 and enc 0 for types without values. */
uint32_t pb_literal_field(hilo_ptype t, char *enc);

/* C-style escapes as XLA's text printer writes them inside "...".
 * unescape returns false on a malformed escape. */
bool pb_unescape(hilo_buf *out, const char *s, size_t n);
void pb_escape(hilo_buf *out, const char *s, size_t n);
/* The same escapes into memory: the length they take, and writing them
 * at q (pb_escaped_len(s, n) bytes, no NUL) returning the end. */
size_t pb_escaped_len(const char *s, size_t n);
char *pb_escape_to(char *q, const char *s, size_t n);

/* The messages of the cold attributes (dimension numbers, slices,
 * replica groups, windows, ...) decoded straight into protobuf-c's
 * structs in arena a, driven by the descriptor: integer, bool, enum,
 * string and message fields, proto3 singular or repeated (packed or
 * not), nested at most max_depth levels. NULL when anything else appears
 * (an unknown, oneof, bytes or fixed-width field, a wrong wire type, bad
 * bytes, a singular message given twice, which protobuf-c merges): the
 * caller then takes protobuf-c's path, so what is accepted, what it gives
 * and every error are protobuf-c's (unit.test_pb_wire compares the two). */
void *pb_fast_unpack(hilo_arena *a, const ProtobufCMessageDescriptor *desc, const uint8_t *p,
	size_t len, int max_depth);

/* Checks the wire format of a message against its descriptor: tags,
 * lengths, nesting depth (at most max_depth). Returns NULL when valid,
 * else a static message. */
const char *pb_check_wire(const uint8_t *p, size_t len,
	const ProtobufCMessageDescriptor *desc, int max_depth);

/* Fields of the module, computation and instruction messages the reader
 * did not model (protobuf-c's unknown fields), kept in the module's
 * arena behind hilo_module.proto_extra and written back by the writer.
 * Instructions are found by id, computations by pointer. */
typedef struct pb_unknown {
	size_t n;
	ProtobufCMessageUnknownField *f;
} pb_unknown;

/* The input a module was read from (issue 34), kept so that what the
 * module still holds unchanged is written back byte for byte, whatever
 * tool wrote it, and the fields hilo does not model (schedule, aliasing,
 * donors, device assignment, stack frames, frontend attributes, a
 * wrapper's buffer assignment, a snapshot's arguments...) survive a
 * rewrite. Spans are offsets into buf, a copy of the input; a field's
 * span runs from its tag to its end. Made only for inputs hilo did not
 * write (those carry hilo_written and are rewritten from the IR, which
 * gives the same bytes).
 *
 * Unchanged is decided by content: right after reading, the writer
 * encodes every instruction and computation from the IR once and keeps
 * a 64-bit hash of each encoding (fp); when writing, an instruction or
 * computation whose encoding hashes the same is unchanged since it was
 * read, and its input bytes go out instead. Ids are the input's: IR ids
 * map back to them (iid), new instructions and computations get ids
 * above the largest read. */
typedef struct pb_span {
	size_t off, len;
} pb_span;

typedef struct pb_rawfield {
	uint32_t num;
	int wt;
	pb_span all;    /* tag to end */
	pb_span val;    /* a length-delimited field's payload */
	uint64_t v;     /* a varint's value */
} pb_rawfield;

enum { PB_FORM_MODULE, PB_FORM_HLO_PROTO, PB_FORM_SNAPSHOT };

typedef struct pb_keep {
	uint8_t *buf;
	size_t len;
	int form;                 /* PB_FORM_*: what the input was */
	pb_rawfield *outer[2];    /* [0] HloSnapshot's fields, [1] HloProto's (by form) */
	size_t nouter[2];
	pb_rawfield *mf;          /* the HloModuleProto's fields, in input order */
	size_t nmf;
	uint32_t ibase, iend;     /* IR ids of the instructions read */
	int64_t *iid;             /* by IR id - ibase: the input's id */
	hilo_instr **instr;       /* ... the instruction read */
	const hilo_shape **ishape; /* ... its shape and literal as read, and their */
	pb_span *ishape_raw;       /* fields' bytes: a rewritten instruction whose */
	const hilo_literal **ilit; /* shape or literal is still that one writes */
	pb_span *ilit_raw;         /* those bytes (every field of them kept) */
	uint64_t *imd_fp;          /* ... its metadata's fingerprint as read and the */
	pb_span *imd_raw;          /* field's bytes: metadata a pass left as it was
	                            * (passes edit it in place, so by content) keeps
	                            * the fields hilo does not read (pb_metadata_fp) */
	pb_span *iraw;
	uint64_t *ifp;
	size_t ncomp;             /* computations read, in input order */
	const hilo_comp **comp;
	int64_t *cid;
	pb_span *craw;
	uint64_t *cfp;
	const hilo_comp *entry;
	uint64_t entry_fp;        /* the entry's program shape as read */
	int64_t max_iid, max_cid;
	bool fingerprinting;      /* the writer records fps instead of using them */
} pb_keep;

uint64_t pb_hash64(const void *p, size_t n);
/* A fingerprint of metadata's entries (keys and values, in order):
 * equal for metadata that prints the same (pb_keep.c). */
uint64_t pb_metadata_fp(const hilo_metadata *md);
/* Right after reading: records every fp (pb_write.c). false: out of memory. */
bool pb_keep_fingerprint(const hilo_module *m, hilo_diags *d);
/* The module attributes and stack-frame table XLA's printer shows for the
 * kept module fields (is_scheduled, input_output_alias, buffer_donor,
 * frontend_attributes; StackFrames), set on m for printing (pb_keep.c). */
bool pb_keep_text_attrs(hilo_module *m, const pb_keep *k);
/* The other way: a module's stack-frame text (read from HLO text) as
 * HloModuleProto field 17 (StackFrameIndexProto) on out, so XLA resolves
 * stack_frame_id; nothing when the text is not the four tables. */
void pb_frames_from_text(hilo_buf *out, const char *text);
/* A valid HloScheduleProto for the module as it is now, from the kept
 * one (k's field 7 payload, sched; k NULL: none kept, every non-fusion
 * computation gets its instructions' order, as a scheduled text module
 * has it): sequences of computations that are gone
 * dropped, instructions that are gone left out, new ones placed before
 * their first use in an order that respects operands and control
 * predecessors, new non-fusion computations given a sequence. iid maps
 * an instruction to its output id, cid a computation (pb_write.c). */
typedef int64_t (*pb_iid_fn)(void *ud, const hilo_instr *i);
typedef int64_t (*pb_cid_fn)(void *ud, const hilo_comp *c);
/* more (may be NULL) adds sequences of computations the IR does not hold
 * (the writer's async wrappers) through pb_schedule_sequence. */
typedef void (*pb_more_fn)(void *ud, hilo_buf *out);
void pb_keep_schedule(hilo_buf *out, const hilo_module *m, const pb_keep *k, pb_span sched,
	const bool *fusion, pb_iid_fn iid, pb_cid_fn cid, pb_more_fn more, void *ud);
/* One HloScheduleProto sequence: computation cid runs ids[0..n). */
void pb_schedule_sequence(hilo_buf *out, int64_t cid, const int64_t *ids, size_t n);

typedef struct pb_extra {
	pb_keep *keep;            /* NULL: not kept (hilo wrote the input) */
	int form;                 /* PB_FORM_*: what the input was */
	uint8_t **arg;            /* an HloSnapshot's arguments (LiteralProto bytes) */
	size_t *argn, nargs;
	pb_unknown module;
	pb_unknown *instr;      /* by instruction id */
	uint32_t ninstr;
	const hilo_comp **comp;
	pb_unknown *comp_f;
	size_t ncomp;
} pb_extra;

/* Attributes with a typed XLA field: how an attribute key maps. */
typedef enum pb_field {
	PBF_NONE,
	PBF_TUPLE_INDEX, PBF_DIMENSIONS, PBF_IOTA_DIMENSION, PBF_CHANNEL_ID,
	PBF_FEATURE_INDEX, PBF_FEATURE_GROUP_COUNT, PBF_BATCH_GROUP_COUNT,
	PBF_EXPONENT_BITS, PBF_MANTISSA_BITS, PBF_K, PBF_DELTA, PBF_NUM_CARRIES,
	PBF_CPP_INDEX,
	PBF_DYNAMIC_SLICE_SIZES, PBF_FFT_LENGTH, PBF_GATHER_SLICE_SIZES,
	PBF_DOT_LC, PBF_DOT_RC, PBF_DOT_LB, PBF_DOT_RB, PBF_RAGGED_L, PBF_RAGGED_R,
	PBF_G_OFFSET, PBF_G_COLLAPSED, PBF_G_START_MAP, PBF_G_OBD, PBF_G_SIBD,
	PBF_S_UWD, PBF_S_IWD, PBF_S_SDOD, PBF_S_IBD, PBF_S_SIBD, PBF_IVD,
	PBF_IS_STABLE, PBF_CONSTRAIN_LAYOUT, PBF_USE_GLOBAL_DEVICE_IDS,
	PBF_INDICES_SORTED, PBF_UNIQUE_INDICES, PBF_IS_HOST_TRANSFER,
	PBF_CC_SIDE_EFFECT, PBF_LARGEST, PBF_IS_COMPOSITE, PBF_IS_REVERSE,
	PBF_HAS_DYNAMIC_ROOT, PBF_IS_ASSOCIATIVE,
	PBF_CC_TARGET, PBF_ASYNC_THREAD, PBF_INFEED_CONFIG, PBF_OUTFEED_CONFIG,
	PBF_DIRECTION, PBF_CMP_TYPE, PBF_FUSION_KIND, PBF_FFT_TYPE, PBF_DISTRIBUTION,
	PBF_RNG_ALGORITHM,
	PBF_SLICE, PBF_PADDING,
	PBF_BACKEND_CONFIG, PBF_FRONTEND_ATTRS, PBF_REPLICA_GROUPS,
	PBF_SOURCE_TARGET, PBF_WINDOW, PBF_DIM_LABELS,
	PBF_SHARDING, PBF_EPSILON, PBF_API_VERSION, PBF_PRECISION,
	PBF_OPERAND_SHAPES,   /* custom-call operand_shapes_with_layout (57), with constrain_layout */
	PBF_OUTPUT_ALIASING,  /* output_operand_aliasing (74): fusion, custom-call, async-start */
	PBF_PARAM_REPLICATION, /* parameter_replication (61) */
	PBF_TS_LEFT_SIDE, PBF_TS_UNIT_DIAGONAL, PBF_TS_TRANSPOSE, /* triangular_solve_options (59) */
	PBF_LOWER,            /* triangular_solve_options (59) or cholesky_options (62) .lower */
	PBF_CC_SCHEDULE, PBF_PADDING_TYPE, /* custom-call schedule (76), padding_type (75) */
	PBF_CC_LITERAL,       /* a custom-call's literal (8) */
	PBF_DOMAIN,           /* a domain's entry and exit shardings (54, 55) */
	PBF_STATISTICS,       /* statistics_viz (82) */
	PBF_RESULT_ACCURACY,  /* result_accuracy (91) */
	PBF_ORIGIN,           /* original_value (88) */
	PBF_COUNT
} pb_field;

typedef struct pb_attr_def {
	const char *key;
	hilo_attr_kind kind;
	pb_field field;
} pb_attr_def;

/* The typed proto field of an attribute (from hilo/attrs.def), or NULL
 * when it has none (kept as a hilo_attrs entry). */
const pb_attr_def *pb_attr_def_of(hilo_attr_id id);
const pb_attr_def *pb_attr_lookup(const char *key);

/* Metadata keys the typed OpMetadata fields cover, in XLA's print order. */
typedef enum pb_md_kind { PBM_STRING, PBM_INT, PBM_INTS /* {1,2}: packed */ } pb_md_kind;
typedef struct pb_md_def {
	const char *key;
	size_t len;  /* strlen(key) */
	pb_md_kind kind;
} pb_md_def;
extern const pb_md_def pb_md_defs[];
extern const int pb_n_md_defs;

/* Renders typed OpMetadata as the text entries (key, raw value) XLA
 * prints, into arena a. Returns the entry count (at most max). */
int pb_md_entries(hilo_arena *a, const Xla__OpMetadata *md, hilo_md_entry *out, int max);

#endif
