#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build the guest's Debian system (make system): a bookworm root file
# system from Debian's packages alone, kept as a tar archive in the cache.
#
# Usage: scripts/build-system.sh [--path]
#   --path   print the archive's path only (fails if it is not built)
#
# The archive is $SYSTEM_CACHE/bookworm-<hash>.tar, where <hash> covers
# system/packages and this script: it is built again only when one of them
# changes.  Each boot adds the project's files (system/overlay, the guest
# programs, the command) to it in a fresh ext4 image
# (scripts/mkrootfs.sh), so nothing a boot does reaches the archive.  The
# mirror is this machine's own apt configuration.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

pkglist=$TOP/system/packages
hash=$(cat "$pkglist" "$0" | sha256sum | cut -c1-12)
out=$SYSTEM_CACHE/bookworm-$hash.tar

if [ "${1:-}" = --path ]; then
	[ -f "$out" ] || die "no system image $out: run 'make system' first"
	printf '%s\n' "$out"
	exit 0
fi
[ $# -eq 0 ] || die "usage: $0 [--path]"

stage "system image (Debian bookworm, $(basename "$out"))"
if [ -f "$out" ]; then
	echo "    cached: $out"
	stage_done
	exit 0
fi
command -v mmdebstrap >/dev/null || die "mmdebstrap is missing: run scripts/setup.sh"
[ "$(id -u)" = 0 ] || die "building the system image needs root (mmdebstrap's root mode keeps file owners)"

# The host's apt sources name the mirror (and any proxy it goes through).
sources=
for f in /etc/apt/sources.list.d/debian.sources /etc/apt/sources.list; do
	if [ -s "$f" ] && grep -q '^[^#]*deb' "$f"; then
		sources=$f
		break
	fi
done
[ -n "$sources" ] || die "no apt sources on this machine (/etc/apt/sources.list.d/debian.sources or /etc/apt/sources.list): the image's mirror comes from there"

pkgs=$(sed -e 's/#.*//' "$pkglist" | tr -s ' \t\n' ',' | sed -e 's/^,//' -e 's/,$//')
[ -n "$pkgs" ] || die "$pkglist names no package"
echo "    packages: $pkgs"
echo "    mirror: from $sources"
mkdir -p "$SYSTEM_CACHE"
log=$SYSTEM_CACHE/bookworm-$hash.log
# The customize hooks run on the host with the root file system in $1:
#   - an unprivileged user, "tester" (uid 1000), for the user session
#     checks; root logs in without a password on the serial console;
#   - PostgreSQL is installed but not started at boot (make bench starts
#     it for its figure);
#   - the host name.
tmp=$SYSTEM_CACHE/.bookworm-$hash.partial.tar
if ! mmdebstrap --variant=apt --format=tar --include="$pkgs" \
	--customize-hook='chroot "$1" useradd -m -u 1000 -s /bin/bash tester' \
	--customize-hook='chroot "$1" passwd -q -d root' \
	--customize-hook='chroot "$1" systemctl disable -q postgresql.service' \
	--customize-hook='echo latnice-guest >"$1/etc/hostname"' \
	bookworm "$tmp" "$sources" >"$log" 2>&1; then
	tail -n 20 "$log" >&2
	rm -f "$tmp"
	die "mmdebstrap failed (log: $log)"
fi
mv "$tmp" "$out"
echo "    $(du -h "$out" | cut -f1) in $out"
stage_done
