# tests/guest/build.mk - the in-guest test programs (one per kernel-call
# family, plus the helper child they start).  tests/run-guest.sh boots a
# node per suite with `init --halt SUITE`.
GUEST_SUITES := t_links t_message t_call t_movedata t_process t_hostile t_quota t_storm t_meter t_fs t_tsp t_slowdisk t_diskerr t_deaddisk
GTEST_SRCS := tests/guest/gtest.c

PROGRAMS += $(GUEST_SUITES) t_child t_remote t_mpp
t_mpp_SRCS := tests/guest/t_mpp.c $(GTEST_SRCS)
t_remote_SRCS := tests/guest/t_remote.c $(GTEST_SRCS)
$(foreach t,$(GUEST_SUITES),$(eval $(t)_SRCS := tests/guest/$(t).c $(GTEST_SRCS)))
t_meter_SRCS += kernel/abi/tracewire.c
t_child_SRCS := tests/guest/t_child.c
t_fs_SRCS += servers/fs/fsclient.c servers/fs/fsproto.c
t_diskerr_SRCS += servers/fs/fsclient.c servers/fs/fsproto.c
t_tsp_SRCS += tests/unit/test_tsp_reference.c servers/tsp/instance.c
t_storm_SRCS += servers/tsp/instance.c
