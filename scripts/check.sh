#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# make check: build everything and run every test; end with the line
# "N passed, N failed".
#
# Usage: scripts/check.sh
# Stages: set-up, source, series, kernel, guest programs, host tests,
# series round trip, checkpatch, one boot per scenario of
# tests/guest/scenarios/ that names the target check (KUnit from the boot
# log, then the scenario's programs; the unpatched kernel is built first
# when a scenario boots it), the system image's boot journal against the
# unpatched kernel's, and three harness self-tests in the guest (a failed
# systemd unit fails a run of the system image; a kernel WARNING fails a
# run; a guest command's exit status comes back).  Every guest result is
# read from its run's verdict.json.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

T0=$(date +%s)
passed=0 failed=0 skipped=0
mkdir -p "$BUILD"
counts=$BUILD/counts
rm -rf "$counts"
mkdir -p "$counts"
check_results=$(new_results check)

# The names of what failed, listed again above the counts, so that the
# tail of a long log says what to look at.
failures=()
summary() {
	local f
	echo
	echo "make check: $(($(date +%s) - T0))s in all; guest results in ${check_results#"$TOP"/}"
	for f in "${failures[@]}"; do
		echo "failed: $f"
	done
	# What the failed guest tests printed last: their reason, in the tail.
	cat "$counts"/why-* 2>/dev/null || true
	echo "$passed passed, $failed failed"
}
# A stage that dies (set -e) still ends with the counts, plus its failure.
trap 'rc=$?; if [ $rc -ne 0 ]; then failed=$((failed + 1)); failures+=("stage ${_stage_name:-?}"); echo "error: stage \"${_stage_name:-?}\" failed"; summary; fi' EXIT

add_counts() { # "PASSED FAILED SKIPPED"
	local p f s
	read -r p f s <<<"$1"
	passed=$((passed + p)) failed=$((failed + f)) skipped=$((skipped + s))
}
# status_of OUT CMD...: run CMD quietly (SHOW=none), its output in OUT, its
# exit status in rc.
status_of() {
	set +e
	SHOW=none "${@:2}" >"$1" 2>&1
	rc=$?
	set -e
}
result() { # ok|fail NAME
	if [ "$1" = ok ]; then
		passed=$((passed + 1))
		echo "    ok: $2"
	else
		failed=$((failed + 1))
		failures+=("$2")
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

# The unpatched kernel, test config, for the scenarios that boot it (the
# system image's boot journal is compared with its).
if python3 -m harness scenario kernels check | grep -qx baseline; then
	stage "baseline kernel: the unpatched tree ($BASE_SRC)"
	base_tree
	stage_done
	"$TOP/scripts/build-kernel.sh" "$BASE_SRC" "$BASE_CHECK_OBJ"
fi

stage "guest programs"
"$TOP/scripts/build-programs.sh"
stage_done

stage "host tests"
if python3 "$TOP/tests/host/run.py" "$counts/host" >"$BUILD/host-tests.log" 2>&1; then
	tail -n 1 "$BUILD/host-tests.log" | sed 's/^/    /'
else
	grep -E '(FAIL|ERROR)$|^(FAIL|ERROR):' "$BUILD/host-tests.log" | sed 's/^/    /' || true
	failures+=("host tests (see $BUILD/host-tests.log)")
	echo "    (full output: $BUILD/host-tests.log)"
fi
add_counts "$(cat "$counts/host")"
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

scenarios=$(python3 -m harness scenario list check)
for sc in $scenarios; do
	stage "guest tests: scenario $sc"
	python3 -m harness boot --scenario "$sc" "$check_results/$sc" || true
	if c=$(python3 -m harness verdict counts "$check_results/$sc"); then
		add_counts "$c"
		while IFS= read -r f; do
			failures+=("scenario $sc: $f")
		done < <(python3 -m harness verdict failures "$check_results/$sc")
		python3 -m harness verdict why "$check_results/$sc" |
			sed "s/^\([^ ]\)/why: scenario $sc: \1/" >"$counts/why-$sc"
	else
		result fail "scenario $sc: its boot left no verdict"
	fi
	stage_done
done

# Boot journals: a warning the series makes the system print at boot, and
# the unpatched kernel does not, fails.
while read -r base of; do
	[ -n "$base" ] || continue
	stage "boot journal: scenario $of against the unpatched kernel's (scenario $base)"
	set +e
	extra=$(python3 -m harness verdict journal-extra "$check_results/$of" "$check_results/$base" 2>&1)
	rc=$?
	set -e
	if [ $rc -eq 0 ]; then
		result ok "scenario $of: no boot journal warning the unpatched kernel does not print"
	else
		result fail "scenario $of: boot journal warnings the unpatched kernel does not print (or no journal)"
		printf '%s\n' "$extra" | head -n 10 | sed 's/^/        /'
	fi
	stage_done
done < <(python3 -m harness scenario journals check)

# must_fail NAME PATTERN WHAT CMDFILE-TEXT: boot the command (environment
# as given) into selftest-NAME; the run must fail with PATTERN among its
# problems.  WHAT says what failed, for the result line.
must_fail() {
	local name=$1 pattern=$2 what=$3 why
	printf '%s' "$4" >"$counts/$name-cmd"
	status_of "$counts/$name.out" python3 -m harness boot "$check_results/selftest-$name" "$counts/$name-cmd"
	why=$(python3 -m harness verdict problems "$check_results/selftest-$name" 2>&1) || true
	if [ $rc -ne 0 ] && grep -q "$pattern" <<<"$why"; then
		result ok "$what fails (exit $rc), named"
	else
		result fail "$what was not failed (exit $rc): $why $(tr '\n' ' ' <"$counts/$name.out")"
	fi
}

stage "harness self-test: a failed systemd unit fails a run of the system image"
ROOTFS=system TOPO=1x2x2 ICOUNT=$ICOUNT_REPEATABLE must_fail unit \
	'systemd unit(s) failed: latnice-fails.service' \
	"a run of the system image where a unit failed" \
	$'systemd-run -q --unit=latnice-fails false\nsleep 1\nexit 0\n'
stage_done

stage "harness self-test: a kernel WARNING fails the run"
must_fail warning 'kernel splat on the console: .*WARNING: CPU' "a guest whose kernel WARNs" \
	$'echo WARNING > /sys/kernel/debug/provoke-crash/DIRECT\nexit 0\n'
stage_done

stage "harness self-test: a guest command's exit status comes back"
dash=$(readlink -f "$(command -v dash)")
HOST_PROGRAMS=dash status_of "$counts/run.out" "$TOP/scripts/run.sh" \
	"test -f /extra/lib.sh && $dash -c 'exit 7'" "$TOP/scripts/lib.sh"
if [ $rc -eq 7 ]; then
	result ok "scripts/run.sh (make run) exits 7 when the guest command does, with EXTRA files in /extra and HOST_PROGRAMS (dash, dynamically linked) run"
else
	result fail "scripts/run.sh exited $rc, not 7: $(tr '\n' ' ' <"$counts/run.out")"
fi
stage_done

trap - EXIT
summary
[ "$failed" -eq 0 ]
