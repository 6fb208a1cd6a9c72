/*
 * tests/unit/test_kernel_klib.c - the kernel's memcpy, memmove and memset
 * (kernel/klib.c: every message's bytes go through them) and memcmp
 * against the host C library's, for every length up to 300 bytes at every pair of
 * alignments, and the bytes around the destination left alone.  klib.c
 * is included here under other names, beside the C library's own.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#define memcpy klib_memcpy
#define memmove klib_memmove
#define memset klib_memset
#define memcmp klib_memcmp
#define strlen klib_strlen
#define strnlen klib_strnlen
#define strcmp klib_strcmp
#define strncmp klib_strncmp
#define kprintf klib_kprintf
#define panic klib_panic
#include "kernel/klib.c"
#undef memcpy
#undef memmove
#undef memset
#undef memcmp
#undef strlen
#undef strnlen
#undef strcmp
#undef strncmp
#include <string.h>

void arch_console_putc(char c) { (void)c; }
void arch_poweroff(int code) { (void)code; for (;;) ; }

#define ROOM 400
static uint8_t src[ROOM], got[ROOM], want[ROOM];

static void fill(uint8_t *b, unsigned seed)
{
	for (unsigned i = 0; i < ROOM; i++)
		b[i] = (uint8_t)(i * 7 + seed * 13 + 1);
}

static void memcpy_as_the_library(void **state)
{
	(void)state;
	fill(src, 1);
	for (unsigned so = 0; so < 8; so++)
		for (unsigned d = 0; d < 8; d++)
			for (unsigned n = 0; n <= 300; n++) {
				fill(got, 2);
				fill(want, 2);
				assert_ptr_equal(klib_memcpy(got + d, src + so, n), got + d);
				memcpy(want + d, src + so, n);
				assert_memory_equal(got, want, ROOM);
			}
}

static void memset_as_the_library(void **state)
{
	(void)state;
	for (int c = 0; c < 2; c++)
		for (unsigned d = 0; d < 8; d++)
			for (unsigned n = 0; n <= 300; n++) {
				fill(got, 3);
				fill(want, 3);
				assert_ptr_equal(klib_memset(got + d, c * 0xa5, n), got + d);
				memset(want + d, c * 0xa5, n);
				assert_memory_equal(got, want, ROOM);
			}
}

static void memmove_overlapping_both_ways(void **state)
{
	(void)state;
	for (unsigned so = 0; so < 40; so++)
		for (unsigned d = 0; d < 40; d++)
			for (unsigned n = 0; n <= 300; n += 7) {
				fill(got, 4);
				fill(want, 4);
				klib_memmove(got + d, got + so, n);
				memmove(want + d, want + so, n);
				assert_memory_equal(got, want, ROOM);
			}
}

static int sign(int v) { return (v > 0) - (v < 0); }

/* memcmp's sign as the library's, equal or differing at every place (by
 * a byte above and below), at every pair of alignments. */
static void memcmp_as_the_library(void **state)
{
	(void)state;
	fill(src, 5);
	for (unsigned ao = 0; ao < 8; ao++)
		for (unsigned bo = 0; bo < 8; bo++)
			for (unsigned n = 0; n <= 140; n++) {
				fill(got, 9);
				memcpy(got + bo, src + ao, n);
				assert_int_equal(klib_memcmp(src + ao, got + bo, n), 0);
				for (unsigned at = 0; at < n; at++)
					for (int dir = -1; dir <= 1; dir += 2) {
						got[bo + at] = (uint8_t)(src[ao + at] + dir);
						assert_int_equal(sign(klib_memcmp(src + ao, got + bo, n)),
								 sign(memcmp(src + ao, got + bo, n)));
						assert_int_equal(sign(klib_memcmp(got + bo, src + ao, n)),
								 sign(memcmp(got + bo, src + ao, n)));
						got[bo + at] = src[ao + at];
					}
			}
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(memcpy_as_the_library),
		cmocka_unit_test(memset_as_the_library),
		cmocka_unit_test(memmove_overlapping_both_ways),
		cmocka_unit_test(memcmp_as_the_library),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
