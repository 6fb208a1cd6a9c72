/*
 * analysis/model/stats.c - computing the communication statistics (see
 * stats.h).
 */
#include "stats.h"

#include <stdlib.h>
#include <string.h>

unsigned stats_bucket(uint64_t v)
{
	unsigned b = 0;
	while (v) {
		b++;
		v >>= 1;
	}
	return b;
}

double stats_rate(const struct stats *s, uint32_t p, uint64_t messages)
{
	const struct proc_stats *ps = &s->p[p];
	if (ps->last_time <= ps->first_time)
		return 0;
	return (double)messages * 1e9 / (double)(ps->last_time - ps->first_time);
}

static struct pair_stats *pair_of(struct stats *s, uint32_t src, uint32_t dst)
{
	uint64_t key = (uint64_t)src << 32 | dst;
	uint32_t i = hashmap_get(&s->pair_index, key);
	if (i != HASHMAP_NONE)
		return &s->pair[i];
	if (s->npairs == s->paircap) {
		size_t cap = s->paircap ? s->paircap * 2 : 64;
		struct pair_stats *n = realloc(s->pair, cap * sizeof *n);
		if (!n)
			return NULL;
		s->pair = n;
		s->paircap = cap;
	}
	if (hashmap_put(&s->pair_index, key, (uint32_t)s->npairs) < 0)
		return NULL;
	struct pair_stats *ps = &s->pair[s->npairs++];
	memset(ps, 0, sizeof *ps);
	ps->src = src;
	ps->dst = dst;
	return ps;
}

static void count_send(struct msg_counts *m, uint32_t len, int local)
{
	m->sent++;
	m->sent_bytes += len;
	m->size_hist[stats_bucket(len)]++;
	if (local) {
		m->local++;
		m->local_bytes += len;
	} else {
		m->remote++;
		m->remote_bytes += len;
	}
}

static void count_receive(struct msg_counts *m, uint32_t len)
{
	m->recv++;
	m->recv_bytes += len;
}

static void queue_sample(struct proc_stats *ps, uint32_t len)
{
	ps->q_samples++;
	ps->q_sum += len;
	if (len > ps->q_max)
		ps->q_max = len;
}

static int count_message(struct stats *s, const struct event *e)
{
	const struct trace *t = s->tr;
	if (e->src == NO_PROC || e->dst == NO_PROC)
		return 0;
	struct pair_stats *pair = pair_of(s, e->src, e->dst);
	if (!pair)
		return -1;
	if (e->type == TRACE_SEND) {
		int local = t->proc[e->src].machine == t->proc[e->dst].machine;
		count_send(&s->p[e->src].m, e->length, local);
		count_send(&pair->m, e->length, local);
		count_send(&s->total, e->length, local);
	} else {
		count_receive(&s->p[e->dst].m, e->length);
		count_receive(&pair->m, e->length);
		count_receive(&s->total, e->length);
	}
	return 0;
}

/* Queue length: the traced value when there is one, else rebuilt (a
 * QUEUED adds one, the RECEIVE of a queued message takes one away). */
static void count_queue(struct stats *s, const struct event *e, int was_queued)
{
	struct proc_stats *ps = &s->p[e->task];
	if (e->type == TRACE_QUEUED) {
		ps->q_now++;
		if (!(e->flags & EV_QUEUE_LEN))
			s->queue_rebuilt = 1;
		queue_sample(ps, (e->flags & EV_QUEUE_LEN) ? e->queue_len : ps->q_now);
	} else if (e->type == TRACE_RECEIVE && (was_queued || (e->flags & EV_QUEUE_LEN))) {
		if (ps->q_now)
			ps->q_now--;
		if (!(e->flags & EV_QUEUE_LEN))
			s->queue_rebuilt = 1;
		queue_sample(ps, (e->flags & EV_QUEUE_LEN) ? e->queue_len : ps->q_now);
	}
}

static void add_wait(struct wait_stats *w, uint64_t wait)
{
	if (!w->n || wait < w->min)
		w->min = wait;
	if (wait > w->max)
		w->max = wait;
	w->n++;
	w->sum += (double)wait;
}

static void count_wait(struct stats *s, struct proc_stats *ps, uint64_t wait)
{
	add_wait(&ps->w, wait);
	add_wait(&s->w, wait);
	s->wait_hist[stats_bucket(wait)]++;
}

static void count_process(struct proc_stats *ps, const struct event *e)
{
	if (!ps->events || e->time < ps->first_time)
		ps->first_time = e->time;
	if (e->time > ps->last_time)
		ps->last_time = e->time;
	if (e->cpu > ps->cpu)
		ps->cpu = e->cpu;
	ps->events++;
}

static int index_queued(const struct trace *t, struct hashmap *queued)
{
	for (size_t i = 0; i < t->nev; i++)
		if (t->ev[i].type == TRACE_QUEUED && (t->ev[i].flags & EV_MSG_ID) &&
		    hashmap_put(queued, t->ev[i].msg_id, (uint32_t)i) < 0)
			return -1;
	return 0;
}

int stats_compute(struct stats *s, const struct trace *t)
{
	memset(s, 0, sizeof *s);
	s->tr = t;
	struct hashmap queued;
	s->p = calloc(t->nproc + 1, sizeof *s->p);
	if (!s->p || hashmap_init(&s->pair_index, 256) < 0)
		return -1;
	if (hashmap_init(&queued, 1024) < 0 || index_queued(t, &queued) < 0)
		return -1;
	int rc = 0;
	for (size_t i = 0; i < t->nev && rc == 0; i++) {
		const struct event *e = &t->ev[i];
		if (event_is_process_step(e->type))
			count_process(&s->p[e->task], e);
		if (e->type == TRACE_SEND || e->type == TRACE_RECEIVE)
			rc = count_message(s, e);
		uint32_t q = HASHMAP_NONE;
		if (e->type == TRACE_RECEIVE && (e->flags & EV_MSG_ID))
			q = hashmap_get(&queued, e->msg_id);
		count_queue(s, e, q != HASHMAP_NONE);
		if (q != HASHMAP_NONE && e->time >= t->ev[q].time)
			count_wait(s, &s->p[e->task], e->time - t->ev[q].time);
	}
	for (size_t p = 0; p < t->nproc; p++)
		s->total_cpu += s->p[p].cpu;
	hashmap_free(&queued);
	return rc;
}

void stats_free(struct stats *s)
{
	free(s->p);
	free(s->pair);
	hashmap_free(&s->pair_index);
	memset(s, 0, sizeof *s);
}
