// SPDX-License-Identifier: GPL-2.0
/*
 * lnbench pack: one workload of make bench (see lnbench.h).
 *
 * lnbench pack -l CPULIST -c CPULIST [-n THREADS] [-w US] [-d DUTY] [-t MS]
 *	Packing: a periodic load (DUTY percent, 20 by default, of every
 *	10 ms, at latency nice 0) pinned on each CPU of -l; THREADS (1)
 *	threads with the latency nice lnbench was started with sleep first
 *	on the CPUs of -c (in turn), then, free to run anywhere, work US (0)
 *	us and sleep on a 4 ms timer, again and again, for MS (2000) ms.
 *	Reports the wakeups, the share of them that ran on the SMT cores of
 *	the loads (on_loads) and on the loads' CPUs themselves
 *	(on_load_cpus), the change of the packed counter of
 *	sched/idle_search (-1 without it), the share of 1 ms samples of the
 *	threads' last CPUs (/proc/.../stat, read on the first load's CPU) on
 *	the loads' cores (resident), the cores that took 1% of the wakeups
 *	or more, the loads' included (cores_used), those any wakeup touched
 *	(cores_touched), and the CPU time spent off the loads' cores
 *	(/proc/stat, in CPUs: off_loads_cpus).
 */
#include "lnbench.h"

#define PACK_PERIOD_NS	10000000ull	/* the loads' period */
#define PACK_SLEEP_NS	4000000ull	/* the measured thread's timer */

struct pack_load {
	int cpu, duty;
};

/*
 * A periodic load: @duty percent of every PACK_PERIOD_NS, pinned, at
 * latency nice 0 (the measured thread's value is inherited).
 */
static void *pack_load(void *arg)
{
	const struct pack_load *l = arg;
	uint64_t start = now_ns(), busy = PACK_PERIOD_NS * l->duty / 100;

	pin(l->cpu);
	set_latency_nice(0);
	atomic_fetch_add(&ready, 1);
	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		struct timespec next;

		while (now_ns() - start < busy)
			;
		start += PACK_PERIOD_NS;
		if (now_ns() > start)
			start = now_ns();
		next.tv_sec = start / 1000000000ull;
		next.tv_nsec = start % 1000000000ull;
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &next, NULL);
	}
	return NULL;
}

#define PACK_THREADS	16

/* A measured thread of lnbench pack, and what it saw. */
struct pack_thread {
	int start, work_us;
	const bool *load_cpu, *load_core;
	atomic_int tid;
	unsigned long wakeups, on_core, on_cpu;
	unsigned long per_cpu[MAX_CPUS];
	pthread_t t;
};

struct pack_sampler {
	int cpu, n;
	struct pack_thread *threads;
	const bool *core;
	long samples, resident;
};

/*
 * Residency: every 1 ms, on @cpu (one of the loads', which are busy
 * anyway, so that sampling makes no new busy CPU to pack on), the last CPU
 * of each measured thread, until stop.
 */
static void *pack_sample(void *arg)
{
	struct pack_sampler *ps = arg;
	struct timespec ts = { 0, 1000000 };

	pin(ps->cpu);
	set_latency_nice(0);
	atomic_fetch_add(&ready, 1);
	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		for (int i = 0; i < ps->n; i++) {
			char state;
			int cpu;

			if (task_where(atomic_load(&ps->threads[i].tid), &state, &cpu) &&
			    cpu >= 0 && cpu < MAX_CPUS) {
				ps->samples++;
				ps->resident += ps->core[cpu];
			}
		}
		nanosleep(&ts, NULL);
	}
	return NULL;
}

/* Sleep PACK_SLEEP_NS on a timer; the CPU the thread woke up on. */
static int pack_wakeup(void)
{
	struct timespec ts = { 0, PACK_SLEEP_NS };

	nanosleep(&ts, NULL);
	return sched_getcpu();
}

static long long packed_all(void)
{
	return idle_search_all(IDLE_SEARCH_PACKED);
}

/* The busy time of every CPU (/proc/stat: all but idle and iowait), in ticks. */
static bool cpu_busy_ticks(unsigned long long *busy)
{
	unsigned long long v[10];
	char line[512];
	FILE *f = fopen("/proc/stat", "r");
	int cpu;

	if (!f)
		return false;
	memset(busy, 0, sizeof(*busy) * MAX_CPUS);
	while (fgets(line, sizeof(line), f)) {
		if (strncmp(line, "cpu", 3) || line[3] == ' ' ||
		    sscanf(line + 3, "%d %llu %llu %llu %llu %llu %llu %llu %llu", &cpu,
			   &v[0], &v[1], &v[2], &v[3], &v[4], &v[5], &v[6], &v[7]) != 9 ||
		    cpu < 0 || cpu >= MAX_CPUS)
			continue;
		busy[cpu] = v[0] + v[1] + v[2] + v[5] + v[6] + v[7];
	}
	fclose(f);
	return true;
}

/*
 * A measured thread: first asleep on its start CPU, then free to run
 * anywhere, it works work_us and sleeps on a PACK_SLEEP_NS timer until
 * stop, counting where it woke up.
 */
static void *pack_thread(void *arg)
{
	struct pack_thread *pt = arg;

	atomic_store(&pt->tid, (int)syscall(SYS_gettid));
	pin(pt->start);
	pack_wakeup();
	pack_wakeup();
	unpin();
	atomic_fetch_add(&ready, 1);
	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		int cpu;

		spin_ns(pt->work_us * 1000ull);
		cpu = pack_wakeup();
		if (cpu < 0 || cpu >= MAX_CPUS)
			die("sched_getcpu");
		pt->wakeups++;
		pt->per_cpu[cpu]++;
		pt->on_core += pt->load_core[cpu];
		pt->on_cpu += pt->load_cpu[cpu];
	}
	return NULL;
}

int do_pack(int argc, char **argv)
{
	bool loads[MAX_CPUS] = { false }, load_core[MAX_CPUS] = { false }, sib[MAX_CPUS];
	bool starts[MAX_CPUS] = { false }, seen[MAX_CPUS];
	unsigned long long busy0[MAX_CPUS], busy1[MAX_CPUS], off_busy = 0;
	static struct pack_thread pt[PACK_THREADS];
	struct pack_load l[MAX_CPUS];
	struct pack_sampler ps;
	pthread_t t[MAX_CPUS + 1];
	int n = 0, nloads = 0, nstarts = 0, nthreads = 1, work_us = 0, duty = 20, ms = 2000;
	int opt, cpu, i, cores = 0, touched = 0;
	long long packed, after;
	unsigned long wakeups = 0, on_core = 0, on_cpu = 0;
	uint64_t t0, elapsed;
	bool stat_ok;

	while ((opt = getopt(argc, argv, "l:d:c:t:n:w:")) != -1) {
		switch (opt) {
		case 'l':
			nloads = cpus_option(opt, optarg, loads);
			if (nloads < 0)
				return 2;
			break;
		case 'c':
			nstarts = cpus_option(opt, optarg, starts);
			if (nstarts < 0)
				return 2;
			break;
		case 'd': duty = atoi(optarg); break;
		case 't': ms = atoi(optarg); break;
		case 'n': nthreads = atoi(optarg); break;
		case 'w': work_us = atoi(optarg); break;
		default: return 2;
		}
	}
	if (nstarts < 1 || duty < 1 || duty > 99 || ms < 1 || nloads < 1 || nthreads < 1 ||
	    nthreads > PACK_THREADS || work_us < 0 || work_us >= (int)(PACK_SLEEP_NS / 1000)) {
		fprintf(stderr, "lnbench pack: -l CPULIST (at least one load), -c CPULIST (where "
			"the threads sleep first), -d DUTY in [1, 99], -t MS > 0, -n THREADS in "
			"[1, %d], -w US in [0, %llu)\n", PACK_THREADS, PACK_SLEEP_NS / 1000);
		return 2;
	}
	atomic_store(&ready, 0);
	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		if (!loads[cpu])
			continue;
		siblings(cpu, sib);
		for (i = 0; i < MAX_CPUS; i++)
			load_core[i] |= sib[i];
		load_core[cpu] = true;
		l[n] = (struct pack_load){ .cpu = cpu, .duty = duty };
		if (pthread_create(&t[n], NULL, pack_load, &l[n]))
			die("pthread_create");
		n++;
	}
	while (atomic_load(&ready) < n)
		sched_yield();
	/* Long enough for the loads' utilization to settle (PELT halves in 32 ms). */
	usleep(300000);
	atomic_store(&ready, 0);
	for (i = 0, cpu = 0; i < nthreads; i++, cpu++) {
		while (!starts[cpu % MAX_CPUS])
			cpu++;
		pt[i] = (struct pack_thread){ .start = cpu % MAX_CPUS, .work_us = work_us,
					      .load_cpu = loads, .load_core = load_core };
		if (pthread_create(&pt[i].t, NULL, pack_thread, &pt[i]))
			die("pthread_create");
	}
	while (atomic_load(&ready) < nthreads)
		sched_yield();
	ps = (struct pack_sampler){ .cpu = l[0].cpu, .n = nthreads, .threads = pt,
				    .core = load_core };
	atomic_store(&ready, 0);
	if (pthread_create(&t[n], NULL, pack_sample, &ps))
		die("pthread_create");
	while (atomic_load(&ready) < 1)
		sched_yield();
	packed = packed_all();
	stat_ok = cpu_busy_ticks(busy0);
	t0 = now_ns();
	usleep(ms * 1000);
	atomic_store(&stop, true);
	elapsed = now_ns() - t0;
	stat_ok = stat_ok && cpu_busy_ticks(busy1);
	after = packed_all();
	packed = packed >= 0 && after >= 0 ? after - packed : -1;
	for (i = 0; i < nthreads; i++)
		pthread_join(pt[i].t, NULL);
	for (i = 0; i <= n; i++)
		pthread_join(t[i], NULL);
	atomic_store(&stop, false);
	for (i = 0; i < nthreads; i++) {
		wakeups += pt[i].wakeups;
		on_core += pt[i].on_core;
		on_cpu += pt[i].on_cpu;
	}
	/*
	 * The cores used: the loads', and those that took 1% of the
	 * wakeups or more (not a stray one); and those any wakeup touched.
	 */
	memset(seen, 0, sizeof(seen));
	for (cpu = 0; cpu < MAX_CPUS; cpu++) {
		unsigned long on_this = 0;

		if (seen[cpu])
			continue;
		siblings(cpu, sib);
		sib[cpu] = true;
		for (int c = 0; c < MAX_CPUS; c++) {
			if (!sib[c])
				continue;
			seen[c] = true;
			for (i = 0; i < nthreads; i++)
				on_this += pt[i].per_cpu[c];
		}
		cores += load_core[cpu] || (on_this && on_this * 100 >= wakeups);
		touched += load_core[cpu] || on_this;
	}
	/* The CPU time spent off the loads' cores, in CPUs (the sampler is on one). */
	for (cpu = 0; stat_ok && cpu < MAX_CPUS; cpu++)
		if (!load_core[cpu])
			off_busy += busy1[cpu] - busy0[cpu];
	printf("BENCH mode=pack threads=%d wakeups=%lu on_loads=%.4f on_load_cpus=%.4f "
	       "packed=%lld resident=%.4f cores_used=%d cores_touched=%d off_loads_cpus=%.3f\n",
	       nthreads, wakeups, wakeups ? (double)on_core / wakeups : 0,
	       wakeups ? (double)on_cpu / wakeups : 0, packed,
	       ps.samples ? (double)ps.resident / ps.samples : 0, cores, touched,
	       stat_ok && elapsed ? off_busy * 1e9 / sysconf(_SC_CLK_TCK) / elapsed : -1);
	return 0;
}
