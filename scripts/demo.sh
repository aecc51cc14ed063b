#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make demo: boot the built kernel and show the feature at work.
# Usage: scripts/demo.sh
set -euo pipefail
. "$(dirname "$0")/lib.sh"

tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
{
	echo "series: $(series_list "$PATCHES" | wc -l) patches on Debian linux-source-6.12 $KVER_DEB"
	echo "tree:   $(git -C "$SRC" describe --always --tags 2>/dev/null) ($(git -C "$SRC" log -1 --format=%s 2>/dev/null))"
} >"$tmp/series"
printf 'sh /tests/demo.sh\n' >"$tmp/cmd"
printf '# make demo: no test list\n' >"$tmp/list"
SHOW=${SHOW:-guest} python3 -m harness boot --list "$tmp/list" "$(new_results demo)" "$tmp/cmd" \
	/tests/demo.sh="$TOP/initramfs/demo.sh" /etc/latnice-series="$tmp/series"

# The last part: a periodic task beside a load, on one CPU under -icount,
# with Debian's cyclictest and hackbench (rt-tests) and lnbench.
stage "lnbench (bench/lnbench/)"
lnbench=$(python3 -m bench.runner lnbench) || die "building bench/lnbench/ failed"
stage_done
printf 'sh /tests/demo-tail.sh\n' >"$tmp/cmd"
TOPO=1x1x1 ICOUNT=$ICOUNT_REPEATABLE SHOW=${SHOW:-guest} \
	python3 -m harness boot --host cyclictest --host hackbench "$(new_results demo)" "$tmp/cmd" \
	/tests/demo-tail.sh="$TOP/initramfs/demo-tail.sh" /extra/lnbench="$lnbench" \
	/tests/latnice="$PROGRAMS/latnice"
