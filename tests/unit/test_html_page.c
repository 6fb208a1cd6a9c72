/*
 * tests/unit/test_html_page.c - see test_html_page.h.  A small scanner,
 * not an HTML parser: tags, attributes in double quotes, and the five
 * entities html.c writes.
 */
#include "test_html_page.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>

static const char *const void_elements[] = { "meta", "img", "br", "hr", "link", "input" };

static int is_void(const char *name)
{
	for (size_t i = 0; i < sizeof void_elements / sizeof void_elements[0]; i++)
		if (!strcasecmp(name, void_elements[i]))
			return 1;
	return 0;
}

/* Copy the tag name starting at s into name; returns its length. */
static size_t tag_name(const char *s, char *name, size_t len)
{
	size_t n = 0;
	while (s[n] && (s[n] == '-' || (s[n] >= 'a' && s[n] <= 'z') || (s[n] >= 'A' && s[n] <= 'Z') ||
			(s[n] >= '0' && s[n] <= '9')))
		n++;
	snprintf(name, len, "%.*s", (int)n, s);
	return n;
}

/* The value of attribute attr in the tag text [tag, end), into out. */
static int attribute(const char *tag, const char *end, const char *attr, char *out, size_t len)
{
	char pattern[64];
	snprintf(pattern, sizeof pattern, " %s=\"", attr);
	size_t pl = strlen(pattern);
	for (const char *p = tag; p + pl <= end; p++)
		if (!strncmp(p, pattern, pl)) {
			const char *v = p + pl, *q = strchr(v, '"');
			if (!q || q > end)
				return 0;
			snprintf(out, len, "%.*s", (int)(q - v), v);
			return 1;
		}
	return 0;
}

static int remember_id(char ***ids, size_t *n, const char *id, char *why, size_t whylen)
{
	for (size_t i = 0; i < *n; i++)
		if (!strcmp((*ids)[i], id)) {
			snprintf(why, whylen, "id '%s' is used twice", id);
			return -1;
		}
	*ids = realloc(*ids, (*n + 1) * sizeof **ids);
	(*ids)[(*n)++] = strdup(id);
	return 0;
}

/* One tag at s ('<'): push or pop it; returns the end of the tag or NULL. */
static const char *one_tag(const char *s, char stack[][32], size_t *depth, char ***ids,
			   size_t *nids, char *why, size_t whylen)
{
	const char *end = strchr(s, '>');
	char name[32], id[256];
	if (!end) {
		snprintf(why, whylen, "a tag is not closed at '%.20s'", s);
		return NULL;
	}
	if (s[1] == '!')
		return end + 1;
	if (s[1] == '/') {
		tag_name(s + 2, name, sizeof name);
		if (*depth == 0 || strcmp(stack[*depth - 1], name)) {
			snprintf(why, whylen, "</%s> closes <%s>", name,
				 *depth ? stack[*depth - 1] : "");
			return NULL;
		}
		--*depth;
		return end + 1;
	}
	tag_name(s + 1, name, sizeof name);
	if (attribute(s, end, "id", id, sizeof id) && remember_id(ids, nids, id, why, whylen) < 0)
		return NULL;
	if (end[-1] == '/')
		return end + 1;
	if (is_void(name)) {
		snprintf(why, whylen, "<%s> is not closed with />", name);
		return NULL;
	}
	if (*depth == 64) {
		snprintf(why, whylen, "elements nest too deep");
		return NULL;
	}
	snprintf(stack[(*depth)++], 32, "%s", name);
	return end + 1;
}

static int bad_ampersand(const char *s)
{
	static const char *const entities[] = { "&amp;", "&lt;", "&gt;", "&quot;", "&#" };
	for (size_t i = 0; i < sizeof entities / sizeof entities[0]; i++)
		if (!strncmp(s, entities[i], strlen(entities[i])))
			return 0;
	return 1;
}

int page_check(const char *page, char *why, size_t whylen)
{
	char stack[64][32];
	size_t depth = 0, nids = 0;
	char **ids = NULL;
	int rc = 0;
	for (const char *s = page; *s && rc == 0; ) {
		if (*s == '<') {
			s = one_tag(s, stack, &depth, &ids, &nids, why, whylen);
			rc = s ? 0 : -1;
		} else if (*s == '&' && bad_ampersand(s)) {
			snprintf(why, whylen, "a bare '&' at '%.20s'", s);
			rc = -1;
		} else if (*s == '>') {
			snprintf(why, whylen, "a bare '>' at '%.20s'", s);
			rc = -1;
		} else {
			s++;
		}
	}
	if (rc == 0 && depth) {
		snprintf(why, whylen, "<%s> is never closed", stack[depth - 1]);
		rc = -1;
	}
	for (size_t i = 0; i < nids; i++)
		free(ids[i]);
	free(ids);
	return rc;
}

/* ---- tables ------------------------------------------------------------- */

/* The text of [s, end) with tags removed and entities decoded. */
static void plain(const char *s, const char *end, char *out, size_t len)
{
	static const char *const from[] = { "&amp;", "&lt;", "&gt;", "&quot;" };
	static const char to[] = { '&', '<', '>', '"' };
	size_t n = 0;
	while (s < end && n + 1 < len) {
		if (*s == '<') {
			const char *gt = strchr(s, '>');
			s = gt ? gt + 1 : end;
			continue;
		}
		size_t k = 0;
		while (k < 4 && strncmp(s, from[k], strlen(from[k])))
			k++;
		out[n++] = k < 4 ? to[k] : *s;
		s += k < 4 ? strlen(from[k]) : 1;
	}
	out[n] = '\0';
}

static const char *find_table(const char *page, const char *id, const char **end)
{
	char open[256];
	snprintf(open, sizeof open, "<table id=\"%s\"", id);
	const char *t = strstr(page, open);
	if (!t)
		return NULL;
	*end = strstr(t, "</table>");
	return *end ? t : NULL;
}

/* The i-th cell (<th> or <td>) of the row at row (up to its </tr>). */
static int nth_cell(const char *row, size_t i, const char **tag, const char **body,
		    const char **body_end)
{
	const char *row_end = strstr(row, "</tr>");
	const char *p = row;
	for (size_t k = 0; ; k++) {
		const char *td = strstr(p, "<td"), *th = strstr(p, "<th");
		const char *c = !td ? th : !th ? td : td < th ? td : th;
		if (!c || c > row_end)
			return -1;
		const char *close = strstr(c, c[2] == 'd' ? "</td>" : "</th>");
		if (k == i) {
			*tag = c;
			*body = strchr(c, '>') + 1;
			*body_end = close;
			return 0;
		}
		p = close;
	}
}

static int column_of(const char *table, const char *head)
{
	const char *tag, *body, *body_end;
	char text[512];
	for (size_t i = 0; nth_cell(table, i, &tag, &body, &body_end) == 0; i++) {
		plain(body, body_end, text, sizeof text);
		if (!strcmp(text, head))
			return (int)i;
	}
	return -1;
}

static void read_cell(const char *tag, const char *body, const char *body_end,
		      struct page_cell *out)
{
	char v[64];
	const char *tag_end = strchr(tag, '>');
	memset(out, 0, sizeof *out);
	plain(body, body_end, out->text, sizeof out->text);
	if (attribute(tag, tag_end, "data-v", v, sizeof v) ||
	    attribute(tag, tag_end, "data-ns", v, sizeof v)) {
		out->value = strtod(v, NULL);
		out->has_exact = 1;
	} else {
		out->value = strtod(out->text, NULL);
	}
	if (attribute(tag, tag_end, "data-diff", v, sizeof v)) {
		out->diff = strtod(v, NULL);
		out->has_diff = 1;
	}
}

int page_cell(const char *page, const char *id, const char *key_head, const char *key,
	      const char *head, struct page_cell *out)
{
	const char *end, *table = find_table(page, id, &end);
	if (!table)
		return -1;
	int kc = column_of(table, key_head), vc = column_of(table, head);
	if (kc < 0 || vc < 0)
		return -1;
	const char *row = strstr(table, "<tbody>");
	while (row && (row = strstr(row, "<tr>")) && row < end) {
		const char *tag, *body, *body_end;
		char text[512];
		if (nth_cell(row, (size_t)kc, &tag, &body, &body_end) == 0) {
			plain(body, body_end, text, sizeof text);
			if (!strcmp(text, key) &&
			    nth_cell(row, (size_t)vc, &tag, &body, &body_end) == 0) {
				read_cell(tag, body, body_end, out);
				return 0;
			}
		}
		row += 4;
	}
	return -1;
}

int page_column(const char *page, const char *id, const char *head, struct page_cell *out,
		int max)
{
	const char *end, *table = find_table(page, id, &end);
	if (!table)
		return -1;
	int c = column_of(table, head), n = 0;
	if (c < 0)
		return -1;
	for (const char *row = strstr(table, "<tbody>"); row && (row = strstr(row, "<tr>")) &&
	     row < end && n < max; row += 4) {
		const char *tag, *body, *body_end;
		if (nth_cell(row, (size_t)c, &tag, &body, &body_end) == 0)
			read_cell(tag, body, body_end, &out[n++]);
	}
	return n;
}

int page_rows(const char *page, const char *id)
{
	const char *end, *table = find_table(page, id, &end);
	if (!table)
		return -1;
	int n = 0;
	for (const char *row = strstr(table, "<tbody>"); row && (row = strstr(row, "<tr>")) &&
	     row < end; row += 4)
		n++;
	return n;
}

size_t page_count(const char *page, const char *needle)
{
	size_t n = 0;
	for (const char *p = page; (p = strstr(p, needle)); p += strlen(needle))
		n++;
	return n;
}
