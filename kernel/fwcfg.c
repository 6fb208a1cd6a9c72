/*
 * kernel/fwcfg.c - files handed to the node by QEMU's fw_cfg device
 * (`-fw_cfg name=opt/...,file=PATH`): the device's signature, its file
 * directory (item 0x19: a big-endian count, then 64-byte entries of
 * size, item and name) and the file's bytes.  The cluster's secret
 * reaches the node this way (kernel/abi/hostauth.h); the registers are
 * arch/'s (arch_fwcfg_select, arch_fwcfg_read).
 */
#include "kernel/kernel.h"

#define FWCFG_SIGNATURE 0x0000
#define FWCFG_FILE_DIR 0x0019
#define FWCFG_NAME_LEN 56
#define FWCFG_MAX_FILES 4096

int32_t fwcfg_file(const char *name, void *buf, uint32_t size)
{
	uint8_t sig[4], word[4], entry[64];
	arch_fwcfg_select(FWCFG_SIGNATURE);
	arch_fwcfg_read(sig, sizeof sig);
	if (memcmp(sig, "QEMU", 4))
		return -1;
	arch_fwcfg_select(FWCFG_FILE_DIR);
	arch_fwcfg_read(word, sizeof word);
	uint32_t count = load_be32(word), len = (uint32_t)strlen(name);
	if (len >= FWCFG_NAME_LEN)
		return -1;
	for (uint32_t i = 0; i < count && i < FWCFG_MAX_FILES; i++) {
		arch_fwcfg_read(entry, sizeof entry);
		const char *ename = (const char *)entry + 8;
		if (strncmp(ename, name, FWCFG_NAME_LEN) || ename[len] != '\0')
			continue;
		uint32_t fsize = load_be32(entry);
		arch_fwcfg_select((uint16_t)(entry[4] << 8 | entry[5]));
		arch_fwcfg_read(buf, fsize < size ? fsize : size);
		return (int32_t)fsize;
	}
	return -1;
}
