#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# make bench's figure 12, in the Debian system image (ROOTFS=system):
# PostgreSQL's pgbench, select only, beside stress-ng, with latency nice on
# the database's service and on the load, or without.
#
# Usage: pgbench.sh [-d VALUE] [-l VALUE] [-c CLIENTS] [-T SECONDS] [-n LOADERS]
#   -d VALUE    latency nice of PostgreSQL's service: its cgroup's, which
#               every backend follows (default: none written)
#   -l VALUE    latency nice of stress-ng, the load (default: none set)
#   -c CLIENTS  pgbench's connections (default 4)
#   -T SECONDS  how long pgbench runs (default 10)
#   -n LOADERS  stress-ng --cpu workers, none for 0 (default: one a CPU)
# Prints one line: BENCH mode=pgbench tps=... lat_avg_ms=... lat_p50_ms=...
# lat_p99_ms=... xacts=...; exits non-zero when a step fails.
set -eu
db= load= clients=4 secs=10 loaders=$(nproc)
while getopts d:l:c:T:n: opt; do
	case $opt in
	d) db=$OPTARG ;;
	l) load=$OPTARG ;;
	c) clients=$OPTARG ;;
	T) secs=$OPTARG ;;
	n) loaders=$OPTARG ;;
	*) exit 2 ;;
	esac
done
unit=postgresql@15-main.service
cg=/sys/fs/cgroup/system.slice/system-postgresql.slice/$unit
pg() { runuser -u postgres -- "$@"; }

# The database, once a boot: a cpu cgroup of its own for the service (so
# that it has cpu.latency.nice), and a small pgbench data set.
if ! systemctl -q is-active $unit; then
	systemctl set-property --runtime $unit CPUWeight=100
	systemctl start $unit
fi
if ! pg psql -d bench -Atc 'select 1 from pgbench_accounts limit 1' >/dev/null 2>&1; then
	pg dropdb --if-exists bench
	pg createdb bench
	init=$(pg pgbench -i -q -s 2 bench 2>&1) || {
		echo "$init" >&2
		exit 1
	}
fi
if [ -n "$db" ]; then
	latnice -n "$db" --cgroup "$cg"
fi

pids=
if [ "$loaders" -gt 0 ]; then
	if [ -n "$load" ]; then
		latnice -n "$load" stress-ng --cpu "$loaders" --timeout $((secs + 10))s --quiet &
	else
		stress-ng --cpu "$loaders" --timeout $((secs + 10))s --quiet &
	fi
	pids=$!
	sleep 1
	kill -0 $pids 2>/dev/null || {
		echo "pgbench.sh: the load (stress-ng) did not start" >&2
		exit 1
	}
fi
rm -f /tmp/pgbench_log.*
out=$(cd /tmp && pg pgbench -S -n -c "$clients" -j 2 -T "$secs" -l --log-prefix=/tmp/pgbench_log bench 2>&1) || {
	echo "$out" >&2
	exit 1
}
[ -z "$pids" ] || kill $pids 2>/dev/null || true
wait 2>/dev/null || true
[ -z "$db" ] || latnice -n default --cgroup "$cg"

tps=$(echo "$out" | sed -n 's/^tps = \([0-9.]*\).*/\1/p' | head -n 1)
avg=$(echo "$out" | sed -n 's/^latency average = \([0-9.]*\) ms.*/\1/p')
# Each transaction's latency (us) is the third field of pgbench's log.
set -- $(cat /tmp/pgbench_log.* | awk '{print $3}' | sort -n | awk '
	{ v[NR] = $1 }
	END {
		if (!NR) { print "0 - -"; exit }
		# The nearest-rank percentiles: the sample at rank ceil(N * q).
		i50 = int(NR * 0.50); if (i50 < NR * 0.50) i50++; if (i50 < 1) i50 = 1
		i99 = int(NR * 0.99); if (i99 < NR * 0.99) i99++; if (i99 < 1) i99 = 1
		printf "%d %.3f %.3f\n", NR, v[i50] / 1000, v[i99] / 1000
	}')
rm -f /tmp/pgbench_log.*
echo "BENCH mode=pgbench tps=$tps lat_avg_ms=$avg lat_p50_ms=$2 lat_p99_ms=$3 xacts=$1 clients=$clients loaders=$loaders"
