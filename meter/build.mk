# meter/build.mk - host unit tests of the kernel's metering subsystem: the
# batching and drop accounting (meter/batch.c), compiled for the host as
# kernel/build.mk does for the kernel's data structures.  The kernel
# itself (meter/*.c with kernel/*.c) is built per machine by arch/*/build.mk.

$(eval $(call unit_test,test_meter_batch,tests/unit/test_meter_batch.c meter/batch.c))
