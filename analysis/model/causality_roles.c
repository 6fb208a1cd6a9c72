/*
 * analysis/model/causality_roles.c - roles and names of the processes of a
 * causality analysis, from node.pid lists and a names file (see
 * causality_roles.h).  Later sources win: the names file first, then the
 * servers, system and requestors lists.
 */
#include "causality_roles.h"
#include "wordfile.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define ROLE_UNSET 3

static int set_role(const struct trace *t, struct roles *r, const char *who, uint8_t role,
		    const char *name, const char *ctx, char *err, size_t errlen)
{
	uint32_t p = trace_named_process(t, who, ctx, err, errlen);
	if (p == NO_PROC)
		return -1;
	r->role[p] = role;
	if (name) {
		char *copy = strdup(name);
		if (!copy) {
			snprintf(err, errlen, "%s: out of memory", ctx);
			return -1;
		}
		free(r->name[p]);
		r->name[p] = copy;
	}
	return 0;
}

static int role_list(const struct trace *t, struct roles *r, const char *list, uint8_t role,
		     const struct role_sources *src, const char *key, char *err, size_t errlen)
{
	char opt[64];
	snprintf(opt, sizeof opt, "%s%s", src->prefix ? src->prefix : "", key);
	char *copy = strdup(list), *save = NULL;
	int rc = copy ? 0 : -1;
	for (char *w = copy ? strtok_r(copy, ",", &save) : NULL; w && rc == 0;
	     w = strtok_r(NULL, ",", &save))
		rc = set_role(t, r, w, role, NULL, opt, err, errlen);
	if (!copy)
		snprintf(err, errlen, "%s: out of memory", opt);
	free(copy);
	return rc;
}

static int role_by_name(const char *s)
{
	return !strcmp(s, "requestor") ? ROLE_REQUESTOR : !strcmp(s, "server") ? ROLE_SERVER
	       : !strcmp(s, "system") ? ROLE_SYSTEM : -1;
}

struct names_line {
	struct trace *t;
	struct roles *r;    /* NULL: names only, into the trace */
	int lenient;        /* skip processes that are not in the trace */
	char *err;
	size_t errlen;
};

/* A line "node.pid NAME ROLE": its role, or -1 with the error's column. */
static int names_line_role(const struct wordfile *w, char *err, size_t errlen)
{
	int ro = w->nwords == 3 ? role_by_name(w->word[2]) : -1;
	if (ro < 0) {
		/* where it goes wrong: a missing or extra word, or the role */
		size_t at = w->nwords < 3 ? w->nwords : w->nwords > 3 ? 3 : 2;
		snprintf(err, errlen, "%s:%lu:%lu: want 'node.pid NAME ROLE' with ROLE requestor, "
			 "server or system", w->path, w->line, wordfile_col(w, at));
	}
	return ro;
}

static int name_line(const struct wordfile *w, const char *where, void *arg)
{
	struct names_line *nl = arg;
	int ro = names_line_role(w, nl->err, nl->errlen);
	if (ro < 0)
		return -1;
	uint32_t id;
	if (nl->lenient && parse_task(w->word[0], &id) > 0 &&
	    hashmap_get(&nl->t->proc_by_id, id) == HASHMAP_NONE)
		return 0; /* a process of the run that left no event */
	if (nl->r)
		return set_role(nl->t, nl->r, w->word[0], (uint8_t)ro, w->word[1], where, nl->err,
				nl->errlen);
	uint32_t p = trace_named_process(nl->t, w->word[0], where, nl->err, nl->errlen);
	if (p == NO_PROC)
		return -1;
	char *copy = strdup(w->word[1]);
	if (!copy) {
		snprintf(nl->err, nl->errlen, "%s: out of memory", where);
		return -1;
	}
	free(nl->t->proc[p].name);
	nl->t->proc[p].name = copy;
	return 0;
}

static int names_file(const struct trace *t, struct roles *r, const char *path, int lenient,
		      char *err, size_t errlen)
{
	struct names_line nl = { (struct trace *)t, r, lenient, err, errlen };
	return wordfile_each(path, name_line, &nl, err, errlen);
}

int names_beside(const char *trace, char *out, size_t size)
{
	int n = snprintf(out, size, "%s.names", trace);
	return n > 0 && (size_t)n < size && strcmp(trace, "-") && access(out, R_OK) == 0;
}

int trace_names_load(struct trace *t, const char *path, char *err, size_t errlen)
{
	return names_file(t, NULL, path, 1, err, errlen);
}

static int start(struct roles *r, const struct trace *t)
{
	r->role = malloc(t->nproc + 1);
	r->name = calloc(t->nproc + 1, sizeof *r->name);
	if (!r->role || !r->name)
		return -1;
	memset(r->role, ROLE_UNSET, t->nproc + 1);
	for (uint32_t p = 0; p < t->nproc; p++) {
		char buf[32];
		r->name[p] = strdup(process_name(t, p, buf, sizeof buf));
		if (!r->name[p])
			return -1;
	}
	return 0;
}

/* Processes named nowhere, and whether servers' names are one letter. */
static void settle(struct roles *r, const struct trace *t)
{
	int servers_named = 0;
	for (uint32_t p = 0; p < t->nproc; p++)
		servers_named |= r->role[p] == ROLE_SERVER;
	r->single_chars = 1;
	for (uint32_t p = 0; p < t->nproc; p++) {
		if (r->role[p] == ROLE_UNSET)
			r->role[p] = !servers_named && t->proc[p].traced ? ROLE_SERVER : ROLE_SYSTEM;
		if (r->role[p] == ROLE_SERVER && strlen(r->name[p]) != 1)
			r->single_chars = 0;
	}
}

int roles_assign(struct roles *r, const struct trace *t, const struct role_sources *src,
		 char *err, size_t errlen)
{
	memset(r, 0, sizeof *r);
	if (start(r, t) < 0) {
		snprintf(err, errlen, "out of memory");
		return -1;
	}
	const struct { const char *list; uint8_t role; const char *key; } lists[] = {
		{ src->servers, ROLE_SERVER, "servers" },
		{ src->system, ROLE_SYSTEM, "system" },
		{ src->requestors, ROLE_REQUESTOR, "requestors" },
	};
	char beside[4096];
	int lenient = src->names && names_beside(t->path, beside, sizeof beside) &&
		      !strcmp(beside, src->names);
	if (src->names && names_file(t, r, src->names, lenient, err, errlen) < 0)
		return -1;
	for (size_t i = 0; i < sizeof lists / sizeof lists[0]; i++) {
		if (lists[i].list && role_list(t, r, lists[i].list, lists[i].role, src, lists[i].key,
					       err, errlen) < 0)
			return -1;
	}
	settle(r, t);
	return 0;
}

void roles_free(struct roles *r, size_t nproc)
{
	for (size_t p = 0; r->name && p < nproc; p++)
		free(r->name[p]);
	free(r->name);
	free(r->role);
	memset(r, 0, sizeof *r);
}

const char *roles_who(const struct roles *r, uint32_t p)
{
	return p == REQUESTORS ? "requestors" : r->name[p];
}

void roles_print_seq(FILE *out, const struct causality *c, const struct roles *r,
		     const struct seq *s)
{
	for (uint32_t i = 0; i < s->len; i++)
		fprintf(out, "%s%s", i && !r->single_chars ? "-" : "", r->name[c->pool[s->start + i]]);
}
