/*
 * tests/unit/test_cluster_file.c - the cluster file: what a good file
 * gives (defaults, ids, quoting), the exact file:line:col message of each
 * kind of mistake, and growing or cutting a cluster with --nodes.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "qemu/cluster/cluster_file.h"

static struct cluster_spec spec;
static char err[1024];

static int parse(const char *text)
{
	err[0] = '\0';
	return cluster_parse("c.cluster", text, &spec, err, sizeof err);
}

static void assert_error(const char *text, const char *message)
{
	if (parse(text) != -1)
		fail_msg("accepted: %s", text);
	assert_string_equal(err, message);
}

static void test_default_file_is_four_idle_x86_nodes_and_a_filter(void **state)
{
	(void)state;
	struct cluster_spec s;
	assert_int_equal(cluster_load("qemu/cluster/default.cluster", &s, err, sizeof err), 0);
	assert_int_equal(s.nnodes, 4);
	assert_int_equal(s.nservices, 1);
	assert_string_equal(s.services[0].name, "meter");
	assert_int_equal(s.services[0].port, 0);
	assert_string_equal(s.services[0].start, "{dpm} filter --port {port} -o {dir}/meter.log");
	for (int i = 0; i < 4; i++) {
		char name[8];
		snprintf(name, sizeof name, "n%d", i + 1);
		assert_string_equal(s.nodes[i].name, name);
		assert_int_equal(s.nodes[i].id, i + 1);
		assert_int_equal(s.nodes[i].arch, CLUSTER_X86);
		assert_int_equal(s.nodes[i].memory_mib, 64);
		assert_string_equal(s.nodes[i].init, "");
	}
}

static void test_attributes_defaults_and_quoting(void **state)
{
	(void)state;
	assert_int_equal(parse("# a comment\n"
			       "node a memory=32 init=\"--halt hello\"   # trailing comment\n"
			       "\n"
			       "  node b id=5 kernel=\"peertimeout=500 peerwait=1000\"\n"
			       "node c init=\"say \\\"hi\\\"\"\n"
			       "service meter port=0 start=\"dpm filter --port {port} -o {dir}/m.log\"\n"
			       "service ctl port=7001\n"),
			 0);
	assert_int_equal(spec.nnodes, 3);
	assert_string_equal(spec.nodes[0].name, "a");
	assert_int_equal(spec.nodes[0].id, 1);
	assert_int_equal(spec.nodes[0].memory_mib, 32);
	assert_string_equal(spec.nodes[0].init, "--halt hello");
	assert_int_equal(spec.nodes[0].line, 2);
	assert_int_equal(spec.nodes[1].id, 5);
	assert_int_equal(spec.nodes[1].memory_mib, CLUSTER_DEFAULT_MEMORY);
	assert_string_equal(spec.nodes[1].kernel, "peertimeout=500 peerwait=1000");
	assert_int_equal(spec.nodes[2].id, 2); /* lowest id nobody asked for */
	assert_string_equal(spec.nodes[2].init, "say \"hi\"");
	assert_int_equal(spec.nservices, 2);
	assert_int_equal(spec.services[0].port, 0);
	assert_string_equal(spec.services[0].start, "dpm filter --port {port} -o {dir}/m.log");
	assert_int_equal(spec.services[1].port, 7001);
	assert_string_equal(spec.services[1].start, "");
	/* nodes authenticate to what `up` starts and to the hub, by default */
	assert_true(cluster_service_auth(&spec.services[0]));
	assert_true(cluster_service_auth(&spec.services[1]));
	assert_int_equal(parse("node a\nservice x port=7002\nservice y port=7003 auth=yes\n"
			       "service z port=0 start=\"srv {port}\" auth=no\nservice e port=7004 cmd=cat\n"), 0);
	assert_false(cluster_service_auth(&spec.services[0]));
	assert_true(cluster_service_auth(&spec.services[1]));
	assert_false(cluster_service_auth(&spec.services[2]));
	assert_false(cluster_service_auth(&spec.services[3]));
}

/* cmd=: a service QEMU runs for each connection a node makes (no listener). */
static void test_per_connection_service(void **state)
{
	(void)state;
	assert_int_equal(parse("node a\nservice echo port=7001 cmd=\"head -c 100\"\n"), 0);
	assert_int_equal(spec.nservices, 1);
	assert_string_equal(spec.services[0].cmd, "head -c 100");
	assert_string_equal(spec.services[0].start, "");
	assert_int_equal(spec.services[0].port, 7001);
}

static void test_nodes_booted_elsewhere(void **state)
{
	(void)state;
	assert_int_equal(parse("node a\nnode b boot=no\nnode c boot=yes\n"), 0);
	assert_int_equal(spec.nnodes, 3);
	assert_false(spec.nodes[0].remote);
	assert_true(spec.nodes[1].remote);
	assert_false(spec.nodes[2].remote);
}

static void test_explicit_id_later_in_file_is_kept(void **state)
{
	(void)state;
	assert_int_equal(parse("node a\nnode b id=1\n"), 0);
	assert_int_equal(spec.nodes[0].id, 2);
	assert_int_equal(spec.nodes[1].id, 1);
}

static void test_statement_errors(void **state)
{
	(void)state;
	assert_error("nod a\n", "c.cluster:1:1: unknown statement 'nod'; expected 'node', 'service' or 'cluster'");
	assert_error("node a\n  = x\n", "c.cluster:2:3: unexpected '='; expected 'node', 'service' or 'cluster'");
	assert_error("node\n", "c.cluster:1:5: expected a name after 'node'");
	assert_error("node 1a\n", "c.cluster:1:6: bad name '1a': a name is a letter, then letters, "
				 "digits, '-' or '_', at most 16 characters");
	assert_error("node abcdefghijklmnopq\n",
		     "c.cluster:1:6: bad name 'abcdefghijklmnopq': a name is a letter, then letters, "
		     "digits, '-' or '_', at most 16 characters");
	assert_error("node switch\n", "c.cluster:1:6: the name 'switch' is reserved");
	assert_error("node a\nservice a port=1\n", "c.cluster:2:9: the name 'a' is already used at line 1");
	assert_error("# nothing\n", "c.cluster:2:1: the cluster has no nodes");
	assert_error("", "c.cluster:1:1: the cluster has no nodes");
}

static void test_attribute_errors(void **state)
{
	(void)state;
	assert_error("node a ram=4\n", "c.cluster:1:8: unknown node attribute 'ram'; expected id, arch, "
				       "memory, init, kernel, boot, disk, clock or shift");
	assert_error("node a clock=fast\n", "c.cluster:1:8: clock must be plain, icount or virtual, not 'fast'");
	assert_error("node a clock=virtual\nnode b\n",
		     "c.cluster:2:1: clock=virtual on every node or on none");
	assert_error("node a\nnode b clock=virtual\n",
		     "c.cluster:2:1: clock=virtual on every node or on none");
	/* virtual time across nodes (kernel/net/vlink.c): every node in it */
	assert_int_equal(parse("node a clock=virtual\nnode b arch=arm clock=virtual\n"), 0);
	assert_int_equal(spec.nnodes, 2);
	assert_true(spec.nodes[0].vclock && spec.nodes[1].vclock);
	assert_error("node a kernel=\"vclock=1\"\n",
		     "c.cluster:1:8: kernel word 'vclock=1' is set by dpm cluster itself");
	assert_error("node a boot=maybe\n", "c.cluster:1:8: boot must be yes or no, not 'maybe'");
	assert_error("node a boot=no\n", "c.cluster:2:1: the cluster has no nodes to boot on this host");
	assert_error("service s host=4\n",
		     "c.cluster:1:11: unknown service attribute 'host'; expected port, start, cmd or auth");
	assert_error("service s port=1 auth=maybe\n", "c.cluster:1:18: auth must be yes or no, not 'maybe'");
	assert_error("node a id\n", "c.cluster:1:10: expected '=' after 'id'");
	assert_error("node a \"x\"\n", "c.cluster:1:8: expected an attribute (key=value), found '\"'");
	assert_error("node a init=\"--halt\n", "c.cluster:1:13: unterminated string");
	assert_error("node a init=x\"y\n",
		     "c.cluster:1:14: unexpected '\"' in the value of 'init' (quote the value)");
	assert_error("node a id=1 id=2\n", "c.cluster:1:13: attribute 'id' given twice");
}

static void test_virtual_time_models(void **state)
{
	(void)state;
	uint64_t v[VT_FIELDS];
	assert_int_equal(parse("node a clock=virtual\n"), 0);
	cluster_vtime_resolve(&spec.vtime, v);
	assert_int_equal(v[VT_LATENCY], 20000);
	assert_int_equal(v[VT_BANDWIDTH], 1000000000);
	assert_int_equal(v[VT_DISK_LATENCY], 4000000);
	assert_int_equal(v[VT_DISK_SECTOR], 5000);
	assert_int_equal(cluster_node_shift(&spec, &spec.nodes[0]), 0);
	assert_int_equal(parse("node a clock=virtual\ncluster net=1984\n"), 0);
	cluster_vtime_resolve(&spec.vtime, v);
	assert_int_equal(v[VT_LATENCY], 100000);
	assert_int_equal(v[VT_BANDWIDTH], 3000000);
	assert_int_equal(v[VT_TX_FIXED] + v[VT_TX_PER_KB] + v[VT_RX_FIXED] + v[VT_RX_PER_KB], 9200000);
	assert_int_equal(v[VT_STOPS], 10000000);
	assert_int_equal(v[VT_COPY], 4300000);      /* a VAX's copying (docs/virtual-time.md §2.4) */
	assert_int_equal(cluster_node_shift(&spec, &spec.nodes[0]), 10);
	assert_int_equal(parse("cluster net=1984 txcost=1us,250ns rxcost=0.5us disksector=1s\n"
			       "node a clock=virtual shift=0\n"), 0);
	cluster_vtime_resolve(&spec.vtime, v);
	assert_int_equal(v[VT_TX_FIXED], 1000);
	assert_int_equal(v[VT_TX_PER_KB], 250);
	assert_int_equal(v[VT_RX_FIXED], 500);
	assert_int_equal(v[VT_RX_PER_KB], 0);
	assert_int_equal(v[VT_DISK_SECTOR], 1000000000);
	assert_int_equal(v[VT_COPY], 4300000);
	assert_int_equal(cluster_node_shift(&spec, &spec.nodes[0]), 0); /* its own beats the preset */
	assert_int_equal(parse("cluster net=1984 copycost=0\nnode a clock=virtual\n"), 0);
	cluster_vtime_resolve(&spec.vtime, v);
	assert_int_equal(v[VT_COPY], 0);
	assert_int_equal(parse("cluster copycost=2.5us\nnode a clock=virtual\n"), 0);
	cluster_vtime_resolve(&spec.vtime, v);
	assert_int_equal(v[VT_COPY], 2500);
}

static void test_units(void **state)
{
	(void)state;
	uint64_t x;
	assert_int_equal(cluster_parse_time("20us", &x), 0);
	assert_int_equal(x, 20000);
	assert_int_equal(cluster_parse_time("4ms", &x), 0);
	assert_int_equal(x, 4000000);
	assert_int_equal(cluster_parse_time("2.5s", &x), 0);
	assert_int_equal(x, 2500000000ull);
	assert_int_equal(cluster_parse_time("7ns", &x), 0);
	assert_int_equal(x, 7);
	assert_int_equal(cluster_parse_time("0", &x), 0);
	assert_int_equal(x, 0);
	assert_int_equal(cluster_parse_time("100s", &x), 0);
	assert_int_equal(cluster_parse_time("101s", &x), -1);
	assert_int_equal(cluster_parse_time("20", &x), -1);     /* no unit */
	assert_int_equal(cluster_parse_time("1.5ns", &x), -1);  /* not whole ns */
	assert_int_equal(cluster_parse_time("1.us", &x), -1);
	assert_int_equal(cluster_parse_time("us", &x), -1);
	assert_int_equal(cluster_parse_time("20 us", &x), -1);
	assert_int_equal(cluster_parse_time("-1us", &x), -1);
	assert_int_equal(cluster_parse_time("99999999999999999999s", &x), -1);
	assert_int_equal(cluster_parse_rate("3M", &x), 0);
	assert_int_equal(x, 3000000);
	assert_int_equal(cluster_parse_rate("1000M", &x), 0);
	assert_int_equal(x, 1000000000);
	assert_int_equal(cluster_parse_rate("1.5G", &x), 0);
	assert_int_equal(x, 1500000000);
	assert_int_equal(cluster_parse_rate("64k", &x), 0);
	assert_int_equal(x, 64000);
	assert_int_equal(cluster_parse_rate("9600", &x), 0);
	assert_int_equal(x, 9600);
	assert_int_equal(cluster_parse_rate("0", &x), -1);
	assert_int_equal(cluster_parse_rate("0.5", &x), -1);
	assert_int_equal(cluster_parse_rate("3m", &x), -1);
	assert_int_equal(cluster_parse_rate("3Mb", &x), -1);
	assert_int_equal(cluster_parse_rate("1001G", &x), -1);
}

static void test_virtual_time_errors(void **state)
{
	(void)state;
	assert_error("node a clock=virtual\ncluster net=1985\n",
		     "c.cluster:2:9: net must be lan or 1984, not '1985'");
	assert_error("node a clock=virtual\ncluster latency=20\n",
		     "c.cluster:2:9: latency must be a time with its unit, ns, us, ms or s (up to 100s), "
		     "e.g. 20us, not '20'");
	assert_error("node a clock=virtual\ncluster bandwidth=fast\n",
		     "c.cluster:2:9: bandwidth must be bits per second, a number bare or with k, M or G "
		     "(up to 1000G), e.g. 1000M, not 'fast'");
	assert_error("node a clock=virtual\ncluster txcost=1us,2\n",
		     "c.cluster:2:9: txcost must be a time per frame and, after a comma, one per 1000 "
		     "bytes (ns, us, ms or s), e.g. 5us,2us, not '1us,2'");
	assert_error("node a clock=virtual\ncluster rxcost=1us,2us,3us\n",
		     "c.cluster:2:9: rxcost must be a time per frame and, after a comma, one per 1000 "
		     "bytes (ns, us, ms or s), e.g. 5us,2us, not '1us,2us,3us'");
	assert_error("node a clock=virtual\ncluster disklatency=4\n",
		     "c.cluster:2:9: disklatency must be a time with its unit, ns, us, ms or s (up to "
		     "100s), e.g. 4ms, not '4'");
	assert_error("node a clock=virtual\ncluster disksector=5 us\n",
		     "c.cluster:2:9: disksector must be a time with its unit, ns, us, ms or s (up to "
		     "100s), e.g. 5us, not '5'");
	assert_error("node a clock=virtual\ncluster speed=2\n",
		     "c.cluster:2:9: unknown cluster attribute 'speed'; expected net, latency, bandwidth, "
		     "txcost, rxcost, disklatency, disksector, stops or copycost");
	assert_error("node a clock=virtual\ncluster stops=0\n",
		     "c.cluster:2:9: stops must be above 0, e.g. 100us, not '0'");
	assert_error("node a clock=virtual\ncluster latency=1us latency=2us\n",
		     "c.cluster:2:21: attribute 'latency' given twice");
	assert_error("node a clock=virtual\ncluster net=lan\n  cluster net=1984\n",
		     "c.cluster:3:3: a second 'cluster' statement (the first is at line 2)");
	assert_error("node a clock=virtual shift=11\n",
		     "c.cluster:1:22: shift must be a number from 0 to 10 (2^S ns an instruction), not '11'");
	assert_error("node a clock=virtual shift=x\n",
		     "c.cluster:1:22: shift must be a number from 0 to 10 (2^S ns an instruction), not 'x'");
	assert_error("node a shift=-1 clock=virtual\n",
		     "c.cluster:1:8: shift must be a number from 0 to 10 (2^S ns an instruction), not '-1'");
	/* refused under the other clocks, with where they were given */
	assert_error("node a shift=2\n",
		     "c.cluster:1:8: shift= applies under clock=virtual only; node 'a' has clock=plain");
	assert_error("node a clock=icount memory=32 shift=2\n",
		     "c.cluster:1:31: shift= applies under clock=virtual only; node 'a' has clock=icount");
	assert_error("# plain\n cluster net=1984\nnode a clock=icount\n",
		     "c.cluster:2:2: the 'cluster' statement sets virtual time's models, which apply under "
		     "clock=virtual only, and no node has clock=virtual");
	assert_error("node a kernel=\"vlat=5\" clock=virtual\n",
		     "c.cluster:1:8: kernel word 'vlat=5' is set by dpm cluster itself");
	assert_error("node a kernel=\"vdisk=1,2\"\n",
		     "c.cluster:1:8: kernel word 'vdisk=1,2' is set by dpm cluster itself");
}

static void test_arch_arm_and_x86_mix(void **state)
{
	(void)state;
	assert_int_equal(parse("node a arch=arm\nnode b arch=x86\nnode c\n"), 0);
	assert_int_equal(spec.nodes[0].arch, CLUSTER_ARM);
	assert_int_equal(spec.nodes[1].arch, CLUSTER_X86);
	assert_int_equal(spec.nodes[2].arch, CLUSTER_X86);
	assert_string_equal(cluster_arch_name(spec.nodes[0].arch), "arm");
}

static void test_value_errors(void **state)
{
	(void)state;
	assert_error("node a id=9\n", "c.cluster:1:8: id must be a number from 1 to 8, not '9'");
	assert_error("node a id=\n", "c.cluster:1:8: id must be a number from 1 to 8, not ''");
	assert_error("node a id=1\nnode b id=1\n", "c.cluster:2:8: id 1 is already used by 'a' at line 1");
	assert_error("node a id=1\n\n   node b id=1\n",
		     "c.cluster:3:11: id 1 is already used by 'a' at line 1");
	assert_error("node a memory=8\n",
		     "c.cluster:1:8: memory must be a number of MiB from 16 to 2048, not '8'");
	assert_error("node a memory=64M\n",
		     "c.cluster:1:8: memory must be a number of MiB from 16 to 2048, not '64M'");
	assert_error("node a arch=sparc\n", "c.cluster:1:8: unknown arch 'sparc'; expected x86 or arm");
	assert_error("node a init=\"hello x=1\"\n",
		     "c.cluster:1:8: init argument 'x=1' contains '=', which makes it a kernel word");
	assert_error("node a kernel=verbose\n", "c.cluster:1:8: kernel word 'verbose' is not key=value");
	assert_error("node a kernel=\"peerwait=9 peers=1,2\"\n",
		     "c.cluster:1:8: kernel word 'peers=1,2' is set by dpm cluster itself");
	assert_error("node a kernel=node=3\n",
		     "c.cluster:1:8: kernel word 'node=3' is set by dpm cluster itself");
	assert_error("node a kernel=peerwait=500 init=x\"\n",
		     "c.cluster:1:34: unexpected '\"' in the value of 'init' (quote the value)");
	assert_error("node a\nservice s port=65536\n",
		     "c.cluster:2:11: port must be a number from 0 to 65535, not '65536'");
	assert_error("node a\nservice s port=7000\nservice t port=7000\n",
		     "c.cluster:3:11: port 7000 is already used by 's' at line 2");
	assert_error("node a\nservice s start=\"\"\n", "c.cluster:2:11: start must name a command");
	assert_error("node a\nservice s cmd=\"\"\n", "c.cluster:2:11: cmd must name a command");
	assert_error("node a\nservice s start=x cmd=\"cat\"\n",
		     "c.cluster:2:19: a service has start= (a listener dpm starts) or cmd= (a command "
		     "QEMU runs for each connection), not both");
	assert_error("node a\nservice s cmd=cat start=x\n",
		     "c.cluster:2:19: a service has start= (a listener dpm starts) or cmd= (a command "
		     "QEMU runs for each connection), not both");
	assert_error("node a\nservice controller12 port=1\n",
		     "c.cluster:2:9: service name 'controller12' is longer than 11 characters (the "
		     "kernel's limit)");
}

static void test_limits(void **state)
{
	(void)state;
	char text[512] = "";
	for (int i = 1; i <= 9; i++)
		snprintf(text + strlen(text), sizeof text - strlen(text), "node n%d\n", i);
	assert_error(text, "c.cluster:9:1: more than 8 nodes");
	assert_error("node a\nservice a1\nservice a2\nservice a3\nservice a4\nservice a5\n",
		     "c.cluster:6:1: more than 4 services");
	char big[700];
	memset(big, 'x', sizeof big);
	memcpy(big, "node a init=", 12);
	strcpy(big + 12 + 256, "\n");
	assert_error(big, "c.cluster:1:8: value of 'init' is longer than 255 characters");
	memset(big + 12, 'x', 600);
	strcpy(big + 12 + 512, "\n");
	assert_error(big, "c.cluster:1:13: value of 'init' is longer than 511 characters");
}

static void test_unreadable_file(void **state)
{
	(void)state;
	struct cluster_spec s;
	assert_int_equal(cluster_load("/nonexistent/x.cluster", &s, err, sizeof err), -1);
	assert_string_equal(err, "/nonexistent/x.cluster: No such file or directory");
}

static void test_node_count_cuts_or_extends(void **state)
{
	(void)state;
	assert_int_equal(parse("node a id=2 memory=32 kernel=peerwait=500 init=hello\nnode b id=1\n"
			       "node c id=4 memory=48 init=\"--halt hello\"\n"),
			 0);
	struct cluster_spec copy = spec;
	assert_int_equal(cluster_set_node_count(&spec, 2, err, sizeof err), 0);
	assert_int_equal(spec.nnodes, 2);
	assert_string_equal(spec.nodes[1].name, "b");

	spec = copy;
	assert_int_equal(cluster_set_node_count(&spec, 5, err, sizeof err), 0);
	assert_int_equal(spec.nnodes, 5);
	assert_string_equal(spec.nodes[3].name, "n3");
	assert_int_equal(spec.nodes[3].id, 3);
	assert_string_equal(spec.nodes[4].name, "n5");
	assert_int_equal(spec.nodes[4].id, 5);
	assert_int_equal(spec.nodes[4].memory_mib, 48); /* like the last node... */
	assert_string_equal(spec.nodes[4].init, "");    /* ...but idle */

	assert_int_equal(cluster_set_node_count(&spec, 0, err, sizeof err), -1);
	assert_string_equal(err, "the number of nodes must be from 1 to 8, not 0");
	assert_int_equal(cluster_set_node_count(&spec, 9, err, sizeof err), -1);
	assert_string_equal(err, "the number of nodes must be from 1 to 8, not 9");
}

static void test_extension_refuses_a_name_clash(void **state)
{
	(void)state;
	assert_int_equal(parse("node n2 id=1\n"), 0);
	assert_int_equal(cluster_set_node_count(&spec, 2, err, sizeof err), -1);
	assert_string_equal(err, "cannot add node 'n2': the name is already used");
}

/* --clock (dpm cluster up, dpm record): every node in one clock, the
 * file's own settings refused where they would mean nothing. */
static void test_clock_for_every_node(void **state)
{
	(void)state;
	assert_int_equal(parse("node a clock=icount\nnode b\nnode c clock=virtual shift=3\n"), -1);
	assert_int_equal(parse("node a clock=icount\nnode b\n"), 0);
	assert_int_equal(cluster_set_clock(&spec, "virtual", err, sizeof err), 0);
	for (int i = 0; i < spec.nnodes; i++) {
		assert_true(spec.nodes[i].vclock);
		assert_false(spec.nodes[i].icount);
		assert_string_equal(cluster_clock_name(&spec.nodes[i]), "virtual");
	}
	assert_int_equal(cluster_set_node_count(&spec, 3, err, sizeof err), 0);
	assert_string_equal(cluster_clock_name(&spec.nodes[2]), "virtual"); /* like the last */
	assert_int_equal(cluster_set_clock(&spec, "icount", err, sizeof err), 0);
	assert_string_equal(cluster_clock_name(&spec.nodes[0]), "icount");
	assert_string_equal(cluster_clock_name(&spec.nodes[2]), "icount");
	assert_int_equal(cluster_set_clock(&spec, "plain", err, sizeof err), 0);
	assert_string_equal(cluster_clock_name(&spec.nodes[1]), "plain");

	struct cluster_spec before = spec;
	assert_int_equal(cluster_set_clock(&spec, "fast", err, sizeof err), -1);
	assert_string_equal(err, "the clock must be plain, icount or virtual, not 'fast'");
	assert_memory_equal(&spec, &before, sizeof spec);

	/* virtual time's settings stay under virtual time, or are refused */
	assert_int_equal(parse("node a clock=virtual shift=3\nnode b clock=virtual\n"), 0);
	before = spec;
	assert_int_equal(cluster_set_clock(&spec, "icount", err, sizeof err), -1);
	assert_string_equal(err, "node 'a' has shift= (line 1), which applies under clock=virtual "
				 "only, not clock=icount");
	assert_memory_equal(&spec, &before, sizeof spec);
	assert_int_equal(cluster_set_clock(&spec, "virtual", err, sizeof err), 0);
	assert_int_equal(cluster_node_shift(&spec, &spec.nodes[0]), 3);
	assert_int_equal(parse("cluster net=1984\nnode a clock=virtual\n"), 0);
	assert_int_equal(cluster_set_clock(&spec, "plain", err, sizeof err), -1);
	assert_string_equal(err, "the cluster file's 'cluster' statement (line 1) sets virtual time's "
				 "models, which apply under clock=virtual only, not clock=plain");
	assert_true(spec.nodes[0].vclock);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_default_file_is_four_idle_x86_nodes_and_a_filter),
		cmocka_unit_test(test_attributes_defaults_and_quoting),
		cmocka_unit_test(test_explicit_id_later_in_file_is_kept),
		cmocka_unit_test(test_nodes_booted_elsewhere),
		cmocka_unit_test(test_statement_errors),
		cmocka_unit_test(test_attribute_errors),
		cmocka_unit_test(test_virtual_time_models),
		cmocka_unit_test(test_units),
		cmocka_unit_test(test_virtual_time_errors),
		cmocka_unit_test(test_arch_arm_and_x86_mix),
		cmocka_unit_test(test_value_errors),
		cmocka_unit_test(test_limits),
		cmocka_unit_test(test_per_connection_service),
		cmocka_unit_test(test_unreadable_file),
		cmocka_unit_test(test_node_count_cuts_or_extends),
		cmocka_unit_test(test_extension_refuses_a_name_clash),
		cmocka_unit_test(test_clock_for_every_node),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
