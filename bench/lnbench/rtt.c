// SPDX-License-Identifier: GPL-2.0
/*
 * lnbench rtt: one workload of make bench (see lnbench.h).
 *
 * lnbench rtt -n ROUNDS [-w CPU] [-b CPULIST] [-i CPULIST] [-s CPULIST]
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
 */
#include "lnbench.h"

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

int do_rtt(int argc, char **argv)
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
