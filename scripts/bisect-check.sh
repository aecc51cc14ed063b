#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make bisect: prove the series is bisectable.  For the base and after each
# patch, build the kernel and boot every scenario of tests/guest/scenarios/
# that names the target bisect; every step must build and boot without a
# splat.
#
# Usage: scripts/bisect-check.sh   (BISECT_STEPS=FIRST-LAST: only those steps)
# The steps are checked out in the tree itself (build/linux, detached) and
# built in its usual object folder, so that ccache and make reuse every
# object a step shares with another; the tree must hold the series (make
# apply), and is put back on branch latnice at the end.  A test program
# a step has not built yet is skipped (exit 4, named in the log).  Test
# failures before the patch a test needs are expected and shown (they
# also show that those tests can fail); a build failure, a boot failure or
# a kernel splat at any step fails this script.  Patches that change a header
# included everywhere cost a full rebuild (about 4.5 minutes here).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

"$TOP/scripts/apply-series.sh" >/dev/null
scenarios=$(python3 -m harness scenario list bisect)
[ -n "$scenarios" ] || die "no scenario names the target bisect (tests/guest/scenarios/)"
mapfile -t commits < <(git -C "$SRC" rev-list --reverse base..latnice)
commits=("$(git -C "$SRC" rev-parse base)" "${commits[@]}")
[ "${#commits[@]}" -gt 1 ] || die "the series is empty"

restore() {
	git -C "$SRC" checkout -q latnice
}
trap restore EXIT

first=0 last=$((${#commits[@]} - 1))
if [ -n "$BISECT_STEPS" ]; then
	[[ $BISECT_STEPS =~ ^([0-9]+)-([0-9]+)$ ]] && [ "${BASH_REMATCH[1]}" -le "${BASH_REMATCH[2]}" ] &&
		[ "${BASH_REMATCH[2]}" -le "$last" ] ||
		die "BISECT_STEPS=$BISECT_STEPS: give FIRST-LAST within 0-$last (0 is the base)"
	first=${BASH_REMATCH[1]} last=${BASH_REMATCH[2]}
fi
out=$(new_results bisect)

bad=0
table=()
for i in "${!commits[@]}"; do
	[ "$i" -ge "$first" ] && [ "$i" -le "$last" ] || continue
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
	# The programs of this step: its own selftests, as the step has them.
	if ! "$TOP/scripts/build-programs.sh" >/dev/null; then
		table+=("$i | programs FAILED | | $subject")
		bad=1
		continue
	fi
	boot="boots" np=0 nf=0 ns=0
	for sc in $scenarios; do
		dir=$out/step-$i/$sc
		SHOW=progress python3 -m harness boot --scenario "$sc" --skip-absent "$dir" || true
		why=$(python3 -m harness verdict problems "$dir" 2>&1 || echo "no verdict")
		# A guest command that fails is a test result; anything else
		# (no boot, a splat, a timeout) fails the step.
		if [ -n "$why" ]; then
			printf '    %s\n' "$why"
			boot="boot FAILED"
			bad=1
		fi
		read -r p f sk < <(python3 -m harness verdict counts "$dir" 2>/dev/null || echo "0 1 0")
		np=$((np + p)) nf=$((nf + f)) ns=$((ns + sk))
	done
	table+=("$i | $boot | $np passed, $nf failed, $ns skipped | $subject")
done
echo
echo "step | kernel | guest tests | patch   (results in ${out#"$TOP"/})"
printf '%s\n' "${table[@]}"
if [ $bad = 0 ]; then
	echo "every step builds and boots"
else
	echo "some step does not build or boot"
fi
exit $bad
