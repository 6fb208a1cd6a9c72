/*
 * analysis/model/configs.h - the configurations P is evaluated for: which
 * assignment of processes to machines, zero or measured delivery times, with
 * or without CPU sharing, and what came out (P and the maximum path).
 *
 * `dpm parallel` builds its list from options, `dpm report` always takes
 * the thesis's five (§5.3.1: upper bound, measured, measured with
 * contention, each process on its own machine, all on one machine with
 * contention) plus predictions for other runs' assignments; both evaluate
 * here, so a number means the same in both.
 */
#ifndef DPM_ANALYSIS_MODEL_CONFIGS_H
#define DPM_ANALYSIS_MODEL_CONFIGS_H

#include <stddef.h>

#include "assign.h"
#include "parallelism.h"

enum config_kind {
	CONFIG_MEASURED = 'm',   /* where each process ran */
	CONFIG_UPPER = 'u',      /* a machine each, zero delivery time */
	CONFIG_EACH_OWN = 'e',   /* a machine each, delivery times */
	CONFIG_ONE = 'o',        /* all on one machine */
	CONFIG_ASSIGN = 'a',     /* an --assign SPEC or FILE */
};

#define CONFIGS_THESIS 5

struct config_run {
	char mode[96];           /* "measured+contention": for tables and CSV */
	const char *label;       /* for people: "measured, with CPU contention" */
	struct assignment a;
	int zero_delivery;
	int contention;
	double slice_ns;         /* pconfig's: the kernel's unless set */
	struct presult r;
	struct path_step *path;  /* the maximum path, after evaluation */
	size_t npath;
};

/* Plan one configuration; arg is the --assign SPEC or FILE of
 * CONFIG_ASSIGN.  0 ok; -1 with what is wrong in err. */
int config_plan(struct config_run *c, const struct trace *t, enum config_kind kind,
		const char *arg, int contention, char *err, size_t errlen);
/* The thesis's five, into c[0..CONFIGS_THESIS-1]. */
int configs_plan_thesis(struct config_run *c, const struct trace *t, char *err, size_t errlen);

/* Evaluate c, leaving each node's time in w (allocated for g's nodes).
 * 0 ok; -1 if the trace contradicts itself, with where in err. */
int config_eval(struct config_run *c, const struct cgraph *g, const struct mtime_table *mt,
		struct pwork *w, char *err, size_t errlen);
/* Evaluate n configurations. */
int configs_eval(struct config_run *c, size_t n, const struct cgraph *g,
		 const struct mtime_table *mt, char *err, size_t errlen);

void config_free(struct config_run *c);

/* CPU process p adds to c's maximum path, and the messages on it. */
double config_path_cpu(const struct config_run *c, uint32_t p);
size_t config_path_messages(const struct config_run *c);

#endif
