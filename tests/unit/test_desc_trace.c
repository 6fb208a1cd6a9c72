/*
 * tests/unit/test_desc_trace.c - kernel/abi/trace.desc says exactly what
 * kernel/abi/trace.h lays out: every field of the header and of every body,
 * by name, offset (offsetof) and length (sizeof), and every type number.
 * If the kernel's structures change, this test fails until the
 * description file is brought along.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "hostfilter/tracelog/formats.h"
#include "kernel/abi/trace.h"

struct expected_field {
	const char *name;
	size_t offset, length;
};

#define F(s, m) { #m, offsetof(struct s, m), sizeof(((struct s *)0)->m) }
#define B(s, m) { #m, TRACE_HEADER_SIZE + offsetof(struct s, m), sizeof(((struct s *)0)->m) }
#define END { NULL, 0, 0 }

static const struct expected_field header[] = {
	F(trace_header, machine), F(trace_header, traceType), F(trace_header, time),
	F(trace_header, procTime), F(trace_header, seq), F(trace_header, load),
	F(trace_header, task), F(trace_header, size), END,
};
static const struct expected_field send[] = {
	B(trace_send, fromTask), B(trace_send, toTask), B(trace_send, channel),
	B(trace_send, code), B(trace_send, sendLink), B(trace_send, passLink),
	B(trace_send, msgId), B(trace_send, length), B(trace_send, passTask), END,
};
static const struct expected_field receivecall[] = {
	B(trace_receivecall, toTask), B(trace_receivecall, queueLen),
	B(trace_receivecall, blocking), END,
};
static const struct expected_field receive[] = {
	B(trace_receive, fromTask), B(trace_receive, toTask), B(trace_receive, channel),
	B(trace_receive, code), B(trace_receive, msgId), B(trace_receive, length),
	B(trace_receive, passLink), B(trace_receive, queueLen), END,
};
static const struct expected_field queued[] = {
	B(trace_queued, fromTask), B(trace_queued, toTask), B(trace_queued, msgId),
	B(trace_queued, length), B(trace_queued, queueLen), B(trace_queued, channel),
	B(trace_queued, code), END,
};
static const struct expected_field link[] = {
	B(trace_link, link), B(trace_link, toTask), B(trace_link, code),
	B(trace_link, channel), B(trace_link, dataLen), B(trace_link, rights), END,
};
static const struct expected_field movedata[] = {
	B(trace_movedata, fromTask), B(trace_movedata, toTask), B(trace_movedata, fromLink),
	B(trace_movedata, toLink), B(trace_movedata, length), B(trace_movedata, status), END,
};
static const struct expected_field process[] = {
	B(trace_process, parentTask), B(trace_process, childTask), B(trace_process, reason),
	B(trace_process, status), END,
};
static const struct expected_field dropped[] = { B(trace_dropped, count), END };
static const struct expected_field mark[] = { B(trace_mark, token), END };

static const struct {
	const char *name;
	uint32_t type;
	const struct expected_field *body;
	size_t body_size; /* sizeof the body struct */
} types[] = {
	{ "SEND", TRACE_SEND, send, sizeof(struct trace_send) },
	{ "RECEIVECALL", TRACE_RECEIVECALL, receivecall, sizeof(struct trace_receivecall) },
	{ "RECEIVE", TRACE_RECEIVE, receive, sizeof(struct trace_receive) },
	{ "QUEUED", TRACE_QUEUED, queued, sizeof(struct trace_queued) },
	{ "CREATELINK", TRACE_CREATELINK, link, sizeof(struct trace_link) },
	{ "DESTROYLINK", TRACE_DESTROYLINK, link, sizeof(struct trace_link) },
	{ "MOVEDATA", TRACE_MOVEDATA, movedata, sizeof(struct trace_movedata) },
	{ "CREATEPROCESS", TRACE_CREATEPROCESS, process, sizeof(struct trace_process) },
	{ "TERMPROCESS", TRACE_TERMPROCESS, process, sizeof(struct trace_process) },
	{ "STARTPROCESS", TRACE_STARTPROCESS, process, sizeof(struct trace_process) },
	{ "STOPPROCESS", TRACE_STOPPROCESS, process, sizeof(struct trace_process) },
	{ "DROPPED", TRACE_DROPPED, dropped, sizeof(struct trace_dropped) },
	{ "MARK", TRACE_MARK, mark, sizeof(struct trace_mark) },
};
#define NTYPES (sizeof types / sizeof types[0])

static struct formats fm;

static int load(void **state)
{
	char err[512];
	(void)state;
	if (formats_load(&fm, NULL, err, sizeof err)) {
		print_error("%s\n", err);
		return -1;
	}
	return 0;
}

static int unload(void **state)
{
	(void)state;
	formats_free(&fm);
	return 0;
}

/* The fields of f from index `first` are `want`, in order; `last`: and
 * nothing follows them. */
static void assert_fields(const struct format *f, size_t first, const struct expected_field *want,
			  int last)
{
	size_t i = first;
	for (; want->name; want++, i++) {
		assert_true(i < f->nfields);
		assert_string_equal(f->fields[i].name, want->name);
		assert_int_equal(f->fields[i].offset, want->offset);
		assert_int_equal(f->fields[i].length, want->length);
	}
	if (last)
		assert_int_equal(i, f->nfields);
	else
		assert_int_equal(i, fm.nheader);
}

static void test_header_matches_struct(void **state)
{
	(void)state;
	assert_int_equal(fm.header_size, sizeof(struct trace_header));
	assert_int_equal(fm.header_size, TRACE_HEADER_SIZE);
	assert_int_equal(fm.type_field.offset, offsetof(struct trace_header, traceType));
	assert_int_equal(fm.size_field.offset, offsetof(struct trace_header, size));
	for (size_t t = 0; t < NTYPES; t++)
		assert_fields(fm.by_type[types[t].type], 0, header, 0);
}

static void test_every_body_matches_struct(void **state)
{
	(void)state;
	for (size_t t = 0; t < NTYPES; t++) {
		const struct format *f = fm.by_type[types[t].type];
		assert_non_null(f);
		assert_string_equal(f->name, types[t].name);
		assert_fields(f, fm.nheader, types[t].body, 1);
		/* Only padding may follow the last described field. */
		assert_true(f->min_size <= TRACE_HEADER_SIZE + types[t].body_size);
		assert_true(f->min_size + 8 > TRACE_HEADER_SIZE + types[t].body_size);
		assert_true(TRACE_HEADER_SIZE + types[t].body_size <= TRACE_MAX_SIZE);
	}
}

static void test_every_type_is_described_once(void **state)
{
	(void)state;
	assert_int_equal(fm.n, NTYPES);
	assert_int_equal(fm.n, TRACE_TYPE_MAX);
	for (uint32_t t = 1; t <= TRACE_TYPE_MAX; t++)
		assert_non_null(fm.by_type[t]);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_header_matches_struct),
		cmocka_unit_test(test_every_body_matches_struct),
		cmocka_unit_test(test_every_type_is_described_once),
	};
	return cmocka_run_group_tests(tests, load, unload);
}
