/*
 * hostfilter/filter/nodeauth.c - node authentication, the service's side
 * (nodeauth.h); the MAC is Nettle's HMAC-SHA1, the same function the
 * kernel builds from lwIP's SHA-1 (kernel/net/hostauth_mac.c).
 */
#include <errno.h>
#include <nettle/hmac.h>
#include <nettle/memops.h>
#include <stdio.h>
#include <string.h>
#include <sys/random.h>

#include "nodeauth.h"

int nodeauth_load(struct nodeauth_key *k, const char *path, char *err, size_t errlen)
{
	char buf[HOSTAUTH_KEY_LEN + 3];
	FILE *f = fopen(path, "r");
	if (!f) {
		snprintf(err, errlen, "cannot read the cluster's secret %s: %s", path, strerror(errno));
		return -1;
	}
	size_t n = fread(buf, 1, sizeof buf, f);
	fclose(f);
	int ok = n >= HOSTAUTH_KEY_LEN && (n == HOSTAUTH_KEY_LEN ||
					    (n == HOSTAUTH_KEY_LEN + 1 && buf[HOSTAUTH_KEY_LEN] == '\n'));
	for (size_t i = 0; ok && i < HOSTAUTH_KEY_LEN; i++)
		ok = (buf[i] >= '0' && buf[i] <= '9') || (buf[i] >= 'a' && buf[i] <= 'f');
	if (!ok) {
		snprintf(err, errlen, "%s holds no secret of %u hex digits", path, HOSTAUTH_KEY_LEN);
		return -1;
	}
	memcpy(k->key, buf, HOSTAUTH_KEY_LEN);
	return 0;
}

int nodeauth_begin(struct nodeauth *a)
{
	memset(a, 0, sizeof *a);
	a->chal.magic = HOSTAUTH_CHALLENGE_MAGIC;
	a->chal.version = HOSTAUTH_VERSION;
	size_t got = 0;
	while (got < sizeof a->chal.nonce) {
		ssize_t r = getrandom(a->chal.nonce + got, sizeof a->chal.nonce - got, 0);
		if (r < 0 && errno != EINTR)
			return -1;
		if (r > 0)
			got += (size_t)r;
	}
	return 0;
}

uint32_t nodeauth_wanted(const struct nodeauth *a)
{
	return HOSTAUTH_ANSWER_SIZE - a->have;
}

void nodeauth_answer(const struct nodeauth_key *k, const struct hostauth_challenge *c,
		     uint32_t node, struct hostauth_answer *out)
{
	struct hmac_sha1_ctx ctx;
	uint8_t id[4] = { (uint8_t)node, (uint8_t)(node >> 8), (uint8_t)(node >> 16), (uint8_t)(node >> 24) };
	hmac_sha1_set_key(&ctx, HOSTAUTH_KEY_LEN, k->key);
	hmac_sha1_update(&ctx, sizeof *c, (const uint8_t *)c);
	hmac_sha1_update(&ctx, sizeof id, id);
	out->magic = HOSTAUTH_ANSWER_MAGIC;
	out->node = node;
	hmac_sha1_digest(&ctx, HOSTAUTH_MAC_LEN, out->mac);
}

int nodeauth_feed(struct nodeauth *a, const struct nodeauth_key *k, const uint8_t *p, uint32_t n,
		  const char **why)
{
	if (n > nodeauth_wanted(a))
		n = nodeauth_wanted(a);
	memcpy(a->got + a->have, p, n);
	a->have += n;
	if (a->have >= 4) {
		uint32_t magic;
		memcpy(&magic, a->got, 4);
		if (magic != HOSTAUTH_ANSWER_MAGIC)
			return *why = "it did not answer the authentication challenge", -1;
	}
	if (a->have < HOSTAUTH_ANSWER_SIZE)
		return 0;
	struct hostauth_answer got, want;
	memcpy(&got, a->got, sizeof got);
	if (got.node == 0 || got.node > 0xff)
		return *why = "it answered for an impossible node id", -1;
	nodeauth_answer(k, &a->chal, got.node, &want);
	if (!memeql_sec(got.mac, want.mac, HOSTAUTH_MAC_LEN))
		return *why = "its authentication answer is wrong (not the cluster's secret, or not this challenge)", -1;
	a->node = got.node;
	return 1;
}
