/*
 * qemu/cluster/cluster_state.c - reading and writing the cluster's state file.
 *
 * Format (one record a line, words separated by one space):
 *   dpm-cluster-state 1
 *   supervisor PID START
 *   ready 0|1
 *   switch NAME PID START STATE
 *   service NAME PORT PID START STATE
 *   node NAME ID ARCH PID START STATE
 * STATE is not-started, running, external, per-connection, exit:CODE or
 * signal:NUMBER.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <dirent.h>
#include <sys/un.h>
#include <unistd.h>

#include "cluster_state.h"

int state_path(const char *dir, const char *name, int is_socket, char *out, size_t size,
	       char *err, size_t errlen)
{
	size_t limit = is_socket ? sizeof(((struct sockaddr_un *)0)->sun_path) : size;
	if (limit > size)
		limit = size;
	int n = snprintf(out, size, "%s/%s", dir, name);
	if (n < 0 || (size_t)n >= limit) {
		snprintf(err, errlen, "%s/%s: path too long%s", dir, name,
			 is_socket ? " for a UNIX socket (choose a shorter --dir)" : "");
		return -1;
	}
	return 0;
}

static int has_suffix(const char *s, const char *suffix)
{
	size_t n = strlen(s), k = strlen(suffix);
	return n > k && !strcmp(s + n - k, suffix);
}

/* Remove dir/name, and a directory of files (the switch's) with it. */
static void remove_entry(const char *dir, const char *name)
{
	char path[4096];
	snprintf(path, sizeof path, "%s/%s", dir, name);
	DIR *d = opendir(path);
	if (d) {
		for (struct dirent *e; (e = readdir(d));)
			if (strcmp(e->d_name, ".") && strcmp(e->d_name, ".."))
				unlinkat(dirfd(d), e->d_name, 0);
		closedir(d);
		rmdir(path);
	} else {
		unlink(path);
	}
}

void state_clean(const char *dir, int logs_too)
{
	static const char *const runtime[] = { NODE_SOCKET_SUFFIX };
	static const char *const logs[] = { NODE_CONSOLE_SUFFIX, NODE_LOG_SUFFIX, SERVICE_LOG_SUFFIX };
	DIR *d = opendir(dir);
	if (!d)
		return;
	for (struct dirent *e; (e = readdir(d));) {
		int doomed = !strcmp(e->d_name, STATE_FILE) || !strcmp(e->d_name, STATE_SECRET) ||
			     !strcmp(e->d_name, STATE_SWITCH) || has_suffix(e->d_name, ".tmp") ||
			     (logs_too && (!strcmp(e->d_name, STATE_SUPERVISOR_LOG) ||
					   !strcmp(e->d_name, STATE_SWITCH_LOG)));
		for (size_t i = 0; i < sizeof runtime / sizeof runtime[0]; i++)
			doomed |= has_suffix(e->d_name, runtime[i]);
		for (size_t i = 0; logs_too && i < sizeof logs / sizeof logs[0]; i++)
			doomed |= has_suffix(e->d_name, logs[i]);
		if (doomed)
			remove_entry(dir, e->d_name);
	}
	closedir(d);
}

static void format_state_word(const struct member *m, char *out, size_t size)
{
	switch (m->state) {
	case MEMBER_NOT_STARTED: snprintf(out, size, "not-started"); break;
	case MEMBER_RUNNING: snprintf(out, size, "running"); break;
	case MEMBER_EXTERNAL: snprintf(out, size, "external"); break;
	case MEMBER_PER_CONNECTION: snprintf(out, size, "per-connection"); break;
	case MEMBER_EXITED:
		if (m->end.signal)
			snprintf(out, size, "signal:%d", m->end.signal);
		else
			snprintf(out, size, "exit:%d", m->end.code);
		break;
	}
}

static int parse_state_word(const char *w, struct member *m)
{
	m->end = (struct proc_end){ -1, 0 };
	if (!strcmp(w, "not-started"))
		m->state = MEMBER_NOT_STARTED;
	else if (!strcmp(w, "running"))
		m->state = MEMBER_RUNNING;
	else if (!strcmp(w, "external"))
		m->state = MEMBER_EXTERNAL;
	else if (!strcmp(w, "per-connection"))
		m->state = MEMBER_PER_CONNECTION;
	else if (sscanf(w, "exit:%d", &m->end.code) == 1)
		m->state = MEMBER_EXITED;
	else if (sscanf(w, "signal:%d", &m->end.signal) == 1)
		m->state = MEMBER_EXITED;
	else
		return -1;
	return 0;
}

int state_format(const struct cluster_state *st, char *out, size_t size)
{
	size_t used = 0;
#define EMIT(...)                                                           \
	do {                                                                \
		int n_ = snprintf(out + used, size - used, __VA_ARGS__);    \
		if (n_ < 0 || (size_t)n_ >= size - used)                    \
			return -1;                                          \
		used += (size_t)n_;                                         \
	} while (0)
	EMIT("dpm-cluster-state 1\nsupervisor %d %llu\nready %d\n", (int)st->supervisor.pid,
	     st->supervisor.start, st->ready);
	for (int i = 0; i < st->nmembers; i++) {
		const struct member *m = &st->members[i];
		char word[32];
		format_state_word(m, word, sizeof word);
		if (m->kind == MEMBER_SWITCH)
			EMIT("switch %s", m->name);
		else if (m->kind == MEMBER_SERVICE)
			EMIT("service %s %d", m->name, m->port);
		else
			EMIT("node %s %d %s", m->name, m->id, m->arch);
		EMIT(" %d %llu %s\n", (int)m->proc.pid, m->proc.start, word);
	}
#undef EMIT
	return 0;
}

/* The common tail of a member line: PID START STATE. */
static int parse_proc_words(const char *rest, struct member *m)
{
	int pid;
	char word[32];
	int used = 0;
	if (sscanf(rest, "%d %llu %31s%n", &pid, &m->proc.start, word, &used) != 3 ||
	    rest[used] != '\0' || pid < 0)
		return -1;
	m->proc.pid = pid;
	return parse_state_word(word, m);
}

static int parse_member(const char *line, struct member *m)
{
	int used = 0;
	memset(m, 0, sizeof *m);
	if (sscanf(line, "switch %16s %n", m->name, &used) == 1 && used) {
		m->kind = MEMBER_SWITCH;
		strcpy(m->arch, "vde");
	} else if (sscanf(line, "service %16s %d %n", m->name, &m->port, &used) == 2 && used) {
		m->kind = MEMBER_SERVICE;
		strcpy(m->arch, "-");
	} else if (sscanf(line, "node %16s %d %7s %n", m->name, &m->id, m->arch, &used) == 3 && used) {
		m->kind = MEMBER_NODE;
	} else {
		return -1;
	}
	return parse_proc_words(line + used, m);
}

static int parse_line(const char *line, int lineno, struct cluster_state *st)
{
	int pid, used = 0;
	if (lineno == 1)
		return strcmp(line, "dpm-cluster-state 1") ? -1 : 0;
	if (sscanf(line, "supervisor %d %llu%n", &pid, &st->supervisor.start, &used) == 2 &&
	    !line[used]) {
		st->supervisor.pid = pid;
		return 0;
	}
	if (sscanf(line, "ready %d%n", &st->ready, &used) == 1 && !line[used])
		return 0;
	if (st->nmembers == STATE_MAX_MEMBERS)
		return -1;
	if (parse_member(line, &st->members[st->nmembers]))
		return -1;
	st->nmembers++;
	return 0;
}

int state_parse(const char *file, const char *text, struct cluster_state *st, char *err,
		size_t errlen)
{
	memset(st, 0, sizeof *st);
	char line[256];
	int lineno = 0;
	for (const char *p = text; *p;) {
		const char *nl = strchr(p, '\n');
		size_t len = nl ? (size_t)(nl - p) : strlen(p);
		lineno++;
		if (len >= sizeof line || (snprintf(line, sizeof line, "%.*s", (int)len, p),
					   parse_line(line, lineno, st))) {
			snprintf(err, errlen, "%s:%d: not a line of a cluster state file", file, lineno);
			return -1;
		}
		p += len + (nl != NULL);
	}
	if (lineno == 0 || st->supervisor.pid == 0) {
		snprintf(err, errlen, "%s: incomplete cluster state file", file);
		return -1;
	}
	return 0;
}

int state_save(const char *dir, const struct cluster_state *st)
{
	char text[8192], path[4096], tmp[4200], err[64];
	if (state_format(st, text, sizeof text) ||
	    state_path(dir, STATE_FILE, 0, path, sizeof path, err, sizeof err)) {
		errno = ENAMETOOLONG;
		return -1;
	}
	snprintf(tmp, sizeof tmp, "%s.tmp", path);
	FILE *f = fopen(tmp, "w");
	if (!f)
		return -1;
	int bad = fputs(text, f) == EOF;
	bad |= fclose(f) != 0;
	if (bad || rename(tmp, path) < 0) {
		unlink(tmp);
		return -1;
	}
	return 0;
}

int state_load(const char *dir, struct cluster_state *st, char *err, size_t errlen)
{
	char path[4096], text[8192];
	if (state_path(dir, STATE_FILE, 0, path, sizeof path, err, errlen))
		return -1;
	FILE *f = fopen(path, "r");
	if (!f) {
		if (errno == ENOENT)
			return 0;
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	size_t n = fread(text, 1, sizeof text - 1, f);
	fclose(f);
	text[n] = '\0';
	return state_parse(path, text, st, err, errlen) ? -1 : 1;
}

struct member *state_find_node(struct cluster_state *st, const char *name_or_id)
{
	char *end;
	long id = strtol(name_or_id, &end, 10);
	int by_id = *name_or_id && !*end;
	for (int i = 0; i < st->nmembers; i++) {
		struct member *m = &st->members[i];
		if (m->kind == MEMBER_NODE && (by_id ? m->id == id : !strcmp(m->name, name_or_id)))
			return m;
	}
	return NULL;
}

int state_live_processes(const struct cluster_state *st, struct proc_id *ids)
{
	int n = 0;
	for (int i = 0; i < st->nmembers; i++)
		if (st->members[i].state != MEMBER_EXTERNAL && proc_alive(&st->members[i].proc))
			ids[n++] = st->members[i].proc;
	return n;
}

int state_anything_alive(const struct cluster_state *st)
{
	struct proc_id ids[STATE_MAX_MEMBERS];
	return proc_alive(&st->supervisor) || state_live_processes(st, ids) > 0;
}

const char *member_state_name(const struct member *m)
{
	switch (m->state) {
	case MEMBER_NOT_STARTED: return "not-started";
	case MEMBER_RUNNING: return "running";
	case MEMBER_EXTERNAL: return "external";
	case MEMBER_PER_CONNECTION: return "per-connection";
	case MEMBER_EXITED: return "exited";
	}
	return "?";
}

void member_status(const struct member *m, char *out, size_t size)
{
	const char *abbrev = m->end.signal ? sigabbrev_np(m->end.signal) : NULL;
	if (m->state != MEMBER_EXITED)
		snprintf(out, size, "-");
	else if (m->end.signal && abbrev)
		snprintf(out, size, "SIG%s", abbrev);
	else if (m->end.signal)
		snprintf(out, size, "signal %d", m->end.signal);
	else if (m->end.code >= 0)
		snprintf(out, size, "%d", m->end.code);
	else
		snprintf(out, size, "?");
}

static const char *kind_name(enum member_kind kind)
{
	return kind == MEMBER_SWITCH ? "switch" : kind == MEMBER_SERVICE ? "service" : "node";
}

static void field_or_dash(char *out, size_t size, int value)
{
	if (value > 0)
		snprintf(out, size, "%d", value);
	else
		snprintf(out, size, "-");
}

void member_status_line(const struct member *m, int porcelain, char *out, size_t size)
{
	char id[16], pid[16], port[16], status[32], state[48];
	field_or_dash(id, sizeof id, m->id);
	field_or_dash(pid, sizeof pid, m->proc.pid);
	field_or_dash(port, sizeof port, m->port);
	member_status(m, status, sizeof status);
	if (porcelain) {
		snprintf(out, size, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s", kind_name(m->kind), m->name, id,
			 m->arch, pid, member_state_name(m), status, port);
		return;
	}
	if (m->state == MEMBER_EXITED)
		snprintf(state, sizeof state, "exited (%s)", status);
	else
		snprintf(state, sizeof state, "%s", member_state_name(m));
	snprintf(out, size, "%-12s %-3s %-5s %-8s %-16s %s", m->name, id, m->arch, pid, state, port);
}

void cluster_status_line(pid_t supervisor, const char *state, int porcelain, const char *dir, char *out,
			 size_t size)
{
	if (porcelain)
		snprintf(out, size, "cluster\t-\t-\t-\t%d\t%s\t-\t-", (int)supervisor, state);
	else
		snprintf(out, size, "cluster in %s: %s (supervisor pid %d)", dir,
			 strcmp(state, "gone") ? state : "supervisor gone", (int)supervisor);
}
