/*
 * tests/unit/test_meter_dest.h - a meter destination of its own for each
 * test of meter/batch.c (the table is shared by the tests of one binary),
 * used by test_meter_batch.c and test_meter_wire.c.
 */
#ifndef DPM_TEST_METER_DEST_H
#define DPM_TEST_METER_DEST_H
#include "meter/batch.h"

static inline int dest_for(uint32_t code, uint32_t batch)
{
	struct link l = { .in_use = 1, .task = 0x10005, .code = code };
	int d = batch_dest(&l, batch);
	assert_true(d >= 0);
	batch_use(d);
	return d;
}
#endif
