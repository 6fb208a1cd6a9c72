/*
 * tests/export/export_check.c - `dpm export`'s outputs, as the real readers
 * show them, checked against `dpm dump`'s text of the same log (see
 * export_check.h).  The dump is the reference: the library's one reader
 * printed it, so an export agrees with the log when it agrees with it.
 *
 * Small logs only (everything is held in memory): these are test checks.
 */
#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "export_check.h"
#include "hostfilter/tracelog/grow.h"

#define CF_MAX 32
#define NAME_MAX_LEN 32

struct drec {
	char type[NAME_MAX_LEN];
	int is_note;
	size_t nf;
	char name[CF_MAX][NAME_MAX_LEN];
	uint64_t val[CF_MAX];
};

struct dlist {
	struct drec *r;
	size_t n, cap;
};

static int failf(char *err, size_t errlen, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(err, errlen, fmt, ap);
	va_end(ap);
	return -1;
}

static struct drec *dl_add(struct dlist *l)
{
	if (grow_for_one_more((void **)&l->r, &l->cap, l->n, sizeof *l->r))
		return NULL;
	struct drec *d = &l->r[l->n++];
	memset(d, 0, sizeof *d);
	return d;
}

/* A value as dump or babeltrace2 writes it: 0x.. hex, 0b.. binary, 0..
 * octal, else decimal.  Returns the end, or NULL if not a number. */
static const char *parse_value(const char *s, uint64_t *v)
{
	char *end;
	int base = 10;
	if (s[0] == '0' && (s[1] == 'x' || s[1] == 'X'))
		base = 16, s += 2;
	else if (s[0] == '0' && (s[1] == 'b' || s[1] == 'B'))
		base = 2, s += 2;
	else if (s[0] == '0' && s[1] >= '0' && s[1] <= '7')
		base = 8, s += 1;
	if (!((*s >= '0' && *s <= '9') || (base == 16 && ((*s | 32) >= 'a' && (*s | 32) <= 'f'))))
		return NULL;
	*v = strtoull(s, &end, base);
	return end;
}

static int field(const struct drec *d, const char *name, uint64_t *v)
{
	for (size_t i = 0; i < d->nf; i++)
		if (!strcmp(d->name[i], name)) {
			*v = d->val[i];
			return 1;
		}
	return 0;
}

static int add_field(struct drec *d, const char *name, size_t nlen, uint64_t v)
{
	if (d->nf == CF_MAX || nlen >= NAME_MAX_LEN)
		return -1;
	memcpy(d->name[d->nf], name, nlen);
	d->name[d->nf][nlen] = 0;
	d->val[d->nf++] = v;
	return 0;
}

/* dump's text: "TYPE name=value ... [(reason)]" a line. */
static int parse_dump(const char *text, struct dlist *l, char *err, size_t errlen)
{
	int line = 0;
	for (const char *p = text; *p; line++) {
		const char *eol = strchr(p, '\n');
		if (!eol)
			eol = p + strlen(p);
		struct drec *d = dl_add(l);
		if (!d)
			return failf(err, errlen, "out of memory");
		size_t tl = strcspn(p, " \n");
		if (tl == 0 || tl >= NAME_MAX_LEN)
			return failf(err, errlen, "dump line %d: no type", line + 1);
		memcpy(d->type, p, tl);
		d->is_note = !strcmp(d->type, "NOTE");
		p += tl;
		while (p < eol && *p == ' ' && p[1] != '(') {
			p++;
			const char *eq = strchr(p, '=');
			uint64_t v;
			const char *end;
			if (!eq || eq > eol || !(end = parse_value(eq + 1, &v)) ||
			    add_field(d, p, (size_t)(eq - p), v))
				return failf(err, errlen, "dump line %d: bad field", line + 1);
			p = end;
		}
		p = *eol ? eol + 1 : eol;
	}
	return 0;
}

/* ---- CTF: babeltrace2's text ---------------------------------------- */

/* "[HH:MM:SS.nnnnnnnnn] (+...) TYPE: { name = value, ... }" */
static int parse_bt_line(const char *p, const char *eol, struct drec *d, uint64_t *ts)
{
	unsigned h, m, s;
	unsigned long long ns;
	if (sscanf(p, "[%u:%u:%u.%llu]", &h, &m, &s, &ns) != 4)
		return -1;
	*ts = ((uint64_t)h * 3600 + m * 60 + s) * 1000000000ull + ns;
	const char *q = strstr(p, ") ");
	if (!q || q > eol)
		return -1;
	q += 2;
	const char *colon = strstr(q, ": {");
	if (!colon || colon > eol || (size_t)(colon - q) >= NAME_MAX_LEN)
		return -1;
	memcpy(d->type, q, (size_t)(colon - q));
	d->is_note = !strcmp(d->type, "NOTE");
	q = colon + 3;
	while (q < eol && *q == ' ' && q[1] != '}') {
		q++;
		const char *eq = strstr(q, " = ");
		uint64_t v;
		const char *end;
		if (!eq || eq > eol || !(end = parse_value(eq + 3, &v)) ||
		    add_field(d, q, (size_t)(eq - q), v))
			return -1;
		q = end;
		if (*q == ',')
			q++;
	}
	return 0;
}

/* The stream a record belongs to: its node, or the filter's notes. */
static int64_t stream_key(const struct drec *d)
{
	uint64_t m = 0;
	if (d->is_note)
		return -1;
	field(d, "machine", &m);
	return (int64_t)m;
}

int check_ctf(const char *dump_text, const char *bt_text, char *summary, size_t slen,
	      char *err, size_t errlen)
{
	struct dlist dump = { 0 }, bt = { 0 };
	int r = -1;
	size_t keys_n = 0, mismatch_ts = 0;
	int64_t keys[256];
	size_t next[256];        /* per stream: index in dump to compare next */
	uint64_t last_time[256]; /* per stream: the largest time so far */
	if (parse_dump(dump_text, &dump, err, errlen))
		goto out;
	int line = 0;
	for (const char *p = bt_text; *p; line++) {
		const char *eol = strchr(p, '\n');
		if (!eol)
			eol = p + strlen(p);
		struct drec *d = dl_add(&bt);
		uint64_t ts;
		if (!d || parse_bt_line(p, eol, d, &ts)) {
			failf(err, errlen, "babeltrace2 line %d: cannot read '%.*s'", line + 1,
			      (int)(eol - p), p);
			goto out;
		}
		int64_t key = stream_key(d);
		size_t k = 0;
		while (k < keys_n && keys[k] != key)
			k++;
		if (k == keys_n) {
			if (keys_n == 256) {
				failf(err, errlen, "more than 256 streams");
				goto out;
			}
			keys[keys_n] = key;
			next[keys_n] = 0;
			last_time[keys_n++] = 0;
		}
		/* the stream's next record in the dump */
		size_t i = next[k];
		while (i < dump.n && stream_key(&dump.r[i]) != key)
			i++;
		if (i == dump.n) {
			failf(err, errlen, "babeltrace2 line %d: %s has no record left in the dump",
			      line + 1, d->type);
			goto out;
		}
		next[k] = i + 1;
		const struct drec *w = &dump.r[i];
		if (strcmp(w->type, d->type) || w->nf != d->nf) {
			failf(err, errlen, "babeltrace2 line %d: %s with %zu fields, dump line %zu: %s with %zu",
			      line + 1, d->type, d->nf, i + 1, w->type, w->nf);
			goto out;
		}
		for (size_t f = 0; f < w->nf; f++)
			if (strcmp(w->name[f], d->name[f]) || w->val[f] != d->val[f]) {
				failf(err, errlen, "babeltrace2 line %d: %s=%llu, dump line %zu: %s=%llu",
				      line + 1, d->name[f], (unsigned long long)d->val[f], i + 1,
				      w->name[f], (unsigned long long)w->val[f]);
				goto out;
			}
		/* A node's record is stamped with its own time (unless it went back). */
		uint64_t t;
		if (!d->is_note && field(d, "time", &t)) {
			if (t >= last_time[k] && t != ts) {
				failf(err, errlen, "babeltrace2 line %d: timestamp %llu, time %llu",
				      line + 1, (unsigned long long)ts, (unsigned long long)t);
				goto out;
			}
			mismatch_ts += t < last_time[k];
			if (t > last_time[k])
				last_time[k] = t;
		}
		p = *eol ? eol + 1 : eol;
	}
	if (bt.n != dump.n) {
		failf(err, errlen, "babeltrace2 lists %zu events, the dump %zu records", bt.n, dump.n);
		goto out;
	}
	if (summary)
		snprintf(summary, slen, "ctf: %zu events in %zu streams agree with the dump "
					"(%zu stamped later than their time)", bt.n, keys_n, mismatch_ts);
	r = 0;
out:
	free(dump.r);
	free(bt.r);
	return r;
}

/* ---- OTF2: otf2-print's text ---------------------------------------- */

struct region_count {
	char name[NAME_MAX_LEN];
	size_t enter, leave, want;
};

struct msg_key {
	uint64_t a, b, c;
};

static int cmp_key(const void *x, const void *y)
{
	const struct msg_key *p = x, *q = y;
	if (p->a != q->a)
		return p->a < q->a ? -1 : 1;
	if (p->b != q->b)
		return p->b < q->b ? -1 : 1;
	return p->c < q->c ? -1 : p->c > q->c;
}

/* Multiset intersection of two sorted arrays. */
static size_t common(const struct msg_key *a, size_t na, const struct msg_key *b, size_t nb)
{
	size_t i = 0, j = 0, n = 0;
	while (i < na && j < nb) {
		int c = cmp_key(&a[i], &b[j]);
		if (c == 0)
			n++, i++, j++;
		else if (c < 0)
			i++;
		else
			j++;
	}
	return n;
}

static struct region_count *region_of(struct region_count *rc, size_t *n, size_t max,
				      const char *name, size_t len)
{
	for (size_t i = 0; i < *n; i++)
		if (strlen(rc[i].name) == len && !strncmp(rc[i].name, name, len))
			return &rc[i];
	if (*n == max || len >= NAME_MAX_LEN)
		return NULL;
	memset(&rc[*n], 0, sizeof rc[*n]);
	memcpy(rc[*n].name, name, len);
	return &rc[(*n)++];
}

#define TASK_PID_OF(t) ((t) & 0xffffu)

int check_otf2(const char *dump_text, const char *print_text, char *summary, size_t slen,
	       char *err, size_t errlen)
{
	struct dlist dump = { 0 };
	struct region_count rc[64];
	size_t nrc = 0, want_send = 0, want_recv = 0, nsend = 0, nrecv = 0, want_pairs = 0;
	struct msg_key *sends = NULL, *recvs = NULL, *dsend = NULL, *drecv = NULL;
	int r = -1;
	if (parse_dump(dump_text, &dump, err, errlen))
		goto out;
	sends = calloc(dump.n + 1, sizeof *sends);
	recvs = calloc(dump.n + 1, sizeof *recvs);
	dsend = calloc(dump.n + 1, sizeof *dsend);
	drecv = calloc(dump.n + 1, sizeof *drecv);
	if (!sends || !recvs || !dsend || !drecv) {
		failf(err, errlen, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < dump.n; i++) {
		const struct drec *d = &dump.r[i];
		uint64_t msg, from, to;
		if (d->is_note)
			continue;
		struct region_count *c = region_of(rc, &nrc, 64, d->type, strlen(d->type));
		if (!c) {
			failf(err, errlen, "too many record types");
			goto out;
		}
		c->want++;
		int ends = field(d, "msgId", &msg) && field(d, "fromTask", &from) &&
			   field(d, "toTask", &to);
		if (ends && !strcmp(d->type, "SEND") && TASK_PID_OF(to))
			dsend[want_send++] = (struct msg_key){ msg, from, to };
		if (ends && !strcmp(d->type, "RECEIVE") && TASK_PID_OF(from))
			drecv[want_recv++] = (struct msg_key){ msg, from, to };
	}
	qsort(dsend, want_send, sizeof *dsend, cmp_key);
	qsort(drecv, want_recv, sizeof *drecv, cmp_key);
	want_pairs = common(dsend, want_send, drecv, want_recv);

	for (const char *p = print_text; *p;) {
		const char *eol = strchr(p, '\n');
		if (!eol)
			eol = p + strlen(p);
		unsigned long long loc, t, peer, tag;
		int enter = !strncmp(p, "ENTER ", 6), leave = !strncmp(p, "LEAVE ", 6);
		if (enter || leave) {
			const char *q = strstr(p, "Region: \"");
			const char *e = q && q < eol ? strchr(q + 9, '"') : NULL;
			struct region_count *c = e ? region_of(rc, &nrc, 64, q + 9, (size_t)(e - q - 9)) : NULL;
			if (!c) {
				failf(err, errlen, "otf2-print: cannot read '%.*s'", (int)(eol - p), p);
				goto out;
			}
			c->enter += enter;
			c->leave += leave;
		} else if (!strncmp(p, "MPI_SEND ", 9) || !strncmp(p, "MPI_RECV ", 9)) {
			int send = p[4] == 'S';
			const char *tg = strstr(p, "Tag: ");
			if (sscanf(p + 9, "%llu %llu %*s %llu", &loc, &t, &peer) != 3 || !tg || tg > eol ||
			    sscanf(tg, "Tag: %llu", &tag) != 1 || nsend >= dump.n || nrecv >= dump.n) {
				failf(err, errlen, "otf2-print: cannot read '%.*s'", (int)(eol - p), p);
				goto out;
			}
			if (send)
				sends[nsend++] = (struct msg_key){ tag, loc, peer };
			else
				recvs[nrecv++] = (struct msg_key){ tag, peer, loc };
		}
		p = *eol ? eol + 1 : eol;
	}
	size_t states = 0, records = 0;
	for (size_t i = 0; i < nrc; i++) {
		const struct region_count *c = &rc[i];
		int state = !strcmp(c->name, "running") || !strcmp(c->name, "blocked");
		if (c->enter != c->leave || (!state && c->enter != c->want)) {
			failf(err, errlen, "region %s: %zu ENTER, %zu LEAVE, %zu records in the dump",
			      c->name, c->enter, c->leave, c->want);
			goto out;
		}
		states += state ? c->enter : 0;
		records += c->want;
	}
	if (nsend != want_send || nrecv != want_recv) {
		failf(err, errlen, "%zu MPI_SEND and %zu MPI_RECV, the dump has %zu and %zu", nsend,
		      nrecv, want_send, want_recv);
		goto out;
	}
	qsort(sends, nsend, sizeof *sends, cmp_key);
	qsort(recvs, nrecv, sizeof *recvs, cmp_key);
	size_t pairs = common(sends, nsend, recvs, nrecv);
	if (pairs != want_pairs) {
		failf(err, errlen, "%zu send/receive pairs match, the dump has %zu messages with both ends",
		      pairs, want_pairs);
		goto out;
	}
	if (summary)
		snprintf(summary, slen, "otf2: %zu records as regions, %zu state regions, %zu MPI_SEND, "
					"%zu MPI_RECV, %zu matched", records, states, nsend, nrecv, pairs);
	r = 0;
out:
	free(dump.r);
	free(sends);
	free(recvs);
	free(dsend);
	free(drecv);
	return r;
}

/* ---- Chrome: strict JSON -------------------------------------------- */

struct cev {
	char ph[4], name[NAME_MAX_LEN], cat[16], id[40];
	int64_t pid, tid;
	uint64_t ts_ns, dur_ns; /* "ts", "dur" (microseconds) in ns */
	int has_pid, has_tid;
};

struct jp {
	const char *s;
	size_t i;
	char *err;
	size_t errlen;
	int failed;
	struct cev *evs;   /* traceEvents' elements, captured */
	size_t nev, cap;
};

static int jfail(struct jp *j, const char *what)
{
	if (!j->failed) {
		int line = 1, col = 1;
		for (size_t k = 0; k < j->i && j->s[k]; k++) {
			if (j->s[k] == '\n')
				line++, col = 1;
			else
				col++;
		}
		snprintf(j->err, j->errlen, "%d:%d: %s", line, col, what);
	}
	j->failed = 1;
	return -1;
}

static void jws(struct jp *j)
{
	while (j->s[j->i] == ' ' || j->s[j->i] == '\t' || j->s[j->i] == '\n' || j->s[j->i] == '\r')
		j->i++;
}

static int hexdig(char c)
{
	return (c >= '0' && c <= '9') || ((c | 32) >= 'a' && (c | 32) <= 'f');
}

/* A string; its ASCII text (escapes kept as they are) into out if given. */
static int jstring(struct jp *j, char *out, size_t outlen)
{
	size_t n = 0;
	if (j->s[j->i] != '"')
		return jfail(j, "expected a string");
	j->i++;
	for (;;) {
		unsigned char c = (unsigned char)j->s[j->i];
		if (c == '"')
			break;
		if (c == 0)
			return jfail(j, "unterminated string");
		if (c < 0x20)
			return jfail(j, "control character in a string");
		if (c == '\\') {
			char e = j->s[j->i + 1];
			if (e == 'u') {
				for (int k = 2; k < 6; k++)
					if (!hexdig(j->s[j->i + k]))
						return jfail(j, "bad \\u escape");
				j->i += 6;
				continue;
			}
			if (!strchr("\"\\/bfnrt", e) || !e)
				return jfail(j, "bad escape");
			j->i += 2;
			continue;
		}
		if (out && n + 1 < outlen)
			out[n++] = (char)c;
		j->i++;
	}
	j->i++;
	if (out)
		out[n] = 0;
	return 0;
}

static int jnumber(struct jp *j, int64_t *v)
{
	size_t start = j->i;
	if (j->s[j->i] == '-')
		j->i++;
	if (j->s[j->i] == '0')
		j->i++;
	else if (j->s[j->i] >= '1' && j->s[j->i] <= '9')
		while (j->s[j->i] >= '0' && j->s[j->i] <= '9')
			j->i++;
	else
		return jfail(j, "bad number");
	if (j->s[j->i] == '.') {
		j->i++;
		if (!(j->s[j->i] >= '0' && j->s[j->i] <= '9'))
			return jfail(j, "bad fraction");
		while (j->s[j->i] >= '0' && j->s[j->i] <= '9')
			j->i++;
	}
	if (j->s[j->i] == 'e' || j->s[j->i] == 'E') {
		j->i++;
		if (j->s[j->i] == '+' || j->s[j->i] == '-')
			j->i++;
		if (!(j->s[j->i] >= '0' && j->s[j->i] <= '9'))
			return jfail(j, "bad exponent");
		while (j->s[j->i] >= '0' && j->s[j->i] <= '9')
			j->i++;
	}
	if (v)
		*v = strtoll(j->s + start, NULL, 10);
	return 0;
}

static int jvalue(struct jp *j, int depth, int events, struct cev *ev);

/* A non-negative number of microseconds (as the export writes: up to
 * three decimals) in ns. */
static int jmicros(struct jp *j, uint64_t *ns)
{
	size_t start = j->i;
	if (jnumber(j, NULL))
		return -1;
	const char *p = j->s + start;
	uint64_t v = 0;
	int frac = -1;
	for (; p < j->s + j->i; p++) {
		if (*p == '.') {
			frac = 0;
		} else if (*p >= '0' && *p <= '9' && frac < 3) {
			v = v * 10 + (uint64_t)(*p - '0');
			frac += frac >= 0;
		} else if (!(*p >= '0' && *p <= '9')) {
			return jfail(j, "a time is not a plain non-negative number");
		}
	}
	for (frac = frac < 0 ? 0 : frac; frac < 3; frac++)
		v *= 10;
	*ns = v;
	return 0;
}

/* An object; with ev, its members ph/name/cat/id/pid/tid are kept. */
static int jobject(struct jp *j, int depth, struct cev *ev)
{
	j->i++;
	jws(j);
	if (j->s[j->i] == '}') {
		j->i++;
		return 0;
	}
	for (;;) {
		char key[32];
		jws(j);
		if (jstring(j, key, sizeof key))
			return -1;
		jws(j);
		if (j->s[j->i] != ':')
			return jfail(j, "expected ':'");
		j->i++;
		jws(j);
		char *str = NULL;
		size_t len = 0;
		int64_t *num = NULL;
		if (ev && !strcmp(key, "ph"))
			str = ev->ph, len = sizeof ev->ph;
		else if (ev && !strcmp(key, "name"))
			str = ev->name, len = sizeof ev->name;
		else if (ev && !strcmp(key, "cat"))
			str = ev->cat, len = sizeof ev->cat;
		else if (ev && !strcmp(key, "id"))
			str = ev->id, len = sizeof ev->id;
		else if (ev && !strcmp(key, "pid"))
			num = &ev->pid, ev->has_pid = j->s[j->i] != '"';
		else if (ev && !strcmp(key, "tid"))
			num = &ev->tid, ev->has_tid = j->s[j->i] != '"';
		uint64_t *micros = ev && !strcmp(key, "ts") ? &ev->ts_ns
				   : ev && !strcmp(key, "dur") ? &ev->dur_ns : NULL;
		if (micros && j->s[j->i] != '"') {
			if (jmicros(j, micros))
				return -1;
		} else if (str && j->s[j->i] == '"') {
			if (jstring(j, str, len))
				return -1;
		} else if (num && (j->s[j->i] == '-' || (j->s[j->i] >= '0' && j->s[j->i] <= '9'))) {
			if (jnumber(j, num))
				return -1;
		} else if (jvalue(j, depth + 1, depth == 0 && !strcmp(key, "traceEvents"), NULL)) {
			return -1;
		}
		jws(j);
		if (j->s[j->i] == ',') {
			j->i++;
			continue;
		}
		if (j->s[j->i] == '}') {
			j->i++;
			return 0;
		}
		return jfail(j, "expected ',' or '}'");
	}
}

static int jarray(struct jp *j, int depth, int events)
{
	j->i++;
	jws(j);
	if (j->s[j->i] == ']') {
		j->i++;
		return 0;
	}
	for (;;) {
		jws(j);
		struct cev *ev = NULL;
		if (events) {
			if (grow_for_one_more((void **)&j->evs, &j->cap, j->nev, sizeof *j->evs))
				return jfail(j, "out of memory");
			ev = &j->evs[j->nev++];
			memset(ev, 0, sizeof *ev);
			if (j->s[j->i] != '{')
				return jfail(j, "a trace event is not an object");
		}
		if (jvalue(j, depth + 1, 0, ev))
			return -1;
		jws(j);
		if (j->s[j->i] == ',') {
			j->i++;
			continue;
		}
		if (j->s[j->i] == ']') {
			j->i++;
			return 0;
		}
		return jfail(j, "expected ',' or ']'");
	}
}

static int jvalue(struct jp *j, int depth, int events, struct cev *ev)
{
	if (depth > 64)
		return jfail(j, "nested too deeply");
	jws(j);
	char c = j->s[j->i];
	if (c == '{')
		return jobject(j, depth, ev);
	if (c == '[')
		return jarray(j, depth, events);
	if (c == '"')
		return jstring(j, NULL, 0);
	if (c == '-' || (c >= '0' && c <= '9'))
		return jnumber(j, NULL);
	static const char *const lits[] = { "true", "false", "null" };
	for (int k = 0; k < 3; k++)
		if (!strncmp(j->s + j->i, lits[k], strlen(lits[k]))) {
			j->i += strlen(lits[k]);
			return 0;
		}
	return jfail(j, "expected a value");
}

static int jparse(struct jp *j)
{
	if (jvalue(j, 0, 0, NULL))
		return -1;
	jws(j);
	return j->s[j->i] ? jfail(j, "text after the value") : 0;
}

int check_json(const char *text, char *err, size_t errlen)
{
	struct jp j = { .s = text, .err = err, .errlen = errlen };
	int r = jparse(&j);
	free(j.evs);
	return r;
}

static int cmp_u64(const void *x, const void *y)
{
	uint64_t a = *(const uint64_t *)x, b = *(const uint64_t *)y;
	return a < b ? -1 : a > b;
}

static int has_u64(const uint64_t *v, size_t n, uint64_t x)
{
	return bsearch(&x, v, n, sizeof *v, cmp_u64) != NULL;
}

struct track {
	int64_t pid, tid;
	int named;
	uint64_t end; /* of its last state slice */
};

static struct track *track_of(struct track *t, size_t *n, size_t max, int64_t pid, int64_t tid)
{
	for (size_t i = 0; i < *n; i++)
		if (t[i].pid == pid && t[i].tid == tid)
			return &t[i];
	if (*n == max)
		return NULL;
	memset(&t[*n], 0, sizeof t[*n]);
	t[*n].pid = pid;
	t[*n].tid = tid;
	return &t[(*n)++];
}

int check_chrome(const char *dump_text, const char *json, char *summary, size_t slen,
		 char *err, size_t errlen)
{
	struct dlist dump = { 0 };
	struct jp j = { .s = json, .err = err, .errlen = errlen };
	uint64_t *sent = NULL, *s_ids = NULL;
	struct track tracks[512];
	size_t ntracks = 0, nsent = 0, ns = 0, nf = 0, nf_matched = 0, want_s = 0, want_f = 0,
	       want_f_matched = 0, rec = 0, slices = 0;
	int r = -1;
	if (parse_dump(dump_text, &dump, err, errlen) || jparse(&j))
		goto out;
	sent = calloc(dump.n + 1, sizeof *sent);
	s_ids = calloc(j.nev + 1, sizeof *s_ids);
	if (!sent || !s_ids) {
		failf(err, errlen, "out of memory");
		goto out;
	}
	for (size_t i = 0; i < dump.n; i++) {
		uint64_t msg;
		if (!strcmp(dump.r[i].type, "SEND") && field(&dump.r[i], "msgId", &msg))
			sent[nsent++] = msg, want_s++;
	}
	qsort(sent, nsent, sizeof *sent, cmp_u64);
	for (size_t i = 0; i < dump.n; i++) {
		uint64_t msg;
		if (!strcmp(dump.r[i].type, "RECEIVE") && field(&dump.r[i], "msgId", &msg)) {
			want_f++;
			want_f_matched += has_u64(sent, nsent, msg);
		}
	}
	for (size_t i = 0; i < j.nev; i++) {
		const struct cev *e = &j.evs[i];
		uint64_t id;
		if (!strcmp(e->ph, "s") && parse_value(e->id, &id))
			s_ids[ns++] = id;
	}
	qsort(s_ids, ns, sizeof *s_ids, cmp_u64);
	for (size_t i = 0; i < j.nev; i++) {
		const struct cev *e = &j.evs[i];
		if (!e->has_pid || !e->has_tid) {
			failf(err, errlen, "trace event %zu has no numeric pid and tid", i);
			goto out;
		}
		struct track *t = track_of(tracks, &ntracks, 512, e->pid, e->tid);
		if (!t) {
			failf(err, errlen, "more than 512 tracks");
			goto out;
		}
		if (!strcmp(e->ph, "M") && !strcmp(e->name, "thread_name")) {
			t->named = 1;
		} else if (!strcmp(e->ph, "i")) {
			/* the next record of the log, in order, on its process's track */
			if (rec == dump.n) {
				failf(err, errlen, "more instant events than records");
				goto out;
			}
			const struct drec *d = &dump.r[rec++];
			uint64_t machine = 0, task = 0;
			field(d, "machine", &machine);
			field(d, "task", &task);
			int ok = !strcmp(e->name, d->type) &&
				 (d->is_note ? !strcmp(e->cat, "filter")
					     : !strcmp(e->cat, "trace") && (uint64_t)e->pid == machine &&
						       (uint64_t)e->tid == TASK_PID_OF(task));
			if (!ok || (!d->is_note && !t->named)) {
				failf(err, errlen, "instant %zu: %s on %lld/%lld, dump record %zu: %s %s",
				      rec, e->name, (long long)e->pid, (long long)e->tid, rec, d->type,
				      t->named ? "" : "(its track has no thread_name)");
				goto out;
			}
		} else if (!strcmp(e->ph, "X")) {
			/* a process's states follow one another, never overlapping */
			if (e->ts_ns < t->end) {
				failf(err, errlen, "event %zu: %s on %lld/%lld starts at %llu ns, before the "
						   "slice before it ends (%llu)", i, e->name, (long long)e->pid,
				      (long long)e->tid, (unsigned long long)e->ts_ns,
				      (unsigned long long)t->end);
				goto out;
			}
			t->end = e->ts_ns + e->dur_ns;
			slices++;
		} else if (!strcmp(e->ph, "f")) {
			uint64_t id;
			nf++;
			nf_matched += parse_value(e->id, &id) && has_u64(s_ids, ns, id);
		}
	}
	if (rec != dump.n || ns != want_s || nf != want_f || nf_matched != want_f_matched) {
		failf(err, errlen, "%zu instants, %zu flow starts, %zu flow ends (%zu with a start); "
				   "the dump has %zu records, %zu SEND, %zu RECEIVE (%zu of them sent)",
		      rec, ns, nf, nf_matched, dump.n, want_s, want_f, want_f_matched);
		goto out;
	}
	if (summary)
		snprintf(summary, slen, "chrome: %zu events; %zu instants, %zu slices, %zu flows "
					"(%zu ends, %zu with their start) on %zu tracks",
			 j.nev, rec, slices, ns, nf, nf_matched, ntracks);
	r = 0;
out:
	free(dump.r);
	free(j.evs);
	free(sent);
	free(s_ids);
	return r;
}
