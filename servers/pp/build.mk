# servers/pp/build.mk - pp, the small ping-pong-by-name program the controller
# tests and docs/control.md meter.
PROGRAMS += pp
pp_SRCS := servers/pp/pp.c
