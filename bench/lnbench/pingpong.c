// SPDX-License-Identifier: GPL-2.0
/*
 * lnbench pingpong: one workload of make bench (see lnbench.h).
 *
 * lnbench pingpong -p PAIRS -t SECONDS [-m BYTES]
 *	uperf-style request/response over loopback TCP: PAIRS client and
 *	server threads exchange BYTES (8192) each way.  Reports transactions
 *	per second.
 */
#include "lnbench.h"

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

int do_pingpong(int argc, char **argv)
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
