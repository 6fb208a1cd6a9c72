/*
 * tests/unit/test_hostauth.c - node authentication (kernel/abi/hostauth.h)
 * on the host: the kernel's HMAC-SHA1 (kernel/net/hostauth_mac.c over
 * lwIP's SHA-1) against RFC 2202's vectors and against Nettle, and the
 * service's check (hostfilter/filter/nodeauth.c): the right answer is
 * taken byte by byte, a wrong secret, an answer replayed from another
 * connection, a forged node id, garbage and an impossible node are
 * refused.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kernel/net/hostauth_mac.h"
#include "hostfilter/filter/nodeauth.h"

static void hex(const uint8_t *p, size_t n, char *out)
{
	for (size_t i = 0; i < n; i++)
		sprintf(out + 2 * i, "%02x", p[i]);
}

static void check_vector(const void *key, uint32_t klen, const void *msg, uint32_t n, const char *want)
{
	uint8_t mac[HOSTAUTH_MAC_LEN];
	char got[2 * HOSTAUTH_MAC_LEN + 1];
	hmac_sha1(key, klen, msg, n, mac);
	hex(mac, sizeof mac, got);
	assert_string_equal(got, want);
}

/* RFC 2202, section 3: test cases 1, 2, 3 and 6 (a key longer than a block). */
static void test_rfc2202(void **state)
{
	(void)state;
	uint8_t k1[20], k3[20], k6[80], d3[50];
	memset(k1, 0x0b, sizeof k1);
	memset(k3, 0xaa, sizeof k3);
	memset(d3, 0xdd, sizeof d3);
	memset(k6, 0xaa, sizeof k6);
	check_vector(k1, sizeof k1, "Hi There", 8, "b617318655057264e28bc0b6fb378c8ef146be00");
	check_vector("Jefe", 4, "what do ya want for nothing?", 28, "effcdf6ae5eb2fa2d27416d5f184df9c259a7c79");
	check_vector(k3, sizeof k3, d3, sizeof d3, "125d7342b9ac11cd91a39af48aa17b4f63f175d3");
	check_vector(k6, sizeof k6, "Test Using Larger Than Block-Size Key - Hash Key First", 54,
		     "aa4ae5e15272d00e95705637ce8a3b55ed402112");
}

static const char secret[] = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef";

static void load_key(struct nodeauth_key *k, const char *text)
{
	char path[] = "/tmp/dpm-test-hostauth-XXXXXX", err[256];
	int fd = mkstemp(path);
	assert_true(fd >= 0);
	assert_int_equal(write(fd, text, strlen(text)), (ssize_t)strlen(text));
	close(fd);
	int r = nodeauth_load(k, path, err, sizeof err);
	unlink(path);
	assert_int_equal(r, 0);
}

/* The kernel's answer and the host's are the same bytes. */
static void test_kernel_matches_host(void **state)
{
	(void)state;
	struct nodeauth_key k;
	struct nodeauth a;
	load_key(&k, secret);
	for (int i = 0; i < 20; i++) {
		assert_int_equal(nodeauth_begin(&a), 0);
		struct hostauth_answer kern, host;
		hostauth_answer_make(k.key, (const uint8_t *)&a.chal, (uint32_t)(i % 9 + 1), &kern);
		nodeauth_answer(&k, &a.chal, (uint32_t)(i % 9 + 1), &host);
		assert_memory_equal(&kern, &host, sizeof kern);
	}
}

static int feed_all(struct nodeauth *a, const struct nodeauth_key *k, const void *p, uint32_t n,
		    const char **why)
{
	int r = 0;
	for (uint32_t i = 0; i < n && r == 0; i++) /* a byte at a time */
		r = nodeauth_feed(a, k, (const uint8_t *)p + i, 1, why);
	return r;
}

static void test_right_answer(void **state)
{
	(void)state;
	struct nodeauth_key k;
	struct nodeauth a;
	struct hostauth_answer ans;
	const char *why = NULL;
	load_key(&k, secret);
	assert_int_equal(nodeauth_begin(&a), 0);
	assert_int_equal(nodeauth_wanted(&a), HOSTAUTH_ANSWER_SIZE);
	hostauth_answer_make(k.key, (const uint8_t *)&a.chal, 3, &ans);
	assert_int_equal(feed_all(&a, &k, &ans, sizeof ans, &why), 1);
	assert_int_equal(a.node, 3);
	assert_int_equal(nodeauth_wanted(&a), 0);
}

/* A fresh handshake of a service holding `secret`, answered by a node that
 * holds node_secret and made its answer as node `made_for`, the answer then
 * claiming node `claimed`: what the service says. */
static int try_answer(const char *node_secret, uint32_t made_for, uint32_t claimed, const char **why)
{
	struct nodeauth_key k, theirs;
	struct nodeauth a;
	struct hostauth_answer ans;
	load_key(&k, secret);
	load_key(&theirs, node_secret);
	assert_int_equal(nodeauth_begin(&a), 0);
	hostauth_answer_make(theirs.key, (const uint8_t *)&a.chal, made_for, &ans);
	ans.node = claimed;
	return feed_all(&a, &k, &ans, sizeof ans, why);
}

static void test_wrong_secret(void **state)
{
	(void)state;
	const char *why = NULL;
	assert_int_equal(try_answer(secret, 1, 1, &why), 1);
	assert_int_equal(try_answer("fedcba9876543210fedcba9876543210fedcba9876543210fedcba9876543210\n",
				    1, 1, &why), -1);
	assert_non_null(strstr(why, "wrong"));
}

/* An answer seen on one connection is worthless on the next: each has its
 * own nonce. */
static void test_replayed_answer(void **state)
{
	(void)state;
	struct nodeauth_key k;
	struct nodeauth first, second;
	struct hostauth_answer ans;
	const char *why = NULL;
	load_key(&k, secret);
	assert_int_equal(nodeauth_begin(&first), 0);
	assert_int_equal(nodeauth_begin(&second), 0);
	assert_memory_not_equal(first.chal.nonce, second.chal.nonce, HOSTAUTH_NONCE_LEN);
	hostauth_answer_make(k.key, (const uint8_t *)&first.chal, 2, &ans);
	assert_int_equal(feed_all(&second, &k, &ans, sizeof ans, &why), -1);
	assert_int_equal(feed_all(&first, &k, &ans, sizeof ans, &why), 1);
}

/* A node's answer does not vouch for another node id. */
static void test_forged_node(void **state)
{
	(void)state;
	const char *why = NULL;
	assert_int_equal(try_answer(secret, 2, 1, &why), -1);
	assert_non_null(strstr(why, "wrong"));
	assert_int_equal(try_answer(secret, 0, 0, &why), -1);
	assert_non_null(strstr(why, "impossible"));
}

/* A peer that speaks another protocol (a controller's frame, a batch) is
 * told apart at its fourth byte, before a whole answer is waited for. */
static void test_garbage(void **state)
{
	(void)state;
	struct nodeauth_key k;
	struct nodeauth a;
	const char *why = NULL;
	load_key(&k, secret);
	assert_int_equal(nodeauth_begin(&a), 0);
	assert_int_equal(nodeauth_feed(&a, &k, (const uint8_t *)"DCTL", 3, &why), 0);
	assert_int_equal(nodeauth_feed(&a, &k, (const uint8_t *)"L", 1, &why), -1);
	assert_non_null(strstr(why, "did not answer"));
}

static void test_bad_secret_file(void **state)
{
	(void)state;
	struct nodeauth_key k;
	char err[256];
	assert_int_equal(nodeauth_load(&k, "/nonexistent/secret", err, sizeof err), -1);
	assert_non_null(strstr(err, "/nonexistent/secret"));
	char path[] = "/tmp/dpm-test-hostauth-XXXXXX";
	int fd = mkstemp(path);
	assert_int_equal(write(fd, "0123456789ABCDEF", 16), 16);
	close(fd);
	assert_int_equal(nodeauth_load(&k, path, err, sizeof err), -1);
	assert_non_null(strstr(err, "64 hex digits"));
	unlink(path);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_rfc2202),
		cmocka_unit_test(test_kernel_matches_host),
		cmocka_unit_test(test_right_answer),
		cmocka_unit_test(test_wrong_secret),
		cmocka_unit_test(test_replayed_answer),
		cmocka_unit_test(test_forged_node),
		cmocka_unit_test(test_garbage),
		cmocka_unit_test(test_bad_secret_file),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
