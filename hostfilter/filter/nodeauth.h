/*
 * hostfilter/filter/nodeauth.h - the service's side of node authentication
 * (kernel/abi/hostauth.h), shared by `dpm filter` and the control hub: the
 * cluster's secret loaded from its file, a fresh challenge per connection,
 * and the node's answer gathered and checked (HMAC-SHA1 by Nettle, a
 * constant-time comparison).  No sockets here, so the unit tests drive it
 * byte by byte.
 */
#ifndef DPM_NODEAUTH_H
#define DPM_NODEAUTH_H
#include <stddef.h>
#include <stdint.h>

#include "kernel/abi/hostauth.h"

struct nodeauth_key {
	uint8_t key[HOSTAUTH_KEY_LEN]; /* the secret's hex digits, as the nodes use them */
};

/* Read the secret file (64 hex digits, then at most a newline).  0, or -1
 * with a message naming the file. */
int nodeauth_load(struct nodeauth_key *k, const char *path, char *err, size_t errlen);

/* One connection's handshake. */
struct nodeauth {
	struct hostauth_challenge chal;   /* what was sent */
	uint8_t got[HOSTAUTH_ANSWER_SIZE];
	uint32_t have;                    /* bytes of the answer so far */
	uint32_t node;                    /* once authenticated */
};

/* A fresh challenge (nonce from getrandom) into a; send a->chal first.
 * 0, or -1 when the system has no randomness to give. */
int nodeauth_begin(struct nodeauth *a);

/* Bytes the handshake still wants (read no more than this, so nothing of
 * the node's own protocol is taken). */
uint32_t nodeauth_wanted(const struct nodeauth *a);

/* Give it n received bytes (at most nodeauth_wanted).  Returns 0 more
 * needed, 1 authenticated (a->node set), -1 refused (why says why). */
int nodeauth_feed(struct nodeauth *a, const struct nodeauth_key *k, const uint8_t *p, uint32_t n,
		  const char **why);

/* The answer a node with key k gives to challenge c (what the kernel
 * computes, here for the tests and for tools that act as a node). */
void nodeauth_answer(const struct nodeauth_key *k, const struct hostauth_challenge *c,
		     uint32_t node, struct hostauth_answer *out);

#endif
