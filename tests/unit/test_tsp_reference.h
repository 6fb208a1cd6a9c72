/*
 * tests/unit/test_tsp_reference.h - the exact reference the TSP tests
 * compare against: Held-Karp dynamic programming, shared by the host unit
 * tests and the guest suite tests/guest/t_tsp.c.
 */
#ifndef DPM_TEST_TSP_REFERENCE_H
#define DPM_TEST_TSP_REFERENCE_H
#include <stdint.h>

#include "servers/tsp/instance.h"

#define HELD_KARP_MAX_N 16

/* The cost of an optimal tour of t (2 <= t->n <= HELD_KARP_MAX_N), or -1
 * when t is too large or memory runs out. */
int32_t held_karp(const struct tsp_instance *t);
#endif
