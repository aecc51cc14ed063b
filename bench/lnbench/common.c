// SPDX-License-Identifier: GPL-2.0
/* lnbench: the helpers its workloads share (see lnbench.h). */
#include "lnbench.h"

void die(const char *what)
{
	fprintf(stderr, "lnbench: %s: %s\n", what, strerror(errno));
	exit(1);
}

uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
}

void unpin(void)
{
	cpu_set_t set;
	int i;

	CPU_ZERO(&set);
	for (i = 0; i < MAX_CPUS; i++)
		CPU_SET(i, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

void read_full(int fd, void *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = read(fd, (char *)buf + done, len - done);

		if (n <= 0) {
			if (n < 0 && errno == EINTR)
				continue;
			die("read");
		}
		done += n;
	}
}

void write_full(int fd, const void *buf, size_t len)
{
	size_t done = 0;

	while (done < len) {
		ssize_t n = write(fd, (const char *)buf + done, len - done);

		if (n <= 0) {
			if (n < 0 && errno == EINTR)
				continue;
			die("write");
		}
		done += n;
	}
}

/*
 * The SMT siblings of @cpu (itself included) into @mask, which is cleared
 * first; left empty when the kernel does not say.
 */
void siblings(int cpu, bool *mask)
{
	char path[128], buf[256];
	FILE *f;

	memset(mask, 0, MAX_CPUS * sizeof(*mask));
	snprintf(path, sizeof(path),
		 "/sys/devices/system/cpu/cpu%d/topology/thread_siblings_list", cpu);
	f = fopen(path, "r");
	if (!f)
		return;
	if (fgets(buf, sizeof(buf), f) && cpulist_parse(buf, mask, MAX_CPUS) < 0)
		memset(mask, 0, MAX_CPUS * sizeof(*mask));
	fclose(f);
}

/*
 * The idle CPU search counters of the task @tid of this process, from
 * /proc/self/task/<tid>/sched (schedstats): searches, CPUs probed, found,
 * skipped, bounded, and the time in ns.  False without them.
 */
bool idle_search(int tid, unsigned long long v[6])
{
	static const char *const names[6] = {
		"nr_idle_scans", "nr_idle_scan_probes", "nr_idle_scan_found",
		"nr_idle_scans_skipped", "nr_idle_scans_bounded", "idle_scan_sum",
	};
	char path[64], line[256], name[128];
	int i, got = 0;
	FILE *f;

	snprintf(path, sizeof(path), "/proc/self/task/%d/sched", tid);
	f = fopen(path, "r");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		unsigned long long a, b = 0;
		char *colon = strchr(line, ':');

		if (!colon || sscanf(line, "%127s", name) != 1)
			continue;
		for (i = 0; i < 6; i++) {
			if (strcmp(name, names[i]))
				continue;
			if (i < 5) {
				sscanf(colon + 1, "%llu", &v[i]);
			} else {
				/* idle_scan_sum is in ms, with 6 decimals. */
				sscanf(colon + 1, "%llu.%llu", &a, &b);
				v[i] = a * 1000000 + b;
			}
			got++;
		}
	}
	fclose(f);
	return got == 6;
}

atomic_bool stop;

atomic_int ready;

atomic_int indifferent_set, sensitive_set;

/*
 * Latency nice @value on the calling thread (sched_attr's 60-byte layout
 * with sched_latency_nice after util_max); 0, or -1 on a kernel without it.
 */
int set_latency_nice(int value)
{
	struct {
		uint32_t size, policy;
		uint64_t flags;
		int32_t nice;
		uint32_t priority;
		uint64_t runtime, deadline, period;
		uint32_t util_min, util_max;
		int32_t latency_nice;
	} attr = { .size = 60, .latency_nice = value,
		   /* LATENCY_NICE | KEEP_PARAMS | KEEP_POLICY */
		   .flags = 0x80 | 0x10 | 0x08 };

	return syscall(SYS_sched_setattr, 0, &attr, 0);
}

/*
 * Keep a CPU busy.  PAUSE also ends the vCPU's turn in QEMU's round-robin
 * TCG, so that under -icount the busy CPUs cost few instructions and the
 * virtual time of a search is the search's own.
 */
static void *spinner(void *arg)
{
	long a = (long)arg;

	pin((int)(a & SPIN_CPU));
	if ((a & SPIN_INDIFFERENT) && !set_latency_nice(19))
		atomic_fetch_add(&indifferent_set, 1);
	if ((a & SPIN_SENSITIVE) && !set_latency_nice(-20))
		atomic_fetch_add(&sensitive_set, 1);
	atomic_fetch_add(&ready, 1);
	while (!atomic_load_explicit(&stop, memory_order_relaxed))
		__builtin_ia32_pause();
	return NULL;
}

void start_spinners(const bool *busy, const bool *indifferent, const bool *sensitive,
		    pthread_t *t, int *n)
{
	int cpu;

	*n = 0;
	atomic_store(&ready, 0);
	atomic_store(&indifferent_set, 0);
	atomic_store(&sensitive_set, 0);
	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		long arg = cpu | (indifferent && indifferent[cpu] ? SPIN_INDIFFERENT : 0) |
			   (sensitive && sensitive[cpu] ? SPIN_SENSITIVE : 0);

		if (busy[cpu] && !pthread_create(&t[*n], NULL, spinner, (void *)arg))
			(*n)++;
	}
	while (atomic_load(&ready) < *n)	/* until each is on its CPU */
		sched_yield();
}

void stop_spinners(pthread_t *t, int n)
{
	atomic_store(&stop, true);
	while (n--)
		pthread_join(t[n], NULL);
	atomic_store(&stop, false);
}

/* The CPUs of option -@opt's cpulist @arg into @mask: how many, or -1 (said). */
int cpus_option(int opt, const char *arg, bool *mask)
{
	int n = cpulist_parse(arg, mask, MAX_CPUS);

	if (n < 0)
		fprintf(stderr, "lnbench: -%c %s: not a cpulist of CPUs below %d\n",
			opt, arg, MAX_CPUS);
	return n;
}

void spin_ns(uint64_t ns)
{
	uint64_t end = now_ns() + ns;

	while (now_ns() < end)
		;
}

int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

/* The state and the last CPU of thread @tid of this process; false if gone. */
bool task_where(int tid, char *state, int *cpu)
{
	char path[64], buf[1024], *p;
	int field = 3;
	FILE *f;
	bool ok;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	f = fopen(path, "r");
	if (!f)
		return false;
	ok = fgets(buf, sizeof(buf), f) && (p = strrchr(buf, ')'));
	fclose(f);
	if (!ok)
		return false;
	p += 2;			/* field 3, the state */
	*state = *p;
	while (field < 39 && (p = strchr(p, ' '))) {
		p++;
		field++;
	}
	return p && sscanf(p, "%d", cpu) == 1;
}

/*
 * Column @col (counted from 0 after "all") of the "all" line of
 * sched/idle_search, or -1 without it.
 */
long long idle_search_all(int col)
{
	FILE *f = fopen("/sys/kernel/debug/sched/idle_search", "r");
	char line[512], *tok, *save;
	long long n = -1;
	int i;

	if (!f)
		return -1;
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "all ", 4))
			continue;
		tok = strtok_r(line + 4, " \n", &save);
		for (i = 0; tok && i < col; i++)
			tok = strtok_r(NULL, " \n", &save);
		n = tok ? strtoll(tok, NULL, 10) : -1;
	}
	fclose(f);
	return n;
}
