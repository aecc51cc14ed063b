#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make check: build everything and run every test; end with the line
# "N passed, N failed".
#
# Usage: scripts/check.sh
# Stages: set-up, source, series, kernel, guest programs, host tests,
# series round trip, guest tests (KUnit from the boot log and the programs
# of tests/guest/list; tests/guest/list-llc16 on a 16-CPU LLC;
# tests/guest/list-cgroup-v1 with the cpu controller on cgroup v1), and two
# harness self-tests in the guest (a kernel WARNING fails a run; a guest
# command's exit status comes back).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

T0=$(date +%s)
passed=0 failed=0 skipped=0
mkdir -p "$BUILD"
counts=$BUILD/counts
rm -rf "$counts"
mkdir -p "$counts"

summary() {
	echo
	echo "make check: $(($(date +%s) - T0))s in all"
	echo "$passed passed, $failed failed"
}
# A stage that dies (set -e) still ends with the counts, plus its failure.
trap 'rc=$?; if [ $rc -ne 0 ]; then failed=$((failed + 1)); echo "error: stage \"${_stage_name:-?}\" failed"; summary; fi' EXIT

add_counts() { # FILE
	local p f s
	read -r p f s <"$1"
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
}
result() { # ok|fail NAME
	if [ "$1" = ok ]; then
		passed=$((passed + 1))
		echo "    ok: $2"
	else
		failed=$((failed + 1))
		echo "    FAIL: $2"
	fi
}

stage "set-up (Debian packages)"
"$TOP/scripts/setup.sh"
stage_done

stage "kernel source (linux-source-6.12 $KVER_DEB)"
"$TOP/scripts/fetch-source.sh"
stage_done

stage "series (patches/ onto the base commit)"
"$TOP/scripts/apply-series.sh"
stage_done

"$TOP/scripts/build-kernel.sh"

stage "guest programs"
"$TOP/scripts/build-guest.sh"
stage_done

stage "host tests"
if python3 "$TOP/tests/host/run.py" "$counts/host" >"$BUILD/host-tests.log" 2>&1; then
	tail -n 1 "$BUILD/host-tests.log" | sed 's/^/    /'
else
	grep -E '(FAIL|ERROR)$|^(FAIL|ERROR):' "$BUILD/host-tests.log" | sed 's/^/    /' || true
	echo "    (full output: $BUILD/host-tests.log)"
fi
add_counts "$counts/host"
stage_done

stage "series round trip (export the tree, compare with patches/)"
rt=$(mktemp -d)
cp -a "$PATCHES/." "$rt/"
if "$TOP/scripts/export-series.sh" "$SRC" "$rt" >/dev/null && diff -r "$PATCHES" "$rt" >"$BUILD/roundtrip.diff"; then
	result ok "exporting the applied series reproduces patches/"
else
	result fail "exporting the applied series differs from patches/ (see $BUILD/roundtrip.diff)"
fi
rm -rf "$rt"
stage_done

stage "checkpatch --strict on every patch"
for p in $(series_list "$PATCHES"); do
	# Debian's python3 has the modules spdxcheck.py needs; another
	# python3 first on PATH may not.
	# FILE_PATH_CHANGES ("does MAINTAINERS need updating?") is left out:
	# every file the series adds is under an F: pattern of the SCHEDULER
	# entry, which the first patches that add files extend.
	if out=$(cd "$SRC" && PATH=/usr/bin:$PATH perl scripts/checkpatch.pl --strict --terse \
		--no-summary --ignore FILE_PATH_CHANGES "$PATCHES/$p" 2>&1) && [ -z "$out" ]; then
		result ok "checkpatch: $p"
	else
		result fail "checkpatch: $p"
		printf '%s\n' "$out" | head -n 10 | sed 's/^/        /'
	fi
done
stage_done

# guest_tests NAME TOPOLOGY LIST: one boot running the programs of LIST;
# its KUnit and TAP results are added to the counts.
guest_tests() {
	local files
	mapfile -t files < <(guest_programs "$3")
	printf 'run-tests\n' >"$counts/cmd"
	TOPO=$2 COUNTS=$counts/$1 "$TOP/scripts/guest.sh" "$1" "$counts/cmd" "${files[@]}" || true
	if [ -f "$counts/$1" ]; then
		add_counts "$counts/$1"
	else
		result fail "the guest run on $2 gave no counts"
	fi
}

stage "guest tests (KUnit and tests/guest/list, topology ${TOPO:-2x4x2})"
guest_tests check "${TOPO:-2x4x2}" "$TOP/tests/guest/list"
stage_done

stage "guest tests on a larger LLC (tests/guest/list-llc16, topology 1x8x2)"
guest_tests check-llc16 1x8x2 "$TOP/tests/guest/list-llc16"
stage_done

stage "guest tests on cgroup v1 (tests/guest/list-cgroup-v1, topology 1x2x2)"
guest_tests check-cgroup-v1 1x2x2 "$TOP/tests/guest/list-cgroup-v1"
stage_done

stage "harness self-test: a kernel WARNING fails the run"
printf 'echo WARNING > /sys/kernel/debug/provoke-crash/DIRECT\nexit 0\n' >"$counts/warn-cmd"
set +e
SHOW=none "$TOP/scripts/guest.sh" selftest-warning "$counts/warn-cmd" >"$counts/warn.out" 2>&1
rc=$?
set -e
if [ $rc -ne 0 ] && grep -q 'kernel splat on the console: .*WARNING: CPU' "$counts/warn.out"; then
	result ok "a guest whose kernel WARNs fails (exit $rc) with the splat named"
else
	result fail "a guest whose kernel WARNs was not failed (exit $rc): $(tr '\n' ' ' <"$counts/warn.out")"
fi
stage_done

stage "harness self-test: a guest command's exit status comes back"
set +e
SHOW=none "$TOP/scripts/run.sh" 'test -f /extra/lib.sh && exit 7' "$TOP/scripts/lib.sh" >"$counts/run.out" 2>&1
rc=$?
set -e
if [ $rc -eq 7 ]; then
	result ok "scripts/run.sh (make run) exits 7 when the guest command does, with EXTRA files in /extra"
else
	result fail "scripts/run.sh exited $rc, not 7: $(tr '\n' ' ' <"$counts/run.out")"
fi
stage_done

trap - EXIT
summary
[ "$failed" -eq 0 ]
