/* Internal: the HLO text parser's state, shared by parser.c (module,
 * computations, instructions) and attrs.c (typed attribute values and
 * metadata). Not for other files. */
#ifndef HILO_PARSE_INTERNAL_H
#define HILO_PARSE_INTERNAL_H

#include "lex.h"

#include <string.h>

/* A computation's names in scope: name -> instruction. An entry is the
 * instruction, its name's hash and length (16 bytes: the key is the
 * instruction's own interned name, so no key pointer is stored). Cleared
 * by zeroing: a big table a small scope would leave sparse is dropped
 * instead, so a clear costs at most a few times the entries it had. */
typedef struct scope_entry {
	hilo_instr *i;          /* NULL: empty */
	uint32_t hash, len;
} scope_entry;

typedef struct name_scope {
	scope_entry *e;
	uint32_t cap, n;
	hilo_arena *arena;      /* tracked heap of the module being read */
} name_scope;

static inline void scope_init(name_scope *t, hilo_arena *a)
{
	memset(t, 0, sizeof *t);
	t->arena = a;
}

static inline void scope_free(name_scope *t)
{
	hilo_heap_free(t->arena, t->e);
	scope_init(t, t->arena);
}

typedef struct parser {
	lexer L;
	hilo_module *m;
	hilo_ptrmap comps;      /* interned name -> hilo_comp */
	name_scope names;       /* per computation: name -> hilo_instr */
	hilo_bytemap opcodes;        /* opcode text read -> (op + 1) << 16 | (async op + 1) */
	hilo_bytemap attr_ids;       /* attribute name read -> its hilo_attr_id + 1 */
	bool saw_percent, saw_no_percent, saw_operand_shapes;
	bool saw_entry_keyword;
	/* pending control-predecessor references of the current computation */
	struct pending_ctrl { hilo_instr *i; const char *name; const char *at; } *ctrl;
	size_t nctrl, capctrl;
	/* instructions the text wrote inline (anonymous operands, %x#i);
	 * a computation that has any is re-ordered like XLA's post order */
	bool synthesized;
	bool last_name_pct;     /* the last name read had a '%' */
	struct synth_gte { hilo_instr *of; int64_t index; hilo_instr *gte; } *gtes;
	size_t ngtes, capgtes;
	/* computations written inline (to_apply={...}): generated name ->
	 * computation, renamed if a named computation later claims the name */
	hilo_ptrmap inline_names;
	uint32_t ninline, ntop;
	int comp_depth;         /* inline computations being read, nested */
	const char *cur_name;   /* the top-level computation being read */
	/* metadata keys read so far, each with the last value read for it */
	struct md_key { const char *key, *last; uint32_t n, nlast; } mdk[16];
	uint32_t nmdk;
	bool sig;               /* the enclosing computation printed a signature */
} parser;

static inline const char *intern(parser *P, const char *s, size_t n)
{
	return hilo_intern(P->m->strings, s, n);
}

/* Reads a name, with or without the '%' sigil. */
static inline size_t read_name(parser *P, const char **s)
{
	lexer *L = &P->L;
	lex_skip_ws(L);
	bool pct = L->p < L->end && *L->p == '%';
	if (pct)
		L->p++;
	size_t n = lex_ident(L, s);
	P->last_name_pct = pct;
	return n;
}

/* attrs.c */
/* Reads one `key=value` attribute of i (the key is next). */
bool hp_read_attr(parser *P, hilo_instr *i);
/* Captures a raw attribute value: balanced brackets and quoted strings,
 * ending before a ',' or newline at depth 0; interned. */
const char *hp_read_raw(parser *P);
bool hp_read_string_body(parser *P, const char **out);
/* A fresh name for an inline computation. */
const char *hp_inline_name(parser *P);

/* parser.c */
bool hp_read_comp_body(parser *P, hilo_comp *c, const char *at);

#endif
