/*
 * qemu/cluster/cluster_qemu.c - the QEMU command line of a node.
 *
 * The serial port is a socket chardev (server, not waiting for a client)
 * with a logfile: the log is the console anyone can read or follow, the
 * socket lets one client type into the node later.  NIC MAC addresses carry
 * the node id in their last byte (52:54:00:00:00:NN on the LAN,
 * 52:54:00:00:01:NN on the host-services NIC), so a frame's source tells
 * its node.  What differs between machines (x86: qemu-system-i386 with PCI
 * virtio and isa-debug-exit; ARM: the virt machine with virtio-mmio and
 * semihosting for power-off) is one row of `machines`; both power off with
 * the same statuses (docs/arm.md).
 */
#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include "cluster_qemu.h"
#include "cluster_state.h"
#include "kernel/abi/hostauth.h"

/* Append formatted text to out at *used; -1 if it does not fit. */
static int append(char *out, size_t size, size_t *used, const char *fmt, ...)
	__attribute__((format(printf, 4, 5)));

static int append(char *out, size_t size, size_t *used, const char *fmt, ...)
{
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(out + *used, size - *used, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= size - *used)
		return -1;
	*used += (size_t)n;
	return 0;
}

int qemu_kernel_cmdline(const struct cluster_node *n, const struct node_launch *l, char *out,
			size_t size)
{
	size_t used = 0;
	if (append(out, size, &used, "node=%d peers=", n->id))
		return -1;
	for (int i = 0; i < l->spec->nnodes; i++)
		if (append(out, size, &used, "%s%d", i ? "," : "", l->spec->nodes[i].id))
			return -1;
	for (int i = 0; l->services && i < l->nservices; i++)
		if (append(out, size, &used, "%s%s:%d%s", i ? "," : " host=", l->services[i].name,
			   l->services[i].port, l->services[i].cmd[0] ? ":fwd" : ""))
			return -1;
	for (int i = 0, k = 0; l->services && i < l->nservices; i++)
		if (cluster_service_auth(&l->services[i]) &&
		    append(out, size, &used, "%s%s", k++ ? "," : " hostauth=", l->services[i].name))
			return -1;
	if (n->kernel[0] && append(out, size, &used, " %s", n->kernel))
		return -1;
	if (n->vclock) {
		char words[256];
		if (cluster_vtime_kernel_words(&l->spec->vtime, words, sizeof words) ||
		    append(out, size, &used, " vclock=1 %s", words))
			return -1;
	}
	if (n->init[0] && append(out, size, &used, " %s", n->init))
		return -1;
	return 0;
}

/* A copy of s with every ',' doubled, as QEMU's option syntax wants. */
static void qemu_escape(const char *s, char *out, size_t size)
{
	size_t k = 0;
	for (; *s && k + 2 < size; s++) {
		out[k++] = *s;
		if (*s == ',')
			out[k++] = ',';
	}
	out[k] = '\0';
}

/* Add one argument, formatted, to cmd. */
static int arg(struct qemu_command *cmd, const char *fmt, ...) __attribute__((format(printf, 2, 3)));

static int arg(struct qemu_command *cmd, const char *fmt, ...)
{
	if (cmd->argc == QEMU_MAX_ARGS)
		return -1;
	va_list ap;
	va_start(ap, fmt);
	int n = vsnprintf(cmd->buf + cmd->used, sizeof cmd->buf - cmd->used, fmt, ap);
	va_end(ap);
	if (n < 0 || (size_t)n >= sizeof cmd->buf - cmd->used)
		return -1;
	cmd->argv[cmd->argc++] = cmd->buf + cmd->used;
	cmd->argv[cmd->argc] = NULL;
	cmd->used += (size_t)n + 1;
	return 0;
}

/* dir/NAME plus suffix, checked to fit a socket address when is_socket. */
static int node_file(const struct cluster_node *n, const struct node_launch *l, const char *suffix,
		     int is_socket, char *out, size_t size, char *err, size_t errlen)
{
	char name[CLUSTER_NAME_MAX + 32], path[4096];
	snprintf(name, sizeof name, "%s%s", n->name, suffix);
	if (state_path(l->dir, name, is_socket, path, sizeof path, err, errlen))
		return -1;
	qemu_escape(path, out, size);
	return 0;
}

struct machine {
	const char *qemu;            /* the emulator                             */
	const char *args[6];         /* machine options, NULL-terminated          */
	const char *nic;             /* virtio-net device model                   */
	const char *disk;            /* virtio-blk device model                   */
};

static const struct machine machines[] = {
	[CLUSTER_X86] = { "qemu-system-i386", { "-device", "isa-debug-exit,iobase=0xf4,iosize=0x04" },
			  "virtio-net-pci", "virtio-blk-pci" },
	[CLUSTER_ARM] = { "qemu-system-arm", { "-M", "virt", "-cpu", "cortex-a15", "-semihosting" },
			  "virtio-net-device", "virtio-blk-device" },
};

int qemu_arm_kernel(const char *x86_kernel, char *out, size_t size)
{
	const char *x86_dir = "/x86/kernel.elf";
	size_t n = strlen(x86_kernel), k = strlen(x86_dir);
	if (n < k || strcmp(x86_kernel + n - k, x86_dir) || n >= size)
		return -1;
	snprintf(out, size, "%.*s/arm/kernel.elf", (int)(n - k), x86_kernel);
	return 0;
}

static int host_nic(const struct cluster_node *n, const struct node_launch *l,
		    const struct machine *m, struct qemu_command *cmd)
{
	char netdev[4096];
	size_t used = 0;
	/* Services with a port are reached through QEMU's NAT (10.0.2.2 is the
	 * host's 127.0.0.1): QEMU writes to their sockets without blocking, so
	 * one that stops reading costs the node its TCP window, not QEMU's
	 * main loop (guestfwd's tcp: chardev writes blocking, which stopped
	 * the whole node, its cluster card and heartbeats included, while a
	 * filter was stopped).  Those with a command are guestfwd's. */
	if (append(netdev, sizeof netdev, &used, "user,id=host"))
		return -1;
	for (int i = 0; i < l->nservices; i++) {
		const struct cluster_service *sv = &l->services[i];
		char cmd[2 * CLUSTER_COMMAND_MAX];
		qemu_escape(sv->cmd, cmd, sizeof cmd);
		if (sv->cmd[0] && append(netdev, sizeof netdev, &used, ",guestfwd=tcp:%s:%d-cmd:%s",
					CLUSTER_HOST_ADDR, sv->port, cmd))
			return -1;
	}
	int bad = arg(cmd, "-netdev") || arg(cmd, "%s", netdev) || arg(cmd, "-device") ||
		  arg(cmd, "%s,netdev=host,mac=52:54:00:00:01:%02x", m->nic, n->id);
	/* the cluster's secret, for the services the node authenticates to
	 * (kernel/abi/hostauth.h): a file QEMU hands the guest (fw_cfg), so
	 * the secret itself is on no command line */
	int auth = 0;
	for (int i = 0; i < l->nservices; i++)
		auth |= cluster_service_auth(&l->services[i]);
	if (auth && !bad) {
		char secret[4096], path[8192];
		snprintf(secret, sizeof secret, "%s/%s", l->dir, STATE_SECRET);
		qemu_escape(secret, path, sizeof path);
		bad = arg(cmd, "-fw_cfg") || arg(cmd, "name=%s,file=%s", HOSTAUTH_FWCFG_NAME, path);
	}
	return bad;
}

/* The node's disk image as a virtio-blk device (docs/fs.md). */
static int disk_drive(const struct cluster_node *n, const struct machine *m, struct qemu_command *cmd)
{
	char path[2 * CLUSTER_WORDS_MAX];
	qemu_escape(n->disk, path, sizeof path);
	return arg(cmd, "-drive") || arg(cmd, "file=%s,format=raw,if=none,id=disk", path) ||
	       arg(cmd, "-device") || arg(cmd, "%s,drive=disk", m->disk);
}

int qemu_node_command(const struct cluster_node *n, const struct node_launch *l,
		      struct qemu_command *cmd, char *err, size_t errlen)
{
	char cmdline[1024], sock[8192], console[8192], sw[8192], arm_kernel[4096];
	memset(cmd, 0, sizeof *cmd);
	const struct machine *m = &machines[n->arch == CLUSTER_ARM ? CLUSTER_ARM : CLUSTER_X86];
	const char *kernel = l->kernel;
	if (n->arch == CLUSTER_ARM) {
		kernel = l->arm_kernel;
		if (!kernel && qemu_arm_kernel(l->kernel, arm_kernel, sizeof arm_kernel) == 0)
			kernel = arm_kernel;
		if (!kernel || access(kernel, R_OK)) {
			snprintf(err, errlen, "node '%s': arch arm needs the ARM kernel%s%s beside the x86 one "
				 "(build it with 'make')", n->name, kernel ? " " : "", kernel ? kernel : "");
			return -1;
		}
	}
	if (n->disk[0] && access(n->disk, R_OK | W_OK)) {
		snprintf(err, errlen, "node '%s': disk image '%s': %s (make one with `dpm disk create`)",
			 n->name, n->disk, strerror(errno));
		return -1;
	}
	if (node_file(n, l, NODE_SOCKET_SUFFIX, 1, sock, sizeof sock, err, errlen) ||
	    node_file(n, l, NODE_CONSOLE_SUFFIX, 0, console, sizeof console, err, errlen))
		return -1;
	char swpath[4096];
	if (state_path(l->dir, STATE_SWITCH, 1, swpath, sizeof swpath, err, errlen))
		return -1;
	qemu_escape(swpath, sw, sizeof sw);
	if (qemu_kernel_cmdline(n, l, cmdline, sizeof cmdline)) {
		snprintf(err, errlen, "node '%s': kernel command line too long", n->name);
		return -1;
	}
	int bad = arg(cmd, "%s", m->qemu);
	for (int i = 0; m->args[i]; i++)
		bad = bad || arg(cmd, "%s", m->args[i]);
	/* clock=icount: the guest clock counts executed instructions while the
	 * node runs (1 ns each), so a process's CPU time does not grow when the
	 * host deschedules the node; idle time still follows the host's clock
	 * (sleep stays on), so timeouts and elapsed times keep their meaning. */
	if (n->icount)
		bad = bad || arg(cmd, "-icount") || arg(cmd, "shift=0");
	/* clock=virtual: instructions are time (2^shift ns each: the node's
	 * speed) and an idle node's clock jumps to its next deadline
	 * (docs/virtual-time.md) */
	if (n->vclock)
		bad = bad || arg(cmd, "-icount") ||
		      arg(cmd, "shift=%d,sleep=off", cluster_node_shift(l->spec, n));
	/* ... and on ARM a counter of 1 ns (62.5 MHz by default): the clock's
	 * origin moves by excluded stretches, which a 16 ns counter would
	 * round by an amount the host decides (the later -cpu wins) */
	if (n->vclock && n->arch == CLUSTER_ARM)
		bad = bad || arg(cmd, "-cpu") || arg(cmd, "cortex-a15,cntfrq=1000000000");
	bad = bad || arg(cmd, "-name") || arg(cmd, "%s", n->name) ||
		  arg(cmd, "-m") || arg(cmd, "%d", n->memory_mib) ||
		  arg(cmd, "-kernel") || arg(cmd, "%s", kernel) ||
		  arg(cmd, "-append") || arg(cmd, "%s", cmdline) ||
		  arg(cmd, "-display") || arg(cmd, "none") || arg(cmd, "-nodefaults") ||
		  arg(cmd, "-no-reboot") || arg(cmd, "-chardev") ||
		  arg(cmd, "socket,id=console,path=%s,server=on,wait=off,logfile=%s", sock, console) ||
		  arg(cmd, "-serial") || arg(cmd, "chardev:console") ||
		  arg(cmd, "-netdev") || arg(cmd, "vde,id=lan,sock=%s", sw) ||
		  arg(cmd, "-device") ||
		  arg(cmd, "%s,netdev=lan,mac=52:54:00:00:00:%02x", m->nic, n->id) ||
		  (l->services && l->nservices > 0 && host_nic(n, l, m, cmd)) ||
		  (n->disk[0] && disk_drive(n, m, cmd));
	if (bad) {
		snprintf(err, errlen, "node '%s': QEMU command line too long", n->name);
		return -1;
	}
	return 0;
}

int qemu_console_has_banner(const char *text, int node_id)
{
	char banner[32];
	snprintf(banner, sizeof banner, "DPM kernel: node %d", node_id);
	size_t len = strlen(banner);
	for (const char *p = strstr(text, banner); p; p = strstr(p + 1, banner))
		if (p[len] < '0' || p[len] > '9')
			return 1;
	return 0;
}
