# arch/arm/build.mk - the ARM node (QEMU's virt machine, Cortex-A15): the
# kernel (kernel/ + arch/arm/, the same portable sources as x86), the
# programs of PROGRAMS built against Debian's newlib for ARM, and the kernel
# image with every program packed in (build/arm/kernel.elf).  Soft float
# everywhere: no VFP state to switch, and newlib's armv7-a "nofp" multilib
# matches.  Programs are built for plain ARMv7-A (no hardware divide) so
# that division goes through the run-time ABI, whose divide-by-zero hook
# traps (arch/arm/trap.c); the kernel itself uses the A15's divider.

ARM := $(BUILD)/arm
ARM_CC := arm-none-eabi-gcc
ARM_LD := arm-none-eabi-ld
ARM_KARCH := -mcpu=cortex-a15 -marm -mfloat-abi=soft
ARM_UARCH := -march=armv7-a -mtune=cortex-a15 -marm -mfloat-abi=soft
# ARM_GCCINC, ARM_LIBGCC (programs), ARM_KLIBGCC (kernel) and ARM_MULTILIB
# come from $(TOOLCHAIN_MK) (the top Makefile).
NEWLIB_ARM := /usr/lib/arm-none-eabi
NEWLIB_ARM_LIB := $(NEWLIB_ARM)/newlib/$(ARM_MULTILIB)
ARM_KERNEL := $(ARM)/kernel.elf

# arm-none-eabi makes uint32_t a long; the portable code prints it with %u
# (as i386 and every hosted ARM ABI do), so make the 32-bit types int here.
# Same size and calling convention, so newlib's objects link unchanged.
ARM_INT32 := -U__INT32_TYPE__ '-D__INT32_TYPE__=int' -U__UINT32_TYPE__ '-D__UINT32_TYPE__=unsigned int' \
	-U__INT_LEAST32_TYPE__ '-D__INT_LEAST32_TYPE__=int' -U__UINT_LEAST32_TYPE__ '-D__UINT_LEAST32_TYPE__=unsigned int'
ARM_COMMON := $(ARM_INT32) -std=gnu11 -O2 -g -Wall -Wextra -Werror -fno-pie -fno-pic \
	-fno-stack-protector -fno-asynchronous-unwind-tables -fno-unwind-tables -MMD -MP
ARM_KCFLAGS := $(ARM_KARCH) $(ARM_COMMON) -ffreestanding -fno-builtin -nostdinc -isystem $(ARM_GCCINC) \
	-I. -Iarch/arm
ARM_UCFLAGS := $(ARM_UARCH) $(ARM_COMMON) -nostdinc -isystem $(NEWLIB_ARM)/include -isystem $(ARM_GCCINC) \
	-I. -Iarch/arm/user

ARM_KERNEL_SRCS := $(wildcard kernel/*.c meter/*.c arch/arm/*.c arch/arm/*.S)
ARM_KERNEL_SRCS += $(wildcard kernel/net/*.c arch/virtio/*.c)
ARM_KERNEL_OBJS := $(patsubst %,$(ARM)/k/%.o,$(ARM_KERNEL_SRCS))

# lwIP: the same files as x86, built with the port headers; so are the
# network's own objects.
include arch/lwip.mk
ARM_LWIP_OBJS := $(patsubst %,$(ARM)/lwip/%.o,$(LWIP_FILES))
ARM_NET_INC := -Ikernel/net/port -I$(LWIP_SRC)/include
ARM_NET_OBJS := $(patsubst %,$(ARM)/k/%.o,$(filter kernel/net/% arch/virtio/% arch/arm/virtio_mmio.c,$(ARM_KERNEL_SRCS)))
$(ARM_NET_OBJS) $(ARM_LWIP_OBJS): ARM_KCFLAGS += $(ARM_NET_INC)
ARM_KERNEL_OBJS += $(ARM_LWIP_OBJS)
$(ARM)/lwip/netif/ppp/polarssl/sha1.c.o: ARM_KCFLAGS += $(LWIP_SHA1_FLAGS)

$(ARM)/lwip/%.c.o: $(LWIP_SRC)/%.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(ARM_CC) $(ARM_KCFLAGS) -c -o $@ $<
ARM_USERLIB_OBJS := $(patsubst %,$(ARM)/u/%.o,$(USERLIB_SRCS))
ARM_CRT0 := $(ARM)/u/arch/arm/user/crt0.S.o
ARM_PROGRAM_FILES := $(patsubst %,$(ARM)/prog/%,$(PROGRAMS))

ALL_TARGETS += $(ARM_KERNEL)
.PHONY: arm
arm: $(ARM_KERNEL)

$(ARM)/k/%.c.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(ARM_CC) $(ARM_KCFLAGS) -c -o $@ $<
$(ARM)/k/%.S.o: %.S
	@mkdir -p $(@D)
	$(ARM_CC) $(ARM_KCFLAGS) -c -o $@ $<
$(ARM)/u/%.c.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(ARM_CC) $(ARM_UCFLAGS) -c -o $@ $<
$(ARM)/u/%.S.o: %.S
	@mkdir -p $(@D)
	$(ARM_CC) $(ARM_UCFLAGS) -c -o $@ $<

$(ARM)/libdemos.a: $(ARM_USERLIB_OBJS)
	rm -f $@ && arm-none-eabi-ar rcs $@ $^

# $(call arm_program,NAME): link one program of the boot image.
define arm_program
$(ARM)/prog/$(1): $(ARM_CRT0) $(patsubst %,$(ARM)/u/%.o,$($(1)_SRCS)) $(ARM)/libdemos.a arch/arm/user/user.ld
	@mkdir -p $$(@D)
	$(ARM_LD) -z max-page-size=4096 -z noexecstack -T arch/arm/user/user.ld -o $$@ \
		$(ARM_CRT0) $(patsubst %,$(ARM)/u/%.o,$($(1)_SRCS)) \
		--start-group $(ARM)/libdemos.a $(NEWLIB_ARM_LIB)/libc.a $(NEWLIB_ARM_LIB)/libm.a $(ARM_LIBGCC) --end-group
endef
$(foreach p,$(PROGRAMS),$(eval $(call arm_program,$(p))))

# The boot image: every program's ELF, .incbin'd into the kernel with a table.
$(ARM)/bootimage.S: $(ARM_PROGRAM_FILES) arch/mkbootimage.sh
	bash arch/mkbootimage.sh $@ $(ARM_PROGRAM_FILES)
$(ARM)/bootimage.o: $(ARM)/bootimage.S
	$(ARM_CC) $(ARM_KARCH) -c -o $@ $<

# The same kernel without meter probes (METERED() is 0), as on x86: the
# baseline of `make bench-kernel`'s ARM probe overhead.
ARM_NOMETER_KERNEL := $(ARM)/nometer/kernel.elf
ARM_NOMETER_OBJS := $(patsubst $(ARM)/k/%,$(ARM)/knm/%,$(ARM_KERNEL_OBJS))
$(ARM)/knm/%.c.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(ARM_CC) $(ARM_KCFLAGS) $(if $(filter kernel/net/% arch/virtio/% arch/arm/virtio_mmio.c,$*.c),$(ARM_NET_INC)) -DDPM_NO_METER -c -o $@ $<
$(ARM)/knm/%.S.o: %.S
	@mkdir -p $(@D)
	$(ARM_CC) $(ARM_KCFLAGS) -c -o $@ $<
$(ARM_NOMETER_KERNEL): $(ARM_NOMETER_OBJS) $(ARM)/bootimage.o arch/arm/kernel.ld
	@mkdir -p $(@D)
	$(ARM_LD) -z noexecstack --no-warn-rwx-segments -T arch/arm/kernel.ld -o $@ $(ARM_NOMETER_OBJS) $(ARM)/bootimage.o \
		$(ARM_KLIBGCC)

# Kernels whose message probes stop part way, as on x86.
ARM_CUT_COMMON := $(filter-out $(ARM)/k/meter/meter.c.o,$(ARM_KERNEL_OBJS))
$(ARM)/cut%/meter.c.o: meter/meter.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	$(ARM_CC) $(ARM_KCFLAGS) -DDPM_METER_CUT=$* -c -o $@ $<
$(ARM)/cut%/kernel.elf: $(ARM_CUT_COMMON) $(ARM)/cut%/meter.c.o $(ARM)/bootimage.o arch/arm/kernel.ld
	$(ARM_LD) -z noexecstack --no-warn-rwx-segments -T arch/arm/kernel.ld -o $@ $(ARM_CUT_COMMON) \
		$(ARM)/cut$*/meter.c.o $(ARM)/bootimage.o $(ARM_KLIBGCC)

$(ARM_KERNEL): $(ARM_KERNEL_OBJS) $(ARM)/bootimage.o arch/arm/kernel.ld
	$(ARM_LD) -z noexecstack --no-warn-rwx-segments -T arch/arm/kernel.ld -o $@ $(ARM_KERNEL_OBJS) $(ARM)/bootimage.o \
		$(ARM_KLIBGCC)

-include $(shell find $(ARM) -name '*.d' 2>/dev/null)

# the x86 object the same).
