/*
 * qemu/cluster/cluster_net.h - the host-side network facts `dpm cluster` needs:
 * free ports on 127.0.0.1, whether something listens on one, whether a
 * UNIX socket (the switch's) accepts connections, and how many ports the
 * switch has set up.
 */
#ifndef DPM_CLUSTER_NET_H
#define DPM_CLUSTER_NET_H

#include <stddef.h>

/* A port of 127.0.0.1 free at this moment (bind to port 0, read, close). */
int net_free_port(int *port, char *err, size_t errlen);

/* Whether a TCP socket listens on 127.0.0.1:port (or on any address, which
 * includes it), read from /proc/net/tcp{,6} without connecting. */
int net_port_listening(int port);

/* Whether a SOCK_STREAM UNIX socket at path accepts a connection. */
int net_unix_connectable(const char *path);

/* Whether a name in the switch's directory is a port's data socket. */
int net_vde_port_name(const char *name);

/* The ports vde_switch has wholly set up, read from its socket directory
 * (one "PORT.FD" socket each): their number, or -1 if it cannot be read. */
#define VDE_MAX_PORTS 64
struct vde_ports {
	int n;
	char name[VDE_MAX_PORTS][24];
};
int net_vde_ports(const char *switch_dir, struct vde_ports *ports);

/* Whether `now` has a port that `before` had not. */
int net_vde_port_added(const struct vde_ports *before, const struct vde_ports *now);

#endif
