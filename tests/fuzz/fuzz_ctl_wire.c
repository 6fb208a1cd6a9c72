/*
 * tests/fuzz/fuzz_ctl_wire.c - the control protocol's frames as the hub and
 * the controllers receive them (qemu/control/ctl_wire.h), over a real
 * socket pair: the input is what the peer sends, written in pieces whose
 * sizes come from the bytes.  Every frame taken is checked (magic, length
 * within CTL_PAYLOAD_MAX, a payload wherever the length says so) and sent
 * on through a second wire; what comes out of that one must be exactly the
 * input's whole frames, byte for byte.  A malformed frame ends the stream,
 * as it does in the hub.
 */
#include <fcntl.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>

#include "fuzz.h"
#include "qemu/control/ctl_wire.h"

struct echo {
	struct ctl_wire tx;
	int out;              /* the far end of tx's socket */
	uint8_t *got;
	size_t len;
};

static void drain(struct echo *e)
{
	if (ctl_wire_flush(&e->tx) < 0)
		fuzz_fail("ctl_wire_flush failed");
	uint8_t buf[4096];
	ssize_t n;
	while ((n = read(e->out, buf, sizeof buf)) > 0) {
		e->got = realloc(e->got, e->len + (size_t)n);
		if (!e->got)
			fuzz_fail("out of memory");
		memcpy(e->got + e->len, buf, (size_t)n);
		e->len += (size_t)n;
	}
}

static void pair(int sv[2])
{
	if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv) < 0)
		fuzz_fail("socketpair failed");
	fcntl(sv[1], F_SETFL, fcntl(sv[1], F_GETFL) | O_NONBLOCK);
}

/* Take every whole frame: 0 go on, -1 the stream is malformed. */
static int take(struct ctl_wire *rx, struct echo *e, size_t *frames_bytes)
{
	struct ctl_frame f;
	const uint8_t *payload = NULL;
	int rc;
	while ((rc = ctl_wire_next(rx, &f, &payload)) == 1) {
		if (f.magic != CTL_MAGIC || f.len > CTL_PAYLOAD_MAX)
			fuzz_fail("a frame with magic %#x and length %u was handed out", f.magic, f.len);
		if (f.len && !payload)
			fuzz_fail("a frame of %u payload bytes came with no payload", f.len);
		if (ctl_wire_send(&e->tx, &f, f.len ? payload : NULL) < 0)
			fuzz_fail("a frame received could not be sent on");
		*frames_bytes += CTL_FRAME_SIZE + f.len;
		drain(e);
	}
	return rc < 0 ? -1 : 0;
}

int LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	int in[2], back[2];
	pair(in);
	pair(back);
	struct ctl_wire rx;
	struct echo e = { .out = back[1] };
	if (ctl_wire_init(&rx, in[0], 0) < 0 || ctl_wire_init(&e.tx, back[0], 0) < 0)
		fuzz_fail("ctl_wire_init failed");
	size_t at = 0, frames_bytes = 0;
	int bad = 0, closed = 0;
	while (!bad && !closed) {
		if (at < size) {
			size_t want = 1 + (size_t)data[at] * 4;
			size_t n = size - at < want ? size - at : want;
			ssize_t w = write(in[1], data + at, n);
			if (w > 0)
				at += (size_t)w;
			if (at == size)
				shutdown(in[1], SHUT_WR);
		} else if (size == 0) {
			shutdown(in[1], SHUT_WR);
		}
		int r;
		while ((r = ctl_wire_read(&rx)) == 1)
			if (take(&rx, &e, &frames_bytes) < 0) {
				bad = 1;
				break;
			}
		if (r < 0)
			closed = 1;
	}
	if (!bad && take(&rx, &e, &frames_bytes) < 0)
		bad = 1;
	drain(&e);
	if (frames_bytes > size || e.len != frames_bytes || (e.len && memcmp(e.got, data, e.len) != 0))
		fuzz_fail("the frames sent on (%zu bytes) are not the %zu bytes of whole frames received",
			  e.len, frames_bytes);
	if (ctl_wire_pending(&e.tx))
		fuzz_fail("bytes still queued after the socket took everything");
	free(e.got);
	ctl_wire_close(&rx);
	ctl_wire_close(&e.tx);
	close(in[1]);
	close(back[1]);
	return 0;
}
