/*
 * kernel/net/hostauth_mac.c - HMAC-SHA1 as RFC 2104 defines it, on lwIP's
 * SHA-1 (netif/ppp/polarssl/sha1.c, built without PPP: arch/lwip.mk), and
 * the node's answer of kernel/abi/hostauth.h.  The hash itself is the kept
 * implementation; only the two-pass keyed construction is here.
 */
#include <string.h>

/* lwIP declares its SHA-1 only when PPP asks for it; the kernel asks. */
#define LWIP_INCLUDED_POLARSSL_SHA1 1
#include "netif/ppp/polarssl/sha1.h"
#include "hostauth_mac.h"

#define SHA1_BLOCK 64u

void hmac_sha1(const uint8_t *key, uint32_t klen, const uint8_t *msg, uint32_t n,
	       uint8_t out[HOSTAUTH_MAC_LEN])
{
	uint8_t pad[SHA1_BLOCK], inner[HOSTAUTH_MAC_LEN], hashed[HOSTAUTH_MAC_LEN];
	sha1_context c;
	if (klen > SHA1_BLOCK) { /* a long key is its hash (RFC 2104 section 2) */
		sha1_starts(&c);
		sha1_update(&c, key, (int)klen);
		sha1_finish(&c, hashed);
		key = hashed;
		klen = sizeof hashed;
	}
	memset(pad, 0x36, sizeof pad);
	for (uint32_t i = 0; i < klen; i++)
		pad[i] ^= key[i];
	sha1_starts(&c);
	sha1_update(&c, pad, (int)sizeof pad);
	sha1_update(&c, msg, (int)n);
	sha1_finish(&c, inner);
	for (uint32_t i = 0; i < SHA1_BLOCK; i++)
		pad[i] ^= 0x36 ^ 0x5c; /* the inner pad turned into the outer one */
	sha1_starts(&c);
	sha1_update(&c, pad, (int)sizeof pad);
	sha1_update(&c, inner, (int)sizeof inner);
	sha1_finish(&c, out);
}

void hostauth_answer_make(const uint8_t key[HOSTAUTH_KEY_LEN], const uint8_t *challenge,
			  uint32_t node, struct hostauth_answer *out)
{
	uint8_t msg[HOSTAUTH_CHALLENGE_SIZE + 4];
	memcpy(msg, challenge, HOSTAUTH_CHALLENGE_SIZE);
	for (int i = 0; i < 4; i++)
		msg[HOSTAUTH_CHALLENGE_SIZE + i] = (uint8_t)(node >> (8 * i));
	out->magic = HOSTAUTH_ANSWER_MAGIC;
	out->node = node;
	hmac_sha1(key, HOSTAUTH_KEY_LEN, msg, sizeof msg, out->mac);
}
