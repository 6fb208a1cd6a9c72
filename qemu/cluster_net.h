/*
 * qemu/cluster_net.h - the host-side network facts `dpm cluster` needs:
 * free ports on 127.0.0.1, whether something listens on one, and whether a
 * UNIX socket (the switch's) accepts connections.
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

#endif
