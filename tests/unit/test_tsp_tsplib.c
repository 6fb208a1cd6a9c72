/*
 * tests/unit/test_tsp_tsplib.c - the TSPLIB reader (servers/tsp/tsplib.c):
 * FULL_MATRIX instances in the layouts real files use, and the exact
 * "name:line:col: what" message for each kind of bad file.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "tsplib.h"

static struct tsp_instance inst;
static char err[512];

static int parse(const char *text)
{
	FILE *f = fmemopen((void *)text, strlen(text), "r");
	assert_non_null(f);
	err[0] = '\0';
	int r = tsplib_read(f, "in.tsp", &inst, err, sizeof err);
	fclose(f);
	return r;
}

static void assert_error(const char *text, const char *message)
{
	if (parse(text) != -1)
		fail_msg("accepted: %s", text);
	assert_string_equal(err, message);
}

#define HEADER4 "NAME: four\nTYPE: TSP\nDIMENSION: 4\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: FULL_MATRIX\n"

static void test_full_matrix_one_row_a_line(void **state)
{
	(void)state;
	assert_int_equal(parse(HEADER4 "EDGE_WEIGHT_SECTION\n"
				       "0 3 4 2\n3 0 5 6\n4 5 0 7\n2 6 7 0\nEOF\n"), 0);
	assert_int_equal(inst.n, 4);
	assert_int_equal(tsp_cost(&inst, 0, 1), 3);
	assert_int_equal(tsp_cost(&inst, 3, 2), 7);
	assert_int_equal(tsp_cost(&inst, 2, 0), 4);
}

static void test_weights_in_any_layout_with_crlf_and_display_data(void **state)
{
	(void)state;
	assert_int_equal(parse("NAME : gr4\r\nCOMMENT : made up, 4 cities\r\nTYPE : ATSP\r\nDIMENSION : 4\r\n"
			       "EDGE_WEIGHT_TYPE : EXPLICIT\r\nEDGE_WEIGHT_FORMAT : FULL_MATRIX\r\n"
			       "DISPLAY_DATA_TYPE : TWOD_DISPLAY\r\nEDGE_WEIGHT_SECTION\r\n"
			       "  9999   1   2\r\n  3  4 9999 5 6\r\n 7 8 9999\r\n9 10 11 12 9999\r\n"
			       "DISPLAY_DATA_SECTION\r\n 1 0.5 1.0\r\n 2 3 4\r\n 3 5 6\r\n 4 7 8\r\n"), 0);
	assert_int_equal(inst.n, 4);
	assert_int_equal(tsp_cost(&inst, 0, 0), 0); /* diagonals are ignored */
	assert_int_equal(tsp_cost(&inst, 0, 3), 3);
	assert_int_equal(tsp_cost(&inst, 1, 0), 4);
	assert_int_equal(tsp_cost(&inst, 2, 1), 8);
	assert_int_equal(tsp_cost(&inst, 2, 3), 9);
	assert_int_equal(tsp_cost(&inst, 3, 2), 12);
}

static void test_unsupported_formats_are_refused_at_their_line(void **state)
{
	(void)state;
	assert_error("NAME: x\nTYPE: TSP\nDIMENSION: 4\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: UPPER_ROW\n",
		     "in.tsp:5:21: EDGE_WEIGHT_FORMAT 'UPPER_ROW' is not supported: only FULL_MATRIX");
	assert_error("NAME: x\nTYPE: TSP\nDIMENSION: 4\nEDGE_WEIGHT_TYPE: EUC_2D\n",
		     "in.tsp:4:19: EDGE_WEIGHT_TYPE 'EUC_2D' is not supported: only EXPLICIT");
	assert_error("TYPE : CVRP\n", "in.tsp:1:8: TYPE 'CVRP' is not supported: only TSP and ATSP");
}

static void test_dimension_errors(void **state)
{
	(void)state;
	assert_error("DIMENSION: 65\n", "in.tsp:1:12: DIMENSION 65 out of range 2..64");
	assert_error("DIMENSION: 1\n", "in.tsp:1:12: DIMENSION 1 out of range 2..64");
	assert_error("DIMENSION: four\n", "in.tsp:1:12: DIMENSION 'four' is not a number");
	assert_error("TYPE: TSP\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: FULL_MATRIX\nEDGE_WEIGHT_SECTION\n0 1\n1 0\n",
		     "in.tsp:4:1: EDGE_WEIGHT_SECTION before DIMENSION");
	assert_error("DIMENSION: 2\nEDGE_WEIGHT_SECTION\n0 1\n1 0\n",
		     "in.tsp:2:1: EDGE_WEIGHT_SECTION without EDGE_WEIGHT_TYPE: EXPLICIT and EDGE_WEIGHT_FORMAT: FULL_MATRIX");
}

static void test_bad_weights_give_line_and_column(void **state)
{
	(void)state;
	assert_error(HEADER4 "EDGE_WEIGHT_SECTION\n0 3 4 2\n3 0 5x 6\n",
		     "in.tsp:8:5: expected a weight, found '5x'");
	assert_error(HEADER4 "EDGE_WEIGHT_SECTION\n0 3 4 2\n3 0 5.5 6\n",
		     "in.tsp:8:5: weight '5.5' is not an integer");
	assert_error(HEADER4 "EDGE_WEIGHT_SECTION\n0 3 -4 2\n", "in.tsp:7:5: negative weight -4");
	assert_error(HEADER4 "EDGE_WEIGHT_SECTION\n0 3 10000001 2\n",
		     "in.tsp:7:5: weight 10000001 above the limit 10000000");
	assert_error(HEADER4 "EDGE_WEIGHT_SECTION\n0 3 4 2\n3 0 5 6\n4 5 0 7\n2 6 7 0 1\n",
		     "in.tsp:10:9: more than DIMENSION x DIMENSION = 16 weights");
	assert_error(HEADER4 "EDGE_WEIGHT_SECTION\n0 3 4 2\n3 0 5 6\nEOF\n",
		     "in.tsp:9:1: expected a weight, found 'EOF'");
	assert_error(HEADER4 "EDGE_WEIGHT_SECTION\n0 3 4 2\n3 0 5 6\n",
		     "in.tsp:8:1: EDGE_WEIGHT_SECTION ends after 8 of 16 weights");
}

static void test_tsp_must_be_symmetric(void **state)
{
	(void)state;
	assert_error(HEADER4 "EDGE_WEIGHT_SECTION\n0 3 4 2\n3 0 5 6\n4 9 0 7\n2 6 7 0\n",
		     "in.tsp:9:3: TYPE TSP, but the weight from 3 to 2 (9) differs from 2 to 3 (5)");
}

static void test_other_bad_files(void **state)
{
	(void)state;
	assert_error("", "in.tsp:1:1: empty input: expected a TSPLIB instance");
	assert_error("NAME: x\nCAPACITY: 5\n", "in.tsp:2:1: unknown keyword 'CAPACITY'");
	assert_error("NAME: x\n: y\n", "in.tsp:2:1: expected a keyword");
	assert_error(HEADER4, "in.tsp:5:1: no EDGE_WEIGHT_SECTION");
	assert_error(HEADER4 "EDGE_WEIGHT_SECTION\n0 3 4 2\n3 0 5 6\n4 5 0 7\n2 6 7 0\nEDGE_WEIGHT_SECTION\n",
		     "in.tsp:11:1: a second EDGE_WEIGHT_SECTION");
	static char longline[5000];
	memset(longline, '1', sizeof longline - 1);
	assert_error(longline, "in.tsp:1:4097: line longer than 4096 characters");
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_full_matrix_one_row_a_line),
		cmocka_unit_test(test_weights_in_any_layout_with_crlf_and_display_data),
		cmocka_unit_test(test_unsupported_formats_are_refused_at_their_line),
		cmocka_unit_test(test_dimension_errors),
		cmocka_unit_test(test_bad_weights_give_line_and_column),
		cmocka_unit_test(test_tsp_must_be_symmetric),
		cmocka_unit_test(test_other_bad_files),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
