/* SPDX-License-Identifier: GPL-2.0 */
/*
 * cpulist_parse(): the one cpulist parser of the guest programs
 * (the C files of tests/guest/) and of bench/lnbench/.  The series' own selftests
 * carry theirs in tools/testing/selftests/sched/latency_nice.h.
 */
#ifndef LATNICE_CPULIST_H
#define LATNICE_CPULIST_H

#include <errno.h>
#include <stdbool.h>
#include <stdlib.h>
#include <string.h>

/*
 * Parse a cpulist such as "0-3,8,10-11\n" into @set (@max entries, all
 * cleared first).  Returns the number of CPUs, or -EINVAL for anything
 * that is not a cpulist or names a CPU at or past @max.
 */
static inline int cpulist_parse(const char *s, bool *set, int max)
{
	int n = 0;

	memset(set, 0, max * sizeof(*set));
	while (*s && *s != '\n') {
		char *end;
		long a = strtol(s, &end, 10), b = a;

		if (end == s)
			return -EINVAL;
		if (*end == '-')
			b = strtol(end + 1, &end, 10);
		if (a < 0 || b >= max || b < a)
			return -EINVAL;
		for (; a <= b; a++, n++)
			set[a] = true;
		if (*end == ',')
			end++;
		else if (*end && *end != '\n')
			return -EINVAL;
		s = end;
	}
	return n;
}

#endif /* LATNICE_CPULIST_H */
