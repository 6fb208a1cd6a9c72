/*
 * analysis/model/causality_dot.c - the request state diagram of thesis Fig. 5.19
 * as Graphviz dot (causality_dot.h).
 *
 * States are the servers and "requestors", where requests come from and
 * answers go; an arc server->Y carries how often a request at that server
 * went next to Y and the share of the server's outgoing steps, an arc
 * requestors->server how many requests entered there.
 */
#include "causality_dot.h"

#include <stdlib.h>

#include "tool.h"

/* "A" -> "B" [label="n (p%)"]; */
static void arc(FILE *f, const char *from, const char *to, uint64_t n, uint64_t all)
{
	fputc('\t', f);
	tool_quoted(f, from);
	fputs(" -> ", f);
	tool_quoted(f, to);
	fprintf(f, " [label=\"%llu (%.0f%%)\"];\n", (unsigned long long)n,
		100.0 * (double)n / (double)all);
}

int causality_write_dot(const struct causality *c, const struct roles *r, FILE *f)
{
	const struct trace *t = c->g->tr;
	uint64_t *entry = calloc(t->nproc + 1, sizeof *entry);
	if (!entry)
		return -1;
	for (size_t i = 0; i < c->strings.n; i++)
		entry[c->pool[c->strings.s[i].start]] += c->strings.s[i].count;
	fprintf(f, "digraph requests {\n\trankdir=LR;\n\tnode [shape=ellipse];\n"
		   "\t\"requestors\" [shape=box];\n");
	for (uint32_t p = 0; p < t->nproc; p++)
		if (entry[p])
			arc(f, "requestors", r->name[p], entry[p], c->nrequests);
	for (uint32_t at = 0; at < t->nproc; at++) {
		uint64_t all = causality_out_count(c, at, NO_PROC);
		for (uint32_t y = 0; y <= t->nproc; y++) {
			uint32_t to = y == t->nproc ? REQUESTORS : y;
			uint64_t n = causality_count_to(c, at, to);
			if (n)
				arc(f, r->name[at], roles_who(r, to), n, all);
		}
	}
	fprintf(f, "}\n");
	free(entry);
	return ferror(f) ? -1 : 0;
}
