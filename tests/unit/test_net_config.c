/*
 * tests/unit/test_net_config.c - the network's command-line keys and the
 * address plan on the host: valid values are taken, bad ones refused with
 * the reason and the old value kept, other keys left for init; MAC
 * addresses map to roles and node ids to addresses.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "kernel/kernel.h"
#include "kernel/net/net.h"
#include "kernel/net/addrplan.h"

uint32_t node_id = 3;
static char printed[256];

void kprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(printed, sizeof printed, fmt, ap);
	va_end(ap);
}

static struct net_config cfg;

static int parse(const char *word, const char **msg)
{
	return net_config_parse(&cfg, word, (uint32_t)strlen(word), msg);
}

static int setup(void **state)
{
	(void)state;
	net_config_defaults(&cfg);
	return 0;
}

static void peers_list_is_taken(void **state)
{
	(void)state;
	const char *msg = NULL;
	assert_int_equal(parse("peers=1,2,3,4", &msg), 1);
	assert_int_equal(cfg.npeers, 4);
	assert_int_equal(cfg.peers[0], 1);
	assert_int_equal(cfg.peers[3], 4);
	assert_int_equal(parse("peers=254", &msg), 1);
	assert_int_equal(cfg.npeers, 1);
	assert_int_equal(cfg.peers[0], 254);
}

static void bad_peers_are_refused_and_the_old_list_kept(void **state)
{
	(void)state;
	const char *msg = NULL;
	assert_int_equal(parse("peers=1,2", &msg), 1);
	const char *bad[] = { "peers=", "peers=0", "peers=255", "peers=1,,2", "peers=1,2,", "peers=a",
			      "peers=1,1", "peers=1,2,3,4,5,6,7,8,9,10", "peers=-1" };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		msg = NULL;
		assert_int_equal(parse(bad[i], &msg), -1);
		assert_non_null(msg);
		assert_non_null(strstr(msg, "peers"));
		assert_int_equal(cfg.npeers, 2);
	}
}

static void host_services_are_named(void **state)
{
	(void)state;
	const char *msg = NULL;
	assert_int_equal(parse("host=meter:7001,ctl:65535", &msg), 1);
	assert_int_equal(cfg.nhost, 2);
	assert_string_equal(cfg.host[0].name, "meter");
	assert_int_equal(cfg.host[0].port, 7001);
	assert_string_equal(cfg.host[1].name, "ctl");
	assert_int_equal(cfg.host[1].port, 65535);
	assert_int_equal(cfg.host[0].fwd + cfg.host[1].fwd, 0);
	/* a service QEMU runs a command for, reached through its guestfwd */
	assert_int_equal(parse("host=echo:7001:fwd,meter:7002", &msg), 1);
	assert_int_equal(cfg.nhost, 2);
	assert_string_equal(cfg.host[0].name, "echo");
	assert_int_equal(cfg.host[0].port, 7001);
	assert_int_equal(cfg.host[0].fwd, 1);
	assert_int_equal(cfg.host[1].port, 7002);
	assert_int_equal(cfg.host[1].fwd, 0);
	assert_int_equal(parse("host=meter:7001,ctl:65535", &msg), 1);
	const char *bad[] = { "host=7001", "host=meter:", "host=:7001", "host=meter:0", "host=meter:65536",
			      "host=averyveryverylongname:1", "host=a:1,b:2,c:3,d:4,e:5", "host=a:1:fw",
			      "host=a:fwd", "host=a::fwd" };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		assert_int_equal(parse(bad[i], &msg), -1);
		assert_int_equal(cfg.nhost, 2);
	}
}

/* hostauth=: the services the node proves itself to (kernel/abi/hostauth.h). */
static void authenticated_services_are_named(void **state)
{
	(void)state;
	const char *msg = NULL;
	assert_false(net_config_host_auth(&cfg, "ctl"));
	assert_int_equal(parse("hostauth=meter,ctl", &msg), 1);
	assert_int_equal(cfg.nhostauth, 2);
	assert_true(net_config_host_auth(&cfg, "meter"));
	assert_true(net_config_host_auth(&cfg, "ctl"));
	assert_false(net_config_host_auth(&cfg, "echo"));
	assert_false(net_config_host_auth(&cfg, "met"));
	const char *bad[] = { "hostauth=", "hostauth=a,,b", "hostauth=averyveryverylongname",
			      "hostauth=a,b,c,d,e" };
	for (size_t i = 0; i < sizeof bad / sizeof *bad; i++) {
		assert_int_equal(parse(bad[i], &msg), -1);
		assert_int_equal(cfg.nhostauth, 2);
	}
}

static void timeouts_and_selftest(void **state)
{
	(void)state;
	const char *msg = NULL;
	assert_int_equal(cfg.peer_timeout_ms, 3000);
	assert_int_equal(cfg.peer_wait_ms, 20000);
	assert_int_equal(parse("peertimeout=500", &msg), 1);
	assert_int_equal(cfg.peer_timeout_ms, 500);
	assert_int_equal(parse("peertimeout=99", &msg), -1);
	assert_int_equal(cfg.peer_timeout_ms, 500);
	assert_int_equal(parse("peerwait=60000", &msg), 1);
	assert_int_equal(cfg.peer_wait_ms, 60000);
	assert_int_equal(parse("peerwait=x", &msg), -1);
	assert_int_equal(cfg.vdown_ms, 10000);
	assert_int_equal(parse("vdown=4000", &msg), 1);
	assert_int_equal(cfg.vdown_ms, 4000);
	assert_int_equal(parse("vdown=999", &msg), -1);
	assert_int_equal(cfg.vdown_ms, 4000);
	assert_int_equal(cfg.drop_segment, 0);
	assert_int_equal(parse("vdrop=40", &msg), 1);
	assert_int_equal(cfg.drop_segment, 40);
	assert_int_equal(parse("vdrop=0", &msg), -1);
	assert_int_equal(parse("vdrop=4x", &msg), -1);
	assert_int_equal(cfg.drop_segment, 40);
	/* a test's smaller send buffer to each peer: at least a 4 KiB
	 * message's frame, at most the buffer there is */
	assert_int_equal(cfg.peer_sndbuf, 0);
	assert_int_equal(parse("peerbuf=16384", &msg), 1);
	assert_int_equal(cfg.peer_sndbuf, 16384);
	assert_int_equal(parse("peerbuf=8191", &msg), -1);
	assert_int_equal(parse("peerbuf=65537", &msg), -1);
	assert_int_equal(cfg.peer_sndbuf, 16384);
	assert_int_equal(parse("peerbuf=65536", &msg), 1);
	assert_int_equal(parse("selftest=peerkill", &msg), 1);
	assert_string_equal(cfg.selftest, "peerkill");
	assert_int_equal(parse("selftest=other", &msg), -1);
	assert_int_equal(parse("selftest=peerkil", &msg), -1);
	assert_string_equal(cfg.selftest, "peerkill");
	assert_int_equal(parse("selftest=hostlink", &msg), 1);
	assert_string_equal(cfg.selftest, "hostlink");
}

static void other_words_are_not_ours(void **state)
{
	(void)state;
	const char *msg = NULL;
	assert_int_equal(parse("node=3", &msg), 0);
	assert_int_equal(parse("--halt", &msg), 0);
	assert_int_equal(parse("peers", &msg), 0);
	assert_int_equal(parse("peersx=1", &msg), 0);
	assert_int_equal(parse("hostname=a", &msg), 0);
}

static void cmdline_option_warns_and_still_takes_the_word(void **state)
{
	(void)state;
	printed[0] = '\0';
	assert_int_equal(net_cmdline_option("peers=1,x", 9), 1);
	assert_non_null(strstr(printed, "peers"));
	assert_int_equal(net_cmdline_option("t_links", 7), 0);
}

static void macs_tell_the_role(void **state)
{
	(void)state;
	const uint8_t cluster[6] = { 0x52, 0x54, 0, 0, 0, 3 };
	const uint8_t host[6] = { 0x52, 0x54, 0, 0, 1, 3 };
	const uint8_t qemu_default[6] = { 0x52, 0x54, 0, 0x12, 0x34, 0x56 };
	const uint8_t other_role[6] = { 0x52, 0x54, 0, 0, 2, 3 };
	const uint8_t zero_node[6] = { 0x52, 0x54, 0, 0, 0, 0 };
	assert_int_equal(net_role_of_mac(cluster), NET_ROLE_CLUSTER);
	assert_int_equal(net_role_of_mac(host), NET_ROLE_HOST);
	assert_int_equal(net_role_of_mac(qemu_default), NET_ROLE_NONE);
	assert_int_equal(net_role_of_mac(other_role), NET_ROLE_NONE);
	assert_int_equal(net_role_of_mac(zero_node), NET_ROLE_NONE);
}

static void addresses_follow_the_plan(void **state)
{
	(void)state;
	uint32_t ip, mask, gw;
	const uint8_t *b = (const uint8_t *)&ip;
	net_role_address(NET_ROLE_CLUSTER, 7, &ip, &mask, &gw);
	assert_memory_equal(b, "\x0a\x4d\x00\x07", 4);            /* 10.77.0.7 */
	assert_memory_equal(&mask, "\xff\xff\xff\x00", 4);
	assert_int_equal(gw, 0);
	net_role_address(NET_ROLE_HOST, 7, &ip, &mask, &gw);
	assert_memory_equal(b, "\x0a\x00\x02\x0f", 4);            /* 10.0.2.15 */
	assert_memory_equal(&gw, "\x0a\x00\x02\x02", 4);
	uint32_t svc = net_host_service_ip(1), nat = net_host_service_ip(0);
	assert_memory_equal(&svc, "\x0a\x00\x02\x64", 4);         /* 10.0.2.100 */
	assert_memory_equal(&nat, "\x0a\x00\x02\x02", 4);         /* 10.0.2.2 */
	assert_int_equal(net_cluster_node(net_cluster_ip(9)), 9);
	assert_int_equal(net_cluster_node(svc), 0);
	assert_int_equal(net_cluster_node(net_cluster_ip(255)), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(peers_list_is_taken, setup),
		cmocka_unit_test_setup(bad_peers_are_refused_and_the_old_list_kept, setup),
		cmocka_unit_test_setup(host_services_are_named, setup),
		cmocka_unit_test_setup(authenticated_services_are_named, setup),
		cmocka_unit_test_setup(timeouts_and_selftest, setup),
		cmocka_unit_test_setup(other_words_are_not_ours, setup),
		cmocka_unit_test_setup(cmdline_option_warns_and_still_takes_the_word, setup),
		cmocka_unit_test(macs_tell_the_role),
		cmocka_unit_test(addresses_follow_the_plan),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
