/*
 * servers/lib/demos.c - the kernel calls for programs.  Thin on purpose: the
 * kernel checks everything, so these only place the arguments.
 */
#include "demos.h"
#include "kernel/abi/names.h"
#include "kcall.h"

#define U(p) ((uint32_t)(uintptr_t)(p))

int createlink(uint32_t code, void *data, uint32_t data_len, uint32_t rights)
{
	struct createlink_args a = { .code = code, .data = U(data), .data_len = data_len, .rights = rights };
	return kcall(K_CREATELINK, U(&a), 0, 0, 0, 0);
}

int destroylink(int link) { return kcall(K_DESTROYLINK, (uint32_t)link, 0, 0, 0, 0); }

int kcall_receive(uint32_t nr, uint32_t a0, uint32_t a1, uint32_t a2, uint32_t a3, uint32_t a4, uint32_t a5,
		  struct kcall_received *got)
{
	return kcall_recv(nr, a0, a1, a2, a3, a4, a5, got);
}

int serve_next(int reply, const void *buf, uint32_t len, int passlink, struct message *m)
{
	int r = replyreceive(reply, buf, len, passlink, m);
	return r >= 0 || r == E_TRUNC || r == E_NOSPACE ? r : receivemessage(m);
}

int movedata(int from_link, uint32_t from_off, int to_link, uint32_t to_off, uint32_t len)
{
	struct movedata_args a = { (uint32_t)from_link, from_off, (uint32_t)to_link, to_off, len };
	return kcall(K_MOVEDATA, U(&a), 0, 0, 0, 0);
}

void stoptask(int status)
{
	for (;;)
		kcall(K_STOPTASK, (uint32_t)status, 0, 0, 0, 0);
}

int console_write(const void *buf, uint32_t len)
{
	uint8_t req[MSG_MAX];
	uint32_t kind = KR_CONSOLE_WRITE, done = 0;
	while (done < len) {
		uint32_t n = len - done > MSG_MAX - 4 ? MSG_MAX - 4 : len - done;
		__builtin_memcpy(req, &kind, 4);
		__builtin_memcpy(req + 4, (const uint8_t *)buf + done, n);
		int r = sendmessage(LINK_CONSOLE, req, n + 4, -1);
		if (r < 0)
			return r;
		done += n;
	}
	return (int)len;
}

int node_time(uint64_t *now_ns, uint64_t *cpu_ns)
{
	uint32_t kind = KR_TIME;
	uint64_t t[2];
	struct message m = message_into(t, sizeof t);
	int r = call(LINK_CONSOLE, &kind, 4, -1, &m);
	if (r < 0)
		return r;
	if (now_ns)
		*now_ns = t[0];
	if (cpu_ns)
		*cpu_ns = t[1];
	return 0;
}

int node_info(uint32_t *node, uint32_t *runnable)
{
	uint32_t kind = KR_NODE, info[2];
	struct message m = message_into(info, sizeof info);
	int r = call(LINK_CONSOLE, &kind, 4, -1, &m);
	if (r < 0)
		return r;
	if (node)
		*node = info[0];
	if (runnable)
		*runnable = info[1];
	return 0;
}

int alarm_after(uint32_t ms, uint32_t code)
{
	uint32_t req[3] = { KR_ALARM, ms, code };
	struct message m = message_into(req, 0);
	return call(LINK_CONSOLE, req, sizeof req, -1, &m);
}

int program_break(uint32_t want)
{
	uint32_t req[2] = { KR_BRK, want }, got = 0;
	struct message m = message_into(&got, sizeof got);
	int r = call(LINK_CONSOLE, req, sizeof req, -1, &m);
	return r < 0 ? r : (int)got;
}

int kernel_stats(uint32_t task, struct kr_kstats *k)
{
	uint32_t req[2] = { KR_KSTATS, task };
	struct message m = message_into(k, sizeof *k);
	int r = call(LINK_CONSOLE, req, sizeof req, -1, &m);
	return r < 0 ? r : r == (int)sizeof *k ? 0 : E_BADREQ;
}

const char *kerror_name(int err)
{
	return err > 0 ? "positive" : abi_error(err)->name;
}

const char *exit_reason_name(uint32_t reason)
{
	return abi_exit_reason_name(reason);
}
