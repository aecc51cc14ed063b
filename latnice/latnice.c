// SPDX-License-Identifier: GPL-2.0
/*
 * latnice - run a program with a latency nice value, or show or change
 * the latency nice value of running tasks.
 *
 * Latency nice is a per-task hint from -20 to 19: the lower the value, the
 * more the task cares about wakeup latency.  It is set and read with
 * sched_setattr(2) and sched_getattr(2), through SCHED_FLAG_LATENCY_NICE
 * and struct sched_attr's sched_latency_nice field.
 *
 * Modelled on util-linux's chrt(1) and uclampset(1).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

#ifndef LATNICE_VERSION
#define LATNICE_VERSION "0.1"
#endif

/* The uapi of the latency nice series (include/uapi/linux/sched.h). */
#ifndef SCHED_FLAG_RESET_ON_FORK
#define SCHED_FLAG_RESET_ON_FORK	0x01
#endif
#ifndef SCHED_FLAG_KEEP_POLICY
#define SCHED_FLAG_KEEP_POLICY		0x08
#endif
#ifndef SCHED_FLAG_KEEP_PARAMS
#define SCHED_FLAG_KEEP_PARAMS		0x10
#endif
#ifndef SCHED_FLAG_LATENCY_NICE
#define SCHED_FLAG_LATENCY_NICE		0x80
#endif
#ifndef SCHED_ATTR_SIZE_VER2
#define SCHED_ATTR_SIZE_VER2		60
#endif

#define MIN_LATENCY_NICE	-20
#define MAX_LATENCY_NICE	19

/* Exit statuses of chrt(1) and env(1) when the command cannot be run. */
#define EXIT_CANNOT_INVOKE	126
#define EXIT_ENOENT		127

/* struct sched_attr of include/uapi/linux/sched/types.h, as of VER2. */
struct latnice_attr {
	uint32_t size;
	uint32_t sched_policy;
	uint64_t sched_flags;
	int32_t sched_nice;
	uint32_t sched_priority;
	uint64_t sched_runtime;
	uint64_t sched_deadline;
	uint64_t sched_period;
	uint32_t sched_util_min;
	uint32_t sched_util_max;
	int32_t sched_latency_nice;
};

struct latnice_ctl {
	pid_t pid;		/* 0: the command, or ourselves */
	int value;		/* the value to set */
	bool set;		/* -n given */
	bool have_pid;		/* -p given */
	bool all_tasks;		/* -a */
	bool reset_on_fork;	/* -R */
	bool verbose;		/* -v */
};

static int sys_sched_getattr(pid_t pid, struct latnice_attr *attr)
{
	memset(attr, 0, sizeof(*attr));
	return syscall(SYS_sched_getattr, pid, attr, SCHED_ATTR_SIZE_VER2, 0);
}

static int sys_sched_setattr(pid_t pid, struct latnice_attr *attr)
{
	attr->size = SCHED_ATTR_SIZE_VER2;
	return syscall(SYS_sched_setattr, pid, attr, 0);
}

static void __attribute__((__noreturn__)) usage(FILE *out)
{
	fputs("Usage:\n"
	      " latnice [options] -n <value> <command> [<argument>...]\n"
	      " latnice [options] [-n <value>] -p <pid>\n"
	      "\n"
	      "Run a program with a latency nice value, or show or change the\n"
	      "latency nice value of a running task.  Values go from -20 (most\n"
	      "sensitive to wakeup latency) to 19 (indifferent); the default is 0.\n"
	      "\n"
	      "Options:\n"
	      " -n, --value <value>   latency nice value to set, -20..19\n"
	      " -p, --pid             operate on an existing pid (given last)\n"
	      " -a, --all-tasks       operate on all the threads of the pid\n"
	      " -R, --reset-on-fork   children of the task start at the default\n"
	      " -v, --verbose         show the value after setting it\n"
	      "\n"
	      " -h, --help            display this help\n"
	      " -V, --version         display version\n"
	      "\n"
	      "Lowering a value needs CAP_SYS_NICE or an RLIMIT_NICE allowance.\n"
	      "For more details see latnice(1).\n", out);
	exit(out == stderr ? EXIT_FAILURE : EXIT_SUCCESS);
}

static int parse_value(const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	while (isspace((unsigned char)*end))
		end++;
	if (errno || end == s || *end)
		errx(EXIT_FAILURE, "invalid latency nice value: '%s' (an integer from %d to %d)",
		     s, MIN_LATENCY_NICE, MAX_LATENCY_NICE);
	if (v < MIN_LATENCY_NICE || v > MAX_LATENCY_NICE)
		errx(EXIT_FAILURE, "latency nice value %s is out of range (%d to %d)",
		     s, MIN_LATENCY_NICE, MAX_LATENCY_NICE);
	return v;
}

static pid_t parse_pid(const char *s)
{
	char *end;
	long v;

	errno = 0;
	v = strtol(s, &end, 10);
	if (errno || end == s || *end || v < 0 || v > INT_MAX)
		errx(EXIT_FAILURE, "invalid pid: '%s'", s);
	return v;
}

static const char *who(pid_t pid, char *buf, size_t len)
{
	if (pid)
		snprintf(buf, len, "pid %d", pid);
	else
		snprintf(buf, len, "this process");
	return buf;
}

/* Fail with one clear line for each error the calls can return. */
static void __attribute__((__noreturn__)) fail(const char *what, pid_t pid, int e)
{
	char b[64];

	switch (e) {
	case ESRCH:
		errx(EXIT_FAILURE, "%s: no such process", who(pid, b, sizeof(b)));
	case EPERM:
		errx(EXIT_FAILURE, "%s %s's latency nice: permission denied "
		     "(lowering it, or changing another user's task, needs CAP_SYS_NICE; "
		     "see RLIMIT_NICE)", what, who(pid, b, sizeof(b)));
	case ENOSYS:
		errx(EXIT_FAILURE, "this kernel has no sched_setattr/sched_getattr "
		     "system calls, so no latency nice");
	default:
		errx(EXIT_FAILURE, "%s %s's latency nice: %s", what,
		     who(pid, b, sizeof(b)), strerror(e));
	}
}

static void __attribute__((__noreturn__)) unsupported(void)
{
	errx(EXIT_FAILURE, "this kernel does not support latency nice "
	     "(its sched_attr has no sched_latency_nice field)");
}

static int get_latency_nice(pid_t pid, struct latnice_attr *attr)
{
	if (sys_sched_getattr(pid, attr))
		fail("failed to get", pid, errno);
	/* A kernel without the field reports the size it knows. */
	if (attr->size < SCHED_ATTR_SIZE_VER2)
		unsupported();
	return attr->sched_latency_nice;
}

static void show(pid_t pid)
{
	struct latnice_attr attr;
	int v = get_latency_nice(pid, &attr);

	printf("pid %d's current latency nice: %d%s\n", pid ? pid : getpid(), v,
	       attr.sched_flags & SCHED_FLAG_RESET_ON_FORK ? " (reset on fork)" : "");
}

static void set(const struct latnice_ctl *ctl, pid_t pid)
{
	struct latnice_attr attr;

	get_latency_nice(pid, &attr);
	/*
	 * Change latency nice alone: keep the policy and its parameters.  The
	 * kernel takes the reset-on-fork flag only with a policy, so -R
	 * passes the task's own policy back instead of KEEP_POLICY.
	 */
	attr.sched_flags = SCHED_FLAG_LATENCY_NICE | SCHED_FLAG_KEEP_PARAMS;
	if (ctl->reset_on_fork)
		attr.sched_flags |= SCHED_FLAG_RESET_ON_FORK;
	else
		attr.sched_flags |= SCHED_FLAG_KEEP_POLICY;
	attr.sched_latency_nice = ctl->value;
	if (sys_sched_setattr(pid, &attr)) {
		int e = errno;

		/* Old kernels reject the unknown flag (or the larger size). */
		if (e == EINVAL || e == E2BIG) {
			struct latnice_attr probe;

			if (sys_sched_getattr(pid, &probe) == 0 &&
			    probe.size < SCHED_ATTR_SIZE_VER2)
				unsupported();
		}
		fail("failed to set", pid, e);
	}
	if (ctl->verbose)
		show(pid);
}

/* Apply fn to the pid, or to each of its threads with -a. */
static void for_each_task(const struct latnice_ctl *ctl,
			  void (*fn)(const struct latnice_ctl *, pid_t))
{
	char path[64];
	struct dirent *d;
	DIR *dir;
	int n = 0;

	if (!ctl->all_tasks || !ctl->pid) {
		fn(ctl, ctl->pid);
		return;
	}
	snprintf(path, sizeof(path), "/proc/%d/task", ctl->pid);
	dir = opendir(path);
	if (!dir) {
		if (errno == ENOENT)
			fail("failed to read", ctl->pid, ESRCH);
		err(EXIT_FAILURE, "cannot read %s", path);
	}
	while ((d = readdir(dir))) {
		if (!isdigit((unsigned char)d->d_name[0]))
			continue;
		fn(ctl, atoi(d->d_name));
		n++;
	}
	closedir(dir);
	if (!n)
		fail("failed to read", ctl->pid, ESRCH);
}

static void show_one(const struct latnice_ctl *ctl, pid_t pid)
{
	(void)ctl;
	show(pid);
}

int main(int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "value",		required_argument,	NULL, 'n' },
		{ "pid",		no_argument,		NULL, 'p' },
		{ "all-tasks",		no_argument,		NULL, 'a' },
		{ "reset-on-fork",	no_argument,		NULL, 'R' },
		{ "verbose",		no_argument,		NULL, 'v' },
		{ "help",		no_argument,		NULL, 'h' },
		{ "version",		no_argument,		NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct latnice_ctl ctl = { 0 };
	int c;

	/* "+": options stop at the command, which has options of its own. */
	while ((c = getopt_long(argc, argv, "+n:paRvhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			ctl.value = parse_value(optarg);
			ctl.set = true;
			break;
		case 'p':
			ctl.have_pid = true;
			break;
		case 'a':
			ctl.all_tasks = true;
			break;
		case 'R':
			ctl.reset_on_fork = true;
			break;
		case 'v':
			ctl.verbose = true;
			break;
		case 'h':
			usage(stdout);
		case 'V':
			printf("latnice %s\n", LATNICE_VERSION);
			return EXIT_SUCCESS;
		default:
			fprintf(stderr, "Try 'latnice --help' for more information.\n");
			return EXIT_FAILURE;
		}
	}

	if (ctl.have_pid) {
		if (optind != argc - 1)
			errx(EXIT_FAILURE, "-p takes exactly one pid, given last "
			     "(try 'latnice --help')");
		ctl.pid = parse_pid(argv[optind]);
		if (!ctl.set) {
			if (ctl.reset_on_fork)
				errx(EXIT_FAILURE, "-R needs a value to set (-n)");
			for_each_task(&ctl, show_one);
			return EXIT_SUCCESS;
		}
		for_each_task(&ctl, set);
		return EXIT_SUCCESS;
	}

	if (optind >= argc) {
		warnx("no command given");
		usage(stderr);
	}
	if (!ctl.set)
		errx(EXIT_FAILURE, "a value to run '%s' with is needed (-n <value>)",
		     argv[optind]);
	if (ctl.all_tasks)
		errx(EXIT_FAILURE, "-a needs -p <pid>");

	set(&ctl, 0);
	execvp(argv[optind], argv + optind);
	c = errno;
	warnx("failed to execute %s: %s", argv[optind], strerror(c));
	return c == ENOENT ? EXIT_ENOENT : EXIT_CANNOT_INVOKE;
}
