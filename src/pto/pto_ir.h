/* pto_ir.h - private PTO IR shared by the parser, printer and passes.
 *
 * The IR mirrors the shape of PyPTO's printed program text closely enough
 * to print it back byte for byte:
 *   program  = verbatim preamble lines + class header + functions
 *   function = decorators + def header (params with annotations) + body
 *   stmt     = assign (with optional annotation) | eval | return | pass |
 *              for | while | if/else | with (pl.at / pl.scope) | keyword
 *   expr     = a Python expression tree (names, attributes, calls with
 *              kwargs, subscripts, lists, tuples, dicts, literals, unary
 *              and binary operators, explicit parentheses)
 * Types are kept as expressions (`pl.InOut[pl.Tensor[[128, 64], pl.FP32]]`)
 * and interpreted on demand by the helpers in pto_sema.c, so a type or
 * attribute the pass does not inspect is printed back exactly as parsed.
 * Comment and blank lines are attached, verbatim, to the statement that
 * follows them (or kept as a trailing comment statement at block end).
 *
 * Every name is interned in the program's string table, so names compare
 * by pointer. All memory lives in the program's arena.
 */
#ifndef HILO_PTO_IR_H
#define HILO_PTO_IR_H

#include <stdarg.h>
#include <stddef.h>
#include <sys/stat.h>

#include "hilo/base.h"
#include "hilo/pto.h"

/* ---- expressions ---------------------------------------------------- */

typedef enum pto_expr_kind {
	PTO_E_NAME,    /* name */
	PTO_E_INT,     /* text, ival (ival_ok false on overflow) */
	PTO_E_FLOAT,   /* text */
	PTO_E_STR,     /* text, quotes included */
	PTO_E_ATTR,    /* a.name: base = a */
	PTO_E_CALL,    /* base(args..., kw=...) */
	PTO_E_SUB,     /* base[items] */
	PTO_E_LIST,    /* [items] */
	PTO_E_TUPLE,   /* (items) or bare items; paren says which */
	PTO_E_DICT,    /* {keys[i]: items[i]} */
	PTO_E_BIN,     /* l op r (arithmetic, comparison, boolean) */
	PTO_E_UNARY,   /* op operand (base) */
	PTO_E_PAREN,   /* (base) as written */
	PTO_E_STAR,    /* *base or **base (op = "*" / "**") */
	PTO_E_ELLIPSIS,
} pto_expr_kind;

typedef struct pto_expr pto_expr;
struct pto_expr {
	/* Variable size (expressions are the bulk of a program's memory): a
	 * node is allocated only up to the last field its kind uses, see
	 * pto_expr_size - 16 bytes for names and literals, 24 for ATTR,
	 * UNARY, PAREN and STAR, 32 for SUB, LIST, TUPLE and BIN, 40 for
	 * DICT, 48 for CALL. A field beyond a node's size must not be read:
	 * `base` only through pto_expr_base, the item count only through
	 * pto_expr_nitems (it shares a slot with the name/text/op of the kinds
	 * without items), `items` only below it (BIN's right operand shares
	 * the slot), `rhs` only through pto_expr_rhs, the keyword and
	 * DICT-key fields only below `nkw` or for their kinds. One-byte kind,
	 * 16-bit keyword count (the parser caps it), the DICT keys sharing a
	 * slot with the CALL keyword names. The source position is one 32-bit
	 * offset (pto_pos_linecol turns it into line:col for a message). */
	uint8_t kind;         /* pto_expr_kind */
	union {
		bool paren;       /* TUPLE: written with parentheses */
		bool inl;         /* INT/FLOAT: the text is held in `lit` (read it
		                   * through pto_expr_text) */
	};
	uint16_t nkw;         /* CALL: keyword arguments (at most PTO_MAX_KWARGS) */
	uint32_t pos;         /* byte offset + 1 of its first token in the source; 0 = made by a pass */
	union {
		const char *name; /* NAME, ATTR: interned identifier */
		const char *text; /* INT (value via pto_const_int)/FLOAT/STR: literal as written
		                   * (INT/FLOAT: read it through pto_expr_text) */
		char lit[8];      /* INT/FLOAT of at most 7 bytes, NUL-terminated (inl):
		                   * most literals, neither interned nor copied */
		const char *op;   /* BIN/UNARY/STAR: operator spelling */
		uint32_t nitems;  /* CALL/SUB/LIST/TUPLE/DICT: item count (read it
		                   * through pto_expr_nitems) */
	};
	/* ---- 16 bytes: the end of names and literals */
	pto_expr *base;       /* ATTR/CALL/SUB/UNARY/PAREN/STAR operand; BIN left
	                       * (read it through pto_expr_base) */
	/* ---- 24 bytes: the end of ATTR/UNARY/PAREN/STAR */
	union {
		pto_expr **items; /* CALL positional args, SUB/LIST/TUPLE/DICT items */
		pto_expr *rhs;    /* BIN right (read it through pto_expr_rhs; BIN has no items) */
	};
	/* ---- 32 bytes: the end of SUB/LIST/TUPLE/BIN */
	union {
		const char **kwnames; /* CALL: keyword names, interned */
		pto_expr **keys;      /* DICT keys (nitems of them); test kind, not the pointer */
	};
	/* ---- 40 bytes: the end of DICT */
	pto_expr **kwvals;    /* CALL: keyword values */
};

/* Bytes a node of kind k occupies (pto_expr_new allocates that many). */
static inline size_t pto_expr_size(unsigned k)
{
	switch (k) {
	case PTO_E_CALL:
		return sizeof(pto_expr);
	case PTO_E_DICT:
		return offsetof(pto_expr, kwvals);
	case PTO_E_BIN:
	case PTO_E_SUB:
	case PTO_E_LIST:
	case PTO_E_TUPLE:
		return offsetof(pto_expr, kwnames);
	case PTO_E_ATTR:
	case PTO_E_UNARY:
	case PTO_E_PAREN:
	case PTO_E_STAR:
		return offsetof(pto_expr, items);
	default: /* NAME, literals, ELLIPSIS */
		return offsetof(pto_expr, base);
	}
}

/* CALL, SUB, LIST, TUPLE and DICT have items (the only kinds that do). */
static inline bool pto_expr_has_items(unsigned k)
{
	return k == PTO_E_CALL || k == PTO_E_SUB || k == PTO_E_LIST || k == PTO_E_TUPLE || k == PTO_E_DICT;
}

/* The item count: zero for the kinds without items (whose slot holds a
 * name, a literal or an operator). */
static inline uint32_t pto_expr_nitems(const pto_expr *e)
{
	return e && pto_expr_has_items(e->kind) ? e->nitems : 0;
}

/* The operand of ATTR/CALL/SUB/UNARY/PAREN/STAR, BIN's left; NULL for
 * every other kind (names and literals end before the field). */
static inline pto_expr *pto_expr_base(const pto_expr *e)
{
	switch (e ? e->kind : PTO_E_NAME) {
	case PTO_E_ATTR:
	case PTO_E_CALL:
	case PTO_E_SUB:
	case PTO_E_UNARY:
	case PTO_E_PAREN:
	case PTO_E_STAR:
	case PTO_E_BIN:
		return e->base;
	default:
		return NULL;
	}
}

/* BIN's right operand; NULL for every other kind (whose node may end
 * before the field). */
static inline pto_expr *pto_expr_rhs(const pto_expr *e)
{
	return e && e->kind == PTO_E_BIN ? e->rhs : NULL;
}

/* The literal text of an INT/FLOAT/STR node as written. */
static inline const char *pto_expr_text(const pto_expr *e)
{
	return (e->kind == PTO_E_INT || e->kind == PTO_E_FLOAT) && e->inl ? e->lit : e->text;
}

/* An INT/FLOAT text of len bytes is held inline in the node (`lit`). */
static inline bool pto_expr_lit_fits(size_t len)
{
	return len < sizeof(((pto_expr *)0)->lit);
}

#define PTO_MAX_KWARGS 65535

/* ---- statements ----------------------------------------------------- */

typedef enum pto_stmt_kind {
	PTO_S_ASSIGN,  /* target [: ann] = value */
	PTO_S_EXPR,    /* value */
	PTO_S_RETURN,  /* return [value] (value may be a bare tuple) */
	PTO_S_PASS,
	PTO_S_KEYWORD, /* break / continue: text */
	PTO_S_FOR,     /* for target in value: body */
	PTO_S_WHILE,   /* while value: body */
	PTO_S_IF,      /* if value: body [else: orelse] */
	PTO_S_WITH,    /* with value [as target]: body */
	PTO_S_COMMENT, /* only leading lines (end-of-block comments) */
} pto_stmt_kind;

typedef struct pto_stmt pto_stmt;

typedef struct pto_block {
	pto_stmt **stmts;
	uint32_t n, cap;
} pto_block;

/* What few statements have, in a side record found through the
 * program's stmt_side map (pto_stmt.side says there is one): comment
 * lines before it, a trailing comment, an indentation beyond the
 * program's table of them. Read and set through pto_stmt_lead /
 * pto_stmt_trail / pto_stmt_indent and their setters (pto_ir.c). */
typedef struct pto_stmt_side {
	const char **lead;     /* verbatim comment/blank lines before it */
	const char *trail;     /* verbatim "  # comment" after the code, or NULL */
	const char *indent;    /* indentation when indent_id is PTO_INDENT_SIDE */
	uint32_t nlead;
} pto_stmt_side;

/* indent_id: 0 = synthesised (none), PTO_INDENT_SIDE = in the side
 * record, else 1 + the index in the program's `indents` table (a program
 * has a handful of distinct indentations; one past 65534 goes to the side
 * record). */
#define PTO_INDENT_SIDE 0xffffu

/* Variable size like expressions (see pto_stmt_size): 32 bytes for the
 * simple statements (ASSIGN, EXPR, RETURN, PASS, COMMENT), which end
 * before `body`, 96 for the others; carved 8-byte aligned like
 * expression nodes. `body` is read only for the compound kinds
 * (pto_stmt_has_body), `orelse` and the else fields only for IF, `text`
 * only for KEYWORD. The position is a line (its column follows from the
 * indentation: pto_stmt_linecol), or for a statement a pass placed at an
 * expression that expression's source position (`at_pos`). Counts are
 * 32-bit (a block, like a file, holds fewer than 2^32 statements: the
 * parser caps the input at 2^31 lines). */
struct pto_stmt {
	uint8_t kind;          /* pto_stmt_kind */
	bool has_else : 1;
	bool is_elif : 1;      /* IF printed as `elif` inside the parent's else */
	bool at_pos : 1;       /* `at` is a source position (pto_expr.pos), not a line */
	bool side : 1;         /* has a side record (pto_stmt_side) */
	uint16_t indent_id;    /* see PTO_INDENT_SIDE; read through pto_stmt_indent */
	uint32_t at;           /* line (0 = none), or a source position when at_pos */
	pto_expr *target;      /* ASSIGN/FOR/WITH target */
	pto_expr *ann;         /* ASSIGN annotation */
	pto_expr *value;       /* ASSIGN/EXPR/RETURN value, FOR iter, WHILE/IF cond, WITH ctx */
	/* ---- 32 bytes: the end of ASSIGN/EXPR/RETURN/PASS/COMMENT */
	pto_block body;        /* FOR/WHILE/IF/WITH */
	pto_block orelse;      /* IF */
	const char *text;      /* KEYWORD text */
	uint32_t nelse_lead;
	const char *else_indent;
	const char **else_lead;
};

/* Bytes a statement of kind k occupies (pto_stmt_new allocates that many). */
static inline size_t pto_stmt_size(unsigned k)
{
	switch (k) {
	case PTO_S_ASSIGN:
	case PTO_S_EXPR:
	case PTO_S_RETURN:
	case PTO_S_PASS:
	case PTO_S_COMMENT:
		return offsetof(pto_stmt, body);
	default:
		return sizeof(pto_stmt);
	}
}

/* FOR, WHILE, IF and WITH have a body (the only kinds that do). */
static inline bool pto_stmt_has_body(unsigned k)
{
	return k == PTO_S_FOR || k == PTO_S_WHILE || k == PTO_S_IF || k == PTO_S_WITH;
}

/* ---- functions and program ------------------------------------------ */

typedef enum pto_func_type {
	PTO_FT_OPAQUE, PTO_FT_ORCHESTRATION, PTO_FT_INCORE, PTO_FT_AIC,
	PTO_FT_AIV, PTO_FT_GROUP, PTO_FT_SPMD, PTO_FT_GRAPH, PTO_FT_OTHER,
} pto_func_type;

typedef enum pto_dir { PTO_DIR_IN, PTO_DIR_OUT, PTO_DIR_INOUT } pto_dir;

typedef struct pto_param {
	const char *name;  /* interned */
	pto_expr *ann;     /* NULL for self */
	int line, col;
} pto_param;

typedef struct pto_func {
	const char *name;  /* interned */
	int line, col;
	const char *indent;
	const char **lead;   /* comment lines before the decorators */
	size_t nlead;
	pto_expr **decos;    /* decorator expressions (without '@') */
	const char **deco_indent;
	size_t ndecos;
	bool has_self;
	pto_param *params;
	size_t nparams, cap_params;
	pto_expr *ret;       /* return annotation or NULL */
	pto_block body;
	pto_func_type type;  /* decoded from the decorator */
	struct pto_vartab *sema_vars; /* cached variable table (pto_sema.c), freed by pto_func_invalidate */
	const char *body_indent;
} pto_func;

/* A top-level item: a verbatim line or a function. */
typedef struct pto_item {
	const char *raw;   /* verbatim line (without newline) when func == NULL */
	pto_func *func;
} pto_item;

/* The program's interned names (pto_names.c): equal strings intern to one
 * pointer. Out of memory jumps to the entry point's guard. */
typedef struct pto_names pto_names;
pto_names *pto_names_create(hilo_arena *a);
const char *pto_names_intern(pto_names *t, const char *s, size_t len);
/* Room for n more names without regrowth. */
void pto_names_reserve(pto_names *t, size_t n);
size_t pto_names_count(const pto_names *t);
/* Tests: the 64-bit slot layout once the strings need more than `limit`
 * chunks of 64 KiB (instead of 4095; 0: at once), and whether the table
 * uses it now. */
void pto_names_narrow_limit(pto_names *t, uint32_t limit);
bool pto_names_wide(const pto_names *t);

struct hilo_pto_program {
	hilo_arena *arena;
	pto_names *names; /* interned names (pto_names.c) */
	const char *file;
	const char *src;   /* copy of the input, for caret lines; NULL once a file's
	                    * text is dropped (hilo_pto_parse_file) */
	size_t srclen;
	char *owned_src;   /* src when taken over (hilo_pto_parse_owned): freed with the program */
	/* Without src: the start offset of each of the nline_starts physical
	 * lines for line:col (pto_line_start, pto_lines_build: a byte a line),
	 * and the file parsed, read again by offset for a caret line while it
	 * is unchanged (descriptor + 1, 0 = none; its fstat after reading). */
	uint32_t *ls_major;   /* start of line 16k + 1 */
	uint8_t *ls_len;      /* length of line k + 1 with its newline; 255: in ls_long */
	uint32_t *ls_long;    /* (line index, length) pairs of the lines of 255 bytes and more, by line */
	size_t nline_starts, nls_long;
	int src_fd1;
	struct stat src_st;
	size_t text_released; /* bytes of text the parser released as it read on (a statistic) */
	pto_item *items;
	size_t nitems, cap_items;
	pto_func **funcs;  /* the functions, in order (appended only by the parser) */
	size_t nfuncs;
	struct pto_map *func_by_name; /* interned name -> pto_func, every function (pto_find_func) */
	bool final_newline;
	int graph_arg_counter; /* `<name>__graph_arg<N>`: one counter per program */
	struct pto_map *stmt_side; /* pto_stmt -> pto_stmt_side, the statements with one */
	const char **indents; /* distinct indentations (interned), by pto_stmt.indent_id - 1 */
	uint32_t nindents, cap_indents;
	struct pto_map *indent_ids; /* interned indentation -> its indent_id */
	const char *last_indent; /* the last one looked up, and its id */
	uint16_t last_indent_id;
	char *enodes;      /* expression nodes: 8-byte aligned bump space in */
	size_t enodes_left; /* blocks of the arena (its allocations are 16-aligned) */
};

/* The table of line starts of p's text (p->src, p->srclen): built before
 * parsing a file whose text is then dropped. */
void pto_lines_build(hilo_pto_program *p);
/* Offset of line `line` (1-based, at most nline_starts) of a program with
 * a table of line starts. */
size_t pto_line_start(const hilo_pto_program *p, size_t line);

/* Line `line` (its first 400 bytes at most, what a caret line shows) of
 * the file a program was parsed from, read again (pread) into buf; false
 * when there is no such file or it changed since it was read. */
bool pto_file_line(const hilo_pto_program *p, int line, char *buf, size_t *n);

/* ---- construction helpers (pto_ir.c) -------------------------------- */

/* pos: a source position (pto_expr.pos), 0 for a node a pass makes. */
pto_expr *pto_expr_new(hilo_pto_program *p, pto_expr_kind k, uint32_t pos);
pto_stmt *pto_stmt_new(hilo_pto_program *p, pto_stmt_kind k);
/* A statement's lead lines (*n of them), trailing comment (or NULL) and
 * indentation as written (NULL = synthesised: printed at its block's). */
const char *const *pto_stmt_lead(const hilo_pto_program *p, const pto_stmt *s, uint32_t *n);
const char *pto_stmt_trail(const hilo_pto_program *p, const pto_stmt *s);
const char *pto_stmt_indent(const hilo_pto_program *p, const pto_stmt *s);
/* Sets them (the lead array is kept, not copied; indent interned or NULL). */
void pto_stmt_set_lead(hilo_pto_program *p, pto_stmt *s, const char **lead, uint32_t n);
void pto_stmt_set_trail(hilo_pto_program *p, pto_stmt *s, const char *trail);
void pto_stmt_set_indent(hilo_pto_program *p, pto_stmt *s, const char *indent);
/* Line and column of a statement for a message: its line, and 1 + the
 * width of its indentation (tabs to multiples of 8, as the lexer counts
 * it; 0 without one); for one placed at an expression, that position. */
void pto_stmt_linecol(const hilo_pto_program *p, const pto_stmt *s, int *line, int *col);
/* The indentation that starts [s, end): its end (the first byte that is
 * neither a space nor a tab) and, in *width, its width as Python counts
 * it (a tab to the next multiple of 8). One definition for the lexer's
 * indentation levels and the column a statement's is derived from. */
static inline const char *pto_indent_scan(const char *s, const char *end, int *width)
{
	int w = 0;
	for (; s < end && (*s == ' ' || *s == '\t'); s++)
		w += *s == '\t' ? 8 - w % 8 : 1;
	*width = w;
	return s;
}
int pto_stmt_line(const hilo_pto_program *p, const pto_stmt *s);
static inline void pto_stmt_set_line(pto_stmt *s, int line)
{
	s->at = line > 0 ? (uint32_t)line : 0;
	s->at_pos = false;
}
/* Places s at source position pos (its line:col is pos's). */
static inline void pto_stmt_place_at(pto_stmt *s, uint32_t pos)
{
	s->at = pos;
	s->at_pos = true;
}
pto_expr *pto_name(hilo_pto_program *p, const char *name);
pto_expr *pto_int(hilo_pto_program *p, int64_t v);
pto_expr *pto_attr(hilo_pto_program *p, pto_expr *base, const char *name);
pto_expr *pto_sub1(hilo_pto_program *p, pto_expr *base, pto_expr *index);
pto_expr *pto_expr_clone(hilo_pto_program *p, const pto_expr *e);
void pto_items_push(hilo_pto_program *p, pto_expr ***items, uint32_t *n, pto_expr *e);
/* Out of memory on a (the program's arena or a child of it): jumps to the
 * guard of the running entry point (hilo_pto_parse / legalize / verify,
 * docs/architecture.md "Out of memory"). */
void pto_oom(hilo_arena *a) __attribute__((noreturn));
void pto_block_push(hilo_pto_program *p, pto_block *b, pto_stmt *s);
void pto_block_insert(hilo_pto_program *p, pto_block *b, size_t at, pto_stmt *s);
void pto_func_add_param(hilo_pto_program *p, pto_func *f, const char *name, pto_expr *ann);
const char *pto_intern(hilo_pto_program *p, const char *s);
const char *pto_intern_n(hilo_pto_program *p, const char *s, size_t len);

/* ---- printer (pto_print.c) ------------------------------------------ */

void pto_print_expr(hilo_buf *b, const pto_expr *e);
void pto_print_func(hilo_buf *b, const hilo_pto_program *p, const pto_func *f);

/* ---- diagnostics ---------------------------------------------------- */

void pto_error(hilo_pto_program *p, hilo_diags *d, int line, int col,
	const char *code, const char *fmt, ...) __attribute__((format(printf, 6, 7)));
/* The same at an expression's position (line 0, col 0 for one a pass made). */
void pto_error_at(const hilo_pto_program *p, hilo_diags *d, const pto_expr *e,
	const char *code, const char *fmt, ...) __attribute__((format(printf, 5, 6)));
void pto_error_atv(const hilo_pto_program *p, hilo_diags *d, const pto_expr *e,
	const char *code, const char *fmt, va_list ap);
/* "FILE:LINE:COL: note: ..." at an expression, after the error it
 * explains (dropped with that error when d is past its limit). */
void pto_note_at(const hilo_pto_program *p, hilo_diags *d, const pto_expr *e,
	const char *fmt, ...) __attribute__((format(printf, 4, 5)));
/* The same at a statement's line:col (pto_stmt_linecol). */
void pto_error_stmt(const hilo_pto_program *p, hilo_diags *d, const pto_stmt *s,
	const char *code, const char *fmt, ...) __attribute__((format(printf, 5, 6)));
/* Line and byte column (1-based) of source position pos; 0, 0 for 0. */
void pto_pos_linecol(const hilo_pto_program *p, uint32_t pos, int *line, int *col);
/* pto_pos_linecol for positions met roughly in source order: each call
 * scans on from the last position (zero-initialise; from the start again
 * when pos lies before it), so a walk over a body is linear. */
typedef struct pto_linecur {
	uint32_t pos;      /* 0: the start */
	int line;
	uint32_t ls;       /* offset of that line's first byte */
} pto_linecur;
void pto_pos_linecol_cur(const hilo_pto_program *p, pto_linecur *c, uint32_t pos, int *line, int *col);
/* The line of an expression for a message about it, or 0 when d would
 * drop that message anyway (past its error limit: nothing is scanned). */
int pto_expr_line(const hilo_pto_program *p, const hilo_diags *d, const pto_expr *e);

#endif
