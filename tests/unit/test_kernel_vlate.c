/*
 * tests/unit/test_kernel_vlate.c - noticing a late deadline interrupt
 * (kernel/vlate.c; docs/virtual-time.md §2.2).  The numbers are the ones
 * measured on QEMU 7.2 at shift=0 (node times of one 4-node record: the
 * PIT armed at 118389417 to expire at 118400312): on time, the handler
 * ran 135 ns after the expiry in user mode; in one run of 40 it ran
 * 7998 ns after it, past a kernel call of the interrupted process.  A
 * lateness in user mode only is given to the ns at shift=0, so that the
 * kernel can set the clock back by it for the stop.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "kernel/vlate.h"

#define ARMED 118389417ull
#define EXPIRES 118400312ull

static struct vlate l;
static uint64_t by;

/* Landings on time in user mode at shift=0 teach the entry path's 135 ns
 * and the 1 ns grid (two arm-to-handler times 11030 and 7031 ns). */
static void learn(void)
{
	vlate_init(&l);
	vlate_resumes(&l, 118000000);
	vlate_armed(&l, 118291105, 118302000);
	assert_int_equal(vlate_entry(&l, 118302135, 1, &by), 0);
	vlate_armed(&l, 118305104, 118312000);
	assert_int_equal(vlate_entry(&l, 118312135, 1, &by), 0);
	assert_int_equal(l.grid, 1);
}

/* The measured case the first rule missed: the process's RECEIVECALL
 * entered the kernel about 1.5 us after the expiry (before the 2 us
 * margin), and the interrupt came on the way out. */
static void a_kernel_call_soon_past_the_expiry_is_late_once_learnt(void **state)
{
	(void)state;
	vlate_init(&l);
	vlate_resumes(&l, 1000000);
	vlate_armed(&l, 1090000, 1100000);
	assert_int_equal(vlate_entry(&l, 1101500, 0, &by), 0); /* nothing learnt yet */
	learn();
	vlate_resumes(&l, 118390000);
	vlate_armed(&l, ARMED, EXPIRES);
	assert_int_equal(vlate_entry(&l, EXPIRES + 1500, 0, &by), EXPIRES);
	assert_int_equal(by, 0);
}

static void on_time_in_user_mode_is_not_late(void **state)
{
	(void)state;
	learn();
	vlate_resumes(&l, 118390000);
	vlate_armed(&l, ARMED, EXPIRES);
	assert_int_equal(vlate_entry(&l, EXPIRES + 135, 1, &by), 0);
	assert_int_equal(by, 0);
	/* nothing armed: a kernel call much later says nothing */
	assert_int_equal(vlate_entry(&l, EXPIRES + 50000, 0, &by), 0);
}

static void later_in_user_mode_is_late(void **state)
{
	(void)state;
	learn();
	vlate_resumes(&l, 118390000);
	vlate_armed(&l, ARMED, EXPIRES);
	assert_int_equal(vlate_entry(&l, EXPIRES + 140, 1, &by), EXPIRES);
	assert_int_equal(by, 5); /* the process ran 5 ns past the expiry */
}

static void a_kernel_call_past_the_expiry_is_late(void **state)
{
	(void)state;
	learn();
	vlate_resumes(&l, 118390000);
	vlate_armed(&l, ARMED, EXPIRES);
	/* the measured run: the process's SEND entered the kernel ~5 us after
	 * the expiry; reported there, once */
	assert_int_equal(vlate_entry(&l, EXPIRES + 5000, 0, &by), EXPIRES);
	assert_int_equal(by, 0); /* past a kernel call: cannot be set right */
	vlate_resumes(&l, EXPIRES + 7900);
	assert_int_equal(vlate_entry(&l, EXPIRES + 7998, 1, &by), 0);
}

static void a_kernel_call_before_or_just_at_the_expiry_is_not(void **state)
{
	(void)state;
	learn();
	vlate_resumes(&l, 118390000);
	vlate_armed(&l, ARMED, EXPIRES);
	assert_int_equal(vlate_entry(&l, EXPIRES - 10, 0, &by), 0);
	/* the call's instruction came just before the expiry (its reading is
	 * the interrupt's 135 ns of path plus the instruction itself after
	 * its start); its entry path ran past the expiry with interrupts off */
	assert_int_equal(vlate_entry(&l, EXPIRES + 135, 0, &by), 0);
	/* ... and the interrupt is taken on the way back: not late */
	vlate_resumes(&l, EXPIRES + 2500);
	assert_int_equal(vlate_entry(&l, EXPIRES + 2510, 1, &by), 0);
}

/* The case of a loaded make check (node 3 of cluster_test_vtime_fs, a
 * 2 KB SEND across a stop): the interrupt was taken just after the
 * process's kernel call instead of just before it, and the old rule's
 * slack of 100 instructions past the learnt path hid it; the same call
 * one instruction earlier, its trapping instruction before the expiry,
 * is not late. */
static void a_kernel_call_one_instruction_past_the_expiry_is_late(void **state)
{
	(void)state;
	learn();
	vlate_resumes(&l, 118390000);
	vlate_armed(&l, ARMED, EXPIRES);
	assert_int_equal(vlate_entry(&l, EXPIRES + 135, 0, &by), 0);
	assert_int_equal(vlate_entry(&l, EXPIRES + 136, 0, &by), EXPIRES);
	assert_int_equal(by, 0);
}

/* Expired while the kernel ran: taken at the first instruction back in
 * user mode, which is within the resume margin of the return; long after
 * that it is late (the old rule let it pass whatever the delay). */
static void taken_long_after_the_return_is_late(void **state)
{
	(void)state;
	learn();
	vlate_armed(&l, ARMED, EXPIRES);
	vlate_resumes(&l, EXPIRES + 20000);
	assert_int_equal(vlate_entry(&l, EXPIRES + 20000 + VLATE_RESUME_MARGIN_NS + 135, 1, &by), 0);
	vlate_armed(&l, ARMED + 30000, EXPIRES + 30000);
	vlate_resumes(&l, EXPIRES + 40000);
	assert_int_equal(vlate_entry(&l, EXPIRES + 40000 + VLATE_RESUME_MARGIN_NS + 136, 1, &by),
			 EXPIRES + 30000);
}

static void an_expiry_while_the_kernel_ran_is_taken_on_the_way_out(void **state)
{
	(void)state;
	learn();
	vlate_resumes(&l, EXPIRES - 3000);
	vlate_armed(&l, ARMED, EXPIRES);
	vlate_resumes(&l, EXPIRES + 20000); /* a long kernel call across it */
	assert_int_equal(vlate_entry(&l, EXPIRES + 20010, 1, &by), 0);
	/* expiring right after the return, within the margin: on time up to
	 * the margin's end plus the entry path, and nothing learnt from it */
	vlate_armed(&l, EXPIRES + 20000, EXPIRES + 20000 + VLATE_RESUME_MARGIN_NS - 1);
	assert_int_equal(vlate_entry(&l, EXPIRES + 20000 + VLATE_RESUME_MARGIN_NS + 135, 1, &by), 0);
	/* the least delay learnt is kept: 135 */
	vlate_resumes(&l, EXPIRES + 40000);
	vlate_armed(&l, EXPIRES + 40000, EXPIRES + 50000);
	assert_int_equal(vlate_entry(&l, EXPIRES + 50136, 1, &by), EXPIRES + 50000);
}

static void a_first_late_landing_is_corrected_by_the_next(void **state)
{
	(void)state;
	vlate_init(&l);
	vlate_resumes(&l, 1000000);
	vlate_armed(&l, 1090001, 1100000);
	assert_int_equal(vlate_entry(&l, 1100200, 1, &by), 0); /* learnt: 200 */
	vlate_armed(&l, 1190000, 1200000);
	assert_int_equal(vlate_entry(&l, 1200135, 1, &by), 0); /* learnt: 135, grid 1 */
	vlate_armed(&l, 1290000, 1300000);
	assert_int_equal(vlate_entry(&l, 1300200, 1, &by), 1300000);
}

/* At shift=10 an instruction takes 1024 ns: the interrupt lands on the
 * first instruction boundary at or past the expiry, up to 1023 ns after
 * it, and that is not lateness; a whole instruction more is. */
static void at_shift_10_within_an_instruction_is_on_time(void **state)
{
	(void)state;
	vlate_init(&l);
	vlate_resumes(&l, 0);
	uint64_t armed = 1000000, landed[] = { 60, 900, 1083, 500, 77 };
	for (unsigned i = 0; i < sizeof landed / sizeof *landed; i++) {
		/* the handler runs at a whole number of instructions from the arm */
		uint64_t expires = armed + 100000 + landed[i] * 7;
		uint64_t now = armed + ((expires - armed + 135 + 1023) / 1024) * 1024;
		vlate_armed(&l, armed, expires);
		assert_int_equal(vlate_entry(&l, now, 1, &by), 0);
		armed = now + 5 * 1024;
	}
	assert_int_equal(l.grid, 1024);
	/* two instructions past the boundary */
	uint64_t expires = armed + 100000;
	uint64_t now = armed + ((expires - armed + 135 + 1023) / 1024 + 2) * 1024;
	vlate_armed(&l, armed, expires);
	assert_int_equal(vlate_entry(&l, now, 1, &by), expires);
	assert_int_equal(by, 0); /* not known to the ns at this grid */
}

/* At shift=10 the entry paths are ~1024 times longer in node time: a
 * kernel call whose entry path (with interrupts off) ran across the expiry
 * is not late, though it reads the clock ~60 us after it (seen with the
 * 1984 preset before the margins counted instructions: every few ms a
 * false "came late"); one whose own instruction came past it is. */
static void at_shift_10_the_margins_are_instructions(void **state)
{
	(void)state;
	vlate_init(&l);
	vlate_resumes(&l, 0);
	uint64_t armed = 1024 * 1000;
	vlate_armed(&l, armed, armed + 100 * 1024 + 7);
	assert_int_equal(vlate_entry(&l, armed + 100 * 1024 + 7 + 60 * 1024, 0, &by), 0); /* no grid yet */
	vlate_armed(&l, armed, armed + 100 * 1024);
	assert_int_equal(vlate_entry(&l, armed + 235 * 1024, 1, &by), 0); /* learns 135 instr */
	vlate_armed(&l, armed + 300 * 1024, armed + 453 * 1024); /* 288 instr to the handler */
	assert_int_equal(vlate_entry(&l, armed + 588 * 1024, 1, &by), 0);
	assert_int_equal(l.grid, 1024);
	/* a kernel call reads the clock where the interrupt does, its own
	 * instruction before the path: one that started before the expiry
	 * reads at most the learnt 135 instructions and one more after it
	 * (the expiry falls anywhere inside an instruction at this grid) */
	uint64_t due = armed + 700 * 1024;
	vlate_armed(&l, armed + 600 * 1024, due);
	assert_int_equal(vlate_entry(&l, due + 60 * 1024, 0, &by), 0);
	assert_int_equal(vlate_entry(&l, due + 136 * 1024, 0, &by), 0);
	assert_int_equal(vlate_entry(&l, due + 137 * 1024, 0, &by), due);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(on_time_in_user_mode_is_not_late),
		cmocka_unit_test(later_in_user_mode_is_late),
		cmocka_unit_test(a_kernel_call_past_the_expiry_is_late),
		cmocka_unit_test(a_kernel_call_soon_past_the_expiry_is_late_once_learnt),
		cmocka_unit_test(a_kernel_call_before_or_just_at_the_expiry_is_not),
		cmocka_unit_test(a_kernel_call_one_instruction_past_the_expiry_is_late),
		cmocka_unit_test(taken_long_after_the_return_is_late),
		cmocka_unit_test(an_expiry_while_the_kernel_ran_is_taken_on_the_way_out),
		cmocka_unit_test(a_first_late_landing_is_corrected_by_the_next),
		cmocka_unit_test(at_shift_10_within_an_instruction_is_on_time),
		cmocka_unit_test(at_shift_10_the_margins_are_instructions),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
