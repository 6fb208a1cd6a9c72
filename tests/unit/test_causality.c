/*
 * tests/unit/test_causality.c - causality strings of hand-made traces:
 * the thesis's Fig. 5.7 example, interleaved requests kept apart, system
 * processes ignored, and the counts of substrings and transitions.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "analysis/model/causality.h"
#include "test_analysis_trace.h"

struct fixture {
	struct trace t;
	struct cgraph g;
	uint8_t role[16];
	struct causality c;
};

static void analyse(struct fixture *f)
{
	char err[256];
	assert_int_equal(cgraph_build(&f->g, &f->t, err, sizeof err), 0);
	assert_int_equal(causality_compute(&f->c, &f->g, f->role, 0), 0);
	causality_sort(&f->c, &f->c.strings);
	causality_sort(&f->c, &f->c.substrings);
	causality_sort_transitions(&f->c);
}

static void done(struct fixture *f)
{
	causality_free(&f->c);
	cgraph_free(&f->g);
	trace_free(&f->t);
}

/* The string of a counted sequence, one letter per process index
 * ('A' + index), and its count. */
static const char *letters(const struct causality *c, const struct seq *s)
{
	static char buf[64];
	for (uint32_t i = 0; i < s->len; i++)
		buf[i] = (char)('A' + c->pool[s->start + i]);
	buf[s->len] = '\0';
	return buf;
}

static uint64_t count_of(const struct causality *c, const struct seq_counts *sc, const char *str)
{
	for (size_t i = 0; i < sc->n; i++)
		if (!strcmp(letters(c, &sc->s[i]), str))
			return sc->s[i].count;
	return 0;
}

static uint64_t transitions(const struct causality *c, uint32_t at, uint32_t from, uint32_t to)
{
	for (size_t i = 0; i < c->ntr; i++)
		if (c->tr[i].at == at && c->tr[i].from == from && c->tr[i].to == to)
			return c->tr[i].count;
	return 0;
}

static uint64_t msg;
static uint64_t clock_ns;

/* One message from -> to, sent and received now. */
static void message(struct trace *t, uint32_t from, uint32_t to)
{
	msg++;
	clock_ns += 10;
	t_send(t, from, to, clock_ns, clock_ns, msg, 8);
	t_recv(t, to, from, clock_ns + 1, clock_ns, msg, 8);
}

/* Processes A=0, B=1, C=2 are servers, U=3 a requestor, K=4 system. */
static void setup(struct fixture *f)
{
	memset(f, 0, sizeof *f);
	trace_init(&f->t, "causality");
	for (unsigned i = 0; i < 5; i++)
		tp(&f->t, 1, i + 1);
	f->role[0] = f->role[1] = f->role[2] = ROLE_SERVER;
	f->role[3] = ROLE_REQUESTOR;
	f->role[4] = ROLE_SYSTEM;
	msg = 0;
	clock_ns = 0;
}

static void thesis_example(void **state)
{
	(void)state;
	struct fixture f;
	setup(&f);
	message(&f.t, 3, 0); /* U -> A */
	message(&f.t, 0, 1); /* A -> B */
	message(&f.t, 1, 0);
	message(&f.t, 0, 3); /* answer */
	message(&f.t, 3, 0);
	message(&f.t, 0, 1);
	message(&f.t, 1, 2);
	message(&f.t, 2, 1);
	message(&f.t, 1, 0);
	message(&f.t, 0, 3);
	analyse(&f);
	assert_int_equal(f.c.nrequests, 2);
	assert_int_equal(f.c.strings.n, 2);
	assert_int_equal(count_of(&f.c, &f.c.strings, "ABA"), 1);
	assert_int_equal(count_of(&f.c, &f.c.strings, "ABCBA"), 1);
	assert_int_equal(count_of(&f.c, &f.c.substrings, "AB"), 2);
	assert_int_equal(count_of(&f.c, &f.c.substrings, "BA"), 2);
	assert_int_equal(count_of(&f.c, &f.c.substrings, "BCB"), 1);
	assert_int_equal(count_of(&f.c, &f.c.substrings, "ABCBA"), 1);
	assert_int_equal(f.c.substrings.n, 11);
	/* Most common first. */
	assert_int_equal(f.c.substrings.s[0].count, 2);
	/* Fig. 5.18 shape: at A, from the requestors, then to B: twice. */
	assert_int_equal(transitions(&f.c, 0, REQUESTORS, 1), 2);
	assert_int_equal(transitions(&f.c, 0, 1, REQUESTORS), 2);
	assert_int_equal(transitions(&f.c, 1, 0, 0), 1);
	assert_int_equal(transitions(&f.c, 1, 0, 2), 1);
	done(&f);
}

/*
 * Interleaving: A receives request 1, sends to B; receives request 2 while
 * B works; B's answer for request 1 arrives; A answers request 1, then
 * sends request 2 on to C, which answers; A answers request 2.  The last
 * unanswered receive is linked first, so the strings are ABA and ACA.
 */
static void interleaved_requests(void **state)
{
	(void)state;
	struct fixture f;
	setup(&f);
	message(&f.t, 3, 0); /* request 1 */
	message(&f.t, 0, 1); /* on to B */
	message(&f.t, 3, 0); /* request 2 arrives */
	message(&f.t, 1, 0); /* B answers request 1 */
	message(&f.t, 0, 3); /* A answers request 1 */
	message(&f.t, 0, 2); /* request 2 on to C */
	message(&f.t, 2, 0);
	message(&f.t, 0, 3);
	analyse(&f);
	assert_int_equal(f.c.nrequests, 2);
	assert_int_equal(count_of(&f.c, &f.c.strings, "ABA"), 1);
	assert_int_equal(count_of(&f.c, &f.c.strings, "ACA"), 1);
	done(&f);
}

/* Messages to and from system processes are not followed: A asks the
 * kernel K, gets its answer, then goes on to B. */
static void system_processes_are_ignored(void **state)
{
	(void)state;
	struct fixture f;
	setup(&f);
	message(&f.t, 3, 0);
	message(&f.t, 0, 4);
	message(&f.t, 4, 0);
	message(&f.t, 0, 1);
	message(&f.t, 1, 0);
	message(&f.t, 0, 3);
	analyse(&f);
	assert_int_equal(f.c.strings.n, 1);
	assert_int_equal(count_of(&f.c, &f.c.strings, "ABA"), 1);
	assert_int_equal(transitions(&f.c, 0, REQUESTORS, 1), 1);
	assert_int_equal(transitions(&f.c, 0, 4, 1), 0);
	done(&f);
}

/* A request that is never passed on is a string of one letter. */
static void unanswered_request(void **state)
{
	(void)state;
	struct fixture f;
	setup(&f);
	message(&f.t, 3, 1);
	analyse(&f);
	assert_int_equal(f.c.nrequests, 1);
	assert_int_equal(count_of(&f.c, &f.c.strings, "B"), 1);
	assert_int_equal(f.c.substrings.n, 0);
	done(&f);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(thesis_example),
		cmocka_unit_test(interleaved_requests),
		cmocka_unit_test(system_processes_are_ignored),
		cmocka_unit_test(unanswered_request),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
