# servers/fs/build.mk - the file system (docs/fs.md): its four servers, the
# start-up program, the test users, the two as one workload (fsload), the
# host side (`dpm disk create`), and their tests.  fs_format.h is shared by the host tool and the servers.
FS_COMMON := servers/fs/fsproto.c
PROGRAMS += fs_ri fs_dm fs_bm fs_di fsstart fsuser fsload
fs_ri_SRCS := servers/fs/ri.c $(FS_COMMON)
fs_dm_SRCS := servers/fs/dm.c $(FS_COMMON)
fs_bm_SRCS := servers/fs/bm.c servers/fs/lru.c $(FS_COMMON)
fs_di_SRCS := servers/fs/di.c $(FS_COMMON)
fsstart_SRCS := servers/fs/fsstart.c $(FS_COMMON)
fsuser_SRCS := servers/fs/fsuser.c servers/fs/fsclient.c $(FS_COMMON)
fsload_SRCS := servers/fs/fsload.c

DPM_SRCS += qemu/disk.c

$(eval $(call unit_test,test_fs_disk,tests/unit/test_fs_disk.c qemu/disk.c $(CLUSTER_CORE)))
$(eval $(call unit_test,test_fs_lru,tests/unit/test_fs_lru.c servers/fs/lru.c))
