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
files=(/tests/demo.sh="$TOP/initramfs/demo.sh" /etc/latnice-series="$tmp/series")
mapfile -t -O ${#files[@]} files < <(guest_programs "$tmp/list")
SHOW=${SHOW:-guest} "$TOP/scripts/boot.sh" "$(new_results demo)" "$tmp/cmd" "${files[@]}"
