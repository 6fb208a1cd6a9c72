# kernel/build.mk - host unit tests of the kernel's portable data structures
# (memcpy and its kin, link tables, the scheduler's runnable set, message queues, the page allocator, virtual time's model
# words, the disk model, the late deadline interrupt's rule).  The kernel itself is
# built per machine by arch/*/build.mk.

$(eval $(call unit_test,test_kernel_link,tests/unit/test_kernel_link.c kernel/link.c))
$(eval $(call unit_test,test_kernel_klib,tests/unit/test_kernel_klib.c))
$(eval $(call unit_test,test_kernel_runq,tests/unit/test_kernel_runq.c))
$(eval $(call unit_test,test_kernel_msgqueue,tests/unit/test_kernel_msgqueue.c kernel/msgqueue.c))
$(eval $(call unit_test,test_kernel_credit,tests/unit/test_kernel_credit.c kernel/credit.c))
$(eval $(call unit_test,test_kernel_palloc,tests/unit/test_kernel_palloc.c kernel/palloc.c))
$(eval $(call unit_test,test_kernel_vtime_config,tests/unit/test_kernel_vtime_config.c kernel/vtime_config.c))
$(eval $(call unit_test,test_kernel_vdisk,tests/unit/test_kernel_vdisk.c kernel/vdisk.c))
$(eval $(call unit_test,test_kernel_vlate,tests/unit/test_kernel_vlate.c kernel/vlate.c))
