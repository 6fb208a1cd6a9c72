/* arch/arm/arm.h - the few ARMv7-A instructions and system registers the
 * arch layer needs, as inline functions, so no C file outside arch/arm ever
 * contains inline assembly; and 32-bit device register access. */
#ifndef DPM_ARM_H
#define DPM_ARM_H
#include <stdint.h>

#define CP15_WRITE(name, op1, crn, crm, op2) \
	static inline void write_##name(uint32_t v) \
	{ __asm__ volatile("mcr p15, " #op1 ", %0, " #crn ", " #crm ", " #op2 : : "r"(v) : "memory"); }
#define CP15_READ(name, op1, crn, crm, op2) \
	static inline uint32_t read_##name(void) \
	{ uint32_t v; __asm__ volatile("mrc p15, " #op1 ", %0, " #crn ", " #crm ", " #op2 : "=r"(v)); return v; }

CP15_READ(sctlr, 0, c1, c0, 0)
CP15_WRITE(sctlr, 0, c1, c0, 0)
CP15_WRITE(ttbr0, 0, c2, c0, 0)
CP15_READ(ttbr0, 0, c2, c0, 0)
CP15_WRITE(ttbr1, 0, c2, c0, 1)
CP15_WRITE(ttbcr, 0, c2, c0, 2)
CP15_WRITE(dacr, 0, c3, c0, 0)
CP15_READ(dfsr, 0, c5, c0, 0)
CP15_READ(ifsr, 0, c5, c0, 1)
CP15_READ(dfar, 0, c6, c0, 0)
CP15_READ(ifar, 0, c6, c0, 2)
CP15_WRITE(tlbiall, 0, c8, c7, 0)
CP15_WRITE(iciallu, 0, c7, c5, 0)
CP15_WRITE(bpiall, 0, c7, c5, 6)
CP15_WRITE(vbar, 0, c12, c0, 0)
CP15_READ(cntfrq, 0, c14, c0, 0)
CP15_WRITE(cntv_ctl, 0, c14, c3, 1)

static inline uint64_t read_cntvct(void)
{
	uint32_t lo, hi;
	__asm__ volatile("isb\n\tmrrc p15, 1, %0, %1, c14" : "=r"(lo), "=r"(hi));
	return ((uint64_t)hi << 32) | lo;
}
static inline void write_cntv_cval(uint64_t v)
{
	__asm__ volatile("mcrr p15, 3, %0, %1, c14" : : "r"((uint32_t)v), "r"((uint32_t)(v >> 32)));
}
static inline void dsb(void) { __asm__ volatile("dsb" : : : "memory"); }
static inline void isb(void) { __asm__ volatile("isb" : : : "memory"); }
static inline void wfi(void) { __asm__ volatile("wfi" : : : "memory"); }
static inline void irq_enable(void) { __asm__ volatile("cpsie i" : : : "memory"); }
static inline void irq_disable(void) { __asm__ volatile("cpsid i" : : : "memory"); }

static inline uint32_t mmio_read32(uintptr_t a) { return *(volatile uint32_t *)a; }
static inline void mmio_write32(uintptr_t a, uint32_t v) { *(volatile uint32_t *)a = v; }
static inline uint8_t mmio_read8(uintptr_t a) { return *(volatile uint8_t *)a; }
#endif
