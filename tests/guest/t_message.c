/*
 * tests/guest/t_message.c - SENDMESSAGE, RECEIVEMESSAGE, ARECEIVEMESSAGE:
 * copies and sizes, every bad pointer, truncation, FIFO order, the queue
 * limit, passing a link, a full link table (E_NOSPACE) and a node out of
 * message headers (E_NOMEM).
 */
#include <string.h>

#include "gtest.h"
#include "servers/lib/pm.h"

static uint8_t out[MSG_MAX + 16], in[MSG_MAX + 16];

static int roundtrip(uint32_t len)
{
	int l = createlink(1, NULL, 0, 0);
	for (uint32_t i = 0; i < len; i++)
		out[i] = (uint8_t)(i * 13 + len);
	memset(in, 0, sizeof in);
	int r = sendmessage(l, out, len, -1);
	struct message m = message_into(in, sizeof in);
	if (r == 0)
		r = receivemessage(&m);
	destroylink(l);
	if (r != (int)len || m.len != len || memcmp(in, out, len))
		return -1;
	return 0;
}

static void sizes_0_1_4096(void)
{
	CHECK_EQ(roundtrip(0), 0);
	CHECK_EQ(roundtrip(1), 0);
	CHECK_EQ(roundtrip(100), 0);
	CHECK_EQ(roundtrip(MSG_MAX), 0);
}

/* The lengths the alignment tests copy: below a word, around the kernel
 * copy's word and block sizes, and up to a whole message. */
static const uint32_t copy_lens[] = { 1, 3, 4, 7, 33, 64, 1000, MSG_MAX - 3, MSG_MAX };

/* One message from out + so to this process and received into in + dst:
 * its bytes, and the bytes either side of them untouched (0xee). */
static int aligned_roundtrip(int l, uint32_t so, uint32_t dst, uint32_t len)
{
	for (uint32_t i = 0; i < len; i++)
		out[so + i] = (uint8_t)(i * 7 + so * 3 + dst + len);
	memset(in, 0xee, sizeof in);
	if (sendmessage(l, out + so, len, -1) < 0)
		return -1;
	struct message m = message_into(in + 4 + dst, len);
	if (receivemessage(&m) != (int)len || memcmp(in + 4 + dst, out + so, len))
		return -2;
	return in[3 + dst] == 0xee && in[4 + dst + len] == 0xee ? 0 : -3;
}

/* The kernel copies a message into its page and out of it by words when
 * it can (kernel/klib.c, arch/ARCH/arch_copy.h): every pair of alignments
 * of the two buffers, every length kind, gives the same bytes. */
static void every_alignment(void)
{
	int l = createlink(1, NULL, 0, 0);
	for (uint32_t so = 0; so < 4; so++)
		for (uint32_t dst = 0; dst < 4; dst++)
			for (unsigned k = 0; k < sizeof copy_lens / sizeof copy_lens[0]; k++)
				CHECK_EQ(aligned_roundtrip(l, so, dst, copy_lens[k]), 0);
	destroylink(l);
}

#ifdef __i386__
/* A kernel call entered with the direction flag set (a process may set
 * it: it is its own flag), cleared again on the way back. */
static int32_t kcall_flag_set(uint32_t nr, uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3)
{
	int32_t r;
	uint32_t b = a0, c = a1, d = a2, si = a3, di = 0;
	__asm__ volatile("std\n\tint $0x80\n\tcld"
			 : "=a"(r), "+b"(b), "+c"(c), "+d"(d), "+S"(si), "+D"(di)
			 : "0"(nr)
			 : "memory", "cc");
	return r;
}
#endif

/* x86: a process that sends and receives with the direction flag set
 * gets its bytes copied as with it clear, and nothing beside them
 * written (the kernel's string instructions count upwards whatever the
 * process left in the flag: arch/x86/trapentry.S).  Elsewhere the same
 * calls, plainly. */
static void direction_flag_set(void)
{
	int l = createlink(1, NULL, 0, 0);
	for (uint32_t so = 0; so < 2; so++)
		for (unsigned k = 0; k < sizeof copy_lens / sizeof copy_lens[0]; k++) {
			uint32_t len = copy_lens[k];
			for (uint32_t i = 0; i < len; i++)
				out[so + i] = (uint8_t)(i * 5 + so + len);
			memset(in, 0xee, sizeof in);
			uint8_t *into = in + 5 + so;
#ifdef __i386__
			CHECK_EQ(kcall_flag_set(K_SENDMESSAGE, (uint32_t)l, (uint32_t)(uintptr_t)(out + so), len, (uint32_t)-1), 0);
			CHECK_EQ(kcall_flag_set(K_RECEIVEMESSAGE, (uint32_t)(uintptr_t)into, len, 0, 0), (int32_t)len);
#else
			CHECK_EQ(sendmessage(l, out + so, len, -1), 0);
			struct message m = message_into(into, len);
			CHECK_EQ(receivemessage(&m), (int)len);
#endif
			CHECK(!memcmp(into, out + so, len));
			CHECK_EQ(into[-1], 0xee);
			CHECK_EQ(into[len], 0xee);
		}
	destroylink(l);
}

static void too_big(void)
{
	int l = createlink(1, NULL, 0, 0);
	CHECK_EQ(sendmessage(l, out, MSG_MAX + 1, -1), E_TOOBIG);
	struct message m = message_into(in, sizeof in);
	CHECK_EQ(areceivemessage(&m), E_WOULDBLOCK); /* nothing was sent */
	destroylink(l);
}

static void areceive_empty(void)
{
	struct message m = message_into(in, sizeof in);
	CHECK_EQ(areceivemessage(&m), E_WOULDBLOCK);
}

static void send_bad_buffers(void)
{
	int l = createlink(1, NULL, 0, 0);
	CHECK_EQ(sendmessage(l, NULL, 4, -1), E_BADADDR);
	CHECK_EQ(sendmessage(l, (void *)0x100000, 4, -1), E_BADADDR);      /* kernel */
	CHECK_EQ(sendmessage(l, (void *)0x70000000, 4, -1), E_BADADDR);    /* unmapped */
	CHECK_EQ(sendmessage(l, (void *)(USER_STACK_TOP - 2), 8, -1), E_BADADDR); /* runs off */
	struct message m = message_into(in, sizeof in);
	CHECK_EQ(areceivemessage(&m), E_WOULDBLOCK);
	destroylink(l);
}

static void receive_bad_pointers(void)
{
	struct kcall_received got;
	CHECK_EQ(kcall_receive(K_RECEIVEMESSAGE, 0, 4, 0, 0, 0, 0, &got), E_BADADDR);
	CHECK_EQ(kcall_receive(K_ARECEIVEMESSAGE, 0x100000, 64, 0, 0, 0, 0, &got), E_BADADDR);
	struct message m = message_into((void *)0x100000, 64);
	CHECK_EQ(receivemessage(&m), E_BADADDR); /* buffer in the kernel */
	m = message_into((void *)0xfffff000, 64);
	CHECK_EQ(receivemessage(&m), E_BADADDR);
}

static void receive_into_read_only_text(void)
{
	int l = createlink(1, NULL, 0, 0);
	uint32_t v = 1;
	CHECK_EQ(sendmessage(l, &v, 4, -1), 0);
	struct message m = message_into((void *)(uintptr_t)receive_into_read_only_text, 4);
	CHECK_EQ(receivemessage(&m), E_BADADDR); /* checked first: nothing taken */
	uint32_t got = 0;
	m = message_into(&got, sizeof got);
	CHECK_EQ(areceivemessage(&m), 4);        /* still queued */
	CHECK_EQ(got, 1);
	destroylink(l);
}

static void truncation(void)
{
	int l = createlink(1, NULL, 0, 0);
	memset(out, 0x5a, 100);
	CHECK_EQ(sendmessage(l, out, 100, -1), 0);
	memset(in, 0, 20);
	struct message m = message_into(in, 10);
	CHECK_EQ(receivemessage(&m), E_TRUNC);
	CHECK_EQ(m.len, 100);
	CHECK_EQ(in[9], 0x5a);
	CHECK_EQ(in[10], 0);
	destroylink(l);
}

static void fifo_order(void)
{
	int l = createlink(1, NULL, 0, 0);
	for (uint32_t i = 0; i < 60; i++)
		CHECK_EQ(sendmessage(l, &i, 4, -1), 0);
	for (uint32_t i = 0; i < 60; i++) {
		uint32_t v;
		struct message m = message_into(&v, 4);
		CHECK_EQ(receivemessage(&m), 4);
		CHECK_EQ(v, i);
	}
	destroylink(l);
}

static void queue_limit(void)
{
	int l = createlink(1, NULL, 0, 0);
	uint32_t v = 0;
	for (int i = 0; i < QUEUE_MAX; i++)
		CHECK_EQ(sendmessage(l, &v, 4, -1), 0);
	CHECK_EQ(sendmessage(l, &v, 4, -1), E_QUEUEFULL);
	struct message m = message_into(&v, 4);
	for (int i = 0; i < QUEUE_MAX; i++)
		CHECK_EQ(receivemessage(&m), 4);
	CHECK_EQ(areceivemessage(&m), E_WOULDBLOCK);
	destroylink(l);
}

static void pass_link(void)
{
	int l = createlink(1, NULL, 0, 0);
	int passme = createlink(0x77, NULL, 0, 0);
	uint32_t v = 9;
	CHECK_EQ(sendmessage(l, &v, 4, passme), 0);
	struct message m = message_into(&v, 4);
	CHECK_EQ(receivemessage(&m), 4);
	CHECK(m.passed >= LINK_FIRST_FREE);
	CHECK(m.passed != passme);                 /* a copy in a new slot */
	CHECK_EQ(sendmessage(m.passed, &v, 4, -1), 0);
	CHECK_EQ(receivemessage(&m), 4);
	CHECK_EQ(m.code, 0x77);                    /* it names what passme named */
	destroylink(m.passed);
	destroylink(passme);
	destroylink(l);
}

/* RECEIVEMESSAGE with the link table full: the message carries a link, so
 * it is refused with E_NOSPACE and stays queued until a slot is free. */
static void receive_with_link_table_full(void)
{
	int l = createlink(1, NULL, 0, 0);
	int passme = createlink(0x78, NULL, 0, 0);
	uint32_t v = 5;
	CHECK_EQ(sendmessage(l, &v, 4, passme), 0);
	int made[NLINK], n = 0, r;
	while ((r = createlink(2, NULL, 0, 0)) >= 0)
		made[n++] = r;
	CHECK_EQ(r, E_NOSPACE);
	CHECK(n > 0);
	v = 0;
	struct message m = message_into(&v, 4);
	CHECK_EQ(receivemessage(&m), E_NOSPACE);
	CHECK_EQ(areceivemessage(&m), E_NOSPACE);
	CHECK_EQ(v, 0);                            /* nothing was taken */
	destroylink(made[--n]);
	CHECK_EQ(areceivemessage(&m), 4);          /* still queued, now taken */
	CHECK_EQ(v, 5);
	CHECK(m.passed >= LINK_FIRST_FREE);
	CHECK_EQ(areceivemessage(&m), E_WOULDBLOCK);
	destroylink(m.passed);
	while (n > 0)
		destroylink(made[--n]);
	destroylink(passme);
	destroylink(l);
}

/* SENDMESSAGE with the node's NMSG message headers all queued: E_NOMEM.
 * Nine helpers wait in a CALL to us (so nothing takes their messages) and
 * their queues and ours are filled; then ours is emptied, which frees
 * headers, and the helpers are answered and end. */
#define NOMEM_HELPERS 9
static void send_with_message_pool_empty(void)
{
	const char *argv[] = { "t_child", "call-parent", NULL };
	uint32_t task[NOMEM_HELPERS];
	int cl[NOMEM_HELPERS], reply[NOMEM_HELPERS];
	int back = self_link(0xc0de);
	for (int i = 0; i < NOMEM_HELPERS; i++) {
		CHECK_EQ(pm_create_on(0, argv, gtest_notify_link, &task[i]), 0);
		CHECK(pm_givelink(task[i], 4, back) >= 0);
		CHECK_EQ(pm_start(task[i]), 0);
	}
	destroylink(back);
	/* from each: a hello passing a link to it, then its CALL; the helpers
	 * run meanwhile, so the messages come interleaved */
	for (int k = 0; k < 2 * NOMEM_HELPERS; k++) {
		uint32_t w;
		struct message m = message_into(&w, sizeof w);
		CHECK_EQ(gtest_receive(&m), 4);
		int i = 0;
		while (i < NOMEM_HELPERS && task[i] != m.from)
			i++;
		CHECK(i < NOMEM_HELPERS);
		if (w == 0x11)
			cl[i] = m.passed;
		else
			reply[i] = m.reply;
	}
	int me = createlink(1, NULL, 0, 0), r = 0, queued = 0;
	for (int i = 0; i < QUEUE_MAX && (r = sendmessage(me, NULL, 0, -1)) == 0; i++)
		queued++;
	CHECK_EQ(r, 0);
	for (int i = 0; i < NOMEM_HELPERS && r != E_NOMEM; i++)
		while ((r = sendmessage(cl[i], NULL, 0, -1)) == 0)
			;
	CHECK_EQ(r, E_NOMEM);                       /* 64 + 9 x 64 > NMSG (512) */
	CHECK_EQ(sendmessage(me, NULL, 0, -1), E_NOMEM);     /* before the queue limit */
	struct message m = message_into(NULL, 0);
	for (int i = 0; i < queued; i++)
		CHECK_EQ(receivemessage(&m), 0);        /* frees as many headers */
	uint32_t answer = 0x33;
	for (int i = 0; i < NOMEM_HELPERS; i++)
		CHECK_EQ(sendmessage(reply[i], &answer, 4, -1), 0);
	for (int i = 0; i < NOMEM_HELPERS; i++) {
		struct kr_exit_notice n;
		CHECK_EQ(wait_child(task[i], &n), 0);
		CHECK_EQ(n.status, 0);                   /* their queues went with them */
		destroylink(cl[i]);
	}
	CHECK_EQ(sendmessage(me, NULL, 0, -1), 0);  /* the pool is back */
	CHECK_EQ(receivemessage(&m), 0);
	destroylink(me);
}

static void pass_bad_link(void)
{
	int l = createlink(1, NULL, 0, 0);
	uint32_t v = 0;
	CHECK_EQ(sendmessage(l, &v, 4, 50), E_BADLINK);
	CHECK_EQ(sendmessage(l, &v, 4, -7), E_BADLINK);
	CHECK_EQ(sendmessage(l, &v, 4, l), E_INVAL);
	destroylink(l);
}

static void send_forged_link(void)
{
	uint32_t v = 0;
	CHECK_EQ(sendmessage(-1, &v, 4, -1), E_BADLINK);
	CHECK_EQ(sendmessage(NLINK, &v, 4, -1), E_BADLINK);
	CHECK_EQ(sendmessage(40, &v, 4, -1), E_BADLINK);
}

static void bad_call_number(void)
{
	CHECK_EQ(kcall(0, 0, 0, 0, 0, 0), E_BADCALL);
	CHECK_EQ(kcall(K_NCALLS, 0, 0, 0, 0, 0), E_BADCALL);
	CHECK_EQ(kcall(0xffffffff, 1, 2, 3, 4, 5), E_BADCALL);
	CHECK_EQ(nullcall(), 0);
}

GTESTS(
	{ "sizes 0, 1, 100, 4096 round trip", sizes_0_1_4096 },
	{ "every alignment of the two buffers, every length kind", every_alignment },
	{ "sent and received with x86's direction flag set", direction_flag_set },
	{ "4097 bytes is E_TOOBIG", too_big },
	{ "areceive on empty queue", areceive_empty },
	{ "send from bad buffers", send_bad_buffers },
	{ "receive with bad pointers", receive_bad_pointers },
	{ "receive into read-only memory", receive_into_read_only_text },
	{ "truncation", truncation },
	{ "FIFO order", fifo_order },
	{ "queue limit", queue_limit },
	{ "pass a link", pass_link },
	{ "pass a bad link", pass_bad_link },
	{ "receive with the link table full: E_NOSPACE, stays queued", receive_with_link_table_full },
	{ "send with the node's messages used up: E_NOMEM", send_with_message_pool_empty },
	{ "send over forged link", send_forged_link },
	{ "bad call numbers", bad_call_number },
);
GTEST_MAIN("message")
