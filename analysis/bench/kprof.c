/*
 * analysis/bench/kprof.c - reads QEMU's exec log against the kernel's and
 * one program's symbol tables and counts the instructions of each
 * bracketed region per function (analysis/bench/kprof.h says what is
 * read and how).  The symbol tables come as `nm` text rather than from the
 * ELF files: binutils' nm reads both machines' ELF32 (the host has no
 * libelf), and text lets every malformed input be named by line and
 * column, in the tool and in its unit test alike.  The log is read line
 * by line into per-region PC counts (analysis/model/hashmap.h), so a
 * stream of any length is read in memory proportional to the PCs it
 * holds; PCs become symbols only at the end.
 */
#define _GNU_SOURCE
#include "analysis/bench/kprof.h"

#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#define BEGIN_PREFIX "kprof_begin_"
#define END_PREFIX "kprof_end_"

static int fail(struct kprof *p, const char *path, unsigned long line, size_t col, const char *fmt, ...)
{
	int n = 0;
	if (path)
		n = snprintf(p->err, sizeof p->err, "%s:%lu:%zu: ", path, line, col);
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(p->err + n, sizeof p->err - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

void kprof_init(struct kprof *p)
{
	memset(p, 0, sizeof *p);
	p->cur = -1;
	for (int s = 0; s < KPROF_SPACES; s++)
		p->lo[s] = UINT32_MAX;
}

void kprof_free(struct kprof *p)
{
	for (size_t i = 0; i < p->nsyms; i++) {
		free(p->syms[i].name);
		free(p->syms[i].file);
	}
	for (size_t i = 0; i < p->nregions; i++) {
		free(p->regions[i].name);
		free(p->regions[i].counts.pc);
		free(p->regions[i].counts.n);
		hashmap_free(&p->regions[i].counts.index);
	}
	for (size_t i = 0; i < p->ndiffs; i++)
		free(p->diffs[i].name);
	free(p->syms);
	free(p->regions);
	free(p->diffs);
	kprof_init(p);
}

/* Hex digits at s (at most `max`); their count, 0 if none or too many. */
static size_t hex(const char *s, size_t max, uint64_t *v)
{
	size_t i = 0;
	uint64_t x = 0;
	for (;; i++) {
		char c = s[i];
		int d = c >= '0' && c <= '9' ? c - '0' : c >= 'a' && c <= 'f' ? c - 'a' + 10
			: c >= 'A' && c <= 'F' ? c - 'A' + 10 : -1;
		if (d < 0)
			break;
		if (i == max)
			return 0;
		x = x << 4 | (uint64_t)d;
	}
	*v = x;
	return i;
}

static int region_named(struct kprof *p, const char *name, size_t len)
{
	for (size_t i = 0; i < p->nregions; i++)
		if (strlen(p->regions[i].name) == len && !memcmp(p->regions[i].name, name, len))
			return (int)i;
	return -1;
}

int kprof_region(const struct kprof *p, const char *name)
{
	return region_named((struct kprof *)p, name, strlen(name));
}

int kprof_select(struct kprof *p, const char *name)
{
	if (p->nsyms || p->nregions)
		return fail(p, NULL, 0, 0, "regions must be selected before the symbol tables are read");
	if (!*name)
		return fail(p, NULL, 0, 0, "an empty region name");
	if (p->nselected == (int)(sizeof p->selected / sizeof p->selected[0]))
		return fail(p, NULL, 0, 0, "more than %d regions selected", p->nselected);
	p->selected[p->nselected++] = name;
	return 0;
}

/* Whether region `name` (len bytes) is profiled: every region when none
 * is selected. */
static int wanted(const struct kprof *p, const char *name, size_t len)
{
	for (int i = 0; i < p->nselected; i++)
		if (strlen(p->selected[i]) == len && !memcmp(p->selected[i], name, len))
			return 1;
	return !p->nselected;
}

static int new_region(struct kprof *p, const char *name, size_t len)
{
	int r = region_named(p, name, len);
	if (r >= 0)
		return r;
	struct kprof_region *v = realloc(p->regions, (p->nregions + 1) * sizeof *v);
	if (!v)
		return -1;
	p->regions = v;
	memset(&v[p->nregions], 0, sizeof v[0]);
	if (!(v[p->nregions].name = strndup(name, len)))
		return -1;
	return (int)p->nregions++;
}

static int code_type(char t)
{
	return t == 'T' || t == 't' || t == 'W' || t == 'w';
}

/* "ADDR [SIZE] TYPE NAME" */
int kprof_symbol_line(struct kprof *p, const char *line, enum kprof_space space, int thumb,
		      const char *path, unsigned long lineno)
{
	uint64_t addr, size = 0;
	size_t n = hex(line, 16, &addr), at;
	if (!n)
		return fail(p, path, lineno, 1, "expected a hexadecimal address (nm -n -S --defined-only output)");
	if (addr > UINT32_MAX)
		return fail(p, path, lineno, 1, "address %llx is beyond 32 bits", (unsigned long long)addr);
	if (line[n] != ' ')
		return fail(p, path, lineno, n + 1, "expected a space after the address");
	at = n + 1;
	size_t m = hex(line + at, 16, &size);
	if (m > 1 && line[at + m] == ' ') { /* a size field (a type is one letter) */
		if (size > UINT32_MAX)
			return fail(p, path, lineno, at + 1, "size %llx is beyond 32 bits", (unsigned long long)size);
		at += m + 1;
	} else {
		size = 0;
	}
	char type = line[at];
	if (!type || type == ' ' || type == '\n' || line[at + 1] != ' ')
		return fail(p, path, lineno, at + 1, "expected a one-letter symbol type");
	const char *name = line + at + 2;
	size_t len = strcspn(name, "\t\r\n");
	const char *file = NULL; /* nm -l: TAB FILE:LINE */
	size_t flen = 0;
	if (name[len] == '\t') {
		file = name + len + 1;
		flen = strcspn(file, "\r\n");
		size_t colon = flen;
		while (colon > 0 && file[colon - 1] >= '0' && file[colon - 1] <= '9')
			colon--;
		if (!flen || colon == flen || colon < 2 || file[colon - 1] != ':')
			return fail(p, path, lineno, (size_t)(file - line) + 1,
				    "expected FILE:LINE after the name's tab (nm -l)");
		flen = colon - 1;
	}
	if (!len)
		return fail(p, path, lineno, at + 3, "expected a symbol name");
	if (p->sorted)
		return fail(p, path, lineno, 1, "symbol tables must all be read before the log");
	int marker = 0;
	if (space == KPROF_USER && len > strlen(BEGIN_PREFIX) && !strncmp(name, BEGIN_PREFIX, strlen(BEGIN_PREFIX)))
		marker = 1;
	if (space == KPROF_USER && len > strlen(END_PREFIX) && !strncmp(name, END_PREFIX, strlen(END_PREFIX)))
		marker = 2;
	if (marker) {
		size_t pre = strlen(marker == 1 ? BEGIN_PREFIX : END_PREFIX);
		if (!wanted(p, name + pre, len - pre))
			marker = 0; /* not selected: plain data */
	}
	if (name[0] == '$' || (!marker && !code_type(type)))
		return 0; /* ARM mapping symbols, data */
	if (thumb && code_type(type))
		addr &= ~(uint64_t)1;
	if (addr + size > UINT32_MAX)
		return fail(p, path, lineno, 1, "symbol %.*s ends beyond 32 bits", (int)len, name);
	if (marker) {
		size_t pre = strlen(marker == 1 ? BEGIN_PREFIX : END_PREFIX);
		int r = new_region(p, name + pre, len - pre);
		if (r < 0)
			return fail(p, path, lineno, at + 3, "out of memory");
		struct kprof_region *g = &p->regions[r];
		if (marker == 1 ? g->have_begin : g->have_end)
			return fail(p, path, lineno, at + 3, "marker %.*s defined twice", (int)len, name);
		if (marker == 1) {
			g->begin_pc = (uint32_t)addr;
			g->have_begin = 1;
		} else {
			g->end_pc = (uint32_t)addr;
			g->have_end = 1;
		}
	}
	if (p->nsyms == p->symcap) {
		size_t cap = p->symcap ? 2 * p->symcap : 256;
		struct kprof_sym *v = realloc(p->syms, cap * sizeof *v);
		if (!v)
			return fail(p, path, lineno, 1, "out of memory");
		p->syms = v;
		p->symcap = cap;
	}
	struct kprof_sym *s = &p->syms[p->nsyms];
	if (!(s->name = strndup(name, len)))
		return fail(p, path, lineno, 1, "out of memory");
	s->file = NULL;
	if (file && !(s->file = strndup(file, flen))) {
		free(s->name);
		return fail(p, path, lineno, 1, "out of memory");
	}
	s->addr = (uint32_t)addr;
	s->end = (uint32_t)(addr + size); /* size 0: up to the next symbol */
	s->space = space;
	s->global = type >= 'A' && type <= 'Z';
	s->shared_name = 0;
	p->nsyms++;
	return 0;
}

typedef int (*line_fn)(struct kprof *p, const char *line, void *arg, const char *path, unsigned long lineno);

static int read_lines(struct kprof *p, FILE *f, const char *path, line_fn fn, void *arg)
{
	char *line = NULL;
	size_t cap = 0;
	unsigned long lineno = 0;
	int r = 0;
	while (getline(&line, &cap, f) > 0) {
		lineno++;
		if ((r = fn(p, line, arg, path, lineno)) < 0)
			break;
	}
	if (!r && ferror(f))
		r = fail(p, NULL, 0, 0, "%s: read error", path);
	free(line);
	return r;
}

struct symarg {
	enum kprof_space space;
	int thumb;
};

static int symbol_fn(struct kprof *p, const char *line, void *arg, const char *path, unsigned long lineno)
{
	struct symarg *a = arg;
	return kprof_symbol_line(p, line, a->space, a->thumb, path, lineno);
}

int kprof_read_symbols(struct kprof *p, FILE *f, const char *path, enum kprof_space space, int thumb)
{
	struct symarg a = { space, thumb };
	return read_lines(p, f, path, symbol_fn, &a);
}

/* Another program's table: only where its code ends matters. */
static int other_fn(struct kprof *p, const char *line, void *arg, const char *path, unsigned long lineno)
{
	struct kprof q;
	kprof_init(&q);
	int r = kprof_symbol_line(&q, line, KPROF_KERNEL, *(int *)arg, path, lineno);
	if (r < 0)
		memcpy(p->err, q.err, sizeof p->err);
	else if (q.nsyms) {
		uint32_t end = q.syms[0].end > q.syms[0].addr ? q.syms[0].end : q.syms[0].addr + 1;
		if (end > p->others_end)
			p->others_end = end;
	}
	kprof_free(&q);
	return r;
}

int kprof_read_other(struct kprof *p, FILE *f, const char *path, int thumb)
{
	return read_lines(p, f, path, other_fn, &thumb);
}

static int sym_cmp(const void *a, const void *b)
{
	const struct kprof_sym *x = a, *y = b;
	if (x->addr != y->addr)
		return x->addr < y->addr ? -1 : 1;
	if (x->global != y->global) /* of aliases, a global name first */
		return y->global - x->global;
	return strcmp(x->name, y->name);
}

static const struct kprof_sym *sort_syms;

static int name_cmp(const void *a, const void *b)
{
	return strcmp(sort_syms[*(const size_t *)a].name, sort_syms[*(const size_t *)b].name);
}

int kprof_symbols_done(struct kprof *p)
{
	if (p->sorted)
		return 0;
	for (int i = 0; i < p->nselected; i++)
		if (kprof_region(p, p->selected[i]) < 0)
			return fail(p, NULL, 0, 0, "region %s was selected but the program has no marker "
				    "kprof_begin_%s", p->selected[i], p->selected[i]);
	qsort(p->syms, p->nsyms, sizeof *p->syms, sym_cmp);
	size_t k = 0; /* one symbol per address */
	for (size_t i = 0; i < p->nsyms; i++) {
		if (k && p->syms[k - 1].addr == p->syms[i].addr) {
			if (p->syms[i].end > p->syms[k - 1].end)
				p->syms[k - 1].end = p->syms[i].end;
			if (!p->syms[k - 1].file) {
				p->syms[k - 1].file = p->syms[i].file;
				p->syms[i].file = NULL;
			}
			free(p->syms[i].name);
			free(p->syms[i].file);
			continue;
		}
		p->syms[k++] = p->syms[i];
	}
	p->nsyms = k;
	for (size_t i = 0; i < p->nsyms; i++) {
		struct kprof_sym *s = &p->syms[i];
		if (s->end <= s->addr) /* no size: up to the next symbol of its space */
			s->end = i + 1 < p->nsyms && p->syms[i + 1].space == s->space ? p->syms[i + 1].addr : s->addr + 1;
		if (s->addr < p->lo[s->space])
			p->lo[s->space] = s->addr;
		if (s->end > p->hi[s->space])
			p->hi[s->space] = s->end;
	}
	if (p->lo[KPROF_KERNEL] < p->hi[KPROF_USER] && p->lo[KPROF_USER] < p->hi[KPROF_KERNEL])
		return fail(p, NULL, 0, 0, "the kernel's code (%#x-%#x) and the program's (%#x-%#x) overlap: "
			    "a PC would not name one function", p->lo[KPROF_KERNEL], p->hi[KPROF_KERNEL],
			    p->lo[KPROF_USER], p->hi[KPROF_USER]);
	for (size_t r = 0; r < p->nregions; r++) {
		struct kprof_region *g = &p->regions[r];
		if (!g->have_begin || !g->have_end)
			return fail(p, NULL, 0, 0, "region %s has no %s marker (%s%s)", g->name,
				    g->have_begin ? "end" : "begin", g->have_begin ? END_PREFIX : BEGIN_PREFIX, g->name);
		if (p->others_end && (g->begin_pc < p->others_end || g->end_pc < p->others_end))
			return fail(p, NULL, 0, 0, "region %s's markers (%#x, %#x) lie below the end of another "
				    "program's code (%#x): they would not be the program's alone",
				    g->name, g->begin_pc, g->end_pc, p->others_end);
		for (size_t q = 0; q < r; q++) {
			uint32_t a[2] = { g->begin_pc, g->end_pc }, b[2] = { p->regions[q].begin_pc, p->regions[q].end_pc };
			for (int i = 0; i < 4; i++)
				if (a[i / 2] == b[i % 2])
					return fail(p, NULL, 0, 0, "regions %s and %s share the marker address %#x",
						    g->name, p->regions[q].name, a[i / 2]);
		}
		if (g->begin_pc == g->end_pc)
			return fail(p, NULL, 0, 0, "region %s begins and ends at one address", g->name);
	}
	size_t *by_name = malloc((p->nsyms + 1) * sizeof *by_name);
	if (!by_name)
		return fail(p, NULL, 0, 0, "out of memory");
	for (size_t i = 0; i < p->nsyms; i++)
		by_name[i] = i;
	sort_syms = p->syms;
	qsort(by_name, p->nsyms, sizeof *by_name, name_cmp);
	for (size_t i = 1; i < p->nsyms; i++)
		if (!strcmp(p->syms[by_name[i - 1]].name, p->syms[by_name[i]].name))
			p->syms[by_name[i - 1]].shared_name = p->syms[by_name[i]].shared_name = 1;
	free(by_name);
	p->sorted = 1;
	return 0;
}

size_t kprof_lookup(const struct kprof *p, uint32_t pc)
{
	size_t lo = 0, hi = p->nsyms; /* first symbol above pc */
	while (lo < hi) {
		size_t mid = lo + (hi - lo) / 2;
		if (p->syms[mid].addr <= pc)
			lo = mid + 1;
		else
			hi = mid;
	}
	if (lo && pc < p->syms[lo - 1].end)
		return lo - 1;
	for (int s = 0; s < KPROF_SPACES; s++)
		if (pc >= p->lo[s] && pc < p->hi[s])
			return p->nsyms + (size_t)s;
	return p->nsyms + KPROF_SPACES;
}

static int count_add(struct kprof_counts *c, uint32_t pc, int64_t d)
{
	if (!c->index.keys && hashmap_init(&c->index, 4096) < 0)
		return -1;
	uint32_t at = hashmap_get(&c->index, pc);
	if (at == HASHMAP_NONE) {
		if (c->len == c->cap) {
			size_t cap = c->cap ? 2 * c->cap : 4096;
			uint32_t *npc = realloc(c->pc, cap * sizeof *npc);
			if (npc)
				c->pc = npc;
			int64_t *nn = npc ? realloc(c->n, cap * sizeof *nn) : NULL;
			if (!nn)
				return -1;
			c->n = nn;
			c->cap = cap;
		}
		at = (uint32_t)c->len;
		if (hashmap_put(&c->index, pc, at) < 0)
			return -1;
		c->pc[c->len] = pc;
		c->n[c->len++] = 0;
	}
	c->n[at] += d;
	return 0;
}

static int executed(struct kprof *p, uint32_t pc, const char *path, unsigned long lineno, size_t col)
{
	int cur = p->cur, closed = -1;
	for (size_t r = 0; r < p->nregions; r++) {
		struct kprof_region *g = &p->regions[r];
		if (pc == g->begin_pc) {
			if (p->cur >= 0)
				return fail(p, path, lineno, col, "region %s begins inside region %s",
					    g->name, p->regions[p->cur].name);
			cur = (int)r;
		} else if (pc == g->end_pc) {
			if (p->cur != (int)r)
				return fail(p, path, lineno, col, "region %s ends outside it", g->name);
			closed = (int)r;
			cur = -1;
		}
	}
	if (cur >= 0 && count_add(&p->regions[cur].counts, pc, 1) < 0)
		return fail(p, path, lineno, col, "out of memory");
	if (cur >= 0)
		p->regions[cur].total++;
	if (closed >= 0)
		p->regions[closed].brackets++;
	p->last_valid = 1;
	p->last_pc = pc;
	p->last_cur = p->cur;
	p->last_counted = cur;
	p->last_closed = closed;
	p->cur = cur;
	return 0;
}

/* The instruction of the line before did not run. */
static int take_back(struct kprof *p, uint32_t pc, const char *path, unsigned long lineno, size_t col)
{
	if (!p->last_valid || p->last_pc != pc)
		return fail(p, path, lineno, col, "takes back PC %#x, which is not the instruction logged just before", pc);
	if (p->last_counted >= 0) {
		count_add(&p->regions[p->last_counted].counts, pc, -1); /* the slot exists */
		p->regions[p->last_counted].total--;
	}
	if (p->last_closed >= 0)
		p->regions[p->last_closed].brackets--;
	p->cur = p->last_cur;
	p->last_valid = 0;
	return 0;
}

static const char TRACE[] = "Trace ";
static const char STOPPED[] = "Stopped execution of TB chain before ";
static const char REWOUND[] = "cpu_io_recompile: rewound execution of TB to ";

/* "Trace CPU: 0xHOST [CS_BASE/PC/FLAGS/CFLAGS] [SYMBOL]" */
static int trace_line(struct kprof *p, const char *l, const char *path, unsigned long lineno)
{
	size_t at = sizeof TRACE - 1, n;
	uint64_t v, pc;
	while (l[at] >= '0' && l[at] <= '9')
		at++;
	if (at == sizeof TRACE - 1 || l[at] != ':' || l[at + 1] != ' ' || l[at + 2] != '0' || l[at + 3] != 'x')
		return fail(p, path, lineno, at + 1, "expected \"CPU: 0x\" after \"Trace\"");
	at += 4;
	if (!(n = hex(l + at, 16, &v)))
		return fail(p, path, lineno, at + 1, "expected the translated block's host address");
	at += n;
	if (l[at] != ' ' || l[at + 1] != '[')
		return fail(p, path, lineno, at + 1, "expected \" [\"");
	at += 2;
	size_t pc_col = 0;
	for (int field = 0; field < 4; field++) {
		if (field == 1)
			pc_col = at + 1;
		if (!(n = hex(l + at, 16, field == 1 ? &pc : &v)))
			return fail(p, path, lineno, at + 1, "expected a hexadecimal field");
		at += n;
		if (l[at] != (field == 3 ? ']' : '/'))
			return fail(p, path, lineno, at + 1, "expected '%c'", field == 3 ? ']' : '/');
		at++;
		if (field == 1 && pc > UINT32_MAX)
			return fail(p, path, lineno, at - n, "PC %llx is beyond 32 bits", (unsigned long long)pc);
	}
	return executed(p, (uint32_t)pc, path, lineno, pc_col);
}

int kprof_log_line(struct kprof *p, const char *l, const char *path, unsigned long lineno)
{
	if (!p->sorted)
		return fail(p, path, lineno, 1, "the symbol tables were not finished before the log");
	size_t n, at;
	uint64_t v, pc;
	int r;
	if (!strncmp(l, TRACE, sizeof TRACE - 1)) {
		r = trace_line(p, l, path, lineno);
	} else if (!strncmp(l, STOPPED, sizeof STOPPED - 1)) {
		at = sizeof STOPPED - 1;
		if (l[at] != '0' || l[at + 1] != 'x' || !(n = hex(l + at + 2, 16, &v)))
			return fail(p, path, lineno, at + 1, "expected the block's host address");
		at += 2 + n;
		if (l[at] != ' ' || l[at + 1] != '[' || !(n = hex(l + at + 2, 16, &pc)) || l[at + 2 + n] != ']')
			return fail(p, path, lineno, at + 1, "expected \" [PC]\"");
		r = pc > UINT32_MAX ? fail(p, path, lineno, at + 3, "PC beyond 32 bits")
			: take_back(p, (uint32_t)pc, path, lineno, at + 3);
	} else if (!strncmp(l, REWOUND, sizeof REWOUND - 1)) {
		at = sizeof REWOUND - 1;
		if (!(n = hex(l + at, 16, &pc)) || (l[at + n] && l[at + n] != '\n'))
			return fail(p, path, lineno, at + 1, "expected a PC and the end of the line");
		r = pc > UINT32_MAX ? fail(p, path, lineno, at + 1, "PC beyond 32 bits")
			: take_back(p, (uint32_t)pc, path, lineno, at + 1);
	} else {
		return fail(p, path, lineno, 1, "not a line of `-d exec,nochain` (Trace, Stopped execution, "
			    "cpu_io_recompile); was the log made with other -d items?");
	}
	if (!r) {
		p->lines++;
		p->bytes += strlen(l);
	}
	return r;
}

static int log_fn(struct kprof *p, const char *line, void *arg, const char *path, unsigned long lineno)
{
	(void)arg;
	return kprof_log_line(p, line, path, lineno);
}

int kprof_read_log(struct kprof *p, FILE *f, const char *path)
{
	return read_lines(p, f, path, log_fn, NULL);
}

int kprof_log_done(struct kprof *p)
{
	if (p->cur >= 0)
		return fail(p, NULL, 0, 0, "the log ends inside region %s", p->regions[p->cur].name);
	for (size_t r = 0; r < p->nregions; r++)
		if (!p->regions[r].brackets)
			return fail(p, NULL, 0, 0, "region %s never ran in the log", p->regions[r].name);
	return 0;
}

/* " DIGITS" at line + *at */
static int number(const char *line, size_t *at, uint64_t *v)
{
	if (line[*at] != ' ' || line[*at + 1] < '0' || line[*at + 1] > '9')
		return -1;
	char *end;
	*v = strtoull(line + *at + 1, &end, 10);
	*at = (size_t)(end - line);
	return 0;
}

/* "kbench profile NAME ITERATIONS clock|cpu NS" */
int kprof_console_line(struct kprof *p, const char *line, const char *path, unsigned long lineno)
{
	static const char PRE[] = "kbench profile ";
	if (strncmp(line, PRE, sizeof PRE - 1))
		return 0;
	size_t at = sizeof PRE - 1, len = strcspn(line + at, " \r\n");
	int r = len ? region_named(p, line + at, len) : -1;
	if (r < 0 && len && !wanted(p, line + at, len))
		return 0; /* a region not selected */
	if (r < 0)
		return fail(p, path, lineno, at + 1, "no region %.*s in the program's symbols", (int)len, line + at);
	at += len;
	uint64_t iterations, ns;
	if (number(line, &at, &iterations) < 0)
		return fail(p, path, lineno, at + 1, "expected ITERATIONS clock|cpu NS");
	if (!iterations)
		return fail(p, path, lineno, at, "a bracket of 0 iterations");
	size_t mlen = line[at] == ' ' ? strcspn(line + at + 1, " \r\n") : 0;
	const char *measure = line + at + 1;
	if (!((mlen == 5 && !strncmp(measure, "clock", 5)) || (mlen == 3 && !strncmp(measure, "cpu", 3))))
		return fail(p, path, lineno, at + 2, "expected the measure, clock or cpu");
	at += 1 + mlen;
	if (number(line, &at, &ns) < 0)
		return fail(p, path, lineno, at + 1, "expected the measured nanoseconds");
	if (line[at] && line[at] != '\n' && line[at] != '\r')
		return fail(p, path, lineno, at + 1, "expected the end of the line");
	struct kprof_region *g = &p->regions[r];
	if (g->reports && strncmp(g->measure, measure, mlen))
		return fail(p, path, lineno, (size_t)(measure - line) + 1, "region %s measured by %s before",
			    g->name, g->measure);
	if (!g->reports)
		g->order = p->reported++;
	memcpy(g->measure, measure, mlen);
	g->measure[mlen] = 0;
	g->iterations += iterations;
	g->measured_ns += ns;
	g->reports++;
	return 0;
}

static int console_fn(struct kprof *p, const char *line, void *arg, const char *path, unsigned long lineno)
{
	(void)arg;
	return kprof_console_line(p, line, path, lineno);
}

int kprof_read_console(struct kprof *p, FILE *f, const char *path)
{
	return read_lines(p, f, path, console_fn, NULL);
}

int kprof_add_diff(struct kprof *p, const char *spec)
{
	const char *eq = strchr(spec, '='), *minus = eq ? strchr(eq, '-') : NULL;
	const char *slash = minus ? strchr(minus, '/') : NULL;
	char *end = NULL;
	double d = slash ? strtod(slash + 1, &end) : 0;
	if (!eq || eq == spec || !minus || !slash || !end || *end || !(d > 0))
		return fail(p, NULL, 0, 0, "`%s`: a derived profile is NAME=A-B/DIVISOR", spec);
	int a = region_named(p, eq + 1, (size_t)(minus - eq - 1)), b = region_named(p, minus + 1, (size_t)(slash - minus - 1));
	if (a < 0 || b < 0)
		return fail(p, NULL, 0, 0, "`%s`: no region %.*s", spec,
			    a < 0 ? (int)(minus - eq - 1) : (int)(slash - minus - 1), a < 0 ? eq + 1 : minus + 1);
	struct kprof_diff *v = realloc(p->diffs, (p->ndiffs + 1) * sizeof *v);
	if (!v)
		return fail(p, NULL, 0, 0, "out of memory");
	p->diffs = v;
	if (!(v[p->ndiffs].name = strndup(spec, (size_t)(eq - spec))))
		return fail(p, NULL, 0, 0, "out of memory");
	v[p->ndiffs].a = a;
	v[p->ndiffs].b = b;
	v[p->ndiffs].divisor = d;
	p->ndiffs++;
	return 0;
}

static int64_t *by_symbol(const struct kprof *p, int region, int entries)
{
	int64_t *by = calloc(p->nsyms + KPROF_SPACES + 1, sizeof *by);
	if (!by)
		return NULL;
	const struct kprof_counts *c = &p->regions[region].counts;
	for (size_t i = 0; i < c->len; i++) {
		size_t s = kprof_lookup(p, c->pc[i]);
		if (!entries || (s < p->nsyms && c->pc[i] == p->syms[s].addr))
			by[s] += c->n[i];
	}
	return by;
}

int64_t *kprof_by_symbol(const struct kprof *p, int region)
{
	return by_symbol(p, region, 0);
}

int64_t *kprof_entries(const struct kprof *p, int region)
{
	return by_symbol(p, region, 1);
}

static int addr_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;
	return x < y ? -1 : x > y;
}

char *kprof_dfilter(struct kprof *p, const char *const *skip, int nskip)
{
	if (kprof_symbols_done(p) < 0)
		return NULL;
	if (p->lo[KPROF_KERNEL] >= p->hi[KPROF_KERNEL] || p->lo[KPROF_USER] >= p->hi[KPROF_USER]) {
		fail(p, NULL, 0, 0, "no code in the kernel's or the program's table");
		return NULL;
	}
	/* cut points: the kernel's range split around each skipped function */
	uint32_t *cut = malloc((2 * (size_t)nskip + 2) * sizeof *cut);
	char *out = malloc(32 * ((size_t)nskip + 2));
	if (!cut || !out) {
		free(cut);
		free(out);
		fail(p, NULL, 0, 0, "out of memory");
		return NULL;
	}
	size_t n = 0, len = 0;
	cut[n++] = p->lo[KPROF_KERNEL];
	for (int k = 0; k < nskip; k++) {
		size_t i = 0;
		while (i < p->nsyms && (p->syms[i].space != KPROF_KERNEL || strcmp(p->syms[i].name, skip[k])))
			i++;
		if (i == p->nsyms) {
			fail(p, NULL, 0, 0, "no function %s in the kernel's table", skip[k]);
			free(cut);
			free(out);
			return NULL;
		}
		cut[n++] = p->syms[i].addr;
		cut[n++] = p->syms[i].end;
	}
	cut[n++] = p->hi[KPROF_KERNEL];
	qsort(cut + 1, n - 2, sizeof *cut, addr_cmp);
	for (size_t i = 0; i + 1 < n; i += 2)
		if (cut[i + 1] > cut[i])
			len += (size_t)sprintf(out + len, "%s0x%x+0x%x", len ? "," : "", cut[i], cut[i + 1] - cut[i]);
	sprintf(out + len, ",0x%x+0x%x", p->lo[KPROF_USER], p->hi[KPROF_USER] - p->lo[KPROF_USER]);
	free(cut);
	return out;
}

/* ---- the report ---- */

struct row {
	double v;
	size_t slot;
};

static const struct kprof *sort_p;

static const char *slot_name(const struct kprof *p, size_t slot)
{
	static const char *const none[] = { "(kernel, no symbol)", "(program, no symbol)", "(outside both)" };
	return slot < p->nsyms ? p->syms[slot].name : none[slot - p->nsyms];
}

/* The name as printed: with its address when two functions share it. */
static void print_name(const struct kprof *p, FILE *out, size_t slot)
{
	fputs(slot_name(p, slot), out);
	if (slot < p->nsyms && p->syms[slot].shared_name)
		fprintf(out, " (%#x)", p->syms[slot].addr);
	fputc('\n', out);
}

static int slot_space(const struct kprof *p, size_t slot)
{
	return slot < p->nsyms ? p->syms[slot].space : (int)(slot - p->nsyms);
}

static int row_cmp(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	if (x->v != y->v)
		return x->v > y->v ? -1 : 1;
	int c = strcmp(slot_name(sort_p, x->slot), slot_name(sort_p, y->slot));
	return c ? c : x->slot < y->slot ? -1 : x->slot > y->slot;
}

static const char **sort_files;

static int file_row_cmp(const void *a, const void *b)
{
	const struct row *x = a, *y = b;
	if (x->v != y->v)
		return x->v > y->v ? -1 : 1;
	return strcmp(sort_files[x->slot], sort_files[y->slot]);
}

static void table(const struct kprof *p, FILE *out, const double *per, const double *entries, double total)
{
	size_t nslots = p->nsyms + KPROF_SPACES + 1, n = 0;
	struct row *rows = malloc(nslots * sizeof *rows);
	double space[KPROF_SPACES + 1] = { 0 };
	if (!rows)
		return;
	for (size_t s = 0; s < nslots; s++) {
		if (per[s] == 0)
			continue;
		rows[n].v = per[s];
		rows[n++].slot = s;
		space[slot_space(p, s)] += per[s];
	}
	sort_p = p;
	qsort(rows, n, sizeof *rows, row_cmp);
	fprintf(out, "  kernel %.1f (%.1f%%), program %.1f (%.1f%%)%s\n", space[KPROF_KERNEL],
		total ? 100 * space[KPROF_KERNEL] / total : 0, space[KPROF_USER],
		total ? 100 * space[KPROF_USER] / total : 0,
		space[KPROF_SPACES] ? " and some outside both (see below)" : "");
	fprintf(out, "  %12s %7s %9s  %-7s  %s\n", "per iter", "share", "entries", "space", "function");
	for (size_t i = 0; i < n; i++) {
		int sp = slot_space(p, rows[i].slot);
		fprintf(out, "  %12.1f %6.1f%% %9.1f  %-7s  ", rows[i].v, total ? 100 * rows[i].v / total : 0,
			entries[rows[i].slot], sp == KPROF_KERNEL ? "kernel" : sp == KPROF_USER ? "program" : "-");
		print_name(p, out, rows[i].slot);
	}
	free(rows);
}

/* Length of the directory every source file's path begins with, and one
 * such path. */
static size_t common_dir(const struct kprof *p, const char **one)
{
	const char *first = NULL;
	size_t n = 0;
	for (size_t i = 0; i < p->nsyms; i++) {
		const char *f = p->syms[i].file;
		if (!f)
			continue;
		if (!first) {
			first = f;
			n = strlen(f);
			continue;
		}
		size_t k = 0;
		while (k < n && f[k] == first[k])
			k++;
		n = k;
	}
	while (n > 0 && first[n - 1] != '/')
		n--;
	*one = first;
	return n;
}

/* The per-function counts `per` summed by source file, sorted. */
static void by_file(const struct kprof *p, FILE *out, const double *per, double total)
{
	const char *one = NULL;
	size_t nslots = p->nsyms + KPROF_SPACES + 1, nfiles = 0, skip = common_dir(p, &one);
	const char **files = malloc(nslots * sizeof *files);
	double *sum = calloc(nslots, sizeof *sum);
	struct row *rows = malloc(nslots * sizeof *rows);
	int any = 0;
	if (!files || !sum || !rows)
		goto out;
	for (size_t s = 0; s < nslots; s++) {
		const char *f = s < p->nsyms ? p->syms[s].file : NULL;
		any |= f != NULL;
		if (!f)
			f = slot_space(p, s) == KPROF_KERNEL ? "(kernel, no source file)"
				: slot_space(p, s) == KPROF_USER ? "(program, no source file)" : "(outside both)";
		else
			f += skip;
		size_t k = 0;
		while (k < nfiles && strcmp(files[k], f))
			k++;
		if (k == nfiles)
			files[nfiles++] = f;
		sum[k] += per[s];
	}
	if (!any)
		goto out;
	size_t n = 0;
	for (size_t k = 0; k < nfiles; k++)
		if (sum[k] != 0) {
			rows[n].v = sum[k];
			rows[n++].slot = k;
		}
	sort_files = files;
	qsort(rows, n, sizeof *rows, file_row_cmp);
	fprintf(out, "  by source file%s%.*s%s:\n", skip ? " (under " : "", (int)skip, skip ? one : "",
		skip ? ")" : "");
	for (size_t i = 0; i < n; i++)
		fprintf(out, "  %12.1f %6.1f%%  %s\n", rows[i].v, total ? 100 * rows[i].v / total : 0,
			files[rows[i].slot]);
out:
	free(files);
	free(sum);
	free(rows);
}

static double *per_iteration(const struct kprof *p, int r, int entries)
{
	const struct kprof_region *g = &p->regions[r];
	size_t nslots = p->nsyms + KPROF_SPACES + 1;
	int64_t *by = by_symbol(p, r, entries);
	double *per = by ? malloc(nslots * sizeof *per) : NULL;
	double iters = (double)g->iterations;
	if (per)
		for (size_t s = 0; s < nslots; s++)
			per[s] = (double)by[s] / iters;
	free(by);
	return per;
}

int kprof_report(const struct kprof *p, FILE *out)
{
	size_t nslots = p->nsyms + KPROF_SPACES + 1;
	for (size_t r = 0; r < p->nregions; r++) {
		const struct kprof_region *g = &p->regions[r];
		if (!g->iterations) {
			fprintf(stderr, "kprof: region %s: the console says nothing of its iterations (kbench profile %s ...)\n",
				g->name, g->name);
			return -1;
		}
	}
	fprintf(out, "exec log: %llu lines, %llu bytes, read as a stream\n\n", (unsigned long long)p->lines,
		(unsigned long long)p->bytes);
	for (int k = 0; k < p->reported; k++) {
		size_t r = 0;
		while (p->regions[r].order != k)
			r++;
		const struct kprof_region *g = &p->regions[r];
		double iters = (double)g->iterations, total = (double)g->total / iters;
		double *per = per_iteration(p, (int)r, 0), *ent = per_iteration(p, (int)r, 1);
		if (!per || !ent) {
			free(per);
			free(ent);
			return -1;
		}
		fprintf(out, "region %s: %llu iteration%s in %llu bracket%s, %llu instructions, %.1f per iteration\n",
			g->name, (unsigned long long)g->iterations, iters == 1 ? "" : "s",
			(unsigned long long)g->brackets, g->brackets == 1 ? "" : "s",
			(unsigned long long)g->total, total);
		fprintf(out, "  the guest's own measure (%s) from its read before the bracket to its read after: %llu, "
			"%.1f per iteration (log - measure: %lld, %+.1f per iteration)\n",
			strcmp(g->measure, "cpu") ? "node clock" : "the process's CPU time",
			(unsigned long long)g->measured_ns, (double)g->measured_ns / iters,
			(long long)g->total - (long long)g->measured_ns, total - (double)g->measured_ns / iters);
		table(p, out, per, ent, total);
		by_file(p, out, per, total);
		fputc('\n', out);
		free(per);
		free(ent);
	}
	for (size_t d = 0; d < p->ndiffs; d++) {
		const struct kprof_diff *x = &p->diffs[d];
		const struct kprof_region *a = &p->regions[x->a], *b = &p->regions[x->b];
		double *pa = per_iteration(p, x->a, 0), *pb = per_iteration(p, x->b, 0);
		double *ea = per_iteration(p, x->a, 1), *eb = per_iteration(p, x->b, 1);
		if (!pa || !pb || !ea || !eb) {
			free(pa);
			free(pb);
			free(ea);
			free(eb);
			return -1;
		}
		for (size_t s = 0; s < nslots; s++) {
			pa[s] = (pa[s] - pb[s]) / x->divisor;
			ea[s] = (ea[s] - eb[s]) / x->divisor;
		}
		double ta = (double)a->total / (double)a->iterations, tb = (double)b->total / (double)b->iterations;
		double ma = (double)a->measured_ns / (double)a->iterations;
		double mb = (double)b->measured_ns / (double)b->iterations;
		double total = (ta - tb) / x->divisor;
		fprintf(out, "derived %s = (%s - %s) / %g: %.1f per iteration (by the guest's own measures: %.1f)\n",
			x->name, a->name, b->name, x->divisor, total, (ma - mb) / x->divisor);
		table(p, out, pa, ea, total);
		by_file(p, out, pa, total);
		fputc('\n', out);
		free(pa);
		free(pb);
		free(ea);
		free(eb);
	}
	return 0;
}
