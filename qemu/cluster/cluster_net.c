/*
 * qemu/cluster/cluster_net.c - free ports, listening checks and UNIX socket probes
 * for `dpm cluster`.  Everything stays on 127.0.0.1.
 *
 * Listening is read from /proc/net/tcp rather than probed with connect():
 * a probe would be a real connection that a host service (the filter, the
 * controller) must then tell apart from a node's.
 *
 * The switch's ports are counted from its socket directory, where
 * vde_switch binds one datagram socket per port, named "PORT.FD" (three or
 * more digits, a dot, digits), before it answers the plug that asked for
 * the port; so a new socket there means a new port wholly set up.  (A
 * port's name could come back only if an older port with the same number
 * and descriptor went away in between.)
 */
#include <arpa/inet.h>
#include <dirent.h>
#include <errno.h>
#include <netinet/in.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/un.h>
#include <unistd.h>

#include "cluster_net.h"

#define TCP_LISTEN_STATE 0x0A

int net_free_port(int *port, char *err, size_t errlen)
{
	int fd = socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
	struct sockaddr_in a = { .sin_family = AF_INET, .sin_addr.s_addr = htonl(INADDR_LOOPBACK) };
	socklen_t len = sizeof a;
	if (fd < 0 || bind(fd, (struct sockaddr *)&a, sizeof a) < 0 ||
	    getsockname(fd, (struct sockaddr *)&a, &len) < 0) {
		snprintf(err, errlen, "cannot find a free port on 127.0.0.1: %s", strerror(errno));
		if (fd >= 0)
			close(fd);
		return -1;
	}
	close(fd);
	*port = ntohs(a.sin_port);
	return 0;
}

/* Whether an address of /proc/net/tcp{,6} (hex) reaches 127.0.0.1. */
static int reaches_loopback(const char *hex)
{
	if (strlen(hex) == 8) {
		unsigned int raw;
		if (sscanf(hex, "%8x", &raw) != 1)
			return 0;
		return raw == htonl(INADDR_LOOPBACK) || raw == htonl(INADDR_ANY);
	}
	return strspn(hex, "0") == strlen(hex); /* [::], which takes IPv4 too */
}

static int listening_in(const char *table, int port)
{
	FILE *f = fopen(table, "r");
	if (!f)
		return 0;
	char line[512];
	int found = 0;
	if (!fgets(line, sizeof line, f)) /* the header */
		line[0] = '\0';
	while (!found && fgets(line, sizeof line, f)) {
		char addr[64];
		unsigned int lport, state;
		if (sscanf(line, " %*d: %63[0-9A-Fa-f]:%x %*s %x", addr, &lport, &state) == 3)
			found = (int)lport == port && state == TCP_LISTEN_STATE && reaches_loopback(addr);
	}
	fclose(f);
	return found;
}

int net_port_listening(int port)
{
	return listening_in("/proc/net/tcp", port) || listening_in("/proc/net/tcp6", port);
}

int net_unix_connectable(const char *path)
{
	struct sockaddr_un a = { .sun_family = AF_UNIX };
	if (strlen(path) >= sizeof a.sun_path)
		return 0;
	strcpy(a.sun_path, path);
	int fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return 0;
	int ok = connect(fd, (struct sockaddr *)&a, sizeof a) == 0;
	close(fd);
	return ok;
}

int net_vde_port_name(const char *name)
{
	size_t port = strspn(name, "0123456789");
	if (port < 3 || name[port] != '.')
		return 0;
	const char *fd = name + port + 1;
	size_t digits = strspn(fd, "0123456789");
	return digits > 0 && fd[digits] == '\0';
}

int net_vde_ports(const char *switch_dir, struct vde_ports *ports)
{
	DIR *d = opendir(switch_dir);
	ports->n = 0;
	if (!d)
		return -1;
	for (struct dirent *e; (e = readdir(d));)
		if (net_vde_port_name(e->d_name) && strlen(e->d_name) < sizeof ports->name[0] &&
		    ports->n < VDE_MAX_PORTS)
			strcpy(ports->name[ports->n++], e->d_name);
	closedir(d);
	return ports->n;
}

static int has_port(const struct vde_ports *ports, const char *name)
{
	for (int i = 0; i < ports->n; i++)
		if (!strcmp(ports->name[i], name))
			return 1;
	return 0;
}

int net_vde_port_added(const struct vde_ports *before, const struct vde_ports *now)
{
	for (int i = 0; i < now->n; i++)
		if (!has_port(before, now->name[i]))
			return 1;
	return 0;
}
