/*
 * tests/unit/test_html_page.h - reading a report page back in tests: is it
 * well-formed (every element closed in order, ids unique), and what does
 * a table cell say, found by the table's id, a row's key and a column's
 * heading.  Only the HTML html.c writes needs to be understood.
 */
#ifndef TEST_HTML_PAGE_H
#define TEST_HTML_PAGE_H

#include <stddef.h>

/* 0 if page is well-formed with unique ids; else -1 with why. */
int page_check(const char *page, char *why, size_t whylen);

struct page_cell {
	char text[512];     /* the cell's text, tags removed, entities decoded */
	double value;       /* data-v or data-ns if present, else the text as a number */
	int has_exact;      /* data-v or data-ns was present */
	double diff;        /* data-diff, if present */
	int has_diff;
};

/* The cell of table `id` in the row whose column `key_head` reads `key`,
 * column `head`.  0 found; -1 if the table, row or column is missing. */
int page_cell(const char *page, const char *id, const char *key_head, const char *key,
	      const char *head, struct page_cell *out);

/* Column `head` of table id, row by row in page order, into out (at most
 * max); how many, or -1 if the table or column is missing. */
int page_column(const char *page, const char *id, const char *head, struct page_cell *out,
		int max);

/* Rows in the body of table id, or -1 if there is no such table. */
int page_rows(const char *page, const char *id);

/* How many times needle occurs in page. */
size_t page_count(const char *page, const char *needle);

#endif
