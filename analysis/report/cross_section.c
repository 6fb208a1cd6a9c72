/*
 * analysis/report/cross_section.c - the predictions across runs on the
 * page (thesis Fig. 5.17): for both modes, a matrix of each row's
 * configuration predicted from each column's trace (cross.c computes it).
 */
#include "sections.h"

#include <math.h>
#include <string.h>

#include "html.h"
#include "page_parts.h"

static void cross_table(FILE *f, const struct report_cross *x, int mode)
{
	struct report_run *const *runs = x->run;
	static const char *const ids[2] = { "cross-measured", "cross-contention" };
	static const char *const what[2] = { "with delivery times", "with delivery times and CPU "
					     "contention" };
	char caption[300], heads[2048] = "configuration of run|#its own P";
	snprintf(caption, sizeof caption, "P of each row's configuration predicted from each "
		 "column's trace, %s, and its difference from the row's own P", what[mode]);
	for (size_t col = 0; col < x->n; col++) {
		size_t used = strlen(heads);
		snprintf(heads + used, sizeof heads - used, "|#from the trace of %s",
			 runs[col]->spec->name);
	}
	html_table_begin(f, ids[mode], NULL, caption, heads);
	for (size_t row = 0; row < x->n; row++) {
		html_row_begin(f);
		html_cell(f, "%s", runs[row]->spec->name);
		html_cell_real(f, "%.3f", runs[row]->cfg[mode ? CFG_CONTENTION : CFG_MEASURED].r.P);
		for (size_t col = 0; col < x->n; col++) {
			double p = x->p[mode][row * x->n + col];
			double diff = report_cross_diff(x, mode, row, col);
			if (isnan(p))
				html_cell(f, "no shared process");
			else if (row == col)
				fprintf(f, "<td class=\"n\" data-v=\"%.10g\">%.3f (own)</td>", p, p);
			else
				fprintf(f, "<td class=\"n\" data-v=\"%.10g\" data-diff=\"%.10g\">%.3f "
					   "(%+.1f%%)</td>", p, diff, p, diff);
		}
		html_row_end(f);
	}
	html_table_end(f);
}

/* The runs not in the matrix: they share no process with any other. */
static void left_out(FILE *f, const struct report_page_data *d)
{
	char list[1024] = "";
	size_t used = 0, n = 0;
	for (size_t i = 0; i < d->nruns; i++) {
		int in = 0;
		for (size_t k = 0; k < d->cross.n; k++)
			in |= d->cross.run[k] == &d->runs[i];
		if (!in && used < sizeof list) {
			used += (size_t)snprintf(list + used, sizeof list - used, "%s%s", n ? ", " : "",
						 d->runs[i].spec->name);
			n++;
		}
	}
	if (n)
		html_para(f, "left-out", "Not in the matrix: %s (no process of the same name as in "
			  "another run: a different program).", list);
}

void report_section_cross(FILE *f, const struct report_page_data *d)
{
	const struct report_cross *x = &d->cross;
	html_heading(f, 2, "cross", "Predictions across runs (thesis Fig. 5.17)");
	if (!x->any) {
		html_para(f, NULL, "No two runs traced a process of the same name, so no run's trace "
			  "can predict another run's configuration. Give each run a names file "
			  "(names=FILE) that calls the same process by the same name.");
		return;
	}
	html_para(f, NULL, "Each row is a run's configuration (where it ran its processes); each "
		  "column the trace the prediction is computed from, as 'dpm parallel --assign' would: "
		  "the processes the two runs share (by name) are put where the row's run ran them, "
		  "the others stay where the column's run ran them. The diagonal is the row's own "
		  "measured P; elsewhere the cell is the predicted P and, in brackets, how far it is "
		  "from the row's own P ((predicted - own) / own).");
	left_out(f, d);
	cross_table(f, x, 0);
	cross_table(f, x, 1);
	report_panels(f, d, PLACE_CROSS, 0);
}
