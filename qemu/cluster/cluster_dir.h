/*
 * qemu/cluster/cluster_dir.h - what the `dpm cluster` commands (and
 * `dpm control`, `dpm record`) share: where the state directory and dpm's
 * build directory are by default, and loading a cluster's state.
 */
#ifndef DPM_CLUSTER_DIR_H
#define DPM_CLUSTER_DIR_H

#include <stddef.h>

#include "cluster_state.h"

/* The state directory: --dir if given, else $DPM_CLUSTER_DIR, else
 * build/cluster beside dpm's own build directory.  Made absolute; created
 * (mode 0700) when create is set.  Returns 0, or -1 with a message. */
int cluster_dir(const char *option, int create, char *out, size_t size, char *err, size_t errlen);

/* cluster_dir for commands that read or stop a cluster (nothing is
 * created); prints the error itself.  Returns 0 or exit status 1. */
int cluster_existing_dir(const char *option, char *out, size_t size);

/* A path under dpm's build directory (build/bin/dpm -> build/REL). */
int cluster_build_path(const char *rel, char *out, size_t size);

/* The x86 kernel image a cluster boots: --kernel if given, else
 * $DPM_KERNEL, else build/x86/kernel.elf beside dpm.  Made absolute; 0, or
 * -1 with a message (it cannot be read). */
int cluster_kernel(const char *option, char *out, size_t size, char *err, size_t errlen);

/* Load the state of dir for a reader; prints "no cluster" (exit 1) or the
 * error (exit 2) itself.  Returns 0 with *st filled, or the exit status. */
int cluster_load_state(const char *dir, struct cluster_state *st);

#endif
