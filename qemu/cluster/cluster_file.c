/*
 * qemu/cluster/cluster_file.c - parser of the cluster file (docs/cluster.md).
 *
 * The format is line oriented: a statement per line (`node NAME attr...`,
 * `service NAME attr...` or `cluster attr...`), attributes `key=value` with the value bare or
 * in double quotes, `#` comments.  Lines are independent, so the parser is
 * a cursor over one line at a time; every error names the column of the
 * token at fault.  Checks that span lines (duplicate names, ids, ports)
 * happen as each statement is added.
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "cluster_file.h"

struct cursor {
	const char *file;
	const char *line_start;
	const char *p;
	int line;
	char *err;
	size_t errlen;
};

static int fail_at(struct cursor *c, const char *at, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int fail_at(struct cursor *c, const char *at, const char *fmt, ...)
{
	int n = snprintf(c->err, c->errlen, "%s:%d:%d: ", c->file, c->line,
			 (int)(at - c->line_start) + 1);
	if (n < 0 || (size_t)n >= c->errlen)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	vsnprintf(c->err + n, c->errlen - (size_t)n, fmt, ap);
	va_end(ap);
	return -1;
}

static int at_line_end(const char *p)
{
	return *p == '\0' || *p == '\n' || *p == '#';
}

static void skip_blanks(struct cursor *c)
{
	while (*c->p == ' ' || *c->p == '\t' || *c->p == '\r')
		c->p++;
}

static int is_word_char(char ch)
{
	return ch != '\0' && ch != '\n' && ch != ' ' && ch != '\t' && ch != '\r' &&
	       ch != '#' && ch != '"' && ch != '=';
}

/* A bare word (statement keyword, name or attribute key) into out. */
static size_t read_word(struct cursor *c, char *out, size_t size)
{
	size_t n = 0;
	while (is_word_char(c->p[n]))
		n++;
	size_t k = n < size - 1 ? n : size - 1;
	memcpy(out, c->p, k);
	out[k] = '\0';
	c->p += n;
	return n;
}

/* A value: "quoted" (\" and \\ escape) or bare up to the next blank (a
 * bare value may hold '=': kernel=peerwait=500). */
static int read_value(struct cursor *c, const char *key, char *out, size_t size)
{
	const char *start = c->p;
	size_t n = 0;
	if (*c->p != '"') {
		while (*c->p && *c->p != '\n' && *c->p != ' ' && *c->p != '\t' &&
		       *c->p != '\r' && *c->p != '#') {
			if (*c->p == '"')
				return fail_at(c, c->p, "unexpected '\"' in the value of '%s' (quote the value)",
					       key);
			if (n + 1 >= size)
				return fail_at(c, start, "value of '%s' is longer than %zu characters", key, size - 1);
			out[n++] = *c->p++;
		}
		out[n] = '\0';
		return 0;
	}
	c->p++;
	while (*c->p != '"') {
		if (*c->p == '\0' || *c->p == '\n')
			return fail_at(c, start, "unterminated string");
		if (*c->p == '\\' && (c->p[1] == '"' || c->p[1] == '\\'))
			c->p++;
		if (n + 1 >= size)
			return fail_at(c, start, "value of '%s' is longer than %zu characters", key, size - 1);
		out[n++] = *c->p++;
	}
	c->p++;
	out[n] = '\0';
	return 0;
}

static int valid_name(const char *s, size_t len)
{
	if (len == 0 || len > CLUSTER_NAME_MAX ||
	    !((*s >= 'a' && *s <= 'z') || (*s >= 'A' && *s <= 'Z')))
		return 0;
	for (size_t i = 1; i < len; i++) {
		char ch = s[i];
		if (!((ch >= 'a' && ch <= 'z') || (ch >= 'A' && ch <= 'Z') ||
		      (ch >= '0' && ch <= '9') || ch == '-' || ch == '_'))
			return 0;
	}
	return 1;
}

/* A decimal number in [lo, hi], all of s. */
static int parse_range(const char *s, long lo, long hi, int *out)
{
	if (*s < '0' || *s > '9')
		return -1;
	errno = 0;
	char *end;
	long v = strtol(s, &end, 10);
	if (errno || *end || v < lo || v > hi)
		return -1;
	*out = (int)v;
	return 0;
}

/* Where an already defined node or service uses `name`, or 0. */
static int line_of_name(const struct cluster_spec *spec, const char *name)
{
	for (int i = 0; i < spec->nnodes; i++)
		if (!strcmp(spec->nodes[i].name, name))
			return spec->nodes[i].line;
	for (int i = 0; i < spec->nservices; i++)
		if (!strcmp(spec->services[i].name, name))
			return spec->services[i].line;
	return 0;
}

/* The statement's name: syntax, reserved words, uniqueness. */
static int read_name(struct cursor *c, const struct cluster_spec *spec, const char *keyword,
		     char *out)
{
	skip_blanks(c);
	const char *at = c->p;
	if (at_line_end(at))
		return fail_at(c, at, "expected a name after '%s'", keyword);
	char word[64];
	size_t len = read_word(c, word, sizeof word);
	if (!valid_name(at, len))
		return fail_at(c, at, "bad name '%.*s': a name is a letter, then letters, digits, '-' "
			       "or '_', at most %d characters", (int)len, at, CLUSTER_NAME_MAX);
	if (!strcmp(word, "switch") || !strcmp(word, "supervisor"))
		return fail_at(c, at, "the name '%s' is reserved", word);
	int prev = line_of_name(spec, word);
	if (prev)
		return fail_at(c, at, "the name '%s' is already used at line %d", word, prev);
	strcpy(out, word);
	return 0;
}

/* One `key=value` attribute; *key_at is where the key starts. */
static int read_attribute(struct cursor *c, char *key, size_t keylen, const char **key_at,
			  char *value, size_t valuelen)
{
	*key_at = c->p;
	if (read_word(c, key, keylen) == 0)
		return fail_at(c, c->p, "expected an attribute (key=value), found '%c'", *c->p);
	if (*c->p != '=')
		return fail_at(c, c->p, "expected '=' after '%s'", key);
	c->p++;
	return read_value(c, key, value, valuelen);
}

/* Each kernel word must be key=value, and not one dpm sets itself. */
static int check_kernel_words(struct cursor *c, const char *at, const char *words)
{
	static const char *const reserved[] = { "node", "peers", "host", "vclock",
						"vlat", "vbw", "vtx", "vrx", "vdisk", "vstop" };
	char copy[CLUSTER_WORDS_MAX];
	snprintf(copy, sizeof copy, "%s", words);
	for (char *save, *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save)) {
		char *eq = strchr(w, '=');
		if (!eq || eq == w)
			return fail_at(c, at, "kernel word '%s' is not key=value", w);
		for (size_t i = 0; i < sizeof reserved / sizeof reserved[0]; i++)
			if ((size_t)(eq - w) == strlen(reserved[i]) && !strncmp(w, reserved[i], (size_t)(eq - w)))
				return fail_at(c, at, "kernel word '%s' is set by dpm cluster itself", w);
	}
	return 0;
}

/* Words with '=' on the kernel command line belong to the kernel. */
static int check_init_words(struct cursor *c, const char *at, const char *words)
{
	char copy[CLUSTER_WORDS_MAX];
	snprintf(copy, sizeof copy, "%s", words);
	for (char *save, *w = strtok_r(copy, " \t", &save); w; w = strtok_r(NULL, " \t", &save))
		if (strchr(w, '='))
			return fail_at(c, at, "init argument '%s' contains '=', which makes it a kernel word", w);
	return 0;
}

static int id_user(const struct cluster_spec *spec, int id)
{
	for (int i = 0; i < spec->nnodes; i++)
		if (spec->nodes[i].id == id)
			return i;
	return -1;
}

/* Node n's clock from its name; -1 (n unchanged) for an unknown one. */
static int set_clock(struct cluster_node *n, const char *mode)
{
	if (strcmp(mode, "plain") && strcmp(mode, "icount") && strcmp(mode, "virtual"))
		return -1;
	n->icount = !strcmp(mode, "icount");
	n->vclock = !strcmp(mode, "virtual");
	return 0;
}

static int set_node_attribute(struct cursor *c, const struct cluster_spec *spec, void *item,
			      const char *key, const char *at, const char *value)
{
	struct cluster_node *n = item;
	if (!strcmp(key, "id")) {
		if (parse_range(value, 1, CLUSTER_MAX_NODES, &n->id))
			return fail_at(c, at, "id must be a number from 1 to %d, not '%s'",
				       CLUSTER_MAX_NODES, value);
		int other = id_user(spec, n->id);
		if (other >= 0)
			return fail_at(c, at, "id %d is already used by '%s' at line %d", n->id,
				       spec->nodes[other].name, spec->nodes[other].line);
	} else if (!strcmp(key, "arch")) {
		if (strcmp(value, "x86") && strcmp(value, "arm"))
			return fail_at(c, at, "unknown arch '%s'; expected x86 or arm", value);
		n->arch = strcmp(value, "arm") ? CLUSTER_X86 : CLUSTER_ARM;
	} else if (!strcmp(key, "memory")) {
		if (parse_range(value, CLUSTER_MIN_MEMORY, CLUSTER_MAX_MEMORY, &n->memory_mib))
			return fail_at(c, at, "memory must be a number of MiB from %d to %d, not '%s'",
				       CLUSTER_MIN_MEMORY, CLUSTER_MAX_MEMORY, value);
	} else if (!strcmp(key, "boot")) {
		if (strcmp(value, "yes") && strcmp(value, "no"))
			return fail_at(c, at, "boot must be yes or no, not '%s'", value);
		n->remote = !strcmp(value, "no");
	} else if (!strcmp(key, "disk")) {
		if (!*value || strlen(value) >= sizeof n->disk)
			return fail_at(c, at, "disk must be the path of an image file of at most %zu characters",
				       sizeof n->disk - 1);
		strcpy(n->disk, value);
	} else if (!strcmp(key, "clock")) {
		if (set_clock(n, value))
			return fail_at(c, at, "clock must be plain, icount or virtual, not '%s'", value);
	} else if (!strcmp(key, "shift")) {
		char why[128];
		if (cluster_vtime_shift(value, &n->shift, why, sizeof why))
			return fail_at(c, at, "%s", why);
		n->shift_col = (int)(at - c->line_start) + 1;
	} else if ((!strcmp(key, "init") || !strcmp(key, "kernel")) && strlen(value) >= sizeof n->init) {
		return fail_at(c, at, "value of '%s' is longer than %zu characters", key, sizeof n->init - 1);
	} else if (!strcmp(key, "init")) {
		if (check_init_words(c, at, value))
			return -1;
		strcpy(n->init, value);
	} else if (!strcmp(key, "kernel")) {
		if (check_kernel_words(c, at, value))
			return -1;
		strcpy(n->kernel, value);
	} else {
		return fail_at(c, at, "unknown node attribute '%s'; expected id, arch, memory, init, kernel, "
			       "boot, disk, clock or shift",
			       key);
	}
	return 0;
}

static int set_service_attribute(struct cursor *c, const struct cluster_spec *spec, void *item,
				 const char *key, const char *at, const char *value)
{
	struct cluster_service *s = item;
	if (!strcmp(key, "port")) {
		if (parse_range(value, 0, 65535, &s->port))
			return fail_at(c, at, "port must be a number from 0 to 65535, not '%s'", value);
		for (int i = 0; s->port && i < spec->nservices; i++)
			if (spec->services[i].port == s->port)
				return fail_at(c, at, "port %d is already used by '%s' at line %d", s->port,
					       spec->services[i].name, spec->services[i].line);
	} else if (!strcmp(key, "start") || !strcmp(key, "cmd")) {
		if (!value[0])
			return fail_at(c, at, "%s must name a command", key);
		if (s->start[0] || s->cmd[0])
			return fail_at(c, at, "a service has start= (a listener dpm starts) or cmd= (a "
					      "command QEMU runs for each connection), not both");
		strcpy(key[0] == 's' ? s->start : s->cmd, value);
	} else if (!strcmp(key, "auth")) {
		if (strcmp(value, "yes") && strcmp(value, "no"))
			return fail_at(c, at, "auth must be yes or no, not '%s'", value);
		s->auth = value[0] == 'y' ? 1 : 2;
	} else {
		return fail_at(c, at, "unknown service attribute '%s'; expected port, start, cmd or auth",
			       key);
	}
	return 0;
}

int cluster_service_auth(const struct cluster_service *sv)
{
	if (sv->auth)
		return sv->auth == 1;
	return !sv->cmd[0] && (sv->start[0] || !strcmp(sv->name, "ctl"));
}

/* The attributes after a statement's name, each at most once; `set`
 * checks and stores one (key's position `at` for messages). */
typedef int (*attribute_setter)(struct cursor *c, const struct cluster_spec *spec, void *item,
				const char *key, const char *at, const char *value);

static int read_attributes(struct cursor *c, const struct cluster_spec *spec, void *item,
			   attribute_setter set)
{
	char seen[16][16];
	int nseen = 0;
	for (;;) {
		skip_blanks(c);
		if (at_line_end(c->p))
			return 0;
		char key[16], value[CLUSTER_COMMAND_MAX];
		const char *at;
		if (read_attribute(c, key, sizeof key, &at, value, sizeof value))
			return -1;
		for (int i = 0; i < nseen; i++)
			if (!strcmp(seen[i], key))
				return fail_at(c, at, "attribute '%s' given twice", key);
		if (set(c, spec, item, key, at, value))
			return -1;
		if (nseen < 16)
			strcpy(seen[nseen++], key);
	}
}

static int parse_node(struct cursor *c, struct cluster_spec *spec, const char *at)
{
	if (spec->nnodes == CLUSTER_MAX_NODES)
		return fail_at(c, at, "more than %d nodes", CLUSTER_MAX_NODES);
	struct cluster_node n = { .arch = CLUSTER_X86, .memory_mib = CLUSTER_DEFAULT_MEMORY,
				  .line = c->line };
	if (read_name(c, spec, "node", n.name) || read_attributes(c, spec, &n, set_node_attribute))
		return -1;
	/* The nodes of a cluster in virtual time synchronise with each other
	 * (docs/virtual-time.md): all of them or none. */
	if (spec->nnodes > 0 && n.vclock != spec->nodes[0].vclock)
		return fail_at(c, at, "clock=virtual on every node or on none");
	spec->nodes[spec->nnodes++] = n;
	return 0;
}

static int parse_service(struct cursor *c, struct cluster_spec *spec, const char *at)
{
	if (spec->nservices == CLUSTER_MAX_SERVICES)
		return fail_at(c, at, "more than %d services", CLUSTER_MAX_SERVICES);
	struct cluster_service s = { .line = c->line };
	skip_blanks(c);
	const char *name_at = c->p;
	if (read_name(c, spec, "service", s.name))
		return -1;
	if (strlen(s.name) > CLUSTER_SERVICE_NAME_MAX)
		return fail_at(c, name_at, "service name '%s' is longer than %d characters (the kernel's "
			       "limit)", s.name, CLUSTER_SERVICE_NAME_MAX);
	if (read_attributes(c, spec, &s, set_service_attribute))
		return -1;
	spec->services[spec->nservices++] = s;
	return 0;
}

static int set_cluster_attribute(struct cursor *c, const struct cluster_spec *spec, void *item,
				 const char *key, const char *at, const char *value)
{
	(void)spec;
	char why[256];
	int r = cluster_vtime_attribute(item, key, value, why, sizeof why);
	if (r > 0)
		return fail_at(c, at, "unknown cluster attribute '%s'; expected %s", key,
			       cluster_vtime_attribute_names());
	return r ? fail_at(c, at, "%s", why) : 0;
}

/* `cluster attr...`: virtual time's models (cluster_vtime.h), once. */
static int parse_cluster(struct cursor *c, struct cluster_spec *spec, const char *at)
{
	if (spec->vtime.line)
		return fail_at(c, at, "a second 'cluster' statement (the first is at line %d)",
			       spec->vtime.line);
	spec->vtime.line = c->line;
	spec->vtime.col = (int)(at - c->line_start) + 1;
	return read_attributes(c, spec, &spec->vtime, set_cluster_attribute);
}

/* Virtual time's settings mean nothing under the other clocks: refused,
 * so that a file never seems to model what it does not. */
static int check_vtime_settings(const char *file, const struct cluster_spec *spec, char *err,
				size_t errlen)
{
	int virtual = 0;
	for (int i = 0; i < spec->nnodes; i++) {
		const struct cluster_node *n = &spec->nodes[i];
		virtual |= n->vclock;
		if (n->shift_col && !n->vclock) {
			snprintf(err, errlen, "%s:%d:%d: shift= applies under clock=virtual only; node '%s' "
				 "has clock=%s", file, n->line, n->shift_col, n->name,
				 cluster_clock_name(n));
			return -1;
		}
	}
	if (spec->vtime.line && !virtual) {
		snprintf(err, errlen, "%s:%d:%d: the 'cluster' statement sets virtual time's models, "
			 "which apply under clock=virtual only, and no node has clock=virtual",
			 file, spec->vtime.line, spec->vtime.col);
		return -1;
	}
	return 0;
}

static int parse_line(struct cursor *c, struct cluster_spec *spec)
{
	skip_blanks(c);
	if (at_line_end(c->p))
		return 0;
	const char *at = c->p;
	char word[32];
	size_t len = read_word(c, word, sizeof word);
	if (len == 0)
		return fail_at(c, at, "unexpected '%c'; expected 'node', 'service' or 'cluster'", *at);
	if (!strcmp(word, "node"))
		return parse_node(c, spec, at);
	if (!strcmp(word, "service"))
		return parse_service(c, spec, at);
	if (!strcmp(word, "cluster"))
		return parse_cluster(c, spec, at);
	return fail_at(c, at, "unknown statement '%.*s'; expected 'node', 'service' or 'cluster'",
		       (int)len, at);
}

static int lowest_free_id(const struct cluster_spec *spec)
{
	for (int id = 1; id <= CLUSTER_MAX_NODES; id++)
		if (id_user(spec, id) < 0)
			return id;
	return 0;
}

/* Nodes without id= get the lowest ids nobody asked for, in file order. */
static void assign_ids(struct cluster_spec *spec)
{
	for (int i = 0; i < spec->nnodes; i++)
		if (spec->nodes[i].id == 0)
			spec->nodes[i].id = lowest_free_id(spec);
}

int cluster_parse(const char *file, const char *text, struct cluster_spec *spec,
		  char *err, size_t errlen)
{
	memset(spec, 0, sizeof *spec);
	struct cursor c = { .file = file, .p = text, .line = 1, .err = err, .errlen = errlen };
	while (*c.p) {
		c.line_start = c.p;
		if (parse_line(&c, spec))
			return -1;
		while (*c.p && *c.p != '\n')
			c.p++;
		if (*c.p == '\n') {
			c.p++;
			c.line++;
		}
	}
	int local = 0;
	for (int i = 0; i < spec->nnodes; i++)
		local += !spec->nodes[i].remote;
	if (local == 0) {
		snprintf(err, errlen, "%s:%d:1: the cluster has no nodes%s", file, c.line,
			 spec->nnodes ? " to boot on this host" : "");
		return -1;
	}
	if (check_vtime_settings(file, spec, err, errlen))
		return -1;
	assign_ids(spec);
	return 0;
}

int cluster_load(const char *path, struct cluster_spec *spec, char *err, size_t errlen)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return -1;
	}
	static char text[64 * 1024];
	size_t n = fread(text, 1, sizeof text - 1, f);
	int too_big = !feof(f);
	fclose(f);
	if (too_big) {
		snprintf(err, errlen, "%s: larger than %zu bytes", path, sizeof text - 1);
		return -1;
	}
	text[n] = '\0';
	if (strlen(text) != n) {
		snprintf(err, errlen, "%s: contains a NUL byte", path);
		return -1;
	}
	return cluster_parse(path, text, spec, err, errlen);
}

int cluster_set_node_count(struct cluster_spec *spec, int n, char *err, size_t errlen)
{
	if (n < 1 || n > CLUSTER_MAX_NODES) {
		snprintf(err, errlen, "the number of nodes must be from 1 to %d, not %d",
			 CLUSTER_MAX_NODES, n);
		return -1;
	}
	if (n <= spec->nnodes) {
		spec->nnodes = n;
		return 0;
	}
	struct cluster_node model = spec->nodes[spec->nnodes - 1];
	while (spec->nnodes < n) {
		struct cluster_node add = model;
		add.id = lowest_free_id(spec);
		add.init[0] = '\0';
		add.disk[0] = '\0'; /* a disk image belongs to one node */
		add.line = 0;
		add.remote = 0;
		snprintf(add.name, sizeof add.name, "n%d", add.id);
		if (line_of_name(spec, add.name)) {
			snprintf(err, errlen, "cannot add node '%s': the name is already used", add.name);
			return -1;
		}
		spec->nodes[spec->nnodes++] = add;
	}
	return 0;
}

int cluster_set_clock(struct cluster_spec *spec, const char *mode, char *err, size_t errlen)
{
	struct cluster_node probe = { 0 };
	if (set_clock(&probe, mode)) {
		snprintf(err, errlen, "the clock must be plain, icount or virtual, not '%s'", mode);
		return -1;
	}
	for (int i = 0; !probe.vclock && i < spec->nnodes; i++)
		if (spec->nodes[i].shift_col) {
			snprintf(err, errlen, "node '%s' has shift= (line %d), which applies under "
				 "clock=virtual only, not clock=%s", spec->nodes[i].name,
				 spec->nodes[i].line, mode);
			return -1;
		}
	if (!probe.vclock && spec->vtime.line) {
		snprintf(err, errlen, "the cluster file's 'cluster' statement (line %d) sets virtual "
			 "time's models, which apply under clock=virtual only, not clock=%s",
			 spec->vtime.line, mode);
		return -1;
	}
	for (int i = 0; i < spec->nnodes; i++)
		set_clock(&spec->nodes[i], mode);
	return 0;
}

const char *cluster_clock_name(const struct cluster_node *n)
{
	return n->vclock ? "virtual" : n->icount ? "icount" : "plain";
}

int cluster_node_shift(const struct cluster_spec *spec, const struct cluster_node *n)
{
	return n->shift_col ? n->shift : cluster_vtime_default_shift(&spec->vtime);
}

const char *cluster_arch_name(enum cluster_arch arch)
{
	return arch == CLUSTER_ARM ? "arm" : "x86";
}
