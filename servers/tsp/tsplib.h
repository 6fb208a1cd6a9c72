/*
 * servers/tsp/tsplib.h - reading a TSPLIB instance (the subset in
 * docs/tsp.md: TYPE TSP or ATSP, EDGE_WEIGHT_TYPE EXPLICIT,
 * EDGE_WEIGHT_FORMAT FULL_MATRIX, or for TSP UPPER_ROW, LOWER_ROW,
 * UPPER_DIAG_ROW or LOWER_DIAG_ROW) from a stdio stream.  Portable C: the
 * controller reads standard input with it, the host tests read strings.
 */
#ifndef DPM_TSP_TSPLIB_H
#define DPM_TSP_TSPLIB_H
#include <stddef.h>
#include <stdio.h>

#include "instance.h"

/* Read an instance from f into *t.  0 on success; -1 with
 * "NAME:LINE:COL: what is wrong" in err (NAME names the input in messages). */
int tsplib_read(FILE *f, const char *name, struct tsp_instance *t, char *err, size_t errlen);
#endif
