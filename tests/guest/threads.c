// SPDX-License-Identifier: GPL-2.0
/*
 * A helper for the latnice guest tests: start N threads (argument, default
 * 3) that sleep, print "ready", and sleep until killed.
 */
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

static void *sleeper(void *arg)
{
	for (;;)
		pause();
	return arg;
}

int main(int argc, char **argv)
{
	int n = argc > 1 ? atoi(argv[1]) : 3;

	for (int i = 0; i < n; i++) {
		pthread_t t;

		if (pthread_create(&t, NULL, sleeper, NULL))
			return 1;
	}
	printf("ready\n");
	fflush(stdout);
	sleeper(NULL);
	return 0;
}
