/*
 * tests/export/export_check.h - checks of `dpm export`'s three outputs
 * against `dpm dump`'s text of the same log, as the real readers show
 * them (export_check.c): shared by the unit test (test_export.c) and the
 * readers' shell test (export-check, export_test.sh).
 *
 * Each returns 0 when the output agrees with the dump, else -1 with the
 * first difference in err; *summary (may be NULL) gets one line of counts.
 */
#ifndef DPM_TESTS_EXPORT_CHECK_H
#define DPM_TESTS_EXPORT_CHECK_H

#include <stddef.h>

/* `babeltrace2 OUT`'s text: every record, per node in log order, with the
 * same type, field names and values. */
int check_ctf(const char *dump_text, const char *bt_text, char *summary, size_t slen,
	      char *err, size_t errlen);

/* `otf2-print` of the archive: an ENTER and a LEAVE of the record's type
 * per record, running/blocked entered as often as left, an MPI_SEND per
 * SEND (and MPI_RECV per RECEIVE) naming a process, and the sends and
 * receives pairing up exactly for the messages the dump has both ends of. */
int check_otf2(const char *dump_text, const char *print_text, char *summary, size_t slen,
	       char *err, size_t errlen);

/* The Chrome JSON, parsed strictly (RFC 8259): an instant per record with
 * the same type, a flow start per SEND and end per RECEIVE with a msgId,
 * every flow end with a start exactly when the dump has its SEND, and the
 * state slices of each track one after another, never overlapping. */
int check_chrome(const char *dump_text, const char *json, char *summary, size_t slen,
		 char *err, size_t errlen);

/* Strict JSON: 0 if text is one valid JSON value, else -1 with
 * "line:col: what" in err. */
int check_json(const char *text, char *err, size_t errlen);

#endif
