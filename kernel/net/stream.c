/*
 * kernel/net/stream.c - TCP connections with a send ring over lwIP's raw
 * API.  lwIP's rules followed here: after tcp_abort() inside one of its
 * callbacks the callback returns ERR_ABRT and touches the pcb no more;
 * tcp_abort() calls the error callback, so stream_drop() unhooks first;
 * when the error callback runs the pcb is already freed.
 */
#include "kernel/kernel.h"
#include "stream.h"
#include "lwip/tcp.h"

void stream_init(struct stream *s, uint8_t *ring_buf, uint32_t ring_size,
		 const struct stream_ops *ops, void *owner)
{
	memset(s, 0, sizeof *s);
	ring_init(&s->tx, ring_buf, ring_size);
	s->ops = ops;
	s->owner = owner;
}

static void unhook(struct tcp_pcb *pcb)
{
	tcp_arg(pcb, NULL);
	tcp_recv(pcb, NULL);
	tcp_sent(pcb, NULL);
	tcp_err(pcb, NULL);
}

void stream_drop(struct stream *s)
{
	if (s->pcb) {
		unhook(s->pcb);
		tcp_abort(s->pcb);
	}
	s->pcb = NULL;
	s->established = 0;
}

static void lost(struct stream *s, const char *why)
{
	stream_drop(s);
	s->ops->lost(s->owner, why);
}

static err_t on_recv(void *arg, struct tcp_pcb *pcb, struct pbuf *p, err_t err)
{
	struct stream *s = arg;
	(void)err;
	if (!p) {
		lost(s, "closed by the other side");
		return ERR_ABRT;
	}
	u16_t total = p->tot_len;
	for (struct pbuf *q = p; q; q = q->next) {
		if (s->ops->data(s->owner, q->payload, q->len) || s->pcb != pcb) {
			pbuf_free(p);
			return ERR_ABRT;
		}
	}
	pbuf_free(p);
	if (!s->manual_window)
		tcp_recved(pcb, total);
	if (s->ack_now)
		tcp_set_flags(pcb, TF_ACK_NOW); /* sent by tcp_input's tcp_output on return */
	return ERR_OK;
}

void stream_recved(struct stream *s, uint32_t n)
{
	while (s->pcb && n) {
		u16_t step = n > 0xffffu ? 0xffffu : (u16_t)n;
		tcp_recved(s->pcb, step);
		n -= step;
	}
}

static err_t on_sent(void *arg, struct tcp_pcb *pcb, u16_t len)
{
	struct stream *s = arg;
	(void)pcb;
	(void)len;
	stream_flush(s);
	return ERR_OK;
}

static void on_err(void *arg, err_t err)
{
	struct stream *s = arg;
	s->pcb = NULL;   /* lwIP has freed it */
	s->established = 0;
	s->ops->lost(s->owner, err == ERR_RST ? "reset by the other side" :
			       err == ERR_ABRT ? "aborted (timeout)" : "connection failed");
}

static void hook(struct stream *s, struct tcp_pcb *pcb)
{
	s->pcb = pcb;
	tcp_arg(pcb, s);
	tcp_recv(pcb, on_recv);
	tcp_sent(pcb, on_sent);
	tcp_err(pcb, on_err);
	tcp_nagle_disable(pcb);
}

static err_t on_connected(void *arg, struct tcp_pcb *pcb, err_t err)
{
	struct stream *s = arg;
	(void)pcb;
	if (err != ERR_OK)
		return ERR_OK;   /* lwIP reports failures through on_err */
	s->established = 1;
	s->ops->connected(s->owner);
	return s->pcb == pcb ? ERR_OK : ERR_ABRT;
}

int stream_connect(struct stream *s, uint32_t local_ip, uint32_t ip, uint16_t port)
{
	stream_drop(s);
	struct tcp_pcb *pcb = tcp_new();
	if (!pcb)
		return -1;
	ip_addr_t local, remote;
	ip_addr_set_ip4_u32(&local, local_ip);
	ip_addr_set_ip4_u32(&remote, ip);
	if (tcp_bind(pcb, &local, 0) != ERR_OK) {
		tcp_abort(pcb);
		return -1;
	}
	hook(s, pcb);
	if (tcp_connect(pcb, &remote, port, on_connected) != ERR_OK) {
		stream_drop(s);
		return -1;
	}
	return 0;
}

void stream_adopt(struct stream *s, struct tcp_pcb *pcb)
{
	stream_drop(s);
	hook(s, pcb);
	s->established = 1;
}

int stream_write_direct(struct stream *s, const void *p, uint32_t n)
{
	if (!s->pcb || tcp_sndbuf(s->pcb) < n ||
	    tcp_write(s->pcb, p, (u16_t)n, TCP_WRITE_FLAG_COPY) != ERR_OK)
		return -1;
	tcp_output(s->pcb);
	return 0;
}

void stream_flush(struct stream *s)
{
	int wrote = 0;
	while (s->pcb && s->established && s->tx.len > 0) {
		uint32_t n;
		const uint8_t *p = ring_peek(&s->tx, &n);
		uint32_t room = tcp_sndbuf(s->pcb);
		if (room == 0)
			break;
		if (n > room)
			n = room;
		if (tcp_write(s->pcb, p, (u16_t)n, TCP_WRITE_FLAG_COPY) != ERR_OK)
			break;   /* lwIP's segment queue is full: again on the next ack */
		ring_consume(&s->tx, n);
		wrote = 1;
	}
	if (wrote)
		tcp_output(s->pcb);
}

int stream_finish(struct stream *s)
{
	if (!s->pcb || !s->established || s->finished)
		return 1;
	stream_flush(s);
	if (s->tx.len > 0 || tcp_shutdown(s->pcb, 0, 1) != ERR_OK)
		return 0;
	s->finished = 1;
	tcp_output(s->pcb);
	return 1;
}

int stream_drained(const struct stream *s)
{
	return s->tx.len == 0 && (!s->pcb || (!s->pcb->unsent && !s->pcb->unacked));
}
