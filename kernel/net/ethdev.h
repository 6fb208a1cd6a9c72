/*
 * kernel/net/ethdev.h - an Ethernet device as the network stack sees it,
 * whatever drives it (the virtio-net driver today).  The driver owns the
 * buffers: the stack asks for a transmit buffer, fills it with one frame and
 * sends it; received frames are handed up one at a time through `input`
 * and are only valid during that call.
 */
#ifndef DPM_ETHDEV_H
#define DPM_ETHDEV_H
#include <stdint.h>

#define ETH_FRAME_MAX 1514   /* destination, source, type, 1500 bytes     */

struct ethdev {
	uint8_t mac[6];
	const char *driver_name;
	void *driver;
	/* A buffer of ETH_FRAME_MAX bytes for the next frame, or NULL when
	 * every transmit buffer is still with the device. */
	uint8_t *(*tx_buffer)(struct ethdev *e);
	/* Send the frame written into the buffer tx_buffer returned. */
	void (*tx_send)(struct ethdev *e, uint8_t *frame, uint32_t len);
	/* Hand every frame received so far to `input`; reclaim sent buffers. */
	void (*poll)(struct ethdev *e);
	/* Set by the stack (kernel/net/netif.c). */
	void (*input)(struct ethdev *e, const uint8_t *frame, uint32_t len);
	void *stack;
};

/* A driver registers each device once it can send and receive. */
void ethdev_register(struct ethdev *e);
/* A driver calls this from its interrupt handler: frames are waiting. */
void ethdev_interrupt(struct ethdev *e);
#endif
