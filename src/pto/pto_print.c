/* pto_print.c - regenerates PyPTO program text from the IR.
 *
 * The spelling follows PyPTO's python_print: ", " between items, " op "
 * around binary operators, `(x,)` for a one-element tuple, 4-space
 * indentation for statements the passes synthesise. Parentheses the input
 * wrote are kept as nodes; a tree the passes built (a call-site argument
 * substituted into an offset expression) gets the parentheses operator
 * precedence requires, so printing never changes what an expression means.
 */
#include "pto/pto_ir.h"

#include <string.h>

static int prec(const pto_expr *e)
{
	if (e->kind == PTO_E_UNARY)
		return strcmp(e->op, "not") ? 11 : 3;
	if (e->kind != PTO_E_BIN)
		return 100;
	const char *o = e->op;
	if (!strcmp(o, "or")) return 1;
	if (!strcmp(o, "and")) return 2;
	if (!strcmp(o, "|")) return 5;
	if (!strcmp(o, "^")) return 6;
	if (!strcmp(o, "&")) return 7;
	if (!strcmp(o, "<<") || !strcmp(o, ">>")) return 8;
	if (!strcmp(o, "+") || !strcmp(o, "-")) return 9;
	if (!strcmp(o, "*") || !strcmp(o, "/") || !strcmp(o, "//") || !strcmp(o, "%") || !strcmp(o, "@"))
		return 10;
	if (!strcmp(o, "**")) return 12;
	return 4; /* comparisons */
}

static void print_child(hilo_buf *b, const pto_expr *c, bool wrap)
{
	if (wrap)
		hilo_buf_putc(b, '(');
	pto_print_expr(b, c);
	if (wrap)
		hilo_buf_putc(b, ')');
}

static void print_list(hilo_buf *b, pto_expr *const *items, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		if (i)
			hilo_buf_puts(b, ", ");
		pto_print_expr(b, items[i]);
	}
}

void pto_print_expr(hilo_buf *b, const pto_expr *e)
{
	switch (e->kind) {
	case PTO_E_NAME:
		hilo_buf_puts(b, e->name);
		break;
	case PTO_E_INT:
	case PTO_E_FLOAT:
	case PTO_E_STR:
		hilo_buf_puts(b, pto_expr_text(e));
		break;
	case PTO_E_ELLIPSIS:
		hilo_buf_puts(b, "...");
		break;
	case PTO_E_ATTR:
		print_child(b, pto_expr_base(e), prec(pto_expr_base(e)) < 100);
		hilo_buf_putc(b, '.');
		hilo_buf_puts(b, e->name);
		break;
	case PTO_E_CALL:
		print_child(b, pto_expr_base(e), prec(pto_expr_base(e)) < 100);
		hilo_buf_putc(b, '(');
		print_list(b, e->items, pto_expr_nitems(e));
		for (size_t i = 0; i < e->nkw; i++) {
			if (i || pto_expr_nitems(e))
				hilo_buf_puts(b, ", ");
			hilo_buf_puts(b, e->kwnames[i]);
			hilo_buf_putc(b, '=');
			pto_print_expr(b, e->kwvals[i]);
		}
		hilo_buf_putc(b, ')');
		break;
	case PTO_E_SUB:
		print_child(b, pto_expr_base(e), prec(pto_expr_base(e)) < 100);
		hilo_buf_putc(b, '[');
		print_list(b, e->items, pto_expr_nitems(e));
		hilo_buf_putc(b, ']');
		break;
	case PTO_E_LIST:
		hilo_buf_putc(b, '[');
		print_list(b, e->items, pto_expr_nitems(e));
		hilo_buf_putc(b, ']');
		break;
	case PTO_E_TUPLE:
		if (e->paren)
			hilo_buf_putc(b, '(');
		print_list(b, e->items, pto_expr_nitems(e));
		if (pto_expr_nitems(e) == 1)
			hilo_buf_putc(b, ',');
		if (e->paren)
			hilo_buf_putc(b, ')');
		break;
	case PTO_E_DICT:
		hilo_buf_putc(b, '{');
		for (size_t i = 0; i < pto_expr_nitems(e); i++) {
			if (i)
				hilo_buf_puts(b, ", ");
			pto_print_expr(b, e->keys[i]);
			hilo_buf_puts(b, ": ");
			pto_print_expr(b, e->items[i]);
		}
		hilo_buf_putc(b, '}');
		break;
	case PTO_E_BIN: {
		int p = prec(e);
		int lp = prec(pto_expr_base(e)), rp = prec(pto_expr_rhs(e));
		bool pow = p == 12;
		print_child(b, pto_expr_base(e), pow ? lp <= p : lp < p);
		hilo_buf_putc(b, ' ');
		hilo_buf_puts(b, e->op);
		hilo_buf_putc(b, ' ');
		print_child(b, pto_expr_rhs(e), pow ? rp < p && rp != 11 : rp <= p);
		break;
	}
	case PTO_E_UNARY:
		hilo_buf_puts(b, e->op);
		if (!strcmp(e->op, "not"))
			hilo_buf_putc(b, ' ');
		print_child(b, pto_expr_base(e), prec(pto_expr_base(e)) < prec(e));
		break;
	case PTO_E_PAREN:
		hilo_buf_putc(b, '(');
		pto_print_expr(b, pto_expr_base(e));
		hilo_buf_putc(b, ')');
		break;
	case PTO_E_STAR:
		hilo_buf_puts(b, e->op);
		pto_print_expr(b, pto_expr_base(e));
		break;
	}
}

static void print_lines(hilo_buf *b, const char *const *lines, size_t n)
{
	for (size_t i = 0; i < n; i++) {
		hilo_buf_puts(b, lines[i]);
		hilo_buf_putc(b, '\n');
	}
}

static void print_block(hilo_buf *b, const hilo_pto_program *p, const pto_block *blk, const char *parent_indent);

static const char *block_indent(const hilo_pto_program *p, const pto_block *blk, const char *parent,
	char *tmp, size_t tmpn)
{
	for (size_t i = 0; i < blk->n; i++)
		if (blk->stmts[i]->kind != PTO_S_COMMENT && blk->stmts[i]->indent_id)
			return pto_stmt_indent(p, blk->stmts[i]);
	snprintf(tmp, tmpn, "%s    ", parent);
	return tmp;
}

static void print_stmt(hilo_buf *b, const hilo_pto_program *p, const pto_stmt *s, const char *ind)
{
	uint32_t nlead;
	const char *const *lead = pto_stmt_lead(p, s, &nlead);
	print_lines(b, lead, nlead);
	if (s->kind == PTO_S_COMMENT)
		return;
	const char *my = pto_stmt_indent(p, s);
	if (!my)
		my = ind;
	hilo_buf_puts(b, my);
	switch (s->kind) {
	case PTO_S_ASSIGN:
		pto_print_expr(b, s->target);
		if (s->ann) {
			hilo_buf_puts(b, ": ");
			pto_print_expr(b, s->ann);
		}
		hilo_buf_puts(b, " = ");
		pto_print_expr(b, s->value);
		break;
	case PTO_S_EXPR:
		pto_print_expr(b, s->value);
		break;
	case PTO_S_RETURN:
		hilo_buf_puts(b, "return");
		if (s->value) {
			hilo_buf_putc(b, ' ');
			pto_print_expr(b, s->value);
		}
		break;
	case PTO_S_PASS:
		hilo_buf_puts(b, "pass");
		break;
	case PTO_S_KEYWORD:
		hilo_buf_puts(b, s->text);
		break;
	case PTO_S_FOR:
		hilo_buf_puts(b, "for ");
		pto_print_expr(b, s->target);
		hilo_buf_puts(b, " in ");
		pto_print_expr(b, s->value);
		hilo_buf_putc(b, ':');
		break;
	case PTO_S_WHILE:
		hilo_buf_puts(b, "while ");
		pto_print_expr(b, s->value);
		hilo_buf_putc(b, ':');
		break;
	case PTO_S_IF:
		hilo_buf_puts(b, s->is_elif ? "elif " : "if ");
		pto_print_expr(b, s->value);
		hilo_buf_putc(b, ':');
		break;
	case PTO_S_WITH:
		hilo_buf_puts(b, "with ");
		pto_print_expr(b, s->value);
		if (s->target) {
			hilo_buf_puts(b, " as ");
			pto_print_expr(b, s->target);
		}
		hilo_buf_putc(b, ':');
		break;
	case PTO_S_COMMENT:
		break;
	}
	const char *trail = pto_stmt_trail(p, s);
	if (trail)
		hilo_buf_puts(b, trail);
	hilo_buf_putc(b, '\n');
	if (s->kind == PTO_S_FOR || s->kind == PTO_S_WHILE || s->kind == PTO_S_WITH || s->kind == PTO_S_IF)
		print_block(b, p, &s->body, my);
	if (s->kind == PTO_S_IF && s->has_else) {
		print_lines(b, s->else_lead, s->nelse_lead);
		if (s->orelse.n == 1 && s->orelse.stmts[0]->kind == PTO_S_IF && s->orelse.stmts[0]->is_elif) {
			print_stmt(b, p, s->orelse.stmts[0], my);
		} else {
			hilo_buf_puts(b, s->else_indent ? s->else_indent : my);
			hilo_buf_puts(b, "else:\n");
			print_block(b, p, &s->orelse, my);
		}
	}
}

static void print_block(hilo_buf *b, const hilo_pto_program *p, const pto_block *blk, const char *parent_indent)
{
	char tmp[512];
	const char *ind = block_indent(p, blk, strlen(parent_indent) < 400 ? parent_indent : "", tmp, sizeof tmp);
	bool code = false;
	for (size_t i = 0; i < blk->n; i++) {
		print_stmt(b, p, blk->stmts[i], ind);
		code |= blk->stmts[i]->kind != PTO_S_COMMENT;
	}
	if (!code) {
		/* a body the passes emptied (every statement hoisted): Python needs
		 * a statement there, and PyPTO's printer writes `pass` */
		hilo_buf_puts(b, ind);
		hilo_buf_puts(b, "pass\n");
	}
}

void pto_print_func(hilo_buf *b, const hilo_pto_program *p, const pto_func *f)
{
	print_lines(b, f->lead, f->nlead);
	const char *ind = f->indent ? f->indent : "    ";
	for (size_t i = 0; i < f->ndecos; i++) {
		hilo_buf_puts(b, f->deco_indent && f->deco_indent[i] ? f->deco_indent[i] : ind);
		hilo_buf_putc(b, '@');
		pto_print_expr(b, f->decos[i]);
		hilo_buf_putc(b, '\n');
	}
	hilo_buf_puts(b, ind);
	hilo_buf_puts(b, "def ");
	hilo_buf_puts(b, f->name);
	hilo_buf_putc(b, '(');
	if (f->has_self)
		hilo_buf_puts(b, f->nparams ? "self, " : "self");
	for (size_t i = 0; i < f->nparams; i++) {
		if (i)
			hilo_buf_puts(b, ", ");
		hilo_buf_puts(b, f->params[i].name);
		if (f->params[i].ann) {
			hilo_buf_puts(b, ": ");
			pto_print_expr(b, f->params[i].ann);
		}
	}
	hilo_buf_putc(b, ')');
	if (f->ret) {
		hilo_buf_puts(b, " -> ");
		pto_print_expr(b, f->ret);
	}
	hilo_buf_puts(b, ":\n");
	print_block(b, p, &f->body, ind);
}

void hilo_pto_print(const hilo_pto_program *p, hilo_buf *out)
{
	size_t start = out->len;
	for (size_t i = 0; i < p->nitems; i++) {
		if (p->items[i].func) {
			pto_print_func(out, p, p->items[i].func);
		} else {
			hilo_buf_puts(out, p->items[i].raw);
			hilo_buf_putc(out, '\n');
		}
	}
	if (!p->final_newline && out->len > start && out->data[out->len - 1] == '\n') {
		out->len--;
		out->data[out->len] = '\0';
	}
}
