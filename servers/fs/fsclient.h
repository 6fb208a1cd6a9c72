/*
 * servers/fs/fsclient.h - the file system for programs.  Each call is one
 * CALL to the Request Interpreter (found as "fs" in the name service on
 * first use); data moves by MOVEDATA between the caller's buffer and the
 * servers, through a link over the buffer made for the call.  Results are
 * >= 0, or a negative FS_E* code (fsproto.h; fs_strerror names it) or a
 * kernel E_* code (E_NONAME: no file system running, E_NODEDOWN, ...).
 * Paths are absolute or relative to the root: "/a/b", "a/b".  docs/fs.md.
 */
#ifndef DPM_FSCLIENT_H
#define DPM_FSCLIENT_H
#include <stdint.h>

#include "fsproto.h"

int fs_create(const char *path);                 /* new empty file, opened: a handle */
int fs_open(const char *path);                   /* existing file: a handle          */
int fs_read(int handle, void *buf, uint32_t len);        /* bytes read, 0 at the end */
int fs_write(int handle, const void *buf, uint32_t len); /* bytes written            */
int fs_seek(int handle, int32_t offset, int whence);     /* FS_SEEK_*: new offset    */
int fs_close(int handle);
int fs_delete(const char *path);                 /* a file, or an empty directory    */
int fs_rename(const char *from, const char *to);
int fs_mkdir(const char *path);
/* Up to max entries of directory `path` into ents; returns how many the
 * directory has (which may be more than max). */
int fs_list(const char *path, struct fs_entry *ents, uint32_t max);
/* Buffer Manager counters: cache hits, misses, blocks written. */
int fs_stats(uint32_t *hits, uint32_t *misses, uint32_t *writes);
#endif
