/*
 * qemu/control/control_net.h - the controller's side of the control protocol: a
 * connection to the cluster's control hub (qemu/cluster_hub.c) that
 * carries out what the interpreter (control.h) asks of the nodes, and
 * hands the nodes' reports (output, ends) back to it.  `dpm control` and
 * `dpm record` both sit on it.
 */
#ifndef DPM_CONTROL_NET_H
#define DPM_CONTROL_NET_H

#include <stddef.h>
#include <stdint.h>

#include "qemu/cluster/cluster_state.h"
#include "control.h"
#include "ctl_wire.h"

#define CONTROL_NET_FEEDS 16

/* A file descriptor whose bytes become a process's standard input. */
struct control_feed {
	int in_use;
	uint32_t task;
	int fd;
	int close_fd;       /* ours to close at the end */
	uint8_t held[CTL_PAYLOAD_MAX];
	uint32_t held_len;  /* read from fd, not yet taken by the node */
	int eof;
};

struct control_net {
	struct ctl_wire w;
	struct control *c;          /* where reports go (set by the user) */
	struct cluster_state st;    /* node names */
	char dir[4096];
	uint32_t next_id;
	int reply_ms;               /* how long a node may take to answer */
	int scripted;               /* says CTL_IDLE when it waits (CTL_AUTH_SCRIPTED) */
	int thinking;               /* waiting on something else than the hub */
	uint32_t received, idle_said; /* frames received; the count last said idle */
	struct control_feed feeds[CONTROL_NET_FEEDS];
};

/* Connect to the hub of the cluster in `dir` and show its secret.  0, or
 * -1 with why in err (no cluster, no hub, refused).  With n->scripted set
 * before (dpm record, dpm control -f): the controller reacts only to what
 * it receives, and tells the hub each time it has reacted and waits
 * (CTL_IDLE), so on a cluster in virtual time its commands are taken at
 * node times that do not depend on the host (docs/virtual-time.md §2.6). */
int control_net_open(struct control_net *n, const char *dir, char *err, size_t errlen);
void control_net_close(struct control_net *n);

/* The operations of control.h over this connection (ctx = n). */
struct control_nodes control_net_nodes(struct control_net *n);

/* Feed fd (e.g. 0, the terminal) to task's standard input as it comes;
 * its end ends the input.  0, or -1 when all feeds are taken. */
int control_net_feed(struct control_net *n, uint32_t task, int fd, int close_fd);

/* A MARK with `token` into every connected node's meter stream to the
 * host service `filter`, behind all it traced before; with log_path (the
 * filter's log) wait until every one of them is in the log.  0, or -1
 * with why in err. */
int control_net_marks(struct control_net *n, const char *filter, uint32_t token,
		      const char *log_path, char *err, size_t errlen);

/* The node id of a machine name ("n2") or id ("2"), or 0. */
uint32_t control_net_node(struct control_net *n, const char *machine);

/* Wait up to ms for reports (and move standard input along); the hub's
 * socket, and the feeds' descriptors, are watched.  Returns early once
 * something came from the hub, for the caller to react to. */
void control_net_poll(struct control_net *n, int ms);

/* The name of the program task was created from, as its node's process
 * manager tells it (CTL_NAME; also after the process ended): 0 and name,
 * or -1 with why in err (E_DEAD: that pm did not create it, or no longer
 * remembers it). */
int control_net_name(struct control_net *n, uint32_t task, char *name, size_t size, char *err,
		     size_t errlen);

#endif
