/*
 * analysis/studies/thesis_ref.h - the thesis's published values, read from a data
 * file (analysis/studies/thesis_reference.csv) so that `dpm report --thesis` can
 * show them beside our numbers, labelled as the thesis's.
 *
 * The file is CSV with the columns figure,key,value,uncertain,where and a
 * "# source:" comment naming where the values were taken from; every value
 * carries its place in the thesis, and values the OCR garbled are flagged
 * uncertain.  Nothing here is ever computed: it is a table to look up.
 */
#ifndef DPM_ANALYSIS_STUDIES_THESIS_REF_H
#define DPM_ANALYSIS_STUDIES_THESIS_REF_H

#include <stddef.h>

struct thesis_value {
	char figure[32];     /* fs_p, fs_cpu_pct, fs_transitions, ... */
	char key[48];        /* which cell: "measured", "BM/RI/DI", ... */
	double value;
	int uncertain;       /* the OCR garbled it */
	char where[128];     /* place in the thesis */
};

struct thesis_ref {
	char path[256];
	char source[512];    /* the "# source:" line */
	struct thesis_value *v;
	size_t n;
};

/* Read path.  0 ok; -1 with "file:line: what is wrong" in err. */
int thesis_ref_load(struct thesis_ref *ref, const char *path, char *err, size_t errlen);
void thesis_ref_free(struct thesis_ref *ref);

/* The value of (figure, key), or NULL. */
const struct thesis_value *thesis_ref_find(const struct thesis_ref *ref, const char *figure,
					   const char *key);
/* How many values a figure has. */
size_t thesis_ref_count(const struct thesis_ref *ref, const char *figure);

/* Where the reference file is when --thesis names none: beside the source
 * tree the running binary was built in (BUILD/bin/dpm -> analysis/), else
 * analysis/studies/thesis_reference.csv under the current directory. */
const char *thesis_ref_default(char *buf, size_t len);

#endif
