/*
 * tests/guest/t_fs.c - the disk and the file system on one node.  Booted
 * with a 1 MiB disk image holding an empty file system (t_fs.qemu-args):
 * the disk's kernel requests and their rights, then the file system
 * started with fsstart and every client operation and error code, a full
 * disk, a client killed in the middle of its requests, concurrent test
 * users (fsuser), and full tables that must not use up the RI's client
 * slots (`t_fs open PATH` is a one-open client for that test), and disk
 * requesters killed while they wait (`t_fs diskloop`, `t_fs diskcheck`).  Tests run in order: later ones use the servers the
 * start test brought up.
 */
#include <stdio.h>
#include <string.h>

#include "servers/fs/fsclient.h"
#include "gtest.h"
#include "servers/lib/ns.h"
#include "servers/lib/pm.h"

#define DISK_MIB 1
#define DISK_SECTORS (DISK_MIB * 2048u)

static uint8_t big[48 * 1024], back[48 * 1024];

static int disk_call(int link, const uint32_t *w, uint32_t len, void *out, uint32_t out_len)
{
	struct message m = message_into(out, out_len);
	return call(link, w, len, -1, &m);
}

static void test_disk_requests_and_rights(void)
{
	uint64_t sectors = 0;
	uint32_t info = KR_DISK_INFO, rd[4] = { KR_DISK_READ, 0, 0, 1 }, dl = KR_DISKLINK;
	static uint8_t sector[4096];
	struct fs_super sb;
	int disk = pm_disklink(0);
	CHECK(disk >= 0);
	CHECK_EQ(disk_call(disk, &info, 4, &sectors, 8), 8);
	CHECK_EQ(sectors, DISK_SECTORS);
	CHECK_EQ(disk_call(disk, rd, sizeof rd, sector, sizeof sector), 512);
	memcpy(&sb, sector, sizeof sb);
	CHECK_EQ(sb.magic, FS_MAGIC);
	CHECK_EQ(sb.nblocks, DISK_SECTORS / FS_SECTORS_PER_BLOCK);
	rd[3] = 8;
	CHECK_EQ(disk_call(disk, rd, sizeof rd, sector, sizeof sector), 4096);
	rd[3] = 0;
	CHECK_EQ(disk_call(disk, rd, sizeof rd, sector, sizeof sector), E_INVAL);
	rd[3] = 9;
	CHECK_EQ(disk_call(disk, rd, sizeof rd, sector, sizeof sector), E_INVAL);
	rd[1] = DISK_SECTORS - 1, rd[3] = 2;
	CHECK_EQ(disk_call(disk, rd, sizeof rd, sector, sizeof sector), E_BOUNDS);
	rd[1] = 0, rd[2] = 1, rd[3] = 1; /* sector 2^32 */
	CHECK_EQ(disk_call(disk, rd, sizeof rd, sector, sizeof sector), E_BOUNDS);
	CHECK_EQ(disk_call(disk, rd, 8, sector, sizeof sector), E_BADREQ);
	/* the plain kernel link has no disk rights, nor may it make disk links */
	rd[2] = 0;
	CHECK_EQ(disk_call(LINK_CONSOLE, rd, sizeof rd, sector, sizeof sector), E_RIGHTS);
	CHECK_EQ(disk_call(LINK_CONSOLE, &dl, 4, NULL, 0), E_RIGHTS);
	CHECK_EQ(disk_call(disk, &dl, 4, NULL, 0), E_RIGHTS);
	CHECK(pm_disklink(200) < 0); /* no such node */
	destroylink(disk);
}

static void test_disk_write_reads_back(void)
{
	static uint8_t req[KR_DISK_HEADER + 7 * 512], old[7 * 512], got[7 * 512];
	uint32_t at = DISK_SECTORS - 7, rd[4] = { KR_DISK_READ, at, 0, 7 }, wr[4] = { KR_DISK_WRITE, at, 0, 7 };
	int disk = pm_disklink(0);
	CHECK(disk >= 0);
	CHECK_EQ(disk_call(disk, rd, sizeof rd, old, sizeof old), (int)sizeof old);
	memcpy(req, wr, sizeof wr);
	for (uint32_t i = 0; i < sizeof old; i++)
		req[KR_DISK_HEADER + i] = (uint8_t)(i * 7 + 3);
	CHECK_EQ(disk_call(disk, (uint32_t *)req, sizeof req, NULL, 0), 0);
	CHECK_EQ(disk_call(disk, rd, sizeof rd, got, sizeof got), (int)sizeof got);
	CHECK(memcmp(got, req + KR_DISK_HEADER, sizeof got) == 0);
	wr[3] = 8; /* 8 sectors and the header do not fit a message */
	memcpy(req, wr, sizeof wr);
	CHECK_EQ(disk_call(disk, (uint32_t *)req, KR_DISK_HEADER + 512, NULL, 0), E_INVAL);
	wr[3] = 2; /* length disagrees with the count */
	memcpy(req, wr, sizeof wr);
	CHECK_EQ(disk_call(disk, (uint32_t *)req, KR_DISK_HEADER + 512, NULL, 0), E_BADREQ);
	wr[3] = 7;
	memcpy(req, wr, sizeof wr);
	memcpy(req + KR_DISK_HEADER, old, sizeof old);
	CHECK_EQ(disk_call(disk, (uint32_t *)req, sizeof req, NULL, 0), 0);
	destroylink(disk);
}

/* `t_fs diskloop`: read sectors 8..15 until killed.  `t_fs diskcheck`:
 * read sector 0 fifty times, each must hold the superblock (exit 0). */
static int disk_loop(void)
{
	static uint8_t buf[4096];
	uint32_t rd[4] = { KR_DISK_READ, 8, 0, 8 };
	int disk = pm_disklink(0);
	for (;;)
		if (disk < 0 || disk_call(disk, rd, sizeof rd, buf, sizeof buf) != 4096)
			return 1;
}

static int disk_check(void)
{
	static uint8_t buf[512];
	uint32_t rd[4] = { KR_DISK_READ, 0, 0, 1 };
	struct fs_super sb;
	int disk = pm_disklink(0);
	for (int i = 0; i < 50; i++) {
		memset(buf, 0, sizeof buf);
		if (disk < 0 || disk_call(disk, rd, sizeof rd, buf, sizeof buf) != 512)
			return 1;
		memcpy(&sb, buf, sizeof sb);
		if (sb.magic != FS_MAGIC)
			return 2;
	}
	return 0;
}

static int run_program(const char *const argv[]);
static void spin_ms(uint32_t ms);

/* Two processes reading the disk, killed while they wait for it (in
 * virtual time one request is with the device, the other queued behind
 * it: kernel/disk.c): the disk goes on serving, and a process created
 * after them (likely in a freed slot) gets its own replies, not theirs. */
static void test_disk_requesters_killed_while_waiting(void)
{
	const char *loop[] = { "t_fs", "diskloop", NULL }, *check[] = { "t_fs", "diskcheck", NULL };
	uint32_t a, b;
	struct kr_exit_notice n;
	CHECK_EQ(spawn_child(loop, &a, NULL), 0);
	CHECK_EQ(spawn_child(loop, &b, NULL), 0);
	spin_ms(30);
	CHECK_EQ(pm_kill(a), 0);
	CHECK_EQ(pm_kill(b), 0);
	CHECK_EQ(wait_child(a, &n), 0);
	CHECK_EQ(n.reason, EXIT_KILLED);
	CHECK_EQ(wait_child(b, &n), 0);
	CHECK_EQ(n.reason, EXIT_KILLED);
	CHECK_EQ(run_program(check), 0);
	CHECK_EQ(run_program(check), 0);
}

static int run_program(const char *const argv[])
{
	uint32_t task;
	struct kr_exit_notice n;
	int r = spawn_child(argv, &task, NULL);
	if (r < 0)
		return r;
	if ((r = wait_child(task, &n)) < 0)
		return r;
	return n.reason == EXIT_NORMAL ? n.status : -1000 - (int)n.reason;
}

static void test_no_fs_before_start(void)
{
	CHECK_EQ(fs_open("/x"), E_NONAME);
}

static void test_fsstart_brings_the_servers_up(void)
{
	const char *bad[] = { "fsstart", "--xx", "1", NULL };
	const char *no_node[] = { "fsstart", "--di", "7", NULL };
	const char *ok[] = { "fsstart", NULL };
	CHECK_EQ(run_program(bad), 2);
	CHECK_EQ(run_program(no_node), 1); /* node 7 does not exist */
	CHECK_EQ(run_program(ok), 0);
	int l = ns_lookup(FS_SERVICE_NAME);
	CHECK(l >= 0);
	destroylink(l);
}

static void fill(uint8_t *b, uint32_t n, uint32_t seed)
{
	for (uint32_t i = 0; i < n; i++)
		b[i] = (uint8_t)((i * 2654435761u + seed) >> 13);
}

static void test_write_seek_read_across_blocks(void)
{
	fill(big, sizeof big, 1);
	int h = fs_create("/data");
	CHECK(h >= 0);
	CHECK_EQ(fs_write(h, big, 1000), 1000);
	CHECK_EQ(fs_write(h, big + 1000, sizeof big - 1000), (int)sizeof big - 1000); /* past 12 direct blocks */
	CHECK_EQ(fs_seek(h, 0, FS_SEEK_CUR), (int)sizeof big);
	CHECK_EQ(fs_seek(h, 0, FS_SEEK_END), (int)sizeof big);
	CHECK_EQ(fs_seek(h, 0, FS_SEEK_SET), 0);
	memset(back, 0, sizeof back);
	CHECK_EQ(fs_read(h, back, sizeof back), (int)sizeof back);
	CHECK(memcmp(back, big, sizeof big) == 0);
	CHECK_EQ(fs_read(h, back, 10), 0); /* at the end */
	CHECK_EQ(fs_seek(h, 30000, FS_SEEK_SET), 30000);
	CHECK_EQ(fs_read(h, back, 100), 100);
	CHECK(memcmp(back, big + 30000, 100) == 0);
	CHECK_EQ(fs_seek(h, -50, FS_SEEK_END), (int)sizeof big - 50);
	CHECK_EQ(fs_read(h, back, 100), 50);
	CHECK_EQ(fs_seek(h, -1, FS_SEEK_SET), FS_EINVAL);
	CHECK_EQ(fs_seek(h, 0, 9), FS_EINVAL);
	CHECK_EQ(fs_seek(h, (int32_t)FS_MAX_FILE + 1, FS_SEEK_SET), FS_EFBIG);
	CHECK_EQ(fs_close(h), 0);
	h = fs_open("data"); /* relative to the root */
	CHECK(h >= 0);
	CHECK_EQ(fs_read(h, back, sizeof back), (int)sizeof back);
	CHECK(memcmp(back, big, sizeof big) == 0);
	CHECK_EQ(fs_close(h), 0);
}

static void test_overwrite_and_holes(void)
{
	uint8_t b[64];
	int h = fs_open("/data");
	CHECK(h >= 0);
	CHECK_EQ(fs_seek(h, 2040, FS_SEEK_SET), 2040);
	CHECK_EQ(fs_write(h, "0123456789abcdef", 16), 16); /* across a block boundary */
	CHECK_EQ(fs_seek(h, 2040, FS_SEEK_SET), 2040);
	CHECK_EQ(fs_read(h, b, 16), 16);
	CHECK(memcmp(b, "0123456789abcdef", 16) == 0);
	CHECK_EQ(fs_close(h), 0);
	h = fs_create("/sparse");
	CHECK(h >= 0);
	CHECK_EQ(fs_seek(h, 10000, FS_SEEK_SET), 10000);
	CHECK_EQ(fs_write(h, "end", 3), 3);
	CHECK_EQ(fs_seek(h, 4000, FS_SEEK_SET), 4000);
	memset(b, 0xff, sizeof b);
	CHECK_EQ(fs_read(h, b, sizeof b), (int)sizeof b);
	for (uint32_t i = 0; i < sizeof b; i++)
		CHECK_EQ(b[i], 0);
	CHECK_EQ(fs_close(h), 0);
}

static void test_names_errors(void)
{
	char longname[64];
	memset(longname, 'n', sizeof longname);
	longname[0] = '/', longname[FS_NAME_MAX + 2] = '\0';
	CHECK_EQ(fs_open("/missing"), FS_ENOENT);
	CHECK_EQ(fs_open("/nodir/file"), FS_ENOENT);
	CHECK_EQ(fs_create("/data"), FS_EEXIST);
	CHECK_EQ(fs_create("/data/inside"), FS_ENOTDIR);
	CHECK_EQ(fs_create(longname), FS_ENAMETOOLONG);
	longname[FS_NAME_MAX + 1] = '\0'; /* exactly FS_NAME_MAX characters */
	int h = fs_create(longname);
	CHECK(h >= 0);
	CHECK_EQ(fs_close(h), 0);
	CHECK_EQ(fs_delete(longname), 0);
	CHECK_EQ(fs_open("/"), FS_EISDIR);
	CHECK_EQ(fs_delete("/"), FS_EINVAL);
	CHECK_EQ(fs_delete("/missing"), FS_ENOENT);
}

static void test_bad_handles(void)
{
	char b[8];
	CHECK_EQ(fs_read(12345, b, sizeof b), FS_EBADF);
	CHECK_EQ(fs_write(-1, b, sizeof b), FS_EBADF);
	CHECK_EQ(fs_close(7), FS_EBADF);
	int h = fs_open("/data");
	CHECK(h >= 0);
	CHECK_EQ(fs_close(h), 0);
	CHECK_EQ(fs_close(h), FS_EBADF); /* closed */
	CHECK_EQ(fs_seek(h, 0, FS_SEEK_SET), FS_EBADF);
	int h2 = fs_open("/data");
	CHECK(h2 >= 0);
	CHECK_EQ(fs_read(h, b, sizeof b), FS_EBADF); /* same slot, old handle */
	CHECK_EQ(fs_close(h2), 0);
}

static int find(const struct fs_entry *e, int n, const char *name)
{
	for (int i = 0; i < n; i++)
		if (!strcmp(e[i].name, name))
			return i;
	return -1;
}

static void test_directories_and_listing(void)
{
	static struct fs_entry e[16];
	CHECK_EQ(fs_mkdir("/dir"), 0);
	CHECK_EQ(fs_mkdir("/dir"), FS_EEXIST);
	CHECK_EQ(fs_mkdir("/dir/sub"), 0);
	int h = fs_create("/dir/sub/f");
	CHECK(h >= 0);
	CHECK_EQ(fs_write(h, "hello", 5), 5);
	CHECK_EQ(fs_close(h), 0);
	int n = fs_list("/", e, 16);
	CHECK_EQ(n, 3); /* data, sparse, dir */
	int d = find(e, n, "dir"), f = find(e, n, "data");
	CHECK(d >= 0 && f >= 0);
	CHECK_EQ(e[d].type, FS_T_DIR);
	CHECK_EQ(e[f].type, FS_T_FILE);
	CHECK_EQ(e[f].size, sizeof big);
	CHECK_EQ(fs_list("/", e, 1), 3); /* counts all, fills one */
	CHECK_EQ(fs_list("/", NULL, 0), 3);
	n = fs_list("/dir/sub", e, 16);
	CHECK_EQ(n, 1);
	CHECK(!strcmp(e[0].name, "f"));
	CHECK_EQ(e[0].size, 5);
	CHECK_EQ(fs_list("/data", e, 16), FS_ENOTDIR);
	CHECK_EQ(fs_list("/none", e, 16), FS_ENOENT);
	CHECK_EQ(fs_delete("/dir"), FS_ENOTEMPTY);
}

static void test_rename(void)
{
	static struct fs_entry e[4];
	char b[8];
	CHECK_EQ(fs_rename("/dir/sub/f", "/g"), 0);
	CHECK_EQ(fs_open("/dir/sub/f"), FS_ENOENT);
	int h = fs_open("/g");
	CHECK(h >= 0);
	CHECK_EQ(fs_read(h, b, sizeof b), 5);
	CHECK(memcmp(b, "hello", 5) == 0);
	CHECK_EQ(fs_close(h), 0);
	CHECK_EQ(fs_rename("/g", "/data"), FS_EEXIST);
	CHECK_EQ(fs_rename("/nothing", "/x"), FS_ENOENT);
	CHECK_EQ(fs_rename("/dir", "/dir/sub/dir"), FS_EINVAL); /* into itself */
	CHECK_EQ(fs_rename("/dir/sub", "/sub2"), 0);
	CHECK_EQ(fs_list("/dir", e, 4), 0);
}

static void test_delete(void)
{
	int h = fs_open("/g");
	CHECK(h >= 0);
	CHECK_EQ(fs_delete("/g"), FS_EBUSY);
	CHECK_EQ(fs_close(h), 0);
	CHECK_EQ(fs_delete("/g"), 0);
	CHECK_EQ(fs_open("/g"), FS_ENOENT);
	CHECK_EQ(fs_delete("/dir"), 0);
	CHECK_EQ(fs_delete("/sub2"), 0);
	CHECK_EQ(fs_delete("/sparse"), 0);
}

/* Write until the disk is full; deleting the file gives the space back. */
static void test_full_disk_is_no_space(void)
{
	int h = fs_create("/filler");
	CHECK(h >= 0);
	int r = 0, total = 0;
	for (int i = 0; i < 1000 && (r = fs_write(h, big, sizeof big)) == (int)sizeof big; i++)
		total += r;
	if (r > 0) { /* the last write was cut short by the full disk */
		total += r;
		r = fs_write(h, big, sizeof big);
	}
	CHECK_EQ(r, FS_ENOSPC);
	CHECK(total > 700 * 1024); /* most of the 1 MiB is data blocks */
	CHECK_EQ(fs_close(h), 0);
	int small = fs_create("/small");
	CHECK(small >= 0);
	CHECK_EQ(fs_write(small, big, 10), FS_ENOSPC);
	CHECK_EQ(fs_delete("/filler"), 0);
	CHECK_EQ(fs_write(small, big, 10), 10);
	CHECK_EQ(fs_close(small), 0);
	CHECK_EQ(fs_delete("/small"), 0);
}

static void spin_ms(uint32_t ms)
{
	uint64_t start, now;
	node_time(&start, NULL);
	do
		node_time(&now, NULL);
	while (now - start < (uint64_t)ms * 1000000u);
}

/* A user killed in the middle of its requests leaves the servers serving. */
static void test_client_killed_mid_request(void)
{
	const char *argv[] = { "fsuser", "rand", "/victim", "200000", "100000", "5", NULL };
	uint32_t task;
	struct kr_exit_notice n;
	CHECK_EQ(spawn_child(argv, &task, NULL), 0);
	spin_ms(300);
	CHECK_EQ(pm_kill(task), 0);
	CHECK_EQ(wait_child(task, &n), 0);
	CHECK_EQ(n.reason, EXIT_KILLED);
	int h = fs_open("/data");
	CHECK(h >= 0);
	CHECK_EQ(fs_read(h, back, 4096), 4096);
	CHECK_EQ(fs_close(h), 0);
	const char *seq[] = { "fsuser", "seq", "/after", "20000", "3", NULL };
	CHECK_EQ(run_program(seq), 0);
	CHECK_EQ(fs_delete("/victim"), 0); /* the dead client's handle is reclaimed */
}

/* Sequential and random users at once, each verifying its own file. */
static void test_concurrent_users_verify(void)
{
	const char *a[] = { "fsuser", "seq", "/u1", "60000", "11", NULL };
	const char *b[] = { "fsuser", "rand", "/u2", "30000", "200", "12", NULL };
	const char *c[] = { "fsuser", "rand", "/u3", "20000", "200", "13", NULL };
	const char *d[] = { "fsuser", "seq", "/u4", "45000", "14", NULL };
	const char *const *users[] = { a, b, c, d };
	uint32_t task[4];
	struct kr_exit_notice n;
	for (int i = 0; i < 4; i++)
		CHECK_EQ(spawn_child(users[i], &task[i], NULL), 0);
	for (int i = 0; i < 4; i++) {
		CHECK_EQ(wait_child(task[i], &n), 0);
		CHECK_EQ(n.reason, EXIT_NORMAL);
		CHECK_EQ(n.status, 0);
	}
}

static void test_users_refuse_bad_usage(void)
{
	const char *a[] = { "fsuser", "seq", "/u", "0", "1", NULL };
	const char *b[] = { "fsuser", "rand", "/u", "10", NULL };
	CHECK_EQ(run_program(a), 2);
	CHECK_EQ(run_program(b), 2);
}

/* Full tables must not cost a client slot: every process whose open
 * failed with FS_EMFILE used to keep the client slot the RI gave it (with
 * no open file, so never reaped), until the 40 slots were gone for good.
 * The children are `t_fs open PATH` (main below): open, close, exit with
 * the error code negated. */
static void test_full_tables_leave_no_client_slot_behind(void)
{
	static int h[130];
	const char *child[] = { "t_fs", "open", "/data", NULL };
	int n = 0, r;
	while (n < 130 && (r = fs_open("/data")) >= 0)
		h[n++] = r;
	CHECK_EQ(r, FS_EMFILE); /* the table of open files is full */
	CHECK(n > 0);
	for (int i = 0; i < 45; i++) /* more processes than client slots */
		CHECK_EQ(run_program(child), -FS_EMFILE);
	for (int i = 0; i < n; i++)
		CHECK_EQ(fs_close(h[i]), 0);
	int mine = fs_open("/data"); /* this process takes a client slot again */
	CHECK(mine >= 0);
	CHECK_EQ(run_program(child), 0); /* and a new client still finds one */
	CHECK_EQ(run_program(child), 0);
	CHECK_EQ(fs_close(mine), 0);
}

static void test_cache_counts_hits(void)
{
	uint32_t hits, misses, writes, hits2;
	CHECK_EQ(fs_stats(&hits, &misses, &writes), 0);
	CHECK(writes > 0);
	int h = fs_open("/data");
	CHECK(h >= 0);
	CHECK_EQ(fs_read(h, back, 2048), 2048);
	CHECK_EQ(fs_seek(h, 0, FS_SEEK_SET), 0);
	CHECK_EQ(fs_read(h, back, 2048), 2048);
	CHECK_EQ(fs_close(h), 0);
	CHECK_EQ(fs_stats(&hits2, &misses, &writes), 0);
	CHECK(hits2 > hits); /* the second read of the block came from the cache */
}

GTESTS(
	{ "disk requests and rights", test_disk_requests_and_rights },
	{ "disk write reads back", test_disk_write_reads_back },
	{ "disk requesters killed while waiting", test_disk_requesters_killed_while_waiting },
	{ "no fs before start", test_no_fs_before_start },
	{ "fsstart brings the servers up", test_fsstart_brings_the_servers_up },
	{ "write, seek, read across blocks", test_write_seek_read_across_blocks },
	{ "overwrite and holes", test_overwrite_and_holes },
	{ "name errors", test_names_errors },
	{ "bad handles", test_bad_handles },
	{ "directories and listing", test_directories_and_listing },
	{ "rename", test_rename },
	{ "delete", test_delete },
	{ "full disk is no space", test_full_disk_is_no_space },
	{ "client killed mid-request", test_client_killed_mid_request },
	{ "concurrent users verify", test_concurrent_users_verify },
	{ "users refuse bad usage", test_users_refuse_bad_usage },
	{ "cache counts hits", test_cache_counts_hits },
	{ "full tables leave no client slot behind", test_full_tables_leave_no_client_slot_behind },
);

/* ---- the cluster runs (tests/cluster/cluster_test_fs.sh) ----
 * `t_fs cluster`: the servers on four nodes, users on every node, then
 * files left for `t_fs persist`, which runs after the cluster was stopped
 * and started again on the same disk image (servers placed differently). */

#define KEEP_FILES 3
#define KEEP_SIZE 30000u

static void test_servers_spread_over_nodes(void)
{
	const char *argv[] = { "fsstart", "--ri", "1", "--dm", "2", "--bm", "3", "--di", "4", NULL };
	CHECK_EQ(run_program(argv), 0);
}

static void test_users_on_every_node_verify(void)
{
	enum { NUSERS = 12 };
	static char names[NUSERS][16], seeds[NUSERS][8];
	uint32_t task[NUSERS], hits, misses, writes;
	uint64_t start, end;
	struct kr_exit_notice n;
	node_time(&start, NULL);
	for (int i = 0; i < NUSERS; i++) {
		snprintf(names[i], sizeof names[i], "/user%d", i);
		snprintf(seeds[i], sizeof seeds[i], "%d", 100 + i);
		const char *seq[] = { "fsuser", "seq", names[i], "40000", seeds[i], NULL };
		const char *rnd[] = { "fsuser", "rand", names[i], "24000", "120", seeds[i], NULL };
		CHECK_EQ(spawn_child_on(1 + (uint32_t)i % 4, i % 2 ? rnd : seq, -1, &task[i], NULL), 0);
	}
	int good = 0;
	for (int i = 0; i < NUSERS; i++)
		if (wait_child(task[i], &n) == 0 && n.reason == EXIT_NORMAL && n.status == 0)
			good++;
	node_time(&end, NULL);
	if (fs_stats(&hits, &misses, &writes) == 0)
		printf("# %d users done in %u ms; buffer manager: %u hits, %u misses, %u disk writes\n", NUSERS,
		       (unsigned)((end - start) / 1000000u), (unsigned)hits, (unsigned)misses, (unsigned)writes);
	CHECK_EQ(good, NUSERS);
}

static void keep_name(char *out, int i) { snprintf(out, 16, "/kept/f%d", i); }

static void test_files_left_for_the_restart(void)
{
	char name[16];
	int r = fs_mkdir("/kept");
	CHECK(r == 0 || r == FS_EEXIST);
	for (int i = 0; i < KEEP_FILES; i++) {
		keep_name(name, i);
		fill(big, KEEP_SIZE, (uint32_t)i + 77);
		fs_delete(name);
		int h = fs_create(name);
		CHECK(h >= 0);
		CHECK_EQ(fs_write(h, big, KEEP_SIZE), (int)KEEP_SIZE);
		CHECK_EQ(fs_close(h), 0);
	}
}

static void test_servers_placed_anew(void)
{
	const char *argv[] = { "fsstart", "--ri", "2", "--dm", "3", "--bm", "1", "--di", "4", NULL };
	CHECK_EQ(run_program(argv), 0);
}

static void test_files_survived_the_restart(void)
{
	static struct fs_entry e[32];
	char name[16];
	CHECK_EQ(fs_list("/kept", e, 32), KEEP_FILES);
	for (int i = 0; i < KEEP_FILES; i++) {
		keep_name(name, i);
		fill(big, KEEP_SIZE, (uint32_t)i + 77);
		int h = fs_open(name);
		CHECK(h >= 0);
		memset(back, 0, sizeof back);
		CHECK_EQ(fs_read(h, back, sizeof back), (int)KEEP_SIZE);
		CHECK(memcmp(back, big, KEEP_SIZE) == 0);
		CHECK_EQ(fs_close(h), 0);
	}
	int n = fs_list("/", e, 32);
	CHECK_EQ(n, 13); /* user0..user11 and kept */
	for (int i = 0; i < 12; i++) {
		snprintf(name, sizeof name, "user%d", i);
		int at = find(e, n, name);
		CHECK(at >= 0);
		CHECK_EQ(e[at].size, i % 2 ? 24000 : 40000);
	}
}

static const struct gtest cluster_tests[] = {
	{ "servers spread over nodes 1-4", test_servers_spread_over_nodes },
	{ "12 users on every node verify", test_users_on_every_node_verify },
	{ "files left for the restart", test_files_left_for_the_restart },
};

static const struct gtest persist_tests[] = {
	{ "servers placed anew on the same disk", test_servers_placed_anew },
	{ "files survived the restart", test_files_survived_the_restart },
	{ "users run after the restart", test_users_on_every_node_verify },
};

int main(int argc, char **argv)
{
	if (argc == 3 && !strcmp(argv[1], "open")) { /* a client for the test above */
		int h = fs_open(argv[2]);
		return h < 0 ? -h : fs_close(h) < 0;
	}
	if (argc == 2 && !strcmp(argv[1], "diskloop"))
		return disk_loop();
	if (argc == 2 && !strcmp(argv[1], "diskcheck"))
		return disk_check();
	if (argc == 2 && !strcmp(argv[1], "cluster"))
		return gtest_run("fs-cluster", cluster_tests, sizeof cluster_tests / sizeof cluster_tests[0]);
	if (argc == 2 && !strcmp(argv[1], "persist"))
		return gtest_run("fs-persist", persist_tests, sizeof persist_tests / sizeof persist_tests[0]);
	return gtest_run("fs", gtests, sizeof gtests / sizeof gtests[0]);
}
