#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build the static programs that run in the guest, against the headers the
# kernel build exported (OBJ/usr/include) and the tree's kselftest headers.
#
# Usage: scripts/build-guest.sh
# Output: $BUILD/guest/<name> for each tests/guest/<name>.c and for each
# kernel selftest listed in tests/guest/kselftests.  A program is rebuilt
# only when its source, a header it may use, or this script is newer than
# the binary.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

inc=$OBJ/usr/include
[ -d "$inc/linux" ] || die "$inc is missing: build the kernel first (make kernel)"
out=$BUILD/guest
mkdir -p "$out"
CFLAGS=(-static -O2 -g -Wall -pthread
	-isystem "$inc" -I "$SRC/tools/testing/selftests" -I "$TOP/tests/guest")
sources=("$TOP"/tests/guest/*.c)
while read -r rel; do
	[ -f "$SRC/$rel" ] && sources+=("$SRC/$rel")
done < <(sed -e 's/#.*//' -e '/^[[:space:]]*$/d' "$TOP/tests/guest/kselftests")

n=0
for src in "${sources[@]}"; do
	[ -e "$src" ] || continue
	bin=$out/$(basename "$src" .c)
	if [ -x "$bin" ] && [ "$bin" -nt "$src" ] && [ "$bin" -nt "$inc/linux/sched/types.h" ] &&
	   [ "$bin" -nt "$0" ] && [ -z "$(find "$TOP/tests/guest" "$(dirname "$src")" -maxdepth 1 -name '*.h' -newer "$bin")" ]; then
		continue
	fi
	gcc "${CFLAGS[@]}" -o "$bin" "$src" || die "building $src failed"
	n=$((n + 1))
done
# Programs whose source went away (say, a series without that test) must
# not run in the guest as leftovers.
for bin in "$out"/*; do
	[ -e "$bin" ] || continue
	name=$(basename "$bin")
	[ "$name" = latnice ] && continue
	keep=0
	for src in "${sources[@]}"; do
		[ "$(basename "$src" .c)" = "$name" ] && keep=1
	done
	[ $keep = 1 ] || rm -f "$bin"
done

# The latnice tool, static for the guest.
make -s -C "$TOP/latnice" static O="$out" KHDR="$inc" || die "building latnice failed"
echo "    $n guest program(s) built, in $out"
