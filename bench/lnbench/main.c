// SPDX-License-Identifier: GPL-2.0
/*
 * lnbench - the workloads of 'make bench', run inside the guest:
 *
 *   lnbench rtt|pingpong|messaging|wakeup|cyclictest|pack|noise|share [options]
 *
 * Each mode's options and report are described in its file (rtt.c and
 * so on); lnbench.h says what they share.
 */
#include "lnbench.h"

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
	{ "share", do_share },
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
