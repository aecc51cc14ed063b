// SPDX-License-Identifier: GPL-2.0
/*
 * lnbench share: one workload of make bench (see lnbench.h).
 *
 * lnbench share -r RUN_US -s SLEEP_US [-V VALUE] [-W HOG_VALUE] [-t MS]
 *	Two processes pinned to CPU 0: a task that uses RUN_US of CPU time,
 *	sleeps SLEEP_US (with 1 ns of timer slack, so no longer than asked)
 *	and again, or never sleeps with -s 0 (a hog); and a hog beside it.
 *	The task sets latency nice VALUE on itself and the hog HOG_VALUE,
 *	each only if given (a kernel without latency nice fails the run).
 *	Each keeps its own CPU time (CLOCK_THREAD_CPUTIME_ID, exact) in a
 *	shared page; after a warm-up of 200 ms both are read, then again MS
 *	(2000) ms later.  Reports the CPU time of each over that window
 *	(task_ms, hog_ms) and the task's share of what both got (share_pct).
 */
#include <sys/mman.h>

#include "lnbench.h"

#define WARM_UP_MS	200
/* A slot's value before its process is ready, and after it failed. */
#define SLOT_UNSET	(-1)
#define SLOT_FAILED	(-2)

static long long thread_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ts.tv_sec * 1000000000LL + ts.tv_nsec;
}

/*
 * A process on CPU 0 at latency nice @value (unless @set is false) that
 * uses @run_us of CPU, sleeps @sleep_us and again (never sleeps with
 * @sleep_us 0), and keeps its CPU time in *@slot.
 */
static pid_t spawn(bool set, int value, int run_us, int sleep_us, _Atomic long long *slot)
{
	pid_t pid = fork();

	if (pid < 0)
		die("fork");
	if (!pid) {
		struct timespec ts = { sleep_us / 1000000, (sleep_us % 1000000) * 1000L };

		prctl(PR_SET_PDEATHSIG, SIGKILL);
		pin(0);
		prctl(PR_SET_TIMERSLACK, 1, 0, 0, 0);
		if (set && set_latency_nice(value)) {
			atomic_store(slot, SLOT_FAILED);
			_exit(1);
		}
		for (;;) {
			long long end = thread_cpu_ns() + run_us * 1000LL, t;

			do {
				t = thread_cpu_ns();
				atomic_store_explicit(slot, t, memory_order_relaxed);
			} while (!sleep_us || t < end);
			nanosleep(&ts, NULL);
		}
	}
	return pid;
}

int do_share(int argc, char **argv)
{
	int c, run_us = -1, sleep_us = -1, value = 0, hog_value = 0, ms = 2000;
	bool set_value = false, set_hog = false;
	_Atomic long long *slot;
	long long t0[2], t1[2];
	pid_t pid[2];
	double task_ms, hog_ms;

	while ((c = getopt(argc, argv, "r:s:V:W:t:")) != -1) {
		switch (c) {
		case 'r': run_us = atoi(optarg); break;
		case 's': sleep_us = atoi(optarg); break;
		case 'V': value = atoi(optarg); set_value = true; break;
		case 'W': hog_value = atoi(optarg); set_hog = true; break;
		case 't': ms = atoi(optarg); break;
		default: return 2;
		}
	}
	if (run_us <= 0 || sleep_us < 0 || ms <= 0) {
		fprintf(stderr, "lnbench: share takes -r RUN_US (> 0) and -s SLEEP_US (>= 0)\n");
		return 2;
	}
	slot = mmap(NULL, 2 * sizeof(*slot), PROT_READ | PROT_WRITE,
		    MAP_SHARED | MAP_ANONYMOUS, -1, 0);
	if (slot == MAP_FAILED)
		die("mmap");
	atomic_store(&slot[0], SLOT_UNSET);
	atomic_store(&slot[1], SLOT_UNSET);
	pid[0] = spawn(set_value, value, run_us, sleep_us, &slot[0]);
	pid[1] = spawn(set_hog, hog_value, 1000, 0, &slot[1]);
	/* Both running (or one failed), then the warm-up. */
	while (atomic_load(&slot[0]) == SLOT_UNSET || atomic_load(&slot[1]) == SLOT_UNSET)
		usleep(1000);
	if (atomic_load(&slot[0]) == SLOT_FAILED || atomic_load(&slot[1]) == SLOT_FAILED) {
		fprintf(stderr, "lnbench: share: sched_setattr() refused latency nice %d\n",
			atomic_load(&slot[0]) == SLOT_FAILED ? value : hog_value);
		kill(pid[0], SIGKILL);
		kill(pid[1], SIGKILL);
		waitpid(pid[0], NULL, 0);
		waitpid(pid[1], NULL, 0);
		return 1;
	}
	usleep(WARM_UP_MS * 1000);
	for (int i = 0; i < 2; i++)
		t0[i] = atomic_load(&slot[i]);
	usleep(ms * 1000L);
	for (int i = 0; i < 2; i++)
		t1[i] = atomic_load(&slot[i]);
	for (int i = 0; i < 2; i++) {
		kill(pid[i], SIGKILL);
		waitpid(pid[i], NULL, 0);
	}
	task_ms = (t1[0] - t0[0]) / 1e6;
	hog_ms = (t1[1] - t0[1]) / 1e6;
	printf("BENCH mode=share run_us=%d sleep_us=%d task_ms=%.3f hog_ms=%.3f share_pct=%.2f\n",
	       run_us, sleep_us, task_ms, hog_ms,
	       task_ms + hog_ms > 0 ? 100 * task_ms / (task_ms + hog_ms) : -1);
	return 0;
}
