/*
 * analysis/report/html.c - HTML output for reports (see html.h).  The style sheet
 * is short and inline; pages print well and need no network.
 */
#include "html.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/model/cli.h"

void html_escape(FILE *f, const char *s)
{
	for (; *s; s++) {
		switch (*s) {
		case '&': fputs("&amp;", f); break;
		case '<': fputs("&lt;", f); break;
		case '>': fputs("&gt;", f); break;
		case '"': fputs("&quot;", f); break;
		default: fputc(*s, f);
		}
	}
}

static void vtext(FILE *f, const char *fmt, va_list ap)
{
	char buf[2048];
	vsnprintf(buf, sizeof buf, fmt, ap);
	html_escape(f, buf);
}

void html_text(FILE *f, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vtext(f, fmt, ap);
	va_end(ap);
}

static const char style[] =
	"body{font-family:sans-serif;max-width:70em;margin:1em auto;padding:0 1em;"
	"color:#222;line-height:1.4}\n"
	"h1{font-size:1.6em;border-bottom:2px solid #357}h2{font-size:1.3em;"
	"border-bottom:1px solid #9ab;margin-top:2em}h3{font-size:1.1em}\n"
	"table{border-collapse:collapse;margin:.5em 0 1em}caption{text-align:left;"
	"font-weight:bold;padding:.2em 0}\n"
	"th,td{border:1px solid #bbc;padding:.15em .5em}th{background:#e8eef4}"
	"td.n,th.n{text-align:right;font-variant-numeric:tabular-nums}\n"
	"table.ref th{background:#f4ecd8}table.ref{background:#fffbf0}"
	"p.ref{background:#fffbf0;border-left:4px solid #c9a54a;padding:.3em .6em}\n"
	"p.note{background:#fdecea;border-left:4px solid #d9534f;padding:.3em .6em}\n"
	"figure{margin:1em 0}figure img{max-width:100%;border:1px solid #ddd}"
	"figcaption{font-size:.9em;color:#444}\n"
	"details{margin:.5em 0}code{background:#f3f3f3;padding:0 .2em}\n"
	"p.left-out{font-size:.9em;color:#555;margin-top:-.6em}\n"
	"p.legend span{margin-right:1em;white-space:nowrap;font-size:.9em}\n"
	"td.where{min-width:250px}svg.bar{border:1px solid #bbc}\n";

void html_page_begin(FILE *f, const char *title)
{
	fputs("<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\"/>\n<title>", f);
	html_escape(f, title);
	fprintf(f, "</title>\n<style>\n%s</style>\n</head>\n<body>\n<h1>", style);
	html_escape(f, title);
	fputs("</h1>\n", f);
}

void html_page_end(FILE *f)
{
	fputs("</body>\n</html>\n", f);
}

void html_heading(FILE *f, int level, const char *id, const char *title)
{
	fprintf(f, "<h%d id=\"", level);
	html_escape(f, id);
	fputs("\">", f);
	html_escape(f, title);
	fprintf(f, "</h%d>\n", level);
}

void html_para(FILE *f, const char *cls, const char *fmt, ...)
{
	va_list ap;
	if (cls)
		fprintf(f, "<p class=\"%s\">", cls);
	else
		fputs("<p>", f);
	va_start(ap, fmt);
	vtext(f, fmt, ap);
	va_end(ap);
	fputs("</p>\n", f);
}

void html_table_begin(FILE *f, const char *id, const char *cls, const char *caption,
		      const char *heads)
{
	fputs("<table id=\"", f);
	html_escape(f, id);
	fputc('"', f);
	if (cls)
		fprintf(f, " class=\"%s\"", cls);
	fputs(">\n<caption>", f);
	html_escape(f, caption);
	fputs("</caption>\n<thead><tr>", f);
	for (const char *h = heads; *h; ) {
		size_t n = strcspn(h, "|");
		int number = *h == '#';
		fputs(number ? "<th class=\"n\">" : "<th>", f);
		char head[256];
		snprintf(head, sizeof head, "%.*s", (int)(n - (size_t)number), h + number);
		html_escape(f, head);
		fputs("</th>", f);
		h += n + (h[n] == '|');
	}
	fputs("</tr></thead>\n<tbody>\n", f);
}

void html_table_end(FILE *f)
{
	fputs("</tbody>\n</table>\n", f);
}

void html_row_begin(FILE *f)
{
	fputs("<tr>", f);
}

void html_row_end(FILE *f)
{
	fputs("</tr>\n", f);
}

void html_cell(FILE *f, const char *fmt, ...)
{
	va_list ap;
	fputs("<td>", f);
	va_start(ap, fmt);
	vtext(f, fmt, ap);
	va_end(ap);
	fputs("</td>", f);
}

void html_cell_u64(FILE *f, uint64_t v)
{
	fprintf(f, "<td class=\"n\">%llu</td>", (unsigned long long)v);
}

void html_cell_real(FILE *f, const char *fmt, double v)
{
	fprintf(f, "<td class=\"n\" data-v=\"%.10g\">", v);
	fprintf(f, fmt, v);
	fputs("</td>", f);
}

void html_cell_ns(FILE *f, double ns)
{
	char buf[32];
	fprintf(f, "<td class=\"n\" data-ns=\"%.0f\">%s</td>", ns, fmt_ns(ns, buf, sizeof buf));
}

void html_cell_none(FILE *f)
{
	fputs("<td class=\"n\">-</td>", f);
}

void html_figure(FILE *f, const char *id, const char *picture, int made, const char *note,
		 const char *caption, const char *sources)
{
	fputs("<figure id=\"fig-", f);
	html_escape(f, id);
	fputs("\">\n", f);
	if (made) {
		fputs("<img src=\"", f);
		html_escape(f, picture);
		fputs("\" alt=\"", f);
		html_escape(f, caption);
		fputs("\"/>\n", f);
	} else {
		html_para(f, "note", "Figure not drawn: %s.", note);
	}
	fputs("<figcaption>", f);
	html_escape(f, caption);
	if (sources && *sources) {
		fputs(" Drawn from:", f);
		for (const char *s = sources; *s; ) {
			size_t n = strcspn(s, " ");
			char name[256];
			snprintf(name, sizeof name, "%.*s", (int)n, s);
			fputs(" <a href=\"", f);
			html_escape(f, name);
			fputs("\">", f);
			html_escape(f, name);
			fputs("</a>", f);
			s += n + (s[n] == ' ');
		}
		fputc('.', f);
	}
	fputs("</figcaption>\n</figure>\n", f);
}
