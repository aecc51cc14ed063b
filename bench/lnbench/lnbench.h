/* SPDX-License-Identifier: GPL-2.0 */
/*
 * lnbench - the workloads of 'make bench', run inside the guest, one file
 * each (rtt.c, pingpong.c, messaging.c, wakeup.c, cyclictest.c, pack.c,
 * noise.c, share.c; main.c runs the one its first argument names), with the
 * helpers they share in common.c.
 *
 * Every report is one line: "BENCH mode=... key=value ...".  Times come
 * from CLOCK_MONOTONIC, which under QEMU's -icount advances with the
 * instructions the guest executes.
 */
#ifndef LNBENCH_H
#define LNBENCH_H

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

/* The indifferent (19) and sensitive (-20) busy threads: bits in the argument. */
#define SPIN_INDIFFERENT	(1L << 16)
#define SPIN_SENSITIVE		(1L << 17)
#define SPIN_CPU		(SPIN_INDIFFERENT - 1)

/* Busy threads (start_spinners()): stop them, and how many are ready. */
extern atomic_bool stop;
extern atomic_int ready;
/* Whether the busy threads could set latency nice 19 and -20 on themselves. */
extern atomic_int indifferent_set, sensitive_set;

/* The columns of sched/idle_search after "all" that pack and noise read. */
#define IDLE_SEARCH_PROTECTED	8
#define IDLE_SEARCH_PACKED	9

void die(const char *what);
uint64_t now_ns(void);
void pin(int cpu);
void unpin(void);
void read_full(int fd, void *buf, size_t len);
void write_full(int fd, const void *buf, size_t len);
void siblings(int cpu, bool *mask);
bool idle_search(int tid, unsigned long long v[6]);
int set_latency_nice(int value);
void start_spinners(const bool *busy, const bool *indifferent, const bool *sensitive,
		    pthread_t *t, int *n);
void stop_spinners(pthread_t *t, int n);
int cpus_option(int opt, const char *arg, bool *mask);
void spin_ns(uint64_t ns);
int cmp_u64(const void *a, const void *b);
bool task_where(int tid, char *state, int *cpu);
long long idle_search_all(int col);

/* The workloads: each takes its mode's arguments, argv[0] its name. */
int do_rtt(int argc, char **argv);
int do_pingpong(int argc, char **argv);
int do_messaging(int argc, char **argv);
int do_wakeup(int argc, char **argv);
int do_cyclictest(int argc, char **argv);
int do_pack(int argc, char **argv);
int do_noise(int argc, char **argv);
int do_share(int argc, char **argv);

#endif /* LNBENCH_H */
