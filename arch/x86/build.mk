# arch/x86/build.mk - the i386 node: the kernel (kernel/ + arch/x86/), the
# programs of PROGRAMS built against newlib for i386, and the kernel image
# with every program packed in (build/x86/kernel.elf, a multiboot ELF).  The
# kernel is one RWX segment on purpose: it is mapped with 4 MiB supervisor
# pages, where a W^X split inside the kernel would buy nothing.

X86 := $(BUILD)/x86
# X86_GCCINC and X86_LIBGCC come from $(TOOLCHAIN_MK) (the top Makefile).
NEWLIB_I386 := $(BUILD)/deps/newlib-i386/i686-elf
X86_KERNEL := $(X86)/kernel.elf

X86_COMMON := -m32 -march=i686 -std=gnu11 -O2 -g -Wall -Wextra -Werror -fno-pie -fno-pic \
	-fno-stack-protector -fno-asynchronous-unwind-tables -MMD -MP
X86_KCFLAGS := $(X86_COMMON) -ffreestanding -fno-builtin -nostdinc -isystem $(X86_GCCINC) \
	-mno-sse -mno-mmx -mno-80387 -I. -Iarch/x86
X86_UCFLAGS := $(X86_COMMON) -nostdinc -isystem $(NEWLIB_I386)/include -isystem $(X86_GCCINC) \
	-U__linux__ -U__linux -Ulinux -U__gnu_linux__ -U__unix__ -U__unix -Uunix \
	-I. -Iarch/x86/user

X86_KERNEL_SRCS := $(wildcard kernel/*.c meter/*.c arch/x86/*.c arch/x86/*.S)
# The network: kernel/net (lwIP port, peer transport) and arch/virtio.
X86_KERNEL_SRCS += $(wildcard kernel/net/*.c arch/virtio/*.c)
X86_KERNEL_OBJS := $(patsubst %,$(X86)/k/%.o,$(X86_KERNEL_SRCS))

# lwIP: the shared file list (arch/lwip.mk); its objects get the port
# headers, and nothing else does.  docs/network.md.
include arch/lwip.mk
X86_LWIP_OBJS := $(patsubst %,$(X86)/lwip/%.o,$(LWIP_FILES))
X86_NET_INC := -Ikernel/net/port -I$(LWIP_SRC)/include
X86_NET_OBJS := $(patsubst %,$(X86)/k/%.o,$(filter kernel/net/% arch/virtio/% arch/x86/virtio_pci.c,$(X86_KERNEL_SRCS)))
$(X86_NET_OBJS) $(X86_LWIP_OBJS): X86_KCFLAGS += $(X86_NET_INC)
X86_KERNEL_OBJS += $(X86_LWIP_OBJS)
$(X86)/lwip/netif/ppp/polarssl/sha1.c.o: X86_KCFLAGS += $(LWIP_SHA1_FLAGS)

$(X86)/lwip/%.c.o: $(LWIP_SRC)/%.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	gcc $(X86_KCFLAGS) -c -o $@ $<
$(addprefix $(LWIP_SRC)/,$(LWIP_FILES)): | $(DEPS_STAMP)
	@:
X86_USERLIB_OBJS := $(patsubst %,$(X86)/u/%.o,$(USERLIB_SRCS))
X86_CRT0 := $(X86)/u/arch/x86/user/crt0.S.o
X86_PROGRAM_FILES := $(patsubst %,$(X86)/prog/%,$(PROGRAMS))

ALL_TARGETS += $(X86_KERNEL)

$(X86)/k/%.c.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	gcc $(X86_KCFLAGS) -c -o $@ $<
$(X86)/k/%.S.o: %.S
	@mkdir -p $(@D)
	gcc $(X86_KCFLAGS) -c -o $@ $<
$(X86)/u/%.c.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	gcc $(X86_UCFLAGS) -c -o $@ $<
$(X86)/u/%.S.o: %.S
	@mkdir -p $(@D)
	gcc $(X86_UCFLAGS) -c -o $@ $<

$(X86)/libdemos.a: $(X86_USERLIB_OBJS)
	rm -f $@ && ar rcs $@ $^

# newlib's libraries come from `make deps`: a parallel make must wait for it.
$(NEWLIB_I386)/lib/libc.a $(NEWLIB_I386)/lib/libm.a: | $(DEPS_STAMP)
	@:

# $(call x86_program,NAME): link one program of the boot image.
define x86_program
$(X86)/prog/$(1): $(X86_CRT0) $(patsubst %,$(X86)/u/%.o,$($(1)_SRCS)) $(X86)/libdemos.a arch/x86/user/user.ld $(NEWLIB_I386)/lib/libc.a
	@mkdir -p $$(@D)
	ld -m elf_i386 -z max-page-size=4096 -z noexecstack -T arch/x86/user/user.ld -o $$@ \
		$(X86_CRT0) $(patsubst %,$(X86)/u/%.o,$($(1)_SRCS)) \
		--start-group $(X86)/libdemos.a $(NEWLIB_I386)/lib/libc.a $(NEWLIB_I386)/lib/libm.a $(X86_LIBGCC) --end-group
endef
$(foreach p,$(PROGRAMS),$(eval $(call x86_program,$(p))))

# The boot image: every program's ELF, .incbin'd into the kernel with a table.
$(X86)/bootimage.S: $(X86_PROGRAM_FILES) arch/mkbootimage.sh
	bash arch/mkbootimage.sh $@ $(X86_PROGRAM_FILES)
$(X86)/bootimage.o: $(X86)/bootimage.S
	gcc -m32 -c -o $@ $<

# The same kernel without meter probes (METERED() is 0): the baseline of
# `make bench`'s "metering compiled in but off" comparison.
X86_NOMETER_KERNEL := $(X86)/nometer/kernel.elf
X86_NOMETER_OBJS := $(patsubst $(X86)/k/%,$(X86)/knm/%,$(X86_KERNEL_OBJS))
$(X86)/knm/%.c.o: %.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	gcc $(X86_KCFLAGS) $(if $(filter kernel/net/% arch/virtio/% arch/x86/virtio_pci.c,$*.c),$(X86_NET_INC)) -DDPM_NO_METER -c -o $@ $<
$(X86)/knm/%.S.o: %.S
	@mkdir -p $(@D)
	gcc $(X86_KCFLAGS) -c -o $@ $<
$(X86_NOMETER_KERNEL): $(X86_NOMETER_OBJS) $(X86)/bootimage.o arch/x86/kernel.ld
	@mkdir -p $(@D)
	ld -m elf_i386 -z noexecstack --no-warn-rwx-segments -T arch/x86/kernel.ld -o $@ $(X86_NOMETER_OBJS) $(X86)/bootimage.o $(X86_LIBGCC)

# Kernels whose message probes stop part way (DPM_METER_CUT=1..3,
# meter/meter.c): `make bench-kernel`'s metered event taken apart.  Only
# meter.c differs from the kernel's.
X86_CUT_COMMON := $(filter-out $(X86)/k/meter/meter.c.o,$(X86_KERNEL_OBJS))
$(X86)/cut%/meter.c.o: meter/meter.c | $(DEPS_STAMP)
	@mkdir -p $(@D)
	gcc $(X86_KCFLAGS) -DDPM_METER_CUT=$* -c -o $@ $<
$(X86)/cut%/kernel.elf: $(X86_CUT_COMMON) $(X86)/cut%/meter.c.o $(X86)/bootimage.o arch/x86/kernel.ld
	ld -m elf_i386 -z noexecstack --no-warn-rwx-segments -T arch/x86/kernel.ld -o $@ $(X86_CUT_COMMON) \
		$(X86)/cut$*/meter.c.o $(X86)/bootimage.o $(X86_LIBGCC)

$(X86_KERNEL): $(X86_KERNEL_OBJS) $(X86)/bootimage.o arch/x86/kernel.ld
	ld -m elf_i386 -z noexecstack --no-warn-rwx-segments -T arch/x86/kernel.ld -o $@ $(X86_KERNEL_OBJS) $(X86)/bootimage.o $(X86_LIBGCC)

-include $(shell find $(X86) -name '*.d' 2>/dev/null)
