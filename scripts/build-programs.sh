#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build the static programs the guest gets in /tests, against the headers
# the kernel build exported (OBJ/usr/include).
#
# Usage: scripts/build-programs.sh
# Output, in $PROGRAMS (made anew each time, so that no program of another
# series version is left behind):
#   - tests/guest/<name>.c, the harness's own guest programs (built in
#     $BUILD/programs-objs, again only when a source or header changed);
#   - the series' kselftests, built by the kernel's own selftest Makefile
#     (tools/testing/selftests/sched: its TEST_GEN_FILES) into
#     $BUILD/kselftest-sched, which keeps make's incremental rebuilds;
#   - latnice, the tool, static, and its Debian package
#     (scripts/build-deb.sh), which the system scenario installs.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

inc=$OBJ/usr/include
[ -d "$inc/linux" ] || die "$inc is missing: build the kernel first (make kernel)"
ksft=$SRC/tools/testing/selftests
work=$BUILD/programs-work
rm -rf "$work"
mkdir -p "$work" "$BUILD/programs-objs"

n=0
for src in "$TOP"/tests/guest/*.c; do
	bin=$BUILD/programs-objs/$(basename "$src" .c)
	if ! [ "$bin" -nt "$src" ] || ! [ "$bin" -nt "$0" ] ||
	   [ -n "$(find "$TOP/tests/guest" "$inc/linux/sched" -name '*.h' -newer "$bin")" ]; then
		gcc -static -O2 -g -Wall -pthread -isystem "$inc" -I "$ksft" -I "$TOP/tests/guest" \
			-o "$bin" "$src" || die "building $src failed"
		n=$((n + 1))
	fi
	cp -p "$bin" "$work/"
done

# The series' selftests: what the sched selftest Makefile lists, static.
out=$BUILD/kselftest-sched
mkdir -p "$out"
make -s -C "$ksft/sched" OUTPUT="$out" KHDR_INCLUDES="-isystem $inc" \
	USERLDFLAGS=-static >"$BUILD/kselftest-sched.log" 2>&1 ||
	{ sed 's/^/    /' "$BUILD/kselftest-sched.log" >&2; die "building the sched selftests failed (log: $BUILD/kselftest-sched.log)"; }
for src in "$ksft"/sched/*.c; do
	bin=$out/$(basename "$src" .c)
	[ -x "$bin" ] && cp -p "$bin" "$work/"
done

# The ABI and permission tests again as i386 programs, where struct
# sched_attr has no tail padding (sizeof 60): the compat path of the
# 64-bit kernel.  Each only once the series has it (make bisect's steps).
for name in latency_nice_test latency_nice_privilege_test; do
	src=$ksft/sched/$name.c bin32=$out/${name}_32
	if [ ! -f "$src" ]; then
		rm -f "$bin32"
	elif ! [ "$bin32" -nt "$src" ] ||
	   [ -n "$(find "$ksft/sched" "$inc/linux/sched" -name '*.h' -newer "$bin32")" ]; then
		gcc -m32 -static -O2 -g -Wall -pthread -isystem "$inc" -I "$ksft" -I "$ksft/sched" \
			-o "$bin32" "$src" >>"$BUILD/kselftest-sched.log" 2>&1 ||
			die "building the i386 $name failed (log: $BUILD/kselftest-sched.log; needs lib32gcc-12-dev and libc6-dev-i386: scripts/setup.sh)"
	fi
	[ ! -f "$bin32" ] || cp -p "$bin32" "$work/"
done

# The latnice tool.
make -s -C "$TOP/latnice" static O="$BUILD/programs-objs" KHDR="$inc" || die "building latnice failed"
cp -p "$BUILD/programs-objs/latnice" "$work/"
"$TOP/scripts/build-deb.sh"
cp -p "$("$TOP/scripts/build-deb.sh" --path)" "$work/"

rm -rf "$PROGRAMS"
mv "$work" "$PROGRAMS"
echo "    $(find "$PROGRAMS" -type f | wc -l) programs in ${PROGRAMS#"$TOP"/} ($n rebuilt here, the selftests by their Makefile)"
