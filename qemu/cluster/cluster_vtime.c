/*
 * qemu/cluster/cluster_vtime.c - the virtual-time models of the cluster
 * file (see cluster_vtime.h): the presets, the attributes with their units,
 * and the kernel words.
 *
 * The LAN preset is the kernel's own default (kernel/vtime_config.c); the
 * 1984 preset is the thesis's 3 Mb/s Ethernet (docs/virtual-time.md §2.4).
 * `net=` chooses the network and the machines' copying of message data
 * (copycost: a VAX copied a 1000-byte message's data in milliseconds, our
 * kernels in microseconds at the preset's shift): the disk defaults to
 * the same present-day disk under either preset.  The transport paths are 0 until
 * they are measured (docs/virtual-time.md, Plan).
 */
#include "cluster_vtime.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#define MS 1000000ull
#define US 1000ull

/* The 1984 preset's copycost, fitted with the txcost and rxcost below to
 * the thesis's Fig. 5.11 (docs/virtual-time.md §2.4). */
#define COPY_1984 (4300 * US)

static const uint64_t presets[2][VT_FIELDS] = {
	[CLUSTER_NET_LAN] = {
		[VT_LATENCY] = 20 * US, [VT_BANDWIDTH] = 1000000000ull,
		[VT_DISK_LATENCY] = 4 * MS, [VT_DISK_SECTOR] = 5 * US,
		[VT_STOPS] = 100 * US,
	},
	[CLUSTER_NET_1984] = {
		[VT_LATENCY] = 100 * US, [VT_BANDWIDTH] = 3000000ull,
		[VT_TX_FIXED] = 100 * US, [VT_TX_PER_KB] = 4500 * US,
		[VT_RX_FIXED] = 100 * US, [VT_RX_PER_KB] = 4500 * US,
		[VT_DISK_LATENCY] = 4 * MS, [VT_DISK_SECTOR] = 5 * US,
		[VT_STOPS] = 10 * MS, [VT_COPY] = COPY_1984,
	},
};

static const int preset_shift[2] = { [CLUSTER_NET_LAN] = 0, [CLUSTER_NET_1984] = 10 };

/* The attributes: a time, a rate, or a pair of times (fixed,per 1000
 * bytes) setting the field and the one after it. */
enum kind { TIME, RATE, PAIR };

static const struct {
	const char *key;
	enum kind kind;
	enum vt_field field;
	const char *example;
} attrs[] = {
	{ "latency", TIME, VT_LATENCY, "20us" },
	{ "bandwidth", RATE, VT_BANDWIDTH, "1000M" },
	{ "txcost", PAIR, VT_TX_FIXED, "5us,2us" },
	{ "rxcost", PAIR, VT_RX_FIXED, "5us,2us" },
	{ "disklatency", TIME, VT_DISK_LATENCY, "4ms" },
	{ "disksector", TIME, VT_DISK_SECTOR, "5us" },
	{ "stops", TIME, VT_STOPS, "100us" },
	{ "copycost", TIME, VT_COPY, "4ms" },
};

#define MAX_TIME_NS (100ull * 1000 * MS)
#define MAX_RATE (1000ull * 1000000000ull)

/* A decimal number (digits, optionally '.' and at most 9 digits) times
 * mult, exactly; *s moves past it.  0, or -1. */
static int scaled(const char **s, uint64_t mult, uint64_t max, uint64_t *out)
{
	const char *p = *s;
	uint64_t whole = 0, frac = 0, scale = 1;
	if (*p < '0' || *p > '9')
		return -1;
	for (; *p >= '0' && *p <= '9'; p++) {
		whole = whole * 10 + (uint64_t)(*p - '0');
		if (whole > max)
			return -1;
	}
	if (*p == '.') {
		p++;
		if (*p < '0' || *p > '9')
			return -1;
		for (; *p >= '0' && *p <= '9'; p++) {
			if (scale == 1000000000ull)
				return -1;
			frac = frac * 10 + (uint64_t)(*p - '0');
			scale *= 10;
		}
	}
	if (whole > max / mult || (frac * mult) % scale)
		return -1;
	uint64_t v = whole * mult + frac * mult / scale;
	if (v > max)
		return -1;
	*out = v;
	*s = p;
	return 0;
}

/* Where a number ends: its digits and '.', the unit after it. */
static const char *unit_of(const char *s)
{
	while ((*s >= '0' && *s <= '9') || *s == '.')
		s++;
	return s;
}

int cluster_parse_time(const char *s, uint64_t *ns)
{
	static const struct { const char *unit; uint64_t mult; } units[] = {
		{ "ns", 1 }, { "us", US }, { "ms", MS }, { "s", 1000 * MS },
	};
	if (!strcmp(s, "0")) {
		*ns = 0;
		return 0;
	}
	const char *unit = unit_of(s);
	for (size_t i = 0; i < sizeof units / sizeof units[0]; i++) {
		if (strcmp(unit, units[i].unit))
			continue;
		const char *p = s;
		return scaled(&p, units[i].mult, MAX_TIME_NS, ns) == 0 && p == unit ? 0 : -1;
	}
	return -1;
}

int cluster_parse_rate(const char *s, uint64_t *bps)
{
	const char *unit = unit_of(s);
	uint64_t mult = !*unit ? 1 : !strcmp(unit, "k") ? 1000 : !strcmp(unit, "M") ? 1000000
		      : !strcmp(unit, "G") ? 1000000000 : 0;
	const char *p = s;
	if (!mult || scaled(&p, mult, MAX_RATE, bps) || p != unit || *bps == 0)
		return -1;
	return 0;
}

int cluster_vtime_attribute(struct cluster_vtime *vt, const char *key, const char *value,
			    char *err, size_t errlen)
{
	if (!strcmp(key, "net")) {
		if (strcmp(value, "lan") && strcmp(value, "1984")) {
			snprintf(err, errlen, "net must be lan or 1984, not '%s'", value);
			return -1;
		}
		vt->net = strcmp(value, "lan") ? CLUSTER_NET_1984 : CLUSTER_NET_LAN;
		return 0;
	}
	for (size_t i = 0; i < sizeof attrs / sizeof attrs[0]; i++) {
		if (strcmp(key, attrs[i].key))
			continue;
		uint64_t a = 0, b = 0;
		int bad;
		if (attrs[i].kind == RATE) {
			bad = cluster_parse_rate(value, &a);
		} else if (attrs[i].kind == TIME) {
			bad = cluster_parse_time(value, &a);
		} else {
			char first[64];
			const char *comma = strchr(value, ',');
			size_t n = comma ? (size_t)(comma - value) : strlen(value);
			bad = n >= sizeof first;
			if (!bad) {
				memcpy(first, value, n);
				first[n] = '\0';
				bad = cluster_parse_time(first, &a) ||
				      (comma && cluster_parse_time(comma + 1, &b));
			}
		}
		if (bad) {
			snprintf(err, errlen, "%s must be %s, e.g. %s, not '%s'", key,
				 attrs[i].kind == RATE
					 ? "bits per second, a number bare or with k, M or G (up to 1000G)"
				 : attrs[i].kind == TIME
					 ? "a time with its unit, ns, us, ms or s (up to 100s)"
					 : "a time per frame and, after a comma, one per 1000 bytes "
					   "(ns, us, ms or s)",
				 attrs[i].example, value);
			return -1;
		}
		if (attrs[i].field == VT_STOPS && a == 0) {
			snprintf(err, errlen, "stops must be above 0, e.g. %s, not '%s'",
				 attrs[i].example, value);
			return -1;
		}
		vt->value[attrs[i].field] = a;
		vt->set |= 1u << attrs[i].field;
		if (attrs[i].kind == PAIR) {
			vt->value[attrs[i].field + 1] = b;
			vt->set |= 1u << (attrs[i].field + 1);
		}
		return 0;
	}
	return 1;
}

const char *cluster_vtime_attribute_names(void)
{
	return "net, latency, bandwidth, txcost, rxcost, disklatency, disksector, stops or copycost";
}

void cluster_vtime_resolve(const struct cluster_vtime *vt, uint64_t out[VT_FIELDS])
{
	for (int f = 0; f < VT_FIELDS; f++)
		out[f] = vt->set & (1u << f) ? vt->value[f] : presets[vt->net][f];
}

int cluster_vtime_default_shift(const struct cluster_vtime *vt)
{
	return preset_shift[vt->net];
}

int cluster_vtime_shift(const char *value, int *shift, char *err, size_t errlen)
{
	if (value[0] < '0' || value[0] > '9' || (value[1] && (value[1] < '0' || value[1] > '9' ||
							      value[2])) ||
	    (*shift = (int)strtol(value, NULL, 10)) > CLUSTER_SHIFT_MAX) {
		snprintf(err, errlen, "shift must be a number from 0 to %d (2^S ns an instruction), "
			 "not '%s'", CLUSTER_SHIFT_MAX, value);
		return -1;
	}
	return 0;
}

int cluster_vtime_kernel_words(const struct cluster_vtime *vt, char *out, size_t size)
{
	uint64_t v[VT_FIELDS];
	cluster_vtime_resolve(vt, v);
	int n = snprintf(out, size, "vlat=%llu vbw=%llu vtx=%llu,%llu vrx=%llu,%llu vdisk=%llu,%llu vstop=%llu",
			 (unsigned long long)v[VT_LATENCY], (unsigned long long)v[VT_BANDWIDTH],
			 (unsigned long long)v[VT_TX_FIXED], (unsigned long long)v[VT_TX_PER_KB],
			 (unsigned long long)v[VT_RX_FIXED], (unsigned long long)v[VT_RX_PER_KB],
			 (unsigned long long)v[VT_DISK_LATENCY], (unsigned long long)v[VT_DISK_SECTOR],
			 (unsigned long long)v[VT_STOPS]);
	if (n >= 0 && (size_t)n < size && v[VT_COPY]) /* the kernel's default: 0 */
		n += snprintf(out + n, size - (size_t)n, " vcopy=%llu", (unsigned long long)v[VT_COPY]);
	return n < 0 || (size_t)n >= size ? -1 : 0;
}
