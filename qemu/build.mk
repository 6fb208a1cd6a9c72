# qemu/build.mk - the `dpm` command's own parts: its dispatcher
# (qemu/dpm.c, qemu/dispatch.c), the commands it owns (qemu/commands/:
# cluster, control, record, disk, version), the cluster machinery they use
# (qemu/cluster/), the controller (qemu/control/), and their unit tests.
# The cluster suite itself is tests/cluster/build.mk; the scripts the
# demo and study targets run are qemu/scripts/.

# (qemu/disk.c, the image writer, is listed by servers/fs/build.mk with its test.)
DPM_SRCS += qemu/dispatch.c qemu/commands/version.c qemu/commands/disk.c

# `dpm cluster` (docs/cluster.md): the file parser, state, processes,
# network probes and QEMU command line (the core the unit tests link), the
# supervisor and the directory defaults; the group's commands.
CLUSTER_CORE := qemu/cluster/cluster_file.c qemu/cluster/cluster_vtime.c qemu/cluster/cluster_state.c \
	qemu/cluster/cluster_proc.c qemu/cluster/cluster_net.c qemu/cluster/cluster_qemu.c \
	qemu/cluster/cluster_mtime.c
CLUSTER_LIB := qemu/cluster/cluster_dir.c qemu/cluster/cluster_supervisor.c \
	qemu/cluster/cluster_default.c qemu/cluster/bootimage_names.c
CLUSTER_CMDS := qemu/commands/cluster.c qemu/commands/cluster_up.c \
	qemu/commands/cluster_status.c qemu/commands/cluster_console.c \
	qemu/commands/cluster_down.c qemu/commands/cluster_hub.c

DPM_SRCS += $(CLUSTER_CORE) $(CLUSTER_LIB) $(CLUSTER_CMDS)

# The default cluster file is assembled in (.incbin).
$(BUILD)/host/qemu/cluster/cluster_default.o: qemu/cluster/default.cluster

$(eval $(call unit_test,test_cluster_file,tests/unit/test_cluster_file.c $(CLUSTER_CORE)))
$(eval $(call unit_test,test_cluster_state,tests/unit/test_cluster_state.c $(CLUSTER_CORE)))
$(eval $(call unit_test,test_cluster_qemu,tests/unit/test_cluster_qemu.c $(CLUSTER_CORE)))
$(eval $(call unit_test,test_cluster_mtime,tests/unit/test_cluster_mtime.c $(CLUSTER_CORE)))

# `dpm control` and `dpm record` (docs/control.md): the interpreter, its
# state machine and flags (the core the unit test links), the nodes' side
# over the cluster's host link and the hub's wire; the two commands.
CONTROL_CORE := qemu/control/control_cmd.c qemu/control/control_state.c \
	qemu/control/control_flags.c
CONTROL_NET := qemu/control/control_net.c qemu/control/ctl_wire.c qemu/control/hub_vtime.c
CONTROL_CMDS := qemu/commands/control.c qemu/commands/record.c
DPM_SRCS += $(CONTROL_CORE) $(CONTROL_NET) $(CONTROL_CMDS)
DPM_LDLIBS += -ledit
$(eval $(call unit_test,test_control,tests/unit/test_control.c $(CONTROL_CORE)))
# The control hub with real sockets on 127.0.0.1.
$(eval $(call unit_test,test_hub,tests/unit/test_hub.c qemu/commands/cluster_hub.c qemu/control/ctl_wire.c qemu/control/hub_vtime.c hostfilter/filter/nodeauth.c hostfilter/filter/shed.c $(CLUSTER_CORE)))
$(eval $(call unit_test,test_hub_vtime,tests/unit/test_hub_vtime.c qemu/control/hub_vtime.c))

# Virtual time's cost in host time against clock=icount: the demo's
# workloads, one study run and TSP over 2, 4 and 8 nodes
# (qemu/scripts/bench_vtime.sh; docs/virtual-time.md).
BENCH_TARGETS += bench-vtime
.PHONY: bench-vtime
bench-vtime: all
	bash qemu/scripts/bench_vtime.sh $(abspath $(DPM)) $(BUILD)/bench

# dpm's command-line conventions (docs/cli.md) on the built binary, over
# every subcommand; it writes its damaged logs with the filter's code.
$(eval $(call unit_test,test_cli,tests/unit/test_cli.c $(FILTER_TEST_SUPPORT)))
$(BUILD)/tests/unit/test_cli $(BUILD)/tests/unit-asan/test_cli: | $(DPM)
