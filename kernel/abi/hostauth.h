/*
 * kernel/abi/hostauth.h - how a node proves to a host service (the
 * meter's filter, the control hub) that it belongs to the cluster
 * (docs/network.md, Node authentication).  Shared verbatim by the kernel
 * and the host; every word little-endian, fixed layout.
 *
 * The cluster's secret (DIR/secret: 64 hex digits) reaches each node as
 * QEMU's fw_cfg file HOSTAUTH_FWCFG_NAME, never on a command line.  When
 * a node connects to a service named in its `hostauth=` word:
 *
 *   service -> node:  struct hostauth_challenge, at once (a fresh random
 *                     nonce per connection)
 *   node -> service:  struct hostauth_answer, before any byte of its own
 *                     protocol: its node id and
 *                     mac = HMAC-SHA1(key = the 64 hex digits of the secret,
 *                                     message = the challenge's 40 bytes,
 *                                     then the node id's 4 bytes)
 *
 * The service checks the MAC and from then on takes the connection for
 * that node only; a wrong answer, or none within its handshake timeout,
 * closes it.  Answers cannot be replayed: each connection has its own
 * nonce.
 */
#ifndef DPM_ABI_HOSTAUTH_H
#define DPM_ABI_HOSTAUTH_H
#include <stdint.h>

#define HOSTAUTH_FWCFG_NAME "opt/dpm/secret"
#define HOSTAUTH_KEY_LEN 64u               /* the secret's hex digits: the HMAC key */
#define HOSTAUTH_CHALLENGE_MAGIC 0x43415044u /* "DPAC" */
#define HOSTAUTH_ANSWER_MAGIC 0x41415044u    /* "DPAA" */
#define HOSTAUTH_VERSION 1u
#define HOSTAUTH_NONCE_LEN 32u
#define HOSTAUTH_MAC_LEN 20u               /* SHA-1 */

struct hostauth_challenge {
	uint32_t magic;                    /* HOSTAUTH_CHALLENGE_MAGIC */
	uint32_t version;                  /* HOSTAUTH_VERSION */
	uint8_t nonce[HOSTAUTH_NONCE_LEN];
};

struct hostauth_answer {
	uint32_t magic;                    /* HOSTAUTH_ANSWER_MAGIC */
	uint32_t node;                     /* the node's id */
	uint8_t mac[HOSTAUTH_MAC_LEN];
};

#define HOSTAUTH_CHALLENGE_SIZE 40u
#define HOSTAUTH_ANSWER_SIZE 28u
_Static_assert(sizeof(struct hostauth_challenge) == HOSTAUTH_CHALLENGE_SIZE, "wire size");
_Static_assert(sizeof(struct hostauth_answer) == HOSTAUTH_ANSWER_SIZE, "wire size");

#endif
