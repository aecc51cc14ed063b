// SPDX-License-Identifier: GPL-2.0
/*
 * lnbench wakeup: one workload of make bench (see lnbench.h).
 *
 * lnbench wakeup -m MSG -w WORKERS -n ROUNDS
 *	schbench-style: MSG message threads each wake WORKERS workers per
 *	round; a worker measures the time from the wakeup request to running
 *	and works 20 us.  Reports p50, p99 and p99.9 of the wakeup latency.
 */
#include "lnbench.h"

struct worker {
	int pipe[2];
	int rounds;
	uint64_t *lat;
	pthread_t t;
};

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

int do_wakeup(int argc, char **argv)
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
