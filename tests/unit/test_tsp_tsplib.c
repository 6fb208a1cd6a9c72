/*
 * tests/unit/test_tsp_tsplib.c - the TSPLIB reader (servers/tsp/tsplib.c):
 * FULL_MATRIX instances in the layouts real files use, the row-wise
 * triangles (the real gr17.tsp, LOWER_DIAG_ROW, read and solved to its
 * published optimum), and the exact "name:line:col: what" message for each
 * kind of bad file.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>

#include "servers/tsp/bnb.h"
#include "servers/tsp/tsplib.h"

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

/* TSPLIB's gr17.tsp as published (Groetschel's 17 cities, LOWER_DIAG_ROW,
 * with its trailing blank after the format); its optimal tour costs 2085. */
static const char gr17[] =
	"NAME: gr17\n"
	"TYPE: TSP\n"
	"COMMENT: 17-city problem (Groetschel)\n"
	"DIMENSION: 17\n"
	"EDGE_WEIGHT_TYPE: EXPLICIT\n"
	"EDGE_WEIGHT_FORMAT: LOWER_DIAG_ROW \n"
	"EDGE_WEIGHT_SECTION\n"
	" 0 633 0 257 390 0 91 661 228 0 412 227\n"
	" 169 383 0 150 488 112 120 267 0 80 572 196\n"
	" 77 351 63 0 134 530 154 105 309 34 29 0\n"
	" 259 555 372 175 338 264 232 249 0 505 289 262\n"
	" 476 196 360 444 402 495 0 353 282 110 324 61\n"
	" 208 292 250 352 154 0 324 638 437 240 421 329\n"
	" 297 314 95 578 435 0 70 567 191 27 346 83\n"
	" 47 68 189 439 287 254 0 211 466 74 182 243\n"
	" 105 150 108 326 336 184 391 145 0 268 420 53\n"
	" 239 199 123 207 165 383 240 140 448 202 57 0\n"
	" 246 745 472 237 528 364 332 349 202 685 542 157\n"
	" 289 426 483 0 121 518 142 84 297 35 29 36\n"
	" 236 390 238 301 55 96 153 336 0\n"
	"EOF\n";

static void test_gr17_lower_diag_row_reads_and_solves_to_2085(void **state)
{
	(void)state;
	assert_int_equal(parse(gr17), 0);
	assert_int_equal(inst.n, 17);
	/* row 2 of the triangle is "633 0": city 2 to city 1, both ways */
	assert_int_equal(tsp_cost(&inst, 1, 0), 633);
	assert_int_equal(tsp_cost(&inst, 0, 1), 633);
	assert_int_equal(tsp_cost(&inst, 2, 1), 390);
	assert_int_equal(tsp_cost(&inst, 1, 2), 390);
	/* the last row: city 17 to 1 .. 16 */
	assert_int_equal(tsp_cost(&inst, 16, 0), 121);
	assert_int_equal(tsp_cost(&inst, 15, 16), 336);
	assert_int_equal(tsp_cost(&inst, 16, 16), 0);
	static struct bnb_result best;
	const uint8_t start[1] = { 0 };
	bnb_solve(&inst, start, 1, TSP_INF, &best);
	assert_true(best.found);
	assert_int_equal(best.cost, 2085);
}

/* The same symmetric 5-city matrix in each triangle format (the diagonal,
 * where a format has it, is 9999 and ignored) reads to the same instance. */
static void test_every_triangle_format_gives_the_full_matrix(void **state)
{
	(void)state;
	static const int32_t w[5][5] = {
		{ 0, 10, 20, 30, 40 }, { 10, 0, 11, 21, 31 }, { 20, 11, 0, 12, 22 },
		{ 30, 21, 12, 0, 13 }, { 40, 31, 22, 13, 0 },
	};
	static const struct {
		const char *format, *weights;
	} files[] = {
		{ "UPPER_ROW", "10 20 30 40\n11 21 31\n12 22\n13\n" },
		{ "LOWER_ROW", "10\n20 11\n30 21 12\n40 31 22 13\n" },
		{ "UPPER_DIAG_ROW", "9999 10 20 30 40 9999 11 21 31 9999 12 22 9999 13 9999\n" },
		{ "LOWER_DIAG_ROW", "9999\n10 9999 20\n11 9999\n30 21 12 9999 40 31 22\n13 9999\n" },
	};
	for (size_t f = 0; f < sizeof files / sizeof *files; f++) {
		char text[512];
		snprintf(text, sizeof text,
			 "TYPE: TSP\nDIMENSION: 5\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: %s\n"
			 "EDGE_WEIGHT_SECTION\n%sEOF\n",
			 files[f].format, files[f].weights);
		if (parse(text) != 0)
			fail_msg("%s: %s", files[f].format, err);
		assert_int_equal(inst.n, 5);
		for (int i = 0; i < 5; i++)
			for (int j = 0; j < 5; j++)
				if (tsp_cost(&inst, i, j) != w[i][j])
					fail_msg("%s: cost %d to %d is %d, not %d", files[f].format, i + 1, j + 1,
						 (int)tsp_cost(&inst, i, j), (int)w[i][j]);
	}
	/* the smallest triangle: one weight */
	assert_int_equal(parse("TYPE: TSP\nDIMENSION: 2\nEDGE_WEIGHT_TYPE: EXPLICIT\n"
			       "EDGE_WEIGHT_FORMAT: UPPER_ROW\nEDGE_WEIGHT_SECTION 7\n"),
			 0);
	assert_int_equal(tsp_cost(&inst, 1, 0), 7);
	assert_int_equal(tsp_cost(&inst, 0, 1), 7);
}

#define TRIANGLE4(format) "TYPE: TSP\nDIMENSION: 4\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: " format "\n"

static void test_bad_triangles_give_line_and_column(void **state)
{
	(void)state;
	/* LOWER_DIAG_ROW of 4 cities holds 10 weights, UPPER_ROW 6 */
	assert_error(TRIANGLE4("LOWER_DIAG_ROW") "EDGE_WEIGHT_SECTION\n0\n3 0\n4 5 0\n2 6 7 0 8\n",
		     "in.tsp:9:9: more than the 10 weights of LOWER_DIAG_ROW for DIMENSION 4");
	assert_error(TRIANGLE4("LOWER_DIAG_ROW") "EDGE_WEIGHT_SECTION\n0\n3 0\n4 5 0\nEOF\n",
		     "in.tsp:9:1: expected a weight, found 'EOF'");
	assert_error(TRIANGLE4("LOWER_DIAG_ROW") "EDGE_WEIGHT_SECTION\n0\n3 0\n4 5 0\n",
		     "in.tsp:8:1: EDGE_WEIGHT_SECTION ends after 6 of 10 weights");
	assert_error(TRIANGLE4("UPPER_ROW") "EDGE_WEIGHT_SECTION\n3 4 2\n5 x6\n7\n",
		     "in.tsp:7:3: expected a weight, found 'x6'");
	assert_error(TRIANGLE4("UPPER_ROW") "EDGE_WEIGHT_SECTION\n3 4 2\n5 -6\n7\n",
		     "in.tsp:7:3: negative weight -6");
	assert_error(TRIANGLE4("UPPER_ROW") "EDGE_WEIGHT_SECTION\n3 4 2\n5 6\n7 1\n",
		     "in.tsp:8:3: more than the 6 weights of UPPER_ROW for DIMENSION 4");
	/* a triangle cannot hold an asymmetric matrix */
	assert_error("TYPE: ATSP\nDIMENSION: 4\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: LOWER_DIAG_ROW\n"
		     "EDGE_WEIGHT_SECTION\n0\n3 0\n",
		     "in.tsp:5:1: TYPE ATSP needs EDGE_WEIGHT_FORMAT: FULL_MATRIX, not LOWER_DIAG_ROW");
}

static void test_unsupported_formats_are_refused_at_their_line(void **state)
{
	(void)state;
	assert_error("NAME: x\nTYPE: TSP\nDIMENSION: 4\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: UPPER_COL\n",
		     "in.tsp:5:21: EDGE_WEIGHT_FORMAT 'UPPER_COL' is not supported: only FULL_MATRIX, UPPER_ROW, "
		     "LOWER_ROW, UPPER_DIAG_ROW, LOWER_DIAG_ROW");
	assert_error("NAME: x\nTYPE: TSP\nDIMENSION: 4\nEDGE_WEIGHT_TYPE: EXPLICIT\nEDGE_WEIGHT_FORMAT: FUNCTION\n",
		     "in.tsp:5:21: EDGE_WEIGHT_FORMAT 'FUNCTION' is not supported: only FULL_MATRIX, UPPER_ROW, "
		     "LOWER_ROW, UPPER_DIAG_ROW, LOWER_DIAG_ROW");
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
		     "in.tsp:2:1: EDGE_WEIGHT_SECTION without EDGE_WEIGHT_TYPE: EXPLICIT and an EDGE_WEIGHT_FORMAT");
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
		cmocka_unit_test(test_gr17_lower_diag_row_reads_and_solves_to_2085),
		cmocka_unit_test(test_every_triangle_format_gives_the_full_matrix),
		cmocka_unit_test(test_bad_triangles_give_line_and_column),
		cmocka_unit_test(test_unsupported_formats_are_refused_at_their_line),
		cmocka_unit_test(test_dimension_errors),
		cmocka_unit_test(test_bad_weights_give_line_and_column),
		cmocka_unit_test(test_tsp_must_be_symmetric),
		cmocka_unit_test(test_other_bad_files),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
