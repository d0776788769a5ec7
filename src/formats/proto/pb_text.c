/* Text-format protos (.pbtxt, issue 34): an HloModuleProto, HloProto or
 * HloSnapshot in protobuf's text format, as XLA's hlo-opt reads them.
 *
 * Both ways go through the binary form, driven by proto/hlo.proto's
 * descriptors (protobuf-c): reading converts the text to wire bytes and
 * hands them to hilo_proto_read (so everything the binary reader keeps is
 * kept), writing prints what hilo_proto_write_as wrote. The text is
 * protobuf's: `name: value` per field, `name { ... }` for a message (also
 * `name: {...}` and `<...>`), repeated fields repeated or as `[a, b]`,
 * enums by name or number, strings in C escapes (adjacent literals
 * join), '#' comments; a field the descriptors do not declare is written
 * and read by its number. Printing follows protobuf's TextFormat: two
 * spaces of indent a level, fields in the order of the binary (XLA's
 * writer's is field-number order), octal escapes for bytes outside
 * printable ASCII. Errors are FILE:LINE:COL. */
#include "pb_internal.h"
#include "pb_wire.h"

#include <ctype.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { TXT_MAX_DEPTH = 64 };

/* ---- printing ---- */

static void indent(hilo_buf *b, int depth)
{
	for (int k = 0; k < depth; k++)
		hilo_buf_puts(b, "  ");
}

static void put_quoted(hilo_buf *b, const uint8_t *p, size_t n)
{
	hilo_buf_putc(b, '"');
	for (size_t k = 0; k < n; k++) {
		uint8_t c = p[k];
		switch (c) {
		case '\n': hilo_buf_puts(b, "\\n"); break;
		case '\r': hilo_buf_puts(b, "\\r"); break;
		case '\t': hilo_buf_puts(b, "\\t"); break;
		case '"': hilo_buf_puts(b, "\\\""); break;
		case '\'': hilo_buf_puts(b, "\\'"); break;
		case '\\': hilo_buf_puts(b, "\\\\"); break;
		default:
			if (c >= 0x20 && c < 0x7f)
				hilo_buf_putc(b, (char)c);
			else
				hilo_buf_printf(b, "\\%03o", c);
		}
	}
	hilo_buf_putc(b, '"');
}

/* The shortest %g form that reads back to the same value. */
static void put_real(hilo_buf *b, double v, bool single)
{
	if (isnan(v)) {
		hilo_buf_puts(b, "nan");
		return;
	}
	if (isinf(v)) {
		hilo_buf_puts(b, v < 0 ? "-inf" : "inf");
		return;
	}
	char s[40];
	for (int prec = single ? 6 : 15; prec <= 17; prec++) {
		snprintf(s, sizeof s, "%.*g", prec, v);
		if (single ? (float)strtod(s, NULL) == (float)v : strtod(s, NULL) == v)
			break;
	}
	hilo_buf_puts(b, s);
}

static bool is_scalar_varint(ProtobufCType t)
{
	return t == PROTOBUF_C_TYPE_INT32 || t == PROTOBUF_C_TYPE_INT64 || t == PROTOBUF_C_TYPE_UINT32 ||
	       t == PROTOBUF_C_TYPE_UINT64 || t == PROTOBUF_C_TYPE_SINT32 || t == PROTOBUF_C_TYPE_SINT64 ||
	       t == PROTOBUF_C_TYPE_BOOL || t == PROTOBUF_C_TYPE_ENUM;
}

static bool is_fixed32(ProtobufCType t)
{
	return t == PROTOBUF_C_TYPE_FIXED32 || t == PROTOBUF_C_TYPE_SFIXED32 || t == PROTOBUF_C_TYPE_FLOAT;
}

static bool is_fixed64(ProtobufCType t)
{
	return t == PROTOBUF_C_TYPE_FIXED64 || t == PROTOBUF_C_TYPE_SFIXED64 || t == PROTOBUF_C_TYPE_DOUBLE;
}

static void put_scalar(hilo_buf *b, const ProtobufCFieldDescriptor *fd, uint64_t v)
{
	switch (fd->type) {
	case PROTOBUF_C_TYPE_INT32: hilo_buf_put_i64(b, (int32_t)v); break;
	case PROTOBUF_C_TYPE_SINT32: hilo_buf_put_i64(b, (int32_t)((uint32_t)v >> 1 ^ -(uint32_t)(v & 1))); break;
	case PROTOBUF_C_TYPE_SINT64: hilo_buf_put_i64(b, (int64_t)(v >> 1 ^ -(v & 1))); break;
	case PROTOBUF_C_TYPE_UINT32: case PROTOBUF_C_TYPE_FIXED32:
		hilo_buf_printf(b, "%u", (unsigned)(uint32_t)v); break;
	case PROTOBUF_C_TYPE_UINT64: case PROTOBUF_C_TYPE_FIXED64:
		hilo_buf_printf(b, "%llu", (unsigned long long)v); break;
	case PROTOBUF_C_TYPE_SFIXED32: hilo_buf_put_i64(b, (int32_t)(uint32_t)v); break;
	case PROTOBUF_C_TYPE_SFIXED64: hilo_buf_put_i64(b, (int64_t)v); break;
	case PROTOBUF_C_TYPE_BOOL: hilo_buf_puts(b, v ? "true" : "false"); break;
	case PROTOBUF_C_TYPE_FLOAT: {
		uint32_t u = (uint32_t)v;
		float f;
		memcpy(&f, &u, 4);
		put_real(b, f, true);
		break;
	}
	case PROTOBUF_C_TYPE_DOUBLE: {
		double f;
		memcpy(&f, &v, 8);
		put_real(b, f, false);
		break;
	}
	case PROTOBUF_C_TYPE_ENUM: {
		const ProtobufCEnumValue *ev =
			protobuf_c_enum_descriptor_get_value(fd->descriptor, (int)(int32_t)v);
		if (ev)
			hilo_buf_puts(b, ev->name);
		else
			hilo_buf_put_i64(b, (int32_t)v);
		break;
	}
	default: hilo_buf_put_i64(b, (int64_t)v); break;
	}
}

/* Prints message bytes p[0..n) of type desc (NULL: unknown) at depth;
 * false when the bytes are not a valid message (printed as a string). */
static bool print_msg(hilo_buf *b, const ProtobufCMessageDescriptor *desc, const uint8_t *p,
	size_t n, int depth)
{
	if (depth > TXT_MAX_DEPTH)
		return false;
	pr_cur c = {p, p + n};
	while (c.p < c.end) {
		uint64_t tag, v = 0;
		if (!pr_varint(&c, &tag) || (tag >> 3) == 0)
			return false;
		uint32_t num = (uint32_t)(tag >> 3);
		int wt = (int)(tag & 7);
		const ProtobufCFieldDescriptor *fd = desc ? protobuf_c_message_descriptor_get_field(desc, num) : NULL;
		const uint8_t *s = NULL;
		size_t sn = 0;
		switch (wt) {
		case PB_VARINT:
			if (!pr_varint(&c, &v))
				return false;
			break;
		case PB_I64:
			if (c.end - c.p < 8)
				return false;
			memcpy(&v, c.p, 8);
			c.p += 8;
			break;
		case PB_I32: {
			if (c.end - c.p < 4)
				return false;
			uint32_t x;
			memcpy(&x, c.p, 4);
			v = x;
			c.p += 4;
			break;
		}
		case PB_LEN:
			if (!pr_varint(&c, &v) || v > (uint64_t)(c.end - c.p))
				return false;
			s = c.p;
			sn = (size_t)v;
			c.p += sn;
			break;
		default:
			return false;
		}
		if (!fd) {
			indent(b, depth);
			hilo_buf_printf(b, "%u: ", num);
			if (wt == PB_LEN)
				put_quoted(b, s, sn);
			else if (wt == PB_I32)
				hilo_buf_printf(b, "0x%08x", (unsigned)v);
			else if (wt == PB_I64)
				hilo_buf_printf(b, "0x%016llx", (unsigned long long)v);
			else
				hilo_buf_printf(b, "%llu", (unsigned long long)v);
			hilo_buf_putc(b, '\n');
			continue;
		}
		if (fd->type == PROTOBUF_C_TYPE_MESSAGE && wt == PB_LEN) {
			indent(b, depth);
			hilo_buf_puts(b, fd->name);
			hilo_buf_puts(b, " {\n");
			if (!print_msg(b, fd->descriptor, s, sn, depth + 1))
				return false;
			indent(b, depth);
			hilo_buf_puts(b, "}\n");
		} else if (wt == PB_LEN && (is_scalar_varint(fd->type) || is_fixed32(fd->type) || is_fixed64(fd->type))) {
			/* packed */
			pr_cur q = {s, s + sn};
			while (q.p < q.end) {
				uint64_t x = 0;
				if (is_scalar_varint(fd->type)) {
					if (!pr_varint(&q, &x))
						return false;
				} else {
					size_t w = is_fixed32(fd->type) ? 4 : 8;
					if ((size_t)(q.end - q.p) < w)
						return false;
					memcpy(&x, q.p, w);
					q.p += w;
				}
				indent(b, depth);
				hilo_buf_puts(b, fd->name);
				hilo_buf_puts(b, ": ");
				put_scalar(b, fd, x);
				hilo_buf_putc(b, '\n');
			}
		} else if (wt == PB_LEN) {
			indent(b, depth);
			hilo_buf_puts(b, fd->name);
			hilo_buf_puts(b, ": ");
			put_quoted(b, s, sn);
			hilo_buf_putc(b, '\n');
		} else {
			indent(b, depth);
			hilo_buf_puts(b, fd->name);
			hilo_buf_puts(b, ": ");
			put_scalar(b, fd, v);
			hilo_buf_putc(b, '\n');
		}
	}
	return true;
}

static const ProtobufCMessageDescriptor *form_desc(int form)
{
	return form == PB_FORM_SNAPSHOT ? &xla__hlo_snapshot__descriptor
	     : form == PB_FORM_HLO_PROTO ? &xla__hlo_proto__descriptor
	     : &xla__hlo_module_proto__descriptor;
}

bool hilo_proto_write_text(hilo_buf *out, const hilo_module *m, hilo_proto_form form, hilo_diags *d)
{
	hilo_buf bin;
	hilo_buf_init(&bin);
	bool ok = hilo_proto_write_as(&bin, m, form, d);
	const pb_extra *x = m->proto_extra;
	int f = form == HILO_PROTO_AS_READ ? (x ? x->form : PB_FORM_MODULE) : (int)form - 1;
	size_t len0 = out->len;
	if (ok && !print_msg(out, form_desc(f), (const uint8_t *)bin.data, bin.len, 0)) {
		hilo_diag_add(d, HILO_SEV_ERROR, NULL, 0, 0, NULL, 0, "the module cannot be printed as a text proto");
		ok = false;
	}
	if (out->oom) {
		hilo_diag_oom(d, NULL);
		ok = false;
	}
	if (!ok)
		out->len = len0;
	hilo_buf_free(&bin);
	return ok;
}

/* ---- reading ---- */

typedef struct tparser {
	const char *src, *p, *end;
	const char *file;
	hilo_diags *d;
	bool failed;
	hilo_buf tmp;
} tparser;

/* A packed repeated field being filled: consecutive values of one field
 * go into one packed field, as protobuf writes them. */
typedef struct packing {
	uint32_t num;   /* 0: none open */
	size_t at;
} packing;

static void pack_close(hilo_buf *out, packing *pk)
{
	if (pk->num)
		pw_close_n(out, pk->at, 2);
	pk->num = 0;
}

static bool packable(const ProtobufCFieldDescriptor *fd)
{
	return fd->label == PROTOBUF_C_LABEL_REPEATED && (fd->flags & PROTOBUF_C_FIELD_FLAG_PACKED) &&
	       (is_scalar_varint(fd->type) || is_fixed32(fd->type) || is_fixed64(fd->type));
}

static void terr(tparser *T, const char *at, const char *fmt, ...) __attribute__((format(printf, 3, 4)));
static void terr(tparser *T, const char *at, const char *fmt, ...)
{
	if (T->failed)
		return;
	T->failed = true;
	int line = 1;
	const char *ls = T->src;
	for (const char *q = T->src; q < at && q < T->end; q++)
		if (*q == '\n') {
			line++;
			ls = q + 1;
		}
	va_list ap;
	va_start(ap, fmt);
	hilo_diag_addv(T->d, HILO_SEV_ERROR, T->file, line, (int)(at - ls) + 1, T->src,
		(size_t)(T->end - T->src), NULL, fmt, ap);
	va_end(ap);
}

static void skip_ws(tparser *T)
{
	while (T->p < T->end) {
		char c = *T->p;
		if (c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\f' || c == '\v')
			T->p++;
		else if (c == '#')
			while (T->p < T->end && *T->p != '\n')
				T->p++;
		else
			break;
	}
}

static bool peek(tparser *T, char c)
{
	skip_ws(T);
	return T->p < T->end && *T->p == c;
}

static bool accept(tparser *T, char c)
{
	if (!peek(T, c))
		return false;
	T->p++;
	return true;
}

/* An identifier or number token: [A-Za-z0-9_.+-]+ */
static size_t word(tparser *T, const char **w)
{
	skip_ws(T);
	*w = T->p;
	while (T->p < T->end && (isalnum((unsigned char)*T->p) || *T->p == '_' || *T->p == '.' ||
	                         *T->p == '-' || *T->p == '+'))
		T->p++;
	return (size_t)(T->p - *w);
}

/* One or more adjacent quoted strings, unescaped into T->tmp. */
static bool string_value(tparser *T)
{
	T->tmp.len = 0;
	bool any = false;
	while (peek(T, '"') || peek(T, '\'')) {
		char q = *T->p++;
		any = true;
		for (;;) {
			if (T->p >= T->end || *T->p == '\n') {
				terr(T, T->p, "unterminated string");
				return false;
			}
			char c = *T->p++;
			if (c == q)
				break;
			if (c != '\\') {
				hilo_buf_putc(&T->tmp, c);
				continue;
			}
			if (T->p >= T->end) {
				terr(T, T->p, "unterminated string");
				return false;
			}
			const char *at = T->p - 1;
			c = *T->p++;
			switch (c) {
			case 'n': hilo_buf_putc(&T->tmp, '\n'); break;
			case 'r': hilo_buf_putc(&T->tmp, '\r'); break;
			case 't': hilo_buf_putc(&T->tmp, '\t'); break;
			case 'a': hilo_buf_putc(&T->tmp, '\a'); break;
			case 'b': hilo_buf_putc(&T->tmp, '\b'); break;
			case 'f': hilo_buf_putc(&T->tmp, '\f'); break;
			case 'v': hilo_buf_putc(&T->tmp, '\v'); break;
			case '\\': case '\'': case '"': case '?': hilo_buf_putc(&T->tmp, c); break;
			case 'x': {
				int v = 0, k = 0;
				while (k < 2 && T->p < T->end && isxdigit((unsigned char)*T->p)) {
					char h = *T->p++;
					v = v * 16 + (isdigit((unsigned char)h) ? h - '0' : (tolower((unsigned char)h) - 'a' + 10));
					k++;
				}
				if (!k) {
					terr(T, at, "bad \\x escape");
					return false;
				}
				hilo_buf_putc(&T->tmp, (char)v);
				break;
			}
			default:
				if (c >= '0' && c <= '7') {
					int v = c - '0', k = 1;
					while (k < 3 && T->p < T->end && *T->p >= '0' && *T->p <= '7') {
						v = v * 8 + (*T->p++ - '0');
						k++;
					}
					if (v > 255) {
						terr(T, at, "octal escape out of range");
						return false;
					}
					hilo_buf_putc(&T->tmp, (char)v);
				} else {
					terr(T, at, "unknown escape '\\%c'", c);
					return false;
				}
			}
		}
	}
	if (!any)
		terr(T, T->p, "expected a string");
	return any && !T->failed;
}

static bool parse_msg(tparser *T, hilo_buf *out, const ProtobufCMessageDescriptor *desc, char close,
	int depth);

/* A number token into an integer of the field's type (or raw bits for
 * floats); false + error when it is not one. */
static bool scalar_value(tparser *T, const ProtobufCFieldDescriptor *fd, uint64_t *out)
{
	const char *w;
	size_t n = word(T, &w);
	if (!n) {
		terr(T, T->p, "expected a value for '%s'", fd->name);
		return false;
	}
	char buf[128];
	if (n >= sizeof buf) {
		terr(T, w, "value too long");
		return false;
	}
	memcpy(buf, w, n);
	buf[n] = 0;
	ProtobufCType t = fd->type;
	if (t == PROTOBUF_C_TYPE_BOOL) {
		if (!strcmp(buf, "true") || !strcmp(buf, "True") || !strcmp(buf, "t") || !strcmp(buf, "1"))
			*out = 1;
		else if (!strcmp(buf, "false") || !strcmp(buf, "False") || !strcmp(buf, "f") || !strcmp(buf, "0"))
			*out = 0;
		else {
			terr(T, w, "expected true or false for '%s'", fd->name);
			return false;
		}
		return true;
	}
	if (t == PROTOBUF_C_TYPE_ENUM && (isalpha((unsigned char)buf[0]) || buf[0] == '_')) {
		const ProtobufCEnumValue *ev = protobuf_c_enum_descriptor_get_value_by_name(fd->descriptor, buf);
		if (!ev) {
			terr(T, w, "'%s' is not a value of enum %s", buf, ((const ProtobufCEnumDescriptor *)fd->descriptor)->name);
			return false;
		}
		*out = (uint64_t)(int64_t)ev->value;
		return true;
	}
	if (t == PROTOBUF_C_TYPE_FLOAT || t == PROTOBUF_C_TYPE_DOUBLE) {
		char *e;
		double v;
		const char *s = buf;
		bool neg = *s == '-';
		if (neg || *s == '+')
			s++;
		if (!strcasecmp(s, "inf") || !strcasecmp(s, "infinity"))
			v = neg ? -INFINITY : INFINITY;
		else if (!strcasecmp(s, "nan"))
			v = NAN;
		else {
			size_t sl = strlen(buf);
			if (sl && (buf[sl - 1] == 'f' || buf[sl - 1] == 'F'))
				buf[sl - 1] = 0;
			v = strtod(buf, &e);
			if (*e || e == buf) {
				terr(T, w, "'%.*s' is not a number", (int)n, w);
				return false;
			}
		}
		if (t == PROTOBUF_C_TYPE_FLOAT) {
			float f = (float)v;
			uint32_t u;
			memcpy(&u, &f, 4);
			*out = u;
		} else {
			memcpy(out, &v, 8);
		}
		return true;
	}
	char *e;
	bool neg = buf[0] == '-';
	unsigned long long u = strtoull(neg ? buf + 1 : buf, &e, 0);
	if (*e || e == buf + neg) {
		terr(T, w, "'%.*s' is not an integer", (int)n, w);
		return false;
	}
	bool is_signed = t == PROTOBUF_C_TYPE_INT32 || t == PROTOBUF_C_TYPE_INT64 || t == PROTOBUF_C_TYPE_SINT32 ||
	                 t == PROTOBUF_C_TYPE_SINT64 || t == PROTOBUF_C_TYPE_SFIXED32 ||
	                 t == PROTOBUF_C_TYPE_SFIXED64 || t == PROTOBUF_C_TYPE_ENUM;
	bool is32 = t == PROTOBUF_C_TYPE_INT32 || t == PROTOBUF_C_TYPE_SINT32 || t == PROTOBUF_C_TYPE_SFIXED32 ||
	            t == PROTOBUF_C_TYPE_UINT32 || t == PROTOBUF_C_TYPE_FIXED32 || t == PROTOBUF_C_TYPE_ENUM;
	if ((neg && !is_signed) || (is32 && (is_signed ? u > (neg ? 0x80000000ull : 0x7fffffffull) : u > 0xffffffffull)) ||
	    (!is32 && is_signed && u > (neg ? 0x8000000000000000ull : 0x7fffffffffffffffull))) {
		terr(T, w, "'%.*s' is out of range for '%s'", (int)n, w, fd->name);
		return false;
	}
	int64_t s = neg ? (int64_t)(0 - u) : (int64_t)u;
	if (t == PROTOBUF_C_TYPE_SINT32)
		*out = (uint32_t)(((uint32_t)s << 1) ^ (uint32_t)((int32_t)s >> 31));
	else if (t == PROTOBUF_C_TYPE_SINT64)
		*out = ((uint64_t)s << 1) ^ (uint64_t)(s >> 63);
	else if (t == PROTOBUF_C_TYPE_FIXED32 || t == PROTOBUF_C_TYPE_SFIXED32 || t == PROTOBUF_C_TYPE_UINT32)
		*out = (uint32_t)s;
	else
		*out = (uint64_t)s;
	return true;
}

static void put_value(hilo_buf *out, const ProtobufCFieldDescriptor *fd, uint64_t v)
{
	if (is_fixed32(fd->type)) {
		pw_tag(out, fd->id, PB_I32);
		uint32_t u = (uint32_t)v;
		pw_raw(out, &u, 4);
	} else if (is_fixed64(fd->type)) {
		pw_tag(out, fd->id, PB_I64);
		pw_raw(out, &v, 8);
	} else {
		pw_tag(out, fd->id, PB_VARINT);
		pw_varint(out, v);
	}
}

/* One value of field fd (after its name and ':'). */
static bool field_value(tparser *T, hilo_buf *out, const ProtobufCFieldDescriptor *fd, int depth,
	packing *pk)
{
	if (packable(fd)) {
		uint64_t v;
		if (!scalar_value(T, fd, &v))
			return false;
		if (pk->num != fd->id) {
			pack_close(out, pk);
			pk->at = pw_open_n(out, fd->id, 2);
			pk->num = fd->id;
		}
		if (is_fixed32(fd->type)) {
			uint32_t u = (uint32_t)v;
			pw_raw(out, &u, 4);
		} else if (is_fixed64(fd->type)) {
			pw_raw(out, &v, 8);
		} else {
			pw_varint(out, v);
		}
		return true;
	}
	pack_close(out, pk);
	if (fd->type == PROTOBUF_C_TYPE_MESSAGE) {
		char close = accept(T, '{') ? '}' : accept(T, '<') ? '>' : 0;
		if (!close) {
			terr(T, T->p, "expected '{' after '%s'", fd->name);
			return false;
		}
		size_t at = pw_open_n(out, fd->id, 3);
		if (!parse_msg(T, out, fd->descriptor, close, depth + 1))
			return false;
		pw_close_n(out, at, 3);
		return true;
	}
	if (fd->type == PROTOBUF_C_TYPE_STRING || fd->type == PROTOBUF_C_TYPE_BYTES) {
		if (!string_value(T))
			return false;
		pw_tag(out, fd->id, PB_LEN);
		pw_varint(out, T->tmp.len);
		pw_raw(out, T->tmp.data, T->tmp.len);
		return true;
	}
	uint64_t v;
	if (!scalar_value(T, fd, &v))
		return false;
	put_value(out, fd, v);
	return true;
}

/* An unknown field written by number: `N: value` (a string, an integer,
 * or 0x... fixed) or `N { ... }` (its bytes parsed as an unknown message). */
static bool unknown_field(tparser *T, hilo_buf *out, uint32_t num, int depth)
{
	if (peek(T, '{')) {
		T->p++;
		size_t at = pw_open_n(out, num, 3);
		if (!parse_msg(T, out, NULL, '}', depth + 1))
			return false;
		pw_close_n(out, at, 3);
		return true;
	}
	if (peek(T, '"') || peek(T, '\'')) {
		if (!string_value(T))
			return false;
		pw_tag(out, num, PB_LEN);
		pw_varint(out, T->tmp.len);
		pw_raw(out, T->tmp.data, T->tmp.len);
		return true;
	}
	const char *w;
	size_t n = word(T, &w);
	char buf[40];
	if (!n || n >= sizeof buf) {
		terr(T, w, "expected a value for field %u", num);
		return false;
	}
	memcpy(buf, w, n);
	buf[n] = 0;
	char *e;
	unsigned long long u = strtoull(buf, &e, 0);
	if (*e || buf[0] == '-') {
		terr(T, w, "'%s' is not a value of unknown field %u", buf, num);
		return false;
	}
	if (n == 10 && !strncmp(buf, "0x", 2)) {
		pw_tag(out, num, PB_I32);
		uint32_t x = (uint32_t)u;
		pw_raw(out, &x, 4);
	} else if (n == 18 && !strncmp(buf, "0x", 2)) {
		pw_tag(out, num, PB_I64);
		uint64_t x = u;
		pw_raw(out, &x, 8);
	} else {
		pw_tag(out, num, PB_VARINT);
		pw_varint(out, u);
	}
	return true;
}

static bool parse_msg(tparser *T, hilo_buf *out, const ProtobufCMessageDescriptor *desc, char close,
	int depth)
{
	if (depth > TXT_MAX_DEPTH) {
		terr(T, T->p, "messages nested more than %d deep", TXT_MAX_DEPTH);
		return false;
	}
	packing pk = {0, 0};
	for (;;) {
		skip_ws(T);
		if (T->failed)
			return false;
		if (T->p >= T->end) {
			if (close)
				terr(T, T->p, "expected '%c' before the end of the input", close);
			pack_close(out, &pk);
			return !close && !T->failed;
		}
		if (close && *T->p == close) {
			T->p++;
			pack_close(out, &pk);
			return true;
		}
		const char *at;
		size_t n = word(T, &at);
		if (!n) {
			terr(T, T->p, "expected a field name");
			return false;
		}
		const ProtobufCFieldDescriptor *fd = NULL;
		uint32_t num = 0;
		if (isdigit((unsigned char)at[0])) {
			char *e;
			unsigned long v = strtoul(at, &e, 10);
			if (e != at + n || v == 0 || v > 536870911ul) {
				terr(T, at, "bad field number '%.*s'", (int)n, at);
				return false;
			}
			num = (uint32_t)v;
			fd = desc ? protobuf_c_message_descriptor_get_field(desc, num) : NULL;
		} else {
			char name[128];
			if (n >= sizeof name || !desc) {
				terr(T, at, "unknown field '%.*s'", (int)n, at);
				return false;
			}
			memcpy(name, at, n);
			name[n] = 0;
			fd = protobuf_c_message_descriptor_get_field_by_name(desc, name);
			if (!fd) {
				terr(T, at, "%s has no field '%s'", desc->name, name);
				return false;
			}
		}
		bool colon = accept(T, ':');
		if (!fd || !packable(fd))
			pack_close(out, &pk);
		if (!fd) {
			if (!unknown_field(T, out, num, depth))
				return false;
		} else if (accept(T, '[')) {
			if (fd->label != PROTOBUF_C_LABEL_REPEATED) {
				terr(T, T->p - 1, "'%s' is not repeated", fd->name);
				return false;
			}
			if (!accept(T, ']'))
				for (;;) {
					if (!field_value(T, out, fd, depth, &pk))
						return false;
					if (accept(T, ']'))
						break;
					if (!accept(T, ',')) {
						terr(T, T->p, "expected ',' or ']'");
						return false;
					}
				}
		} else {
			if (!colon && fd->type != PROTOBUF_C_TYPE_MESSAGE) {
				terr(T, T->p, "expected ':' after '%s'", fd->name);
				return false;
			}
			if (!field_value(T, out, fd, depth, &pk))
				return false;
		}
		if (!accept(T, ','))
			accept(T, ';');
	}
}

/* The first field name of a text proto, or NULL. */
static const ProtobufCMessageDescriptor *detect(const char *p, size_t len)
{
	tparser T = {p, p, p + len, NULL, NULL, false, {0}};
	const char *w;
	size_t n = word(&T, &w);
	if (!n || n > 60)
		return NULL;
	skip_ws(&T);
	if (T.p >= T.end || (*T.p != ':' && *T.p != '{' && *T.p != '<'))
		return NULL;
	char name[64];
	memcpy(name, w, n);
	name[n] = 0;
	static const ProtobufCMessageDescriptor *const forms[] = {&xla__hlo_snapshot__descriptor,
		&xla__hlo_proto__descriptor, &xla__hlo_module_proto__descriptor};
	/* HloProto and HloSnapshot: their field 1 (hlo_module, hlo) opens them */
	for (int k = 0; k < 3; k++) {
		const ProtobufCFieldDescriptor *fd = protobuf_c_message_descriptor_get_field_by_name(forms[k], name);
		if (fd && (k == 2 || fd->id == 1 || k == 0))
			return forms[k];
	}
	return NULL;
}

bool hilo_proto_looks_text(const void *data, size_t len)
{
	return len && !memchr(data, 0, len) && detect(data, len) != NULL;
}

hilo_module *hilo_proto_read_text(const void *data, size_t len, const char *filename, hilo_diags *d)
{
	const ProtobufCMessageDescriptor *desc = detect(data, len);
	if (!desc) {
		hilo_diag_add(d, HILO_SEV_ERROR, filename, 1, 1, data, len,
			"not a text-format HloModuleProto, HloProto or HloSnapshot");
		return NULL;
	}
	tparser T = {data, data, (const char *)data + len, filename, d, false, {0}};
	hilo_buf_init(&T.tmp);
	hilo_buf bin;
	hilo_buf_init(&bin);
	bool ok = parse_msg(&T, &bin, desc, 0, 0) && !bin.oom && !T.tmp.oom;
	if (!ok && !T.failed)
		hilo_diag_oom(d, filename);
	hilo_module *m = ok ? hilo_proto_read(bin.data ? bin.data : "", bin.len, filename, d) : NULL;
	hilo_buf_free(&T.tmp);
	hilo_buf_free(&bin);
	return m;
}
