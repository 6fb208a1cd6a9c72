/*
 * tests/fuzz/fuzz_cluster_file.c - the cluster file (qemu/cluster/
 * cluster_file.h) as `dpm cluster up` reads it, and what is made from a
 * file that parses: each node's kernel command line and QEMU command
 * (qemu/cluster/cluster_qemu.h), its delivery-time model and the virtual-
 * time settings.  An error must name file:line:col.
 */
#include <stdlib.h>
#include <string.h>

#include "fuzz.h"
#include "qemu/cluster/cluster_file.h"
#include "qemu/cluster/cluster_mtime.h"
#include "qemu/cluster/cluster_qemu.h"
#include "qemu/cluster/cluster_vtime.h"

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	char err[512];
	char *text = fuzz_text(data, size);
	static struct cluster_spec spec;
	if (cluster_parse("fuzz.cluster", text, &spec, err, sizeof err) < 0) {
		if (strncmp(err, "fuzz.cluster", 12) != 0)
			fuzz_fail("a cluster file error that does not name the file: '%s'", err);
		free(text);
		return 0;
	}
	free(text);
	if (spec.nnodes < 0 || spec.nnodes > CLUSTER_MAX_NODES || spec.nservices < 0 ||
	    spec.nservices > CLUSTER_MAX_SERVICES)
		fuzz_fail("%d nodes, %d services", spec.nnodes, spec.nservices);
	uint64_t vt[VT_FIELDS];
	cluster_vtime_resolve(&spec.vtime, vt);
	char words[1024];
	(void)cluster_vtime_kernel_words(&spec.vtime, words, sizeof words);
	struct node_launch l = { .dir = "/c", .kernel = "/b/x86/kernel.elf", .arm_kernel = "/dev/null",
				 .spec = &spec, .services = spec.services,
				 .nservices = spec.nservices };
	static struct qemu_command cmd;
	for (int i = 0; i < spec.nnodes; i++) {
		const struct cluster_node *n = &spec.nodes[i];
		char line[4096];
		(void)qemu_kernel_cmdline(n, &l, line, sizeof line);
		(void)qemu_node_command(n, &l, &cmd, err, sizeof err);
		(void)cluster_node_shift(&spec, n);
		uint64_t local, remote;
		cluster_mtime_model(&spec, n, 64, &local, &remote);
	}
	return 0;
}
