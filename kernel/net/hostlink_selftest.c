/*
 * kernel/net/hostlink_selftest.c - the host links' self-test, enabled by
 * `selftest=hostlink` with two services in host=: `echo` (the host sends
 * every byte back; tests use QEMU's guestfwd to `cmd:cat`) and `short`
 * (answers the first 100 bytes, then closes; `cmd:head -c 100`).
 *   - opening a service that host= does not name gives E_NONAME
 *   - 256 KiB of numbered bytes sent to echo, pushed in as fast as the
 *     send buffer takes them (E_NOMEM must be seen), all come back intact
 *   - short: its 100 bytes come back, then the link goes DOWN, the down
 *     callback runs once, and sends give E_NODEDOWN
 * Success powers off with 0x20 (QEMU exits 65), failure with 0x21 (67).
 */
#include "kernel/kernel.h"
#include "netconfig.h"
#include "netstack.h"
#include "net_lwip.h"
#include "hostlink.h"
#include "peer.h"

#define ECHO_BYTES (256 * 1024)
#define CHUNK 1000
#define SHORT_SENT 1000
#define SHORT_ANSWERED 100
#define DEADLINE_MS 60000

static int active, echo_link = -1, short_link = -1;
static uint32_t echo_sent, echo_received, echo_full, short_received, short_downs;
static uint32_t start_ms;

static void finish(int ok, const char *why)
{
	kprintf("hostlink selftest: %s: %s\n", ok ? "PASS" : "FAIL", why);
	arch_poweroff(ok ? 0x20 : 0x21);
}

static uint8_t byte_at(uint32_t i) { return (uint8_t)(i * 13u + (i >> 10)); }

/* Bytes back from either service: they must continue the numbering;
 * arg counts them. */
static void check_bytes(int link, const uint8_t *data, uint32_t len, void *arg)
{
	uint32_t *received = arg;
	(void)link;
	for (uint32_t i = 0; i < len; i++, (*received)++)
		if (data[i] != byte_at(*received))
			finish(0, "a host service returned other bytes");
}

static void short_down(int link, void *arg)
{
	(void)arg;
	short_downs++;
	if (hostlink_send(link, "x", 1) != E_NODEDOWN || hostlink_state(link) != PEER_DOWN)
		finish(0, "a link that went down still accepts bytes");
}

static void echo_down(int link, void *arg)
{
	(void)link;
	(void)arg;
	finish(0, "the echo link went down");
}

static void push_echo(void)
{
	uint8_t chunk[CHUNK];
	while (echo_sent < ECHO_BYTES) {
		uint32_t n = ECHO_BYTES - echo_sent < CHUNK ? ECHO_BYTES - echo_sent : CHUNK;
		for (uint32_t i = 0; i < n; i++)
			chunk[i] = byte_at(echo_sent + i);
		int r = hostlink_send(echo_link, chunk, n);
		if (r == E_NOMEM) {
			echo_full++;
			return;
		}
		if (r < 0)
			finish(0, "hostlink_send to echo failed");
		echo_sent += n;
	}
}

void hostlink_selftest_start(void)
{
	if (strcmp(net_config.selftest, "hostlink"))
		return;
	static const struct hostlink_callbacks echo_cb = { .recv = check_bytes, .down = echo_down, .arg = &echo_received };
	static const struct hostlink_callbacks short_cb = { .recv = check_bytes, .down = short_down, .arg = &short_received };
	if (hostlink_open("nosuch", &echo_cb) != E_NONAME)
		finish(0, "opening a service host= does not name did not give E_NONAME");
	echo_link = hostlink_open("echo", &echo_cb);
	short_link = hostlink_open("short", &short_cb);
	if (echo_link < 0 || short_link < 0)
		finish(0, "selftest=hostlink needs a host-link card and host=echo:PORT,short:PORT");
	uint8_t b[SHORT_SENT];
	for (uint32_t i = 0; i < SHORT_SENT; i++)
		b[i] = byte_at(i);
	if (hostlink_send(short_link, b, sizeof b) < 0)
		finish(0, "hostlink_send to a connecting link failed");
	start_ms = net_now_ms();
	active = 1;
	kprintf("hostlink selftest: echo and short opened\n");
}

void hostlink_selftest_tick(void)
{
	if (!active)
		return;
	if (net_now_ms() - start_ms > DEADLINE_MS)
		finish(0, "did not finish in time");
	if (hostlink_state(echo_link) == PEER_UP)
		push_echo();
	if (echo_received < ECHO_BYTES || short_downs == 0)
		return;
	if (short_downs != 1 || short_received != SHORT_ANSWERED)
		finish(0, "the short service: wrong byte count or more than one down call");
	if (echo_full == 0)
		finish(0, "256 KiB went into a 64 KiB send buffer without E_NOMEM");
	kprintf("hostlink selftest: %u bytes echoed (send buffer full %u times); short: %u bytes back, then down once\n",
		echo_received, echo_full, short_received);
	finish(1, "echo, backpressure, a link closed by the host");
}
