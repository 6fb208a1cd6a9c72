/*
 * servers/fs/fsproto.h - the messages of the file system: a client to the
 * Request Interpreter (RI), and the servers to each other along the paths
 * of the thesis's Fig. 5.14:
 *
 *   client -> RI -> Buffer Manager (BM) -> Disk Interface (DI) -> kernel
 *             RI -> Directory Manager (DM) -> BM
 *
 * Every request is a CALL: a struct fs_hdr (operation and four words), then
 * a payload (paths "a\0b\0", or block data); every reply a struct fs_rhdr
 * (status >= 0 or an error code, three words), then a payload.  File data
 * never travels in messages between client and servers: the client passes a
 * link with a data area over its buffer and the BM moves the bytes with
 * MOVEDATA.  Calls only go down the paths above, so the servers cannot
 * deadlock, and no server ever waits for a client.  docs/fs.md.
 */
#ifndef DPM_FSPROTO_H
#define DPM_FSPROTO_H
#include <stdint.h>

#include "servers/lib/demos.h"
#include "kernel/abi/fs_disk.h"

#define FS_PATH_MAX 256          /* bytes of a path, with its NUL            */
#define FS_SERVICE_NAME "fs"     /* the RI's name in the name service         */

/* Error codes (negative; kernel E_* codes such as E_NODEDOWN pass through). */
enum fs_error {
	FS_ENOENT = -100,        /* no such file or directory                */
	FS_ENOSPC = -101,        /* no free block, inode or directory slot   */
	FS_EBADF = -102,         /* not an open handle of this process       */
	FS_EEXIST = -103,        /* the name exists already                  */
	FS_ENOTDIR = -104,       /* a path component is not a directory      */
	FS_EISDIR = -105,        /* a directory where a file is needed       */
	FS_ENOTEMPTY = -106,     /* deleting a directory that has entries    */
	FS_ENAMETOOLONG = -107,  /* a component over FS_NAME_MAX, a path over FS_PATH_MAX */
	FS_EBUSY = -108,         /* deleting or renaming an open file        */
	FS_EFBIG = -109,         /* beyond FS_MAX_FILE                       */
	FS_EINVAL = -110,        /* bad argument or malformed request        */
	FS_EIO = -111,           /* the disk failed, or holds no file system */
	FS_EMFILE = -112         /* the server's table of open files is full */
};

/* Client -> RI. */
enum fs_op {
	FS_OP_CREATE = 1,  /* path                      -> handle         */
	FS_OP_OPEN,        /* path                      -> handle         */
	FS_OP_READ,        /* handle, len; link (write) -> bytes read     */
	FS_OP_WRITE,       /* handle, len; link (read)  -> bytes written  */
	FS_OP_SEEK,        /* handle, offset, whence    -> new offset     */
	FS_OP_CLOSE,       /* handle                                      */
	FS_OP_DELETE,      /* path                                        */
	FS_OP_RENAME,      /* old path, new path                          */
	FS_OP_LIST,        /* path, capacity; link      -> entries in the directory */
	FS_OP_MKDIR,       /* path                                        */
	FS_OP_STATS        /* -> val: BM hits, misses, disk writes        */
};

/* RI -> DM. */
enum dm_op {
	DM_LOOKUP = 32,    /* path -> val0 inode number; payload struct fs_inode */
	DM_CREATE,         /* type, path -> as DM_LOOKUP                   */
	DM_REMOVE,         /* path                                         */
	DM_RENAME,         /* old, new                                     */
	DM_LIST,           /* capacity, path; link -> entries in the directory */
	DM_ALLOC,          /* -> val0 a new block, zeroed                  */
	DM_PUTINODE        /* inode number; payload struct fs_inode        */
};

/* RI, DM -> BM. */
enum bm_op {
	BM_READ = 48,      /* block, offset, len, client offset; link: data to the client */
	BM_WRITE,          /* the same, data from the client               */
	BM_GET,            /* block, offset, len -> payload the bytes      */
	BM_PUT,            /* block, offset; payload the bytes             */
	BM_ZERO,           /* block                                        */
	BM_STATS           /* -> val hits, misses, disk writes             */
};

/* BM -> DI. */
enum di_op {
	DI_READ = 64,      /* block -> payload FS_BLOCK bytes              */
	DI_WRITE           /* block; payload FS_BLOCK bytes                */
};

enum fs_whence { FS_SEEK_SET = 0, FS_SEEK_CUR = 1, FS_SEEK_END = 2 };

struct fs_hdr {
	uint32_t op;
	uint32_t arg[4];
};

struct fs_rhdr {
	int32_t status;
	uint32_t val[3];
};

/* What FS_OP_LIST / DM_LIST write into the client's buffer, one a entry. */
struct fs_entry {
	uint32_t type;           /* FS_T_FILE or FS_T_DIR */
	uint32_t size;
	char name[FS_NAME_MAX + 1];
};

#define FS_PAYLOAD_MAX (MSG_MAX - sizeof(struct fs_hdr))

/* A CALL with the framing above.  `out` receives up to out_len payload
 * bytes of the reply; *out_got (may be NULL) how many came; *passed_back
 * (may be NULL) a link the reply carries, else it is destroyed.  Returns
 * the reply's status or a kernel error of the call. */
int fs_call(int link, uint32_t op, const uint32_t args[4], const void *payload, uint32_t plen, int passlink,
	    struct fs_rhdr *rh, void *out, uint32_t out_len, uint32_t *out_got);

/* Answer a request received as `m` (no-op when it has no reply link):
 * the answer goes when `serve` returns to fs_serve_forever, in one kernel
 * call with the wait for the next request (REPLYRECEIVE), after the
 * request's passed link is destroyed. */
void fs_reply(const struct message *m, int32_t status, uint32_t v0, uint32_t v1, uint32_t v2,
	      const void *payload, uint32_t plen);

/* The two paths of a request payload (the second may be NULL). */
int fs_payload_paths(const uint8_t *payload, uint32_t len, const char **p1, const char **p2);

/* A server's request loop: receive, hand each well-formed request to
 * `serve` (which answers with fs_reply), answer malformed ones FS_EINVAL,
 * destroy the passed link unless `serve` set fs_keep_passed, then send the
 * answer and receive the next request in one kernel call.  Never returns. */
typedef void (*fs_server_fn)(const struct message *m, const struct fs_hdr *h, const uint8_t *payload,
			     uint32_t plen);
void fs_serve_forever(fs_server_fn serve) __attribute__((noreturn));
extern int fs_keep_passed;

/* "no such file or directory", ... (kernel codes through kerror_name). */
const char *fs_strerror(int err);

/* Server start-up: the link fsstart gave in slot FS_SLOT_STARTER; send it
 * `status` and (status 0) a link to ourselves for requests, then drop it. */
#define FS_SLOT_STARTER 4
#define FS_SLOT_PEER1 5  /* BM: DI;  DM: BM;  RI: DM */
#define FS_SLOT_PEER2 6  /* RI: BM */
int fs_announce(int32_t status, int self);
#endif
