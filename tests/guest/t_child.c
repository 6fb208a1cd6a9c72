/*
 * tests/guest/t_child.c - the helper process the guest suites start through
 * the process manager.  argv[1] picks what it does; link 4 (given by the
 * test before start) leads back to the test.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "servers/lib/demos.h"
#include "servers/lib/pm.h"
#include "gtest.h"

#define PARENT 4

static volatile int sink;
static uint8_t area[8192];

static int recurse(int n)
{
	volatile char pad[512];
	pad[0] = (char)n;
	if (n < 0) /* never: the stack runs out first */
		return 0;
	return recurse(n + 1) + pad[0];
}

/* Answer CALLs with the request's bytes, `n` times (0: forever). */
static int echo(int n)
{
	static uint8_t buf[MSG_MAX];
	for (int i = 0; n == 0 || i < n; i++) {
		struct message m = message_into(buf, sizeof buf);
		int len = receivemessage(&m);
		if (len < 0 || m.reply < 0)
			return 2;
		if (sendmessage(m.reply, buf, (uint32_t)len, -1) < 0)
			return 3;
		/* a reply link is one-time */
		if (sendmessage(m.reply, buf, 1, -1) != E_BADLINK)
			return 4;
	}
	return 0;
}

/* The same with REPLYRECEIVE: each answer and the wait for the next
 * request in one call (the last answer a SENDMESSAGE), `n` requests. */
static int rr_echo(int n)
{
	static uint8_t buf[MSG_MAX];
	struct message m = message_into(buf, sizeof buf);
	int len = receivemessage(&m);
	for (int i = 0; i < n; i++) {
		if (len < 0 || m.reply < 0)
			return 2;
		int reply = m.reply;
		m = message_into(buf, sizeof buf);
		/* a reply link is one-time: used up, its slot (the first
		 * free) holds the next request's */
		if (i + 1 < n && ((len = replyreceive(reply, buf, (uint32_t)len, -1, &m)) < 0 || m.reply != reply))
			return 4;
		if (i + 1 == n && (sendmessage(reply, buf, (uint32_t)len, -1) < 0 ||
				   sendmessage(reply, buf, 1, -1) != E_BADLINK))
			return 3;
	}
	return 0;
}

/* Wait for the parent's go (a word: our index), for stress runs that
 * start many helpers at once. */
static int wait_go(uint32_t *index)
{
	struct message m = message_into(index, sizeof *index);
	return receivemessage(&m) == 4 ? 0 : -1;
}

/* After the go, `n` CALLs of MSG_MAX bytes over link 5, each echo checked. */
static int big_calls(uint32_t n)
{
	static uint32_t q[MSG_MAX / 4], a[MSG_MAX / 4];
	uint32_t me;
	if (wait_go(&me) < 0)
		return 1;
	for (uint32_t i = 0; i < n; i++) {
		for (uint32_t k = 0; k < MSG_MAX / 4; k++)
			q[k] = me << 24 ^ i << 16 ^ k;
		struct message m = message_into(a, sizeof a);
		if (call(5, q, sizeof q, -1, &m) != (int)sizeof q)
			return 2;
		if (memcmp(q, a, sizeof q))
			return 3;
	}
	return 0;
}

/* After the go (our index k), `n` rounds of writing page k of the area of
 * link 5 and reading it back, each checked. */
static int move_rounds(uint32_t n)
{
	static uint32_t out[1024], in[1024];
	uint32_t k;
	if (wait_go(&k) < 0)
		return 1;
	int lo = createlink(1, out, sizeof out, LINK_READ), li = createlink(2, in, sizeof in, LINK_WRITE);
	if (lo < 0 || li < 0)
		return 2;
	for (uint32_t i = 0; i < n; i++) {
		for (uint32_t w = 0; w < 1024; w++)
			out[w] = k << 24 ^ i << 16 ^ w;
		if (movedata(lo, 0, 5, k * 4096, 4096) != 4096 || movedata(5, k * 4096, li, 0, 4096) != 4096)
			return 3;
		if (memcmp(out, in, sizeof out))
			return 4;
	}
	return 0;
}

/* Offer a data area to the parent, then answer "checksum?" calls. */
static int offer_data(uint32_t rights, uint32_t size)
{
	uint8_t *data = size <= sizeof area ? area : malloc(size);
	if (!data)
		return 5;
	for (uint32_t i = 0; i < size; i++)
		data[i] = (uint8_t)(i * 7 + 3);
	int l = createlink(0xda7a, data, size, rights);
	if (l < 0 || sendmessage(PARENT, &size, sizeof size, l) < 0)
		return 6;
	for (;;) {
		uint32_t q;
		struct message m = message_into(&q, sizeof q);
		if (receivemessage(&m) < 0 || m.reply < 0)
			return 7;
		uint32_t sum = 0;
		for (uint32_t i = 0; i < size; i++)
			sum = sum * 31 + data[i];
		sendmessage(m.reply, &sum, sizeof sum, -1);
		if (q == 0)
			return 0;
	}
}

/* Grow the heap past what the node (or our page quota) can give, twice,
 * with a small growth between; then read a page above the break, which
 * must fault (the process manager reports where).  Returns 0x42 only when
 * that read found memory: pages a failed growth left mapped. */
static int brk_fail(void)
{
	int brk0 = program_break(0);
	if (brk0 < 0)
		return 4;
	if (program_break((uint32_t)brk0 + (62u << 20)) != E_NOMEM)
		return 1;
	program_break((uint32_t)brk0 + 4096);    /* may fail where the failure leaked the node's memory */
	int b = program_break(0);
	if (b < 0)
		return 5;   /* the kernel cannot even answer: a failure leaked its memory */
	uint32_t brk1 = (uint32_t)b;
	if (program_break(brk1 + (62u << 20)) != E_NOMEM)
		return 2;
	if ((uint32_t)program_break(0) != brk1)
		return 3;
	volatile uint32_t *probe = (volatile uint32_t *)(((brk1 + 4095) & ~4095u) + 16 * 4096);
	sink = (int)*probe;
	return 0x42;
}

/* Set `n` 1-ms alarms (waiting while the kernel says E_NOSPACE), never
 * receiving one, until done or refused otherwise; then CALL the parent with
 * the count (receiving one message each time a full quota refuses the
 * CALL) and end when it answers. */
static int alarm_flood(uint32_t n)
{
	uint32_t set = 0;
	int r = 0;
	while (set < n && (r = alarm_after(1, set)) != E_NOMEM && r != E_INVAL) {
		if (r == 0)
			set++;
	}
	uint32_t report[2] = { set, (uint32_t)r }, answer;
	uint8_t drop[16];
	for (;;) {
		struct message m = message_into(&answer, sizeof answer);
		r = call(PARENT, report, sizeof report, -1, &m);
		if (r != E_NOMEM)
			return r < 0 ? 1 : 0;
		struct message d = message_into(drop, sizeof drop);
		areceivemessage(&d);
	}
}

/* The three faults only a machine's own instructions can cause; the modes
 * keep their x86 names on every machine. */
#ifdef __arm__
static void illegal_instruction(void) { __asm__ volatile(".inst 0xe7f000f0"); } /* udf #0 */
/* Reading SCTLR is privileged (cpsid, the x86 cli's twin, is a no-op in
 * user mode rather than a fault). */
static void privileged_instruction(void) { uint32_t v; __asm__ volatile("mrc p15, 0, %0, c1, c0, 0" : "=r"(v)); sink = (int)v; }
/* The UART's registers in the kernel's device window. */
static void device_access(void) { sink = *(volatile int *)(ARM_DEVICE_WINDOW + 0x01000000u); }
#else
static void illegal_instruction(void) { __asm__ volatile("ud2"); }
static void privileged_instruction(void) { __asm__ volatile("cli"); }
static void device_access(void) { __asm__ volatile("outb %%al, $0xf4" : : "a"(0)); }
#endif

int main(int argc, char **argv)
{
	const char *mode = argc > 1 ? argv[1] : "";
	uint32_t arg = argc > 2 ? (uint32_t)strtoul(argv[2], NULL, 0) : 0;
	/* Given a link to the test (slot 4), first send it a link to us. */
	uint32_t hello = 0x11;
	int self = createlink(0xc41d, NULL, 0, 0);
	if (sendmessage(PARENT, &hello, sizeof hello, self) == 0)
		destroylink(self);
	if (!strcmp(mode, "exit"))
		return (int)arg;
	if (!strcmp(mode, "alarmflood")) /* t_quota: arg 1-ms alarms, never received */
		return alarm_flood(arg);
	if (!strcmp(mode, "alarmhold")) { /* t_quota: hour-long alarms until refused, then end */
		uint32_t n = 0;
		while (n < 64 && alarm_after(3600000, n) == 0)
			n++;
		return sendmessage(PARENT, &n, sizeof n, -1) < 0 ? 1 : 0;
	}
	if (!strcmp(mode, "keepreply")) { /* t_quota: hold a CALL's reply link, say where */
		uint32_t v;
		struct message m = message_into(&v, sizeof v);
		if (receivemessage(&m) < 0 || m.reply < 0)
			return 1;
		uint32_t slot = (uint32_t)m.reply;
		if (sendmessage(PARENT, &slot, sizeof slot, -1) < 0)
			return 2;
		return receivemessage(&m) < 0 ? 3 : 4;   /* nothing else comes */
	}
	if (!strcmp(mode, "fill")) { /* t_quota: after a CALL to the parent is answered, empty
	                                 messages over link 5 until refused */
		uint32_t go = 0x22, answer;
		struct message m = message_into(&answer, sizeof answer);
		int r = call(PARENT, &go, sizeof go, -1, &m);
		if (r < 0)
			return 100;
		while ((r = sendmessage(5, NULL, 0, -1)) == 0)
			;
		return -r;
	}
	if (!strcmp(mode, "brkfail")) /* t_quota: failed heap growths, then a probe above the break */
		return brk_fail();
#if defined(__i386__)
	if (!strcmp(mode, "nullsegs")) { /* t_call: fs and gs null (the parent's are not)
	                                     across a CALL to the parent, which blocks */
		uint32_t v = 0x5e65, segs;
		struct message m = message_into(&v, sizeof v);
		__asm__ volatile("mov %0, %%fs\n\tmov %0, %%gs" : : "r"(0));
		int r = call(PARENT, &v, sizeof v, -1, &m);
		__asm__ volatile("mov %%fs, %0\n\tshl $16, %0\n\tmov %%gs, %%ax\n\tor %%eax, %0"
				 : "=&r"(segs) : : "eax");
		return r == 4 && segs == 0 ? 0 : 1;
	}
#endif
	if (!strcmp(mode, "echo"))
		return echo((int)arg);
	if (!strcmp(mode, "rrecho")) /* echo with REPLYRECEIVE */
		return rr_echo((int)arg);
	if (!strcmp(mode, "noreply")) {
		uint8_t buf[64];
		struct message m = message_into(buf, sizeof buf);
		receivemessage(&m);
		return 0; /* ends holding the reply link */
	}
	if (!strcmp(mode, "stdio-links")) { /* pass arg links to the controller's agent */
		uint32_t v = 0;
		uint32_t passed = 0;
		for (uint32_t i = 0; i < arg; i++) {
			int l = createlink(0x11c0 + i, NULL, 0, 0);
			int r = l < 0 ? l : E_QUEUEFULL;
			for (int tries = 0; r == E_QUEUEFULL && tries < 100000; tries++)
				r = sendmessage(LINK_STDIO, &v, sizeof v, l);
			if (l >= 0)
				destroylink(l);   /* the agent got a copy */
			passed += r >= 0;
		}
		printf("t_child: passed %u links to stdio, still printing\n", (unsigned)passed);
		return 0;
	}
	if (!strcmp(mode, "hold")) { /* keep what one message passes, forever */
		uint8_t buf[64];
		struct message m = message_into(buf, sizeof buf);
		receivemessage(&m);
		return receivemessage(&m) < 0 ? 1 : 0;   /* nothing else comes */
	}
	if (!strcmp(mode, "forward")) { /* pass a CALL's reply link on over link 5 */
		uint32_t v;
		struct message m = message_into(&v, sizeof v);
		if (receivemessage(&m) != 4 || m.reply < 0)
			return 1;
		return sendmessage(5, &v, 4, m.reply) < 0 ? 2 : 0;
	}
	if (!strcmp(mode, "callonce")) { /* one CALL over link 5: its error, negated */
		uint32_t v = 0x5a, a;
		struct message m = message_into(&a, sizeof a);
		int r = call(5, &v, 4, -1, &m);
		return r < 0 ? -r : 100;
	}
	if (!strcmp(mode, "dropreply")) {
		uint8_t buf[64];
		struct message m = message_into(buf, sizeof buf);
		receivemessage(&m);
		destroylink(m.reply);
		return echo(1);
	}
	if (!strcmp(mode, "report")) { /* arg messages into a 3-byte buffer, each reported
					  to its reply link, else over link 4 */
		for (uint32_t i = 0; i < arg; i++) {
			struct child_report r;
			memset(r.bytes, 0xee, sizeof r.bytes);
			struct message m = message_into(r.bytes, 3);
			r.result = receivemessage(&m);
			r.len = m.len;
			r.code = m.code;
			r.from = m.from;
			r.passed = m.passed;
			r.reply = m.reply;
			if (sendmessage(m.reply >= 0 ? m.reply : PARENT, &r, sizeof r, -1) < 0)
				return 2;
		}
		return 0;
	}
	if (!strcmp(mode, "counter")) { /* count for ever in a word offered to the parent */
		static volatile uint32_t count;
		int l = createlink(0xc0c0, (void *)&count, sizeof count, LINK_READ);
		if (l < 0 || sendmessage(PARENT, &l, sizeof l, l) < 0)
			return 2;
		for (;;)
			count++;
	}
	if (!strcmp(mode, "data"))
		return offer_data(LINK_READ | LINK_WRITE, arg ? arg : 4096);
	if (!strcmp(mode, "rodata"))
		return offer_data(LINK_READ, arg ? arg : 4096);
	if (!strcmp(mode, "call-parent")) {
		uint32_t word = 0x22, reply = 0;
		struct message m = message_into(&reply, sizeof reply);
		int r = call(PARENT, &word, 4, -1, &m);
		return r == 4 && reply == 0x33 ? 0 : 1;
	}
	if (!strcmp(mode, "call-pass")) { /* t_call: arg 6-byte CALLs to the parent, each but the
	                                      last passing a new link (code 0x900 + i); answer i
	                                      must be 0x33 + i */
		for (uint32_t i = 0; i < arg; i++) {
			int l = i + 1 < arg ? createlink(0x900 + i, NULL, 0, 0) : -1;
			uint32_t reply = 0;
			struct message m = message_into(&reply, sizeof reply);
			if ((i + 1 < arg && l < 0) || call(PARENT, "abcdef", 6, l, &m) != 4 || reply != 0x33 + i ||
			    m.len != 4 || m.passed != -1 || m.reply != -1)
				return 1;
			if (l >= 0)
				destroylink(l);
		}
		return 0;
	}
	if (!strcmp(mode, "ticker")) {
		for (uint32_t i = 0;; i++) {
			for (volatile int k = 0; k < 200000; k++)
				;
			if (sendmessage(PARENT, &i, 4, -1) == E_QUEUEFULL)
				for (volatile int k = 0; k < 2000000; k++)
					;
		}
	}
	if (!strcmp(mode, "ping")) { /* send arg messages over link 5 */
		for (uint32_t i = 0; i < arg; i++) {
			int r;
			while ((r = sendmessage(5, &i, sizeof i, -1)) == E_QUEUEFULL)
				for (volatile int k = 0; k < 10000; k++)
					;
			if (r < 0)
				return 1;
		}
		return 0;
	}
	if (!strcmp(mode, "pong")) { /* receive arg messages, in order */
		for (uint32_t i = 0; i < arg; i++) {
			uint32_t v;
			struct message m = message_into(&v, sizeof v);
			if (receivemessage(&m) != 4 || v != i)
				return 1;
		}
		return 0;
	}
	if (!strcmp(mode, "phased")) { /* arg self round trips, report, wait, again */
		int me = createlink(1, NULL, 0, 0);
		for (int phase = 0; phase < 2; phase++) {
			for (uint32_t i = 0; i < arg; i++) {
				struct message m = message_into(&hello, sizeof hello);
				if (sendmessage(me, &i, sizeof i, -1) < 0 || receivemessage(&m) != 4)
					return 1;
			}
			if (phase == 0) {
				struct message m = message_into(&hello, sizeof hello);
				if (sendmessage(PARENT, &hello, sizeof hello, -1) < 0 || receivemessage(&m) < 0)
					return 2;
			}
		}
		return 0;
	}
	if (!strcmp(mode, "linkwork")) { /* link and data-area events, then wait */
		int l = createlink(0x1111, area, 64, LINK_READ | LINK_WRITE);
		if (l < 0 || movedata(l, 0, l, 32, 16) != 16 || movedata(l, 60, l, 0, 8) != E_BOUNDS ||
		    destroylink(l) < 0 || sendmessage(PARENT, &hello, sizeof hello, -1) < 0)
			return 1;
		struct message m = message_into(&hello, sizeof hello);
		return receivemessage(&m) == 4 ? 0 : 2;
	}
	if (!strcmp(mode, "selfloop")) { /* arg round trips to itself, nothing else */
		int me = createlink(1, NULL, 0, 0);
		for (uint32_t i = 0; i < arg; i++) {
			struct message m = message_into(&hello, sizeof hello);
			if (sendmessage(me, &i, sizeof i, -1) < 0 || receivemessage(&m) != 4)
				return 1;
		}
		return 0;
	}
	if (!strcmp(mode, "spawner")) { /* create a child of our own, wait for it */
		const char *args[] = { "t_child", "exit", "3", NULL };
		int notify = createlink(9, NULL, 0, 0);
		uint32_t child;
		struct kr_exit_notice n;
		if (pm_spawn(args, notify, &child) < 0 || pm_wait(child, &n) < 0)
			return 1;
		return n.status == 3 ? 0 : 2;
	}
	if (!strcmp(mode, "relay")) { /* pass a received link on over link 5 */
		uint32_t v;
		struct message m = message_into(&v, sizeof v);
		if (receivemessage(&m) != 4 || m.passed < 0)
			return 1;
		return sendmessage(5, &v, 4, m.passed) < 0 ? 2 : 0;
	}
	if (!strcmp(mode, "bounce")) { /* send one message over a received link */
		uint32_t v;
		struct message m = message_into(&v, sizeof v);
		if (receivemessage(&m) != 4 || m.passed < 0)
			return 1;
		v = 0xb0b0;
		return sendmessage(m.passed, &v, 4, -1) < 0 ? 2 : 0;
	}
	if (!strcmp(mode, "caller")) { /* arg CALLs over link 5, each checked */
		for (uint32_t i = 0; i < arg; i++) {
			uint32_t q[16], a[16];
			for (int k = 0; k < 16; k++)
				q[k] = i * 16 + (uint32_t)k + (uint32_t)self;
			struct message m = message_into(a, sizeof a);
			if (call(5, q, sizeof q, -1, &m) != (int)sizeof q || memcmp(q, a, sizeof q))
				return 1;
		}
		return 0;
	}
	if (!strcmp(mode, "bigcaller")) /* after a go: arg 4 KiB CALLs over link 5 */
		return big_calls(arg);
	if (!strcmp(mode, "mover")) /* after a go: arg page round trips via link 5 */
		return move_rounds(arg);
	if (!strcmp(mode, "spin")) {
		for (volatile uint32_t i = 0; i < arg; i++)
			;
		return 0;
	}
	if (!strcmp(mode, "kill"))
		return -pm_kill(arg); /* not our child: the pm must refuse */
	if (!strcmp(mode, "fault-null"))
		sink = *(volatile int *)0;
	if (!strcmp(mode, "fault-kernel"))
		sink = *(volatile int *)0x100000;
	if (!strcmp(mode, "fault-kernel-write"))
		*(volatile int *)0x100000 = 1;
	if (!strcmp(mode, "fault-text"))
		*(volatile uint8_t *)(uintptr_t)main = 0xcc;
	if (!strcmp(mode, "ud2"))
		illegal_instruction();
	if (!strcmp(mode, "div0")) {
		volatile int zero = 0;
		sink = 10 / zero;
	}
	if (!strcmp(mode, "stack"))
		sink = recurse(0);
	if (!strcmp(mode, "cli"))
		privileged_instruction();
	if (!strcmp(mode, "port"))
		device_access();
	printf("t_child: unknown mode '%s'\n", mode);
	return 99;
}
