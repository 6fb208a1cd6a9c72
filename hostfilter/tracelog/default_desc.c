/*
 * hostfilter/tracelog/default_desc.c - kernel/abi/trace.desc built into dpm.
 *
 * `dpm filter` without --desc must describe the kernel's records without
 * looking for a file at run time, so the description file is assembled in
 * as a NUL-terminated string (build.mk makes this object depend on it).
 */
__asm__(".section .rodata\n"
	".global dpm_default_desc\n"
	".type dpm_default_desc, @object\n"
	"dpm_default_desc:\n"
	".incbin \"kernel/abi/trace.desc\"\n"
	".byte 0\n"
	".size dpm_default_desc, . - dpm_default_desc\n"
	".previous\n");
