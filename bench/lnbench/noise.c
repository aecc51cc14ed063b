// SPDX-License-Identifier: GPL-2.0
/*
 * lnbench noise: one workload of make bench (see lnbench.h).
 *
 * lnbench noise -s CPU [-n NOISE] [-w US] [-p US] [-W US] [-P US] [-t MS]
 *	Protection and the protected task's latency: a thread with the
 *	latency nice lnbench was started with, pinned on CPU -s, wakes up
 *	every -P (1000) us on an absolute timer and works -W (200) us, for
 *	MS (3000) ms; NOISE (8) threads at latency nice 0 first sleep on
 *	that CPU's SMT core, then, free to run anywhere, work -w (500) us
 *	and sleep -p (1500, plus 37 more per thread) us, again and again.
 *	Reports the measured thread's wakeups and how late they ran
 *	(average, p50, p99, p99.9, maximum, in us), the share of the noise's
 *	wakeups that ran on the measured thread's core (on_core), the share
 *	of 1 ms samples of the noise threads' last CPU (/proc/.../stat) on
 *	that core (resident) and of those that were runnable there
 *	(running), and the change of the protected counter of
 *	sched/idle_search (-1 without it).
 */
#include "lnbench.h"

#define NOISE_MAX	64
#define NOISE_SAMPLE_NS	1000000ull	/* the residency sampler's period */

/*
 * As spin_ns(), with PAUSE in the loop: under -icount it ends the vCPU's
 * turn in QEMU's round-robin TCG, so that a timer of another vCPU is not
 * served late by the length of this one's turn.
 */
static void spin_pause_ns(uint64_t ns)
{
	uint64_t end = now_ns() + ns;

	while (now_ns() < end)
		__builtin_ia32_pause();
}

struct noise {
	int start, work_us, period_us;
	atomic_int tid;
	long wakeups, on_core;
	const bool *core;
	pthread_t t;
};

/*
 * A noise thread at latency nice 0: it sleeps once on CPU @start, then,
 * free to run anywhere, works @work_us and sleeps @period_us, again and
 * again, counting the wakeups that ran on the measured thread's core.
 */
static void *noise_main(void *arg)
{
	struct noise *n = arg;
	struct timespec ts = { 0, n->period_us * 1000L };

	set_latency_nice(0);
	pin(n->start);
	atomic_store(&n->tid, (int)syscall(SYS_gettid));
	atomic_fetch_add(&ready, 1);
	nanosleep(&ts, NULL);
	unpin();
	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		int cpu;

		spin_pause_ns(n->work_us * 1000ull);
		nanosleep(&ts, NULL);
		cpu = sched_getcpu();
		n->wakeups++;
		n->on_core += cpu >= 0 && cpu < MAX_CPUS && n->core[cpu];
	}
	return NULL;
}

struct sensitive {
	int cpu, period_us, work_us;
	uint64_t end;
	uint64_t *lat;
	long n, max;
	atomic_bool go;
	pthread_t t;
};

/*
 * The measured thread, with the latency nice lnbench was started with,
 * pinned on its CPU: it wakes up every @period_us on an absolute timer,
 * notes how late it runs, and works @work_us.
 */
static void *sensitive_main(void *arg)
{
	struct sensitive *s = arg;
	uint64_t next;

	pin(s->cpu);
	while (!atomic_load(&s->go))
		usleep(1000);
	next = now_ns();
	while (s->n < s->max) {
		struct timespec ts;
		uint64_t now;

		next += s->period_us * 1000ull;
		ts.tv_sec = next / 1000000000ull;
		ts.tv_nsec = next % 1000000000ull;
		clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
		now = now_ns();
		s->lat[s->n++] = now - next;
		if (now >= s->end)
			break;
		spin_pause_ns(s->work_us * 1000ull);
		if (now_ns() > next + s->period_us * 1000ull)
			next = now_ns();	/* overrun: the next period starts now */
	}
	return NULL;
}

static uint64_t pct_of(const uint64_t *v, long n, double q)
{
	long i = (long)(q * n);

	return n ? v[i < n ? i : n - 1] : 0;
}

int do_noise(int argc, char **argv)
{
	struct noise nz[NOISE_MAX];
	struct sensitive s = { .cpu = -1, .period_us = 1000, .work_us = 200 };
	bool core[MAX_CPUS];
	int nnoise = 8, nwork = 500, nperiod = 1500, ms = 3000, opt, i;
	long samples = 0, resident = 0, running = 0, wakeups = 0, on_core = 0;
	long long prot, after;
	double sum = 0;

	while ((opt = getopt(argc, argv, "s:n:w:p:W:P:t:")) != -1) {
		switch (opt) {
		case 's': s.cpu = atoi(optarg); break;
		case 'n': nnoise = atoi(optarg); break;
		case 'w': nwork = atoi(optarg); break;
		case 'p': nperiod = atoi(optarg); break;
		case 'W': s.work_us = atoi(optarg); break;
		case 'P': s.period_us = atoi(optarg); break;
		case 't': ms = atoi(optarg); break;
		default: return 2;
		}
	}
	if (s.cpu < 0 || s.cpu >= MAX_CPUS || nnoise < 0 || nnoise > NOISE_MAX ||
	    nwork < 1 || nperiod < 1 || s.period_us < 10 || s.work_us < 0 ||
	    s.work_us >= s.period_us || ms < 1) {
		fprintf(stderr, "lnbench noise: -s CPU (the measured thread's), -n NOISE in "
			"[0, %d], -w/-p US > 0, -P US >= 10, -W US in [0, -P), -t MS > 0\n",
			NOISE_MAX);
		return 2;
	}
	siblings(s.cpu, core);
	core[s.cpu] = true;
	s.max = (long)ms * 1000 / s.period_us + 2;
	s.lat = calloc(s.max, sizeof(*s.lat));
	if (!s.lat)
		die("calloc");
	/*
	 * The measured thread first, with the value lnbench was started with;
	 * the sampler (this thread) then keeps CPU 0, or 1 if that is
	 * measured, at 0.
	 */
	if (pthread_create(&s.t, NULL, sensitive_main, &s))
		die("pthread_create");
	pin(s.cpu ? 0 : 1);
	set_latency_nice(0);
	atomic_store(&ready, 0);
	/* The noise first sleeps on the measured thread's core, as if it had run there. */
	for (i = 0; i < nnoise; i++) {
		int c, k = 0, want = i % 2;

		for (c = 0; c < MAX_CPUS && !(core[c] && k++ == want); c++)
			;
		nz[i] = (struct noise){ .start = c < MAX_CPUS ? c : s.cpu, .work_us = nwork,
					/* periods apart, so that they do not wake together */
					.period_us = nperiod + 37 * i, .core = core };
		if (pthread_create(&nz[i].t, NULL, noise_main, &nz[i]))
			die("pthread_create");
	}
	while (atomic_load(&ready) < nnoise)
		sched_yield();
	usleep(100000);
	prot = idle_search_all(IDLE_SEARCH_PROTECTED);
	s.end = now_ns() + ms * 1000000ull;
	atomic_store(&s.go, true);
	/* Where the noise is, every NOISE_SAMPLE_NS, while the measured thread runs. */
	while (now_ns() < s.end) {
		struct timespec ts = { 0, NOISE_SAMPLE_NS };

		for (i = 0; i < nnoise; i++) {
			char state;
			int cpu;

			if (!task_where(atomic_load(&nz[i].tid), &state, &cpu) ||
			    cpu < 0 || cpu >= MAX_CPUS)
				continue;
			samples++;
			resident += core[cpu];
			running += core[cpu] && state == 'R';
		}
		nanosleep(&ts, NULL);
	}
	pthread_join(s.t, NULL);
	after = idle_search_all(IDLE_SEARCH_PROTECTED);
	atomic_store(&stop, true);
	for (i = 0; i < nnoise; i++) {
		pthread_join(nz[i].t, NULL);
		wakeups += nz[i].wakeups;
		on_core += nz[i].on_core;
	}
	atomic_store(&stop, false);
	for (i = 0; i < s.n; i++)
		sum += s.lat[i];
	qsort(s.lat, s.n, sizeof(*s.lat), cmp_u64);
	printf("BENCH mode=noise wakeups=%ld avg_us=%.1f p50_us=%.1f p99_us=%.1f p999_us=%.1f "
	       "max_us=%.1f noise=%d noise_wakeups=%ld on_core=%.4f resident=%.4f "
	       "running=%.4f protected=%lld\n",
	       s.n, s.n ? sum / s.n / 1000 : 0, pct_of(s.lat, s.n, 0.5) / 1000.0,
	       pct_of(s.lat, s.n, 0.99) / 1000.0, pct_of(s.lat, s.n, 0.999) / 1000.0,
	       s.n ? s.lat[s.n - 1] / 1000.0 : 0, nnoise, wakeups,
	       wakeups ? (double)on_core / wakeups : 0,
	       samples ? (double)resident / samples : 0,
	       samples ? (double)running / samples : 0,
	       prot >= 0 && after >= 0 ? after - prot : -1);
	free(s.lat);
	return 0;
}
