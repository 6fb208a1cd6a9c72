/*
 * tests/fuzz/fuzz_analyses.c - what the analyses do with a trace once it is
 * loaded, shared by the harnesses whose input becomes a trace: the trace
 * harness (a log or CSV as given) and the meter-stream harness (the log
 * the filter wrote from a stream, the way a peer's batches reach them):
 * stats, parallel, causality and critical.
 */
#include "fuzz_analyses.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/model/causality.h"
#include "analysis/model/causality_roles.h"
#include "analysis/model/configs.h"
#include "analysis/model/critical_svg.h"
#include "analysis/model/events.h"
#include "analysis/model/graph.h"
#include "analysis/model/mtime.h"
#include "analysis/model/stats.h"
#include "analysis/model/trace_load.h"

static void parallel(const struct cgraph *g, const struct trace *t)
{
	char err[600];
	struct config_run runs[CONFIGS_THESIS];
	memset(runs, 0, sizeof runs);
	if (configs_plan_thesis(runs, t, err, sizeof err) == 0) {
		struct mtime_table mt;
		mtime_default(&mt);
		if (configs_eval(runs, CONFIGS_THESIS, g, &mt, err, sizeof err) == 0) {
			for (size_t i = 0; i < CONFIGS_THESIS; i++) {
				(void)config_path_messages(&runs[i]);
				for (uint32_t p = 0; p < t->nproc; p++)
					(void)config_path_cpu(&runs[i], p);
			}
		}
	}
	for (size_t i = 0; i < CONFIGS_THESIS; i++)
		config_free(&runs[i]);
}

static void causality(const struct cgraph *g, const struct trace *t)
{
	char err[600];
	struct roles r = { 0 };
	struct role_sources src = { NULL, NULL, NULL, NULL, "--" };
	if (roles_assign(&r, t, &src, err, sizeof err) == 0) {
		struct causality c;
		memset(&c, 0, sizeof c);
		if (causality_compute(&c, g, r.role, 8) == 0) {
			causality_sort(&c, &c.strings);
			causality_sort(&c, &c.substrings);
			causality_sort_transitions(&c);
		}
		causality_free(&c);
	}
	roles_free(&r, t->nproc);
}

/* dpm critical: the walk, the sums, the slack, a what-if and the SVG. */
static void critical(const struct trace *t)
{
	char err[600];
	struct critical_result r;
	if (critical_analyse(t, 3, &r, err, sizeof err) == 0) {
		double *speed = malloc((t->nproc + 1) * sizeof *speed);
		if (speed) {
			for (size_t p = 0; p <= t->nproc; p++)
				speed[p] = p % 2 ? 3.0 : 1.0;
			struct cwhatif c = { speed, -1, 1000, NULL };
			(void)critical_result_whatif(&r, &c, err, sizeof err);
		}
		free(speed);
		FILE *f = fopen("/dev/null", "w");
		if (f) {
			(void)critical_svg(f, &r, 100);
			fclose(f);
		}
	}
	critical_result_free(&r);
}

void fuzz_analyse(const char *path)
{
	char err[600];
	struct trace t;
	trace_init(&t, path);
	/* As the commands load (analysis/model/cli.c): no events, no analysis. */
	if (trace_load(&t, path, err, sizeof err) == 0 && t.nev > 0) {
		struct stats s;
		memset(&s, 0, sizeof s);
		if (stats_compute(&s, &t) == 0)
			stats_free(&s);
		struct cgraph g;
		memset(&g, 0, sizeof g);
		if (cgraph_build(&g, &t, err, sizeof err) == 0) {
			parallel(&g, &t);
			causality(&g, &t);
		}
		cgraph_free(&g);
		critical(&t);
	}
	trace_free(&t);
}
