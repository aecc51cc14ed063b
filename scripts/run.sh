#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Run your own command in the guest and exit with its exit status.
#
# Usage: scripts/run.sh 'COMMAND' [HOST_FILE ...]
#        make run CMD='COMMAND' EXTRA='HOST_FILE ...'
#        make run ROOTFS=system     (no command: a root shell on the Debian
#                                    system, systemd as PID 1, on this terminal)
# Each HOST_FILE is copied to /extra/<its name> in the guest, and the
# command runs in /extra with /extra and /tests on PATH (the project's
# static test programs and tools are in /tests).  HOST_PROGRAMS (a setting)
# names programs of this machine that the guest gets at their own paths
# with the libraries ldd lists (harness/boot.py), e.g.
# HOST_PROGRAMS="cyclictest hackbench".  The exit status is the
# command's, or non-zero when the kernel splats or QEMU times out.
# (make itself can only exit 0 or 2: use this script when the exact
# status matters; make run prints it.)
set -euo pipefail
. "$(dirname "$0")/lib.sh"

if [ $# -eq 0 ] || [ -z "$1" ]; then
	[ "$ROOTFS" = system ] ||
		die "usage: $0 'COMMAND' [HOST_FILE ...]  (or make run CMD='...' EXTRA='...'; make run ROOTFS=system for a shell on the Debian system)"
	[ $# -eq 0 ] || shift
	cmd=
else
	cmd=$1
	shift
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '%s\n' "$cmd" >"$tmp/cmd"
files=()
for f in "$@"; do
	[ -f "$f" ] || die "EXTRA file not found: $f"
	files+=("/extra/$(basename "$f")=$f")
done
opts=(--list "$tmp/list")
for p in $HOST_PROGRAMS; do
	opts+=(--host "$p")
done
printf '# make run: no test list\n' >"$tmp/list"
set +e
if [ -z "$cmd" ]; then
	python3 -m harness boot "${opts[@]}" "$(new_results run)" - "${files[@]}"
	exit
fi
SHOW=${SHOW:-guest} python3 -m harness boot "${opts[@]}" "$(new_results run)" "$tmp/cmd" "${files[@]}"
rc=$?
set -e
echo "guest command exit status: $rc"
exit $rc
