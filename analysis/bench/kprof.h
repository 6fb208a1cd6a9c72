/*
 * analysis/bench/kprof.h - the per-function instruction profile of bracketed
 * guest loops, from QEMU's exec log (`-singlestep -d exec,nochain`, one
 * line per executed instruction) and the symbol tables of the kernel and
 * the one user program (`nm -n -S --defined-only`).
 *
 * A table made with `nm -l` names each function's source file (after a
 * tab, FILE:LINE); the report then also sums each region by file.
 *
 * A region is bracketed in the guest by executing the instruction at the
 * symbol `kprof_begin_NAME` and later the one at `kprof_end_NAME` (kbench
 * keeps both as one-instruction returns in its data, where no other
 * program on the node executes anything): the region counts every logged
 * instruction from the first one (included) to the second (excluded).
 * The log's "Stopped execution of TB chain before" and "cpu_io_recompile:
 * rewound execution" lines take back the line before them (that
 * instruction did not run, and runs again later), so the counts are the
 * instructions QEMU's icount counts.  Every input line is either taken or
 * stops the reading with FILE:LINE:COL and a reason; a bad line changes
 * nothing already counted.
 *
 * The guest says how many iterations its brackets of a region ran and
 * what its own measure (the node clock, or the process's CPU time) saw
 * over them in console lines
 *   kbench profile NAME ITERATIONS clock|cpu NS
 * (kprof_console_line), which the report sets beside the log's count.
 */
#ifndef ANALYSIS_BENCH_KPROF_H
#define ANALYSIS_BENCH_KPROF_H

#include <stdint.h>
#include <stdio.h>

enum kprof_space { KPROF_KERNEL, KPROF_USER, KPROF_SPACES };

struct kprof_sym {
	uint32_t addr, end; /* [addr, end) */
	char *name;
	char *file;      /* source file (nm -l), or NULL */
	int space, global;
	int shared_name; /* another symbol has this name (statics of two files) */
};

#include "analysis/model/hashmap.h"

/* PC -> instructions executed there, one table per region: the PCs in the
 * order first seen, and the map from a PC to its place. */
struct kprof_counts {
	struct hashmap index;
	uint32_t *pc;
	int64_t *n;
	size_t len, cap;
};

struct kprof_region {
	char *name;
	uint32_t begin_pc, end_pc;
	int have_begin, have_end;
	uint64_t brackets;  /* closed brackets seen in the log */
	uint64_t total;     /* instructions inside them */
	struct kprof_counts counts;
	/* from the console: iterations and the guest's measure over all the
	 * brackets, and which measure it is ("clock" or "cpu") */
	uint64_t iterations, measured_ns;
	char measure[8];
	int reports;
	int order;          /* place in the report: the console's order */
};

/* A derived profile: (A - B) / divisor per function. */
struct kprof_diff {
	char *name;
	int a, b;
	double divisor;
};

struct kprof {
	struct kprof_sym *syms;
	size_t nsyms, symcap;
	int sorted;
	uint32_t lo[KPROF_SPACES], hi[KPROF_SPACES];
	uint32_t others_end;       /* end of other programs' code (0: none given) */
	struct kprof_region *regions;
	size_t nregions;
	struct kprof_diff *diffs;
	size_t ndiffs;
	int cur;                   /* region inside, or -1 */
	/* the last executed line, which a "stopped"/"rewound" line takes back */
	int last_valid, last_cur, last_counted, last_closed;
	uint32_t last_pc;
	uint64_t lines, bytes;     /* log lines and bytes taken */
	int reported;              /* regions the console has named */
	/* kprof_select's names (the caller's strings); none: every region */
	const char *selected[16];
	int nselected;
	char err[512];
};

void kprof_init(struct kprof *p);
void kprof_free(struct kprof *p);

/* Profile only region `name` (called before the tables, once per region,
 * at most 16): the program's other markers are then plain data, their
 * console lines are passed over, and they need not run.  A node of a
 * cluster runs one part of a program whose regions are split between
 * nodes (servers/bench/bench-remote.sh).  The string must outlive p. */
int kprof_select(struct kprof *p, const char *name);

/* One `nm -n -S --defined-only` line (`-l` adds TAB FILE:LINE) of the
 * kernel's or the user program's table; `thumb` clears bit 0 of code addresses (ARM). */
int kprof_symbol_line(struct kprof *p, const char *line, enum kprof_space space, int thumb,
		      const char *path, unsigned long lineno);
/* A whole table from a stream. */
int kprof_read_symbols(struct kprof *p, FILE *f, const char *path, enum kprof_space space, int thumb);
/* Another program that runs on the node: its code must end below every
 * marker (one user address means one program). */
int kprof_read_other(struct kprof *p, FILE *f, const char *path, int thumb);
/* After the tables: sort them, find the regions' markers. */
int kprof_symbols_done(struct kprof *p);

/* One line of the exec log. */
int kprof_log_line(struct kprof *p, const char *line, const char *path, unsigned long lineno);
int kprof_read_log(struct kprof *p, FILE *f, const char *path);
/* The log has ended: no bracket may be open. */
int kprof_log_done(struct kprof *p);

/* One console line (lines not starting with "kbench profile " are
 * ignored); the whole console. */
int kprof_console_line(struct kprof *p, const char *line, const char *path, unsigned long lineno);
int kprof_read_console(struct kprof *p, FILE *f, const char *path);

/* "NAME=A-B/DIVISOR" (regions A and B). */
int kprof_add_diff(struct kprof *p, const char *spec);

/* Symbol of a PC: its index, or nsyms + space for a PC of that space in
 * no symbol, or nsyms + KPROF_SPACES outside both. */
size_t kprof_lookup(const struct kprof *p, uint32_t pc);
/* Instructions per symbol slot (nsyms + KPROF_SPACES + 1 slots) of a region. */
int64_t *kprof_by_symbol(const struct kprof *p, int region);
/* Per symbol slot, the instructions executed at the symbol's first
 * address: its entries (calls, or jumps to its start) in the region. */
int64_t *kprof_entries(const struct kprof *p, int region);
/* Region index by name, or -1. */
int kprof_region(const struct kprof *p, const char *name);

/* QEMU's -dfilter ranges (START+LENGTH,...) covering the kernel's code
 * less the named functions and the program's code and markers: the log
 * then holds nothing of the firmware and of busy-waits known to run only
 * at boot (the report's log-against-clock line shows if one ran inside a
 * region).  A string to free, or NULL with err set. */
char *kprof_dfilter(struct kprof *p, const char *const *skip, int nskip);

/* The report: every region and derived profile, per iteration, sorted,
 * each function with its entries per iteration;
 * by function, then by source file when the tables name files (paths
 * less the directory all of them share). */
int kprof_report(const struct kprof *p, FILE *out);

#endif
