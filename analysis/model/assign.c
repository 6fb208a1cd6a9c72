/*
 * analysis/model/assign.c - building and parsing process-to-machine assignments
 * (see assign.h).
 */
#include "assign.h"
#include "wordfile.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int start(struct assignment *a, const struct trace *t)
{
	memset(a, 0, sizeof *a);
	a->machine_of = calloc(t->nproc + 1, sizeof *a->machine_of);
	a->label = calloc(t->nproc + 1, sizeof *a->label);
	return a->machine_of && a->label ? 0 : -1;
}

void assign_free(struct assignment *a)
{
	for (size_t i = 0; i < a->nmachines; i++)
		free(a->label[i]);
	free(a->label);
	free(a->machine_of);
	memset(a, 0, sizeof *a);
}

/* Index of the machine called name, added if new; -1 out of memory.
 * Assignments name few machines, so a linear search is enough. */
static long intern(struct assignment *a, const char *name)
{
	for (size_t i = 0; i < a->nmachines; i++)
		if (!strcmp(a->label[i], name))
			return (long)i;
	char **grown = realloc(a->label, (a->nmachines + 2) * sizeof *grown);
	if (!grown)
		return -1;
	a->label = grown;
	a->label[a->nmachines] = strdup(name);
	if (!a->label[a->nmachines])
		return -1;
	return (long)a->nmachines++;
}

int assign_measured(struct assignment *a, const struct trace *t)
{
	if (start(a, t) < 0)
		return -1;
	for (size_t p = 0; p < t->nproc; p++) {
		char name[16];
		snprintf(name, sizeof name, "%u", t->proc[p].machine);
		long m = intern(a, name);
		if (m < 0)
			return -1;
		a->machine_of[p] = (uint32_t)m;
	}
	return 0;
}

int assign_each_own(struct assignment *a, const struct trace *t)
{
	if (start(a, t) < 0)
		return -1;
	for (size_t p = 0; p < t->nproc; p++) {
		char name[32];
		a->label[p] = strdup(process_name(t, (uint32_t)p, name, sizeof name));
		if (!a->label[p])
			return -1;
		a->machine_of[p] = (uint32_t)p;
		a->nmachines++;
	}
	return 0;
}

int assign_one(struct assignment *a, const struct trace *t)
{
	if (start(a, t) < 0 || intern(a, "all") < 0)
		return -1;
	return 0;
}

/* Move the process named `who` to machine `where`. */
static int place(struct assignment *a, const struct trace *t, const char *who,
		 const char *where, const char *ctx, char *err, size_t errlen)
{
	uint32_t p = trace_named_process(t, who, ctx, err, errlen);
	if (p == NO_PROC)
		return -1;
	if (*where == '\0') {
		snprintf(err, errlen, "%s: no machine given for %s", ctx, who);
		return -1;
	}
	long m = intern(a, where);
	if (m < 0) {
		snprintf(err, errlen, "%s: out of memory", ctx);
		return -1;
	}
	a->machine_of[p] = (uint32_t)m;
	return 0;
}

static int parse_spec(struct assignment *a, const struct trace *t, const char *arg,
		      char *err, size_t errlen)
{
	char *copy = strdup(arg), *save = NULL;
	int rc = copy ? 0 : -1;
	for (char *item = copy ? strtok_r(copy, ",", &save) : NULL; item && rc == 0;
	     item = strtok_r(NULL, ",", &save)) {
		char *eq = strchr(item, '=');
		if (!eq) {
			snprintf(err, errlen, "--assign: '%s' is not PROCESS=MACHINE", item);
			rc = -1;
			break;
		}
		*eq = '\0';
		rc = place(a, t, item, eq + 1, "--assign", err, errlen);
	}
	free(copy);
	return rc;
}

struct file_line {
	struct assignment *a;
	const struct trace *t;
	char *err;
	size_t errlen;
};

static int place_line(const struct wordfile *w, const char *where, void *arg)
{
	struct file_line *fl = arg;
	if (w->nwords != 2) {
		snprintf(fl->err, fl->errlen, "%s:%lu:%lu: want 'node.pid machine'", w->path, w->line,
			 wordfile_col(w, 2 - (w->nwords < 2)));
		return -1;
	}
	return place(fl->a, fl->t, w->word[0], w->word[1], where, fl->err, fl->errlen);
}

static int parse_file(struct assignment *a, const struct trace *t, const char *path,
		      char *err, size_t errlen)
{
	struct file_line fl = { a, t, err, errlen };
	return wordfile_each(path, place_line, &fl, err, errlen);
}

int assign_parse(struct assignment *a, const struct trace *t, const char *arg,
		 char *err, size_t errlen)
{
	if (assign_measured(a, t) < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	return strchr(arg, '=') ? parse_spec(a, t, arg, err, errlen)
				: parse_file(a, t, arg, err, errlen);
}
