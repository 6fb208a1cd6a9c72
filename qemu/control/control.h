/*
 * qemu/control/control.h - the controller of `dpm control` (the DPM paper §3.5, §4.2,
 * §4.3): filters, jobs and their processes as the user sees them, the
 * process states of Fig. 4.2, and the command interpreter.
 *
 * The interpreter knows nothing of sockets: what it asks of the nodes
 * (create, meter, start, stop, kill, acquire a process) goes through a
 * table of operations, `struct control_nodes`, which the network half
 * (control_net.c, through the cluster's control hub) provides for a real
 * cluster and the unit tests provide with a fake.  What the nodes report back (a process ended, a process
 * printed) comes in through control_process_ended / control_process_output.
 */
#ifndef DPM_CONTROL_H
#define DPM_CONTROL_H

#include <stdint.h>
#include <stdio.h>

#define CONTROL_NAME_MAX 31
#define CONTROL_MAX_FILTERS 8
#define CONTROL_MAX_JOBS 16
#define CONTROL_MAX_PROCS 64      /* over all jobs */
#define CONTROL_MAX_ARGS 32
#define CONTROL_SOURCE_DEPTH 16   /* the DPM paper: source nests sixteen deep */
#define CONTROL_LINE_MAX 1024

/* ---- process states (Fig. 4.2) ---------------------------------------- */

enum pstate { PS_NEW, PS_RUNNING, PS_STOPPED, PS_KILLED, PS_ACQUIRED, PS_DONE };

/* What happens to a process: the user's commands and the process's end. */
enum pevent {
	PE_START,    /* startjob                                   */
	PE_STOP,     /* stopjob                                    */
	PE_END,      /* the process ended otherwise (killed, faulted, node down) */
	PE_EXIT,     /* the process ended on its own, normally (exit) */
	PE_REMOVE,   /* removejob / removeprocess: kill it         */
};

const char *pstate_name(enum pstate s);
/* The state `event` leads to from `from`, or -1 when Fig. 4.2 has no such
 * transition; then *why (if not NULL) says why, as a phrase that follows
 * the process's name ("is running: it cannot be started again"). */
int pstate_next(enum pstate from, enum pevent event, const char **why);
/* new, running, stopped and acquired processes are active (die warns). */
int pstate_active(enum pstate s);
/* killed and done are final: the process has ended. */
int pstate_final(enum pstate s);

/* ---- event flags ------------------------------------------------------ */

/* Apply one setflags word to *mask: an event name (SEND, ..., the DPM paper's
 * names fork, termproc, send, ...), `all`, or either with '-' in front to
 * clear.  0, or -1 for an unknown name. */
int control_flag_apply(const char *word, uint32_t *mask);
/* The set flags' names, blank-separated ("none" when empty). */
void control_flags_format(uint32_t mask, char *out, size_t size);

/* ---- the model -------------------------------------------------------- */

struct cfilter {
	int in_use;
	char name[CONTROL_NAME_MAX + 1];     /* the cluster's host service */
	char log[4096];                      /* its log, for getlog        */
};

struct cjob {
	int in_use;
	char name[CONTROL_NAME_MAX + 1];
	int filter;                          /* index in filters           */
	uint32_t flags;
};

struct cproc {
	int in_use;
	int job;                             /* index in jobs              */
	char name[CONTROL_NAME_MAX + 1];
	char machine[CONTROL_NAME_MAX + 1];
	uint32_t task;                       /* (node << 16) | pid         */
	enum pstate state;
	int acquired;                        /* acquired, not created (its name is MACHINE.PID) */
	int ended;                           /* the node reported its end  */
	uint32_t end_reason;                 /* enum exit_reason, once ended */
	int32_t end_status;
	char partial[256];                   /* output after its last newline */
	size_t partial_len;
};

/* ---- what the controller asks of the nodes ---------------------------- */

struct control;

struct control_nodes {
	void *ctx;
	/* Create argv[0] suspended on `machine` with the job's meter flags and
	 * filter service in place before its first instruction; its standard
	 * input is the host file `input` (NULL: none).  0 and *task, or -1
	 * and a message in err. */
	int (*create)(void *ctx, const char *machine, char *const argv[], const char *input,
		      uint32_t flags, const char *filter, uint32_t *task, char *err, size_t errlen);
	/* Set the meter flags (and filter service; NULL: none, metering off). */
	int (*setmeter)(void *ctx, uint32_t task, uint32_t flags, const char *filter, char *err,
			size_t errlen);
	int (*start)(void *ctx, uint32_t task, char *err, size_t errlen);
	int (*stop)(void *ctx, uint32_t task, char *err, size_t errlen);
	int (*kill)(void *ctx, uint32_t task, char *err, size_t errlen);
	/* Take the running process `pid` on `machine` for metering. */
	int (*acquire)(void *ctx, const char *machine, uint32_t pid, uint32_t *task, char *err,
		       size_t errlen);
	/* Bytes for task's standard input; len 0: its input ends. */
	int (*input)(void *ctx, uint32_t task, const char *bytes, size_t len, char *err,
		     size_t errlen);
	/* Return once `log`, the log of host service `filter`, holds every
	 * trace the nodes sent that filter so far (getlog). */
	int (*sync_log)(void *ctx, const char *filter, const char *log, char *err, size_t errlen);
	/* Whether the cluster has a host service `name` a filter can be: 1, or
	 * 0 with the names it has (blank-separated) in list.  NULL: not known. */
	int (*has_service)(void *ctx, const char *name, char *list, size_t listlen);
	/* Wait up to `ms` for reports from the nodes (they call back into the
	 * controller); 0 returns at once after taking what has arrived. */
	void (*poll)(void *ctx, int ms);
};

/* ---- the interpreter -------------------------------------------------- */

enum control_result {
	CR_OK = 0,
	CR_FAILED = 1,   /* the operation failed (a node refused, ...) */
	CR_USAGE = 2,    /* bad command or arguments                   */
	CR_EXIT = 3,     /* die: leave the controller                  */
};

struct control {
	struct control_nodes nodes;
	struct cfilter filters[CONTROL_MAX_FILTERS];
	struct cjob jobs[CONTROL_MAX_JOBS];
	struct cproc procs[CONTROL_MAX_PROCS];
	int default_filter;                  /* -1: none yet               */
	char state_dir[2048];                /* the cluster's state dir    */
	FILE *terminal;                      /* where output goes without a sink */
	FILE *out;                           /* terminal, or the sink      */
	FILE *sink;                          /* sink FILE, or NULL         */
	FILE *err;                           /* messages: "where: what"    */
	FILE *procout;                       /* processes' output and ends; NULL: out */
	int raw_output;                      /* processes' output as written, unmarked */
	int porcelain;                       /* process reports as tab-separated lines */
	FILE *reports;                       /* porcelain reports; NULL: out */
	int die_warned;                      /* the last command was a refused die */
	int worst;                           /* worst result so far (a script's exit status) */
	int last;                            /* the last command's result (a prompt's exit status) */
};

void control_init(struct control *c, const struct control_nodes *nodes, const char *state_dir);
void control_fini(struct control *c);
/* Run one command line; `where` ("FILE:LINE" or "control") prefixes
 * messages; depth is the source nesting of the line. */
enum control_result control_line(struct control *c, const char *line, const char *where, int depth);
/* Run one command given as words (words[n] must be writable space for a
 * NULL); what control_line does after splitting. */
enum control_result control_words(struct control *c, int n, char **words, const char *where, int depth);
/* Run every line of a file (source, -f); stops at die. */
enum control_result control_file(struct control *c, const char *path, int depth);
/* End of input: die, except that it never refuses (there is no one left
 * to repeat it); warns about active processes. */
void control_end_of_input(struct control *c);

/* Reports from the nodes: task ended (enum exit_reason, exit status). */
void control_process_ended(struct control *c, uint32_t task, uint32_t reason, int32_t status);
void control_process_output(struct control *c, uint32_t task, const char *bytes, size_t len);

/* Split a line into words (blanks and tabs; '#' starts a comment).  The
 * number of words, or -1 when there are more than max. */
int control_split(char *line, char **words, int max);

#endif
