/*
 * tests/unit/test_kernel_vtime_config.c - virtual time's model words on the
 * kernel command line: each sets its values, a bad value is reported and
 * leaves the default, other words are left for the rest of the kernel.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>
#include <stdio.h>
#include <string.h>

#include "kernel/kernel.h"
#include "kernel/vtime_config.h"

static char printed[256];

void kprintf(const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(printed, sizeof printed, fmt, ap);
	va_end(ap);
}

static int word(const char *w)
{
	printed[0] = '\0';
	return vtime_config_option(w, (uint32_t)strlen(w));
}

static void defaults_are_a_present_day_lan(void **state)
{
	(void)state;
	assert_int_equal(vtime_config.net.latency_ns, 20000);
	assert_int_equal(vtime_config.net.bandwidth_bps, 1000000000ull);
	assert_int_equal(vtime_config.disk_latency_ns, 4000000);
	assert_int_equal(vtime_config.stop_ns, 100000);
	assert_int_equal(vtime_config.copy_ns_per_kbyte, 0); /* our kernels' own copying */
}

static void each_word_sets_its_values(void **state)
{
	(void)state;
	assert_int_equal(word("vlat=100000"), 1);
	assert_int_equal(vtime_config.net.latency_ns, 100000);
	assert_int_equal(word("vbw=3000000"), 1);
	assert_int_equal(vtime_config.net.bandwidth_bps, 3000000);
	assert_int_equal(word("vtx=1500,400"), 1);
	assert_int_equal(vtime_config.net.tx_fixed_ns, 1500);
	assert_int_equal(vtime_config.net.tx_per_kbyte_ns, 400);
	assert_int_equal(word("vrx=1600,500"), 1);
	assert_int_equal(vtime_config.net.rx_per_kbyte_ns, 500);
	assert_int_equal(word("vdisk=28000000,12000"), 1);
	assert_int_equal(vtime_config.disk_latency_ns, 28000000);
	assert_int_equal(vtime_config.disk_sector_ns, 12000);
	assert_int_equal(word("vstop=1000000"), 1);
	assert_int_equal(vtime_config.stop_ns, 1000000);
	assert_int_equal(word("vcopy=4300000"), 1);
	assert_int_equal(vtime_config.copy_ns_per_kbyte, 4300000);
	assert_string_equal(printed, "");
}

static void a_bad_value_keeps_the_old_one_and_says_so(void **state)
{
	(void)state;
	uint64_t lat = vtime_config.net.latency_ns, bw = vtime_config.net.bandwidth_bps,
		 stop = vtime_config.stop_ns, copy = vtime_config.copy_ns_per_kbyte;
	const char *bad[] = { "vlat=", "vlat=12x", "vlat=-1", "vbw=0", "vtx=5", "vtx=5,",
			      "vdisk=1,2,3", "vlat=99999999999999999999", "vstop=0", "vcopy=1,2" };
	for (size_t i = 0; i < sizeof bad / sizeof bad[0]; i++) {
		assert_int_equal(word(bad[i]), 1);
		assert_non_null(strstr(printed, "bad value"));
	}
	assert_int_equal(vtime_config.net.latency_ns, lat);
	assert_int_equal(vtime_config.net.bandwidth_bps, bw);
	assert_int_equal(vtime_config.stop_ns, stop);
	assert_int_equal(vtime_config.copy_ns_per_kbyte, copy);
}

static void other_words_are_not_ours(void **state)
{
	(void)state;
	assert_int_equal(word("vclock=1"), 0);
	assert_int_equal(word("node=3"), 0);
	assert_int_equal(word("vla=3"), 0);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(defaults_are_a_present_day_lan),
		cmocka_unit_test(each_word_sets_its_values),
		cmocka_unit_test(a_bad_value_keeps_the_old_one_and_says_so),
		cmocka_unit_test(other_words_are_not_ours),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
