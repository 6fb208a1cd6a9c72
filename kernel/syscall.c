/*
 * kernel/syscall.c - the kernel-call table.  arch/ decodes the trap and
 * hands the call number and five argument words here; each call checks its
 * own arguments (ipc.c), so this file only routes, and runs on the way
 * out the modelled copying a call left its process to pay (ipc.c: a
 * received message's data is copied in whoever's kernel call delivers it,
 * but paid in the receiver's own time, after its RECEIVE).
 */
#include "kernel.h"
#include "vtime.h"

static int32_t route(struct proc *p, uint32_t nr, uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3, uint32_t a4)
{
	switch (nr) {
	case K_CREATELINK:       return sys_createlink(p, a0);
	case K_DESTROYLINK:      return sys_destroylink(p, (int32_t)a0);
	case K_SENDMESSAGE:      return sys_sendmessage(p, (int32_t)a0, a1, a2, (int32_t)a3);
	case K_RECEIVEMESSAGE:   return sys_receive(p, a0, 1);
	case K_ARECEIVEMESSAGE:  return sys_receive(p, a0, 0);
	case K_CALL:             return sys_call(p, (int32_t)a0, a1, a2, (int32_t)a3, a4);
	case K_MOVEDATA:         return sys_movedata(p, a0);
	case K_STOPTASK:         proc_exit(p, EXIT_NORMAL, (int32_t)a0, 0, 0); return 0;
	case K_NULL:             return 0;
	case K_REPLYRECEIVE:     return sys_replyreceive(p, (int32_t)a0, a1, a2, (int32_t)a3, a4);
	}
	return E_BADCALL;
}

int32_t syscall_dispatch(struct proc *p, uint32_t nr, uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3, uint32_t a4)
{
	int32_t r = route(p, nr, a0, a1, a2, a3, a4);
	if (p->copy_owed_ns) {
		uint64_t ns = p->copy_owed_ns;
		p->copy_owed_ns = 0;
		vtime_spin(ns);
	}
	return r;
}
