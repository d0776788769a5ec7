/* HloModuleProto reader: wire bytes -> IR, decoded by hand (this file:
 * modules, computations, instructions; pb_read_msg.c: value messages;
 * pb_read_attrs.c: attributes; pb_read.h: shared).
 *
 * Design (issue 19): the hot messages (HloModuleProto, HloComputationProto,
 * HloInstructionProto, ShapeProto, LayoutProto, LiteralProto, OpMetadata,
 * hilo's HiloAttr and HiloKeyValue) are walked field by field over the
 * input bytes (pb_wire.h) and built straight into the module's arena:
 * strings are interned from the input, shape dimensions and literal
 * values are decoded once into their IR arrays, nothing else is copied.
 * Only the cold typed attribute messages (window, convolution, dot,
 * gather, scatter, sharding, replica groups, precision, frontend
 * attributes, ...) are unpacked by protobuf-c, after pb_check_wire has
 * bounded their nesting, into a per-instruction Xla__HloInstructionProto
 * that the attribute code (attr_from_typed, attrs_foreign, pb_attrs.c)
 * reads as before. Two passes over each computation's instructions: the
 * first builds them (name, opcode, shape, literal, metadata, id), the
 * second wires operands, control predecessors, called computations and
 * attributes once every id is known.
 *
 * Lossless: fields of the module, computation and instruction messages
 * that proto/hlo.proto does not declare are kept (hilo_module.proto_extra)
 * with their tag and raw bytes and written back by pb_write.c; declared
 * fields hilo does not model are dropped as before. Repeated scalars are
 * accepted packed and unpacked; a singular field given twice keeps the
 * last value (sub-messages too: no merging).
 *
 * Bad input: every read is bounds-checked; a malformed tag, varint or
 * length, a wrong wire type or nesting deeper than MAX_DEPTH is
 * "not a valid binary <kind>: <what> at byte N" (N counted from the start
 * of the input), and every reference is checked: operand,
 * control-predecessor, root, entry and called-computation ids must exist;
 * instruction graphs and the call graph must be acyclic; shapes and
 * literal sizes must agree. Any failure is a diagnostic and a NULL module,
 * never a crash. Accepts HloModuleProto, HloProto{hlo_module} and
 * HloSnapshot{hlo}.
 */
#include "hilo/hlo_text.h"
#include "pb_read.h"
#include "support/strhash.h"

/* ---- computations ---- */

/* The unknown-field record, made on the first unknown field. */
static pb_extra *extra(reader *R)
{
	if (!R->x) {
		pb_extra *x = pbr_ralloc(R, sizeof *x);
		if (!x)
			return NULL;
		x->ninstr = R->id_end; /* the ids every instruction read gets */
		x->instr = pbr_ralloc(R, (size_t)x->ninstr * sizeof *x->instr);
		if (!x->instr)
			return NULL;
		R->x = x;
	}
	return R->x;
}


typedef struct comp_rec {
	hilo_comp *c;
	size_t at;             /* its instructions' index in R->ins and R->instrs */
	slice *ins;            /* instruction messages, in proto order */
	size_t nins;
	hilo_instr **instrs;   /* built from them */
	pbr_idmap ids;
	int64_t id, root_id;
	pb_unknown unk;
	slice brace;           /* hilo_brace_comment */
	size_t callee_at, callee_end; /* its instructions' callees (computation indices)
	                        * in R->callees, [callee_at, callee_end) */
	bool unordered;        /* some operand or control predecessor comes later */
	bool wrapper;          /* hilo wrote it for an async sugar start (1004) */
} comp_rec;

/* Fields of an instruction the first pass reads. */
typedef struct instr_head {
	slice name, opcode, comment, async_op;
	slice text_name; /* 1004: the name in the text, when the proto's was made unique */
	const slice *shape, *literal, *metadata;
	slice shape_s, literal_s, metadata_s;
	slice shape_all, literal_all, metadata_all; /* the fields, tag to end (kept inputs) */
	int64_t id, parameter_number;
	bool no_index_marks;
} instr_head;

/* The first pass's fields; *is is cut to start at the first other field
 * (the second pass skips these fields wherever they are, and producers
 * write them first). */
static bool read_head(reader *R, slice *is, instr_head *h)
{
	/* what a message may leave unset (not a memset of the whole record:
	 * the *_s slices are read only when set) */
	h->name = h->opcode = h->comment = h->async_op = h->text_name = (slice){0};
	h->shape = h->literal = h->metadata = NULL;
	h->id = h->parameter_number = 0;
	h->no_index_marks = false;
	pr_cur c = {is->p, is->p + is->n};
	field f;
	const uint8_t *rest = NULL;
	while (pbr_next_field(R, &c, &f)) {
		switch (f.num) {
		case 1: if (!pbr_str_field(R, &f, &h->name)) return false; break;
		case 2: if (!pbr_str_field(R, &f, &h->opcode)) return false; break;
		case 3:
			if (!pbr_want(R, &f, PB_LEN)) return false;
			h->shape_s = f.s;
			h->shape = &h->shape_s;
			h->shape_all = (slice){f.at, (size_t)(f.end - f.at)};
			break;
		case 7:
			if (!pbr_want(R, &f, PB_LEN)) return false;
			/* a repeated message field merges (proto semantics): only a
			 * single one's bytes are kept whole */
			h->metadata_all = h->metadata ? (slice){0} : (slice){f.at, (size_t)(f.end - f.at)};
			h->metadata_s = f.s;
			h->metadata = &h->metadata_s;
			break;
		case 8:
			if (!pbr_want(R, &f, PB_LEN)) return false;
			h->literal_s = f.s;
			h->literal = &h->literal_s;
			h->literal_all = (slice){f.at, (size_t)(f.end - f.at)};
			break;
		case 9: if (!pbr_want(R, &f, PB_VARINT)) return false; h->parameter_number = (int64_t)f.v; break;
		case 35: if (!pbr_id_field(R, &f, &h->id)) return false; break;
		case 1002: if (!pbr_str_field(R, &f, &h->comment)) return false; break;
		case 1003: if (!pbr_str_field(R, &f, &h->async_op)) return false; break;
		case 1005: if (!pbr_want(R, &f, PB_VARINT)) return false; h->no_index_marks = f.v != 0; break;
		case 1004: if (!pbr_str_field(R, &f, &h->text_name)) return false; break;
		default:
			if (!rest)
				rest = f.at;
			break;
		}
	}
	if (R->failed)
		return false;
	if (!rest)
		rest = c.end;
	/* a literal not a constant's (a custom-call's literal=) is an
	 * attribute: the second pass (pbr_read_wire) sees it */
	if (h->literal && (const uint8_t *)h->literal_all.p < rest &&
	    !(h->opcode.n == 8 && !memcmp(h->opcode.p, "constant", 8)))
		rest = (const uint8_t *)h->literal_all.p;
	is->n -= (size_t)(rest - is->p);
	is->p = rest;
	return true;
}

/* A row of a name table (opcodes, attribute keys) through a small cache:
 * a module repeats a few dozen names tens of thousands of times, and the
 * tables' binary search costs a few hundred instructions a name. A hit
 * compares the whole name with the row's; misses are not cached. */
static int cached_row(struct kcache *tab, slice s, const char *(*name)(int),
	int (*lookup)(const char *, size_t), int miss)
{
	if (!s.n)
		return lookup("", 0);
	/* the name's bytes in one word (every byte for up to 8, the first 8
	 * beyond), without a variable-length copy */
	uint64_t w;
	if (s.n >= 8) {
		memcpy(&w, s.p, 8);
	} else if (s.n >= 4) {
		uint32_t a, b;
		memcpy(&a, s.p, 4);
		memcpy(&b, s.p + s.n - 4, 4);
		w = a | (uint64_t)b << 32;
	} else {
		w = s.p[0] | (uint64_t)s.p[s.n / 2] << 8 | (uint64_t)s.p[s.n - 1] << 16;
	}
	struct kcache *e = &tab[((w * 0x9e3779b97f4a7c15ull) >> 58 ^ s.n) & 63];
	/* w holds a name of up to 8 bytes whole */
	if (e->len == s.n && e->w == w && (s.n <= 8 || hilo_mem_eq(name(e->row) + 8, (const char *)s.p + 8, s.n - 8)))
		return e->row;
	int row = lookup((const char *)s.p, s.n);
	if (row != miss) {
		e->w = w;
		e->len = s.n;
		e->row = row;
	}
	return row;
}

static const char *op_name(int row) { return hilo_opcode_name((hilo_opcode)row); }
static int op_lookup(const char *s, size_t n) { return (int)hilo_opcode_lookup(s, n); }
static const char *akey_name(int row) { return hilo_attr_id_key((hilo_attr_id)row); }
static int akey_lookup(const char *s, size_t n) { return (int)hilo_attr_lookup(s, n); }

static hilo_opcode opcode_of(reader *R, slice s)
{
	return (hilo_opcode)cached_row(R->opc, s, op_name, op_lookup, HILO_OP_COUNT);
}

static hilo_attr_id attr_key_of(reader *R, slice s)
{
	return (hilo_attr_id)cached_row(R->akey, s, akey_name, akey_lookup, HILO_A_UNKNOWN);
}

/* [A-Za-z0-9_.-]: what an HLO text name is made of (the text parser's
 * identifier characters). */
static bool ident_char(uint8_t c)
{
	return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') || c == '_' ||
	       c == '.' || c == '-';
}

/* A name the text form can print and read back: an HLO identifier,
 * [A-Za-z0-9_.-] (the parser reads nothing else; bytes such as ':', a
 * newline or invalid UTF-8 were accepted and printed raw). Sixteen bytes
 * a step (vector extensions), then byte by byte. */
typedef unsigned char name_v16 __attribute__((vector_size(16)));

static bool printable_name(const char *q, size_t n)
{
	size_t k = 0;
	for (; n - k >= 16; k += 16) {
		name_v16 x;
		memcpy(&x, q + k, 16);
		name_v16 l = x | 0x20; /* letters folded to lower case */
		name_v16 ok = (name_v16)(((l >= 'a') & (l <= 'z')) | ((x >= '0') & (x <= '9')) | (x == '_') |
		                         (x == '.') | (x == '-'));
		uint64_t w[2];
		memcpy(w, &ok, 16);
		if (~w[0] | ~w[1])
			return false;
	}
	for (; k < n; k++)
		if (!ident_char((uint8_t)q[k]))
			return false;
	return true;
}

/* The name of an instruction message still to be read, when it is its
 * first field (as producers write it), and its string-table hash, whose
 * slot is prefetched: interning the next name then finds the slot in
 * cache (a new name's slot is a miss: the table is megabytes). Only a
 * look: bad bytes are left for read_head to report. */
struct name_ahead {
	const uint8_t *p;
	size_t n;
	uint32_t hash;
};

static struct name_ahead peek_name(reader *R, slice is)
{
	struct name_ahead a = {NULL, 0, 0};
	if (is.n >= 2 && is.p[0] == (1 << 3 | PB_LEN) && is.p[1] < 0x80 && is.p[1] <= is.n - 2) {
		a.p = is.p + 2;
		a.n = pbr_strnlen(a.p, is.p[1]);
		a.hash = hilo_hash_inline((const char *)a.p, a.n);
		hilo_strtab_prefetch(R->m->strings, a.hash);
	}
	return a;
}

/* A name for a message: printable ASCII as is ('"' and '\\' escaped),
 * any other byte as \xHH, at most 200 bytes of it. */
static void quote_name(hilo_buf *e, const uint8_t *p, size_t n)
{
	for (size_t k = 0; k < n && k < 200; k++) {
		if (p[k] == '"' || p[k] == '\\')
			hilo_buf_putc(e, '\\');
		if (p[k] >= 0x20 && p[k] < 0x7f)
			hilo_buf_putc(e, (char)p[k]);
		else
			hilo_buf_printf(e, "\\x%02x", p[k]);
	}
}

/* A module or computation name must be an HLO text identifier
 * ([A-Za-z0-9_.-]): the text printer writes it bare and the parser reads
 * nothing else, so anything else is refused here, at its byte, quoted in
 * the message (a newline or invalid UTF-8 in a module name was written
 * raw into the HloModule line). */
static bool ident_name(reader *R, slice s, const char *what)
{
	for (size_t k = 0; k < s.n; k++)
		if (!ident_char(s.p[k])) {
			hilo_buf e;
			hilo_buf_init(&e);
			quote_name(&e, s.p, s.n);
			pbr_rerr(R, "not a valid binary %s: %s \"%s\" has byte 0x%02x, which an HLO name cannot hold, at byte %zu",
				R->kind, what, e.data ? e.data : "", s.p[k], (size_t)(s.p + k - R->base));
			hilo_buf_free(&e);
			return false;
		}
	return true;
}

/* ---- the kept input (issue 34) ---- */

static pb_span span_of(reader *R, const uint8_t *p, size_t n)
{
	return (pb_span){(size_t)(p - R->base), n};
}

/* Appends field f to a kept field list. */
static bool keep_field(reader *R, pb_rawfield **arr, size_t *n, const field *f)
{
	pb_rawfield *a = pbr_grow_to(R, *arr, *n, 1, sizeof *a);
	if (!a)
		return false;
	pb_rawfield *r = &a[(*n)++];
	r->num = f->num;
	r->wt = f->wt;
	r->all = span_of(R, f->at, (size_t)(f->end - f->at));
	r->val = f->wt == PB_LEN ? span_of(R, f->s.p, f->s.n) : (pb_span){0, 0};
	r->v = f->v;
	*arr = a;
	return true;
}

/* Instruction k of the input (index into R->ins) became i. */
static void keep_instr(reader *R, const hilo_instr *i, int64_t id, size_t k)
{
	pb_keep *K = R->keep;
	uint32_t at = i->id - K->ibase;
	K->iid[at] = id;
	K->instr[at] = (hilo_instr *)i;
	const slice *raw = (const slice *)R->insraw.p + k;
	K->iraw[at] = span_of(R, raw->p, raw->n);
	if (id > K->max_iid)
		K->max_iid = id;
}

static bool build_instrs(reader *R, comp_rec *cr)
{
	hilo_module *m = R->m;
	hilo_comp *c = cr->c;
	if (!cr->nins) {
		pbr_rerr(R, "computation '%s' has no instructions", c->name);
		return false;
	}
	cr->instrs = R->instrs + cr->at;
	if (cr->nins > R->pids.cap) {
		void *np = hilo_heap_realloc(m->arena, R->pids.p, cr->nins * sizeof(int64_t));
		if (!np) {
			pbr_rerr(R, "out of memory");
			return false;
		}
		R->pids.p = np;
		R->pids.cap = cr->nins;
	}
	int64_t *pids = R->pids.p;
	struct name_ahead ahead = peek_name(R, cr->ins[0]);
	for (size_t k = 0; k < cr->nins; k++) {
		struct name_ahead here = ahead;
		if (k + 1 < cr->nins)
			ahead = peek_name(R, cr->ins[k + 1]);
		instr_head ip;
		if (!read_head(R, &cr->ins[k], &ip))
			return false;
		const char *what = NULL; /* WHAT: "instruction K of computation 'C'", made on an error */
		R->what_k = k;
		R->what_comp = c->name;
		hilo_opcode op = opcode_of(R, ip.opcode);
		if (op == HILO_OP_COUNT) {
			pbr_rerr(R, "%s: unknown opcode '%.*s'", WHAT, (int)ip.opcode.n, (const char *)ip.opcode.p);
			return false;
		}
		hilo_shape *shape = pbr_shape_from(R, ip.shape, 0, what);
		if (!shape)
			return false;
		hilo_instr *i = pbr_ralloc(R, sizeof *i);
		if (!i)
			return false;
		i->op = (uint8_t)op;
		i->async_op = HILO_OP_COUNT;
		if (ip.async_op.n) {
			hilo_opcode w = hilo_opcode_lookup((const char *)ip.async_op.p, ip.async_op.n);
			if (w == HILO_OP_COUNT || (op != HILO_OP_ASYNC_START && op != HILO_OP_ASYNC_UPDATE &&
			                           op != HILO_OP_ASYNC_DONE)) {
				pbr_rerr(R, "%s: bad async wrapped opcode '%.*s'", WHAT, (int)ip.async_op.n,
					(const char *)ip.async_op.p);
				return false;
			}
			i->async_op = w;
		}
		i->id = m->next_id++;
		i->shape = shape;
		if (ip.no_index_marks)
			i->text_bits |= HILO_TEXT_NO_INDEX_MARKS;
		/* names: as given, else as XLA names unnamed instructions */
		const char *in;
		if (ip.text_name.n)
			ip.name = ip.text_name; /* hilo made the proto's name unique */
		if (ip.name.n && ip.name.p == here.p && ip.name.n == here.n) {
			in = hilo_intern_hashed(m->strings, (const char *)here.p, here.n, here.hash);
		} else if (ip.name.n) {
			in = pbr_sintern(R, ip.name);
		} else {
			char buf[64];
			snprintf(buf, sizeof buf, "%s.%lld", hilo_opcode_name(op), (long long)ip.id);
			in = pbr_rintern(R, buf);
		}
		if (!printable_name(in, ip.name.n ? ip.name.n : strlen(in))) {
			hilo_buf e;
			hilo_buf_init(&e);
			quote_name(&e, (const uint8_t *)in, strlen(in));
			pbr_rerr(R, "%s: instruction name \"%s\" cannot be printed", WHAT, e.data ? e.data : "");
			hilo_buf_free(&e);
			return false;
		}
		i->name = in;
		hilo_module_claim_name(m, in);
		if (ip.comment.n)
			hilo_instr_set_comment(m, i, pbr_sdup(R, ip.comment));
		pids[k] = ip.id;
		if (R->keep) {
			keep_instr(R, i, ip.id, cr->at + k);
			pb_keep *K = R->keep;
			K->ishape[i->id - K->ibase] = i->shape;
			K->ishape_raw[i->id - K->ibase] = span_of(R, ip.shape_all.p, ip.shape_all.n);
		}
		i->mark = (int64_t)k + 1; /* proto position, for check_acyclic */
		if (op == HILO_OP_PARAMETER) {
			if (ip.parameter_number < 0 || ip.parameter_number > 1000000) {
				pbr_rerr(R, "%s ('%s'): parameter number %lld out of range", WHAT, in,
					(long long)ip.parameter_number);
				return false;
			}
			i->u.param_no = ip.parameter_number;
			if ((uint64_t)hilo_instr_param_no(i) < c->nparams && c->params[hilo_instr_param_no(i)]) {
				pbr_rerr(R, "computation '%s': duplicate parameter number %lld", c->name,
					(long long)hilo_instr_param_no(i));
				return false;
			}
			hilo_comp_add_param(m, c, i);
		}
		if (op == HILO_OP_CONSTANT) {
			if (!ip.literal) {
				pbr_rerr(R, "%s ('%s'): constant without a literal", WHAT, in);
				return false;
			}
			if (!(i->u.literal = pbr_literal_from(R, *ip.literal, shape, 0, what)))
				return false;
		}
		if (ip.metadata)
			pbr_read_metadata(R, i, *ip.metadata);
		if (R->keep && i->metadata && ip.metadata_all.n) {
			pb_keep *K = R->keep;
			K->imd_fp[i->id - K->ibase] = pb_metadata_fp(i->metadata);
			K->imd_raw[i->id - K->ibase] = span_of(R, ip.metadata_all.p, ip.metadata_all.n);
		}
		if (R->keep && hilo_instr_literal(i)) {
			pb_keep *K = R->keep;
			K->ilit[i->id - K->ibase] = hilo_instr_literal(i);
			K->ilit_raw[i->id - K->ibase] = span_of(R, ip.literal_all.p, ip.literal_all.n);
		}
		hilo_comp_append(c, i);
		cr->instrs[k] = i;
		if (R->failed)
			return false;
	}
	size_t dup;
	bool unique = pbr_idmap_build(R, &cr->ids, pids, (void *const *)cr->instrs, cr->nins, &dup);
	int64_t dup_id = !unique && dup != SIZE_MAX ? pids[dup] : 0;
	if (!unique) {
		if (dup != SIZE_MAX) {
			R->what_k = dup;
			pbr_rerr(R, "%s ('%s'): duplicate instruction id %lld", pbr_what_of(R, NULL), cr->instrs[dup]->name,
				(long long)dup_id);
		}
		return false;
	}
	for (uint32_t k = 0; k < c->nparams; k++)
		if (!c->params[k]) {
			pbr_rerr(R, "computation '%s' is missing parameter %u", c->name, k);
			return false;
		}
	hilo_instr *root = pbr_idmap_get(&cr->ids, cr->root_id);
	if (!root) {
		pbr_rerr(R, "computation '%s': root id %lld is not one of its instructions", c->name,
			(long long)cr->root_id);
		return false;
	}
	hilo_comp_set_root(c, root);
	return true;
}

static bool wire_instrs(reader *R, comp_rec *cr, const pbr_idmap *comps, bool own)
{
	hilo_module *m = R->m;
	for (size_t k = 0; k < cr->nins; k++) {
		Xla__HloInstructionProto P;
		const Xla__HloInstructionProto *ip = &P;
		bool pinit;
		hilo_instr *i = cr->instrs[k];
		pb_unknown unk = {0};
		if (!pbr_read_wire(R, cr->ins[k], &P, &pinit, &unk, 3))
			return false;
#define NEED_P() do { if (!pinit) { xla__hlo_instruction_proto__init(&P); pinit = true; } } while (0)
		const int64_t *operand_ids = R->sv[0].p, *ctrl_ids = R->sv[1].p, *called_ids = R->sv[2].p;
		size_t n_operand_ids = R->sv[0].n, n_ctrl_ids = R->sv[1].n, nc = R->sv[2].n;
		if (own && R->own_called && i->async_op != HILO_OP_COUNT) {
			/* hilo wrote XLA's wrapper for this sugar start (field 38):
			 * the start's own callees are in 1006 */
			called_ids = R->sv[5].p;
			nc = R->sv[5].n;
		}
		const slice *order = R->sv[3].p;
		size_t norder = R->sv[3].n;
		if (unk.n) {
			pb_extra *x = extra(R);
			if (!x)
				return false;
			if (i->id < x->ninstr)
				x->instr[i->id] = unk;
		}
		if (n_operand_ids > 1000000 || nc > 100000) {
			pbr_rerr(R, "instruction '%s': too many operands", i->name);
			return false;
		}
		if (!hilo_opcode_operands_ok(i->op, (uint32_t)n_operand_ids) &&
		    i->async_op == HILO_OP_COUNT) {
			pbr_rerr(R, "instruction '%s' in '%s': %s takes %d operands, not %zu", i->name,
				cr->c->name, hilo_opcode_name(i->op), hilo_opcode_arity(i->op), n_operand_ids);
			return false;
		}
		if (n_operand_ids > HILO_INLINE_OPERANDS && !i->noperands) {
			/* allocated once at their number, as the text parser does
			 * (else hilo_instr_add_operand uses inline_ops) */
			if (!(i->operands = pbr_ralloc(R, n_operand_ids * sizeof *i->operands)))
				return false;
			i->cap_operands = (uint32_t)n_operand_ids;
		}
		for (size_t j = 0; j < n_operand_ids; j++) {
			hilo_instr *o = pbr_idmap_get(&cr->ids, operand_ids[j]);
			cr->unordered |= o && o->mark >= i->mark;
			if (!o) {
				pbr_rerr(R, "instruction '%s' in '%s': operand %zu has id %lld, which is not in the computation",
					i->name, cr->c->name, j, (long long)operand_ids[j]);
				return false;
			}
			hilo_instr_add_operand(m, i, o);
		}
		for (size_t j = 0; j < n_ctrl_ids; j++) {
			hilo_instr *o = pbr_idmap_get(&cr->ids, ctrl_ids[j]);
			cr->unordered |= o && o->mark >= i->mark;
			if (!o) {
				pbr_rerr(R, "instruction '%s': control predecessor id %lld is not in the computation",
					i->name, (long long)ctrl_ids[j]);
				return false;
			}
			hilo_instr_link_ctrl(m, i, o);
		}
		for (size_t j = 0; j < nc; j++) {
			/* a while's proto order is {body, condition}; the IR's is text order */
			size_t src = j;
			bool swap = i->op == HILO_OP_WHILE && nc == 2;
			if (swap)
				src = 1 - j;
			comp_rec *callee = pbr_idmap_get(comps, called_ids[src]);
			if (!callee) {
				pbr_rerr(R, "instruction '%s': called computation id %lld does not exist",
					i->name, (long long)called_ids[src]);
				return false;
			}
			hilo_instr_add_called(m, i, callee->c);
			size_t ci = (size_t)(callee - (comp_rec *)R->recs);
			if (R->callees.n == R->callees.cap) {
				size_t cap = R->callees.cap ? 2 * R->callees.cap : 64;
				void *np = hilo_heap_realloc(m->arena, R->callees.p, cap * sizeof ci);
				if (!np) {
					pbr_rerr(R, "out of memory");
					return false;
				}
				R->callees.p = np;
				R->callees.cap = cap;
			}
			((size_t *)R->callees.p)[R->callees.n++] = ci;
		}
		if (norder && norder < 65536 && !i->attrs) {
			/* at most one attribute per recorded key, and the control
			 * predecessors: allocated once at that size */
			uint32_t cap = (uint32_t)norder + (n_ctrl_ids != 0);
			if (!(i->attrs = pbr_ralloc(R, cap * sizeof *i->attrs)))
				return false;
			i->cap_attrs = cap;
		}
		if (own || norder) {
			for (size_t j = 0; j < norder && !R->failed; j++) {
				const char *key = order[j].n ? (const char *)order[j].p : "";
				size_t kn = order[j].n;
				hilo_attr_id id = attr_key_of(R, order[j]);
				if (id == HILO_A_METADATA) {
					if (i->metadata)
						pbr_append_known(R, i, id, HILO_ATTR_METADATA);
					continue;
				}
				if (id == HILO_A_CONTROL_PREDECESSORS) {
					pbr_append_known(R, i, id, HILO_ATTR_CONTROL);
					continue;
				}
				NEED_P();
				const Xla__HiloAttr *h = NULL;
				for (size_t q = 0; q < ip->n_hilo_attrs && !h; q++)
					if (ip->hilo_attrs[q]->key && strlen(ip->hilo_attrs[q]->key) == kn &&
					    !memcmp(ip->hilo_attrs[q]->key, key, kn))
						h = ip->hilo_attrs[q];
				if (h)
					pbr_attr_from_ext(R, i, h);
				else
					pbr_attr_from_typed(R, i, ip, id);
			}
		} else {
			NEED_P();
			pbr_attrs_foreign(R, i, ip);
		}
		if (hilo_instr_nctrl_preds(i) && !hilo_instr_attr(i, HILO_A_CONTROL_PREDECESSORS))
			pbr_append_known(R, i, HILO_A_CONTROL_PREDECESSORS, HILO_ATTR_CONTROL);
		if (R->failed)
			return false;
		/* its position is compared no more: an instruction still to come
		 * that names it sees 0, earlier than itself, which it is */
		i->mark = 0;
	}
	return true;
#undef NEED_P
}

/* Operands and control predecessors must form a DAG. */
static bool check_acyclic(reader *R, comp_rec *cr)
{
	hilo_comp *c = cr->c;
	/* the usual case: every operand and control predecessor comes earlier
	 * in the computation (producers write post order; wire_instrs compared
	 * the proto positions build_instrs left in mark, and cleared them) */
	if (!cr->unordered)
		return true;
	uint32_t n = c->ninstrs, sp = 0;
	hilo_instr **stack = hilo_heap_alloc(R->m->arena, (size_t)(n + 1) * sizeof *stack);
	uint32_t *pos = hilo_heap_alloc(R->m->arena, (size_t)(n + 1) * sizeof *pos);
	if (!stack || !pos) {
		hilo_heap_free(R->m->arena, stack);
		hilo_heap_free(R->m->arena, pos);
		pbr_rerr(R, "out of memory");
		return false;
	}
	bool ok = true;
	for (hilo_instr *i = c->first; i; i = i->next)
		i->mark = 0; /* 0 new, 1 on stack, 2 done */
	for (hilo_instr *s = c->first; s && ok; s = s->next) {
		if (s->mark)
			continue;
		stack[sp] = s;
		pos[sp++] = 0;
		s->mark = 1;
		while (sp && ok) {
			hilo_instr *i = stack[sp - 1];
			uint32_t k = pos[sp - 1]++;
			uint32_t deg = i->noperands + hilo_instr_nctrl_preds(i);
			if (k >= deg) {
				i->mark = 2;
				sp--;
				continue;
			}
			hilo_instr *o = k < i->noperands ? i->operands[k] : hilo_instr_ctrl_preds(i)[k - i->noperands];
			if (o->mark == 1) {
				pbr_rerr(R, "computation '%s': instruction '%s' depends on itself (cycle through '%s')",
					c->name, o->name, i->name);
				ok = false;
			} else if (!o->mark) {
				o->mark = 1;
				stack[sp] = o;
				pos[sp++] = 0;
			}
		}
	}
	for (hilo_instr *i = c->first; i; i = i->next)
		i->mark = 0;
	hilo_heap_free(R->m->arena, stack);
	hilo_heap_free(R->m->arena, pos);
	return ok;
}

static bool check_call_graph(reader *R, comp_rec *recs, size_t n)
{
	/* the callee lists wire_instrs recorded (computation indices, one
	 * computation after another), then an iterative DFS; mark 1 = on
	 * the stack, 2 = done */
	bool ok = true;
	for (size_t k = 0; k < n; k++)
		recs[k].c->mark = 0;
	size_t *first = hilo_heap_alloc(R->m->arena, (n + 1) * sizeof *first);
	const size_t *callee = R->callees.p;
	size_t *stack = hilo_heap_alloc(R->m->arena, (n + 1) * sizeof *stack);
	size_t *pos = hilo_heap_alloc(R->m->arena, (n + 1) * sizeof *pos);
	ok = first && stack && pos;
	if (!ok)
		pbr_rerr(R, "out of memory");
	for (size_t k = 0; k < n && ok; k++)
		first[k] = recs[k].callee_at;
	for (size_t s = 0; s < n && ok; s++) {
		if (recs[s].c->mark)
			continue;
		size_t sp = 0;
		stack[sp] = s;
		pos[sp++] = first[s];
		recs[s].c->mark = 1;
		while (sp && ok) {
			size_t r = stack[sp - 1];
			if (pos[sp - 1] >= recs[r].callee_end) {
				recs[r].c->mark = 2;
				sp--;
				continue;
			}
			size_t ce = callee[pos[sp - 1]++];
			hilo_comp *cc = recs[ce].c;
			if (cc->mark == 1) {
				pbr_rerr(R, "computation '%s' calls itself (through '%s')", cc->name, recs[r].c->name);
				ok = false;
			} else if (!cc->mark) {
				cc->mark = 1;
				stack[sp] = ce;
				pos[sp++] = first[ce];
			}
		}
	}
	for (size_t k = 0; k < n; k++)
		recs[k].c->mark = 0;
	hilo_heap_free(R->m->arena, first);
	hilo_heap_free(R->m->arena, stack);
	hilo_heap_free(R->m->arena, pos);
	return ok;
}

/* ---- module ---- */

static bool read_comp_head(reader *R, slice cs, comp_rec *cr, slice *name, slice *thread,
	slice *gap, bool *print_sig, bool *has_thread)
{
	pr_cur c = {cs.p, cs.p + cs.n};
	field f;
	while (pbr_next_field(R, &c, &f)) {
		switch (f.num) {
		case 1: if (!pbr_str_field(R, &f, name)) return false; break;
		case 2: /* into R->ins, after the computations read before */
			if (!pbr_want(R, &f, PB_LEN) || !pbr_sv_push_slice(R, &R->ins, f.s))
				return false;
			if (R->keep && !pbr_sv_push_slice(R, &R->insraw, (slice){f.at, (size_t)(f.end - f.at)}))
				return false;
			cr->nins++;
			break;
		case 5: if (!pbr_id_field(R, &f, &cr->id)) return false; break;
		case 6: if (!pbr_want(R, &f, PB_VARINT)) return false; cr->root_id = (int64_t)f.v; break;
		case 8: if (!pbr_str_field(R, &f, thread)) return false; break;
		case 1000: if (!pbr_want(R, &f, PB_VARINT)) return false; *print_sig = f.v != 0; break;
		case 1001: if (!pbr_str_field(R, &f, gap)) return false; break;
		case 1002: if (!pbr_want(R, &f, PB_VARINT)) return false; *has_thread = f.v != 0; break;
		case 1003: if (!pbr_str_field(R, &f, &cr->brace)) return false; break;
		case 1004: if (!pbr_want(R, &f, PB_VARINT)) return false; cr->wrapper = f.v != 0; break;
		default:
			if (!pbr_other_field(R, &f, &xla__hlo_computation_proto__descriptor, &cr->unk))
				return false;
			break;
		}
	}
	return !R->failed;
}

/* The host_program_shape (HloModuleProto field 4) of a proto hilo did
 * not write, when it is not the entry's own parameter and root shapes
 * (XLA's layout assignment gives it tiles and memory spaces the
 * instructions do not carry): the module's entry_computation_layout, as
 * XLA takes it from this field. */
static bool host_layout_attr(reader *R, slice ps)
{
	hilo_module *m = R->m;
	const hilo_comp *e = m->entry;
	for (uint32_t k = 0; k < m->nattrs; k++)
		if (!strcmp(m->attrs[k].key, "entry_computation_layout"))
			return true;
	if (!e || !e->root)
		return true;
	const hilo_shape **params = pbr_ralloc(R, (e->nparams + 1) * sizeof *params);
	if (!params)
		return false;
	uint32_t np = 0;
	slice root = {0};
	bool has_root = false, differs = false;
	pr_cur c = {ps.p, ps.p + ps.n};
	field f;
	while (pbr_next_field(R, &c, &f)) {
		if (f.num != 1 && f.num != 2)
			continue;
		if (!pbr_want(R, &f, PB_LEN))
			return false;
		if (f.num == 2) {
			root = f.s;
			has_root = true;
			continue;
		}
		if (np == e->nparams)
			return true; /* not this entry's signature: the instructions say */
		const hilo_shape *s = pbr_shape_from(R, &f.s, 0, "the host program shape");
		if (!s)
			return false;
		const hilo_instr *pi = e->params[np];
		differs |= !pi || pi->shape != s;
		params[np++] = s;
	}
	if (R->failed)
		return false;
	if (np != e->nparams || !has_root)
		return true;
	const hilo_shape *rs = pbr_shape_from(R, &root, 0, "the host program shape");
	if (!rs)
		return false;
	if (!differs && rs == e->root->shape)
		return true;
	hilo_buf b;
	hilo_buf_init_in(&b, m->arena);
	hilo_print_entry_layout(&b, params, np, rs);
	hilo_module_attr *na = b.oom ? NULL : pbr_ralloc(R, (m->nattrs + 2) * sizeof *na);
	if (!na) {
		hilo_buf_free(&b);
		pbr_rerr(R, "out of memory");
		return false;
	}
	memset(na, 0, sizeof *na);
	na[0].key = pbr_rintern(R, "entry_computation_layout");
	na[0].value = hilo_arena_strndup(m->arena, hilo_buf_cstr(&b), b.len);
	if (m->nattrs)
		memcpy(na + 1, m->attrs, m->nattrs * sizeof *na);
	m->attrs = na;
	m->nattrs++;
	hilo_buf_free(&b);
	return true;
}

/* Appends a module attribute key=value (the value copied). */
static bool module_attr(reader *R, const char *key, const char *val, size_t n)
{
	hilo_module *m = R->m;
	hilo_module_attr *na = pbr_ralloc(R, (m->nattrs + 2) * sizeof *na);
	if (!na)
		return false;
	if (m->nattrs)
		memcpy(na, m->attrs, m->nattrs * sizeof *na);
	memset(&na[m->nattrs], 0, sizeof *na);
	na[m->nattrs].key = pbr_rintern(R, key);
	na[m->nattrs].value = hilo_arena_strndup(m->arena, val ? val : "", n);
	if (!na[m->nattrs].key || !na[m->nattrs].value) {
		pbr_rerr(R, "out of memory");
		return false;
	}
	m->attrs = na;
	m->nattrs++;
	return true;
}

static bool build_module(reader *R, slice ms)
{
	hilo_module *m = R->m;
	enum { S_NAME, S_ENTRY, S_HEADER, S_GAP, S_TRAILER, S_FRAMES, S_COUNT };
	slice sv[S_COUNT];
	memset(sv, 0, sizeof sv);
	slice *cs = NULL, *ma = NULL;
	size_t ncs = 0, nma = 0;
	int64_t entry_id = 0;
	int32_t style = 0;
	bool flag[12] = {0}; /* fields 1006..1011 at flag[number - 1000] */
	pb_unknown munk = {0};
	field fa_field;
	bool has_fa = false, has_host_shape = false, has_ort = false;
	slice ort = {0};
	slice host_shape = {0};
	memset(&fa_field, 0, sizeof fa_field);
	pb_keep *K = R->keep;
	pr_cur c = {ms.p, ms.p + ms.n};
	field f;
	while (pbr_next_field(R, &c, &f)) {
		if (K && !keep_field(R, &K->mf, &K->nmf, &f))
			return false;
		switch (f.num) {
		case 1: if (!pbr_str_field(R, &f, &sv[S_NAME])) return false; break;
		case 2: if (!pbr_str_field(R, &f, &sv[S_ENTRY])) return false; break;
		case 3: if (!pbr_rep_slice(R, &f, &cs, &ncs)) return false; break;
		case 6: if (!pbr_want(R, &f, PB_VARINT)) return false; entry_id = (int64_t)f.v; break;
		case 19: if (!pbr_want(R, &f, PB_LEN)) return false; fa_field = f; has_fa = true; break;
		case 20: if (!pbr_want(R, &f, PB_LEN)) return false; ort = f.s; has_ort = true; break;
		case 4:
			if (!pbr_want(R, &f, PB_LEN))
				return false;
			host_shape = f.s;
			has_host_shape = true;
			if (!pbr_other_field(R, &f, &xla__hlo_module_proto__descriptor, &munk))
				return false;
			break;
		case 1000: if (!pbr_rep_slice(R, &f, &ma, &nma)) return false; break;
		case 1001: if (!pbr_str_field(R, &f, &sv[S_HEADER])) return false; break;
		case 1002: if (!pbr_str_field(R, &f, &sv[S_GAP])) return false; break;
		case 1003: if (!pbr_str_field(R, &f, &sv[S_TRAILER])) return false; break;
		case 1004: if (!pbr_str_field(R, &f, &sv[S_FRAMES])) return false; break;
		case 1005: if (!pbr_want(R, &f, PB_VARINT)) return false; style = (int32_t)f.v; break;
		case 1006: case 1007: case 1008: case 1009: case 1010: case 1011:
			if (!pbr_want(R, &f, PB_VARINT))
				return false;
			flag[f.num - 1000] = f.v != 0;
			break;
		default:
			if (!pbr_other_field(R, &f, &xla__hlo_module_proto__descriptor, &munk))
				return false;
			break;
		}
	}
	if (R->failed)
		return false;
	if (!ncs) {
		pbr_rerr(R, "the module has no computations");
		return false;
	}
	if (flag[9]) /* hilo wrote it: the IR holds it all (hilo_written) */
		K = R->keep = NULL;
	if (K) {
		K->ncomp = ncs;
		K->comp = pbr_ralloc(R, ncs * sizeof *K->comp);
		K->cid = pbr_ralloc(R, ncs * sizeof *K->cid);
		K->craw = pbr_ralloc(R, ncs * sizeof *K->craw);
		K->cfp = pbr_ralloc(R, ncs * sizeof *K->cfp);
		if (!K->comp || !K->cid || !K->craw || !K->cfp)
			return false;
		size_t j = 0;
		for (size_t k = 0; k < K->nmf; k++)
			if (K->mf[k].num == 3)
				K->craw[j++] = K->mf[k].all;
	}
	if (!ident_name(R, sv[S_NAME], "the module name"))
		return false;
	m->name = sv[S_NAME].n ? pbr_sintern(R, sv[S_NAME]) : pbr_rintern(R, "module");
	comp_rec *recs = hilo_heap_alloc(m->arena, ncs * sizeof *recs); /* zeroed; freed by read_module */
	R->recs = recs;
	if (!recs) {
		pbr_rerr(R, "out of memory");
		return false;
	}
	pbr_idmap comps, *comps_map = &comps;
	if (!pbr_idmap_init(R, comps_map, ncs))
		return false;
	hilo_ptrmap names;
	hilo_ptrmap_init_in(&names, R->m->arena);
	for (size_t k = 0; k < ncs && !R->failed; k++) {
		slice cname = {0}, thread = {0}, gap = {0};
		bool print_sig = false, has_thread = false;
		recs[k].at = R->ins.n;
		if (!read_comp_head(R, cs[k], &recs[k], &cname, &thread, &gap, &print_sig, &has_thread))
			break;
		char buf[64];
		const char *name;
		if (!ident_name(R, cname, "a computation name"))
			break;
		if (cname.n) {
			name = pbr_sintern(R, cname);
		} else {
			snprintf(buf, sizeof buf, "computation.%lld", (long long)recs[k].id);
			name = buf;
		}
		hilo_comp *cc = hilo_comp_create(m, name);
		if (!cc || !cc->name) {
			pbr_rerr(R, "out of memory");
			break;
		}
		if (hilo_ptrmap_get(&names, cc->name)) {
			pbr_rerr(R, "computation '%s' appears twice", cc->name);
			break;
		}
		hilo_ptrmap_put(&names, cc->name, cc);
		cc->print_signature = print_sig;
		if (gap.n)
			cc->gap_before = pbr_sdup(R, gap);
		if (recs[k].brace.n)
			cc->brace_comment = pbr_sdup(R, recs[k].brace);
		if (has_thread || (thread.n && !(thread.n == 4 && !memcmp(thread.p, "main", 4))))
			cc->execution_thread = pbr_sintern(R, thread);
		recs[k].c = cc;
		if (K) {
			K->comp[k] = cc;
			K->cid[k] = recs[k].id;
			if (recs[k].id > K->max_cid)
				K->max_cid = recs[k].id;
		}
		if (!pbr_idmap_put(comps_map, recs[k].id, &recs[k])) {
			pbr_rerr(R, "computation '%s': duplicate computation id %lld", cc->name, (long long)recs[k].id);
			break;
		}
		hilo_module_add_comp(m, cc, NULL);
	}
	hilo_ptrmap_free(&names);
	if (R->failed)
		return false;
	/* every instruction message is known: their slices stay where they
	 * are now, the instructions get one array, the names one reserve */
	if (!(R->instrs = hilo_heap_alloc(m->arena, (R->ins.n + 1) * sizeof *R->instrs))) {
		pbr_rerr(R, "out of memory");
		return false;
	}
	for (size_t k = 0; k < ncs; k++)
		recs[k].ins = R->ins.p ? (slice *)R->ins.p + recs[k].at : NULL; /* no instruction at all: no array */
	hilo_strtab_reserve(m->strings, R->ins.n + ncs);
	R->id_end = m->next_id + (uint32_t)R->ins.n;
	if (K) {
		K->ibase = m->next_id;
		K->iend = R->id_end;
		size_t n = R->ins.n + 1;
		K->iid = pbr_ralloc(R, n * sizeof *K->iid);
		K->iraw = pbr_ralloc(R, n * sizeof *K->iraw);
		K->ifp = pbr_ralloc(R, n * sizeof *K->ifp);
		K->instr = pbr_ralloc(R, n * sizeof *K->instr);
		K->ishape = pbr_ralloc(R, n * sizeof *K->ishape);
		K->ishape_raw = pbr_ralloc(R, n * sizeof *K->ishape_raw);
		K->ilit = pbr_ralloc(R, n * sizeof *K->ilit);
		K->ilit_raw = pbr_ralloc(R, n * sizeof *K->ilit_raw);
		K->imd_fp = pbr_ralloc(R, n * sizeof *K->imd_fp);
		K->imd_raw = pbr_ralloc(R, n * sizeof *K->imd_raw);
		if (!K->iid || !K->iraw || !K->ifp || !K->instr || !K->ishape || !K->ishape_raw || !K->ilit ||
		    !K->ilit_raw || !K->imd_fp || !K->imd_raw)
			return false;
	}
	/* a computation at a time (operands are in the same computation,
	 * callees need only exist), its messages read twice while in cache */
	/* (the async sugar wrappers hilo wrote last: the IR drops them, and
	 * the other instructions keep the ids they had when written) */
	for (int pass = 0; pass < 2; pass++)
		for (size_t k = 0; k < ncs; k++) {
			if (recs[k].wrapper != (pass == 1))
				continue;
			recs[k].callee_at = R->callees.n;
			if (!build_instrs(R, &recs[k]) || !wire_instrs(R, &recs[k], comps_map, flag[9]) ||
			    !check_acyclic(R, &recs[k]))
				return false;
			recs[k].callee_end = R->callees.n;
		}
	if (!check_call_graph(R, recs, ncs))
		return false;

	/* entry: by id, else by name, else the last computation */
	comp_rec *e = pbr_idmap_get(comps_map, entry_id);
	const char *ename = sv[S_ENTRY].n ? pbr_sintern(R, sv[S_ENTRY]) : NULL;
	if (ename && (!e || strcmp(e->c->name, ename))) {
		comp_rec *byname = NULL;
		for (size_t k = 0; k < ncs; k++)
			if (!strcmp(recs[k].c->name, ename))
				byname = &recs[k];
		if (!byname && !e) {
			pbr_rerr(R, "entry computation '%s' does not exist", ename);
			return false;
		}
		if (byname)
			e = byname;
	}
	hilo_module_set_entry(m, e ? e->c : recs[ncs - 1].c);
	if (K)
		K->entry = m->entry;
	m->entry_last_no_keyword = flag[6];
	m->no_entry_layout = flag[10];
	m->no_final_newline = flag[11];
	/* module attributes and text details */
	if (nma) {
		m->nattrs = (uint32_t)nma;
		m->attrs = pbr_ralloc(R, (nma + 1) * sizeof *m->attrs);
		if (!m->attrs)
			return false;
		for (size_t k = 0; k < nma; k++) {
			slice kv[3] = {{0}};
			pr_cur ac = {ma[k].p, ma[k].p + ma[k].n};
			while (pbr_next_field(R, &ac, &f))
				if (f.num >= 1 && f.num <= 3 && !pbr_str_field(R, &f, &kv[f.num - 1]))
					return false;
			if (R->failed)
				return false;
			m->attrs[k].key = pbr_sintern(R, kv[0]);
			m->attrs[k].value = pbr_sdup(R, kv[1]);
			if (kv[2].n)
				m->attrs[k].sep = pbr_sdup(R, kv[2]);
		}
	}
	/* the module's frontend_attributes (field 19) of a proto hilo did not
	 * write (hilo's own keep the text in field 1000): a module attribute
	 * in XLA's text form, which the printer prints and the writer turns
	 * back into field 19. JAX's shard_map puts the Shardy mesh every
	 * sharding names there; without it XLA cannot compile the module. */
	bool fa_in_attrs = false;
	for (uint32_t k = 0; k < m->nattrs; k++)
		fa_in_attrs = fa_in_attrs || !strcmp(m->attrs[k].key, "frontend_attributes");
	if (has_fa && !fa_in_attrs) {
		Xla__FrontendAttributes *fa = pbr_unpack_sub(R, &fa_field, &xla__frontend_attributes__descriptor, 0);
		if (!fa)
			return false;
		hilo_buf fb;
		hilo_buf_init_in(&fb, m->arena);
		bool ok = !fa->n_map || !pbx_module_fa_render(&fb, fa) || fb.oom ||
			module_attr(R, "frontend_attributes", fb.data, fb.len);
		hilo_buf_free(&fb);
		if (!ok)
			return false;
	}
	/* the origin_recovery_table (field 20) of a proto hilo did not write:
	 * the attribute's text as XLA prints it (the kept field goes back as
	 * it came) */
	bool ort_in_attrs = false;
	for (uint32_t k = 0; k < m->nattrs; k++)
		ort_in_attrs = ort_in_attrs || !strcmp(m->attrs[k].key, "origin_recovery_table");
	if (has_ort && K && !ort_in_attrs) {
		hilo_buf tb;
		hilo_buf_init_in(&tb, m->arena);
		bool ok = pbr_recovery_text(R, ort, &tb) &&
			module_attr(R, "origin_recovery_table", tb.data, tb.len);
		hilo_buf_free(&tb);
		if (!ok)
			return false;
	}
	if (has_host_shape && !flag[9] && !host_layout_attr(R, host_shape))
		return false;
	if (sv[S_HEADER].n)
		m->header = pbr_sdup(R, sv[S_HEADER]);
	if (flag[7])
		m->gap = pbr_sdup(R, sv[S_GAP]);
	if (flag[8])
		m->trailer = pbr_sdup(R, sv[S_TRAILER]);
	if (sv[S_FRAMES].n)
		m->stack_frames = pbr_sdup(R, sv[S_FRAMES]);
	if (style == HILO_STYLE_LONG || style == HILO_STYLE_SHORT)
		m->style = (hilo_print_style)style;
	/* unknown fields of the module and its computations */
	size_t nc = 0;
	for (size_t k = 0; k < ncs; k++)
		nc += recs[k].unk.n != 0;
	if (nc || munk.n) {
		pb_extra *x = extra(R);
		if (!x)
			return false;
		x->module = munk;
		x->comp = pbr_ralloc(R, (nc + 1) * sizeof *x->comp);
		x->comp_f = pbr_ralloc(R, (nc + 1) * sizeof *x->comp_f);
		if (!x->comp || !x->comp_f)
			return false;
		for (size_t k = 0; k < ncs; k++)
			if (recs[k].unk.n) {
				x->comp[x->ncomp] = recs[k].c;
				x->comp_f[x->ncomp++] = recs[k].unk;
			}
	}
	if (K) {
		pb_extra *x = extra(R);
		if (!x)
			return false;
		x->keep = K;
	}
	/* the computations hilo wrote only for XLA (async sugar wrappers,
	 * pb_write.c put_async_wrapper): the IR keeps the sugar, which calls
	 * none of them */
	if (flag[9])
		for (size_t k = 0; k < ncs; k++)
			if (recs[k].wrapper && recs[k].c != m->entry)
				hilo_module_remove_comp(m, recs[k].c);
	m->proto_extra = R->x;
	return !R->failed;
}

/* ---- entry points ---- */

/* Payload of field 1 when it is length-delimited, else NULL. */
static const uint8_t *field1(const uint8_t *p, size_t len, size_t *out)
{
	const uint8_t *end = p + len;
	const uint8_t *found = NULL;
	while (p < end) {
		uint64_t tag = 0, v = 0;
		int shift = 0;
		do {
			if (p >= end || shift > 63)
				return NULL;
			tag |= (uint64_t)(*p & 0x7f) << shift;
			shift += 7;
		} while (*p++ & 0x80);
		switch (tag & 7) {
		case 0:
			do {
				if (p >= end)
					return NULL;
			} while (*p++ & 0x80);
			break;
		case 1: if (end - p < 8) return NULL; p += 8; break;
		case 5: if (end - p < 4) return NULL; p += 4; break;
		case 2:
			shift = 0;
			do {
				if (p >= end || shift > 63)
					return NULL;
				v |= (uint64_t)(*p & 0x7f) << shift;
				shift += 7;
			} while (*p++ & 0x80);
			if (v > (uint64_t)(end - p))
				return NULL;
			if ((tag >> 3) == 1) {
				found = p;
				*out = (size_t)v;
			}
			p += v;
			break;
		default:
			return NULL;
		}
	}
	return found;
}

/* A wrapper's field 1 holds a message (starting with a field-1 string
 * tag); a module's field 1 is its name. */
static bool is_wrapper(const uint8_t *p, size_t len)
{
	size_t n;
	const uint8_t *f = field1(p, len, &n);
	if (!f || n == 0 || f[0] != 0x0a)
		return false;
	return pb_check_wire(f, n, NULL, 2) == NULL;
}

static hilo_module *read_guarded(int wrap, const char *kind, const uint8_t *p, size_t len,
	const char *filename, hilo_diags *d, int nest);

hilo_module *hilo_proto_read(const void *data, size_t len, const char *filename,
	hilo_diags *d)
{
	const uint8_t *p = data;
	const char *kind = "HloModuleProto";
	int wrap = 0;
	if (is_wrapper(p, len)) {
		size_t n1;
		const uint8_t *f1 = field1(p, len, &n1);
		if (is_wrapper(f1, n1)) {
			kind = "HloSnapshot";
			wrap = 2;
		} else {
			kind = "HloProto";
			wrap = 1;
		}
	}
	return read_guarded(wrap, kind, p, len, filename, d, 0);
}

/* The form read and an HloSnapshot's arguments, for every module read
 * from a wrapper (hilo's own too). */
static bool keep_form(reader *R, int wrap, const uint8_t *p, size_t len)
{
	pb_extra *x = extra(R);
	if (!x)
		return false;
	x->form = wrap;
	R->m->proto_extra = x;
	if (wrap != PB_FORM_SNAPSHOT)
		return true;
	pr_cur c = {p, p + len};
	field f;
	memset(&f, 0, sizeof f);
	while (pbr_next_field(R, &c, &f)) {
		if (f.num != 2)
			continue;
		if (!pbr_want(R, &f, PB_LEN))
			return false;
		x->arg = pbr_grow_to(R, x->arg, x->nargs, 1, sizeof *x->arg);
		x->argn = pbr_grow_to(R, x->argn, x->nargs, 1, sizeof *x->argn);
		if (!x->arg || !x->argn || !(x->arg[x->nargs] = pbr_ralloc(R, f.s.n)))
			return false;
		memcpy(x->arg[x->nargs], f.s.p, f.s.n);
		x->argn[x->nargs++] = f.s.n;
	}
	return !R->failed;
}

/* Builds into m; false (+ diagnostic) on bad input. */
static bool read_module(hilo_module *m, int wrap, const char *kind, const uint8_t *p,
	size_t len, const char *filename, hilo_diags *d, int nest)
{
	reader R;
	memset(&R, 0, sizeof R);
	R.nest = nest;
	R.m = m;
	R.d = d;
	R.file = filename;
	R.base = p;
	R.kind = kind;
	pb_arena_allocator(&R.pa, m->arena);
	hilo_buf_init_in(&R.tmp, m->arena);
	hilo_bytemap_init(&R.shapes, m->arena);
	for (unsigned k = 0; k < xla__hlo_instruction_proto__descriptor.n_fields; k++) {
		uint32_t id = xla__hlo_instruction_proto__descriptor.fields[k].id;
		if (id < 128)
			R.declared[id >> 6] |= 1ull << (id & 63);
	}
	slice ms = {p, len};
	pb_keep *K = R.keep = pbr_ralloc(&R, sizeof *R.keep);
	if (K)
		K->form = wrap;
	/* HloProto{hlo_module = 1}, HloSnapshot{hlo = 1}: the last field 1 */
	for (int k = 0; k < wrap && !R.failed; k++) {
		pr_cur c = {ms.p, ms.p + ms.n};
		field f;
		memset(&f, 0, sizeof f);
		bool found = false;
		int at = wrap == 2 ? k : 1;
		while (pbr_next_field(&R, &c, &f)) {
			if (K && !keep_field(&R, &K->outer[at], &K->nouter[at], &f))
				break;
			if (f.num == 1 && pbr_want(&R, &f, PB_LEN)) {
				ms = f.s;
				found = true;
			}
		}
		if (!found && !R.failed)
			pbr_rerr(&R, "%s holds no module", kind);
	}
	bool ok = !R.failed && build_module(&R, ms);
	if (ok && wrap)
		ok = keep_form(&R, wrap, p, len);
	if (ok && R.keep) {
		/* the input, for the bytes of what stays unchanged */
		if (!(R.keep->buf = hilo_arena_alloc(m->arena, len ? len : 1))) {
			pbr_rerr(&R, "out of memory");
			ok = false;
		} else {
			memcpy(R.keep->buf, p, len);
			R.keep->len = len;
			ok = pb_keep_text_attrs(m, R.keep) && pb_keep_fingerprint(m, d);
		}
	}
	for (int k = 0; k < 4; k++)
		hilo_heap_free(m->arena, R.sv[k].p);
	hilo_heap_free(m->arena, R.ins.p);
	hilo_heap_free(m->arena, R.insraw.p);
	hilo_heap_free(m->arena, R.pids.p);
	hilo_heap_free(m->arena, R.dense.p);
	hilo_heap_free(m->arena, R.recs);
	hilo_heap_free(m->arena, R.callees.p);
	hilo_heap_free(m->arena, R.instrs);
	hilo_buf_free(&R.tmp);
	hilo_bytemap_free(&R.shapes);
	return ok;
}

/* Creates the module and reads it under an out-of-memory guard. */
static hilo_module *read_guarded(int wrap, const char *kind, const uint8_t *p, size_t len,
	const char *filename, hilo_diags *d, int nest)
{
	hilo_module *m = hilo_module_create("module");
	if (!m) {
		hilo_diag_oom(d, filename);
		return NULL;
	}
	HILO_OOM_CATCH(g, m->arena) {
		hilo_module_destroy(m);
		hilo_diag_oom(d, filename);
		return NULL;
	}
	bool ok = read_module(m, wrap, kind, p, len, filename, d, nest);
	hilo_oom_end(&g);
	if (!ok) {
		hilo_module_destroy(m);
		return NULL;
	}
	return m;
}

hilo_module *pbr_read_nested(reader *R, slice s)
{
	if (R->nest + 1 >= PB_MAX_NEST) {
		pbr_rerr(R, "origin_recovery_table: recovery modules nested more than %d deep", PB_MAX_NEST);
		return NULL;
	}
	hilo_module *m = read_guarded(0, "HloModuleProto", s.p, s.n, R->file, R->d, R->nest + 1);
	if (!m)
		pbr_rerr(R, "in a recovery module of the origin_recovery_table (field 20)");
	return m;
}

/* A binary proto cut short (a partial copy, head -c): its top-level fields
 * read up to one that runs past the end. It begins with field 1,
 * length-delimited (its length a varint byte no text line starts with), as all three messages do (HloModuleProto's name,
 * HloProto's module, HloSnapshot's HloProto), and holds a control byte
 * (NUL, or one below 0x20 other than tab, newline, CR, VT, FF), which HLO
 * text never does: read as text it would only get "NUL byte in input" or
 * "got byte 0x05", read as a proto the reader says where it ends. */
static bool looks_truncated(const uint8_t *p, size_t len)
{
	/* after the tag, field 1's length: a text line never starts with
	 * such a byte (HLO text that opens with a blank line has a newline,
	 * a space or a printable character there) */
	if (len < 2 || p[0] != 0x0a || (p[1] >= '\t' && p[1] < 0x80))
		return false;
	bool control = false;
	for (size_t k = 0; k < len && !control; k++)
		control = p[k] < 0x20 && !(p[k] >= '\t' && p[k] <= '\r');
	if (!control)
		return false;
	const char *e = pb_check_wire(p, len, NULL, 1);
	return e && (!strncmp(e, "truncated", 9) || strstr(e, "past the end"));
}

bool hilo_proto_looks_binary(const void *data, size_t len)
{
	const uint8_t *p = data;
	if (!len)
		return false;
	if (looks_truncated(p, len))
		return true;
	/* HLO text starts with a comment, blank space or "HloModule" */
	size_t k = 0;
	while (k < len && (p[k] == ' ' || p[k] == '\t' || p[k] == '\n' || p[k] == '\r'))
		k++;
	if (k < len && (p[k] == '/' || p[k] == 'H' || p[k] == '#'))
		return memchr(p, 0, len) != NULL && pb_check_wire(p, len, NULL, 1) == NULL;
	return pb_check_wire(p, len, NULL, 1) == NULL;
}

