/*
 * tests/unit/test_cluster_mtime.c - the delivery-time table of a cluster
 * (qemu/cluster/cluster_mtime.h): the model's figures worked out by hand
 * for the LAN, the 1984 preset and given costs; which table a cluster gets
 * in each clock, with a stale one removed when there is none.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <cmocka.h>

#include "qemu/cluster/cluster_mtime.h"

static struct cluster_spec spec;
static char err[512], dir[64], path[128], what[512];

static int setup(void **state)
{
	(void)state;
	snprintf(dir, sizeof dir, "/tmp/dpm-test-cluster-mtime-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(path, sizeof path, "%s/mtime.csv", dir);
	return 0;
}

static int teardown(void **state)
{
	(void)state;
	char bench[128];
	snprintf(bench, sizeof bench, "%s/bench.csv", dir);
	unlink(path);
	unlink(bench);
	rmdir(dir);
	return 0;
}

static void load(const char *text)
{
	assert_int_equal(cluster_parse("t.cluster", text, &spec, err, sizeof err), 0);
}

static void model(uint32_t bytes, uint64_t local, uint64_t remote)
{
	uint64_t l, r;
	cluster_mtime_model(&spec, &spec.nodes[0], bytes, &l, &r);
	assert_int_equal(l, local);
	assert_int_equal(r, remote);
}

static void test_model_by_hand(void **state)
{
	(void)state;
	/* LAN: 1 byte is a 187-byte frame, 1496 ns at 1 Gb/s, + 20 us, + the
	 * kernels' 1062 instructions; a local delivery is the switch alone */
	load("node a clock=virtual\n");
	model(1, 75, 1062 + 1496 + 20000);
	/* between measured sizes the kernels' part is interpolated:
	 * 1086 + (1311 - 1086) * 450 / 900, rounded to the nearest */
	model(550, 75, 1199 + (550 + 186) * 8 + 20000);
	/* 1984: 1.024 us an instruction; 1186 bytes at 3 Mb/s are 3162.667 us;
	 * the preset's fitted paths, 100 us + 4.5 ms per 1000 bytes each side:
	 * 100 + 5337 us.  Its copying (copycost) is the processes' CPU, in
	 * their traces, not a delivery's */
	load("cluster net=1984\nnode a clock=virtual\n");
	model(1000, 75 * 1024, 1311ull * 1024 + 3162667 + 100000 + 2 * (100000 + 5337000));
	/* nor any copycost; the path interpolated: 1062 + (3 * 2 + 4) / 9 */
	load("cluster copycost=2500ns\nnode a clock=virtual\n");
	model(3, 75, 1063 + (3 + 186) * 8 + 20000);
	/* costs per side: 8 us + 2 us per 1000 bytes of a 286-byte frame */
	load("cluster txcost=8us,2us rxcost=3us\nnode a clock=virtual shift=1\n");
	model(100, 75 * 2, 1086 * 2 + 8000 + 572 + 2288 + 20000 + 3000);
}

static void transport(uint32_t bytes, uint64_t tx, uint64_t rx, uint64_t link)
{
	uint64_t t, r, l;
	cluster_mtime_transport(&spec, &spec.nodes[0], bytes, &t, &r, &l);
	assert_int_equal(t, tx);
	assert_int_equal(r, rx);
	assert_int_equal(l, link);
}

static void test_transport_by_hand(void **state)
{
	(void)state;
	load("node a clock=virtual\n");
	/* the link: 187 and 736 bytes at 1 Gb/s */
	transport(1, 491, 823, 1496);
	transport(0, 491, 823, 1488);   /* a 186-byte frame */
	/* interpolated: 847 + (1071 - 847) * 450 / 900 */
	transport(550, 491, 959, 5888);
	/* in instructions: 2^shift ns each */
	load("cluster net=1984\nnode a clock=virtual\n");
	transport(1000, 491ull * 1024, 1071ull * 1024, 3162667);
}

static char *slurp(const char *p)
{
	static char buf[4096];
	FILE *f = fopen(p, "r");
	assert_non_null(f);
	size_t n = fread(buf, 1, sizeof buf - 1, f);
	fclose(f);
	buf[n] = '\0';
	return buf;
}

static void test_virtual_time_computes_the_table(void **state)
{
	(void)state;
	load("node a clock=virtual\n");
	assert_int_equal(cluster_mtime_write(&spec, NULL, path, what, sizeof what), 1);
	const char *t = slurp(path);
	assert_true(!strncmp(t, "# clock=virtual\n# computed by dpm cluster", 40));
	assert_non_null(strstr(t, "\nsize_bytes,local_ns,remote_ns,remote_tx_ns,remote_rx_ns,remote_wire_ns,"
				  "tick_ns\n"
				  "1,75,22558,491,823,1496,1448\n10,75,22633,491,826,1568,1448\n"
				  "100,75,23374,491,847,2288,1448\n1000,75,30799,491,1071,9488,1448\n"
				  "4096,75,56341,491,1843,34256,1448\n"));
}

/* A measured table, as make bench-mtime writes one: its path. */
static const char *write_bench(void)
{
	static char bench[128];
	snprintf(bench, sizeof bench, "%s/bench.csv", dir);
	FILE *f = fopen(bench, "w");
	assert_non_null(f);
	fputs("size_bytes,local_ns,remote_ns\n1,10,100\n", f);
	fclose(f);
	return bench;
}

static void test_other_clocks(void **state)
{
	(void)state;
	const char *bench = write_bench();
	/* plain: the measured table, said to be plain emulation's */
	load("node a\n");
	assert_int_equal(cluster_mtime_write(&spec, bench, path, what, sizeof what), 1);
	char want[512];
	snprintf(want, sizeof want, "# clock=plain\n# measured by make bench-mtime: %s\n"
		 "size_bytes,local_ns,remote_ns\n1,10,100\n", bench);
	assert_string_equal(slurp(path), want);
	/* icount: none, and the plain one just written is gone */
	load("node a clock=icount\nnode b clock=icount\n");
	assert_int_equal(cluster_mtime_write(&spec, bench, path, what, sizeof what), 0);
	assert_non_null(strstr(what, "clock=icount"));
	assert_int_equal(access(path, F_OK), -1);
	/* plain without a measured table: none */
	load("node a\n");
	assert_int_equal(cluster_mtime_write(&spec, NULL, path, what, sizeof what), 0);
	snprintf(want, sizeof want, "%s/none.csv", dir);
	assert_int_equal(cluster_mtime_write(&spec, want, path, what, sizeof what), 0);
	assert_int_equal(access(path, F_OK), -1);
	/* different clocks: none (a node booted elsewhere does not count) */
	load("node a\nnode b clock=icount\n");
	assert_int_equal(cluster_mtime_write(&spec, bench, path, what, sizeof what), 0);
	assert_string_equal(what, "none: the nodes run different clocks");
	load("node a\nnode b clock=icount boot=no\n");
	assert_int_equal(cluster_mtime_write(&spec, bench, path, what, sizeof what), 1);
}

static void test_copy_with_a_comment(void **state)
{
	(void)state;
	const char *bench = write_bench();
	assert_int_equal(cluster_mtime_copy(bench, path, "given to dpm record: x", err, sizeof err), 0);
	assert_string_equal(slurp(path), "# given to dpm record: x\nsize_bytes,local_ns,remote_ns\n1,10,100\n");
	assert_int_equal(cluster_mtime_copy(bench, path, NULL, err, sizeof err), 0);
	assert_string_equal(slurp(path), "size_bytes,local_ns,remote_ns\n1,10,100\n");
	assert_int_equal(cluster_mtime_copy("/nonexistent/t.csv", path, NULL, err, sizeof err), -1);
	assert_string_equal(err, "/nonexistent/t.csv: No such file or directory");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_model_by_hand),
		cmocka_unit_test(test_transport_by_hand),
		cmocka_unit_test(test_virtual_time_computes_the_table),
		cmocka_unit_test(test_other_clocks),
		cmocka_unit_test(test_copy_with_a_comment),
	};
	return cmocka_run_group_tests(tests, setup, teardown);
}
