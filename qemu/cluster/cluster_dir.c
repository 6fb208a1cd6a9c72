/*
 * qemu/cluster/cluster_dir.c - what the `dpm cluster` commands (and
 * `dpm control`, `dpm record`) share: where the state directory and dpm's
 * build directory are, and loading a cluster's state for a reader.
 *
 * Defaults are found relative to dpm's own executable (build/bin/dpm), so
 * the command works from any working directory of a checkout.
 */
#include <errno.h>
#include <limits.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "cluster_dir.h"

int cluster_build_path(const char *rel, char *out, size_t size)
{
	char exe[PATH_MAX];
	ssize_t n = readlink("/proc/self/exe", exe, sizeof exe - 1);
	if (n <= 0)
		return -1;
	exe[n] = '\0';
	for (int up = 0; up < 2; up++) { /* strip /dpm, then /bin */
		char *slash = strrchr(exe, '/');
		if (!slash || slash == exe)
			return -1;
		*slash = '\0';
	}
	int k = snprintf(out, size, "%s/%s", exe, rel);
	return k < 0 || (size_t)k >= size ? -1 : 0;
}

/* mkdir -p, the last component with mode 0700. */
static int make_dirs(const char *path)
{
	char buf[PATH_MAX];
	snprintf(buf, sizeof buf, "%s", path);
	for (char *p = buf + 1; *p; p++)
		if (*p == '/') {
			*p = '\0';
			if (mkdir(buf, 0755) < 0 && errno != EEXIST)
				return -1;
			*p = '/';
		}
	return mkdir(buf, 0700) < 0 && errno != EEXIST ? -1 : 0;
}

int cluster_dir(const char *option, int create, char *out, size_t size, char *err, size_t errlen)
{
	char chosen[PATH_MAX];
	const char *env = getenv("DPM_CLUSTER_DIR");
	if (option)
		snprintf(chosen, sizeof chosen, "%s", option);
	else if (env && *env)
		snprintf(chosen, sizeof chosen, "%s", env);
	else if (cluster_build_path("cluster", chosen, sizeof chosen)) {
		snprintf(err, errlen, "cannot find dpm's build directory; give --dir");
		return -1;
	}
	if (create && make_dirs(chosen) < 0) {
		snprintf(err, errlen, "cannot create %s: %s", chosen, strerror(errno));
		return -1;
	}
	char real[PATH_MAX];
	if (!realpath(chosen, real)) {
		if (errno != ENOENT || create) {
			snprintf(err, errlen, "%s: %s", chosen, strerror(errno));
			return -1;
		}
		snprintf(real, sizeof real, "%s", chosen); /* no cluster there, nothing to resolve */
	}
	if (strlen(real) >= size) {
		snprintf(err, errlen, "%s: path too long", real);
		return -1;
	}
	strcpy(out, real);
	return 0;
}

int cluster_existing_dir(const char *option, char *out, size_t size)
{
	char err[PATH_MAX + 64];
	if (cluster_dir(option, 0, out, size, err, sizeof err) == 0)
		return 0;
	fprintf(stderr, "dpm cluster: %s\n", err);
	return 1;
}

int cluster_load_state(const char *dir, struct cluster_state *st)
{
	char err[512];
	int r = state_load(dir, st, err, sizeof err);
	if (r == 0) {
		fprintf(stderr, "dpm cluster: no cluster in %s (start one with 'dpm cluster up')\n", dir);
		return 1;
	}
	if (r < 0) {
		fprintf(stderr, "dpm cluster: %s\n", err);
		return 2;
	}
	return 0;
}

int cluster_kernel(const char *option, char *out, size_t size, char *err, size_t errlen)
{
	char chosen[PATH_MAX];
	const char *env = getenv("DPM_KERNEL");
	if (option || (env && *env))
		snprintf(chosen, sizeof chosen, "%s", option ? option : env);
	else if (cluster_build_path("x86/kernel.elf", chosen, sizeof chosen))
		snprintf(chosen, sizeof chosen, "build/x86/kernel.elf");
	char real[PATH_MAX];
	if (!realpath(chosen, real) || strlen(real) >= size || access(real, R_OK)) {
		snprintf(err, errlen, "kernel image %s: %s (build it with 'make', or give --kernel)",
			 chosen, strerror(errno));
		return -1;
	}
	snprintf(out, size, "%s", real);
	return 0;
}
