/*
 * analysis/report/causality_section.c - the paths of causality of a run
 * on the page (thesis §5.2.4, §5.3.2): the most common causality strings
 * and substrings, the "received from X, then sent to Y" tables of Fig.
 * 5.18, branching probabilities and the state diagram of Fig. 5.19 (drawn
 * by plot.c from the same dot text `dpm causality --dot` writes).
 */
#include "sections.h"

#include <string.h>

#include "html.h"
#include "page_parts.h"

#define SEQ_ROWS 20

static void seq_cell(FILE *f, const struct report_run *r, const struct seq *s)
{
	char buf[4096];
	FILE *m = fmemopen(buf, sizeof buf, "w");
	if (!m) {
		html_cell(f, "?");
		return;
	}
	roles_print_seq(m, &r->cz, &r->roles, s);
	fclose(m);
	buf[sizeof buf - 1] = '\0';
	html_cell(f, "%s", buf);
}

static void seq_table(FILE *f, const struct report_run *r, const struct seq_counts *sc,
		      const char *what, const char *caption, uint64_t total)
{
	report_table_begin(f, r, what, caption, "#count|#share %|sequence");
	for (size_t i = 0; i < sc->n && i < SEQ_ROWS; i++) {
		html_row_begin(f);
		html_cell_u64(f, sc->s[i].count);
		html_cell_real(f, "%.2f", total ? 100.0 * (double)sc->s[i].count / (double)total : 0);
		seq_cell(f, r, &sc->s[i]);
		html_row_end(f);
	}
	html_table_end(f);
	if (sc->n > SEQ_ROWS)
		html_para(f, NULL, "... %zu more (dpm causality --top 0 lists them all).",
			  sc->n - SEQ_ROWS);
}

/* The count at server `at` of received from `from`, then sent to anyone. */
static uint64_t row_total(const struct report_run *r, uint32_t at, uint32_t from)
{
	uint64_t n = causality_count(&r->cz, at, from, REQUESTORS);
	for (uint32_t y = 0; y < r->tr.nproc; y++)
		if (r->roles.role[y] == ROLE_SERVER)
			n += causality_count(&r->cz, at, from, y);
	return n;
}

/* The count at server `at` of sent to `to` after anything received. */
static uint64_t column_total(const struct report_run *r, uint32_t at, uint32_t to)
{
	uint64_t n = causality_count(&r->cz, at, REQUESTORS, to);
	for (uint32_t x = 0; x < r->tr.nproc; x++)
		if (r->roles.role[x] == ROLE_SERVER)
			n += causality_count(&r->cz, at, x, to);
	return n;
}

/* A column of server `at`'s matrix is shown: a server sent to from there. */
static int shown_column(const struct report_run *r, uint32_t at, uint32_t y)
{
	return r->roles.role[y] == ROLE_SERVER && column_total(r, at, y);
}

/* Fig. 5.18 for one server: rows received from, columns then sent to; rows
 * and columns of zeros left out.  0 when the whole matrix is zeros
 * (nothing written). */
static int server_table(FILE *f, const struct report_run *r, uint32_t at, size_t ordinal)
{
	const struct trace *t = &r->tr;
	const uint8_t *role = r->roles.role;
	uint64_t all = 0;
	for (uint32_t x = 0; x <= t->nproc; x++)
		if (x == t->nproc || role[x] == ROLE_SERVER)
			all += row_total(r, at, x == t->nproc ? REQUESTORS : x);
	if (!all)
		return 0;
	char what[32], caption[256], heads[4096] = "received from \\ then sent to";
	snprintf(what, sizeof what, "fromto-%zu", ordinal);
	snprintf(caption, sizeof caption, "At %s: received from X (row), then sent to Y (column)",
		 report_process(r, at));
	for (uint32_t y = 0; y < t->nproc; y++)
		if (shown_column(r, at, y)) {
			size_t used = strlen(heads);
			snprintf(heads + used, sizeof heads - used, "|#%s", report_process(r, y));
		}
	strncat(heads, "|#requestors", sizeof heads - strlen(heads) - 1);
	report_table_begin(f, r, what, caption, heads);
	for (uint32_t x = 0; x <= t->nproc; x++) {
		uint32_t from = x == t->nproc ? REQUESTORS : x;
		if ((from != REQUESTORS && role[from] != ROLE_SERVER) || !row_total(r, at, from))
			continue;
		html_row_begin(f);
		html_cell(f, "%s", roles_who(&r->roles, from));
		for (uint32_t y = 0; y < t->nproc; y++)
			if (shown_column(r, at, y))
				html_cell_u64(f, causality_count(&r->cz, at, from, y));
		html_cell_u64(f, causality_count(&r->cz, at, from, REQUESTORS));
		html_row_end(f);
	}
	html_table_end(f);
	return 1;
}

static void branching_table(FILE *f, const struct report_run *r)
{
	const struct causality *c = &r->cz;
	report_table_begin(f, r, "branching", "Branching probabilities: at S, having received from X, "
			 "the share of next sends that went to Y", "at|from|to|#count|#probability %");
	for (size_t i = 0; i < c->ntr; i++) {
		const struct transition *x = &c->tr[i];
		uint64_t all = causality_out_count(c, x->at, x->from);
		html_row_begin(f);
		html_cell(f, "%s", roles_who(&r->roles, x->at));
		html_cell(f, "%s", roles_who(&r->roles, x->from));
		html_cell(f, "%s", roles_who(&r->roles, x->to));
		html_cell_u64(f, x->count);
		html_cell_real(f, "%.2f", all ? 100.0 * (double)x->count / (double)all : 0);
		html_row_end(f);
	}
	html_table_end(f);
}

static void roles_para(FILE *f, const struct report_run *r)
{
	char list[3][1024] = { "", "", "" };
	for (uint32_t p = 0; p < r->tr.nproc; p++) {
		uint8_t role = r->roles.role[p];
		size_t used = strlen(list[role]);
		snprintf(list[role] + used, sizeof list[role] - used, "%s%s", used ? ", " : "",
			 report_process(r, p));
	}
	html_para(f, NULL, "Requestors: %s. Servers: %s. System processes (ignored): %s. %zu "
		  "requests from requestors were followed into the servers.", list[ROLE_REQUESTOR],
		  list[ROLE_SERVER][0] ? list[ROLE_SERVER] : "none",
		  list[ROLE_SYSTEM][0] ? list[ROLE_SYSTEM] : "none", r->cz.nrequests);
}

void report_section_causality(FILE *f, const struct report_page_data *d, size_t i)
{
	const struct report_run *r = &d->runs[i];
	char id[96];
	snprintf(id, sizeof id, "%s-causality-section", r->spec->name);
	html_heading(f, 3, id, "Paths of causality");
	if (!r->have_causality) {
		html_para(f, NULL, "Not analysed: say which processes are requestors "
			  "(requestors=node.pid+... or a names file) to follow requests through the "
			  "servers.");
		return;
	}
	roles_para(f, r);
	seq_table(f, r, &r->cz.strings, "strings", "Causality strings, most common first",
		  r->cz.nrequests);
	uint64_t subs = 0;
	for (size_t k = 0; k < r->cz.substrings.n; k++)
		subs += r->cz.substrings.s[k].count;
	seq_table(f, r, &r->cz.substrings, "substrings", "Substrings of length 2 and more: the "
		  "most travelled paths", subs);
	size_t ordinal = 0, empty = 0;
	for (uint32_t at = 0; at < r->tr.nproc; at++)
		if (r->roles.role[at] == ROLE_SERVER) {
			int shown = server_table(f, r, at, ordinal);
			ordinal += (size_t)shown;
			empty += (size_t)!shown;
		}
	report_left_out(f, empty, "servers whose received-then-sent matrix is all zeros");
	if (ordinal)
		html_para(f, "left-out", "In each matrix, rows and columns of zeros are left out.");
	branching_table(f, r);
	report_figure_html(f, &d->diagrams[i]);
	report_panels(f, d, PLACE_RUN_CAUSALITY, i);
}
