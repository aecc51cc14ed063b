// SPDX-License-Identifier: GPL-2.0
/*
 * lnbench - the workloads of 'make bench', run inside the guest.
 *
 *   lnbench rtt -n ROUNDS [-w CPU] [-b CPULIST] [-i CPULIST] [-s CPULIST]
 *	[-R | -B CPU] [-S]
 *	A waker pinned on CPU -w (0) and a wakee free to run anywhere wake
 *	each other up through pipes, ROUNDS times, while busy threads spin
 *	pinned on the CPUs of -b.  Before each round the waker waits until
 *	the wakee is asleep (its state in /proc), so that each wakeup
 *	chooses a CPU; the round trip time excludes that wait.  Nothing
 *	sleeps on a timer: under -icount with busy vCPUs, virtual time
 *	passes slowly for the host.  Reports the round trip time, where the
 *	wakee landed (the waker's CPU, its SMT sibling or another core; a
 *	busy CPU or not) and the change of the idle CPU search counters (if
 *	the kernel has them).  The busy threads on the CPUs of -i (which
 *	must be busy too) set latency nice 19 on themselves, as far as the
 *	kernel lets them: latency indifferent work; the report then says
 *	whether they could (indifferent=1) and how many wakeups landed on
 *	those CPUs (on_indifferent).  Those of -s (busy too) set latency
 *	nice -20: latency sensitive work; the report says whether they could
 *	(sensitive=1) and how many wakeups landed on their SMT cores
 *	(on_protected).  -S: the waker spins until the answer
 *	comes instead of sleeping, so that its CPU does not go idle and pull
 *	the wakee over (newly idle balance) before it ran where the wakeup
 *	put it.  -R moves the
 *	wakee back to the waker's CPU after each round, so that every wakeup
 *	starts from the same place instead of from the CPU the wakee last
 *	ran on; -B CPU moves it back to CPU instead.  The counters are the wakee's (schedstats in
 *	/proc/self/task/<tid>/sched), so only its own wakeups count.
 *   lnbench pingpong -p PAIRS -t SECONDS [-m BYTES]
 *	uperf-style request/response over loopback TCP: PAIRS client and
 *	server threads exchange BYTES (8192) each way.  Reports transactions
 *	per second.
 *   lnbench messaging -g GROUPS -l LOOPS [-T]
 *	hackbench: per group 20 senders each send LOOPS 100-byte messages to
 *	each of 20 receivers over UNIX socket pairs; processes, or threads
 *	with -T.  Reports the time it took.
 *   lnbench wakeup -m MSG -w WORKERS -n ROUNDS
 *	schbench-style: MSG message threads each wake WORKERS workers per
 *	round; a worker measures the time from the wakeup request to running
 *	and works 20 us.  Reports p50, p99 and p99.9 of the wakeup latency.
 *   lnbench cyclictest [-H "HACKBENCH ARGS" | -B HOGS] [-V VALUE] [-r RUNTIME_NS]
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
 *	from its histogram), the CPU it used (cpu_pct, percent of the run's
 *	time), the average number of runnable tasks meanwhile (runnable:
 *	the time tasks ran or waited on a runqueue, from /proc/schedstat,
 *	over the run's time and the CPUs; -1 without it) and the median
 *	time (s) of the hackbench runs that finished meanwhile.  Waits for
 *	high-resolution
 *	timers first (CLOCK_MONOTONIC's resolution 1 ns), as after boot.
 *   lnbench pack -l CPULIST -c CPULIST [-n THREADS] [-w US] [-d DUTY] [-t MS]
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
 *   lnbench noise -s CPU [-n NOISE] [-w US] [-p US] [-W US] [-P US] [-t MS]
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
 *
 * Every report is one line: "BENCH mode=... key=value ...".  Times come
 * from CLOCK_MONOTONIC, which under QEMU's -icount advances with the
 * instructions the guest executes.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <pthread.h>
#include <sched.h>
#include <signal.h>
#include <stdatomic.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

#include "cpulist.h"	/* tests/guest: cpulist_parse() */

#define MAX_CPUS	256

static void die(const char *what)
{
	fprintf(stderr, "lnbench: %s: %s\n", what, strerror(errno));
	exit(1);
}

static uint64_t now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ts.tv_sec * 1000000000ull + ts.tv_nsec;
}

static void pin(int cpu)
{
	cpu_set_t set;

	CPU_ZERO(&set);
	CPU_SET(cpu, &set);
	if (sched_setaffinity(0, sizeof(set), &set))
		die("sched_setaffinity");
}

static void unpin(void)
{
	cpu_set_t set;
	int i;

	CPU_ZERO(&set);
	for (i = 0; i < MAX_CPUS; i++)
		CPU_SET(i, &set);
	sched_setaffinity(0, sizeof(set), &set);
}

static void read_full(int fd, void *buf, size_t len)
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

static void write_full(int fd, const void *buf, size_t len)
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
static void siblings(int cpu, bool *mask)
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
static bool idle_search(int tid, unsigned long long v[6])
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

/* ---- busy threads ---- */

static atomic_bool stop;
static atomic_int ready;
static atomic_int indifferent_set, sensitive_set;

/* The indifferent (19) and sensitive (-20) busy threads: bits in the argument. */
#define SPIN_INDIFFERENT	(1L << 16)
#define SPIN_SENSITIVE		(1L << 17)
#define SPIN_CPU		(SPIN_INDIFFERENT - 1)

/*
 * Latency nice @value on the calling thread (sched_attr's 60-byte layout
 * with sched_latency_nice after util_max); 0, or -1 on a kernel without it.
 */
static int set_latency_nice(int value)
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

static void start_spinners(const bool *busy, const bool *indifferent, const bool *sensitive,
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

static void stop_spinners(pthread_t *t, int n)
{
	atomic_store(&stop, true);
	while (n--)
		pthread_join(t[n], NULL);
	atomic_store(&stop, false);
}

/* ---- rtt ---- */

struct rtt {
	int ping[2], pong[2];
	atomic_int tid;
	int waker_cpu, rounds;
	int back;		/* -1, or where the wakee goes back to after a round */
	bool spin;
	const bool *busy, *indifferent;
	bool sib[MAX_CPUS];	/* the waker's SMT siblings */
	bool protected[MAX_CPUS];	/* the SMT cores of the sensitive busy threads */
	long same, sibling, other, on_busy, on_indifferent, on_protected;
};

static void *rtt_wakee(void *arg)
{
	struct rtt *r = arg;
	int i, from;

	/* Created by the pinned waker: free it to run anywhere. */
	unpin();
	atomic_store(&r->tid, gettid());
	for (i = 0; i < r->rounds; i++) {
		int cpu;

		read_full(r->ping[0], &from, sizeof(from));
		cpu = sched_getcpu();
		if (cpu == from)
			r->same++;
		else if (cpu >= 0 && cpu < MAX_CPUS && r->sib[cpu])
			r->sibling++;
		else
			r->other++;
		/* Busy: a busy thread's CPU, or the waker's (it is running). */
		if (cpu == from || (cpu >= 0 && cpu < MAX_CPUS && r->busy[cpu]))
			r->on_busy++;
		if (cpu >= 0 && cpu < MAX_CPUS && r->indifferent[cpu])
			r->on_indifferent++;
		if (cpu >= 0 && cpu < MAX_CPUS && r->protected[cpu])
			r->on_protected++;
		if (r->back >= 0) {
			pin(r->back);
			unpin();
		}
		write_full(r->pong[1], &cpu, sizeof(cpu));
	}
	/* Stay until the waker has read our counters. */
	read_full(r->ping[0], &from, sizeof(from));
	return NULL;
}

/* read_full() on a non-blocking @fd, spinning until the bytes come. */
static void read_spinning(int fd, void *buf, size_t len)
{
	size_t got = 0;

	while (got < len) {
		ssize_t n = read(fd, (char *)buf + got, len - got);

		if (n > 0)
			got += n;
		else if (n < 0 && errno == EAGAIN)
			__builtin_ia32_pause();
		else
			die("read");
	}
}

/* Wait until the thread @tid of this process sleeps. */
static void wait_asleep(int tid)
{
	char path[64], buf[256], *p;
	int fd;

	snprintf(path, sizeof(path), "/proc/self/task/%d/stat", tid);
	fd = open(path, O_RDONLY);
	if (fd < 0)
		die(path);
	for (;;) {
		ssize_t n = pread(fd, buf, sizeof(buf) - 1, 0);

		if (n <= 0)
			die("reading the wakee's state");
		buf[n] = '\0';
		p = strrchr(buf, ')');
		if (p && p[1] == ' ' && p[2] == 'S')
			break;
		sched_yield();
	}
	close(fd);
}

/* The CPUs of option -@opt's cpulist @arg into @mask: how many, or -1 (said). */
static int cpus_option(int opt, const char *arg, bool *mask)
{
	int n = cpulist_parse(arg, mask, MAX_CPUS);

	if (n < 0)
		fprintf(stderr, "lnbench: -%c %s: not a cpulist of CPUs below %d\n",
			opt, arg, MAX_CPUS);
	return n;
}

static int do_rtt(int argc, char **argv)
{
	struct rtt r = { .waker_cpu = 0, .rounds = 1000, .back = -1 };
	bool busy[MAX_CPUS] = { false }, indifferent[MAX_CPUS] = { false };
	bool sensitive[MAX_CPUS] = { false }, back_waker = false;
	unsigned long long a[6], b[6];
	pthread_t spin[MAX_CPUS], wakee;
	int c, i, nspin, nbusy = 0, nind = 0, nsens = 0;
	uint64_t t0, sum = 0;
	bool counters;

	while ((c = getopt(argc, argv, "n:w:b:i:s:RB:S")) != -1) {
		switch (c) {
		case 'n': r.rounds = atoi(optarg); break;
		case 'w': r.waker_cpu = atoi(optarg); break;
		case 'b':
			if ((nbusy = cpus_option(c, optarg, busy)) < 0)
				return 2;
			break;
		case 'i':
			if ((nind = cpus_option(c, optarg, indifferent)) < 0)
				return 2;
			break;
		case 's':
			if ((nsens = cpus_option(c, optarg, sensitive)) < 0)
				return 2;
			break;
		case 'R': back_waker = true; break;
		case 'B':
			r.back = atoi(optarg);
			if (r.back < 0 || r.back >= MAX_CPUS) {
				fprintf(stderr, "lnbench: -B %s: not a CPU below %d\n", optarg, MAX_CPUS);
				return 2;
			}
			break;
		case 'S': r.spin = true; break;
		default: return 2;
		}
	}
	if (back_waker && r.back >= 0) {
		fprintf(stderr, "lnbench: -R and -B exclude each other\n");
		return 2;
	}
	if (back_waker)
		r.back = r.waker_cpu;
	for (i = 0; i < MAX_CPUS; i++) {
		if ((indifferent[i] || sensitive[i]) && !busy[i]) {
			fprintf(stderr, "lnbench: -%c: CPU %d is not busy (-b)\n",
				indifferent[i] ? 'i' : 's', i);
			return 2;
		}
		if (indifferent[i] && sensitive[i]) {
			fprintf(stderr, "lnbench: CPU %d is in both -i and -s\n", i);
			return 2;
		}
		if (sensitive[i]) {
			bool sib[MAX_CPUS];

			siblings(i, sib);
			for (c = 0; c < MAX_CPUS; c++)
				r.protected[c] |= sib[c];
		}
	}
	r.busy = busy;
	r.indifferent = indifferent;
	siblings(r.waker_cpu, r.sib);
	if (pipe(r.ping) || pipe(r.pong))
		die("pipe");
	if (r.spin && fcntl(r.pong[0], F_SETFL, O_NONBLOCK))
		die("fcntl");
	start_spinners(busy, indifferent, sensitive, spin, &nspin);
	pin(r.waker_cpu);
	if (pthread_create(&wakee, NULL, rtt_wakee, &r))
		die("pthread_create");
	while (!atomic_load(&r.tid))
		sched_yield();

	counters = idle_search(r.tid, a);
	for (i = 0; i < r.rounds; i++) {
		int cpu;

		wait_asleep(r.tid);
		t0 = now_ns();
		write_full(r.ping[1], &r.waker_cpu, sizeof(r.waker_cpu));
		if (r.spin)
			read_spinning(r.pong[0], &cpu, sizeof(cpu));
		else
			read_full(r.pong[0], &cpu, sizeof(cpu));
		sum += now_ns() - t0;
	}
	counters = counters && idle_search(r.tid, b);
	write_full(r.ping[1], &r.waker_cpu, sizeof(r.waker_cpu));
	pthread_join(wakee, NULL);
	stop_spinners(spin, nspin);

	printf("BENCH mode=rtt rounds=%d busy=%d back=%d spin=%d rtt_ns=%.1f same=%.4f sibling=%.4f other=%.4f on_busy=%.4f",
	       r.rounds, nbusy, r.back >= 0, r.spin, (double)sum / r.rounds,
	       (double)r.same / r.rounds, (double)r.sibling / r.rounds,
	       (double)r.other / r.rounds, (double)r.on_busy / r.rounds);
	if (nind)
		printf(" indifferent=%d on_indifferent=%.4f",
		       atomic_load(&indifferent_set) == nind, (double)r.on_indifferent / r.rounds);
	if (nsens)
		printf(" sensitive=%d on_protected=%.4f",
		       atomic_load(&sensitive_set) == nsens, (double)r.on_protected / r.rounds);
	if (counters)
		printf(" scans=%llu probes=%llu found=%llu skipped=%llu bounded=%llu scan_ns=%llu",
		       b[0] - a[0], b[1] - a[1], b[2] - a[2], b[3] - a[3],
		       b[4] - a[4], b[5] - a[5]);
	printf("\n");
	return 0;
}

/* ---- pingpong over loopback TCP ---- */

struct pp {
	int fd;
	size_t len;
	atomic_long count;
	pthread_t t;
};

static void *pp_client(void *arg)
{
	struct pp *p = arg;
	char *buf = calloc(1, p->len);

	while (!atomic_load_explicit(&stop, memory_order_relaxed)) {
		write_full(p->fd, buf, p->len);
		read_full(p->fd, buf, p->len);
		atomic_fetch_add_explicit(&p->count, 1, memory_order_relaxed);
	}
	shutdown(p->fd, SHUT_WR);
	free(buf);
	return NULL;
}

static void *pp_server(void *arg)
{
	struct pp *p = arg;
	char *buf = calloc(1, p->len);

	for (;;) {
		size_t done = 0;

		while (done < p->len) {
			ssize_t n = read(p->fd, buf + done, p->len - done);

			if (n <= 0)
				goto out;
			done += n;
		}
		write_full(p->fd, buf, p->len);
	}
out:
	free(buf);
	return NULL;
}

static int do_pingpong(int argc, char **argv)
{
	int c, i, pairs = 1, one = 1, lfd;
	double seconds = 1;
	size_t len = 8192;
	struct sockaddr_in addr = { .sin_family = AF_INET };
	socklen_t alen = sizeof(addr);
	struct pp *cl, *sv;
	long before = 0, after = 0;
	uint64_t t0, t1;

	while ((c = getopt(argc, argv, "p:t:m:")) != -1) {
		switch (c) {
		case 'p': pairs = atoi(optarg); break;
		case 't': seconds = atof(optarg); break;
		case 'm': len = atol(optarg); break;
		default: return 2;
		}
	}
	cl = calloc(pairs, sizeof(*cl));
	sv = calloc(pairs, sizeof(*sv));
	addr.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	lfd = socket(AF_INET, SOCK_STREAM, 0);
	if (lfd < 0 || bind(lfd, (void *)&addr, sizeof(addr)) ||
	    listen(lfd, pairs) || getsockname(lfd, (void *)&addr, &alen))
		die("listening socket on 127.0.0.1 (is lo up?)");
	for (i = 0; i < pairs; i++) {
		cl[i].fd = socket(AF_INET, SOCK_STREAM, 0);
		if (cl[i].fd < 0 || connect(cl[i].fd, (void *)&addr, sizeof(addr)))
			die("connect");
		sv[i].fd = accept(lfd, NULL, NULL);
		if (sv[i].fd < 0)
			die("accept");
		setsockopt(cl[i].fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		setsockopt(sv[i].fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
		cl[i].len = sv[i].len = len;
		pthread_create(&sv[i].t, NULL, pp_server, &sv[i]);
		pthread_create(&cl[i].t, NULL, pp_client, &cl[i]);
	}
	/* A tenth of the time to warm up, then count. */
	usleep(seconds * 100000);
	for (i = 0; i < pairs; i++)
		before += atomic_load(&cl[i].count);
	t0 = now_ns();
	usleep(seconds * 1000000);
	for (i = 0; i < pairs; i++)
		after += atomic_load(&cl[i].count);
	t1 = now_ns();
	atomic_store(&stop, true);
	for (i = 0; i < pairs; i++) {
		pthread_join(cl[i].t, NULL);
		pthread_join(sv[i].t, NULL);
		close(cl[i].fd);
		close(sv[i].fd);
	}
	printf("BENCH mode=pingpong pairs=%d msg=%zu tps=%.1f seconds=%.3f\n",
	       pairs, len, (after - before) * 1e9 / (t1 - t0), (t1 - t0) / 1e9);
	return 0;
}

/* ---- messaging (hackbench) ---- */

#define FDS	20
#define MSG	100

struct hb {
	int in, out[FDS];
	int loops;
	bool sender;
};

static void *hb_task(void *arg)
{
	struct hb *h = arg;
	char buf[MSG] = { 0 };
	int i, j;

	if (h->sender) {
		for (i = 0; i < h->loops; i++)
			for (j = 0; j < FDS; j++)
				write_full(h->out[j], buf, MSG);
	} else {
		for (i = 0; i < h->loops * FDS; i++)
			read_full(h->in, buf, MSG);
	}
	return NULL;
}

static int do_messaging(int argc, char **argv)
{
	int c, g, i, j, groups = 1, loops = 100, n = 0;
	bool threads = false;
	struct hb *tasks;
	pthread_t *tids;
	pid_t *pids;
	uint64_t t0, t1;

	while ((c = getopt(argc, argv, "g:l:T")) != -1) {
		switch (c) {
		case 'g': groups = atoi(optarg); break;
		case 'l': loops = atoi(optarg); break;
		case 'T': threads = true; break;
		default: return 2;
		}
	}
	tasks = calloc(groups * FDS * 2, sizeof(*tasks));
	tids = calloc(groups * FDS * 2, sizeof(*tids));
	pids = calloc(groups * FDS * 2, sizeof(*pids));
	for (g = 0; g < groups; g++) {
		int rx[FDS];

		for (i = 0; i < FDS; i++) {
			int sv[2];

			if (socketpair(AF_UNIX, SOCK_STREAM, 0, sv))
				die("socketpair");
			tasks[n + FDS + i].in = sv[0];
			tasks[n + FDS + i].loops = loops;
			rx[i] = sv[1];
		}
		for (i = 0; i < FDS; i++) {
			tasks[n + i].sender = true;
			tasks[n + i].loops = loops;
			for (j = 0; j < FDS; j++)
				tasks[n + i].out[j] = rx[j];
		}
		n += 2 * FDS;
	}
	t0 = now_ns();
	for (i = 0; i < n; i++) {
		if (threads) {
			pthread_create(&tids[i], NULL, hb_task, &tasks[i]);
			continue;
		}
		pids[i] = fork();
		if (pids[i] < 0)
			die("fork");
		if (!pids[i]) {
			hb_task(&tasks[i]);
			_exit(0);
		}
	}
	for (i = 0; i < n; i++) {
		if (threads)
			pthread_join(tids[i], NULL);
		else
			waitpid(pids[i], NULL, 0);
	}
	t1 = now_ns();
	printf("BENCH mode=messaging groups=%d loops=%d thread_mode=%d seconds=%.6f\n",
	       groups, loops, threads, (t1 - t0) / 1e9);
	return 0;
}

/* ---- wakeup latency (schbench-style) ---- */

struct worker {
	int pipe[2];
	int rounds;
	uint64_t *lat;
	pthread_t t;
};

static void spin_ns(uint64_t ns)
{
	uint64_t end = now_ns() + ns;

	while (now_ns() < end)
		;
}

static void *wk_main(void *arg)
{
	struct worker *w = arg;
	int i;

	for (i = 0; i < w->rounds; i++) {
		uint64_t sent;

		read_full(w->pipe[0], &sent, sizeof(sent));
		w->lat[i] = now_ns() - sent;
		spin_ns(20000);
	}
	return NULL;
}

struct messenger {
	struct worker *w;
	int workers, rounds;
	pthread_t t;
};

static void *msg_main(void *arg)
{
	struct messenger *m = arg;
	int r, i;

	for (r = 0; r < m->rounds; r++) {
		for (i = 0; i < m->workers; i++) {
			uint64_t t = now_ns();

			write_full(m->w[i].pipe[1], &t, sizeof(t));
		}
		usleep(200);
	}
	return NULL;
}

static int cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return x < y ? -1 : x > y;
}

static int do_wakeup(int argc, char **argv)
{
	int c, i, j, nmsg = 1, nwork = 4, rounds = 200, total;
	struct messenger *m;
	uint64_t *all;

	while ((c = getopt(argc, argv, "m:w:n:")) != -1) {
		switch (c) {
		case 'm': nmsg = atoi(optarg); break;
		case 'w': nwork = atoi(optarg); break;
		case 'n': rounds = atoi(optarg); break;
		default: return 2;
		}
	}
	total = nmsg * nwork * rounds;
	all = calloc(total, sizeof(*all));
	m = calloc(nmsg, sizeof(*m));
	for (i = 0; i < nmsg; i++) {
		m[i].w = calloc(nwork, sizeof(*m[i].w));
		m[i].workers = nwork;
		m[i].rounds = rounds;
		for (j = 0; j < nwork; j++) {
			struct worker *w = &m[i].w[j];

			if (pipe(w->pipe))
				die("pipe");
			w->rounds = rounds;
			w->lat = all + ((size_t)i * nwork + j) * rounds;
			pthread_create(&w->t, NULL, wk_main, w);
		}
	}
	for (i = 0; i < nmsg; i++)
		pthread_create(&m[i].t, NULL, msg_main, &m[i]);
	for (i = 0; i < nmsg; i++) {
		pthread_join(m[i].t, NULL);
		for (j = 0; j < nwork; j++)
			pthread_join(m[i].w[j].t, NULL);
	}
	qsort(all, total, sizeof(*all), cmp_u64);
	printf("BENCH mode=wakeup msg=%d workers=%d rounds=%d p50_ns=%llu p99_ns=%llu p999_ns=%llu\n",
	       nmsg, nwork, rounds, (unsigned long long)all[total / 2],
	       (unsigned long long)all[(size_t)(total * 0.99)],
	       (unsigned long long)all[(size_t)(total * 0.999)]);
	return 0;
}

/* ---- cyclictest under hackbench (Debian's rt-tests) ---- */

#define CYCLICTEST	"/usr/bin/cyclictest"
#define HACKBENCH	"/usr/bin/hackbench"
#define HIST_US		100000
#define HIST_FILE	"/tmp/lnbench-cyclictest.hist"
#define MAX_HB_RUNS	4096

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

static int do_cyclictest(int argc, char **argv)
{
	char *hb = NULL, *cargv[64] = { CYCLICTEST }, line[256];
	static uint64_t hist[HIST_US], hbt[MAX_HB_RUNS];
	double avg = -1, maxl = -1, total = 0, seen = 0;
	double p50 = -1, p99 = -1, p999 = -1;
	int c, n = 1, fds[2], status, nhb = 0, hogs = 0, lnice = 0;
	uint64_t runtime = 0, over = 0;
	long slack = -1;
	double t0, cpu_pct, rq0, runnable = -1;
	struct rusage ru;
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
	rq0 = runqueue_ns();
	t0 = now_ns() / 1e9;
	pid = fork();
	if (pid < 0)
		die("fork");
	if (!pid) {
		int null = open("/dev/null", O_WRONLY);

		dup2(null, 1);		/* -q: only the summary, not needed */
		execv(CYCLICTEST, cargv);
		_exit(127);
	}
	wait4(pid, &status, 0, &ru);
	cpu_pct = 100 * (ru.ru_utime.tv_sec + ru.ru_utime.tv_usec / 1e6 +
			 ru.ru_stime.tv_sec + ru.ru_stime.tv_usec / 1e6) / (now_ns() / 1e9 - t0);
	if (rq0 > 0)
		runnable = (runqueue_ns() - rq0) / 1e9 / (now_ns() / 1e9 - t0) /
			   sysconf(_SC_NPROCESSORS_ONLN);
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
	printf("BENCH mode=cyclictest samples=%.0f avg_us=%.0f p50_us=%.0f p99_us=%.0f p999_us=%.0f max_us=%.0f overflows=%llu cpu_pct=%.2f runnable=%.2f hackbench_runs=%d hackbench_s=%.6f\n",
	       total, avg, p50, p99, p999, maxl, (unsigned long long)over, cpu_pct, runnable, nhb,
	       nhb ? hbt[nhb / 2] / 1e9 : -1.0);
	return 0;
}

/* ---- pack ---- */

#define PACK_PERIOD_NS	10000000ull	/* the loads' period */
#define PACK_SLEEP_NS	4000000ull	/* the measured thread's timer */

/* The state and the last CPU of thread @tid of this process; false if gone. */
static bool task_where(int tid, char *state, int *cpu)
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

/*
 * Column @col (counted from 0 after "all") of the "all" line of
 * sched/idle_search, or -1 without it.
 */
static long long idle_search_all(int col)
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

/* The columns of sched/idle_search after "all" that pack and noise read. */
#define IDLE_SEARCH_PROTECTED	8
#define IDLE_SEARCH_PACKED	9

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

static int do_pack(int argc, char **argv)
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

/* ---- noise ---- */

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

static int do_noise(int argc, char **argv)
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

/* The workloads, by the name the first argument gives. */
static const struct {
	const char *name;
	int (*run)(int argc, char **argv);
} modes[] = {
	{ "rtt", do_rtt },
	{ "pingpong", do_pingpong },
	{ "messaging", do_messaging },
	{ "wakeup", do_wakeup },
	{ "cyclictest", do_cyclictest },
	{ "pack", do_pack },
	{ "noise", do_noise },
};

static void usage(void)
{
	fprintf(stderr, "usage: lnbench");
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		fprintf(stderr, "%s%s", i ? "|" : " ", modes[i].name);
	fprintf(stderr, " [options]\n");
}

int main(int argc, char **argv)
{
	if (argc < 2) {
		usage();
		return 2;
	}
	signal(SIGPIPE, SIG_IGN);
	setvbuf(stdout, NULL, _IOLBF, 0);
	for (size_t i = 0; i < sizeof(modes) / sizeof(modes[0]); i++)
		if (!strcmp(argv[1], modes[i].name))
			return modes[i].run(argc - 1, argv + 1);
	fprintf(stderr, "lnbench: unknown mode %s\n", argv[1]);
	usage();
	return 2;
}
