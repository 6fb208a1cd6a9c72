/*
 * tests/unit/test_cluster_qemu.c - a node's QEMU command line, argument by
 * argument: kernel words, console chardev, LAN NIC, the host-services NIC
 * only when there are services, QEMU's comma escaping, the ARM node's
 * machine (virt, semihosting, virtio-mmio devices, its own kernel); and the
 * banner check `up` waits on.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cmocka.h>

#include "qemu/cluster/cluster_qemu.h"

static struct cluster_spec spec;
static struct qemu_command cmd;
static char err[512];

static void load(const char *text)
{
	assert_int_equal(cluster_parse("t.cluster", text, &spec, err, sizeof err), 0);
}

/* All of cmd's arguments joined by '|' for one exact comparison. */
static const char *joined(void)
{
	static char out[8192];
	out[0] = '\0';
	for (int i = 0; i < cmd.argc; i++)
		snprintf(out + strlen(out), sizeof out - strlen(out), "%s%s", i ? "|" : "", cmd.argv[i]);
	assert_null(cmd.argv[cmd.argc]);
	return out;
}

static void test_kernel_cmdline_words_in_order(void **state)
{
	(void)state;
	load("node a id=3 kernel=peerwait=500 init=\"--halt hello world\"\nnode b id=1\n");
	struct cluster_service sv[2] = { { .name = "meter", .port = 40001 },
					 { .name = "ctl", .port = 7001 } };
	struct node_launch l = { .dir = "/c", .kernel = "/k.elf", .spec = &spec };
	char line[512];
	assert_int_equal(qemu_kernel_cmdline(&spec.nodes[0], &l, line, sizeof line), 0);
	assert_string_equal(line, "node=3 peers=3,1 peerwait=500 --halt hello world");
	l.services = sv;
	l.nservices = 2;
	assert_int_equal(qemu_kernel_cmdline(&spec.nodes[1], &l, line, sizeof line), 0);
	/* the hub always authenticates its nodes; a service you start only when
	 * it says auth=yes; a service `up` starts unless it says auth=no */
	assert_string_equal(line, "node=1 peers=3,1 host=meter:40001,ctl:7001 hostauth=ctl");
	assert_int_equal(qemu_kernel_cmdline(&spec.nodes[1], &l, line, 20), -1);
	sv[0].auth = 1;
	assert_int_equal(qemu_kernel_cmdline(&spec.nodes[1], &l, line, sizeof line), 0);
	assert_string_equal(line, "node=1 peers=3,1 host=meter:40001,ctl:7001 hostauth=meter,ctl");
	sv[0].auth = 0;
	snprintf(sv[0].start, sizeof sv[0].start, "{dpm} filter --port {port} -o m.log");
	assert_int_equal(qemu_kernel_cmdline(&spec.nodes[1], &l, line, sizeof line), 0);
	assert_string_equal(line, "node=1 peers=3,1 host=meter:40001,ctl:7001 hostauth=meter,ctl");
	sv[0].auth = 2;
	sv[1].auth = 2;
	assert_int_equal(qemu_kernel_cmdline(&spec.nodes[1], &l, line, sizeof line), 0);
	assert_string_equal(line, "node=1 peers=3,1 host=meter:40001,ctl:7001");

	load("node a id=1\nnode far id=2 boot=no\n"); /* on another host, still a peer */
	l.services = NULL;
	l.nservices = 0;
	assert_int_equal(qemu_kernel_cmdline(&spec.nodes[0], &l, line, sizeof line), 0);
	assert_string_equal(line, "node=1 peers=1,2");
}

static void test_node_without_services(void **state)
{
	(void)state;
	load("node n2 id=2 memory=32\n");
	struct node_launch l = { .dir = "/run/c", .kernel = "/b/kernel.elf", .spec = &spec };
	assert_int_equal(qemu_node_command(&spec.nodes[0], &l, &cmd, err, sizeof err), 0);
	assert_string_equal(joined(),
		"qemu-system-i386|-device|isa-debug-exit,iobase=0xf4,iosize=0x04|"
		"-name|n2|-m|32|-kernel|/b/kernel.elf|-append|node=2 peers=2|"
		"-display|none|-nodefaults|-no-reboot|"
		"-chardev|socket,id=console,path=/run/c/n2.sock,server=on,wait=off,"
		"logfile=/run/c/n2.console|-serial|chardev:console|"
		"-netdev|vde,id=lan,sock=/run/c/switch|"
		"-device|virtio-net-pci,netdev=lan,mac=52:54:00:00:00:02");
}

static void test_icount_clock_counts_instructions(void **state)
{
	(void)state;
	load("node a id=1 clock=icount\nnode b id=2 arch=arm clock=icount\nnode c id=3 clock=plain\n");
	struct node_launch l = { .dir = "/c", .kernel = "/b/x86/kernel.elf", .arm_kernel = "/dev/null",
				 .spec = &spec };
	assert_int_equal(qemu_node_command(&spec.nodes[0], &l, &cmd, err, sizeof err), 0);
	assert_non_null(strstr(joined(), "iosize=0x04|-icount|shift=0|-name|a|"));
	assert_int_equal(qemu_node_command(&spec.nodes[1], &l, &cmd, err, sizeof err), 0);
	assert_non_null(strstr(joined(), "|-semihosting|-icount|shift=0|-name|b|"));
	assert_int_equal(qemu_node_command(&spec.nodes[2], &l, &cmd, err, sizeof err), 0);
	assert_null(strstr(joined(), "-icount"));
}

static void test_virtual_clock_stops_when_idle(void **state)
{
	(void)state;
	load("node a id=1 clock=virtual init=\"--halt pp\"\n");
	struct node_launch l = { .dir = "/c", .kernel = "/b/x86/kernel.elf", .arm_kernel = "/dev/null",
				 .spec = &spec };
	assert_int_equal(qemu_node_command(&spec.nodes[0], &l, &cmd, err, sizeof err), 0);
	assert_non_null(strstr(joined(), "iosize=0x04|-icount|shift=0,sleep=off|-name|a|"));
	assert_non_null(strstr(joined(), "|-append|node=1 peers=1 vclock=1 vlat=20000 vbw=1000000000 vtx=0,0 vrx=0,0 vdisk=4000000,5000 vstop=100000 --halt pp|"));
	load("node b id=2 arch=arm clock=virtual\n");
	assert_int_equal(qemu_node_command(&spec.nodes[0], &l, &cmd, err, sizeof err), 0);
	assert_non_null(strstr(joined(),
			       "|-semihosting|-icount|shift=0,sleep=off|-cpu|cortex-a15,cntfrq=1000000000|-name|b|"));
	assert_non_null(strstr(joined(), "|-append|node=2 peers=2 vclock=1 vlat=20000 vbw=1000000000 vtx=0,0 vrx=0,0 vdisk=4000000,5000 vstop=100000|"));
}

/* The models of the `cluster` statement reach the kernel as its words,
 * and a node's shift (its own, else the preset's) reaches -icount. */
static void test_virtual_time_models_and_shift(void **state)
{
	(void)state;
	struct node_launch l = { .dir = "/c", .kernel = "/b/x86/kernel.elf", .spec = &spec };
	load("cluster net=1984\nnode a id=1 clock=virtual\n");
	assert_int_equal(qemu_node_command(&spec.nodes[0], &l, &cmd, err, sizeof err), 0);
	assert_non_null(strstr(joined(), "|-icount|shift=10,sleep=off|-name|a|"));
	assert_non_null(strstr(joined(), "|-append|node=1 peers=1 vclock=1 vlat=100000 vbw=3000000 "
				 "vtx=100000,4500000 vrx=100000,4500000 vdisk=4000000,5000 vstop=10000000 "
				 "vcopy=4300000|"));
	load("cluster net=1984 latency=1.5ms bandwidth=10M txcost=8us,2us rxcost=3us "
	     "disklatency=30ms disksector=500us stops=250us\nnode a id=1 clock=virtual shift=3\n");
	assert_int_equal(qemu_node_command(&spec.nodes[0], &l, &cmd, err, sizeof err), 0);
	assert_non_null(strstr(joined(), "|-icount|shift=3,sleep=off|-name|a|"));
	assert_non_null(strstr(joined(), "|-append|node=1 peers=1 vclock=1 vlat=1500000 vbw=10000000 "
				 "vtx=8000,2000 vrx=3000,0 vdisk=30000000,500000 vstop=250000 vcopy=4300000|"));
	/* overrides win whatever their order on the line */
	load("cluster bandwidth=100M net=lan latency=50us\nnode a id=1 clock=virtual shift=1\n");
	assert_int_equal(qemu_node_command(&spec.nodes[0], &l, &cmd, err, sizeof err), 0);
	assert_non_null(strstr(joined(), "|-icount|shift=1,sleep=off|-name|a|"));
	assert_non_null(strstr(joined(), "|-append|node=1 peers=1 vclock=1 vlat=50000 vbw=100000000 "
				 "vtx=0,0 vrx=0,0 vdisk=4000000,5000 vstop=100000|"));
	/* no virtual time: no models, no shift */
	load("node a id=1 clock=icount\n");
	assert_int_equal(qemu_node_command(&spec.nodes[0], &l, &cmd, err, sizeof err), 0);
	assert_null(strstr(joined(), "vlat="));
	assert_null(strstr(joined(), "sleep=off"));
}

static void test_node_with_services_gets_a_second_nic(void **state)
{
	(void)state;
	load("node big id=8\n");
	struct cluster_service sv[2] = { { .name = "meter", .port = 40001 },
					 { .name = "ctl", .port = 7001 } };
	struct node_launch l = { .dir = "/c", .kernel = "/k", .spec = &spec, .services = sv,
				 .nservices = 2 };
	assert_int_equal(qemu_node_command(&spec.nodes[0], &l, &cmd, err, sizeof err), 0);
	const char *all = joined();
	assert_non_null(strstr(all, "|-append|node=8 peers=8 host=meter:40001,ctl:7001 hostauth=ctl|"));
	/* reached through QEMU's NAT (10.0.2.2), not a blocking guestfwd */
	assert_non_null(strstr(all, "|-netdev|user,id=host|"
				    "-device|virtio-net-pci,netdev=host,mac=52:54:00:00:01:08"));
	assert_null(strstr(all, "guestfwd"));
	/* the secret reaches the node as a file QEMU hands it, never as words */
	assert_string_equal(cmd.argv[cmd.argc - 2], "-fw_cfg");
	assert_string_equal(cmd.argv[cmd.argc - 1], "name=opt/dpm/secret,file=/c/secret");
}

/* A cmd= service is QEMU's to run for each connection: guestfwd's cmd: form,
 * its commas doubled like any value in QEMU's option syntax. */
static void test_per_connection_service_is_a_guestfwd_command(void **state)
{
	(void)state;
	load("node n id=3\n");
	struct cluster_service sv[2] = { { .name = "echo", .port = 7001, .cmd = "cat" },
					 { .name = "short", .port = 7002, .cmd = "sh -c a,b" } };
	struct node_launch l = { .dir = "/c", .kernel = "/k", .spec = &spec, .services = sv,
				 .nservices = 2 };
	assert_int_equal(qemu_node_command(&spec.nodes[0], &l, &cmd, err, sizeof err), 0);
	const char *all = joined();
	assert_non_null(strstr(all, "|-append|node=3 peers=3 host=echo:7001:fwd,short:7002:fwd|"));
	assert_null(strstr(all, "hostauth="));
	assert_null(strstr(all, "-fw_cfg"));
	assert_non_null(strstr(all, "|-netdev|user,id=host,"
				    "guestfwd=tcp:10.0.2.100:7001-cmd:cat,"
				    "guestfwd=tcp:10.0.2.100:7002-cmd:sh -c a,,b|"));
}

static void test_commas_in_paths_are_doubled(void **state)
{
	(void)state;
	load("node a\n");
	struct node_launch l = { .dir = "/tmp/a,b", .kernel = "/k,1", .spec = &spec };
	assert_int_equal(qemu_node_command(&spec.nodes[0], &l, &cmd, err, sizeof err), 0);
	const char *all = joined();
	assert_non_null(strstr(all, "|-kernel|/k,1|")); /* a plain argument, not an option list */
	assert_non_null(strstr(all, "path=/tmp/a,,b/a.sock,server=on,wait=off,logfile=/tmp/a,,b/a.console|"));
	assert_non_null(strstr(all, "|vde,id=lan,sock=/tmp/a,,b/switch|"));
}

static void test_too_long_socket_path_is_refused(void **state)
{
	(void)state;
	load("node a\n");
	char dir[160];
	memset(dir, 'x', sizeof dir);
	dir[0] = '/';
	dir[sizeof dir - 1] = '\0';
	struct node_launch l = { .dir = dir, .kernel = "/k", .spec = &spec };
	assert_int_equal(qemu_node_command(&spec.nodes[0], &l, &cmd, err, sizeof err), -1);
	assert_non_null(strstr(err, "/a.sock: path too long for a UNIX socket (choose a shorter --dir)"));
}

static void test_banner_is_matched_exactly(void **state)
{
	(void)state;
	assert_true(qemu_console_has_banner("x86: 63 MiB\nDPM kernel: node 3, 62956 KiB free\n", 3));
	assert_false(qemu_console_has_banner("DPM kernel: node 3, 62956 KiB free\n", 1));
	assert_false(qemu_console_has_banner("x86: 63 MiB RAM\nDPM kern", 1)); /* not yet */
	assert_false(qemu_console_has_banner("DPM kernel: node 12, 1 KiB free\n", 1));
	assert_true(qemu_console_has_banner("DPM kernel: node 12\nDPM kernel: node 1\n", 1));
}

/* A readable file standing for the ARM kernel image; removed by the caller. */
static void make_arm_kernel(char *dir, char *path, size_t size)
{
	strcpy(dir, "/tmp/dpm-test-XXXXXX");
	assert_non_null(mkdtemp(dir));
	snprintf(path, size, "%s/arm", dir);
	assert_int_equal(mkdir(path, 0700), 0);
	snprintf(path, size, "%s/arm/kernel.elf", dir);
	FILE *f = fopen(path, "w");
	assert_non_null(f);
	fclose(f);
}

static void test_arm_node_gets_the_virt_machine(void **state)
{
	(void)state;
	char dir[64], arm[128], x86[128];
	make_arm_kernel(dir, arm, sizeof arm);
	snprintf(x86, sizeof x86, "%s/x86/kernel.elf", dir);   /* need not exist for an ARM node */
	load("node a1 id=3 arch=arm memory=64\n");
	struct node_launch l = { .dir = "/run/c", .kernel = x86, .spec = &spec };
	assert_int_equal(qemu_node_command(&spec.nodes[0], &l, &cmd, err, sizeof err), 0);
	char want[1024];
	snprintf(want, sizeof want,
		 "qemu-system-arm|-M|virt|-cpu|cortex-a15|-semihosting|-name|a1|-m|64|-kernel|%s|"
		 "-append|node=3 peers=3|-display|none|-nodefaults|-no-reboot|"
		 "-chardev|socket,id=console,path=/run/c/a1.sock,server=on,wait=off,"
		 "logfile=/run/c/a1.console|-serial|chardev:console|"
		 "-netdev|vde,id=lan,sock=/run/c/switch|"
		 "-device|virtio-net-device,netdev=lan,mac=52:54:00:00:00:03", arm);
	assert_string_equal(joined(), want);

	struct cluster_service sv[1] = { { .name = "meter", .port = 40001 } };
	l.services = sv;
	l.nservices = 1;
	assert_int_equal(qemu_node_command(&spec.nodes[0], &l, &cmd, err, sizeof err), 0);
	assert_string_equal(cmd.argv[cmd.argc - 1], "virtio-net-device,netdev=host,mac=52:54:00:00:01:03");
	unlink(arm);
	snprintf(x86, sizeof x86, "%s/arm", dir);
	rmdir(x86);
	rmdir(dir);
}

static void test_arm_kernel_is_found_beside_the_x86_one(void **state)
{
	(void)state;
	char out[64];
	assert_int_equal(qemu_arm_kernel("/w/build/x86/kernel.elf", out, sizeof out), 0);
	assert_string_equal(out, "/w/build/arm/kernel.elf");
	assert_int_equal(qemu_arm_kernel("/w/my-kernel.elf", out, sizeof out), -1);
	assert_int_equal(qemu_arm_kernel("/w/build/x86/kernel.elf", out, 10), -1);
}

static void test_arm_node_without_its_kernel_is_refused(void **state)
{
	(void)state;
	load("node a id=1 arch=arm\nnode b id=2\n");
	struct node_launch l = { .dir = "/c", .kernel = "/nonexistent/x86/kernel.elf", .spec = &spec };
	assert_int_equal(qemu_node_command(&spec.nodes[0], &l, &cmd, err, sizeof err), -1);
	assert_string_equal(err, "node 'a': arch arm needs the ARM kernel /nonexistent/arm/kernel.elf "
				 "beside the x86 one (build it with 'make')");
	l.kernel = "/k.elf";  /* no ARM kernel can be derived */
	assert_int_equal(qemu_node_command(&spec.nodes[0], &l, &cmd, err, sizeof err), -1);
	assert_string_equal(err, "node 'a': arch arm needs the ARM kernel beside the x86 one (build it with 'make')");
	assert_int_equal(qemu_node_command(&spec.nodes[1], &l, &cmd, err, sizeof err), 0); /* x86 is fine */
	assert_string_equal(cmd.argv[0], "qemu-system-i386");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_kernel_cmdline_words_in_order),
		cmocka_unit_test(test_node_without_services),
		cmocka_unit_test(test_icount_clock_counts_instructions),
		cmocka_unit_test(test_virtual_clock_stops_when_idle),
		cmocka_unit_test(test_virtual_time_models_and_shift),
		cmocka_unit_test(test_node_with_services_gets_a_second_nic),
		cmocka_unit_test(test_per_connection_service_is_a_guestfwd_command),
		cmocka_unit_test(test_commas_in_paths_are_doubled),
		cmocka_unit_test(test_too_long_socket_path_is_refused),
		cmocka_unit_test(test_arm_node_gets_the_virt_machine),
		cmocka_unit_test(test_arm_kernel_is_found_beside_the_x86_one),
		cmocka_unit_test(test_arm_node_without_its_kernel_is_refused),
		cmocka_unit_test(test_banner_is_matched_exactly),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
