#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Make a guest's root disk from the Debian system image: the counterpart of
# mkinitramfs.sh for boots with ROOTFS=system.
#
# Usage: scripts/mkrootfs.sh OUT.img CMDFILE [DEST=SRC ...]
#   CMDFILE  shell script the guest runs (latnice-guest.service runs it)
#   DEST=SRC extra files: DEST is the path in the guest, SRC on the host
#
# The image is the cached archive (scripts/build-system.sh) with
# system/overlay, initramfs/run-tests, the command and the files laid over
# it, written by genext2fs (no loop mount) and made ext4 by tune2fs.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ $# -ge 2 ] || die "usage: $0 OUT.img CMDFILE [DEST=SRC ...]"
out=$1 cmdfile=$2
shift 2
tar=$("$TOP/scripts/build-system.sh" --path)
command -v genext2fs >/dev/null || die "genext2fs is missing: run scripts/setup.sh"

work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
ov=$work/root
cp -a "$TOP/system/overlay" "$ov"
install -D -m 755 "$cmdfile" "$ov/usr/local/lib/latnice/cmd"
install -D -m 755 "$TOP/initramfs/run-tests" "$ov/usr/local/bin/run-tests"
mkdir -p "$ov/tests" "$ov/extra"
for pair in "$@"; do
	dest=${pair%%=*} src=${pair#*=}
	[ -e "$src" ] || die "file to put in the guest not found: $src"
	case $dest in
	/kernel/*) die "$dest: the system image boots without an initramfs (NUMBERING=apart needs one)" ;;
	esac
	install -D -m "$(stat -c %a "$src")" "$(readlink -f "$src")" "$ov$dest"
done
chown -R 0:0 "$ov"

# Room for the archive and the files, and 512 MiB free for what the
# guest writes (the journal, PostgreSQL's data).
kib=$(($(stat -c %s "$tar") / 1024 + $(du -sk "$ov" | cut -f1) + 512 * 1024))
genext2fs -B 4096 -b $((kib / 4)) -N $((kib / 16)) -a "$tar" -d "$ov" "$out.tmp" \
	>"$work/log" 2>&1 || { cat "$work/log" >&2; die "genext2fs failed"; }
tune2fs -O extents,uninit_bg,dir_index,has_journal "$out.tmp" >"$work/log" 2>&1 ||
	{ cat "$work/log" >&2; die "tune2fs failed"; }
# e2fsck exits 1 when it fixed something (the new features' fields).
rc=0
e2fsck -fy "$out.tmp" >"$work/log" 2>&1 || rc=$?
[ "$rc" -le 1 ] || { cat "$work/log" >&2; die "e2fsck failed ($rc) on the new image"; }
mv "$out.tmp" "$out"
