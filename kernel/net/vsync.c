/*
 * kernel/net/vsync.c - a node's conservative time synchronisation state
 * (vsync.h, docs/virtual-time.md §2.3-2.4).  Correctness rests on three
 * facts kept here: a data frame is never delivered before its sender's
 * last promise (checked on receipt), a node's promise is at least the
 * lookahead beyond anything it can still do, and the horizon is the least
 * promise heard; the idle rule (every node idle, sent and received counts
 * matching pairwise) is Mattern's counting argument for "nothing in
 * flight".
 */
#include "vsync.h"

static uint64_t min64(uint64_t a, uint64_t b) { return a < b ? a : b; }
static uint64_t max64(uint64_t a, uint64_t b) { return a > b ? a : b; }

/* a + b, saturating at VSYNC_NEVER */
static uint64_t add_sat(uint64_t a, uint64_t b)
{
	return a > VSYNC_NEVER - b ? VSYNC_NEVER : a + b;
}

uint64_t vnet_wire_ns(const struct vnet_model *m, uint32_t bytes)
{
	uint64_t bits_ns = (uint64_t)bytes * 8u * 1000000000u;
	return (bits_ns + m->bandwidth_bps - 1) / m->bandwidth_bps;
}

static uint64_t path_ns(uint64_t fixed, uint64_t per_kbyte, uint32_t bytes)
{
	return fixed + ((uint64_t)bytes * per_kbyte + 999) / 1000;
}

uint64_t vnet_lookahead(const struct vnet_model *m)
{
	return path_ns(m->tx_fixed_ns, m->tx_per_kbyte_ns, VSYNC_MIN_FRAME) +
	       vnet_wire_ns(m, VSYNC_MIN_FRAME) + m->latency_ns +
	       path_ns(m->rx_fixed_ns, m->rx_per_kbyte_ns, VSYNC_MIN_FRAME);
}

int vsync_init(struct vsync *v, uint32_t self, const uint32_t *peers, uint32_t npeers,
	       const struct vnet_model *m)
{
	if (m->bandwidth_bps == 0)
		return -1;
	*v = (struct vsync){.model = *m, .self = self};
	v->lookahead = vnet_lookahead(m);
	for (uint32_t i = 0; i < npeers; i++) {
		if (peers[i] == self)
			continue;
		if (v->npeers == VSYNC_MAX_PEERS)
			return -1;
		struct vsync_peer *p = &v->peers[v->npeers++];
		*p = (struct vsync_peer){.node = peers[i]};
		/* Before it says anything a peer can deliver nothing earlier
		 * than the lookahead after the common epoch 0. */
		p->eot = v->lookahead;
	}
	return 0;
}

static struct vsync_peer *find(struct vsync *v, uint32_t node)
{
	for (uint32_t i = 0; i < v->npeers; i++)
		if (v->peers[i].node == node)
			return &v->peers[i];
	return 0;
}

uint64_t vsync_send(struct vsync *v, uint32_t to, uint64_t now, uint32_t bytes)
{
	struct vsync_peer *p = find(v, to);
	if (!p)
		return VSYNC_NEVER;
	const struct vnet_model *m = &v->model;
	if (bytes < VSYNC_MIN_FRAME)
		bytes = VSYNC_MIN_FRAME;  /* Ethernet pads a short frame */
	uint64_t start = max64(now + path_ns(m->tx_fixed_ns, m->tx_per_kbyte_ns, bytes), v->tx_free);
	v->tx_free = start + vnet_wire_ns(m, bytes);
	p->sent++;
	uint64_t d = v->tx_free + m->latency_ns + path_ns(m->rx_fixed_ns, m->rx_per_kbyte_ns, bytes);
	p->last_out = max64(p->last_out, d);
	return p->last_out;
}

int vsync_heard_data(struct vsync *v, uint32_t from, uint64_t delivery, uint64_t eot)
{
	struct vsync_peer *p = find(v, from);
	if (!p || p->gone || delivery < p->eot || delivery < p->last_delivery)
		return -1;
	p->last_delivery = delivery;
	p->eot = max64(p->eot, eot);
	p->received++;
	return 0;
}

int vsync_heard_report(struct vsync *v, const struct vsync_report *r)
{
	struct vsync_peer *p = find(v, r->node);
	if (!p || p->gone || (p->have_report && r->eot < p->report.eot))
		return -1;
	p->eot = max64(p->eot, r->eot);
	p->report = *r;
	p->have_report = 1;
	return 0;
}

int vsync_peer_gone(struct vsync *v, uint32_t node)
{
	struct vsync_peer *p = find(v, node);
	if (!p)
		return -1;
	if (p->gone)
		return 1;
	p->gone = 1;
	p->eot = VSYNC_NEVER;
	return 0;
}

/* Node a's count toward node b as a knows it (sent or received), from a's
 * latest report (or this node's own counts); -1 when a has not reported. */
static int64_t count_of(const struct vsync *v, uint32_t a, uint32_t b, int sent)
{
	if (a == v->self) {
		for (uint32_t i = 0; i < v->npeers; i++)
			if (v->peers[i].node == b)
				return sent ? v->peers[i].sent : v->peers[i].received;
		return 0;
	}
	for (uint32_t i = 0; i < v->npeers; i++) {
		const struct vsync_peer *p = &v->peers[i];
		if (p->node != a)
			continue;
		if (!p->have_report)
			return -1;
		for (uint32_t k = 0; k < p->report.n; k++)
			if (p->report.ids[k] == b)
				return sent ? p->report.sent[k] : p->report.received[k];
		return 0;
	}
	return -1;
}

uint64_t vsync_idle_until(const struct vsync *v, int self_idle, uint64_t self_next)
{
	if (!self_idle)
		return VSYNC_NEVER;
	uint32_t nodes[VSYNC_MAX_NODES];
	uint32_t n = 0;
	nodes[n++] = v->self;
	uint64_t t = self_next;
	for (uint32_t i = 0; i < v->npeers; i++) {
		const struct vsync_peer *p = &v->peers[i];
		if (p->gone)
			continue;
		if (!p->have_report || !p->report.idle)
			return VSYNC_NEVER;
		t = min64(t, p->report.next_event);
		nodes[n++] = p->node;
	}
	for (uint32_t a = 0; a < n; a++)
		for (uint32_t b = 0; b < n; b++) {
			if (a == b)
				continue;
			int64_t sent = count_of(v, nodes[a], nodes[b], 1);
			int64_t got = count_of(v, nodes[b], nodes[a], 0);
			if (sent < 0 || got < 0 || sent != got)
				return VSYNC_NEVER;
		}
	return t;
}

/* Whether idle peer p's latest report holds everything sent to it: every
 * live sender's count toward p (this node's own now, a peer's as of its
 * latest report) equals what p had received from it when it reported. */
static int nothing_in_flight_to(const struct vsync *v, const struct vsync_peer *p)
{
	int64_t got = count_of(v, p->node, v->self, 0);
	if (got < 0 || (int64_t)count_of(v, v->self, p->node, 1) != got)
		return 0;
	for (uint32_t i = 0; i < v->npeers; i++) {
		const struct vsync_peer *q = &v->peers[i];
		if (q == p || q->gone)
			continue;
		int64_t sent = count_of(v, q->node, p->node, 1);
		got = count_of(v, p->node, q->node, 0);
		if (sent < 0 || got < 0 || sent != got)
			return 0;
	}
	return 1;
}

/* Each peer's promise, made good by what the reports say (§2.3, rule 3
 * applied for the peers): a peer whose latest report is idle, with nothing
 * in flight to it, sends nothing before its next event or a frame reaching
 * it, whichever is first; such a frame comes from this node (busy: no
 * sooner than now + L; idle: its own bound) or from another peer (no
 * sooner than that one's bound, frames sent after its report being
 * covered by its promise).  So a node idle in that sense promises
 * min(next event, least bound of the others) + L: the least fixpoint of
 * these equations is the shortest path from the busy nodes' promises and
 * the idle nodes' next events, with L a hop, found by relaxing down from
 * NEVER (at most one round per node, L being positive).  It is what an
 * idle peer would promise once the reports had gone round the idle ones,
 * worked out here at once; each bound is never below the peer's own
 * promise. */
static uint64_t bounds(const struct vsync *v, int self_idle, uint64_t self_next, uint64_t *out,
		       int *solve)
{
	uint64_t self = self_idle ? VSYNC_NEVER : add_sat(self_next, v->lookahead);
	for (uint32_t i = 0; i < v->npeers; i++) {
		const struct vsync_peer *p = &v->peers[i];
		solve[i] = !p->gone && p->have_report && p->report.idle && nothing_in_flight_to(v, p);
		out[i] = solve[i] ? VSYNC_NEVER : p->eot;
	}
	int moved = 1;
	for (uint32_t round = 0; moved && round <= v->npeers + 1u; round++) {
		moved = 0;
		if (self_idle) {
			uint64_t m = self_next;
			for (uint32_t j = 0; j < v->npeers; j++)
				m = min64(m, out[j]);
			m = add_sat(m, v->lookahead);
			moved |= m != self;
			self = m;
		}
		for (uint32_t i = 0; i < v->npeers; i++) {
			if (!solve[i])
				continue;
			uint64_t m = min64(v->peers[i].report.next_event, self);
			for (uint32_t j = 0; j < v->npeers; j++)
				if (j != i)
					m = min64(m, out[j]);
			m = add_sat(m, v->lookahead);
			moved |= m != out[i];
			out[i] = m;
		}
	}
	/* (cannot still be moving: a shortest path has one hop per node at
	 * most; were it so, the promises alone are the safe answer) */
	for (uint32_t i = 0; i < v->npeers; i++)
		out[i] = moved || v->promises_only ? v->peers[i].eot : max64(out[i], v->peers[i].eot);
	for (uint32_t i = 0; i < v->npeers; i++)
		solve[i] = solve[i] && !moved && !v->promises_only;
	return self;
}

uint64_t vsync_bounds(const struct vsync *v, int self_idle, uint64_t self_next, uint64_t *out)
{
	int solve[VSYNC_MAX_PEERS];
	return bounds(v, self_idle, self_next, out, solve);
}

uint32_t vsync_holding(const struct vsync *v, int self_idle, uint64_t self_next, uint64_t t,
		       int *held)
{
	uint64_t b[VSYNC_MAX_PEERS];
	int solve[VSYNC_MAX_PEERS];
	uint32_t n = 0;
	bounds(v, self_idle, self_next, b, solve);
	/* this node's own part: its next event's frames, not its bound (which
	 * may follow other peers') */
	uint64_t self = add_sat(self_next, v->lookahead);
	for (uint32_t i = 0; i < v->npeers; i++) {
		held[i] = b[i] <= t;
		if (held[i] && solve[i]) {
			uint64_t own = min64(v->peers[i].report.next_event, self);
			held[i] = add_sat(own, v->lookahead) <= t;
		}
		n += (uint32_t)held[i];
	}
	return n;
}

uint64_t vsync_horizon(const struct vsync *v, int self_idle, uint64_t self_next)
{
	uint64_t h = VSYNC_NEVER, b[VSYNC_MAX_PEERS];
	vsync_bounds(v, self_idle, self_next, b);
	for (uint32_t i = 0; i < v->npeers; i++)
		h = min64(h, b[i]);
	uint64_t t = vsync_idle_until(v, self_idle, self_next);
	if (t != VSYNC_NEVER)
		h = max64(h, add_sat(t, v->lookahead));
	return h;
}

uint64_t vsync_horizon_held(struct vsync *v, int self_idle, uint64_t self_next, uint64_t grant)
{
	if (self_next > grant)
		self_next = grant;
	uint64_t h = vsync_horizon(v, self_idle, self_next);
	if (h > v->floor)
		v->floor = h;
	return min64(grant, v->floor);
}

void vsync_report_make(const struct vsync *v, uint64_t now, int idle, uint64_t next_event,
		       struct vsync_report *r)
{
	uint64_t next = idle ? next_event : now;
	uint64_t h = vsync_horizon(v, idle, next);
	*r = (struct vsync_report){.node = v->self, .idle = (uint32_t)(idle != 0),
				   .next_event = next};
	r->eot = add_sat(max64(now, min64(next, h)), v->lookahead);
	for (uint32_t i = 0; i < v->npeers; i++) {
		r->ids[r->n] = v->peers[i].node;
		r->sent[r->n] = v->peers[i].sent;
		r->received[r->n] = v->peers[i].received;
		r->n++;
	}
}

static void put32(uint8_t *p, uint32_t x)
{
	for (int i = 0; i < 4; i++)
		p[i] = (uint8_t)(x >> (8 * i));
}

static void put64(uint8_t *p, uint64_t x)
{
	put32(p, (uint32_t)x);
	put32(p + 4, (uint32_t)(x >> 32));
}

static uint32_t get32(const uint8_t *p)
{
	return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static uint64_t get64(const uint8_t *p)
{
	return (uint64_t)get32(p) | (uint64_t)get32(p + 4) << 32;
}

uint32_t vsync_report_encode(const struct vsync_report *r, uint8_t *out)
{
	put32(out, r->node);
	put32(out + 4, r->idle);
	put64(out + 8, r->eot);
	put64(out + 16, r->next_event);
	put32(out + 24, r->n);
	uint8_t *p = out + VSYNC_REPORT_FIXED;
	for (uint32_t k = 0; k < r->n; k++, p += 12) {
		put32(p, r->ids[k]);
		put32(p + 4, r->sent[k]);
		put32(p + 8, r->received[k]);
	}
	return (uint32_t)(p - out);
}

int vsync_report_decode(const uint8_t *p, uint32_t len, struct vsync_report *r)
{
	if (len < VSYNC_REPORT_FIXED)
		return -1;
	uint32_t n = get32(p + 24);
	if (n > VSYNC_MAX_NODES || len != VSYNC_REPORT_FIXED + 12u * n)
		return -1;
	*r = (struct vsync_report){.node = get32(p), .idle = get32(p + 4), .eot = get64(p + 8),
				   .next_event = get64(p + 16), .n = n};
	const uint8_t *q = p + VSYNC_REPORT_FIXED;
	for (uint32_t k = 0; k < n; k++, q += 12) {
		r->ids[k] = get32(q);
		r->sent[k] = get32(q + 4);
		r->received[k] = get32(q + 8);
	}
	return 0;
}

void vsync_stamp_encode(uint8_t out[VSYNC_STAMP_BYTES], uint64_t delivery, uint64_t eot)
{
	put64(out, delivery);
	put64(out + 8, eot);
}

void vsync_stamp_decode(const uint8_t in[VSYNC_STAMP_BYTES], uint64_t *delivery, uint64_t *eot)
{
	*delivery = get64(in);
	*eot = get64(in + 8);
}
