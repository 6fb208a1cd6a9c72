# meter/build.mk - host unit tests of the kernel's metering subsystem: the
# batching and drop accounting (meter/batch.c) and the compact records'
# encoder (meter/encode.h) against the one decoder (kernel/abi/tracewire.c),
# compiled for the host as kernel/build.mk does for the kernel's data
# structures.  The kernel itself (meter/*.c with kernel/*.c) is built per
# machine by arch/*/build.mk.

$(eval $(call unit_test,test_meter_batch,tests/unit/test_meter_batch.c meter/batch.c kernel/abi/tracewire.c))
$(eval $(call unit_test,test_meter_wire,tests/unit/test_meter_wire.c meter/batch.c kernel/abi/tracewire.c))
