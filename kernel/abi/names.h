/*
 * kernel/abi/names.h - names and one-line meanings of the kernel's error
 * codes and exit reasons (abi.h), for messages.  Header-only tables, so the
 * kernel's console, the program library (servers/lib/demos.c) and the host
 * tools (dpm control, dpm dump's CSV) print the same words for the same
 * code.  This is the one table of exit reasons: each has its words for
 * messages and its tag for the CSV's reason column (docs/trace-csv.md).
 */
#ifndef DPM_ABI_NAMES_H
#define DPM_ABI_NAMES_H
#include <stddef.h>
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

/* enum exit_reason, indexed by its value. */
struct abi_exit_reason_text {
	const char *name; /* words for messages: "memory fault"        */
	const char *tag;  /* one token, for CSV columns: "fault-memory" */
};

static const struct abi_exit_reason_text abi_exit_reason_texts[] = {
	[EXIT_NORMAL] = { "normal", "normal" },
	[EXIT_KILLED] = { "killed", "killed" },
	[EXIT_FAULT_MEMORY] = { "memory fault", "fault-memory" },
	[EXIT_FAULT_ILLEGAL] = { "illegal instruction", "fault-illegal" },
	[EXIT_FAULT_DIVIDE] = { "divide error", "fault-divide" },
	[EXIT_FAULT_STACK] = { "stack overflow", "fault-stack" },
	[EXIT_FAULT_OTHER] = { "fault", "fault-other" },
	[EXIT_NODE_DOWN] = { "node down", "node-down" },
};

/* The texts of exit reason `reason`, or NULL when there is no such reason. */
static inline const struct abi_exit_reason_text *abi_exit_reason(uint32_t reason)
{
	return reason < sizeof abi_exit_reason_texts / sizeof abi_exit_reason_texts[0]
		       ? &abi_exit_reason_texts[reason]
		       : NULL;
}

/* enum exit_reason as words: "normal", "killed", "memory fault", ... */
static inline const char *abi_exit_reason_name(uint32_t reason)
{
	const struct abi_exit_reason_text *t = abi_exit_reason(reason);
	return t ? t->name : "unknown";
}

#endif
