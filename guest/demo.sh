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
