/*
 * qemu/control/control_cmd.c - the controller's commands (the DPM paper §4.3) over the
 * model of control.h.  One function a command; each checks its words and
 * every transition it needs before it changes anything, so a refused
 * command leaves jobs and processes as they were.  Normal output goes to
 * c->out (the sink), messages to c->err as "WHERE: what is wrong".
 */
#include <errno.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <time.h>
#include <unistd.h>

#include "kernel/abi/names.h"
#include "control.h"

typedef enum control_result (*command_fn)(struct control *c, int argc, char **argv, const char *where,
					  int depth);

static enum control_result complain(struct control *c, enum control_result r, const char *where,
				    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static enum control_result complain(struct control *c, enum control_result r, const char *where,
				    const char *fmt, ...)
{
	va_list ap;
	fprintf(c->err, "%s: ", where);
	va_start(ap, fmt);
	vfprintf(c->err, fmt, ap);
	va_end(ap);
	fputc('\n', c->err);
	fflush(c->err);
	return r;
}

static void say(struct control *c, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static void say(struct control *c, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	vfprintf(c->out, fmt, ap);
	va_end(ap);
	fflush(c->out);
}

/* A process created or acquired (event "created", "acquired"): for people
 * "process 'NAME' was EVENT: identifier = N.L"; with porcelain one line
 * EVENT NAME N.L MACHINE JOB, tab-separated (docs/control.md). */
static void report_process(struct control *c, const char *event, const struct cproc *p)
{
	unsigned node = (unsigned)(p->task >> 16), local = (unsigned)(p->task & 0xffff);
	if (!c->porcelain) {
		say(c, "process '%s' was %s: identifier = %u.%u\n", p->name, event, node, local);
		return;
	}
	FILE *f = c->reports ? c->reports : c->out;
	fprintf(f, "%s\t%s\t%u.%u\t%s\t%s\n", event, p->name, node, local, p->machine,
		c->jobs[p->job].name);
	fflush(f);
}

/* ---- lookups ---------------------------------------------------------- */

static int find_filter(struct control *c, const char *name)
{
	for (int i = 0; i < CONTROL_MAX_FILTERS; i++)
		if (c->filters[i].in_use && !strcmp(c->filters[i].name, name))
			return i;
	return -1;
}

static int find_job(struct control *c, const char *name)
{
	for (int i = 0; i < CONTROL_MAX_JOBS; i++)
		if (c->jobs[i].in_use && !strcmp(c->jobs[i].name, name))
			return i;
	return -1;
}

static struct cproc *find_proc(struct control *c, int job, const char *name)
{
	for (int i = 0; i < CONTROL_MAX_PROCS; i++)
		if (c->procs[i].in_use && c->procs[i].job == job && !strcmp(c->procs[i].name, name))
			return &c->procs[i];
	return NULL;
}

static struct cproc *free_proc(struct control *c)
{
	for (int i = 0; i < CONTROL_MAX_PROCS; i++)
		if (!c->procs[i].in_use)
			return &c->procs[i];
	return NULL;
}

static int job_arg(struct control *c, const char *name, const char *where)
{
	int j = find_job(c, name);
	if (j < 0)
		complain(c, CR_USAGE, where, "no job '%s' (see 'jobs')", name);
	return j;
}

static int valid_name(const char *s)
{
	size_t n = strlen(s);
	if (n == 0 || n > CONTROL_NAME_MAX)
		return 0;
	for (; *s; s++)
		if (!(*s == '_' || *s == '-' || *s == '.' || (*s >= '0' && *s <= '9') ||
		      ((*s | 32) >= 'a' && (*s | 32) <= 'z')))
			return 0;
	return 1;
}

/* ---- filter, newjob --------------------------------------------------- */

static enum control_result cmd_filter(struct control *c, int argc, char **argv, const char *where, int depth)
{
	(void)depth;
	if (argc == 1) {
		int any = 0;
		for (int i = 0; i < CONTROL_MAX_FILTERS; i++)
			if (c->filters[i].in_use) {
				say(c, "filter '%s'%s: log %s\n", c->filters[i].name,
				    i == c->default_filter ? " (default)" : "", c->filters[i].log);
				any = 1;
			}
		if (!any)
			say(c, "no filters\n");
		return CR_OK;
	}
	if (argc > 3)
		return complain(c, CR_USAGE, where, "usage: filter [SERVICE [LOG]]");
	if (!valid_name(argv[1]) || strlen(argv[1]) > 11)
		return complain(c, CR_USAGE, where, "'%s' is not a host service name (letters, digits, '-', '_'; at most 11)", argv[1]);
	if (find_filter(c, argv[1]) >= 0)
		return complain(c, CR_FAILED, where, "filter '%s' already exists", argv[1]);
	char services[512] = "";
	if (c->nodes.has_service &&
	    !c->nodes.has_service(c->nodes.ctx, argv[1], services, sizeof services))
		return complain(c, CR_USAGE, where,
				"the cluster has no host service '%s' (its filters: %s); usage: filter "
				"SERVICE [LOG], SERVICE a 'service' line of the cluster file",
				argv[1], services[0] ? services : "none");
	int f = 0;
	while (f < CONTROL_MAX_FILTERS && c->filters[f].in_use)
		f++;
	if (f == CONTROL_MAX_FILTERS)
		return complain(c, CR_FAILED, where, "at most %d filters", CONTROL_MAX_FILTERS);
	struct cfilter *fl = &c->filters[f];
	snprintf(fl->name, sizeof fl->name, "%s", argv[1]);
	if (argc == 3)
		snprintf(fl->log, sizeof fl->log, "%s", argv[2]);
	else
		snprintf(fl->log, sizeof fl->log, "%s/%s.log", c->state_dir, argv[1]);
	fl->in_use = 1;
	if (c->default_filter < 0)
		c->default_filter = f;
	say(c, "filter '%s' is the cluster's host service '%s': log %s\n", fl->name, fl->name, fl->log);
	return CR_OK;
}

static enum control_result cmd_newjob(struct control *c, int argc, char **argv, const char *where, int depth)
{
	(void)depth;
	if (argc < 2 || argc > 3)
		return complain(c, CR_USAGE, where, "usage: newjob JOB [FILTER]");
	if (!valid_name(argv[1]))
		return complain(c, CR_USAGE, where, "'%s' is not a job name (letters, digits, '.', '-', '_')", argv[1]);
	if (find_job(c, argv[1]) >= 0)
		return complain(c, CR_FAILED, where, "job '%s' already exists", argv[1]);
	int f = argc == 3 ? find_filter(c, argv[2]) : c->default_filter;
	if (f < 0)
		return complain(c, CR_FAILED, where, argc == 3 ? "no filter '%s' (see 'filter')"
							       : "no filter yet: a job needs one ('filter SERVICE')%s", argc == 3 ? argv[2] : "");
	int j = 0;
	while (j < CONTROL_MAX_JOBS && c->jobs[j].in_use)
		j++;
	if (j == CONTROL_MAX_JOBS)
		return complain(c, CR_FAILED, where, "at most %d jobs", CONTROL_MAX_JOBS);
	c->jobs[j] = (struct cjob){ .in_use = 1, .filter = f, .flags = 0 };
	snprintf(c->jobs[j].name, sizeof c->jobs[j].name, "%s", argv[1]);
	return CR_OK;
}

/* ---- addprocess, acquire ---------------------------------------------- */

/* The process's name in its job: the program's, made unique with ".2"... */
static void unique_name(struct control *c, int job, const char *program, char *out, size_t size)
{
	const char *base = strrchr(program, '/') ? strrchr(program, '/') + 1 : program;
	snprintf(out, size, "%.*s", CONTROL_NAME_MAX - 4, base);
	for (int n = 2; find_proc(c, job, out) && n < 1000; n++)
		snprintf(out, size, "%.*s.%d", CONTROL_NAME_MAX - 4, base, n);
}

static enum control_result cmd_addprocess(struct control *c, int argc, char **argv, const char *where, int depth)
{
	(void)depth;
	const char *input = NULL;
	if (argc >= 3 && !strcmp(argv[argc - 2], "<")) {
		input = argv[argc - 1];
		argc -= 2;
	}
	if (argc < 4)
		return complain(c, CR_USAGE, where, "usage: addprocess JOB MACHINE PROGRAM [ARGS...] [< FILE]");
	for (int i = 1; i < argc; i++)
		if (!strcmp(argv[i], "<"))
			return complain(c, CR_USAGE, where, "'<' must be followed by one file, at the end of the line");
	int j = job_arg(c, argv[1], where);
	if (j < 0)
		return CR_USAGE;
	if (input && access(input, R_OK) != 0)
		return complain(c, CR_FAILED, where, "cannot read standard input file '%s': %s", input, strerror(errno));
	struct cproc *p = free_proc(c);
	if (!p)
		return complain(c, CR_FAILED, where, "at most %d processes", CONTROL_MAX_PROCS);
	char name[CONTROL_NAME_MAX + 1], err[256] = "";
	unique_name(c, j, argv[3], name, sizeof name);
	uint32_t task = 0;
	argv[argc] = NULL;
	const struct cjob *job = &c->jobs[j];
	if (c->nodes.create(c->nodes.ctx, argv[2], argv + 3, input, job->flags,
			    c->filters[job->filter].name, &task, err, sizeof err) < 0)
		return complain(c, CR_FAILED, where, "cannot create '%s' on %s: %s", argv[3], argv[2], err);
	*p = (struct cproc){ .in_use = 1, .job = j, .task = task, .state = PS_NEW };
	snprintf(p->name, sizeof p->name, "%s", name);
	snprintf(p->machine, sizeof p->machine, "%s", argv[2]);
	report_process(c, "created", p);
	return CR_OK;
}

static enum control_result cmd_acquire(struct control *c, int argc, char **argv, const char *where, int depth)
{
	(void)depth;
	if (argc != 4)
		return complain(c, CR_USAGE, where, "usage: acquire JOB MACHINE PID");
	int j = job_arg(c, argv[1], where);
	if (j < 0)
		return CR_USAGE;
	char *end;
	unsigned long pid = strtoul(argv[3], &end, 10);
	if (*end || end == argv[3] || pid == 0 || pid > 0xffff)
		return complain(c, CR_USAGE, where, "'%s' is not a process identifier (1 to 65535)", argv[3]);
	struct cproc *p = free_proc(c);
	if (!p)
		return complain(c, CR_FAILED, where, "at most %d processes", CONTROL_MAX_PROCS);
	char err[256] = "";
	uint32_t task = 0;
	const struct cjob *job = &c->jobs[j];
	if (c->nodes.acquire(c->nodes.ctx, argv[2], (uint32_t)pid, &task, err, sizeof err) < 0 ||
	    c->nodes.setmeter(c->nodes.ctx, task, job->flags, c->filters[job->filter].name, err, sizeof err) < 0)
		return complain(c, CR_FAILED, where, "cannot acquire process %lu on %s: %s", pid, argv[2], err);
	*p = (struct cproc){ .in_use = 1, .job = j, .task = task, .state = PS_ACQUIRED, .acquired = 1 };
	snprintf(p->name, sizeof p->name, "%s.%lu", argv[2], pid);
	snprintf(p->machine, sizeof p->machine, "%s", argv[2]);
	report_process(c, "acquired", p);
	return CR_OK;
}

/* ---- setflags --------------------------------------------------------- */

static enum control_result cmd_setflags(struct control *c, int argc, char **argv, const char *where, int depth)
{
	(void)depth;
	if (argc < 3)
		return complain(c, CR_USAGE, where, "usage: setflags JOB FLAG... (event names, -NAME clears, all, -all)");
	int j = job_arg(c, argv[1], where);
	if (j < 0)
		return CR_USAGE;
	uint32_t mask = c->jobs[j].flags;
	char unknown[CONTROL_LINE_MAX] = "";
	int nunknown = 0;
	for (int i = 2; i < argc; i++)
		if (control_flag_apply(argv[i], &mask) < 0) {
			size_t used = strlen(unknown);
			snprintf(unknown + used, sizeof unknown - used, "%s'%s'", nunknown ? ", " : "",
				 argv[i]);
			nunknown++;
		}
	if (nunknown)
		return complain(c, CR_USAGE, where, "unknown event%s %s: no flags set (try 'help setflags')",
				nunknown > 1 ? "s" : "", unknown);
	c->jobs[j].flags = mask;
	char names[256];
	control_flags_format(mask, names, sizeof names);
	say(c, "new job flags = %s\n", names);
	enum control_result r = CR_OK;
	for (int i = 0; i < CONTROL_MAX_PROCS; i++) {
		struct cproc *p = &c->procs[i];
		if (!p->in_use || p->job != j || pstate_final(p->state))
			continue;
		char err[256] = "";
		if (c->nodes.setmeter(c->nodes.ctx, p->task, mask, c->filters[c->jobs[j].filter].name, err,
				      sizeof err) < 0)
			r = complain(c, CR_FAILED, where, "process '%s': flags not set: %s", p->name, err);
		else
			say(c, "Process '%s' : Flags set\n", p->name);
	}
	return r;
}

/* ---- startjob, stopjob ------------------------------------------------ */

static enum control_result job_move(struct control *c, int argc, char **argv, const char *where,
				    enum pevent ev)
{
	const char *cmd = ev == PE_START ? "startjob" : "stopjob";
	if (argc != 2)
		return complain(c, CR_USAGE, where, "usage: %s JOB", cmd);
	int j = job_arg(c, argv[1], where);
	if (j < 0)
		return CR_USAGE;
	enum control_result r = CR_OK;
	int any = 0;
	for (int i = 0; i < CONTROL_MAX_PROCS; i++) {
		struct cproc *p = &c->procs[i];
		if (!p->in_use || p->job != j)
			continue;
		any = 1;
		const char *why;
		int next = pstate_next(p->state, ev, &why);
		if (next < 0) {
			/* stopjob passes over killed and acquired processes; startjob
			 * tells of acquired ones, which are no failure: a job may
			 * always hold a server it meters (§4.3) */
			if (ev == PE_START && p->state == PS_ACQUIRED)
				say(c, "'%s' %s.\n", p->name, why);
			else if (!(ev == PE_STOP && (pstate_final(p->state) || p->state == PS_ACQUIRED)))
				r = complain(c, CR_FAILED, where, "'%s' %s", p->name, why);
			continue;
		}
		char err[256] = "";
		int ok = ev == PE_START ? c->nodes.start(c->nodes.ctx, p->task, err, sizeof err)
					: c->nodes.stop(c->nodes.ctx, p->task, err, sizeof err);
		if (ok < 0) {
			r = complain(c, CR_FAILED, where, "'%s' not %s: %s", p->name,
				     ev == PE_START ? "started" : "stopped", err);
			continue;
		}
		p->state = (enum pstate)next;
		say(c, "'%s' %s.\n", p->name, ev == PE_START ? "started" : "stopped");
	}
	if (!any)
		say(c, "job '%s' has no processes\n", argv[1]);
	return r;
}

static enum control_result cmd_startjob(struct control *c, int argc, char **argv, const char *where, int depth)
{
	(void)depth;
	return job_move(c, argc, argv, where, PE_START);
}

static enum control_result cmd_stopjob(struct control *c, int argc, char **argv, const char *where, int depth)
{
	(void)depth;
	return job_move(c, argc, argv, where, PE_STOP);
}

/* ---- removejob, removeprocess ----------------------------------------- */

/* Whether p may be removed; if not, says why. */
static int removable(struct control *c, const struct cproc *p, const char *where)
{
	const char *why;
	if (pstate_final(p->state) || p->state == PS_ACQUIRED || pstate_next(p->state, PE_REMOVE, &why) >= 0)
		return 1;
	complain(c, CR_FAILED, where, "'%s' %s", p->name, why);
	return 0;
}

/* Kill a stopped process, release an acquired one, forget it. */
static void remove_proc(struct control *c, struct cproc *p, const char *where)
{
	char err[256] = "";
	if (p->state == PS_STOPPED && c->nodes.kill(c->nodes.ctx, p->task, err, sizeof err) < 0)
		complain(c, CR_FAILED, where, "'%s': kill: %s (forgotten anyway)", p->name, err);
	if (p->state == PS_ACQUIRED && c->nodes.setmeter(c->nodes.ctx, p->task, 0, NULL, err, sizeof err) < 0)
		complain(c, CR_FAILED, where, "'%s': metering not taken down: %s", p->name, err);
	say(c, "'%s' removed\n", p->name);
	p->in_use = 0;
}

static enum control_result cmd_removejob(struct control *c, int argc, char **argv, const char *where, int depth)
{
	(void)depth;
	if (argc != 2)
		return complain(c, CR_USAGE, where, "usage: removejob JOB");
	int j = job_arg(c, argv[1], where);
	if (j < 0)
		return CR_USAGE;
	int ok = 1;
	for (int i = 0; i < CONTROL_MAX_PROCS; i++)
		if (c->procs[i].in_use && c->procs[i].job == j)
			ok &= removable(c, &c->procs[i], where);
	if (!ok)
		return complain(c, CR_FAILED, where, "job '%s' not removed", argv[1]);
	for (int i = 0; i < CONTROL_MAX_PROCS; i++)
		if (c->procs[i].in_use && c->procs[i].job == j)
			remove_proc(c, &c->procs[i], where);
	c->jobs[j].in_use = 0;
	return CR_OK;
}

static enum control_result cmd_removeprocess(struct control *c, int argc, char **argv, const char *where, int depth)
{
	(void)depth;
	if (argc != 3)
		return complain(c, CR_USAGE, where, "usage: removeprocess JOB PROCESS");
	int j = job_arg(c, argv[1], where);
	if (j < 0)
		return CR_USAGE;
	struct cproc *p = find_proc(c, j, argv[2]);
	if (!p)
		return complain(c, CR_USAGE, where, "job '%s' has no process '%s'", argv[1], argv[2]);
	if (!removable(c, p, where))
		return CR_FAILED;
	remove_proc(c, p, where);
	return CR_OK;
}

/* ---- jobs, getlog ----------------------------------------------------- */

static void list_job(struct control *c, int j)
{
	say(c, "job '%s' (filter '%s'):\n", c->jobs[j].name, c->filters[c->jobs[j].filter].name);
	say(c, "  %-10s %-9s %-16s %-10s %s\n", "ID", "STATE", "PROCESS", "MACHINE", "FLAGS");
	char flags[256];
	control_flags_format(c->jobs[j].flags, flags, sizeof flags);
	for (int i = 0; i < CONTROL_MAX_PROCS; i++) {
		const struct cproc *p = &c->procs[i];
		if (!p->in_use || p->job != j)
			continue;
		char id[24];
		snprintf(id, sizeof id, "%u.%u", (unsigned)(p->task >> 16), (unsigned)(p->task & 0xffff));
		say(c, "  %-10s %-9s %-16s %-10s %s\n", id, pstate_name(p->state), p->name, p->machine,
		    pstate_final(p->state) ? "-" : flags);
	}
}

static enum control_result cmd_jobs(struct control *c, int argc, char **argv, const char *where, int depth)
{
	(void)depth;
	if (argc == 1) {
		int n = 0;
		for (int j = 0; j < CONTROL_MAX_JOBS; j++)
			if (c->jobs[j].in_use)
				say(c, "%d %s filter '%s'\n", ++n, c->jobs[j].name, c->filters[c->jobs[j].filter].name);
		if (!n)
			say(c, "no jobs\n");
		return CR_OK;
	}
	char unknown[CONTROL_LINE_MAX] = "";
	int nunknown = 0;
	for (int i = 1; i < argc; i++)
		if (find_job(c, argv[i]) < 0) {
			size_t used = strlen(unknown);
			snprintf(unknown + used, sizeof unknown - used, "%s'%s'", nunknown++ ? ", " : "",
				 argv[i]);
		}
	if (nunknown)
		return complain(c, CR_USAGE, where, "no job%s %s (see 'jobs')", nunknown > 1 ? "s" : "",
				unknown);
	for (int i = 1; i < argc; i++)
		list_job(c, find_job(c, argv[i]));
	return CR_OK;
}

static enum control_result cmd_getlog(struct control *c, int argc, char **argv, const char *where, int depth)
{
	(void)depth;
	if (argc != 3)
		return complain(c, CR_USAGE, where, "usage: getlog FILTER DESTINATION");
	int f = find_filter(c, argv[1]);
	if (f < 0)
		return complain(c, CR_USAGE, where, "no filter '%s'", argv[1]);
	/* the nodes' last traces reach the filter's log first */
	char err[512] = "";
	enum control_result r = CR_OK;
	if (c->nodes.sync_log &&
	    c->nodes.sync_log(c->nodes.ctx, c->filters[f].name, c->filters[f].log, err, sizeof err) < 0)
		r = complain(c, CR_FAILED, where, "%s; the log is copied as it is", err);
	FILE *in = fopen(c->filters[f].log, "rb");
	if (!in)
		return complain(c, CR_FAILED, where, "cannot read %s: %s", c->filters[f].log, strerror(errno));
	FILE *out = fopen(argv[2], "wb");
	if (!out) {
		fclose(in);
		return complain(c, CR_FAILED, where, "cannot write %s: %s", argv[2], strerror(errno));
	}
	char buf[65536];
	size_t n;
	while ((n = fread(buf, 1, sizeof buf, in)) > 0 && fwrite(buf, 1, n, out) == n)
		;
	int bad = ferror(in) || ferror(out);
	fclose(in);
	if (fclose(out) != 0 || bad)
		return complain(c, CR_FAILED, where, "copying %s to %s failed", c->filters[f].log, argv[2]);
	return r;
}

/* ---- input, endinput -------------------------------------------------- */

static struct cproc *proc_arg(struct control *c, const char *job, const char *name, const char *where)
{
	int j = job_arg(c, job, where);
	struct cproc *p = j < 0 ? NULL : find_proc(c, j, name);
	if (j >= 0 && !p)
		complain(c, CR_USAGE, where, "job '%s' has no process '%s'", job, name);
	return p;
}

static enum control_result send_input(struct control *c, struct cproc *p, const char *text, size_t len,
				      const char *where)
{
	char err[256] = "";
	if (p->state == PS_ACQUIRED || pstate_final(p->state))
		return complain(c, CR_FAILED, where, "'%s' is %s: its input is not ours to give", p->name,
				pstate_name(p->state));
	if (c->nodes.input(c->nodes.ctx, p->task, text, len, err, sizeof err) < 0)
		return complain(c, CR_FAILED, where, "'%s': %s", p->name, err);
	return CR_OK;
}

static enum control_result cmd_input(struct control *c, int argc, char **argv, const char *where, int depth)
{
	(void)depth;
	if (argc < 4)
		return complain(c, CR_USAGE, where, "usage: input JOB PROCESS TEXT...");
	struct cproc *p = proc_arg(c, argv[1], argv[2], where);
	if (!p)
		return CR_USAGE;
	char line[CONTROL_LINE_MAX + 1];
	size_t len = 0;
	for (int i = 3; i < argc; i++)
		len += (size_t)snprintf(line + len, sizeof line - len, "%s%s", argv[i], i + 1 < argc ? " " : "\n");
	return send_input(c, p, line, len, where);
}

static enum control_result cmd_endinput(struct control *c, int argc, char **argv, const char *where, int depth)
{
	(void)depth;
	if (argc != 3)
		return complain(c, CR_USAGE, where, "usage: endinput JOB PROCESS");
	struct cproc *p = proc_arg(c, argv[1], argv[2], where);
	return p ? send_input(c, p, NULL, 0, where) : CR_USAGE;
}

/* ---- source, sink, wait, die, help ------------------------------------ */

static enum control_result cmd_source(struct control *c, int argc, char **argv, const char *where, int depth)
{
	if (argc != 2)
		return complain(c, CR_USAGE, where, "usage: source FILE");
	if (depth + 1 > CONTROL_SOURCE_DEPTH)
		return complain(c, CR_FAILED, where, "source nested more than %d deep", CONTROL_SOURCE_DEPTH);
	return control_file(c, argv[1], depth + 1);
}

static enum control_result cmd_sink(struct control *c, int argc, char **argv, const char *where, int depth)
{
	(void)depth;
	if (argc > 2)
		return complain(c, CR_USAGE, where, "usage: sink [FILE]");
	FILE *f = NULL;
	if (argc == 2 && !(f = fopen(argv[1], "w")))
		return complain(c, CR_FAILED, where, "cannot write %s: %s", argv[1], strerror(errno));
	if (c->sink)
		fclose(c->sink);
	c->sink = f;
	c->out = f ? f : c->terminal;
	return CR_OK;
}

static int job_running(struct control *c, int j)
{
	for (int i = 0; i < CONTROL_MAX_PROCS; i++)
		if (c->procs[i].in_use && c->procs[i].job == j && c->procs[i].state == PS_RUNNING)
			return 1;
	return 0;
}

static enum control_result cmd_wait(struct control *c, int argc, char **argv, const char *where, int depth)
{
	(void)depth;
	if (argc < 2 || argc > 3)
		return complain(c, CR_USAGE, where, "usage: wait JOB [SECONDS]");
	int j = job_arg(c, argv[1], where);
	if (j < 0)
		return CR_USAGE;
	char *end;
	long seconds = argc == 3 ? strtol(argv[2], &end, 10) : 60;
	if (argc == 3 && (*end || seconds < 0 || seconds > 3600))
		return complain(c, CR_USAGE, where, "'%s' is not a number of seconds (0 to 3600)", argv[2]);
	/* poll returns early when something comes: the limit is in host time */
	struct timespec t0, t;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	for (long waited = 0; job_running(c, j) && waited < seconds * 1000;) {
		c->nodes.poll(c->nodes.ctx, 100);
		clock_gettime(CLOCK_MONOTONIC, &t);
		waited = (t.tv_sec - t0.tv_sec) * 1000 + (t.tv_nsec - t0.tv_nsec) / 1000000;
	}
	if (job_running(c, j))
		return complain(c, CR_FAILED, where, "job '%s' still runs after %ld s", argv[1], seconds);
	return CR_OK;
}

static int active_count(struct control *c)
{
	int n = 0;
	for (int i = 0; i < CONTROL_MAX_PROCS; i++)
		n += c->procs[i].in_use && pstate_active(c->procs[i].state);
	return n;
}

static enum control_result cmd_die(struct control *c, int argc, char **argv, const char *where, int depth)
{
	(void)argv;
	(void)depth;
	if (argc != 1)
		return complain(c, CR_USAGE, where, "usage: die");
	int n = active_count(c);
	if (n && !c->die_warned) {
		complain(c, CR_OK, where, "%d process%s still active (new, running, stopped or acquired); "
			 "die again to leave them as they are", n, n == 1 ? " is" : "es are");
		c->die_warned = 1;
		return CR_OK;
	}
	return CR_EXIT;
}

static enum control_result cmd_help(struct control *c, int argc, char **argv, const char *where, int depth);

static const struct command {
	const char *name, *alias;
	command_fn fn;
	const char *usage, *what;
} commands[] = {
	{ "help", "?", cmd_help, "help [COMMAND]", "this list, or one command's" },
	{ "filter", NULL, cmd_filter, "filter [SERVICE [LOG]]", "use the cluster's host service SERVICE (a dpm filter) as a filter; no arguments: list filters" },
	{ "newjob", NULL, cmd_newjob, "newjob JOB [FILTER]", "create a job whose traces go to FILTER (default: the first filter)" },
	{ "addprocess", "add", cmd_addprocess, "addprocess JOB MACHINE PROGRAM [ARGS...] [< FILE]", "create PROGRAM suspended on node MACHINE, metered like JOB, standard input from FILE" },
	{ "acquire", NULL, cmd_acquire, "acquire JOB MACHINE PID", "meter the running process PID of MACHINE (it is never stopped or killed)" },
	{ "setflags", NULL, cmd_setflags, "setflags JOB FLAG...", "add events to JOB's flags (-NAME removes, all, -all) and meter its processes so" },
	{ "startjob", NULL, cmd_startjob, "startjob JOB", "start or resume JOB's new and stopped processes" },
	{ "stopjob", NULL, cmd_stopjob, "stopjob JOB", "stop JOB's new and running processes" },
	{ "removejob", "rmjob", cmd_removejob, "removejob JOB", "kill JOB's stopped processes, release its acquired ones, forget it" },
	{ "removeprocess", "rmprocess", cmd_removeprocess, "removeprocess JOB PROCESS", "the same for one process" },
	{ "jobs", NULL, cmd_jobs, "jobs [JOB...]", "list jobs, or the processes of JOBs" },
	{ "getlog", NULL, cmd_getlog, "getlog FILTER FILE", "copy FILTER's log to FILE, once the nodes' traces so far are in it" },
	{ "input", NULL, cmd_input, "input JOB PROCESS TEXT...", "send a line to PROCESS's standard input" },
	{ "endinput", NULL, cmd_endinput, "endinput JOB PROCESS", "end PROCESS's standard input" },
	{ "wait", NULL, cmd_wait, "wait JOB [SECONDS]", "wait until no process of JOB runs (default 60 s)" },
	{ "source", NULL, cmd_source, "source FILE", "run the commands in FILE (nesting up to 16)" },
	{ "sink", NULL, cmd_sink, "sink [FILE]", "send output to FILE; no argument: back to the terminal" },
	{ "die", "exit", cmd_die, "die", "leave (aliases exit, bye, end of input); warns once while processes are active" },
	{ "bye", "quit", cmd_die, "bye", "the same as die" },
};

#define NCOMMANDS (sizeof commands / sizeof commands[0])

static const struct command *find_command(const char *word)
{
	for (size_t i = 0; i < NCOMMANDS; i++)
		if (!strcasecmp(word, commands[i].name) || (commands[i].alias && !strcasecmp(word, commands[i].alias)))
			return &commands[i];
	return NULL;
}

static enum control_result cmd_help(struct control *c, int argc, char **argv, const char *where, int depth)
{
	(void)depth;
	if (argc == 2) {
		const struct command *cmd = find_command(argv[1]);
		if (!cmd)
			return complain(c, CR_USAGE, where, "no command '%s' (try 'help')", argv[1]);
		say(c, "%s\n    %s\n", cmd->usage, cmd->what);
		if (cmd->fn == cmd_setflags) {
			say(c, "    events: SEND RECEIVECALL RECEIVE QUEUED CREATELINK DESTROYLINK MOVEDATA\n"
			       "            CREATEPROCESS (fork) TERMPROCESS (termproc) STARTPROCESS STOPPROCESS\n");
		}
		return CR_OK;
	}
	if (argc > 2)
		return complain(c, CR_USAGE, where, "usage: help [COMMAND]");
	for (size_t i = 0; i < NCOMMANDS; i++)
		say(c, "  %-50s %s\n", commands[i].usage, commands[i].what);
	say(c, "events for setflags: SEND RECEIVECALL RECEIVE QUEUED CREATELINK DESTROYLINK MOVEDATA\n"
	       "  CREATEPROCESS (fork) TERMPROCESS (termproc) STARTPROCESS STOPPROCESS, all; -NAME clears\n");
	return CR_OK;
}

/* ---- lines and files -------------------------------------------------- */

int control_split(char *line, char **words, int max)
{
	int n = 0;
	char *s = line;
	for (;;) {
		while (*s == ' ' || *s == '\t' || *s == '\r' || *s == '\n')
			s++;
		if (!*s || *s == '#')
			break;
		if (n == max)
			return -1;
		words[n++] = s;
		while (*s && *s != ' ' && *s != '\t' && *s != '\r' && *s != '\n')
			s++;
		if (*s)
			*s++ = '\0';
	}
	return n;
}

enum control_result control_line(struct control *c, const char *line, const char *where, int depth)
{
	char copy[CONTROL_LINE_MAX];
	char *words[CONTROL_MAX_ARGS + 1];
	if (strlen(line) >= sizeof copy)
		return complain(c, CR_USAGE, where, "line longer than %d characters", CONTROL_LINE_MAX - 1);
	snprintf(copy, sizeof copy, "%s", line);
	int n = control_split(copy, words, CONTROL_MAX_ARGS);
	if (n < 0)
		return complain(c, CR_USAGE, where, "more than %d words on a line", CONTROL_MAX_ARGS);
	if (n == 0)
		return CR_OK;
	return control_words(c, n, words, where, depth);
}

enum control_result control_words(struct control *c, int n, char **words, const char *where, int depth)
{
	const struct command *cmd = find_command(words[0]);
	enum control_result r;
	if (!cmd)
		r = complain(c, CR_USAGE, where, "unknown command '%s' (try 'help')", words[0]);
	else
		r = cmd->fn(c, n, words, where, depth);
	if (!cmd || cmd->fn != cmd_die)
		c->die_warned = 0;
	if (r != CR_EXIT && (int)r > c->worst)
		c->worst = r;
	if (r != CR_EXIT)
		c->last = r;
	if (c->nodes.poll)
		c->nodes.poll(c->nodes.ctx, 0);
	return r;
}

enum control_result control_file(struct control *c, const char *path, int depth)
{
	FILE *f = fopen(path, "r");
	if (!f) {
		char where[64];
		snprintf(where, sizeof where, "source");
		return complain(c, CR_FAILED, where, "cannot read %s: %s", path, strerror(errno));
	}
	char line[CONTROL_LINE_MAX + 2], where[4200];
	enum control_result r = CR_OK;
	for (int lineno = 1; fgets(line, sizeof line, f); lineno++) {
		snprintf(where, sizeof where, "%s:%d", path, lineno);
		if (!strchr(line, '\n') && !feof(f)) {
			complain(c, CR_USAGE, where, "line longer than %d characters", CONTROL_LINE_MAX - 1);
			c->worst = c->worst > CR_USAGE ? c->worst : CR_USAGE;
			int ch;
			while ((ch = fgetc(f)) != EOF && ch != '\n')
				;
			continue;
		}
		r = control_line(c, line, where, depth);
		if (r == CR_EXIT)
			break;
	}
	fclose(f);
	return r == CR_EXIT ? CR_EXIT : CR_OK;
}

/* ---- reports from the nodes ------------------------------------------- */

static struct cproc *proc_by_task(struct control *c, uint32_t task)
{
	for (int i = 0; i < CONTROL_MAX_PROCS; i++)
		if (c->procs[i].in_use && c->procs[i].task == task)
			return &c->procs[i];
	return NULL;
}

/* Where processes' output and ends go. */
static FILE *proc_stream(struct control *c)
{
	return c->procout ? c->procout : c->out;
}

static void output_line(struct control *c, const struct cproc *p, const char *bytes, size_t n)
{
	FILE *f = proc_stream(c);
	fprintf(f, "%s: %.*s%.*s\n", p ? p->name : "?", (int)(p ? p->partial_len : 0),
		p ? p->partial : "", (int)n, bytes);
	fflush(f);
}

void control_process_output(struct control *c, uint32_t task, const char *bytes, size_t len)
{
	struct cproc *p = proc_by_task(c, task);
	if (c->raw_output) {
		fwrite(bytes, 1, len, proc_stream(c));
		fflush(proc_stream(c));
		return;
	}
	/* each line marked with its process; a line split across reports is
	 * put together first */
	while (len) {
		const char *nl = memchr(bytes, '\n', len);
		size_t n = nl ? (size_t)(nl - bytes) : len;
		if (nl || !p || p->partial_len + n >= sizeof p->partial) {
			output_line(c, p, bytes, n);
			if (p)
				p->partial_len = 0;
			n += nl ? 1 : 0;
		} else {
			memcpy(p->partial + p->partial_len, bytes, n);
			p->partial_len += n;
		}
		bytes += n;
		len -= n;
	}
}

void control_process_ended(struct control *c, uint32_t task, uint32_t reason, int32_t status)
{
	struct cproc *p = proc_by_task(c, task);
	if (!p || p->ended)
		return;
	if (p->partial_len && !c->raw_output)
		output_line(c, p, "", 0);
	p->partial_len = 0;
	p->ended = 1;
	p->end_reason = reason;
	p->end_status = status;
	int next = pstate_next(p->state, reason == EXIT_NORMAL ? PE_EXIT : PE_END, NULL);
	if (next >= 0)
		p->state = (enum pstate)next;
	char why[64];
	if (reason == EXIT_NORMAL && status != 0)
		snprintf(why, sizeof why, "normal, status %d", (int)status);
	else
		snprintf(why, sizeof why, "%s", abi_exit_reason_name(reason));
	if (c->raw_output)
		return;
	if (c->porcelain)
		fprintf(proc_stream(c), "ended\t%s\t%u.%u\t%s\t%s\t%s\n", p->name, (unsigned)(p->task >> 16),
			(unsigned)(p->task & 0xffff), p->machine, c->jobs[p->job].name, why);
	else
		fprintf(proc_stream(c), "  DONE: process %s in job '%s' terminated: reason: %s\n", p->name,
			c->jobs[p->job].name, why);
	fflush(proc_stream(c));
}

void control_init(struct control *c, const struct control_nodes *nodes, const char *state_dir)
{
	memset(c, 0, sizeof *c);
	c->nodes = *nodes;
	c->default_filter = -1;
	c->terminal = c->out = stdout;
	c->err = stderr;
	snprintf(c->state_dir, sizeof c->state_dir, "%s", state_dir);
}

void control_end_of_input(struct control *c)
{
	int n = active_count(c);
	if (n)
		fprintf(c->err, "control: leaving %d active process%s as they are\n", n, n == 1 ? "" : "es");
}

void control_fini(struct control *c)
{
	if (c->sink)
		fclose(c->sink);
	c->sink = NULL;
	c->out = c->terminal;
}
