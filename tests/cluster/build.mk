# tests/cluster/build.mk - `make check-cluster`: clusters of QEMU nodes
# booted, watched, interrupted and stopped by `dpm cluster`
# (tests/cluster/cluster_test_*.sh, run by cluster_suite.sh).
SUITES += cluster

# The kernel image is named literally: X86_KERNEL is defined by
# arch/x86/build.mk, which is included after this fragment.
check-cluster: $(DPM) $(BUILD)/x86/kernel.elf $(BUILD)/arm/kernel.elf
	@bash tests/cluster/cluster_suite.sh $(BUILD)/tests $(DPM) $(BUILD)/x86/kernel.elf
