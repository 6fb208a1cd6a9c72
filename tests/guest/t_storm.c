/*
 * tests/guest/t_storm.c - a seeded, randomised hostile campaign against
 * the kernel (issue 16): worker processes make kernel calls with every
 * kind of bad argument (links out of range or free, NULL, kernel,
 * read-only, unmapped and page-straddling pointers, huge and negative
 * lengths, garbage kernel-link requests, unknown call numbers), each
 * result checked against what docs/kernel-calls.md allows, while children
 * fault in every way a process can; a worker's own link bookkeeping must
 * match the kernel's count at its end (no link placed unseen, none forged).
 * Afterwards the node's counters (KR_KSTATS) must be back where they
 * started and a send, a receive and a CALL must still work.
 *
 * `t_storm [calls [seed [workers]]]`: `make check-guest` runs a short
 * slice, `make soak` a million calls per machine.  A worker ends with
 * status 0, or 100 + the kind of call that gave a result outside its
 * allowed set (printed with the call's arguments first).  Same seed, same
 * calls: a failure can be replayed.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "gtest.h"
#include "servers/lib/pm.h"
#include "servers/tsp/instance.h"

static uint32_t rng;
static uint32_t next(void) { return xorshift32(&rng); }
static uint32_t pick(uint32_t n) { return next() % n; }

static uint8_t buf[2 * 4096] __attribute__((aligned(4096)));
static const uint8_t ro_bytes[64] = { 1 };
static int own[NLINK];   /* the links this worker believes it holds */
static uint32_t worker_seed;
static int report_kind;

/* A pointer of some kind: 0 valid, 1 NULL, 2 kernel, 3 read-only, 4 top
 * of user space straddling its end, 5 unmapped, 6 straddling our buffer's
 * end into whatever follows (valid or not), 7 past the top of memory. */
static uint32_t pointer(int *kind)
{
	*kind = (int)pick(8);
	switch (*kind) {
	case 0: return (uint32_t)(uintptr_t)buf + pick(4096);
	case 1: return 0;
	case 2: return 0x00100000u + pick(0x1000);
	case 3: return (uint32_t)(uintptr_t)ro_bytes;
	case 4: return USER_TOP - 1 - pick(16);
	case 5: return USER_STACK_TOP - (USER_STACK_PAGES + 64) * 4096u;
	case 6: return (uint32_t)(uintptr_t)buf + 2 * 4096 - pick(8);
	default: return 0xffffff00u + pick(0x100);
	}
}

static uint32_t length(void)
{
	static const uint32_t lens[] = { 0, 1, 4, 24, 4096, 4097, 0x7fffffff, 0x80000000u, 0xffffffffu };
	return pick(2) ? pick(64) : lens[pick(sizeof lens / sizeof lens[0])];
}

/* A link index: mostly ours, sometimes anything. */
static int32_t any_link(void)
{
	switch (pick(4)) {
	case 0: return (int32_t)pick(NLINK + 8) - 4;
	case 1: return (int32_t)next();
	default: {
		int32_t l = (int32_t)(LINK_FIRST_FREE + pick(NLINK - LINK_FIRST_FREE));
		return own[l] ? l : LINK_CONSOLE;
	}
	}
}

static int fail(int kind, const char *call, int32_t r, uint32_t a, uint32_t b, uint32_t c)
{
	printf("t_storm: worker seed %u: %s(0x%x, 0x%x, 0x%x) gave %d\n", (unsigned)worker_seed, call,
	       (unsigned)a, (unsigned)b, (unsigned)c, (int)r);
	report_kind = kind;
	return -1;
}

#define ALLOW(r, ...) allowed(r, (const int32_t[]){ __VA_ARGS__ }, \
	sizeof((const int32_t[]){ __VA_ARGS__ }) / sizeof(int32_t))
static int allowed(int32_t r, const int32_t *ok, size_t n)
{
	for (size_t i = 0; i < n; i++)
		if (r == ok[i])
			return 1;
	return 0;
}

static void took(struct message *m)
{
	if (m->passed >= 0)
		own[m->passed] = 1;
	if (m->reply >= 0)
		own[m->reply] = 1;
}

/* One random call: 0, -1 when its result was not allowed, or SKIPPED
 * when the arguments drawn would do what the campaign avoids (no call). */
#define SKIPPED 1
static int one_call(void)
{
	int pk, bk;
	int32_t r;
	switch (pick(10)) {
	case 0: { /* CREATELINK: random area and rights */
		struct createlink_args a = { next(), pick(2) ? pointer(&pk) : 0, length(), pick(4) ? pick(4) : next() };
		r = kcall(K_CREATELINK, (uint32_t)(uintptr_t)&a, 0, 0, 0, 0);
		if (r >= 0) {
			if (r < LINK_FIRST_FREE || r >= NLINK || own[r])
				return fail(1, "createlink", r, a.data, a.data_len, a.rights);
			own[r] = 1;
			return 0;
		}
		return ALLOW(r, E_BADADDR, E_INVAL, E_NOSPACE) ? 0 : fail(1, "createlink", r, a.data, a.data_len, a.rights);
	}
	case 1: { /* DESTROYLINK, never of the standard links (we need none, but keep the console) */
		int32_t l = any_link();
		if (l >= 0 && l < LINK_FIRST_FREE)
			return SKIPPED;
		r = destroylink(l);
		int held = l >= 0 && l < NLINK && own[l];
		if (held ? r != 0 : r != E_BADLINK)
			return fail(2, "destroylink", r, (uint32_t)l, 0, 0);
		if (held)
			own[l] = 0;
		return 0;
	}
	case 2: { /* SENDMESSAGE: to our own links, passing links, bad buffers */
		int32_t l = any_link(), pass = pick(3) ? -1 : any_link();
		if ((l >= 0 && l < LINK_FIRST_FREE) || (pass >= 0 && pass < LINK_FIRST_FREE))
			return SKIPPED;   /* not the servers, no copies of the kernel link (whose
			               requests, with random bytes, would print): case 6 */
		uint32_t p = pointer(&bk), len = length();
		r = sendmessage(l, (const void *)(uintptr_t)p, len, pass);
		if (!ALLOW(r, 0, E_BADLINK, E_INVAL, E_TOOBIG, E_BADADDR, E_QUEUEFULL, E_NOMEM, E_DEAD))
			return fail(3, "sendmessage", r, (uint32_t)l, p, len);
		if ((l < 0 || l >= NLINK || !own[l]) && r != E_BADLINK)
			return fail(3, "sendmessage", r, (uint32_t)l, p, len);
		if (r == 0 && len > MSG_MAX)
			return fail(3, "sendmessage", r, (uint32_t)l, p, len);
		return 0;
	}
	case 3: { /* ARECEIVEMESSAGE into good and bad buffers (in registers) */
		uint32_t where = (uint32_t)(uintptr_t)buf, len = 4096;
		bk = 0;
		if (pick(2)) {
			where = pointer(&bk);
			len = length();
		}
		struct kcall_received got;
		r = kcall_receive(K_ARECEIVEMESSAGE, where, len, 0, 0, 0, 0, &got);
		/* never writable: NULL, kernel, read-only, unmapped, past the top */
		int bad = len && (bk == 1 || bk == 2 || bk == 3 || bk == 5 || bk == 7);
		if (bad && r != E_BADADDR)
			return fail(4, "areceive", r, where, len, 0);
		if (r < 0 && !ALLOW(r, E_WOULDBLOCK, E_BADADDR, E_TRUNC, E_NOSPACE))
			return fail(4, "areceive", r, where, len, 0);
		if (r >= 0 || r == E_TRUNC) {
			if ((got.passed >= 0 && (got.passed < LINK_FIRST_FREE || got.passed >= NLINK || own[got.passed])) ||
			    (got.reply >= 0 && (got.reply < LINK_FIRST_FREE || got.reply >= NLINK || own[got.reply])))
				return fail(4, "areceive links", r, (uint32_t)got.passed, (uint32_t)got.reply, 0);
			struct message m = { .passed = got.passed, .reply = got.reply };
			took(&m);
		}
		return 0;
	}
	case 4: { /* CALL with a bad reply buffer: refused before sending */
		int32_t l = any_link();
		uint32_t reply = pointer(&pk), rlen = length();
		if (!rlen || pk == 0 || pk == 4 || pk == 6)
			return SKIPPED;   /* a good one would wait for our own reply */
		struct kcall_received got;
		r = kcall_receive(K_CALL, (uint32_t)l, (uint32_t)(uintptr_t)buf, 4, (uint32_t)-1, reply, rlen, &got);
		return ALLOW(r, E_BADADDR, E_BADLINK) ? 0 : fail(5, "call", r, (uint32_t)l, reply, rlen);
	}
	case 5: { /* MOVEDATA between our own areas, any offsets */
		struct movedata_args a = { (uint32_t)any_link(), next() % 9000, (uint32_t)any_link(), next() % 9000, length() };
		uint32_t args = pick(8) ? (uint32_t)(uintptr_t)&a : pointer(&pk);
		r = kcall(K_MOVEDATA, args, 0, 0, 0, 0);
		return r >= 0 || ALLOW(r, E_BADADDR, E_BADLINK, E_RIGHTS, E_BOUNDS, E_DEAD) ? 0
			: fail(6, "movedata", r, a.from_link, a.to_link, a.len);
	}
	case 6: { /* a garbage kernel-link request (never print, power off or sleep long) */
		uint32_t req[8];
		for (int i = 0; i < 8; i++)
			req[i] = next();
		static const uint32_t kinds[] = { KR_TIME, KR_BRK, KR_NODE, KR_METERSTATS, KR_HOSTMETER, KR_ALARM,
						  KR_KSTATS, KR_METERMARK, KR_CREATE, KR_GIVELINK, KR_KILL, KR_SETMETER,
						  KR_PMLINK, KR_POWEROFF, KR_DISK_READ, KR_DISKLINK, KR_HOSTOPEN, 12345 };
		req[0] = kinds[pick(sizeof kinds / sizeof kinds[0])];
		if (req[0] == KR_BRK)
			req[1] = pick(2) ? 0 : (uint32_t)program_break(0) + pick(3) * 4096;
		uint32_t len = pick(33);
		struct message m = message_into(buf, 4096);
		int32_t pass = pick(4) ? -1 : any_link();
		r = pick(2) ? call(LINK_CONSOLE, req, len, pass, &m) : sendmessage(LINK_CONSOLE, req, len, pass);
		if (r >= 0 && m.passed >= 0)
			own[m.passed] = 1;
		return r >= 0 || ALLOW(r, E_BADREQ, E_RIGHTS, E_INVAL, E_NOSPACE, E_NOMEM, E_NONAME, E_BADLINK,
				       E_DEAD, E_NODEDOWN) ? 0 : fail(7, "kernel request", r, req[0], len, (uint32_t)pass);
	}
	case 7: /* unknown kernel calls */
		r = kcall(pick(2) ? 0 : K_NCALLS + pick(1000), next(), next(), next(), next(), next());
		return r == E_BADCALL ? 0 : fail(8, "kcall", r, 0, 0, 0);
	case 8: { /* a forged link image sent as data: only bytes arrive */
		int32_t l = any_link();
		if (l < LINK_FIRST_FREE || l >= NLINK || !own[l])
			return SKIPPED;
		uint32_t image[8] = { 1, TASK_OF(1, PM_PID), 0, LINK_REPLY | LINK_KCTL, 0, 0, 1, 0 };
		r = sendmessage(l, image, sizeof image, -1);
		return ALLOW(r, 0, E_QUEUEFULL, E_NOMEM, E_DEAD) ? 0 : fail(9, "forge", r, (uint32_t)l, 0, 0);
	}
	default:
		return nullcall() == 0 ? 0 : fail(10, "nullcall", -1, 0, 0, 0);
	}
}

static int believed(void)
{
	int n = 0;
	for (int i = 0; i < NLINK; i++)
		n += own[i];
	return n;
}

static int worker(uint32_t seed, uint32_t calls)
{
	rng = seed ? seed : 1;
	worker_seed = seed;
	destroylink(4);            /* the test's link: nothing goes back to it */
	for (int i = 0; i < LINK_FIRST_FREE; i++)
		own[i] = 1;            /* the standard slots are never destroyed here */
	struct kr_kstats k0, k;
	if (kernel_stats(0, &k0) < 0)
		return 98;
	int n0 = believed();
	for (uint32_t i = 0; i < calls; ) {
		int r = one_call();
		if (r < 0)
			return 100 + report_kind;
		i += r != SKIPPED;
	}
	/* what we think we hold is what the kernel says we hold */
	if (kernel_stats(0, &k) < 0)
		return 98;
	if ((int)(k.links - k0.links) != believed() - n0) {
		printf("t_storm: worker seed %u holds %u links (from %u), believes %d (from %d)\n", (unsigned)seed,
		       (unsigned)k.links, (unsigned)k0.links, believed(), n0);
		return 99;
	}
	return 0;
}

static uint32_t total_calls = 60000, seed0 = 1, nworkers = 6;   /* make check-guest's slice */

static const char *const faults[] = { "fault-null", "fault-kernel", "fault-kernel-write", "fault-text",
				      "ud2", "div0", "stack", "cli", "port" };
#define NFAULTS (sizeof faults / sizeof faults[0])

static void storm(void)
{
	struct gtest_mark mk;
	CHECK_EQ(gtest_mark(&mk), 0);
	uint32_t rounds = 1 + total_calls / 200000;
	uint32_t per = (total_calls + nworkers * rounds - 1) / (nworkers * rounds); /* per worker and round */
	printf("t_storm: seed %u, %u workers x %u calls in each of %u rounds, %u faulting children\n",
	       (unsigned)seed0, (unsigned)nworkers, (unsigned)per, (unsigned)rounds, (unsigned)(rounds * NFAULTS));
	uint32_t failures = 0;
	for (uint32_t round = 0; round < rounds; round++) {
		uint32_t task[16 + NFAULTS];
		uint32_t n = 0;
		for (uint32_t w = 0; w < nworkers && w < 16; w++) {
			char seed[16], count[16];
			snprintf(seed, sizeof seed, "%u", (unsigned)(seed0 * 7919u + round * 131u + w));
			snprintf(count, sizeof count, "%u", (unsigned)per);
			const char *argv[] = { "t_storm", "worker", seed, count, NULL };
			int l = self_link(0x5707);
			uint32_t t;
			int r = pm_create_on(0, argv, gtest_notify_link, &t);
			if (r == 0 && (r = pm_givelink(t, 4, l)) >= 0)
				r = pm_start(t);
			destroylink(l);
			CHECK_EQ(r, 0);
			task[n++] = t;
		}
		for (uint32_t f = 0; f < NFAULTS; f++) {
			const char *argv[] = { "t_child", faults[(f + round) % NFAULTS], NULL };
			CHECK_EQ(spawn_child(argv, &task[n], NULL), 0);
			n++;
		}
		for (uint32_t i = 0; i < n; i++) {
			struct kr_exit_notice ex;
			CHECK_EQ(wait_child(task[i], &ex), 0);
			int is_worker = i < n - NFAULTS;
			if (is_worker && (ex.reason != EXIT_NORMAL || ex.status != 0)) {
				printf("t_storm: worker %u ended: %s, status %d\n", (unsigned)(task[i] & 0xffff),
				       exit_reason_name(ex.reason), (int)ex.status);
				failures++;
			}
			if (!is_worker && (ex.reason < EXIT_FAULT_MEMORY || ex.reason > EXIT_FAULT_OTHER))
				failures++;
		}
	}
	CHECK_EQ(failures, 0);
	/* sanity: a send, a receive and a CALL still work */
	int self = self_link(0x5a);
	uint32_t v = 0x77;
	CHECK_EQ(sendmessage(self, &v, 4, -1), 0);
	struct message m = message_into(&v, 4);
	CHECK_EQ(gtest_receive(&m), 4);
	destroylink(self);
	const char *echo[] = { "t_child", "echo", "1", NULL };
	uint32_t et;
	int el;
	CHECK_EQ(spawn_child(echo, &et, &el), 0);
	uint32_t q = 0x5151, a = 0;
	struct message am = message_into(&a, 4);
	CHECK_EQ(call(el, &q, 4, -1, &am), 4);
	CHECK_EQ(a, q);
	struct kr_exit_notice ex;
	CHECK_EQ(wait_child(et, &ex), 0);
	destroylink(el);
	CHECK_NO_LEAK(&mk);
	printf("t_storm: %u kernel calls by workers, %u faulting children: counters back, node sane\n",
	       (unsigned)(per * rounds * nworkers), (unsigned)(rounds * NFAULTS));
}

GTESTS(
	{ "seeded hostile calls and faulting children leave the node as it was", storm },
);

int main(int argc, char **argv)
{
	if (argc > 3 && !strcmp(argv[1], "worker"))
		return worker((uint32_t)strtoul(argv[2], NULL, 0), (uint32_t)strtoul(argv[3], NULL, 0));
	if (argc > 1)
		total_calls = (uint32_t)strtoul(argv[1], NULL, 0);
	if (argc > 2)
		seed0 = (uint32_t)strtoul(argv[2], NULL, 0);
	if (argc > 3)
		nworkers = (uint32_t)strtoul(argv[3], NULL, 0);
	if (nworkers < 1 || nworkers > 16)
		nworkers = 6;
	return gtest_run("storm", gtests, sizeof gtests / sizeof gtests[0]);
}
