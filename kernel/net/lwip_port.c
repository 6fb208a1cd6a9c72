/*
 * kernel/net/lwip_port.c - what lwIP (NO_SYS=1) asks of its platform:
 * sys_now() in milliseconds from the transport clock, LWIP_RAND() for
 * TCP's initial sequence numbers and ephemeral ports, and atoi() for
 * netif.c.  The transport clock is the node clock plus the host time a
 * stalled node's watchdog counted in virtual time (net_credit_ms; 0 in the
 * other modes), so TCP's timers run on while the node clock stands still.
 */
#include "kernel/kernel.h"
#include "netconfig.h"
#include "netstack.h"
#include "lwip/sys.h"

static uint32_t random_state;
static uint32_t credit_ms;

uint32_t net_now_ms(void)
{
	return (uint32_t)(arch_clock_ns() / 1000000u) + credit_ms;
}

void net_credit_ms(uint32_t ms)
{
	credit_ms += ms;
}

u32_t sys_now(void)
{
	return net_now_ms();
}

/* xorshift32, seeded from the node id and stirred with the clock, so two
 * nodes (or two boots of one) pick different sequence numbers and ports. */
uint32_t net_random(void)
{
	uint32_t x = random_state ^ (uint32_t)arch_clock_ns() ^ (node_id << 24);
	x ^= x << 13;
	x ^= x >> 17;
	x ^= x << 5;
	random_state = x ? x : 0x9e3779b9u;
	return random_state;
}

int atoi(const char *s)
{
	int v = 0, neg = *s == '-';
	if (*s == '-' || *s == '+')
		s++;
	while (*s >= '0' && *s <= '9')
		v = v * 10 + (*s++ - '0');
	return neg ? -v : v;
}
