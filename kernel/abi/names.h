/*
 * kernel/abi/names.h - names and one-line meanings of the kernel's error
 * codes and exit reasons (abi.h), for messages.  Header-only tables, so the
 * program library (servers/lib/demos.c) and the host tools (dpm control)
 * print the same words for the same code.
 */
#ifndef DPM_ABI_NAMES_H
#define DPM_ABI_NAMES_H
#include <stdint.h>

#include "calls.h"

struct abi_error_text {
	const char *name;
	const char *meaning;
};

static const struct abi_error_text abi_error_texts[] = {
	{ "E_OK", "success" },
	{ "E_BADCALL", "no such kernel call" },
	{ "E_BADADDR", "a pointer or buffer is not in the caller's memory" },
	{ "E_BADLINK", "no such link" },
	{ "E_RIGHTS", "the link does not carry the needed right" },
	{ "E_TOOBIG", "message too long" },
	{ "E_NOSPACE", "table full" },
	{ "E_QUEUEFULL", "the receiver's queue is full" },
	{ "E_NOMEM", "out of memory or buffer space" },
	{ "E_DEAD", "no such process, or it has ended" },
	{ "E_WOULDBLOCK", "no message waiting" },
	{ "E_BOUNDS", "outside the data area" },
	{ "E_INVAL", "an argument is out of range" },
	{ "E_NOPROG", "no program of that name in the boot image" },
	{ "E_NODEDOWN", "the node cannot be reached" },
	{ "E_BADREQ", "malformed request" },
	{ "E_STATE", "the process is not in a state that allows it" },
	{ "E_TRUNC", "message truncated" },
	{ "E_NONAME", "nothing registered under that name" },
};

static inline const struct abi_error_text *abi_error(int err)
{
	static const struct abi_error_text unknown = { "E_?", "unknown error" };
	int i = -err;
	return err <= 0 && i < (int)(sizeof abi_error_texts / sizeof abi_error_texts[0])
		       ? &abi_error_texts[i]
		       : &unknown;
}

/* enum exit_reason as words: "normal", "killed", "memory fault", ... */
static inline const char *abi_exit_reason_name(uint32_t reason)
{
	static const char *const names[] = {
		"normal", "killed", "memory fault", "illegal instruction",
		"divide error", "stack overflow", "fault", "node down",
	};
	return reason < sizeof names / sizeof names[0] ? names[reason] : "unknown";
}

#endif
