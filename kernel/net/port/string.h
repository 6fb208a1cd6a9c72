/*
 * kernel/net/port/string.h - lwIP includes <string.h>; in the kernel the
 * string functions are klib's (kernel/klib.c), declared here for lwIP's
 * objects only (they are compiled with this directory on the path).
 */
#ifndef DPM_LWIP_PORT_STRING_H
#define DPM_LWIP_PORT_STRING_H
#include <stddef.h>

void *memcpy(void *d, const void *s, size_t n);
void *memset(void *d, int c, size_t n);
void *memmove(void *d, const void *s, size_t n);
int memcmp(const void *a, const void *b, size_t n);
size_t strlen(const char *s);
int strcmp(const char *a, const char *b);
int strncmp(const char *a, const char *b, size_t n);
#endif
