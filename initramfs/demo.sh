#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# What 'make demo' shows inside the guest.
echo "== kernel"
uname -a
cat /etc/latnice-series 2>/dev/null
echo
echo "== CPU topology (QEMU: ${LATNICE_TOPO:-?} sockets x cores x threads)"
echo "online CPUs: $(cat /sys/devices/system/cpu/online)"
for c in /sys/devices/system/cpu/cpu[0-9]*; do
	n=${c##*cpu}
	printf 'cpu%-3s package %s  core %-3s siblings %-6s LLC %s\n' "$n" \
		"$(cat $c/topology/physical_package_id)" "$(cat $c/topology/core_id)" \
		"$(cat $c/topology/thread_siblings_list)" \
		"$(cat $c/cache/index3/shared_cpu_list 2>/dev/null)"
done | sort -V
echo
echo "== scheduling domains of cpu0 (name, span from /proc/schedstat, flags)"
awk '/^cpu0 /{on=1; next} /^cpu/{on=0} on && /^domain/{print $1, $2}' /proc/schedstat |
while read -r d mask; do
	printf '%s %-4s span %s  %s\n' "$d" "$(cat /sys/kernel/debug/sched/domains/cpu0/$d/name)" \
		"$mask" "$(cat /sys/kernel/debug/sched/domains/cpu0/$d/flags)"
done
echo
echo "== scheduler features"
cat /sys/kernel/debug/sched/features
echo
echo "== latency nice's switches (sched/latency_nice/)"
grep . /sys/kernel/debug/sched/latency_nice/* | sed 's|.*/||'
echo
echo "== latency nice"
if ! latnice -p $$ >/dev/null 2>&1; then
	latnice -p $$
	exit 0
fi
sleep 1000 &
pid=$!
echo "\$ latnice -p $pid                  # a new task starts at the default"
latnice -p $pid
echo "\$ latnice -v -n -10 -p $pid        # make it latency sensitive"
latnice -v -n -10 -p $pid
echo "\$ grep latency_nice /proc/$pid/sched"
grep latency_nice /proc/$pid/sched
kill $pid
echo "\$ latnice -n 19 sh -c 'latnice -p \$\$'  # run a command at 19"
latnice -n 19 sh -c 'latnice -p $$'
echo "\$ su nobody -c 'latnice -n -5 true'  # lowering needs CAP_SYS_NICE"
su -s /bin/sh nobody -c 'latnice -n -5 true'
echo "(exit status $?)"

[ -x /tests/latency_nice_search_test ] || exit 0
echo
echo "== the bounded idle CPU search"
echo "Every CPU of cpu0's LLC but cpu0 runs a busy loop; a wakee wakes 40"
echo "times from cpu0 (latency_nice_search_test budget_and_rotation):"
/tests/latency_nice_search_test -t budget_and_rotation 2>&1 |
	sed -n 's/.*budget_and_rotation:\(value .*\)/  \1/p'
echo "and at -20, the floor alone (min_value_probes_the_floor):"
/tests/latency_nice_search_test -t min_value_probes_the_floor 2>&1 |
	sed -n 's/.*min_value_probes_the_floor:\(scans .*\)/  \1/p' | head -n 1
echo "\$ cat /sys/kernel/debug/sched/idle_search   # per CPU that ran wakeups"
grep -E '^(cpu|0 |all)' /sys/kernel/debug/sched/idle_search
