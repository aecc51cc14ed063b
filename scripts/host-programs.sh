#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The files a dynamically linked program of this machine needs in the
# guest: the program and every library ldd lists, each at the path it is
# loaded from, so that the guest's dynamic loader finds them.
#
# Usage: scripts/host-programs.sh PROGRAM...
#   PROGRAM  an absolute path, or a name looked up in PATH
# Prints DEST=SRC lines for scripts/boot.sh (and mkinitramfs.sh): the
# program at its own path, the libraries and the loader at theirs.  A
# program that is missing, or a library ldd cannot find, is an error that
# names the Debian package to install when it can.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ $# -ge 1 ] || die "usage: $0 PROGRAM..."
declare -A seen=()
for prog in "$@"; do
	path=$(command -v -- "$prog" || true)
	[ -n "$path" ] && [ -x "$path" ] ||
		die "$prog: not found on this machine (for cyclictest and hackbench: apt-get install rt-tests)"
	path=$(readlink -f "$path")
	out=$(ldd "$path" 2>&1) || out=""
	if grep -q 'not found' <<<"$out"; then
		die "$prog: ldd cannot find $(grep 'not found' <<<"$out" | awk '{print $1}' | tr '\n' ' ')"
	fi
	files=("$path")
	# "libc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x...)" and
	# "/lib64/ld-linux-x86-64.so.2 (0x...)"; the vDSO has no file.
	while read -r f; do
		files+=("$f")
	done < <(grep -o '/[^ ]*' <<<"$out" || true)
	for f in "${files[@]}"; do
		[ -n "${seen[$f]:-}" ] && continue
		seen[$f]=1
		printf '%s=%s\n' "$f" "$f"
	done
done
