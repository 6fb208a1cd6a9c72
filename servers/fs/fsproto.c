/*
 * servers/fs/fsproto.c - the message framing every file system process
 * shares (fsproto.h): calls, replies, paths in payloads, error names, and
 * the start-up handshake with fsstart.
 */
#include <string.h>

#include "fsproto.h"

int fs_call(int link, uint32_t op, const uint32_t args[4], const void *payload, uint32_t plen, int passlink,
	    struct fs_rhdr *rh, void *out, uint32_t out_len, uint32_t *out_got)
{
	static uint8_t req[MSG_MAX], rep[MSG_MAX];
	struct fs_hdr h = { .op = op };
	if (plen > FS_PAYLOAD_MAX)
		return FS_EINVAL;
	if (args)
		memcpy(h.arg, args, sizeof h.arg);
	memcpy(req, &h, sizeof h);
	if (plen)
		memcpy(req + sizeof h, payload, plen);
	struct message m = message_into(rep, sizeof rep);
	int r = call(link, req, (uint32_t)sizeof h + plen, passlink, &m);
	if (m.passed >= 0)
		destroylink(m.passed);
	if (r < 0)
		return r;
	if (r < (int)sizeof *rh)
		return FS_EIO;
	memcpy(rh, rep, sizeof *rh);
	uint32_t got = (uint32_t)r - (uint32_t)sizeof *rh;
	if (got > out_len)
		got = out_len;
	if (got && out)
		memcpy(out, rep + sizeof *rh, got);
	if (out_got)
		*out_got = got;
	return rh->status;
}

/* The answer fs_reply made, sent by fs_serve_forever with its wait for
 * the next request: over reply link `reply_to` (-1: none), rep_len bytes. */
static uint8_t rep[MSG_MAX];
static uint32_t rep_len;
static int reply_to = -1;

void fs_reply(const struct message *m, int32_t status, uint32_t v0, uint32_t v1, uint32_t v2,
	      const void *payload, uint32_t plen)
{
	if (m->reply < 0)
		return;
	struct fs_rhdr rh = { status, { v0, v1, v2 } };
	if (plen > MSG_MAX - sizeof rh)
		plen = 0;
	memcpy(rep, &rh, sizeof rh);
	if (plen)
		memcpy(rep + sizeof rh, payload, plen);
	rep_len = (uint32_t)sizeof rh + plen;
	reply_to = m->reply;
}

int fs_payload_paths(const uint8_t *payload, uint32_t len, const char **p1, const char **p2)
{
	const char *end1 = memchr(payload, '\0', len);
	if (!end1)
		return FS_EINVAL;
	*p1 = (const char *)payload;
	if (end1 - *p1 >= FS_PATH_MAX)
		return FS_ENAMETOOLONG;
	if (!p2)
		return 0;
	uint32_t used = (uint32_t)(end1 - *p1) + 1;
	const char *end2 = memchr(payload + used, '\0', len - used);
	if (!end2)
		return FS_EINVAL;
	*p2 = (const char *)payload + used;
	return end2 - *p2 >= FS_PATH_MAX ? FS_ENAMETOOLONG : 0;
}

int fs_keep_passed;

void fs_serve_forever(fs_server_fn serve)
{
	static uint8_t buf[MSG_MAX];
	struct message m = message_into(buf, sizeof buf);
	int len = receivemessage(&m);
	for (;;) {
		fs_keep_passed = 0;
		reply_to = -1;
		if (len < (int)sizeof(struct fs_hdr))
			fs_reply(&m, FS_EINVAL, 0, 0, 0, NULL, 0);
		else
			serve(&m, (const struct fs_hdr *)buf, buf + sizeof(struct fs_hdr),
			      (uint32_t)len - (uint32_t)sizeof(struct fs_hdr));
		if (m.passed >= 0 && !fs_keep_passed)
			destroylink(m.passed);
		/* the answer and the wait for the next request, one kernel
		 * call; a dead caller is no concern */
		m = message_into(buf, sizeof buf);
		len = reply_to >= 0 ? serve_next(reply_to, rep, rep_len, -1, &m) : receivemessage(&m);
	}
}

const char *fs_strerror(int err)
{
	switch (err) {
	case FS_ENOENT: return "no such file or directory";
	case FS_ENOSPC: return "no space left on the disk";
	case FS_EBADF: return "bad file handle";
	case FS_EEXIST: return "the name exists";
	case FS_ENOTDIR: return "not a directory";
	case FS_EISDIR: return "is a directory";
	case FS_ENOTEMPTY: return "directory not empty";
	case FS_ENAMETOOLONG: return "name too long";
	case FS_EBUSY: return "file is open";
	case FS_EFBIG: return "file too large";
	case FS_EINVAL: return "invalid argument";
	case FS_EIO: return "disk error or no file system on the disk";
	case FS_EMFILE: return "too many open files";
	case E_DISKIO: return "the disk device failed or did not answer (E_DISKIO)";
	}
	return err < 0 ? kerror_name(err) : "success";
}

int fs_announce(int32_t status, int self)
{
	int r = sendmessage(FS_SLOT_STARTER, &status, sizeof status, status == 0 ? self : -1);
	destroylink(FS_SLOT_STARTER);
	return r;
}
