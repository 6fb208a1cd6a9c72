/*
 * tests/unit/test_layers.c - the shape of the source tree, checked: host
 * code reaches the kernel only through its wire contracts (kernel/abi/), the
 * layers of a part include downward only, and no two files include each
 * other, directly or round a circle.
 *
 * It reads the quoted #include lines of every C file and header below the
 * project root (the directory the suite runs in) and resolves each as the
 * compilers do: the includer's folder first, then the root, then the
 * machine folders that stay on the kernels' and programs' include paths.
 * A module is a file's path less its ".c" or ".h", so foo.c including
 * bar.h and bar.c including foo.h is a circle, as a reader sees it.  A .c
 * without a header of its own belongs to the module of the first header it
 * includes from its own folder (its part's header), so a file that calls
 * back into the dispatcher whose header declares it shows as a circle too
 * (host code only: the kernel's files share kernel.h, xv6's defs.h, as
 * their map, and arch/ implements kernel/arch.h).
 */
#define _GNU_SOURCE
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <ftw.h>
#include <sys/stat.h>

#include <cmocka.h>

#define MAX_FILES 2048
#define MAX_EDGES 16384

static const char *const source_roots[] = {
	"kernel", "arch", "servers", "meter", "hostfilter", "analysis", "qemu", "tests",
};
/* Folders a kernel or program build keeps on its include path: headers
 * provided once per machine under the same name. */
static const char *const machine_dirs[] = {
	"arch/x86", "arch/arm", "arch/x86/user", "arch/arm/user", "kernel/net/port",
};

/* Layers inside a part, lowest first: a file of one may include files of
 * its own layer and of those before it, never of those after it. */
struct layer_order {
	const char *part;
	const char *layers[6];
};
static const struct layer_order layer_orders[] = {
	{ "hostfilter", { "hostfilter/tracelog", "hostfilter/filter", "hostfilter/export", "hostfilter/commands", NULL } },
	{ "qemu", { "qemu/cluster", "qemu/control", "qemu/commands", NULL } },
	{ "analysis", { "analysis/model", "analysis/report", "analysis/studies", "analysis/commands",
			NULL } },
};

static char *files[MAX_FILES];
static int first_local[MAX_FILES]; /* first include from its own folder, or -1 */
static int nfiles;
static int edge_from[MAX_EDGES], edge_to[MAX_EDGES];
static int nedges;
static char *modules[MAX_FILES];
static int nmodules;

static int is_source(const char *path)
{
	size_t n = strlen(path);
	return n > 2 && path[n - 2] == '.' && (path[n - 1] == 'c' || path[n - 1] == 'h');
}

static int collect(const char *path, const struct stat *st, int type, struct FTW *ftw)
{
	(void)st;
	(void)ftw;
	if (type == FTW_F && is_source(path)) {
		if (nfiles == MAX_FILES)
			return 1;
		files[nfiles++] = strdup(path[0] == '.' && path[1] == '/' ? path + 2 : path);
	}
	return 0;
}

static int file_index(const char *path)
{
	for (int i = 0; i < nfiles; i++)
		if (strcmp(files[i], path) == 0)
			return i;
	return -1;
}

static int same_folder(const char *a, const char *b)
{
	const char *sa = strrchr(a, '/'), *sb = strrchr(b, '/');
	size_t na = sa ? (size_t)(sa - a) : 0, nb = sb ? (size_t)(sb - b) : 0;
	return na == nb && strncmp(a, b, na) == 0;
}

static int module_of_file(int f);
static int is_host_code(const char *path);

static int module_of(const char *path)
{
	size_t n = strlen(path) - 2;
	for (int i = 0; i < nmodules; i++)
		if (strlen(modules[i]) == n && strncmp(modules[i], path, n) == 0)
			return i;
	modules[nmodules] = strndup(path, n);
	return nmodules++;
}

/* Collapse "a/b/../c" and "./" so that resolved paths compare equal. */
static void normalise(char *path, size_t size)
{
	char *parts[64];
	int n = 0;
	char *save = NULL;
	char copy[1024];
	snprintf(copy, sizeof copy, "%s", path);
	for (char *p = strtok_r(copy, "/", &save); p && n < 64; p = strtok_r(NULL, "/", &save)) {
		if (strcmp(p, ".") == 0)
			continue;
		if (strcmp(p, "..") == 0 && n > 0) {
			n--;
			continue;
		}
		parts[n++] = p;
	}
	path[0] = '\0';
	for (int i = 0; i < n; i++) {
		size_t used = strlen(path);
		snprintf(path + used, size - used, "%s%s", i ? "/" : "", parts[i]);
	}
}

/* The file an include of name from includer names, or -1 (a system or
 * third-party header such as lwIP's). */
static int resolve(const char *includer, const char *name)
{
	char dir[256], cand[1024];
	snprintf(dir, sizeof dir, "%s", includer);
	char *slash = strrchr(dir, '/');
	*(slash ? slash : dir) = '\0';
	snprintf(cand, sizeof cand, "%s/%s", dir, name);
	normalise(cand, sizeof cand);
	int i = file_index(cand);
	if (i >= 0)
		return i;
	snprintf(cand, sizeof cand, "%s", name);
	normalise(cand, sizeof cand);
	if ((i = file_index(cand)) >= 0)
		return i;
	for (size_t d = 0; d < sizeof machine_dirs / sizeof *machine_dirs; d++) {
		snprintf(cand, sizeof cand, "%s/%s", machine_dirs[d], name);
		if ((i = file_index(cand)) >= 0)
			return i;
	}
	return -1;
}

/* A file's module: its own, or for a .c with no header of its own, that of
 * the first header it includes from its folder. */
static int module_of_file(int f)
{
	const char *path = files[f];
	size_t n = strlen(path);
	if (path[n - 1] == 'c' && first_local[f] >= 0 && is_host_code(path)) {
		char header[512];
		snprintf(header, sizeof header, "%.*sh", (int)(n - 1), path);
		if (file_index(header) < 0)
			return module_of(files[first_local[f]]);
	}
	return module_of(path);
}

static void read_includes(void)
{
	for (int f = 0; f < nfiles; f++) {
		first_local[f] = -1;
		FILE *in = fopen(files[f], "r");
		assert_non_null(in);
		char line[1024], name[256];
		while (fgets(line, sizeof line, in)) {
			if (sscanf(line, " # include \"%255[^\"]\"", name) != 1)
				continue;
			int to = resolve(files[f], name);
			if (to < 0)
				continue;
			if (first_local[f] < 0 && same_folder(files[f], files[to]))
				first_local[f] = to;
			assert_true(nedges < MAX_EDGES);
			edge_from[nedges] = f;
			edge_to[nedges] = to;
			nedges++;
		}
		fclose(in);
	}
}

static int setup(void **state)
{
	(void)state;
	if (nfiles)
		return 0;
	for (size_t r = 0; r < sizeof source_roots / sizeof *source_roots; r++)
		if (nftw(source_roots[r], collect, 16, FTW_PHYS) != 0)
			return -1;
	read_includes();
	return 0;
}

static int under(const char *path, const char *dir)
{
	size_t n = strlen(dir);
	return strncmp(path, dir, n) == 0 && path[n] == '/';
}

static int is_host_code(const char *path)
{
	return under(path, "hostfilter") || under(path, "analysis") || under(path, "qemu");
}

static void host_code_reaches_the_kernel_only_through_its_contracts(void **state)
{
	(void)state;
	int bad = 0;
	for (int e = 0; e < nedges; e++) {
		const char *from = files[edge_from[e]], *to = files[edge_to[e]];
		if (!is_host_code(from))
			continue;
		if ((under(to, "kernel") && !under(to, "kernel/abi")) || under(to, "arch") ||
		    under(to, "servers") || under(to, "meter")) {
			fprintf(stderr, "%s includes %s (host code may use kernel/abi/ only)\n", from, to);
			bad++;
		}
	}
	assert_int_equal(bad, 0);
}

static int layer_rank(const struct layer_order *o, const char *path)
{
	for (int i = 0; o->layers[i]; i++)
		if (under(path, o->layers[i]))
			return i;
	return -1;
}

static void layers_include_downward_only(void **state)
{
	(void)state;
	int bad = 0;
	for (size_t o = 0; o < sizeof layer_orders / sizeof *layer_orders; o++) {
		const struct layer_order *lo = &layer_orders[o];
		for (int e = 0; e < nedges; e++) {
			const char *from = files[edge_from[e]], *to = files[edge_to[e]];
			int rf = layer_rank(lo, from), rt = layer_rank(lo, to);
			if (rf >= 0 && rt > rf) {
				fprintf(stderr, "%s includes %s, a layer above it\n", from, to);
				bad++;
			}
		}
	}
	assert_int_equal(bad, 0);
}

/* Tarjan's strongly connected components over modules. */
static int tj_index[MAX_FILES], tj_low[MAX_FILES], tj_on[MAX_FILES], tj_stack[MAX_FILES];
static int tj_next, tj_top, tj_circles;
static int mod_from[MAX_EDGES], mod_to[MAX_EDGES], nmod_edges;
static const int *g_from, *g_to;
static int g_nedges;
static char *const *g_names;
static char *fake_names[] = { "a", "b", "c", "d" }; /* the self-check's graph */

static void strongconnect(int v)
{
	tj_index[v] = tj_low[v] = ++tj_next;
	tj_stack[tj_top++] = v;
	tj_on[v] = 1;
	for (int e = 0; e < g_nedges; e++) {
		if (g_from[e] != v)
			continue;
		int w = g_to[e];
		if (!tj_index[w]) {
			strongconnect(w);
			if (tj_low[w] < tj_low[v])
				tj_low[v] = tj_low[w];
		} else if (tj_on[w] && tj_index[w] < tj_low[v]) {
			tj_low[v] = tj_index[w];
		}
	}
	if (tj_low[v] != tj_index[v])
		return;
	int size = 0, w;
	char members[2048] = "";
	do {
		w = tj_stack[--tj_top];
		tj_on[w] = 0;
		size++;
		if (strlen(members) + strlen(g_names[w]) + 3 < sizeof members) {
			strcat(members, " ");
			strcat(members, g_names[w]);
		}
	} while (w != v);
	if (size > 1) {
		if (g_names != fake_names)
			fprintf(stderr, "include circle:%s\n", members);
		tj_circles++;
	}
}

/* The circles (strongly connected sets of more than one) of a graph of n
 * nodes, each printed to stderr. */
static int count_circles(int n, char *const *names, const int *from, const int *to, int nedges)
{
	g_from = from;
	g_to = to;
	g_nedges = nedges;
	g_names = names;
	memset(tj_index, 0, sizeof tj_index);
	memset(tj_on, 0, sizeof tj_on);
	tj_next = tj_top = tj_circles = 0;
	for (int v = 0; v < n; v++)
		if (!tj_index[v])
			strongconnect(v);
	return tj_circles;
}

static void no_include_circles(void **state)
{
	(void)state;
	for (int e = 0; e < nedges; e++) {
		int a = module_of_file(edge_from[e]), b = module_of_file(edge_to[e]);
		if (a != b) {
			mod_from[nmod_edges] = a;
			mod_to[nmod_edges] = b;
			nmod_edges++;
		}
	}
	assert_int_equal(count_circles(nmodules, modules, mod_from, mod_to, nmod_edges), 0);
}

/* The checks themselves work: a made-up tree with a circle and a host file
 * reaching into the kernel is caught. */
static void the_checks_catch_what_they_are_for(void **state)
{
	(void)state;
	assert_true(is_host_code("analysis/model/events.c"));
	assert_false(is_host_code("kernel/ipc.c"));
	assert_true(under("kernel/abi/trace.h", "kernel/abi"));
	assert_false(under("kernel/abiz.h", "kernel/abi"));
	char p[64] = "hostfilter/commands/../tracelog/./log.h";
	normalise(p, sizeof p);
	assert_string_equal(p, "hostfilter/tracelog/log.h");
	assert_int_equal(layer_rank(&layer_orders[0], "hostfilter/commands/dump.c"), 3);
	assert_int_equal(layer_rank(&layer_orders[0], "hostfilter/tracelog/log.c"), 0);
	const int line_from[] = { 0, 1, 2 }, line_to[] = { 1, 2, 3 };
	assert_int_equal(count_circles(4, fake_names, line_from, line_to, 3), 0);
	const int ring_from[] = { 0, 1, 2, 3 }, ring_to[] = { 1, 2, 0, 0 };
	assert_int_equal(count_circles(4, fake_names, ring_from, ring_to, 4), 1);
}

int main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(the_checks_catch_what_they_are_for),
		cmocka_unit_test_setup(host_code_reaches_the_kernel_only_through_its_contracts, setup),
		cmocka_unit_test_setup(layers_include_downward_only, setup),
		cmocka_unit_test_setup(no_include_circles, setup),
	};
	return cmocka_run_group_tests(tests, NULL, NULL);
}
