#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make bisect: prove the series is bisectable.  For the base and after each
# patch, build the kernel (own object folder, shared ccache), boot it and
# run the guest tests; every step must build and boot without a splat.
#
# Usage: scripts/bisect-check.sh
# Test failures before the patch that a test needs are expected and shown
# (they also show that those tests can fail); a build failure, a boot
# failure or a kernel splat at any step fails this script.  Takes about
# 4 to 5 minutes per patch that touches a widely included header.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# The guest programs are built once, against the whole series' headers.
"$TOP/scripts/apply-series.sh" >/dev/null
"$TOP/scripts/build-guest.sh" >/dev/null
mapfile -t patches < <(series_list "$PATCHES")

# A worktree of its own, so the developer's tree is left alone; the
# series is applied there one patch at a time.
tree=$BUILD/bisect-tree
export OBJ=$BUILD/obj-bisect
[ -d "$tree" ] || git -C "$SRC" worktree add -q --detach "$tree" base
git -C "$tree" am --abort >/dev/null 2>&1 || true
git -C "$tree" checkout -q -f --detach base
export GIT_COMMITTER_NAME="latnice harness" GIT_COMMITTER_EMAIL="latnice@localhost"

bad=0
table=()
for i in $(seq 0 ${#patches[@]}); do
	if [ "$i" = 0 ]; then
		subject="(base: Debian linux-source-6.12 $KVER_DEB)"
	else
		p=${patches[$((i - 1))]}
		git -C "$tree" am -q --committer-date-is-author-date "$PATCHES/$p" ||
			die "$p does not apply (make apply says which hunk)"
		subject=$(git -C "$tree" log -1 --format=%s)
	fi
	echo "=== step $i/${#patches[@]}: $subject"
	if ! "$TOP/scripts/build-kernel.sh" "$tree" "$OBJ"; then
		table+=("$i | build FAILED | | $subject")
		bad=1
		continue
	fi
	counts=$(mktemp)
	printf 'run-tests\n' >"$counts.cmd"
	mapfile -t files < <(guest_programs)
	set +e
	COUNTS=$counts SHOW=progress "$TOP/scripts/guest.sh" "bisect-$i" "$counts.cmd" "${files[@]}" >"$counts.out" 2>&1
	set -e
	cat "$counts.out"
	if grep -qE 'FAIL: (kernel splat|the guest never started|QEMU timed out|the guest did not finish)' "$counts.out"; then
		boot="boot FAILED"
		bad=1
	else
		boot="boots"
	fi
	read -r p f s <"$counts" || { p=0 f=0 s=0; }
	table+=("$i | $boot | $p passed, $f failed | $subject")
	rm -f "$counts" "$counts.cmd" "$counts.out"
done
echo
echo "step | kernel | guest tests | patch"
printf '%s\n' "${table[@]}"
[ $bad = 0 ] && echo "every step builds and boots" || echo "some step does not build or boot"
exit $bad
