#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make demo's last part, in a guest of one CPU under -icount (time counted
# in instructions): what latency nice is for.  A periodic task (Debian's
# cyclictest, 1 ms period) wakes beside a load (hackbench -g 1, again and
# again) at latency nice 0, at -20, and as SCHED_FIFO, and its wakeup
# delays are shown side by side.  lnbench (bench/lnbench/) runs
# cyclictest with hackbench beside it and reads cyclictest's histogram.
CYC="-t 1 -a 0 -i 1000 -m -l ${DEMO_LOOPS:-1000}"
row() {
	label=$1
	shift
	"$@" 2>/dev/null | sed -n 's/^BENCH .*p50_us=\([0-9]*\) p99_us=\([0-9]*\) p999_us=[0-9]* max_us=\([0-9]*\).*/\1 \2 \3/p' |
		{ read -r p50 p99 max && printf '  %-24s %8s %8s %8s\n' "$label" "$p50" "$p99" "$max" ||
			printf '  %-24s (no result)\n' "$label"; }
}
echo "== what it is for: a periodic task beside a load"
echo "cyclictest wakes every 1 ms on one CPU while hackbench -g 1 runs there,"
echo "as SCHED_OTHER at latency nice 0 and at -20, and as SCHED_FIFO 95;"
echo "wakeup delay in us (QEMU -icount: time counted in instructions):"
printf '  %-24s %8s %8s %8s\n' "" p50 p99 max
row "latency nice 0" /extra/lnbench cyclictest -H '-g 1 -l 100' -- --policy other $CYC
row "latency nice -20" /tests/latnice -n -20 /extra/lnbench cyclictest -H '-g 1 -l 100' -- --policy other $CYC
row "-20, 1 ns timer slack" /tests/latnice -n -20 /extra/lnbench cyclictest -H '-g 1 -l 100' -s 1 -- --policy other $CYC
row "SCHED_FIFO 95" /extra/lnbench cyclictest -H '-g 1 -l 100' -- --policy fifo -p 95 $CYC
echo "(cyclictest's SCHED_OTHER thread sleeps with 50 us of timer slack, the"
echo "FIFO one with none: the row with 1 ns of slack shows the scheduler's"
echo "part alone.)"
