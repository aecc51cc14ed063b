// SPDX-License-Identifier: GPL-2.0
/*
 * lnbench cyclictest: one workload of make bench (see lnbench.h).
 *
 * lnbench cyclictest [-H "HACKBENCH ARGS" | -B HOGS] [-V VALUE] [-r RUNTIME_NS]
 *		       [-s SLACK_NS] -- CYCLICTEST ARGS
 *	Debian's rt-tests: while /usr/bin/hackbench (with the arguments of
 *	-H) runs again and again, or while HOGS processes spin (-B), all at
 *	latency nice VALUE (0) and the base slice, run /usr/bin/cyclictest
 *	with the arguments after --, plus "-q -h HIST_US --histfile=FILE".
 *	Without -H or -B, on an idle machine.  -r
 *	first gives the measuring process the sched_runtime RUNTIME_NS (a
 *	custom slice), which cyclictest's threads inherit; -s, the timer
 *	slack SLACK_NS (PR_SET_TIMERSLACK; SCHED_OTHER threads sleep with
 *	50 us by default, RT ones with none).  Reports cyclictest's
 *	average, p50, p99, p99.9 and maximum latency (us, the percentiles
 *	from its histogram), the CPU its measuring threads used
 *	(thread_cpu_pct: their sum_exec_runtime from
 *	/proc/PID/task/TID/schedstat, percent of the time from the first
 *	poll that saw them to the last), the average number of runnable
 *	tasks meanwhile (thread_runnable: the time tasks ran or waited on a
 *	runqueue, from /proc/schedstat, over that time and the CPUs; -1
 *	without it) and the median
 *	time (s) of the hackbench runs that finished meanwhile.  The polls
 *	come every 20 ms until the threads show up, then at intervals that
 *	double up to POLL_MAX_US, so that lnbench itself wakes a few times
 *	a second at most beside the load it measures.  Waits for
 *	high-resolution timers first (CLOCK_MONOTONIC's resolution 1 ns), as
 *	after boot.
 */
#include <dirent.h>

#include "lnbench.h"

#define CYCLICTEST	"/usr/bin/cyclictest"
#define HACKBENCH	"/usr/bin/hackbench"
#define HIST_US		100000
#define HIST_FILE	"/tmp/lnbench-cyclictest.hist"
#define MAX_HB_RUNS	4096
#define POLL_MIN_US	20000
#define POLL_MAX_US	250000

struct ln_attr {			/* struct sched_attr, VER2 (64 bytes) */
	uint32_t size, sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime, sched_deadline, sched_period;
	uint32_t sched_util_min, sched_util_max;
	int32_t sched_latency_nice;
	uint32_t pad;
};

/*
 * SCHED_OTHER, nice 0, sched_runtime @runtime; latency nice @lnice as well
 * when @set_lnice (a kernel without latency nice refuses the flag: then,
 * at 0, without; another value fails).
 */
static void set_other(uint64_t runtime, bool set_lnice, int lnice)
{
	struct ln_attr a = { .size = sizeof(a), .sched_runtime = runtime,
			     .sched_latency_nice = lnice };

	if (set_lnice) {
		a.sched_flags = 0x80;	/* SCHED_FLAG_LATENCY_NICE */
		if (!syscall(SYS_sched_setattr, 0, &a, 0))
			return;
		if (lnice)
			die("sched_setattr(latency nice)");
		a.sched_flags = 0;
		a.size = 48;		/* SCHED_ATTR_SIZE_VER0 */
	}
	if (syscall(SYS_sched_setattr, 0, &a, 0))
		die("sched_setattr");
}

/* Split @s at spaces into @argv (at most @max - 1 words), NULL-terminated. */
static int split_args(char *s, char **argv, int max)
{
	int n = 0;

	for (char *tok = strtok(s, " "); tok && n < max - 1; tok = strtok(NULL, " "))
		argv[n++] = tok;
	argv[n] = NULL;
	return n;
}

/*
 * The load: run hackbench with @args again and again, at latency nice
 * @lnice with the base slice, and write each run's time (ns) to @fd, until
 * killed.  Runs in its own process group.
 */
static void hackbench_loop(char *args, int lnice, int fd)
{
	char *argv[32] = { HACKBENCH };

	setpgid(0, 0);
	set_other(0, true, lnice);
	split_args(args, argv + 1, 31);
	for (;;) {
		uint64_t t0 = now_ns(), dt;
		int status;
		pid_t pid = fork();

		if (pid < 0)
			die("fork");
		if (!pid) {
			int null = open("/dev/null", O_WRONLY);

			dup2(null, 1);
			execv(HACKBENCH, argv);
			_exit(127);
		}
		waitpid(pid, &status, 0);
		if (!WIFEXITED(status) || WEXITSTATUS(status))
			_exit(3);
		dt = now_ns() - t0;
		write_full(fd, &dt, sizeof(dt));
	}
}

/*
 * The other load: @hogs processes that spin at latency nice @lnice with the
 * base slice, until killed.  Runs in its own process group.
 */
static void hogs_loop(int hogs, int lnice)
{
	setpgid(0, 0);
	set_other(0, true, lnice);
	for (int i = 1; i < hogs; i++) {
		pid_t pid = fork();

		if (pid < 0)
			die("fork");
		if (!pid)
			break;
	}
	for (;;)
		;
}

/*
 * The CPU time (ns) the threads of @pid other than its main thread have
 * used so far (sum_exec_runtime, the first field of their schedstat);
 * *@n: how many there are.
 */
static double worker_ns(pid_t pid, int *n)
{
	char path[64], line[128];
	unsigned long long run;
	struct dirent *d;
	double sum = 0;
	DIR *dir;
	FILE *f;

	*n = 0;
	snprintf(path, sizeof(path), "/proc/%d/task", pid);
	dir = opendir(path);
	if (!dir)
		return 0;
	while ((d = readdir(dir))) {
		if (d->d_name[0] == '.' || atoi(d->d_name) == pid)
			continue;
		snprintf(path, sizeof(path), "/proc/%d/task/%d/schedstat", pid, atoi(d->d_name));
		f = fopen(path, "r");
		if (!f)
			continue;
		if (fgets(line, sizeof(line), f) && sscanf(line, "%llu", &run) == 1) {
			sum += run;
			(*n)++;
		}
		fclose(f);
	}
	closedir(dir);
	return sum;
}

/*
 * The time (ns) tasks ran and waited on every runqueue so far, from the
 * cpu lines of /proc/schedstat (rq_cpu_time and run_delay; the idle task
 * is in neither); 0 without it.
 */
static double runqueue_ns(void)
{
	unsigned long long run, wait;
	double sum = 0;
	char line[512];
	FILE *f = fopen("/proc/schedstat", "r");

	if (!f)
		return 0;
	while (fgets(line, sizeof(line), f))
		if (sscanf(line, "cpu%*u %*u %*u %*u %*u %*u %*u %llu %llu",
			   &run, &wait) == 2)
			sum += (double)run + wait;
	fclose(f);
	return sum;
}

int do_cyclictest(int argc, char **argv)
{
	char *hb = NULL, *cargv[64] = { CYCLICTEST }, line[256];
	static uint64_t hist[HIST_US], hbt[MAX_HB_RUNS];
	double avg = -1, maxl = -1, total = 0, seen = 0;
	double p50 = -1, p99 = -1, p999 = -1;
	int c, n = 1, fds[2], status, nhb = 0, hogs = 0, lnice = 0;
	uint64_t runtime = 0, over = 0;
	long slack = -1;
	double w0 = -1, w1 = -1, cpu0 = 0, cpu1 = 0, wrq0 = 0, wrq1 = 0;
	double thread_cpu_pct = -1, thread_runnable = -1;
	useconds_t poll = POLL_MIN_US;
	pid_t load = -1, pid;
	FILE *f;

	while ((c = getopt(argc, argv, "H:B:V:r:s:")) != -1) {
		switch (c) {
		case 'H': hb = optarg; break;
		case 'B': hogs = atoi(optarg); break;
		case 'V': lnice = atoi(optarg); break;
		case 'r': runtime = strtoull(optarg, NULL, 10); break;
		case 's': slack = strtol(optarg, NULL, 10); break;
		default: return 2;
		}
	}
	for (; optind < argc && n < 58; optind++)
		cargv[n++] = argv[optind];
	cargv[n++] = "-q";
	cargv[n++] = "-h";
	cargv[n++] = "100000";		/* HIST_US */
	cargv[n++] = "--histfile=" HIST_FILE;
	cargv[n] = NULL;

	/*
	 * High-resolution timers come on once the kernel has found its
	 * clocksource fit, a second or two after boot; before, every sleep
	 * ends at a tick, whatever the scheduler does.
	 */
	for (int i = 0; ; i++) {
		struct timespec res;

		if (!clock_getres(CLOCK_MONOTONIC, &res) && !res.tv_sec && res.tv_nsec == 1)
			break;
		if (i == 100) {
			fprintf(stderr, "lnbench: no high-resolution timers after 10 s\n");
			return 1;
		}
		usleep(100000);
	}
	if (pipe(fds))
		die("pipe");
	if (hb && hogs) {
		fprintf(stderr, "lnbench: cyclictest takes -H or -B, not both\n");
		return 2;
	}
	if (hb || hogs > 0) {
		load = fork();
		if (load < 0)
			die("fork");
		if (!load) {
			close(fds[0]);
			if (hb)
				hackbench_loop(hb, lnice, fds[1]);
			hogs_loop(hogs, lnice);
		}
		setpgid(load, load);
	}
	close(fds[1]);
	if (runtime)
		set_other(runtime, false, 0);
	if (slack > 0 && prctl(PR_SET_TIMERSLACK, slack, 0, 0, 0))
		die("PR_SET_TIMERSLACK");
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);		/* -q: only the summary, not needed */
		execv(CYCLICTEST, cargv);
		_exit(127);
	}
	/*
	 * The measuring threads' CPU and the runqueues over the time they
	 * run: from the first poll that sees them to the last.  Once they
	 * run, each poll waits twice as long as the one before.
	 */
	while (waitpid(pid, &status, WNOHANG) == 0) {
		double t = now_ns() / 1e9, rq = runqueue_ns(), cpu;
		int nt;

		cpu = worker_ns(pid, &nt);
		if (nt > 0) {
			if (w0 < 0) {
				w0 = t;
				cpu0 = cpu;
				wrq0 = rq;
			}
			w1 = t;
			cpu1 = cpu;
			wrq1 = rq;
			poll = poll * 2 > POLL_MAX_US ? POLL_MAX_US : poll * 2;
		}
		usleep(poll);
	}
	if (w1 > w0) {
		thread_cpu_pct = 100 * (cpu1 - cpu0) / 1e9 / (w1 - w0);
		if (wrq0 > 0)
			thread_runnable = (wrq1 - wrq0) / 1e9 / (w1 - w0) /
					  sysconf(_SC_NPROCESSORS_ONLN);
	}
	if (load > 0) {
		kill(-load, SIGKILL);
		waitpid(load, NULL, 0);
	}
	while (nhb < MAX_HB_RUNS && read(fds[0], &hbt[nhb], sizeof(hbt[0])) == sizeof(hbt[0]))
		nhb++;
	close(fds[0]);
	if (!WIFEXITED(status) || WEXITSTATUS(status)) {
		fprintf(stderr, "lnbench: cyclictest failed (status %d)\n", status);
		return 1;
	}

	f = fopen(HIST_FILE, "r");
	if (!f)
		die(HIST_FILE);
	while (fgets(line, sizeof(line), f)) {
		unsigned long b, cnt;

		if (sscanf(line, "%lu %lu", &b, &cnt) == 2 && b < HIST_US)
			hist[b] += cnt;
		else if (sscanf(line, "# Avg Latencies: %lu", &cnt) == 1)
			avg = cnt;
		else if (sscanf(line, "# Max Latencies: %lu", &cnt) == 1)
			maxl = cnt;
		else if (sscanf(line, "# Histogram Overflows: %lu", &cnt) == 1)
			over = cnt;
	}
	fclose(f);
	for (int b = 0; b < HIST_US; b++)
		total += hist[b];
	total += over;
	for (int b = 0; b < HIST_US && total; b++) {
		seen += hist[b];
		if (p50 < 0 && seen >= 0.5 * total)
			p50 = b;
		if (p99 < 0 && seen >= 0.99 * total)
			p99 = b;
		if (p999 < 0 && seen >= 0.999 * total)
			p999 = b;
	}
	/* Beyond the histogram: the maximum is the best bound we have. */
	p50 = p50 < 0 ? maxl : p50;
	p99 = p99 < 0 ? maxl : p99;
	p999 = p999 < 0 ? maxl : p999;
	qsort(hbt, nhb, sizeof(hbt[0]), cmp_u64);
	printf("BENCH mode=cyclictest samples=%.0f avg_us=%.0f p50_us=%.0f p99_us=%.0f "
	       "p999_us=%.0f max_us=%.0f overflows=%llu thread_cpu_pct=%.3f thread_runnable=%.2f "
	       "hackbench_runs=%d hackbench_s=%.6f\n",
	       total, avg, p50, p99, p999, maxl, (unsigned long long)over, thread_cpu_pct,
	       thread_runnable, nhb, nhb ? hbt[nhb / 2] / 1e9 : -1.0);
	return 0;
}
