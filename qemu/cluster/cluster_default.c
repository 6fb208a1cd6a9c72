/*
 * qemu/cluster/cluster_default.c - qemu/cluster/default.cluster built into dpm.
 *
 * `dpm cluster up` without -f boots the default cluster from any working
 * directory, so the file is assembled in as a NUL-terminated string
 * (qemu/build.mk makes this object depend on it).
 */
__asm__(".section .rodata\n"
	".global dpm_default_cluster\n"
	".type dpm_default_cluster, @object\n"
	"dpm_default_cluster:\n"
	".incbin \"qemu/cluster/default.cluster\"\n"
	".byte 0\n"
	".size dpm_default_cluster, . - dpm_default_cluster\n"
	".previous\n");
