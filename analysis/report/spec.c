/*
 * analysis/report/spec.c - one RUN argument of `dpm report`:
 * NAME=LOG[,key=value...].
 *
 * Keys: requestors, servers, system (process lists for the causality
 * analysis), names (a names file, as `dpm causality --names` reads),
 * mtime (a delivery-time table), and the keys the caller adds (labels
 * and numbers in ranges: the studies', analysis/studies/study.h).
 * Options are separated by commas, so the processes of a list are joined
 * with '+': requestors=5.1+5.2.  Nothing here needs quoting in a shell.  The lists are checked for the node.pid
 * form here and kept comma-separated, the form the role code reads;
 * whether the processes are in the trace is checked once it is loaded.
 */
#include "spec.h"

#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "analysis/model/events.h"

/* The keys a RUN may have: the report's own and those added. */
struct spec_keys {
	const struct report_key *added;
	size_t n;
};

/* "keys: requestors, ..., and the added ones" into buf. */
static const char *keys_help(const struct spec_keys *k, char *buf, size_t len)
{
	snprintf(buf, len, "keys: requestors, servers, system, names, mtime");
	for (size_t i = 0; i < k->n; i++) {
		size_t used = strlen(buf);
		snprintf(buf + used, len - used, ", %s", k->added[i].name);
	}
	return buf;
}

static int name_ok(const char *s, size_t n)
{
	if (n == 0 || n >= sizeof ((struct report_spec *)0)->name || s[0] == '.')
		return 0;
	for (size_t i = 0; i < n; i++)
		if (!strchr("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_.-", s[i]))
			return 0;
	return 1;
}

/* The field of s a key names, and whether its value is a process list. */
static char **field_of(struct report_spec *s, const char *key, int *is_list)
{
	*is_list = 1;
	if (!strcmp(key, "requestors"))
		return &s->requestors;
	if (!strcmp(key, "servers"))
		return &s->servers;
	if (!strcmp(key, "system"))
		return &s->system;
	*is_list = 0;
	if (!strcmp(key, "names"))
		return &s->names;
	if (!strcmp(key, "mtime"))
		return &s->mtime;
	return NULL;
}

/* "5.1+5.2" -> "5.1,5.2", every item node.pid.  NULL with err if not. */
static char *process_list(const struct report_spec *s, const char *key, const char *value,
			  char *err, size_t errlen)
{
	char *list = strdup(value);
	if (!list) {
		snprintf(err, errlen, "run '%s': out of memory", s->name);
		return NULL;
	}
	for (char *item = list; ; ) {
		char *plus = strchr(item, '+');
		if (plus)
			*plus = '\0';
		uint32_t id;
		if (parse_task(item, &id) <= 0) {
			snprintf(err, errlen, "run '%s': %s: '%s' is not a process (want node.pid, "
				 "several joined with '+': %s=5.1+5.2)", s->name, key, item, key);
			free(list);
			return NULL;
		}
		if (!plus)
			return list;
		*plus = ',';
		item = plus + 1;
	}
}

/* key=value of an added key (a label or a number); 1 if key is not one. */
static int added_option(struct report_spec *s, const struct spec_keys *k, const char *key,
			const char *value, char *err, size_t errlen)
{
	size_t i = 0;
	while (i < k->n && strcmp(key, k->added[i].name))
		i++;
	if (i == k->n)
		return 1;
	const struct report_key *a = &k->added[i];
	long lo = a->lo, hi = a->hi, *num = &s->num[i];
	int is_label = a->label;
	char *label = s->text[i];
	if (is_label ? label[0] != '\0' : *num != REPORT_UNSET) {
		snprintf(err, errlen, "run '%s': '%s' is given twice", s->name, key);
		return -1;
	}
	size_t len = strlen(value);
	if (len == 0) {
		snprintf(err, errlen, "run '%s': '%s' has no value", s->name, key);
		return -1;
	}
	if (is_label) {
		if (len >= REPORT_TEXT ||
		    strspn(value, "abcdefghijklmnopqrstuvwxyz"
				  "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") != len) {
			snprintf(err, errlen, "run '%s': %s: '%s' is not a label (want letters and "
				 "digits, at most %d: %s=A)", s->name, key, value, REPORT_TEXT - 1, key);
			return -1;
		}
		memcpy(label, value, len + 1);
		return 0;
	}
	long v = len <= 6 && strspn(value, "0123456789") == len ? strtol(value, NULL, 10) : -1;
	if (v < lo || v > hi) {
		snprintf(err, errlen, "run '%s': %s: '%s' is not a whole number from %ld to %ld",
			 s->name, key, value, lo, hi);
		return -1;
	}
	*num = v;
	return 0;
}

static int parse_option(struct report_spec *s, const struct spec_keys *k, char *item, char *err,
			size_t errlen)
{
	char help[512];
	char *eq = strchr(item, '=');
	if (!eq) {
		snprintf(err, errlen, "run '%s': '%s' is not key=value (%s; join the processes of "
			 "a list with '+')", s->name, item, keys_help(k, help, sizeof help));
		return -1;
	}
	*eq = '\0';
	int rc = added_option(s, k, item, eq + 1, err, errlen);
	if (rc <= 0)
		return rc;
	int is_list;
	char **f = field_of(s, item, &is_list);
	if (!f) {
		snprintf(err, errlen, "run '%s': unknown key '%s' (%s)", s->name, item,
			 keys_help(k, help, sizeof help));
		return -1;
	}
	if (*f) {
		snprintf(err, errlen, "run '%s': '%s' is given twice", s->name, item);
		return -1;
	}
	if (!eq[1]) {
		snprintf(err, errlen, "run '%s': '%s' has no value", s->name, item);
		return -1;
	}
	*f = is_list ? process_list(s, item, eq + 1, err, errlen) : strdup(eq + 1);
	if (!*f && !is_list)
		snprintf(err, errlen, "run '%s': out of memory", s->name);
	return *f ? 0 : -1;
}

/* The options after LOG, one at a time. */
static int parse_options(struct report_spec *s, const struct spec_keys *k, char *rest, char *err,
			 size_t errlen)
{
	while (rest) {
		char *comma = strchr(rest, ',');
		if (comma)
			*comma = '\0';
		if (parse_option(s, k, rest, err, errlen) < 0)
			return -1;
		rest = comma ? comma + 1 : NULL;
	}
	return 0;
}

int report_spec_parse(const char *arg, const struct report_key *keys, size_t nkeys,
		      struct report_spec *s, char *err, size_t errlen)
{
	const struct spec_keys k = { keys, nkeys < REPORT_KEYS ? nkeys : REPORT_KEYS };
	memset(s, 0, sizeof *s);
	for (size_t i = 0; i < REPORT_KEYS; i++)
		s->num[i] = REPORT_UNSET;
	const char *eq = strchr(arg, '=');
	if (!eq || !name_ok(arg, (size_t)(eq - arg))) {
		snprintf(err, errlen, "run '%s': want NAME=LOG[,key=value...] with NAME of letters, "
			 "digits, '_', '-', '.' (not first), at most %zu characters", arg,
			 sizeof s->name - 1);
		return -1;
	}
	memcpy(s->name, arg, (size_t)(eq - arg));
	char *copy = strdup(eq + 1);
	if (!copy) {
		snprintf(err, errlen, "run '%s': out of memory", s->name);
		return -1;
	}
	char *comma = strchr(copy, ',');
	if (comma)
		*comma = '\0';
	int rc = 0;
	if (!copy[0]) {
		snprintf(err, errlen, "run '%s': no log given (want NAME=LOG)", s->name);
		rc = -1;
	} else if (!(s->log = strdup(copy))) {
		snprintf(err, errlen, "run '%s': out of memory", s->name);
		rc = -1;
	} else {
		rc = parse_options(s, &k, comma ? comma + 1 : NULL, err, errlen);
	}
	free(copy);
	if (rc < 0)
		report_spec_free(s);
	return rc;
}

void report_spec_free(struct report_spec *s)
{
	char **fields[] = { &s->log, &s->requestors, &s->servers, &s->system, &s->names, &s->mtime };
	for (size_t i = 0; i < sizeof fields / sizeof fields[0]; i++) {
		free(*fields[i]);
		*fields[i] = NULL;
	}
}
