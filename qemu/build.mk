# qemu/build.mk - `dpm cluster` (boot, watch and stop a cluster of QEMU
# nodes on a vde_switch), its unit tests.  The cluster suite itself is
# tests/cluster/build.mk.

CLUSTER_CORE := qemu/cluster_file.c qemu/cluster_state.c qemu/cluster_proc.c \
	qemu/cluster_net.c qemu/cluster_qemu.c
CLUSTER_CMDS := qemu/cluster.c qemu/cluster_up.c qemu/cluster_supervisor.c \
	qemu/cluster_status.c qemu/cluster_console.c qemu/cluster_down.c \
	qemu/cluster_default.c qemu/cluster_hub.c qemu/ctl_wire.c

DPM_SRCS += $(CLUSTER_CORE) $(CLUSTER_CMDS)

# The default cluster file is assembled in (.incbin).
$(BUILD)/host/qemu/cluster_default.o: qemu/default.cluster

$(eval $(call unit_test,test_cluster_file,tests/unit/test_cluster_file.c $(CLUSTER_CORE)))
$(eval $(call unit_test,test_cluster_state,tests/unit/test_cluster_state.c $(CLUSTER_CORE)))
$(eval $(call unit_test,test_cluster_qemu,tests/unit/test_cluster_qemu.c $(CLUSTER_CORE)))

# `dpm control` (docs/control.md): the interpreter, its state machine and
# flags, the nodes' side over the cluster's host link, the prompt.
CONTROL_CORE := qemu/control_cmd.c qemu/control_state.c qemu/control_flags.c
CONTROL_NET := qemu/control_net.c qemu/control_main.c qemu/record.c
DPM_SRCS += $(CONTROL_CORE) $(CONTROL_NET)
DPM_LDLIBS += -ledit
$(eval $(call unit_test,test_control,tests/unit/test_control.c $(CONTROL_CORE)))
