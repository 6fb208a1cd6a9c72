/*
 * tests/unit/test_desc.c - the trace description language: what parses,
 * what it means (record formats), and every error message, exactly.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "hostfilter/tracelog/formats.h"

/* Parse and build `text` as file "t.desc"; returns the error text, or ""
 * if it is fine (fm is then filled; the caller frees it). */
static const char *build(struct formats *fm, const char *text)
{
	static char err[512];
	err[0] = 0;
	memset(fm, 0, sizeof *fm);
	if (desc_parse(&fm->descs, "t.desc", text, strlen(text), 1, err, sizeof err) == 0)
		formats_build(fm, err, sizeof err);
	return err;
}

static const char *error_of(const char *text)
{
	struct formats fm;
	const char *err = build(&fm, text);
	formats_free(&fm);
	return err;
}

#define HEADER "header 0.\ntraceType,0,4,10\nsize,4,4,10;\n"

/* The thesis's Fig. 3.3, with its OCR-duplicated `machine` line removed. */
static const char fig_3_3[] =
	"header 0.      machine,0,4,16\n"
	"traceType,4,4,10\n"
	"time,8,4,10\n"
	"procTime,12,4,10\n"
	"size,16,4,10;\n"
	"SENDMESSAGE 1.\n"
	"fromTask,0,4,16\n"
	"toTask,4,4,16\n"
	"channel,8,4,10\n"
	"code,12,4,10\n"
	"sendLink,16,4,10\n"
	"passLink,20,4,10;\n";

static void test_thesis_figure_3_3_describes_a_send(void **state)
{
	struct formats fm;
	(void)state;
	assert_string_equal(build(&fm, fig_3_3), "");
	assert_int_equal(fm.header_size, 20);
	const struct format *f = fm.by_type[1];
	assert_non_null(f);
	assert_string_equal(f->name, "SENDMESSAGE");
	assert_int_equal(f->nfields, 5 + 6);
	/* Body offsets count from the end of the header. */
	int i = format_field_index(f, "fromTask");
	assert_int_equal(f->fields[i].offset, 20);
	assert_int_equal(f->fields[i].base, 16);
	i = format_field_index(f, "passLink");
	assert_int_equal(f->fields[i].offset, 40);
	assert_int_equal(f->min_size, 44);
	assert_ptr_equal(formats_by_name(&fm, "sendmessage"), f);
	formats_free(&fm);
}

static void test_comments_space_and_empty_bodies(void **state)
{
	struct formats fm;
	(void)state;
	assert_string_equal(build(&fm, "// a comment\n" HEADER
				   "PING 7.;  // no body\n"
				   "WIDE 8. a,0,1,2 b,1,2,8 c,3,8,16;"),
			    "");
	assert_int_equal(fm.n, 2);
	assert_int_equal(fm.by_type[7]->min_size, 8);
	assert_int_equal(fm.by_type[8]->min_size, 8 + 11);
	assert_null(formats_by_name(&fm, "nosuch"));
	formats_free(&fm);
}

static void test_thesis_event_names_find_our_descriptions(void **state)
{
	struct formats fm;
	(void)state;
	assert_string_equal(build(&fm, HEADER "SEND 1.; RECEIVE 3.; QUEUED 4.; CREATELINK 5.;"),
			    "");
	assert_int_equal(formats_by_name(&fm, "SendMessage")->type, 1);
	assert_int_equal(formats_by_name(&fm, "RECEIVEMESSAGE")->type, 3);
	assert_int_equal(formats_by_name(&fm, "MessageQueued")->type, 4);
	assert_int_equal(formats_by_name(&fm, "createpath")->type, 5);
	assert_int_equal(formats_by_name(&fm, "Send")->type, 1);
	formats_free(&fm);
}

static const struct {
	const char *text, *error;
} errors[] = {
	{ "5 header", "t.desc:1:1: expected a description name, found number 5" },
	{ "header .", "t.desc:1:8: expected a type number after 'header', found '.'" },
	{ "header 0 machine,0,4,10;",
	  "t.desc:1:10: expected '.' after the type number, found 'machine'" },
	{ "header 0.\nmachine 0,4,10;", "t.desc:2:9: expected ',' after the field name, found number 0" },
	{ "header 0. m,,4,10;", "t.desc:1:13: expected the field's offset, found ','" },
	{ "header 0. m,0 4,10;", "t.desc:1:15: expected ',' after the offset, found number 4" },
	{ "header 0. m,0,x,10;", "t.desc:1:15: expected the field's length, found 'x'" },
	{ "header 0. m,0,4 10;", "t.desc:1:17: expected ',' after the length, found number 10" },
	{ "header 0. m,0,4,;", "t.desc:1:17: expected the field's display base, found ';'" },
	{ "header 0. m,0,4,10",
	  "t.desc:1:19: expected a field or ';' ending the description, found end of file" },
	{ "header 0. m,0,3,10;", "t.desc:1:15: field length must be 1, 2, 4 or 8, not 3" },
	{ "header 0. m,0,4,7;", "t.desc:1:17: base must be 2, 8, 10 or 16, not 7" },
	{ "header 0. m,5000,4,10;", "t.desc:1:13: offset 5000 is too large (at most 4095)" },
	{ "big 70000.;", "t.desc:1:5: type number 70000 is too large (at most 65535)" },
	{ "header 0.      machine,0,4,16\n                  machine,0,4,16;",
	  "t.desc:2:19: field 'machine' appears twice in 'header'" },
	{ "a_name_that_is_much_too_long_for_us 1.;",
	  "t.desc:1:1: name too long (at most 31 characters)" },
	{ "header 12abc.;", "t.desc:1:8: bad number '12abc'" },
	{ "header 99999999999999999999.;",
	  "t.desc:1:8: number '99999999999999999999' does not fit in 64 bits" },
	{ "header 0.\n  @", "t.desc:2:3: unexpected character '@'" },
	{ "header 0.\n  \x01", "t.desc:2:3: unexpected byte 0x01" },
	{ "header 0. m,0,4,10 # ;", "t.desc:1:20: expected a field or ';' ending the description, found '#'" },
	{ "SEND 1.;", "t.desc:1:1: no header description (type number 0)" },
	{ "header 0. traceType,0,4,10;", "t.desc:1:1: the header description must have a field 'size'" },
	{ "header 0. size,0,4,10;",
	  "t.desc:1:1: the header description must have a field 'traceType'" },
	{ HEADER "SEND 1.;\nRECV 1.;", "t.desc:5:1: type number 1 is already used by 'SEND'" },
	{ HEADER "SEND 1.;\nsend 2.;", "t.desc:5:1: a description named 'SEND' already exists" },
	{ HEADER "X 1. size,0,4,10;", "t.desc:4:6: field 'size' is already a header field" },
	{ HEADER "X 300.;", "t.desc:4:1: type number 300 is too large for a trace (at most 255)" },
	{ HEADER "other 0.;", "t.desc:4:1: type number 0 is already used by 'header'" },
};

static void test_every_error_message(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof errors / sizeof errors[0]; i++)
		assert_string_equal(error_of(errors[i].text), errors[i].error);
}

/* The two limits on fields, generated: a description of 65 fields (at most
 * 64), and a body whose fields with the header's come to 65.  One field a
 * line, so field k is on line k + 2. */
static void test_too_many_fields(void **state)
{
	(void)state;
	char text[4096];
	size_t n = (size_t)snprintf(text, sizeof text, "header 0.\n");
	for (int k = 0; k < DESC_FIELDS_MAX + 1; k++)
		n += (size_t)snprintf(text + n, sizeof text - n, "f%d,%d,1,10\n", k, k);
	snprintf(text + n, sizeof text - n, ";");
	assert_string_equal(error_of(text), "t.desc:66:1: too many fields in 'header' (at most 64)");
	for (int body = DESC_FIELDS_MAX - 2; body <= DESC_FIELDS_MAX - 1; body++) {
		n = (size_t)snprintf(text, sizeof text, HEADER "X 1.\n");
		for (int k = 0; k < body; k++)
			n += (size_t)snprintf(text + n, sizeof text - n, "f%d,%d,1,10\n", k, k);
		snprintf(text + n, sizeof text - n, ";");
		/* the header has 2 fields: 62 more fit, 63 do not */
		assert_string_equal(error_of(text), body == DESC_FIELDS_MAX - 2 ? ""
						    : "t.desc:4:1: 'X' has too many fields with the header (at most 64)");
	}
}

static void test_missing_file_is_reported(void **state)
{
	struct formats fm;
	char err[512];
	(void)state;
	assert_int_equal(formats_load(&fm, "/nonexistent/x.desc", err, sizeof err), -1);
	assert_string_equal(err, "/nonexistent/x.desc: No such file or directory");
	formats_free(&fm);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_thesis_figure_3_3_describes_a_send),
		cmocka_unit_test(test_comments_space_and_empty_bodies),
		cmocka_unit_test(test_thesis_event_names_find_our_descriptions),
		cmocka_unit_test(test_every_error_message),
		cmocka_unit_test(test_too_many_fields),
		cmocka_unit_test(test_missing_file_is_reported),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
