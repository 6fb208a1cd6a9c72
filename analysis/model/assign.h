/*
 * analysis/model/assign.h - assignments of processes to machines for predicting
 * P in other configurations (TR 574 §4.3).
 *
 * A machine is just a label: the measured assignment labels machines by
 * node number ("2"), an --assign spec or file by whatever names it uses
 * ("A"); processes an assignment does not mention stay where they ran.
 */
#ifndef DPM_ANALYSIS_MODEL_ASSIGN_H
#define DPM_ANALYSIS_MODEL_ASSIGN_H

#include <stddef.h>
#include <stdint.h>

#include "events.h"

struct assignment {
	uint32_t *machine_of; /* machine index of each process */
	char **label;         /* label of each machine index */
	size_t nmachines;
};

/* Where each process ran in the measured run. */
int assign_measured(struct assignment *a, const struct trace *t);
/* Every process on a machine of its own (labelled with its name). */
int assign_each_own(struct assignment *a, const struct trace *t);
/* Every process on one machine. */
int assign_one(struct assignment *a, const struct trace *t);
/* The measured assignment changed by arg: a spec "1.3=A,1.4=A,2.5=B" (if
 * it contains '=') or a file of "node.pid machine" lines (`#` comments).
 * 0 ok; -1 with "file:line: what is wrong" (or "--assign: ...") in err. */
int assign_parse(struct assignment *a, const struct trace *t, const char *arg,
		 char *err, size_t errlen);
void assign_free(struct assignment *a);

#endif
