// SPDX-License-Identifier: GPL-2.0
/*
 * lnbench messaging: one workload of make bench (see lnbench.h).
 *
 * lnbench messaging -g GROUPS -l LOOPS [-T]
 *	hackbench: per group 20 senders each send LOOPS 100-byte messages to
 *	each of 20 receivers over UNIX socket pairs; processes, or threads
 *	with -T.  Reports the time it took.
 */
#include "lnbench.h"

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

int do_messaging(int argc, char **argv)
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
