#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Make a guest initramfs with the tree's usr/gen_init_cpio.
#
# Usage: scripts/mkinitramfs.sh OUT.cpio CMDFILE [DEST=SRC ...]
#   CMDFILE  shell script the guest runs (becomes /run/cmd)
#   DEST=SRC extra files: DEST is the path in the guest, SRC on the host
#            (directories in DEST are created)
# Always included: busybox-static as /bin/busybox, initramfs/init as /init,
# initramfs/run-tests, /etc/passwd and /etc/group with root and nobody.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ $# -ge 2 ] || die "usage: $0 OUT.cpio CMDFILE [DEST=SRC ...]"
out=$1 cmdfile=$2
shift 2
gen=$OBJ/usr/gen_init_cpio
[ -x "$gen" ] || die "$gen is missing: build the kernel first (make kernel)"
bb=/bin/busybox
[ -x "$bb" ] || die "$bb not found: install busybox-static (scripts/setup.sh)"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
printf 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/sh\n' >"$work/passwd"
printf 'root:x:0:\nnogroup:x:65534:\n' >"$work/group"

list=$work/list
{
	for d in /bin /sbin /usr /usr/bin /proc /sys /dev /tmp /run /etc /root /extra /tests /cgroup-v1; do
		echo "dir $d 755 0 0"
	done
	echo "nod /dev/console 600 0 0 c 5 1"
	echo "file /bin/busybox $bb 755 0 0"
	echo "file /init $TOP/initramfs/init 755 0 0"
	echo "file /bin/run-tests $TOP/initramfs/run-tests 755 0 0"
	echo "file /run/cmd $cmdfile 755 0 0"
	echo "file /etc/passwd $work/passwd 644 0 0"
	echo "file /etc/group $work/group 644 0 0"
	declare -A seen=()
	for pair in "$@"; do
		dest=${pair%%=*} src=${pair#*=}
		[ -e "$src" ] || die "file to put in the guest not found: $src"
		d=$(dirname "$dest")
		while [ "$d" != / ] && [ -z "${seen[$d]:-}" ]; do
			seen[$d]=1
			echo "dir $d 755 0 0"
			d=$(dirname "$d")
		done
		mode=$(stat -c %a "$src")
		echo "file $dest $(readlink -f "$src") $mode 0 0"
	done
} >"$list.unsorted"
# Directories first, parents before children; gen_init_cpio needs that.
{ grep '^dir ' "$list.unsorted" | sort -u -k2,2; grep -v '^dir ' "$list.unsorted"; } >"$list"
"$gen" "$list" >"$out.tmp" || die "gen_init_cpio failed on $list"
mv "$out.tmp" "$out"
