# servers/ctld/build.mk - ctld, the controller's agent the kernel starts on
# every node of a cluster with a control hub (docs/control.md).
PROGRAMS += ctld
ctld_SRCS := servers/ctld/ctld.c
