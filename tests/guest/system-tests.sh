#!/bin/sh
# SPDX-License-Identifier: GPL-2.0
# Latency nice on a Debian system with systemd as PID 1 (the "system"
# scenario), as its users meet it: a service given a value through its
# unit, a user's delegated subtree, and Debian's own tools.  Runs as root
# from latnice-guest.service; prints TAP, its plan last.
#
# LATNICE_SYSTEM_REPEATABLE=1 (a boot under QEMU -icount) also judges the
# wakeup latency's microseconds; otherwise only what ran is checked.
. /tests/tap.sh
CG=/sys/fs/cgroup
# Debian's programs first: latnice is the package's, not /tests's.
PATH=/usr/sbin:/usr/bin:/sbin:/bin:/tests

# --- latnice from the project's Debian package, as a user installs it.
deb=$(ls /tests/latnice_*.deb 2>/dev/null | head -n 1)
ok "the latnice package installs with dpkg" sh -c "dpkg -i $deb >/dev/null 2>&1"
ok "... and puts latnice in /usr/bin" is "$(command -v latnice)" /usr/bin/latnice
ok "... with its man page" has "$(dpkg -L latnice)" /usr/share/man/man1/latnice.1.gz
LATNICE=/usr/bin/latnice

# effective PID: the value the scheduler uses for PID.
effective() {
	sed -n 's/^effective latency_nice *: *//p' "/proc/$1/sched"
}
# all_at DIR VALUE: every process of cgroup DIR has VALUE in effect, and
# there is one at least.
all_at() {
	set -- "$1" "$2" "$(cat "$1/cgroup.procs")"
	[ -n "$3" ] || { echo "# no process in $1"; return 1; }
	for p in $3; do
		[ "$(effective "$p")" = "$2" ] && continue
		echo "# pid $p ($(cat /proc/$p/comm)) has $(effective "$p") in effect, not $2"
		return 1
	done
}
# wait_for CONDITION...: up to 60 s.
wait_for() {
	i=0
	until "$@"; do
		i=$((i + 1))
		[ $i -le 120 ] || return 1
		sleep 0.5
	done
}

ok "systemd is PID 1" is "$(cat /proc/1/comm)" systemd
ok "no unit failed while the system came up" \
	is "$(systemctl list-units --failed --plain --no-legend)" ""

# --- A service given a value through its unit: the recipe a user writes
# (README.md, "On a systemd system").  The service forks two workers and
# exits (Type=forking), so that they run before the recipe does.
cat >/etc/systemd/system/lnsvc.service <<UNIT
[Unit]
Description=latency nice test: a service with workers
[Service]
Type=forking
PIDFile=/run/lnsvc.pid
ExecStart=/bin/sh -c 'sleep infinity & echo \$! >/run/lnsvc.pid; sleep infinity & exit 0'
UNIT
mkdir -p /etc/systemd/system/lnsvc.service.d
cat >/etc/systemd/system/lnsvc.service.d/latency-nice.conf <<UNIT
[Service]
CPUWeight=100
ExecStartPost=+$LATNICE -n -10 --cgroup /sys/fs/cgroup/system.slice/%n
UNIT
systemctl daemon-reload
systemctl start lnsvc.service
S=$CG/system.slice/lnsvc.service
ok "service: started with the recipe" is "$(systemctl is-active lnsvc.service)" active
ok "service: its cgroup holds the value" is "$(cat $S/cpu.latency.nice 2>&1)" -10
ok "service: every process has it in effect, workers forked before it too" all_at $S -10
before=$(cat $S/cgroup.procs)
systemctl restart lnsvc.service
ok "service: systemctl restart gives new processes" \
	[ "$(cat $S/cgroup.procs)" != "$before" ]
ok "service: after a restart every process has it" all_at $S -10
systemctl daemon-reload
ok "service: after daemon-reload every process has it" all_at $S -10
ok "service: after daemon-reload its cgroup holds it" is "$(cat $S/cpu.latency.nice 2>&1)" -10
systemctl stop lnsvc.service

# --- A user's session: lingering starts user@1000.service, whose subtree
# systemd delegates to the user with the cpu controller.  The
# administrator gives it -5; the user may raise values in the subtree but
# never take a task below the administrator's value, now or later.
U=$CG/user.slice/user-1000.slice/user@1000.service
loginctl enable-linger tester
ok "user: lingering starts the user's manager" \
	wait_for systemctl -q is-active user@1000.service
ok "user: the subtree has the cpu controller" has "$(cat $U/cgroup.controllers)" cpu
as_user() {
	runuser -u tester -- env XDG_RUNTIME_DIR=/run/user/1000 "$@"
}
refused() { # COMMAND...: it fails (its message goes to the log)
	if out=$("$@" 2>&1); then
		echo "# accepted: $*"
		return 1
	fi
	echo "$out" | sed 's/^/# /'
}
latnice -n -5 --cgroup $U
as_user systemd-run -q --user --unit=lnuser -p CPUWeight=100 sleep infinity
as_user systemd-run -q --user --unit=lnown -p CPUWeight=100 sleep infinity
G=$U/app.slice/lnuser.service
O=$U/app.slice/lnown.service
both_running() { # (a cgroup file's size is 0 whatever it holds)
	[ -n "$(cat $G/cgroup.procs 2>/dev/null)" ] && [ -n "$(cat $O/cgroup.procs 2>/dev/null)" ]
}
ok "user: systemd-run --user starts a service in the subtree" \
	wait_for both_running
task=$(cat $O/cgroup.procs)
ok "user: the user's service follows the administrator's -5" all_at $G -5
ok "user: the user raises its service to 3" as_user $LATNICE -n 3 --cgroup $G
ok "user: the value in effect is 3" all_at $G 3
ok "user: going below the administrator's value is refused" \
	refused as_user $LATNICE -n -10 --cgroup $G
ok "user: the refused write changed nothing" all_at $G 3
ok "user: back to the administrator's value is allowed" as_user $LATNICE -n -5 --cgroup $G
ok "user: a task takes -5 as its own setting" as_user $LATNICE -n -5 -p $task
ok "user: a task's own setting below it is refused" \
	refused as_user $LATNICE -n -6 -p $task
latnice -n 0 --cgroup $U
ok "user: the administrator raises the subtree to 0: the service follows" all_at $G 0
ok "user: ... and the task's own setting is raised with it" is "$(effective $task)" 0
ok "user: ... and the user cannot go back below it" \
	refused as_user $LATNICE -n -3 --cgroup $G
ok "user: writing back what the file reads is allowed (a save and restore)" \
	as_user $LATNICE -n -5 --cgroup $G
ok "user: ... and it changes nothing: the service stays at 0" all_at $G 0
latnice -n -5 --cgroup $U
ok "user: lowered again, the service gets back to what it asked for" all_at $G -5
ok "user: ... and so does the task" is "$(effective $task)" -5
as_user systemctl --user stop lnuser.service lnown.service
latnice -n default --cgroup $U

# --- Debian's own cyclictest, hackbench and stress-ng (rt-tests and
# stress-ng, from the image), through the package's latnice-cyclictest: a
# periodic task on CPU 0 beside a load there, at 0, at -20 and as
# SCHED_FIFO.
loops=1000
# at_most PCT A B: A and B are numbers (a p99 beyond the histogram is
# ">20000"), and A is at most PCT% of B.
at_most() {
	for x in "${2#>}" "${3#>}"; do
		case $x in '' | *[!0-9]*) echo "# not a number: '$x'"; return 1 ;; esac
	done
	[ $((${2#>} * 100)) -le $((${3#>} * $1)) ]
}
# wakeups NAME PCT LOAD-OPTION...: the rows beside a load; -20's p99 must
# be at most PCT% of 0's.
wakeups() {
	name=$1 pct=$2
	shift 2
	out=$(latnice-cyclictest -k -l $loops "$@" 0 -20 fifo 2>&1)
	rc=$?
	echo "$out" | sed 's/^/# /'
	ok "cyclictest beside $name: latnice-cyclictest ran every row (exit 0)" is "$rc" 0
	for r in 0 -20 fifo; do
		ok "cyclictest beside $name: row $r took its $loops samples" is "$(row $r samples)" $loops
	done
	if [ "${LATNICE_SYSTEM_REPEATABLE:-0}" = 1 ]; then
		p0=$(row 0 p99_us) p20=$(row -20 p99_us)
		ok "cyclictest beside $name: -20's p99 ($p20 us) at most $pct% of 0's ($p0 us)" \
			at_most $pct "$p20" "$p0"
	else
		skip "cyclictest beside $name: -20's p99 against 0's" \
			"microseconds are judged only in repeatable time (QEMU -icount)"
	fi
}
row() { # ROW KEY: a value of latnice-cyclictest's line for ROW
	echo "$out" | sed -n "s/^row=$1 .*$2=\([^ ]*\).*/\1/p"
}
# Beside hackbench, whose tasks wake and sleep as often as the measured
# one, 0 waits behind them and -20 must at least halve its p99.  Beside
# CPU hogs, EEVDF already runs a waking sleeper soon at 0 (its lag is
# positive against theirs): -20 must not make it worse.
wakeups hackbench 50 -g 1
wakeups "two stress-ng CPU workers" 110 -s 2

# What the journal holds at warning level or above, for the log.
journalctl -b -p warning -o short-monotonic --no-pager -q | sed 's/^/# journal: /'

ok "no unit failed during the checks" \
	is "$(systemctl list-units --failed --plain --no-legend)" ""
tap_done
