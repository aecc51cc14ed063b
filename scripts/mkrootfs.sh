#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Make a guest's root disk from the Debian system image: the counterpart of
# the initramfs (harness/boot.py) for boots with ROOTFS=system.
#
# Usage: scripts/mkrootfs.sh OUT.img CMDFILE [DEST=SRC ...]
#   CMDFILE  shell script the guest runs (latnice-guest.service runs it);
#            "-": none, and root logged in on the serial console instead
#            (make run ROOTFS=system without a command)
#   DEST=SRC extra files: DEST is the path in the guest, SRC on the host
#
# The image is the cached archive (scripts/build-system.sh) with
# system/overlay, initramfs/run-tests, the command and the files added to
# it, written by genext2fs (no loop mount) and made ext4 by tune2fs.  They
# cannot replace a file the archive has (genext2fs would keep the
# archive's): such a file is refused, with its path.  Needs root, for the
# files' owners.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ $# -ge 2 ] || die "usage: $0 OUT.img CMDFILE [DEST=SRC ...]"
out=$1 cmdfile=$2
shift 2
tar=$("$TOP/scripts/build-system.sh" --path)
command -v genext2fs >/dev/null || die "genext2fs is missing: run scripts/setup.sh"

work=$(mktemp -d)
trap 'rm -rf "$work" "$out.tmp"' EXIT
ov=$work/root
cp -a "$TOP/system/overlay" "$ov"
if [ "$cmdfile" = - ]; then
	# A shell for a person: no command (latnice-guest.service's condition
	# fails), and the serial console's getty, masked for the harness's
	# runs, logs root in.
	rm "$ov/etc/systemd/system/serial-getty@ttyS0.service"
	mkdir -p "$ov/etc/systemd/system/serial-getty@ttyS0.service.d"
	printf '%s\n' '[Service]' 'ExecStart=' \
		'ExecStart=-/sbin/agetty --autologin root --keep-baud 115200,57600,38400,9600 %I $TERM' \
		>"$ov/etc/systemd/system/serial-getty@ttyS0.service.d/autologin.conf"
	mkdir -p "$ov/etc/profile.d"
	printf '%s\n' 'export PATH=$PATH:/tests:/extra' \
		'echo "latency nice on Debian $(cat /etc/debian_version), systemd as PID 1: latnice and the tests are in /tests;"' \
		'echo "dpkg -i /tests/latnice_*.deb installs latnice and latnice-cyclictest; poweroff to leave."' \
		>"$ov/etc/profile.d/latnice.sh"
else
	install -D -m 755 "$cmdfile" "$ov/usr/local/lib/latnice/cmd"
fi
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

# What the archive holds, listed once next to it.
list=$tar.list
if [ ! -s "$list" ]; then
	tar -tf "$tar" | sed -e 's|^\./|/|' -e 's|/$||' | sort >"$list.$$"
	mv "$list.$$" "$list"
fi
clash=$(cd "$ov" && find . ! -type d | sed 's|^\.||' | sort | comm -12 - "$list")
[ -z "$clash" ] || die "the Debian image already has $(echo "$clash" | tr '\n' ' ')- a boot cannot replace its files (HOST_PROGRAMS are there already: drop them)"

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
