// SPDX-License-Identifier: GPL-2.0
/*
 * Check that the guest sees the CPU topology the harness asked QEMU for.
 *
 * The harness passes LATNICE_TOPO=SxCxT (sockets x cores x threads) on the
 * kernel command line; the kernel hands unknown parameters to init as
 * environment variables.  Everything the latency nice tests assume about
 * SMT siblings and the LLC is checked here first, from three sources:
 * sysfs topology and cache files, the scheduler's domain names and flags
 * in debugfs (needs sched_verbose), and domain spans in /proc/schedstat.
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "kselftest_harness.h"
#include "cpulist.h"

#define MAX_CPUS	256
#define MAX_DOMAINS	8

typedef bool cpuset_t[MAX_CPUS];

/* Each CPU of @set in turn, as @cpu. */
#define for_each_cpu_in(cpu, set) \
	for (int cpu = 0; cpu < MAX_CPUS; cpu++) \
		if (set[cpu])

static int sockets, cores, threads;

static int read_line(const char *path, char *buf, size_t len)
{
	FILE *f = fopen(path, "r");

	if (!f)
		return -errno;
	if (!fgets(buf, len, f)) {
		fclose(f);
		return -EIO;
	}
	fclose(f);
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

/* Parse a hex cpumask such as "00000000,000000ff" (as in /proc/schedstat). */
static int parse_cpumask(const char *s, cpuset_t set)
{
	int len = strlen(s), bit = 0, n = 0;

	memset(set, 0, sizeof(cpuset_t));
	for (int i = len - 1; i >= 0; i--) {
		int v;

		if (s[i] == ',')
			continue;
		if (!isxdigit((unsigned char)s[i]))
			return -EINVAL;
		v = isdigit((unsigned char)s[i]) ? s[i] - '0' :
			tolower((unsigned char)s[i]) - 'a' + 10;
		for (int j = 0; j < 4; j++, bit++) {
			if ((v >> j) & 1) {
				if (bit >= MAX_CPUS)
					return -EINVAL;
				set[bit] = true;
				n++;
			}
		}
	}
	return n;
}

static int cpu_file_set(int cpu, const char *file, cpuset_t set)
{
	char path[128], buf[1024];
	int ret;

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/%s", cpu, file);
	ret = read_line(path, buf, sizeof(buf));
	return ret ? ret : cpulist_parse(buf, set, MAX_CPUS);
}

static int cpu_file_int(int cpu, const char *file)
{
	char path[128], buf[64];

	snprintf(path, sizeof(path), "/sys/devices/system/cpu/cpu%d/%s", cpu, file);
	if (read_line(path, buf, sizeof(buf)))
		return -1;
	return atoi(buf);
}

static int online_cpus(cpuset_t set)
{
	char buf[1024];

	if (read_line("/sys/devices/system/cpu/online", buf, sizeof(buf)))
		return -1;
	return cpulist_parse(buf, set, MAX_CPUS);
}

/* The sched domains of @cpu, lowest first: spans from /proc/schedstat. */
static int domain_spans(int cpu, cpuset_t spans[MAX_DOMAINS])
{
	char line[4096], want[32];
	FILE *f = fopen("/proc/schedstat", "r");
	int in_cpu = 0, n = 0;

	if (!f)
		return -errno;
	snprintf(want, sizeof(want), "cpu%d ", cpu);
	while (fgets(line, sizeof(line), f)) {
		if (!strncmp(line, "cpu", 3)) {
			in_cpu = !strncmp(line, want, strlen(want));
			continue;
		}
		if (in_cpu && !strncmp(line, "domain", 6) && n < MAX_DOMAINS) {
			char mask[1024];

			if (sscanf(line, "%*s %1023s", mask) != 1 ||
			    parse_cpumask(mask, spans[n]) < 0) {
				fclose(f);
				return -EINVAL;
			}
			n++;
		}
	}
	fclose(f);
	return n;
}

static int domain_file(int cpu, int level, const char *file, char *buf, size_t len)
{
	char path[160];

	snprintf(path, sizeof(path), "/sys/kernel/debug/sched/domains/cpu%d/domain%d/%s",
		 cpu, level, file);
	return read_line(path, buf, len);
}

static int same_set(const cpuset_t a, const cpuset_t b)
{
	return !memcmp(a, b, sizeof(cpuset_t));
}

static int weight(const cpuset_t a)
{
	int n = 0;

	for (int i = 0; i < MAX_CPUS; i++)
		n += a[i];
	return n;
}

static void print_set(const char *what, const cpuset_t a)
{
	char buf[1024] = "";
	int len = 0;

	for (int i = 0; i < MAX_CPUS; i++)
		if (a[i])
			len += snprintf(buf + len, sizeof(buf) - len, "%s%d",
					len ? "," : "", i);
	ksft_print_msg("%s: %s\n", what, buf);
}

TEST(cpu_count)
{
	cpuset_t online;
	int n = online_cpus(online);

	ASSERT_EQ(sockets * cores * threads, n) {
		TH_LOG("QEMU was asked for %dx%dx%d CPUs", sockets, cores, threads);
	}
	ASSERT_EQ(n, sysconf(_SC_NPROCESSORS_ONLN));
}

TEST(smt_siblings)
{
	cpuset_t online, sib, other;

	ASSERT_LT(0, online_cpus(online));
	for_each_cpu_in(cpu, online) {
		ASSERT_EQ(threads, cpu_file_set(cpu, "topology/thread_siblings_list", sib))
			TH_LOG("cpu%d", cpu);
		ASSERT_TRUE(sib[cpu]);
		/* Siblings agree on who their siblings are. */
		for_each_cpu_in(s, sib) {
			ASSERT_EQ(threads, cpu_file_set(s, "topology/thread_siblings_list", other));
			ASSERT_TRUE(same_set(sib, other)) TH_LOG("cpu%d and cpu%d", cpu, s);
		}
	}
}

/*
 * How the siblings are numbered, as the harness asked (LATNICE_NUMBERING):
 * "adjacent" (QEMU's order, cpu n's siblings are n rounded down to a
 * multiple of threads and the next ones) or "apart" (thread 0 of every
 * core first, so cpu n's siblings are n plus or minus multiples of the
 * number of cores).  The tests that depend on the numbering rely on this.
 */
TEST(sibling_numbering)
{
	const char *numbering = getenv("LATNICE_NUMBERING");
	int ncores = sockets * cores;
	cpuset_t online, sib;

	if (!numbering)
		numbering = "adjacent";
	ASSERT_TRUE(!strcmp(numbering, "adjacent") || !strcmp(numbering, "apart"))
		TH_LOG("LATNICE_NUMBERING=%s", numbering);
	ASSERT_LT(0, online_cpus(online));
	for_each_cpu_in(cpu, online) {
		ASSERT_EQ(threads, cpu_file_set(cpu, "topology/thread_siblings_list", sib));
		for (int t = 0; t < threads; t++) {
			int want = !strcmp(numbering, "apart") ? cpu % ncores + t * ncores :
				   cpu - cpu % threads + t;

			EXPECT_TRUE(sib[want])
				TH_LOG("%s numbering: cpu%d's sibling cpu%d missing", numbering, cpu, want);
		}
	}
}

TEST(packages)
{
	cpuset_t online, pkg;
	int seen[MAX_CPUS] = { 0 }, npkg = 0;

	ASSERT_LT(0, online_cpus(online));
	for_each_cpu_in(cpu, online) {
		int id = cpu_file_int(cpu, "topology/physical_package_id");

		ASSERT_LE(0, id);
		ASSERT_GT(MAX_CPUS, id);
		if (!seen[id]++)
			npkg++;
		ASSERT_EQ(cores * threads, cpu_file_set(cpu, "topology/package_cpus_list", pkg))
			TH_LOG("cpu%d", cpu);
	}
	ASSERT_EQ(sockets, npkg);
}

/* QEMU gives each socket one L3: the LLC is the package. */
TEST(llc_span)
{
	cpuset_t online, llc, pkg;

	ASSERT_LT(0, online_cpus(online));
	for_each_cpu_in(cpu, online) {
		ASSERT_EQ(3, cpu_file_int(cpu, "cache/index3/level"));
		ASSERT_EQ(cores * threads, cpu_file_set(cpu, "cache/index3/shared_cpu_list", llc))
			TH_LOG("cpu%d", cpu);
		ASSERT_LT(0, cpu_file_set(cpu, "topology/package_cpus_list", pkg));
		ASSERT_TRUE(same_set(llc, pkg));
	}
}

/*
 * The scheduler's view: an SMT domain spanning the siblings (when there
 * are any), the highest domain with SD_SHARE_LLC spanning the LLC, and the
 * top domain spanning every online CPU.
 */
TEST(sched_domains)
{
	cpuset_t online, spans[MAX_DOMAINS], sib, llc;
	char name[64], flags[512];

	ASSERT_LT(0, online_cpus(online));
	if (access("/sys/kernel/debug/sched/domains/cpu0", F_OK))
		SKIP(return, "no sched domains in debugfs (boot with sched_verbose)");
	for_each_cpu_in(cpu, online) {
		int n = domain_spans(cpu, spans), llc_level = -1;

		ASSERT_LT(0, n) TH_LOG("cpu%d has no domains in /proc/schedstat", cpu);
		ASSERT_EQ(0, cpu_file_set(cpu, "topology/thread_siblings_list", sib) < 0);
		ASSERT_EQ(0, cpu_file_set(cpu, "cache/index3/shared_cpu_list", llc) < 0);
		for (int l = 0; l < n; l++) {
			ASSERT_EQ(0, domain_file(cpu, l, "name", name, sizeof(name)))
				TH_LOG("cpu%d domain%d", cpu, l);
			ASSERT_EQ(0, domain_file(cpu, l, "flags", flags, sizeof(flags)));
			if (strstr(flags, "SD_SHARE_LLC"))
				llc_level = l;
			if (l == 0 && threads > 1) {
				ASSERT_STREQ("SMT", name);
				ASSERT_TRUE(same_set(spans[0], sib)) {
					print_set("SMT domain", spans[0]);
					print_set("siblings", sib);
				}
			}
		}
		ASSERT_LE(0, llc_level) TH_LOG("cpu%d: no domain shares the LLC", cpu);
		ASSERT_TRUE(same_set(spans[llc_level], llc)) {
			TH_LOG("cpu%d", cpu);
			print_set("LLC domain", spans[llc_level]);
			print_set("LLC in sysfs", llc);
		}
		ASSERT_TRUE(same_set(spans[n - 1], online));
		ASSERT_EQ(weight(online), weight(spans[n - 1]));
	}
}

int main(int argc, char **argv)
{
	const char *topo = getenv("LATNICE_TOPO");

	if (!topo || sscanf(topo, "%dx%dx%d", &sockets, &cores, &threads) != 3 ||
	    sockets < 1 || cores < 1 || threads < 1) {
		ksft_print_header();
		ksft_exit_fail_msg("LATNICE_TOPO=SxCxT is not set or malformed: '%s'\n",
				   topo ? topo : "");
	}
	return test_harness_run(argc, argv);
}
