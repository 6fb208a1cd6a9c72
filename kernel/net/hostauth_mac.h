/*
 * kernel/net/hostauth_mac.h - the MAC of kernel/abi/hostauth.h: HMAC-SHA1
 * (RFC 2104) over lwIP's SHA-1 (the PolarSSL code lwIP ships for PPP,
 * compiled into the kernel on its own, arch/lwip.mk).  Pure: no kernel
 * state, so the host unit tests check it against RFC 2202's vectors and
 * against the host's library (tests/unit/test_hostauth.c).
 */
#ifndef DPM_HOSTAUTH_MAC_H
#define DPM_HOSTAUTH_MAC_H
#include <stdint.h>

#include "kernel/abi/hostauth.h"

/* HMAC-SHA1 of msg[0..n) under key[0..klen). */
void hmac_sha1(const uint8_t *key, uint32_t klen, const uint8_t *msg, uint32_t n,
	       uint8_t out[HOSTAUTH_MAC_LEN]);

/* The answer to challenge (HOSTAUTH_CHALLENGE_SIZE bytes as received) for
 * node under the secret's key. */
void hostauth_answer_make(const uint8_t key[HOSTAUTH_KEY_LEN], const uint8_t *challenge,
			  uint32_t node, struct hostauth_answer *out);
#endif
