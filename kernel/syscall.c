/*
 * kernel/syscall.c - the kernel-call table.  arch/ decodes the trap and
 * hands the call number and its KCALL_WORDS argument words here, and puts
 * back into its result registers the words this returns (the result, and
 * what a receive received: kernel/abi/calls.h); so no register is named
 * here, and a receive writes what it received into its words, not into
 * user memory.  Each call checks its
 * own arguments (ipc.c), so this file only routes, and runs on the way
 * out the modelled copying a call left its process to pay (ipc.c: a
 * received message's data is copied in whoever's kernel call delivers it,
 * but paid in the receiver's own time, after its RECEIVE).
 */
#include "kernel.h"
#include "vtime.h"

static int32_t route(struct proc *p, uint32_t nr, uint32_t *w)
{
	switch (nr) {
	case K_CREATELINK:       return sys_createlink(p, w[0]);
	case K_DESTROYLINK:      return sys_destroylink(p, (int32_t)w[0]);
	case K_SENDMESSAGE:      return sys_sendmessage(p, (int32_t)w[0], w[1], w[2], (int32_t)w[3]);
	case K_RECEIVEMESSAGE:   return sys_receive(p, w[0], w[1], w, 1);
	case K_ARECEIVEMESSAGE:  return sys_receive(p, w[0], w[1], w, 0);
	case K_CALL:             return sys_call(p, (int32_t)w[0], w[1], w[2], (int32_t)w[3], w[4], w[5], w);
	case K_MOVEDATA:         return sys_movedata(p, w[0]);
	case K_STOPTASK:         proc_exit(p, EXIT_NORMAL, (int32_t)w[0], 0, 0); return 0;
	case K_NULL:             return 0;
	case K_REPLYRECEIVE:     return sys_replyreceive(p, (int32_t)w[0], w[1], w[2], (int32_t)w[3], w[4], w[5], w);
	}
	return E_BADCALL;
}

unsigned syscall_dispatch(struct proc *p, uint32_t nr, uint32_t w[KCALL_WORDS])
{
	int32_t r = route(p, nr, w);
	if (p->copy_owed_ns) {
		uint64_t ns = p->copy_owed_ns;
		p->copy_owed_ns = 0;
		vtime_spin(ns);
	}
	w[0] = (uint32_t)r;
	return nr == K_RECEIVEMESSAGE || nr == K_ARECEIVEMESSAGE || nr == K_CALL || nr == K_REPLYRECEIVE ? KCALL_WORDS
														: 1;
}
