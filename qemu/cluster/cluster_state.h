/*
 * qemu/cluster/cluster_state.h - the state directory of a running cluster and its
 * `state` file: which processes the cluster started (pid and start time),
 * how each one is doing, and the ports of its host services.
 *
 * The supervisor is the only writer (atomically, by rename); `status`,
 * `console`, `down` and later tools (the controller) read it.  The format
 * is a few lines of words, described in docs/cluster.md, so shell scripts
 * can read it too.
 */
#ifndef DPM_CLUSTER_STATE_H
#define DPM_CLUSTER_STATE_H

#include <stddef.h>

#include "cluster_file.h"
#include "cluster_proc.h"

/* Files of the state directory. */
#define STATE_FILE "state"
#define STATE_SECRET "secret"
#define STATE_LOCK "lock"
#define STATE_SWITCH "switch"          /* vde_switch's socket directory */
#define STATE_SUPERVISOR_LOG "supervisor.log"
#define STATE_SWITCH_LOG "switch.log"
#define STATE_SECRET_BYTES 32
/* Per node NAME: NAME.console (serial output), NAME.sock (serial input and
 * output, one client at a time), NAME.qemu.log (QEMU's own messages); per
 * service NAME: NAME.service.log (its output). */
#define NODE_CONSOLE_SUFFIX ".console"
#define NODE_SOCKET_SUFFIX ".sock"
#define NODE_LOG_SUFFIX ".qemu.log"
#define SERVICE_LOG_SUFFIX ".service.log"

enum member_kind { MEMBER_SWITCH, MEMBER_SERVICE, MEMBER_NODE };
enum member_state {
	MEMBER_NOT_STARTED,
	MEMBER_RUNNING,
	MEMBER_EXITED,   /* end tells how */
	MEMBER_EXTERNAL, /* a service the user started; not ours to stop */
	MEMBER_PER_CONNECTION, /* a cmd= service: QEMU runs it for each connection */
};

struct member {
	enum member_kind kind;
	char name[CLUSTER_NAME_MAX + 1];
	int id;            /* node id, 0 for the others */
	char arch[8];      /* node arch; "vde" for the switch, "-" for services */
	int port;          /* service port, 0 for the others */
	struct proc_id proc;
	enum member_state state;
	struct proc_end end;
};

#define STATE_MAX_MEMBERS (1 + CLUSTER_MAX_SERVICES + CLUSTER_MAX_NODES)

struct cluster_state {
	struct proc_id supervisor;
	int ready;                     /* every node printed its banner */
	int nmembers;                  /* switch first, then services, then nodes */
	struct member members[STATE_MAX_MEMBERS];
};

/* "dir/name" into out; -1 (with a message in err) if it does not fit or,
 * for sockets (is_socket), exceeds what a UNIX socket address holds. */
int state_path(const char *dir, const char *name, int is_socket, char *out, size_t size,
	       char *err, size_t errlen);

/* Remove what a running cluster keeps in dir: the nodes' sockets, the
 * switch's directory, the secret and the state (with logs_too also the
 * consoles and logs of an earlier run, which `down` leaves for reading).
 * The lock file stays: it is only ever locked, never trusted by content. */
void state_clean(const char *dir, int logs_too);

/* The state as text, and back ("file:line: message" errors). */
int state_format(const struct cluster_state *st, char *out, size_t size);
int state_parse(const char *file, const char *text, struct cluster_state *st, char *err,
		size_t errlen);

/* Write dir/state atomically.  Returns 0 or -1 (errno set). */
int state_save(const char *dir, const struct cluster_state *st);
/* 1 loaded, 0 no state file, -1 unreadable or malformed (message in err). */
int state_load(const char *dir, struct cluster_state *st, char *err, size_t errlen);

/* A node by name or by id ("n2" or "2"), or NULL. */
struct member *state_find_node(struct cluster_state *st, const char *name_or_id);

/* Whether the supervisor or any process it started still runs. */
int state_anything_alive(const struct cluster_state *st);

/* The processes the cluster started (switch, services, nodes) that still
 * run, into ids; returns how many. */
int state_live_processes(const struct cluster_state *st, struct proc_id *ids);

/* Words for a member's state: "running", "exited", "not-started",
 * "external"; and its status: exit code, signal name (SIGKILL) or "-". */
const char *member_state_name(const struct member *m);
void member_status(const struct member *m, char *out, size_t size);

/* `dpm cluster status`'s lines (docs/cluster.md), without the newline:
 * a member's (for people: name id arch pid state port in columns; with
 * porcelain: kind name id arch pid state status port, tab-separated, '-'
 * where a field does not apply), and the cluster's own, whose state is
 * "up", "starting" or "gone" (porcelain: kind "cluster", the supervisor's
 * pid). */
#define STATE_LINE_MAX 256
void member_status_line(const struct member *m, int porcelain, char *out, size_t size);
void cluster_status_line(pid_t supervisor, const char *state, int porcelain, const char *dir, char *out,
			 size_t size);

#endif
