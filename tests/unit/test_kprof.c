/*
 * tests/unit/test_kprof.c - the profile tool's reading (analysis/bench/
 * kprof.h) on small hand-made inputs: nm tables (sizes or none, aliases,
 * ARM's mapping symbols and Thumb bit, the markers), the exec log (regions,
 * the lines that take an instruction back), the console's profile lines,
 * derived profiles and -dfilter ranges; every malformed line is an error
 * at FILE:LINE:COL that leaves what was counted as it was.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/bench/kprof.h"

static const char *const KERNEL[] = {
	"00100000 T kernel_start\n",
	"00100000 T _start\n",            /* an alias: one name kept */
	"00100010 00000020 T sched_pick\n",
	"00100030 00000010 t memcpy\n",
	"00100050 T trap_common\n",       /* no size: up to the next symbol */
	"00100060 00000004 T last\n",
	"00100064 00000004 t twice\n",
	"00100068 00000004 t twice\n",   /* statics of two files */
	"00200000 00000100 D kernel_data\n", /* data: not a function */
};
static const char *const USER[] = {
	"40000000 T _start\n",
	"40000010 00000030 T main\n",
	"40000040 00000010 T call\n",
	"40012000 00000004 D kprof_begin_r\n",
	"40012004 00000004 D kprof_end_r\n",
	"40012008 00000004 D kprof_begin_s\n",
	"4001200c 00000004 D kprof_end_s\n",
	"40013000 00000004 D buf\n",
};

static void load(struct kprof *p)
{
	kprof_init(p);
	for (size_t i = 0; i < sizeof KERNEL / sizeof *KERNEL; i++)
		assert_int_equal(kprof_symbol_line(p, KERNEL[i], KPROF_KERNEL, 0, "k.nm", i + 1), 0);
	for (size_t i = 0; i < sizeof USER / sizeof *USER; i++)
		assert_int_equal(kprof_symbol_line(p, USER[i], KPROF_USER, 0, "u.nm", i + 1), 0);
	assert_int_equal(kprof_symbols_done(p), 0);
}

static const char *name_at(const struct kprof *p, uint32_t pc)
{
	size_t s = kprof_lookup(p, pc);
	return s < p->nsyms ? p->syms[s].name : s == p->nsyms + KPROF_KERNEL ? "(kernel)"
		: s == p->nsyms + KPROF_USER ? "(user)" : "(outside)";
}

static void test_symbols_map_each_pc_to_one_function(void **state)
{
	(void)state;
	struct kprof p;
	load(&p);
	assert_string_equal(name_at(&p, 0x100000), "_start"); /* of two globals, the first by name */
	assert_string_equal(name_at(&p, 0x10000f), "_start");
	assert_string_equal(name_at(&p, 0x100010), "sched_pick");
	assert_string_equal(name_at(&p, 0x10002f), "sched_pick");
	assert_string_equal(name_at(&p, 0x100030), "memcpy");
	assert_string_equal(name_at(&p, 0x100040), "(kernel)"); /* after memcpy's size */
	assert_string_equal(name_at(&p, 0x10005f), "trap_common");
	assert_string_equal(name_at(&p, 0x100063), "last");
	assert_string_equal(name_at(&p, 0x40000012), "main");
	assert_string_equal(name_at(&p, 0x40012004), "kprof_end_r");
	assert_string_equal(name_at(&p, 0x40000050), "(user)");    /* after call's size */
	assert_string_equal(name_at(&p, 0x40013000), "(outside)"); /* data is no function */
	assert_string_equal(name_at(&p, 0x200000), "(outside)");
	assert_int_equal(p.nregions, 2);
	assert_string_equal(p.regions[kprof_region(&p, "r")].name, "r");
	assert_int_equal(p.regions[kprof_region(&p, "s")].begin_pc, 0x40012008);
	kprof_free(&p);
}

static void test_arm_mapping_symbols_go_and_thumb_bit_clears(void **state)
{
	(void)state;
	struct kprof p;
	kprof_init(&p);
	assert_int_equal(kprof_symbol_line(&p, "401221e8 t $t\n", KPROF_KERNEL, 1, "k", 1), 0);
	assert_int_equal(kprof_symbol_line(&p, "401221e9 0000002e T __aeabi_uldivmod\n", KPROF_KERNEL, 1, "k", 2), 0);
	assert_int_equal(kprof_symbol_line(&p, "00400000 T _start\n", KPROF_USER, 1, "u", 1), 0);
	assert_int_equal(kprof_symbols_done(&p), 0);
	assert_int_equal(p.nsyms, 2);
	assert_string_equal(name_at(&p, 0x401221e8), "__aeabi_uldivmod");
	kprof_free(&p);
}

/* A malformed line: the error names FILE:LINE:COL, nothing is added. */
static void bad_symbol(const char *line, const char *where)
{
	struct kprof p;
	kprof_init(&p);
	assert_int_equal(kprof_symbol_line(&p, "00100000 T ok\n", KPROF_KERNEL, 0, "k.nm", 1), 0);
	assert_int_equal(kprof_symbol_line(&p, line, KPROF_KERNEL, 0, "k.nm", 7), -1);
	if (strncmp(p.err, where, strlen(where)))
		fail_msg("%s: got \"%s\", want it to start with \"%s\"", line, p.err, where);
	assert_int_equal(p.nsyms, 1);
	kprof_free(&p);
}

static void test_malformed_symbol_lines_are_named(void **state)
{
	(void)state;
	bad_symbol("zz T f\n", "k.nm:7:1: expected a hexadecimal address");
	bad_symbol("00100000\n", "k.nm:7:9: expected a space");
	bad_symbol("00100000 0010 f\n", "k.nm:7:15: expected a one-letter symbol type");
	bad_symbol("00100000 T\n", "k.nm:7:10: expected a one-letter symbol type");
	bad_symbol("00100000 T \n", "k.nm:7:12: expected a symbol name");
	bad_symbol("1000000000 T f\n", "k.nm:7:1: address 1000000000 is beyond 32 bits");
	bad_symbol("ffffff00 00000200 T f\n", "k.nm:7:1: symbol f ends beyond 32 bits");
}

static void test_tables_that_cannot_name_a_pc_are_refused(void **state)
{
	(void)state;
	struct kprof p;
	kprof_init(&p); /* kernel and program overlap */
	assert_int_equal(kprof_symbol_line(&p, "00100000 00000100 T k\n", KPROF_KERNEL, 0, "k", 1), 0);
	assert_int_equal(kprof_symbol_line(&p, "00100080 00000100 T u\n", KPROF_USER, 0, "u", 1), 0);
	assert_int_equal(kprof_symbols_done(&p), -1);
	assert_non_null(strstr(p.err, "overlap"));
	kprof_free(&p);

	kprof_init(&p); /* a region without its end */
	assert_int_equal(kprof_symbol_line(&p, "40012000 D kprof_begin_x\n", KPROF_USER, 0, "u", 1), 0);
	assert_int_equal(kprof_symbols_done(&p), -1);
	assert_string_equal(p.err, "region x has no end marker (kprof_end_x)");
	kprof_free(&p);

	kprof_init(&p); /* another program's code reaches the markers */
	assert_int_equal(kprof_symbol_line(&p, "40012000 D kprof_begin_x\n", KPROF_USER, 0, "u", 1), 0);
	assert_int_equal(kprof_symbol_line(&p, "40012004 D kprof_end_x\n", KPROF_USER, 0, "u", 2), 0);
	FILE *other = fmemopen((char *)"40000000 T _start\n40012000 00000100 T big\n", 42, "r");
	assert_int_equal(kprof_read_other(&p, other, "pm.nm", 0), 0);
	fclose(other);
	assert_int_equal(kprof_symbols_done(&p), -1);
	assert_non_null(strstr(p.err, "below the end of another program's code (0x40012100)"));
	kprof_free(&p);
}

static const char *trace(uint32_t pc)
{
	static char line[128];
	snprintf(line, sizeof line, "Trace 0: 0x7f0d24000100 [00000000/%08x/00000040/ff020201] \n", pc);
	return line;
}

static void feed(struct kprof *p, const char *line)
{
	static unsigned long n;
	if (kprof_log_line(p, line, "log", ++n) < 0)
		fail_msg("%s: %s", line, p->err);
}

static int64_t at(const struct kprof *p, const char *region, const char *function)
{
	int r = kprof_region(p, region);
	int64_t *by = kprof_by_symbol(p, r), v = 0;
	for (size_t s = 0; s < p->nsyms; s++)
		if (!strcmp(p->syms[s].name, function))
			v = by[s];
	free(by);
	return v;
}

/* Region r: begin marker, 3 instructions of main, 2 of sched_pick, one
 * logged but stopped before it ran, one rewound by an I/O recompile, then
 * the end marker (not counted); outside: more instructions. */
static void run_log(struct kprof *p)
{
	feed(p, trace(0x40000010));
	feed(p, trace(0x40012000)); /* begin r */
	feed(p, trace(0x40000012));
	feed(p, trace(0x100010));
	feed(p, "Stopped execution of TB chain before 0x7f0d24089640 [00100010] \n");
	feed(p, trace(0x100010));
	feed(p, trace(0x100011));
	feed(p, "cpu_io_recompile: rewound execution of TB to 00100011\n");
	feed(p, trace(0x100011));
	feed(p, trace(0x40000014));
	feed(p, trace(0x40000016));
	feed(p, trace(0x40012004)); /* end r */
	feed(p, trace(0x40000018));
}

static void test_the_log_counts_regions_and_takes_back(void **state)
{
	(void)state;
	struct kprof p;
	load(&p);
	run_log(&p);
	assert_int_equal(kprof_log_done(&p), -1); /* s never ran */
	assert_string_equal(p.err, "region s never ran in the log");
	struct kprof_region *r = &p.regions[kprof_region(&p, "r")];
	assert_int_equal(r->brackets, 1);
	assert_int_equal(r->total, 6);
	assert_int_equal(at(&p, "r", "kprof_begin_r"), 1);
	assert_int_equal(at(&p, "r", "main"), 3);
	assert_int_equal(at(&p, "r", "sched_pick"), 2);
	assert_int_equal(at(&p, "r", "kprof_end_r"), 0);
	assert_int_equal(p.lines, 13);
	kprof_free(&p);
}

static void test_a_stopped_marker_is_taken_back_with_its_bracket(void **state)
{
	(void)state;
	struct kprof p;
	load(&p);
	feed(&p, trace(0x40012000)); /* begin, stopped before it ran */
	feed(&p, "Stopped execution of TB chain before 0x7f0d24089640 [40012000] kprof_begin_r\n");
	assert_int_equal(p.cur, -1);
	feed(&p, trace(0x40012000)); /* begin again: not "inside itself" */
	feed(&p, trace(0x40012004)); /* end, rewound */
	feed(&p, "cpu_io_recompile: rewound execution of TB to 40012004\n");
	assert_int_equal(p.regions[kprof_region(&p, "r")].brackets, 0);
	feed(&p, trace(0x40012004));
	assert_int_equal(p.regions[kprof_region(&p, "r")].brackets, 1);
	assert_int_equal(p.regions[kprof_region(&p, "r")].total, 1);
	kprof_free(&p);
}

/* A bad log line: an error at its place, and the counts stay. */
static void bad_log(const char *given, const char *where)
{
	char line[128]; /* trace() reuses its buffer */
	snprintf(line, sizeof line, "%s", given);
	struct kprof p;
	load(&p);
	run_log(&p);
	feed(&p, trace(0x40012000));
	feed(&p, trace(0x40000012));
	uint64_t total = p.regions[0].total, lines = p.lines;
	int cur = p.cur;
	if (kprof_log_line(&p, line, "x.log", 99) != -1)
		fail_msg("%s: taken", line);
	if (strncmp(p.err, where, strlen(where)))
		fail_msg("%s: got \"%s\", want it to start with \"%s\"", line, p.err, where);
	assert_int_equal(p.regions[0].total, total);
	assert_int_equal(p.lines, lines);
	assert_int_equal(p.cur, cur);
	assert_int_equal(at(&p, "r", "main"), 4); /* and nothing counted is lost */
	kprof_free(&p);
}

static void test_malformed_log_lines_are_named(void **state)
{
	(void)state;
	bad_log("IN: \n", "x.log:99:1: not a line of `-d exec,nochain`");
	bad_log("Trace 0 0x7f [0/1/2/3]\n", "x.log:99:8: expected \"CPU: 0x\"");
	bad_log("Trace 0: 0x7f0d [0/10001z/2/3]\n", "x.log:99:25: expected '/'");
	bad_log("Trace 0: 0x7f0d [0/100010/2]\n", "x.log:99:28: expected '/'");
	bad_log("Trace 0: 0x7f0d [0/100000010/2/3]\n", "x.log:99:20: PC 100000010 is beyond 32 bits");
	bad_log("Trace 0: 0x7f0d24000100 [00000000/40", "x.log:99:37: expected '/'"); /* cut short */
	bad_log("Stopped execution of TB chain before 0x7f0d [00100010] \n",
		"x.log:99:46: takes back PC 0x100010, which is not the instruction logged just before");
	bad_log("Stopped execution of TB chain before [1]\n", "x.log:99:38: expected the block's host address");
	bad_log("cpu_io_recompile: rewound execution of TB to 40000012 extra\n",
		"x.log:99:46: expected a PC and the end of the line");
	bad_log(trace(0x40012008), "x.log:99:35: region s begins inside region r");
	bad_log(trace(0x4001200c), "x.log:99:35: region s ends outside it");
}

static void test_a_log_that_ends_inside_a_region_is_refused(void **state)
{
	(void)state;
	struct kprof p;
	load(&p);
	feed(&p, trace(0x40012000));
	assert_int_equal(kprof_log_done(&p), -1);
	assert_string_equal(p.err, "the log ends inside region r");
	kprof_free(&p);
}

static void test_console_lines_give_iterations_and_measure(void **state)
{
	(void)state;
	struct kprof p;
	load(&p);
	assert_int_equal(kprof_console_line(&p, "kbench null 0 106.0\n", "c", 1), 0); /* not ours */
	assert_int_equal(kprof_console_line(&p, "kbench profile s 2 clock 100\n", "c", 2), 0);
	assert_int_equal(kprof_console_line(&p, "kbench profile r 2 cpu 20\n", "c", 3), 0);
	assert_int_equal(kprof_console_line(&p, "kbench profile r 3 cpu 30\n", "c", 4), 0); /* a 2nd bracket */
	struct kprof_region *r = &p.regions[kprof_region(&p, "r")];
	assert_int_equal(r->iterations, 5);
	assert_int_equal(r->measured_ns, 50);
	assert_string_equal(r->measure, "cpu");
	assert_int_equal(r->order, 1);
	const char *bad[][2] = {
		{ "kbench profile q 2 clock 20\n", "c:9:16: no region q" },
		{ "kbench profile r x\n", "c:9:17: expected ITERATIONS clock|cpu NS" },
		{ "kbench profile r 0 cpu 20\n", "c:9:18: a bracket of 0 iterations" },
		{ "kbench profile r 2 wall 20\n", "c:9:20: expected the measure, clock or cpu" },
		{ "kbench profile r 2 clock\n", "c:9:25: expected the measured nanoseconds" },
		{ "kbench profile r 2 cpu 20 5\n", "c:9:26: expected the end of the line" },
		{ "kbench profile r 2 clock 20\n", "c:9:20: region r measured by cpu before" },
	};
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		assert_int_equal(kprof_console_line(&p, bad[i][0], "c", 9), -1);
		if (strncmp(p.err, bad[i][1], strlen(bad[i][1])))
			fail_msg("%s: got \"%s\", want \"%s\"", bad[i][0], p.err, bad[i][1]);
	}
	assert_int_equal(r->iterations, 5);
	assert_int_equal(r->measured_ns, 50);
	assert_int_equal(r->reports, 2);
	kprof_free(&p);
}

/* The report as a string (to free). */
static char *report_text(const struct kprof *p)
{
	char *text = NULL;
	size_t len = 0;
	FILE *out = open_memstream(&text, &len);
	assert_int_equal(kprof_report(p, out), 0);
	fclose(out);
	return text;
}

static void test_the_report_sorts_per_iteration_and_derives(void **state)
{
	(void)state;
	struct kprof p;
	load(&p);
	run_log(&p);
	feed(&p, trace(0x40012008)); /* s: 1 of begin, 2 of sched_pick, 4 of main, 2 of two twices */
	feed(&p, trace(0x100010));
	feed(&p, trace(0x100011));
	feed(&p, trace(0x100064));
	feed(&p, trace(0x100068));
	for (int i = 0; i < 4; i++)
		feed(&p, trace(0x40000010));
	feed(&p, trace(0x4001200c));
	assert_int_equal(kprof_log_done(&p), 0);
	assert_int_equal(kprof_console_line(&p, "kbench profile r 2 cpu 14\n", "c", 1), 0);
	assert_int_equal(kprof_console_line(&p, "kbench profile s 1 clock 9\n", "c", 2), 0);
	assert_int_equal(kprof_add_diff(&p, "d=s-r/2"), 0);
	assert_int_equal(kprof_add_diff(&p, "d=s-r"), -1);
	assert_int_equal(kprof_add_diff(&p, "d=s-nope/2"), -1);
	assert_string_equal(p.err, "`d=s-nope/2`: no region nope");
	char *text = report_text(&p);
	const char *want =
		"exec log: 23 lines, 1441 bytes, read as a stream\n"
		"\n"
		"region r: 2 iterations in 1 bracket, 6 instructions, 3.0 per iteration\n"
		"  the guest's own measure (the process's CPU time) from its read before the bracket to its read "
		"after: 14, 7.0 per iteration (log - measure: -8, -4.0 per iteration)\n"
		"  kernel 1.0 (33.3%), program 2.0 (66.7%)\n"
		"      per iter   share   entries  space    function\n"
		"           1.5   50.0%       0.0  program  main\n"
		"           1.0   33.3%       0.5  kernel   sched_pick\n"
		"           0.5   16.7%       0.5  program  kprof_begin_r\n"
		"\n"
		"region s: 1 iteration in 1 bracket, 9 instructions, 9.0 per iteration\n"
		"  the guest's own measure (node clock) from its read before the bracket to its read after: 9, "
		"9.0 per iteration (log - measure: 0, +0.0 per iteration)\n"
		"  kernel 4.0 (44.4%), program 5.0 (55.6%)\n"
		"      per iter   share   entries  space    function\n"
		"           4.0   44.4%       4.0  program  main\n"
		"           2.0   22.2%       1.0  kernel   sched_pick\n"
		"           1.0   11.1%       1.0  program  kprof_begin_s\n"
		"           1.0   11.1%       1.0  kernel   twice (0x100064)\n"
		"           1.0   11.1%       1.0  kernel   twice (0x100068)\n"
		"\n"
		"derived d = (s - r) / 2: 3.0 per iteration (by the guest's own measures: 1.0)\n"
		"  kernel 1.5 (50.0%), program 1.5 (50.0%)\n"
		"      per iter   share   entries  space    function\n"
		"           1.2   41.7%       2.0  program  main\n"
		"           0.5   16.7%       0.5  program  kprof_begin_s\n"
		"           0.5   16.7%       0.2  kernel   sched_pick\n"
		"           0.5   16.7%       0.5  kernel   twice (0x100064)\n"
		"           0.5   16.7%       0.5  kernel   twice (0x100068)\n"
		"          -0.2   -8.3%      -0.2  program  kprof_begin_r\n"
		"\n";
	assert_string_equal(text, want);
	free(text);
	kprof_free(&p);
}

static void test_a_region_the_console_does_not_report_is_refused(void **state)
{
	(void)state;
	struct kprof p;
	load(&p);
	run_log(&p);
	feed(&p, trace(0x40012008));
	feed(&p, trace(0x4001200c));
	assert_int_equal(kprof_console_line(&p, "kbench profile r 2 cpu 14\n", "c", 1), 0);
	FILE *out = fopen("/dev/null", "w");
	assert_int_equal(kprof_report(&p, out), -1);
	fclose(out);
	kprof_free(&p);
}

/* One region of two selected (a cluster node runs one part of kbench):
 * the other's markers are data, its console line is passed over and it
 * need not run; a region the program lacks, or a selection after the
 * tables, is refused. */
static void test_a_selected_region_alone_is_profiled(void **state)
{
	(void)state;
	struct kprof p;
	kprof_init(&p);
	assert_int_equal(kprof_select(&p, "r"), 0);
	for (size_t i = 0; i < sizeof KERNEL / sizeof *KERNEL; i++)
		assert_int_equal(kprof_symbol_line(&p, KERNEL[i], KPROF_KERNEL, 0, "k.nm", i + 1), 0);
	for (size_t i = 0; i < sizeof USER / sizeof *USER; i++)
		assert_int_equal(kprof_symbol_line(&p, USER[i], KPROF_USER, 0, "u.nm", i + 1), 0);
	assert_int_equal(kprof_symbols_done(&p), 0);
	assert_int_equal(p.nregions, 1);
	assert_int_equal(kprof_region(&p, "s"), -1);
	assert_int_equal(kprof_select(&p, "s"), -1);
	assert_string_equal(p.err, "regions must be selected before the symbol tables are read");
	run_log(&p);
	feed(&p, trace(0x40012008)); /* s's markers: not brackets */
	feed(&p, trace(0x40000012));
	feed(&p, trace(0x4001200c));
	assert_int_equal(kprof_log_done(&p), 0);
	assert_int_equal(p.regions[0].total, 6);
	assert_int_equal(kprof_console_line(&p, "kbench profile s 2 clock 100\n", "c", 1), 0);
	assert_int_equal(kprof_console_line(&p, "kbench profile r 2 clock 12\n", "c", 2), 0);
	assert_int_equal(p.regions[0].iterations, 2);
	FILE *out = fopen("/dev/null", "w");
	assert_int_equal(kprof_report(&p, out), 0);
	fclose(out);
	kprof_free(&p);

	kprof_init(&p);
	assert_int_equal(kprof_select(&p, "q"), 0);
	for (size_t i = 0; i < sizeof USER / sizeof *USER; i++)
		assert_int_equal(kprof_symbol_line(&p, USER[i], KPROF_USER, 0, "u.nm", i + 1), 0);
	assert_int_equal(kprof_symbols_done(&p), -1);
	assert_string_equal(p.err, "region q was selected but the program has no marker kprof_begin_q");
	kprof_free(&p);
}

/* Tables made with `nm -l`: each function's file, the report summed by
 * file under the directory all share; a bad FILE:LINE is named. */
static void test_source_files_sum_the_report(void **state)
{
	(void)state;
	static const char *const k[] = {
		"00100000 00000010 T a\t/src/k/x.c:3\n",
		"00100010 00000010 t b\t/src/k/x.c:9\n",
		"00100020 00000010 T c\t/src/lib/y.c:1\n",
		"00100030 00000010 T d\n", /* no debug information */
	};
	static const char *const u[] = {
		"40000000 00000010 T main\t/src/u/m.c:5\n",
		"40012000 00000004 D kprof_begin_r\n",
		"40012004 00000004 D kprof_end_r\n",
	};
	struct kprof p;
	kprof_init(&p);
	for (size_t i = 0; i < sizeof k / sizeof *k; i++)
		assert_int_equal(kprof_symbol_line(&p, k[i], KPROF_KERNEL, 0, "k.nm", i + 1), 0);
	for (size_t i = 0; i < sizeof u / sizeof *u; i++)
		assert_int_equal(kprof_symbol_line(&p, u[i], KPROF_USER, 0, "u.nm", i + 1), 0);
	assert_int_equal(kprof_symbols_done(&p), 0);
	assert_string_equal(p.syms[kprof_lookup(&p, 0x100014)].file, "/src/k/x.c");
	assert_string_equal(p.syms[kprof_lookup(&p, 0x100014)].name, "b");
	feed(&p, trace(0x40012000));
	const uint32_t pcs[] = { 0x100000, 0x100001, 0x100010, 0x100020, 0x100030, 0x40000000 };
	for (size_t i = 0; i < sizeof pcs / sizeof *pcs; i++)
		feed(&p, trace(pcs[i]));
	feed(&p, trace(0x40012004));
	assert_int_equal(kprof_log_done(&p), 0);
	assert_int_equal(kprof_console_line(&p, "kbench profile r 1 clock 7\n", "c", 1), 0);
	char *text = report_text(&p);
	const char *want =
		"  by source file (under /src/):\n"
		"           3.0   42.9%  k/x.c\n"
		"           1.0   14.3%  (kernel, no source file)\n"
		"           1.0   14.3%  (program, no source file)\n"
		"           1.0   14.3%  lib/y.c\n"
		"           1.0   14.3%  u/m.c\n";
	if (!strstr(text, want))
		fail_msg("no by-file table in:\n%s", text);
	free(text);
	kprof_free(&p);

	kprof_init(&p);
	assert_int_equal(kprof_symbol_line(&p, "00100000 T a\t/src/x.c\n", KPROF_KERNEL, 0, "k.nm", 4), -1);
	assert_string_equal(p.err, "k.nm:4:14: expected FILE:LINE after the name's tab (nm -l)");
	assert_int_equal(kprof_symbol_line(&p, "00100000 T a\t:12\n", KPROF_KERNEL, 0, "k.nm", 5), -1);
	assert_int_equal(p.nsyms, 0);
	kprof_free(&p);
}

static void test_dfilter_leaves_out_the_named_functions(void **state)
{
	(void)state;
	struct kprof p;
	load(&p);
	const char *skip[] = { "memcpy" };
	char *ranges = kprof_dfilter(&p, skip, 1);
	assert_string_equal(ranges, "0x100000+0x30,0x100040+0x2c,0x40000000+0x12010");
	free(ranges);
	const char *nope[] = { "nope" };
	assert_null(kprof_dfilter(&p, nope, 1));
	assert_string_equal(p.err, "no function nope in the kernel's table");
	kprof_free(&p);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_symbols_map_each_pc_to_one_function),
		cmocka_unit_test(test_arm_mapping_symbols_go_and_thumb_bit_clears),
		cmocka_unit_test(test_malformed_symbol_lines_are_named),
		cmocka_unit_test(test_tables_that_cannot_name_a_pc_are_refused),
		cmocka_unit_test(test_the_log_counts_regions_and_takes_back),
		cmocka_unit_test(test_a_stopped_marker_is_taken_back_with_its_bracket),
		cmocka_unit_test(test_malformed_log_lines_are_named),
		cmocka_unit_test(test_a_log_that_ends_inside_a_region_is_refused),
		cmocka_unit_test(test_console_lines_give_iterations_and_measure),
		cmocka_unit_test(test_the_report_sorts_per_iteration_and_derives),
		cmocka_unit_test(test_a_region_the_console_does_not_report_is_refused),
		cmocka_unit_test(test_a_selected_region_alone_is_profiled),
		cmocka_unit_test(test_source_files_sum_the_report),
		cmocka_unit_test(test_dfilter_leaves_out_the_named_functions),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
