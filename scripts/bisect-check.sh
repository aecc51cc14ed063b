#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make bisect: prove the series is bisectable.  For the base and after each
# patch, build the kernel, boot it and run the guest tests; every step must
# build and boot without a splat.
#
# Usage: scripts/bisect-check.sh
# The steps are checked out in the tree itself (build/linux, detached) and
# built in its usual object folder, so that ccache and make reuse every
# object a step shares with another; the tree must hold the series (make
# apply), and is put back on branch latnice at the end.  Test failures
# before the patch a test needs are expected and shown (they also show
# that those tests can fail); a build failure, a boot failure or a kernel
# splat at any step fails this script.  Patches that change a header
# included everywhere cost a full rebuild (about 4.5 minutes here).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

"$TOP/scripts/apply-series.sh" >/dev/null
"$TOP/scripts/build-guest.sh" >/dev/null
mapfile -t commits < <(git -C "$SRC" rev-list --reverse base..latnice)
commits=("$(git -C "$SRC" rev-parse base)" "${commits[@]}")
[ "${#commits[@]}" -gt 1 ] || die "the series is empty"

restore() {
	git -C "$SRC" checkout -q latnice
}
trap restore EXIT

bad=0
table=()
for i in "${!commits[@]}"; do
	c=${commits[$i]}
	subject=$(git -C "$SRC" log -1 --format=%s "$c")
	[ "$i" = 0 ] && subject="(base: Debian linux-source-6.12 $KVER_DEB)"
	echo "=== step $i/$((${#commits[@]} - 1)): $subject"
	git -C "$SRC" checkout -q --detach "$c"
	if ! "$TOP/scripts/build-kernel.sh" "$SRC" "$OBJ"; then
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
	read -r np nf _ <"$counts" || { np=0 nf=0; }
	table+=("$i | $boot | $np passed, $nf failed | $subject")
	rm -f "$counts" "$counts.cmd" "$counts.out"
done
echo
echo "step | kernel | guest tests | patch"
printf '%s\n' "${table[@]}"
if [ $bad = 0 ]; then
	echo "every step builds and boots"
else
	echo "some step does not build or boot"
fi
exit $bad
