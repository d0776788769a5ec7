/* The JSON string writer shared by remarks, the flat C API and reports. */
#include "support/json.h"

void hilo_json_str(FILE *f, const char *s)
{
	fputc('"', f);
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		if (*p == '"' || *p == '\\')
			fprintf(f, "\\%c", *p);
		else if (*p < 0x20)
			fprintf(f, "\\u%04x", *p);
		else
			fputc(*p, f);
	}
	fputc('"', f);
}

void hilo_json_str_buf(hilo_buf *b, const char *s)
{
	hilo_buf_putc(b, '"');
	for (const unsigned char *p = (const unsigned char *)(s ? s : ""); *p; p++) {
		if (*p == '"' || *p == '\\')
			hilo_buf_printf(b, "\\%c", *p);
		else if (*p < 0x20)
			hilo_buf_printf(b, "\\u%04x", *p);
		else
			hilo_buf_putc(b, (char)*p);
	}
	hilo_buf_putc(b, '"');
}
