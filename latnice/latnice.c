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
 * A cpu cgroup has a latency nice of its own in its cpu.latency.nice file,
 * which its tasks use unless they set one; "default" there means the
 * group follows its parent.  --cgroup shows or writes that file.  A task
 * drops its own setting, and follows its cgroup again, with
 * SCHED_FLAG_LATENCY_NICE_DEFAULT: -n default.
 *
 * Modelled on util-linux's chrt(1) and uclampset(1).
 */
#define _GNU_SOURCE
#include <ctype.h>
#include <dirent.h>
#include <err.h>
#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <limits.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <sys/types.h>
#include <unistd.h>

/* The Makefile passes the version from latnice/VERSION. */
#ifndef LATNICE_VERSION
#define LATNICE_VERSION "unknown"
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
#ifndef SCHED_FLAG_LATENCY_NICE_DEFAULT
#define SCHED_FLAG_LATENCY_NICE_DEFAULT	0x100
#endif
#ifndef SCHED_ATTR_SIZE_VER2
#define SCHED_ATTR_SIZE_VER2		60
#endif

#define MIN_LATENCY_NICE	-20
#define MAX_LATENCY_NICE	19

/* The cgroup file, and what it holds when the group follows its parent. */
#define CGROUP_FILE		"cpu.latency.nice"
#define CGROUP_DEFAULT		"default"

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

/* What latnice does; main() runs one do_*() for each. */
enum latnice_mode {
	MODE_EXEC,		/* run a command at a value: do_exec() */
	MODE_PID,		/* -p: show or set a task's value: do_pid() */
	MODE_CGROUP,		/* --cgroup: show or set a cgroup's: do_cgroup() */
};

/* The options and arguments, as parse_args() finds them. */
struct latnice_ctl {
	enum latnice_mode mode;
	pid_t pid;		/* -p's pid; 0: ourselves */
	char **cmd;		/* the command and its arguments */
	const char *cgroup;	/* --cgroup PATH */
	int value;		/* the value to set */
	bool set;		/* -n given */
	bool value_default;	/* -n default: drop the setting */
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
	      " latnice [options] -n <value>|default <command> [<argument>...]\n"
	      " latnice [options] [-n <value>|default] -p <pid>\n"
	      " latnice [-v] [-n <value>|default] --cgroup <path>\n"
	      "\n"
	      "Run a program with a latency nice value, or show or change the\n"
	      "latency nice value of a running task or of a cpu cgroup.  Values go\n"
	      "from -20 (most sensitive to wakeup latency) to 19 (indifferent); the\n"
	      "default is 0.\n"
	      "\n"
	      "Options:\n"
	      " -n, --value <value>   latency nice value to set, -20..19; 'default'\n"
	      "                       drops a task's setting (it follows its cgroup\n"
	      "                       again), and a cgroup's (it follows its parent)\n"
	      " -p, --pid             operate on an existing pid (given last)\n"
	      " -c, --cgroup <path>   operate on the cgroup directory <path>\n"
	      " -a, --all-tasks       operate on all the threads of the pid\n"
	      " -R, --reset-on-fork   children of the task start at the default\n"
	      " -v, --verbose         show the value after setting it, and whether\n"
	      "                       it is a task's own and the task's slice\n"
	      "\n"
	      " -h, --help            display this help\n"
	      " -V, --version         display version\n"
	      "\n"
	      "Lowering a value needs CAP_SYS_NICE or an RLIMIT_NICE allowance.\n"
	      "For more details see latnice(1).\n", out);
	exit(out == stderr ? EXIT_FAILURE : EXIT_SUCCESS);
}

/*
 * The one integer parser: all of s, a decimal integer from min to max.
 * Returns 0 with the integer in *v; EINVAL when s is not an integer (empty,
 * junk or white space around it, or beyond a long); ERANGE when it is out
 * of range.
 */
static int parse_int(const char *s, long min, long max, long *v)
{
	char *end;

	if (!*s || isspace((unsigned char)*s))
		return EINVAL;
	errno = 0;
	*v = strtol(s, &end, 10);
	if (errno || *end)
		return EINVAL;
	return *v < min || *v > max ? ERANGE : 0;
}

static int parse_value(const char *s)
{
	long v;

	switch (parse_int(s, MIN_LATENCY_NICE, MAX_LATENCY_NICE, &v)) {
	case EINVAL:
		errx(EXIT_FAILURE, "invalid latency nice value: '%s' (an integer from %d to %d)",
		     s, MIN_LATENCY_NICE, MAX_LATENCY_NICE);
	case ERANGE:
		errx(EXIT_FAILURE, "latency nice value %s is out of range (%d to %d)",
		     s, MIN_LATENCY_NICE, MAX_LATENCY_NICE);
	}
	return v;
}

static pid_t parse_pid(const char *s)
{
	long v;

	if (parse_int(s, 0, INT_MAX, &v))
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
		     "(lowering it, dropping a setting above its cgroup's value, or "
		     "changing another user's task, needs CAP_SYS_NICE; see RLIMIT_NICE)",
		     what, who(pid, b, sizeof(b)));
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

static void __attribute__((__noreturn__)) no_drop(void)
{
	errx(EXIT_FAILURE, "this kernel cannot drop a task's latency nice setting "
	     "(no SCHED_FLAG_LATENCY_NICE_DEFAULT); set a value instead");
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

/*
 * The fields of /proc/<pid>/sched that latnice shows, which kernels with
 * CONFIG_SCHED_DEBUG have: the slice (EEVDF request size, ns) the task
 * runs with, se.slice; whether it has a latency nice setting of its own,
 * a latency_nice line, and its value; and the floor its cgroup's value
 * sets to a setting made without privilege, a latency_nice_floor line
 * (the value in effect is "effective latency_nice").  false when the
 * file cannot be read.
 */
struct proc_sched {
	long long slice;	/* -1: not shown */
	bool own;		/* a latency_nice line */
	int value;		/* its value */
	bool floored;		/* a latency_nice_floor line */
	int floor;		/* its value */
};

static bool read_proc_sched(pid_t pid, struct proc_sched *ps)
{
	char path[64], line[256];
	FILE *f;

	ps->slice = -1;
	ps->own = false;
	ps->value = 0;
	ps->floored = false;
	ps->floor = 0;
	snprintf(path, sizeof(path), "/proc/%d/sched", pid);
	f = fopen(path, "r");
	if (!f)
		return false;
	while (fgets(line, sizeof(line), f)) {
		char *colon = strchr(line, ':');

		if (!colon)
			continue;
		if (!strncmp(line, "se.slice ", 9))
			ps->slice = strtoll(colon + 1, NULL, 10);
		else if (!strncmp(line, "latency_nice ", 13)) {
			ps->own = true;
			ps->value = (int)strtol(colon + 1, NULL, 10);
		} else if (!strncmp(line, "latency_nice_floor ", 19)) {
			ps->floored = true;
			ps->floor = (int)strtol(colon + 1, NULL, 10);
		}
	}
	fclose(f);
	return true;
}

static void show_task(const struct latnice_ctl *ctl, pid_t pid)
{
	struct latnice_attr attr;
	int v = get_latency_nice(pid, &attr);
	struct proc_sched ps;

	if (!pid)
		pid = getpid();
	printf("pid %d's current latency nice: %d%s\n", pid, v,
	       attr.sched_flags & SCHED_FLAG_RESET_ON_FORK ? " (reset on fork)" : "");
	if (!read_proc_sched(pid, &ps))
		return;
	/*
	 * A setting made without privilege is floored by the cgroup's value:
	 * say so whenever that is why the value differs from the setting.
	 */
	if (ps.own && ps.floored && (ctl->verbose || ps.floor > ps.value))
		printf("pid %d's latency nice setting: its own, %d, floored by its cgroup's %d "
		       "(set without CAP_SYS_NICE)\n", pid, ps.value, ps.floor);
	if (!ctl->verbose)
		return;
	if (!ps.own)
		printf("pid %d's latency nice setting: none (it follows its cgroup)\n", pid);
	else if (!ps.floored)
		printf("pid %d's latency nice setting: its own, %d\n", pid, ps.value);
	/*
	 * The slice it runs with: its latency nice's, or the one it asked
	 * for with sched_runtime (sched_getattr() reports the slice in use
	 * either way, so the two cannot be told apart from here).
	 */
	if (ps.slice >= 0)
		printf("pid %d's slice: %lld.%03lld ms\n", pid, ps.slice / 1000000,
		       ps.slice % 1000000 / 1000);
}

static void set_task(const struct latnice_ctl *ctl, pid_t pid)
{
	struct latnice_attr attr;

	get_latency_nice(pid, &attr);
	/*
	 * Change latency nice alone: keep the policy and its parameters.  The
	 * kernel takes the reset-on-fork flag only with a policy, so -R
	 * passes the task's own policy back instead of KEEP_POLICY.
	 */
	attr.sched_flags = SCHED_FLAG_KEEP_PARAMS;
	if (ctl->value_default)
		attr.sched_flags |= SCHED_FLAG_LATENCY_NICE_DEFAULT;
	else
		attr.sched_flags |= SCHED_FLAG_LATENCY_NICE;
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
			/* Latency nice, but from before the drop flag: */
			if (e == EINVAL && ctl->value_default)
				no_drop();
		}
		fail(ctl->value_default ? "failed to drop" : "failed to set", pid, e);
	}
	if (ctl->verbose)
		show_task(ctl, pid);
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
		long tid;

		if (parse_int(d->d_name, 1, INT_MAX, &tid))
			continue;	/* "." and ".." */
		fn(ctl, tid);
		n++;
	}
	closedir(dir);
	if (!n)
		fail("failed to read", ctl->pid, ESRCH);
}

/* out = dir/name; a path too long for PATH_MAX is an error. */
static char *join(char *out, const char *dir, const char *name)
{
	if (snprintf(out, PATH_MAX, "%s/%s", dir, name) >= PATH_MAX)
		errx(EXIT_FAILURE, "path too long: %s/%s", dir, name);
	return out;
}

/*
 * Read a cgroup's cpu.latency.nice into buf (newline dropped).  Returns 0,
 * or an errno value.
 */
static int cgroup_read(const char *dir, char *buf, size_t len)
{
	char path[PATH_MAX];
	ssize_t n;
	int fd, e;

	fd = open(join(path, dir, CGROUP_FILE), O_RDONLY);
	if (fd < 0)
		return errno;
	n = read(fd, buf, len - 1);
	e = errno;
	close(fd);
	if (n < 0)
		return e;
	buf[n] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	return 0;
}

static bool is_dir(const char *path)
{
	struct stat st;

	return !stat(path, &st) && S_ISDIR(st.st_mode);
}

/* The parent directory of dir, resolved; "/" is its own parent. */
static void parent_dir(const char *dir, char *parent)
{
	char up[PATH_MAX];

	if (!realpath(join(up, dir, ".."), parent))
		err(EXIT_FAILURE, "cannot resolve %s", up);
}

/* Explain why dir has no cpu.latency.nice and exit. */
static void __attribute__((__noreturn__)) no_cgroup_file(const char *dir, int e)
{
	char path[PATH_MAX], parent[PATH_MAX];

	if (e == EACCES)
		errx(EXIT_FAILURE, "cgroup %s: cannot read %s: permission denied",
		     dir, CGROUP_FILE);
	if (!is_dir(dir))
		errx(EXIT_FAILURE, "cgroup %s: no such directory", dir);
	if (access(join(path, dir, "cgroup.procs"), F_OK))
		errx(EXIT_FAILURE, "%s is not a cgroup directory "
		     "(cgroups are usually under /sys/fs/cgroup)", dir);
	parent_dir(dir, parent);
	if (access(join(path, parent, "cgroup.procs"), F_OK))
		errx(EXIT_FAILURE, "cgroup %s is a root cgroup: it has no latency "
		     "nice (its tasks use their own, or 0)", dir);
	if (access(join(path, dir, "cpu.weight"), F_OK)) {
		if (access(join(path, dir, "cpu.shares"), F_OK))
			errx(EXIT_FAILURE, "cgroup %s has no cpu controller "
			     "(enable it with: echo +cpu > %s/cgroup.subtree_control)",
			     dir, parent);
	}
	errx(EXIT_FAILURE, "this kernel does not support latency nice for "
	     "cgroups (no %s in %s)", CGROUP_FILE, dir);
}

/*
 * Show a cgroup's latency nice; for a group that follows its parent, the
 * value in effect and where it comes from.
 */
static void cgroup_show(const char *dir)
{
	char buf[64], cur[PATH_MAX], parent[PATH_MAX];
	int e = cgroup_read(dir, buf, sizeof(buf));

	if (e)
		no_cgroup_file(dir, e);
	if (strcmp(buf, CGROUP_DEFAULT)) {
		printf("cgroup %s's latency nice: %s\n", dir, buf);
		return;
	}
	snprintf(cur, sizeof(cur), "%s", dir);
	for (;;) {
		parent_dir(cur, parent);
		if (!strcmp(parent, cur) || cgroup_read(parent, buf, sizeof(buf))) {
			printf("cgroup %s's latency nice: default (0 in effect, "
			       "as for the root)\n", dir);
			return;
		}
		if (strcmp(buf, CGROUP_DEFAULT)) {
			printf("cgroup %s's latency nice: default (%s in effect, "
			       "from %s)\n", dir, buf, parent);
			return;
		}
		snprintf(cur, sizeof(cur), "%s", parent);
	}
}

static void cgroup_set(const struct latnice_ctl *ctl)
{
	char path[PATH_MAX], buf[64];
	ssize_t n;
	int fd, e;

	e = cgroup_read(ctl->cgroup, buf, sizeof(buf));
	if (e)
		no_cgroup_file(ctl->cgroup, e);
	if (ctl->value_default)
		snprintf(buf, sizeof(buf), "%s\n", CGROUP_DEFAULT);
	else
		snprintf(buf, sizeof(buf), "%d\n", ctl->value);
	fd = open(join(path, ctl->cgroup, CGROUP_FILE), O_WRONLY | O_TRUNC);
	if (fd < 0) {
		e = errno;
		goto fail;
	}
	n = write(fd, buf, strlen(buf));
	e = errno;
	if (close(fd) && n >= 0) {
		n = -1;
		e = errno;
	}
	if (n >= 0) {
		if (ctl->verbose)
			cgroup_show(ctl->cgroup);
		return;
	}
	/* The file was opened: the kernel refused the value itself. */
	if (e == EPERM)
		errx(EXIT_FAILURE, "failed to set cgroup %s's latency nice: "
		     "permission denied (a value below the parent cgroup's value "
		     "in effect needs CAP_SYS_NICE)", ctl->cgroup);
fail:
	if (e == EACCES || e == EPERM)
		errx(EXIT_FAILURE, "failed to set cgroup %s's latency nice: "
		     "permission denied (writing %s needs write access to it)",
		     ctl->cgroup, path);
	errx(EXIT_FAILURE, "failed to set cgroup %s's latency nice: %s",
	     ctl->cgroup, strerror(e));
}

/* Fill ctl from the options, up to the pid or the command. */
static int parse_options(struct latnice_ctl *ctl, int argc, char **argv)
{
	static const struct option longopts[] = {
		{ "value",		required_argument,	NULL, 'n' },
		{ "pid",		no_argument,		NULL, 'p' },
		{ "cgroup",		required_argument,	NULL, 'c' },
		{ "all-tasks",		no_argument,		NULL, 'a' },
		{ "reset-on-fork",	no_argument,		NULL, 'R' },
		{ "verbose",		no_argument,		NULL, 'v' },
		{ "help",		no_argument,		NULL, 'h' },
		{ "version",		no_argument,		NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	int c;

	/* "+": options stop at the command, which has options of its own. */
	while ((c = getopt_long(argc, argv, "+n:pc:aRvhV", longopts, NULL)) != -1) {
		switch (c) {
		case 'n':
			if (!strcmp(optarg, CGROUP_DEFAULT))
				ctl->value_default = true;
			else
				ctl->value = parse_value(optarg);
			ctl->set = true;
			break;
		case 'c':
			if (!*optarg)
				errx(EXIT_FAILURE, "--cgroup needs a cgroup directory");
			ctl->cgroup = optarg;
			break;
		case 'p':
			ctl->mode = MODE_PID;
			break;
		case 'a':
			ctl->all_tasks = true;
			break;
		case 'R':
			ctl->reset_on_fork = true;
			break;
		case 'v':
			ctl->verbose = true;
			break;
		case 'h':
			usage(stdout);
		case 'V':
			printf("latnice %s\n", LATNICE_VERSION);
			exit(EXIT_SUCCESS);
		default:
			fprintf(stderr, "Try 'latnice --help' for more information.\n");
			exit(EXIT_FAILURE);
		}
	}
	return optind;
}

/*
 * Parse the command line into ctl: the options, then the mode and its
 * arguments (args: the nargs arguments after the options), refusing
 * what the mode does not take.
 */
static void parse_args(struct latnice_ctl *ctl, int argc, char **argv)
{
	int first = parse_options(ctl, argc, argv);
	char **args = argv + first;
	int nargs = argc - first;

	if (ctl->cgroup) {
		if (ctl->mode == MODE_PID || ctl->all_tasks || ctl->reset_on_fork || nargs)
			errx(EXIT_FAILURE, "--cgroup takes no pid, command, -a or -R "
			     "(try 'latnice --help')");
		ctl->mode = MODE_CGROUP;
		return;
	}
	if (ctl->mode == MODE_PID) {
		if (nargs != 1)
			errx(EXIT_FAILURE, "-p takes exactly one pid, given last "
			     "(try 'latnice --help')");
		ctl->pid = parse_pid(args[0]);
		if (ctl->reset_on_fork && !ctl->set)
			errx(EXIT_FAILURE, "-R needs a value to set (-n)");
		return;
	}
	if (!nargs) {
		warnx("no command given");
		usage(stderr);
	}
	if (!ctl->set)
		errx(EXIT_FAILURE, "a value to run '%s' with is needed (-n <value>)",
		     args[0]);
	if (ctl->all_tasks)
		errx(EXIT_FAILURE, "-a needs -p <pid>");
	ctl->cmd = args;
}

/* Set our own value and become the command; returns only on failure. */
static int do_exec(const struct latnice_ctl *ctl)
{
	int e;

	set_task(ctl, 0);
	execvp(ctl->cmd[0], ctl->cmd);
	e = errno;
	warnx("failed to execute %s: %s", ctl->cmd[0], strerror(e));
	return e == ENOENT ? EXIT_ENOENT : EXIT_CANNOT_INVOKE;
}

/* Show or set the value of the pid, or of its threads with -a. */
static int do_pid(const struct latnice_ctl *ctl)
{
	for_each_task(ctl, ctl->set ? set_task : show_task);
	return EXIT_SUCCESS;
}

/* Show or set the value of the cgroup. */
static int do_cgroup(const struct latnice_ctl *ctl)
{
	if (ctl->set)
		cgroup_set(ctl);
	else
		cgroup_show(ctl->cgroup);
	return EXIT_SUCCESS;
}

int main(int argc, char **argv)
{
	struct latnice_ctl ctl = { 0 };

	parse_args(&ctl, argc, argv);
	switch (ctl.mode) {
	case MODE_PID:
		return do_pid(&ctl);
	case MODE_CGROUP:
		return do_cgroup(&ctl);
	case MODE_EXEC:
		break;
	}
	return do_exec(&ctl);
}
