/*
 * tests/guest/gtest.h - a tiny in-guest test framework.  Each test is a
 * function; CHECK stops it at the first failed assertion.  Results are
 * printed one a line ("ok N - name" / "not ok N - name: why") for
 * tests/run-guest.sh to count, and main's return value is the number of
 * failures, which init turns into the node's power-off status.
 */
#ifndef DPM_GTEST_H
#define DPM_GTEST_H
#include <stdint.h>

#include "servers/lib/demos.h"
#include "kcall.h"

struct gtest {
	const char *name;
	void (*fn)(void);
};

void gtest_fail(const char *file, int line, const char *what, long a, long b);
int gtest_run(const char *suite, const struct gtest *tests, int n);
extern int gtest_failed_now;

#define CHECK(c) do { if (!(c)) { gtest_fail(__FILE__, __LINE__, #c, 0, 0); return; } } while (0)
#define CHECK_EQ(a, b) do { long _a = (long)(a), _b = (long)(b); \
	if (_a != _b) { gtest_fail(__FILE__, __LINE__, #a " == " #b, _a, _b); return; } } while (0)
#define GTESTS(...) static const struct gtest gtests[] = { __VA_ARGS__ }
#define GTEST_MAIN(suite) int main(void) { return gtest_run(suite, gtests, sizeof gtests / sizeof gtests[0]); }

/* Helpers shared by the suites (gtest.c). */
int self_link(uint32_t code);                       /* a link naming this process */
/* Start t_child-style helper argv; with child_link != NULL it gets link 4
 * back to us and its first act is to send us a link to itself, which lands
 * in *child_link. */
int spawn_child(const char *const argv[], uint32_t *task, int *child_link);
/* The same on node `node` (0: here), optionally giving it `extra` as link 5. */
int spawn_child_on(uint32_t node, const char *const argv[], int extra, uint32_t *task, int *child_link);
int wait_child(uint32_t task, struct kr_exit_notice *n); /* on the notify link */
/* RECEIVEMESSAGE that keeps end notices aside for wait_child(): the next
 * message that is not one.  Same results as receivemessage(). */
int gtest_receive(struct message *m);
/* The same two, giving up after `ms` of node time (E_WOULDBLOCK): for
 * waits that never end when the kernel under test is wrong. */
int gtest_receive_within(struct message *m, uint32_t ms);
int wait_child_within(uint32_t task, uint32_t ms, struct kr_exit_notice *n);
/* What must come back after a hostile sequence: free message headers,
 * alarms in use, and the pages that belong to nobody (free pages plus what
 * this process, the process manager and the name service hold: their
 * heaps may grow meanwhile, which is no leak).  From KR_KSTATS. */
struct gtest_mark {
	uint32_t headers, alarms, pages;
};
int gtest_mark(struct gtest_mark *mk);
#define CHECK_NO_LEAK(before) do { struct gtest_mark _after; \
	CHECK_EQ(gtest_mark(&_after), 0); \
	CHECK_EQ(_after.headers, (before)->headers); \
	CHECK_EQ(_after.alarms, (before)->alarms); \
	CHECK_EQ(_after.pages, (before)->pages); } while (0)
/* What t_child's "report" mode saw of a message it received into a
 * 3-byte buffer (bytes[3] is never written: 0xee). */
struct child_report {
	int32_t result;
	uint32_t len, code, from;
	int32_t passed, reply;
	uint8_t bytes[4];
};
#define GTEST_NOTIFY_CODE 0x4e  /* code of gtest_notify_link */
extern int gtest_notify_link;
#endif
