/* Raw-text attributes <-> typed XLA proto fields (src/formats/proto/pb_attrs.c). */
#ifndef HILO_PB_ATTRS_H
#define HILO_PB_ATTRS_H

#include "pb_internal.h"

/* Parses the attribute text into p's typed field for f (allocating in a).
 * false when the text is not in a form hilo understands. */
bool pbx_parse(hilo_arena *a, Xla__HloInstructionProto *p, pb_field f, const char *text);
/* Appends the attribute text XLA would print for p's typed field f.
 * false when the field is absent. */
bool pbx_render(hilo_buf *b, const Xla__HloInstructionProto *p, pb_field f);

/* A layout's text after ':' that XLA's LayoutProto fields hold: tiles
 * T(8,128)(2,1) (6; '*' a combined dimension), the tail padding L(n)
 * (16), the element size E(n) (7) and the memory space S(n) (8), in
 * XLA's print order. parse is false for any other text (D(...), SC(...),
 * #(...), ...): that stays hilo's verbatim tail only. */
enum { PBX_MAX_TILES = 8, PBX_MAX_TILE_DIMS = 64 };
typedef struct pbx_layout_tail {
	int64_t tile_dims[PBX_MAX_TILE_DIMS]; /* every tile's dimensions, one after another */
	size_t tile_lens[PBX_MAX_TILES];      /* each tile's count of them */
	size_t ntiles;
	int64_t tail_padding, element_bits, memory_space; /* 0: absent */
} pbx_layout_tail;
bool pbx_layout_tail_parse(const char *text, pbx_layout_tail *out);
void pbx_layout_tail_render(hilo_buf *b, const pbx_layout_tail *l);

/* A collective-permute's slice_sizes={{1,8},{2,8}}: the lists flattened
 * (XLA's dynamic_slice_sizes, field 20) and each one's length, in a. */
bool pbx_slice_lists_parse(hilo_arena *a, const char *t, int64_t **v, size_t *n, size_t **chunks,
	size_t *nchunks);
/* Appends them as XLA prints them, chunk by chunk: {{1,8},{2,8}}. */
void pbx_slice_lists_render(hilo_buf *b, const int64_t *v, const size_t *chunks, size_t nchunks);

/* A proto enum's names, as XLA prints them, indexed by value; values
 * below `first` have no name hilo writes (0 of a dot's algorithm, unset). */
typedef struct pbx_names {
	const char *const *names;
	int n, first;
} pbx_names;
extern const pbx_names pbx_fft_types;      /* FftType: fft_type= */
extern const pbx_names pbx_distributions;  /* RandomDistribution: distribution= */
extern const pbx_names pbx_rng_algorithms; /* RandomAlgorithm: rng-bit-generator's algorithm= */
extern const pbx_names pbx_dot_algorithms; /* PrecisionConfig.Algorithm: a dot's algorithm= */
/* The value of a name (-1 for none of t's), and the name of a value
 * (NULL for a value without one). */
int pbx_enum_value(const pbx_names *t, const char *name);
const char *pbx_enum_name(const pbx_names *t, int v);
static inline const char *pbx_enum_name_or(const pbx_names *t, int v, const char *dflt)
{
	const char *n = pbx_enum_name(t, v);
	return n ? n : dflt;
}

/* A custom-call's operand_layout_constraints text, {SHAPE, ...}, as XLA
 * prints operand_shapes_with_layout. */
void pbx_shapes_render(hilo_buf *b, const hilo_shape *const *s, size_t n);

/* The generic attributes (pb_attrs_generic.c): statistics= as
 * StatisticsViz (82), result_accuracy= as ResultAccuracy (91), origin= as
 * OriginalValueProto (88). parse is false for text not in XLA's form;
 * render false when the message is absent or XLA prints nothing of it. */
bool pbx_statistics_parse(hilo_arena *a, Xla__StatisticsViz **out, const char *text);
bool pbx_statistics_render(hilo_buf *b, const Xla__StatisticsViz *s);
bool pbx_accuracy_parse(hilo_arena *a, Xla__ResultAccuracy **out, const char *text);
bool pbx_accuracy_render(hilo_buf *b, const Xla__ResultAccuracy *r);
bool pbx_origin_parse(hilo_arena *a, Xla__OriginalValueProto **out, const char *text);
bool pbx_origin_render(hilo_buf *b, const Xla__OriginalValueProto *v);
/* One original array, {"name"} or {"name" {i,j}}, as the origin= text and
 * the origin_recovery_table write it (the cursor after it). */
struct cur;
bool pbx_original_array_parse(struct cur *c, hilo_arena *a, Xla__OriginalArrayProto **out);
void pbx_original_array_render(hilo_buf *b, const Xla__OriginalArrayProto *ar);

/* The mesh forms (pb_attrs_mesh.c): replica_groups=mesh[..] {..} as
 * MeshAxesReplicaGroupListProto (93); a sharding's mesh[..], [..],
 * unreduced={..} as NamedShardingProto (OpSharding 14), parsed from the
 * cursor after the sharding's '{' up to its '}', rendered likewise. */
bool pbx_mesh_axes_list_parse(hilo_arena *a, Xla__MeshAxesReplicaGroupListProto **out, const char *text);
bool pbx_mesh_axes_list_render(hilo_buf *b, const Xla__MeshAxesReplicaGroupListProto *g);
bool pbx_named_sharding_parse(struct cur *c, hilo_arena *a, Xla__NamedShardingProto **out);
bool pbx_named_sharding_render(hilo_buf *b, const Xla__NamedShardingProto *s);

/* Module attributes: frontend_attributes, input_output_alias, buffer_donor. */
bool pbx_module_fa(hilo_arena *a, Xla__FrontendAttributes **out, const char *text);
bool pbx_io_alias(hilo_arena *a, Xla__HloInputOutputAliasProto **out, const char *text);
bool pbx_buffer_donor(hilo_arena *a, Xla__HloBufferDonorProto **out, const char *text);
/* The text of a module's frontend_attributes ({k="v",...}), as XLA prints it. */
bool pbx_module_fa_render(hilo_buf *b, const Xla__FrontendAttributes *fa);

#endif
