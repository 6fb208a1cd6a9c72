/*
 * analysis/report/spec.c - one RUN argument of `dpm report`:
 * NAME=LOG[,key=value...].
 *
 * Keys: requestors, servers, system (process lists for the causality
 * analysis), names (a names file, as `dpm causality --names` reads),
 * mtime (a delivery-time table), and what the run is in a study
 * (`--study`): config (a label), users, n, p, version and rep (numbers).
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


static const char keys_help[] = "keys: requestors, servers, system, names, mtime, config, users, "
				 "n, p, version, rep";

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

/* The study keys that take a whole number, with their ranges. */
static long *number_of(struct report_spec *s, const char *key, long *lo, long *hi)
{
	static const struct { const char *key; size_t off; long lo, hi; } keys[] = {
		{ "users", offsetof(struct report_spec, users), 1, 100000 },
		{ "n", offsetof(struct report_spec, n), 1, 100000 },
		{ "p", offsetof(struct report_spec, p), 1, 100000 },
		{ "version", offsetof(struct report_spec, version), 1, 3 },
		{ "rep", offsetof(struct report_spec, rep), 0, 100000 },
	};
	for (size_t i = 0; i < sizeof keys / sizeof keys[0]; i++)
		if (!strcmp(key, keys[i].key)) {
			*lo = keys[i].lo;
			*hi = keys[i].hi;
			return (long *)((char *)s + keys[i].off);
		}
	return NULL;
}

/* key=value of a study key (config or a number); 1 if key is not one. */
static int study_option(struct report_spec *s, const char *key, const char *value, char *err,
			size_t errlen)
{
	long lo = 0, hi = 0, *num = number_of(s, key, &lo, &hi);
	int is_config = !strcmp(key, "config");
	if (!num && !is_config)
		return 1;
	if (is_config ? s->config[0] != '\0' : *num != REPORT_UNSET) {
		snprintf(err, errlen, "run '%s': '%s' is given twice", s->name, key);
		return -1;
	}
	size_t len = strlen(value);
	if (len == 0) {
		snprintf(err, errlen, "run '%s': '%s' has no value", s->name, key);
		return -1;
	}
	if (is_config) {
		if (len >= sizeof s->config ||
		    strspn(value, "abcdefghijklmnopqrstuvwxyz"
				  "ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789") != len) {
			snprintf(err, errlen, "run '%s': config: '%s' is not a label (want letters and "
				 "digits, at most %zu: config=A)", s->name, value, sizeof s->config - 1);
			return -1;
		}
		memcpy(s->config, value, len + 1);
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

static int parse_option(struct report_spec *s, char *item, char *err, size_t errlen)
{
	char *eq = strchr(item, '=');
	if (!eq) {
		snprintf(err, errlen, "run '%s': '%s' is not key=value (%s; join the processes of "
			 "a list with '+')", s->name, item, keys_help);
		return -1;
	}
	*eq = '\0';
	int rc = study_option(s, item, eq + 1, err, errlen);
	if (rc <= 0)
		return rc;
	int is_list;
	char **f = field_of(s, item, &is_list);
	if (!f) {
		snprintf(err, errlen, "run '%s': unknown key '%s' (%s)", s->name, item, keys_help);
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
static int parse_options(struct report_spec *s, char *rest, char *err, size_t errlen)
{
	while (rest) {
		char *comma = strchr(rest, ',');
		if (comma)
			*comma = '\0';
		if (parse_option(s, rest, err, errlen) < 0)
			return -1;
		rest = comma ? comma + 1 : NULL;
	}
	return 0;
}

int report_spec_parse(const char *arg, struct report_spec *s, char *err, size_t errlen)
{
	memset(s, 0, sizeof *s);
	s->users = s->n = s->p = s->version = s->rep = REPORT_UNSET;
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
		rc = parse_options(s, comma ? comma + 1 : NULL, err, errlen);
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
