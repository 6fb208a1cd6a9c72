/*
 * kernel/vtime_config.c - the network and disk models of virtual time, from
 * the kernel command line (vtime_config.h).  The defaults are a present-day
 * switched LAN and disk: 20 us one way, 1 Gb/s, a 4 ms request plus 5 us a
 * sector; the transport paths default to none until measured.  A busy
 * node stops every 100 us of its clock (100,000 instructions at shift 0).
 * Copying a process's data costs what our kernels' instructions cost, no
 * more (vcopy=0).
 */
#include "kernel.h"
#include "vtime_config.h"

struct vtime_config vtime_config = {
	.net = { .latency_ns = 20000, .bandwidth_bps = 1000000000ull },
	.disk_latency_ns = 4000000,
	.disk_sector_ns = 5000,
	.idle_bounds = 1,
	.stop_ns = 100000,
};

/* A decimal number of at most 19 digits ending at *p's end or at ','. */
static int number(const char **p, const char *end, uint64_t *out)
{
	uint64_t v = 0;
	const char *s = *p;
	if (s == end || *s < '0' || *s > '9')
		return 0;
	for (int digits = 0; s < end && *s >= '0' && *s <= '9'; s++, digits++) {
		if (digits == 19)
			return 0;
		v = v * 10 + (uint64_t)(*s - '0');
	}
	*p = s;
	*out = v;
	return 1;
}

/* "KEY=A" or "KEY=A,B": the values, 1 when well formed. */
static int values(const char *v, const char *end, uint64_t *a, uint64_t *b)
{
	if (!number(&v, end, a))
		return 0;
	if (!b)
		return v == end;
	return v < end && *v++ == ',' && number(&v, end, b) && v == end;
}

int vtime_config_option(const char *w, uint32_t n)
{
	static const struct {
		const char *key;
		uint64_t *a, *b;
	} keys[] = {
		{ "vlat=", &vtime_config.net.latency_ns, NULL },
		{ "vbw=", &vtime_config.net.bandwidth_bps, NULL },
		{ "vtx=", &vtime_config.net.tx_fixed_ns, &vtime_config.net.tx_per_kbyte_ns },
		{ "vrx=", &vtime_config.net.rx_fixed_ns, &vtime_config.net.rx_per_kbyte_ns },
		{ "vdisk=", &vtime_config.disk_latency_ns, &vtime_config.disk_sector_ns },
		{ "vbounds=", &vtime_config.idle_bounds, NULL },
		{ "vstop=", &vtime_config.stop_ns, NULL },
		{ "vcopy=", &vtime_config.copy_ns_per_kbyte, NULL },
	};
	for (uint32_t i = 0; i < sizeof keys / sizeof keys[0]; i++) {
		uint32_t k = (uint32_t)strlen(keys[i].key);
		if (n < k || strncmp(w, keys[i].key, k))
			continue;
		uint64_t a, b = 0;
		if (!values(w + k, w + n, &a, keys[i].b ? &b : NULL) ||
		    ((keys[i].a == &vtime_config.net.bandwidth_bps || keys[i].a == &vtime_config.stop_ns) &&
		     a == 0)) {
			kprintf("vtime: bad value in '%.*s', default kept\n", (int)n, w);
			return 1;
		}
		*keys[i].a = a;
		if (keys[i].b)
			*keys[i].b = b;
		return 1;
	}
	return 0;
}
