/*
 * qemu/control/ctl_wire.c - the framing of ctl_wire.h.  Received bytes are kept
 * until a frame is whole; a frame handed out is dropped from the front at
 * the next call, so its payload stays valid meanwhile.
 */
#include <errno.h>
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "ctl_wire.h"

#define READ_ROOM 65536

int ctl_wire_init(struct ctl_wire *w, int fd, size_t tx_limit)
{
	memset(w, 0, sizeof *w);
	w->fd = fd;
	w->tx_limit = tx_limit;
	int flags = fcntl(fd, F_GETFL);
	if (flags >= 0)
		fcntl(fd, F_SETFL, flags | O_NONBLOCK);
	w->rx_cap = READ_ROOM;
	w->rx = malloc(w->rx_cap);
	return w->rx ? 0 : -1;
}

void ctl_wire_close(struct ctl_wire *w)
{
	if (w->fd >= 0)
		close(w->fd);
	free(w->rx);
	free(w->tx);
	memset(w, 0, sizeof *w);
	w->fd = -1;
}

/* The frame ctl_wire_next handed out last is dropped from the front on
 * the next read or next call, when its payload is no longer in use. */
static void drop_handed_out(struct ctl_wire *w)
{
	if (!w->rx_taken)
		return;
	memmove(w->rx, w->rx + w->rx_taken, w->rx_len - w->rx_taken);
	w->rx_len -= w->rx_taken;
	w->rx_taken = 0;
}

int ctl_wire_read(struct ctl_wire *w)
{
	drop_handed_out(w);
	if (w->rx_cap - w->rx_len < READ_ROOM / 2) {
		uint8_t *bigger = realloc(w->rx, w->rx_cap * 2);
		if (!bigger)
			return -1;
		w->rx = bigger;
		w->rx_cap *= 2;
	}
	ssize_t n = recv(w->fd, w->rx + w->rx_len, w->rx_cap - w->rx_len, 0);
	if (n > 0) {
		w->rx_len += (size_t)n;
		return 1;
	}
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
		return 0;
	return -1;
}

int ctl_wire_next(struct ctl_wire *w, struct ctl_frame *f, const uint8_t **payload)
{
	drop_handed_out(w);
	if (w->rx_len < CTL_FRAME_SIZE)
		return 0;
	memcpy(f, w->rx, CTL_FRAME_SIZE);
	if (f->magic != CTL_MAGIC || f->len > CTL_PAYLOAD_MAX)
		return -1;
	if (w->rx_len < CTL_FRAME_SIZE + f->len)
		return 0;
	*payload = w->rx + CTL_FRAME_SIZE;
	w->rx_taken = CTL_FRAME_SIZE + f->len;
	return 1;
}

int ctl_wire_take_raw(struct ctl_wire *w, void *buf, size_t n)
{
	drop_handed_out(w);
	if (w->rx_len < n)
		return 0;
	memcpy(buf, w->rx, n);
	memmove(w->rx, w->rx + n, w->rx_len - n);
	w->rx_len -= n;
	return 1;
}

/* Room for n more bytes in the send queue: 0, or -1 (limit, memory). */
static int tx_room(struct ctl_wire *w, size_t n)
{
	if (w->tx_limit && w->tx_len + n > w->tx_limit)
		return -1;
	if (w->tx_len + n > w->tx_cap) {
		size_t cap = w->tx_cap ? w->tx_cap : 4096;
		while (cap < w->tx_len + n)
			cap *= 2;
		uint8_t *bigger = realloc(w->tx, cap);
		if (!bigger)
			return -1;
		w->tx = bigger;
		w->tx_cap = cap;
	}
	return 0;
}

static void put(struct ctl_wire *w, const void *data, size_t n)
{
	if (n)
		memcpy(w->tx + w->tx_len, data, n);
	w->tx_len += n;
}

int ctl_wire_send_raw(struct ctl_wire *w, const void *data, size_t n)
{
	if (tx_room(w, n) < 0)
		return -1;
	put(w, data, n);
	return 0;
}

int ctl_wire_send(struct ctl_wire *w, const struct ctl_frame *f, const void *payload)
{
	if (f->len && !payload)
		return -1; /* a length with nothing behind it: a caller's bug, refused */
	if (tx_room(w, CTL_FRAME_SIZE + f->len) < 0)
		return -1;
	put(w, f, CTL_FRAME_SIZE);
	put(w, payload, f->len);
	return 0;
}

int ctl_wire_send_envelope(struct ctl_wire *w, uint32_t kind, uint64_t time,
			   const struct ctl_frame *f, const void *payload)
{
	struct ctl_envelope e = { CTL_ENV_MAGIC, kind, f ? CTL_FRAME_SIZE + f->len : 0, 0, time };
	if ((f && f->len && !payload) || tx_room(w, CTL_ENV_SIZE + e.len) < 0)
		return -1;
	put(w, &e, CTL_ENV_SIZE);
	if (f) {
		put(w, f, CTL_FRAME_SIZE);
		put(w, payload, f->len);
	}
	return 0;
}

int ctl_wire_next_envelope(struct ctl_wire *w, struct ctl_envelope *e, const uint8_t **payload)
{
	drop_handed_out(w);
	if (w->rx_len < CTL_ENV_SIZE)
		return 0;
	memcpy(e, w->rx, CTL_ENV_SIZE);
	if (e->magic != CTL_ENV_MAGIC || e->len > CTL_FRAME_SIZE + CTL_PAYLOAD_MAX + 65536)
		return -1;
	if (w->rx_len < CTL_ENV_SIZE + e->len)
		return 0;
	*payload = w->rx + CTL_ENV_SIZE;
	w->rx_taken = CTL_ENV_SIZE + e->len;
	return 1;
}

int ctl_wire_feed(struct ctl_wire *w, const void *data, size_t n)
{
	drop_handed_out(w);
	if (w->rx_len + n > w->rx_cap) {
		size_t cap = w->rx_cap ? w->rx_cap : READ_ROOM;
		while (cap < w->rx_len + n)
			cap *= 2;
		uint8_t *bigger = realloc(w->rx, cap);
		if (!bigger)
			return -1;
		w->rx = bigger;
		w->rx_cap = cap;
	}
	memcpy(w->rx + w->rx_len, data, n);
	w->rx_len += n;
	return 0;
}

int ctl_wire_flush(struct ctl_wire *w)
{
	size_t done = 0;
	while (done < w->tx_len) {
		ssize_t n = send(w->fd, w->tx + done, w->tx_len - done, MSG_NOSIGNAL);
		if (n > 0) {
			done += (size_t)n;
			continue;
		}
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK || errno == EINTR))
			break;
		return -1;
	}
	if (done) { /* nothing queued yet: no buffer to move in */
		memmove(w->tx, w->tx + done, w->tx_len - done);
		w->tx_len -= done;
	}
	return 0;
}

size_t ctl_wire_pending(const struct ctl_wire *w)
{
	return w->tx_len;
}

struct ctl_frame ctl_frame_make(uint32_t type, uint32_t id, uint32_t node, uint32_t task)
{
	return (struct ctl_frame){ .magic = CTL_MAGIC, .type = type, .id = id, .node = node,
				   .task = task };
}
