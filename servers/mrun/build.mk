# servers/mrun/build.mk - mrun, which runs a program metered to a host filter.
PROGRAMS += mrun
mrun_SRCS := servers/mrun/mrun.c
