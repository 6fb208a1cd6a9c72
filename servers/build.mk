# servers/build.mk - the programs of the boot image.  Each program is a name
# in PROGRAMS and its sources in NAME_SRCS; every arch/*/build.mk builds them
# all for its machine, linked with the program library (USERLIB_SRCS) and
# newlib.
USERLIB_SRCS := servers/lib/demos.c servers/lib/newlib_glue.c servers/lib/pm_client.c servers/lib/ns_client.c

PROGRAMS += pm ns init hello
pm_SRCS := servers/pm/pm.c
ns_SRCS := servers/ns/ns.c
init_SRCS := servers/init/init.c
hello_SRCS := servers/hello/hello.c
