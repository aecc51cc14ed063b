#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build the static programs that run in the guest, against the headers the
# kernel build exported (OBJ/usr/include) and the tree's kselftest headers.
#
# Usage: scripts/build-guest.sh
# Output: $BUILD/guest/<name> for each tests/guest/<name>.c.  A program is
# rebuilt only when its source, a header it may use, or this script is
# newer than the binary.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

inc=$OBJ/usr/include
[ -d "$inc/linux" ] || die "$inc is missing: build the kernel first (make kernel)"
out=$BUILD/guest
mkdir -p "$out"
CFLAGS=(-static -O2 -g -Wall -Wextra -Wno-unused-parameter -pthread
	-isystem "$inc" -I "$SRC/tools/testing/selftests" -I "$TOP/tests/guest")
n=0
for src in "$TOP"/tests/guest/*.c; do
	[ -e "$src" ] || continue
	bin=$out/$(basename "$src" .c)
	if [ -x "$bin" ] && [ "$bin" -nt "$src" ] && [ "$bin" -nt "$inc/linux/sched/types.h" ] &&
	   [ "$bin" -nt "$0" ] && [ -z "$(find "$TOP/tests/guest" -name '*.h' -newer "$bin")" ]; then
		continue
	fi
	gcc "${CFLAGS[@]}" -o "$bin" "$src" || die "building $src failed"
	n=$((n + 1))
done
echo "    $n guest program(s) built, in $out"
