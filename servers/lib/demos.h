/*
 * servers/lib/demos.h - the DEMOS/MP kernel calls as C functions, plus the
 * few requests every program makes over its kernel link (console, clock).
 * docs/kernel-calls.md gives the exact semantics and error codes.
 */
#ifndef DPM_DEMOS_H
#define DPM_DEMOS_H
#include <stdint.h>

#include "kernel/abi/calls.h"

int createlink(uint32_t code, void *data, uint32_t data_len, uint32_t rights);
int destroylink(int link);
/* The message calls (sendmessage, receivemessage, areceivemessage, call,
 * replyreceive) and nullcall are inline, below, as libsel4's are: a
 * program's call places its arguments in the trap's registers where it
 * stands, with no call, frame or reloading of its own. */
/* A server's step: replyreceive, and should the reply not go (its caller
 * died, its node is down, ...: any result but a receive's), a plain
 * receivemessage all the same, so that the server serves on as it did
 * when it ignored a failed sendmessage.  The receive's result. */
int serve_next(int reply, const void *buf, uint32_t len, int passlink, struct message *m);
int movedata(int from_link, uint32_t from_off, int to_link, uint32_t to_off, uint32_t len);
void stoptask(int status) __attribute__((noreturn));
/* A receive (K_RECEIVEMESSAGE, K_ARECEIVEMESSAGE, K_CALL, K_REPLYRECEIVE)
 * with its six argument words as they go in the registers: its result,
 * and what it received in *got (meaningful when the result is >= 0 or
 * E_TRUNC).  The four wrappers above are built on it; tests use it to
 * hand the kernel registers no wrapper would. */
int kcall_receive(uint32_t nr, uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3, uint32_t a4, uint32_t a5,
		  struct kcall_received *got);

/* Kernel-link requests. */
int console_write(const void *buf, uint32_t len);
int node_time(uint64_t *now_ns, uint64_t *cpu_ns);
int node_info(uint32_t *node, uint32_t *runnable);
/* After `ms` milliseconds the kernel sends this process a struct kr_alarm
 * message whose code (and struct field) is `code`. */
int alarm_after(uint32_t ms, uint32_t code);
/* KR_BRK: the program break moved to `want` (0: asked), or an error.  A
 * failed growth maps nothing. */
int program_break(uint32_t want);
/* KR_KSTATS: the node's free resources and task's use (0: ours). */
int kernel_stats(uint32_t task, struct kr_kstats *k);

/* "E_DEAD" for E_DEAD, ... */
const char *kerror_name(int err);
const char *exit_reason_name(uint32_t reason);

#include "kcall.h" /* the machine's trap (arch/<arch>/user/kcall.h) */

#define DEMOS_U(p) ((uint32_t)(uintptr_t)(p))

static inline int sendmessage(int link, const void *buf, uint32_t len, int passlink)
{
	return kcall(K_SENDMESSAGE, (uint32_t)link, DEMOS_U(buf), len, (uint32_t)passlink, 0);
}

/* A receive's result, with what it received stored in m when there is
 * something to say (a message, or E_TRUNC's whole one); after any other
 * error m is left as it was. */
static inline int demos_received(struct message *m, int32_t r, const struct kcall_received *got)
{
	if (r >= 0 || r == E_TRUNC) {
		m->len = got->len;
		m->code = got->code;
		m->passed = got->passed;
		m->reply = got->reply;
		m->from = got->from;
	}
	return r;
}

static inline int receivemessage(struct message *m)
{
	struct kcall_received got;
	return demos_received(m, kcall_recv(K_RECEIVEMESSAGE, DEMOS_U(m->buf), m->buf_len, 0, 0, 0, 0, &got), &got);
}

static inline int areceivemessage(struct message *m)
{
	struct kcall_received got;
	return demos_received(m, kcall_recv(K_ARECEIVEMESSAGE, DEMOS_U(m->buf), m->buf_len, 0, 0, 0, 0, &got), &got);
}

static inline int call(int link, const void *buf, uint32_t len, int passlink, struct message *reply)
{
	struct kcall_received got;
	int32_t r = kcall_recv(K_CALL, (uint32_t)link, DEMOS_U(buf), len, (uint32_t)passlink, DEMOS_U(reply->buf),
			       reply->buf_len, &got);
	return demos_received(reply, r, &got);
}

/* sendmessage(link, buf, len, passlink) then, only if it sent,
 * receivemessage(m), in one kernel call: a server's answer to one request
 * and its wait for the next.  A failed send is the result, and then
 * nothing was received (see serve_next). */
static inline int replyreceive(int link, const void *buf, uint32_t len, int passlink, struct message *m)
{
	struct kcall_received got;
	int32_t r = kcall_recv(K_REPLYRECEIVE, (uint32_t)link, DEMOS_U(buf), len, (uint32_t)passlink, DEMOS_U(m->buf),
			       m->buf_len, &got);
	return demos_received(m, r, &got);
}

static inline int nullcall(void) { return kcall(K_NULL, 0, 0, 0, 0, 0); }
#undef DEMOS_U

/* A struct message ready to receive into buf.  A compound literal, not an
 * inline function returning the struct: GCC's i386 code for that built the
 * struct on the stack and copied it word by word in a loop, twice for an
 * assignment (about 70 instructions a receive; written in place, 14). */
#define message_into(into, into_len) \
	((struct message){ .buf = (into), .buf_len = (into_len), .passed = -1, .reply = -1 })
#endif
