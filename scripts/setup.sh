#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Install the Debian packages the harness needs, only those missing.
#
# Usage: scripts/setup.sh [bench|matrix]
#   bench   also what 'make bench' needs (gnuplot for its plots)
#   matrix  also what 'make matrix' needs (the arm64 cross compiler)
set -euo pipefail
. "$(dirname "$0")/lib.sh"
mkdir -p "$BUILD"

# What each package is for:
#   qemu-system-x86   the guest machine (TCG, or KVM where it works)
#   busybox-static    the guest's shell and tools in the initramfs
#   gcc make flex bison bc libelf-dev libssl-dev cpio perl
#                     the kernel build (objtool needs libelf, certs libssl)
#   libc6-dev         static glibc for the guest test programs and latnice
#   ccache            rebuilds of unchanged objects cost nothing
#   git               the tree is a git repository; the series is git am'd
#   python3           console parsing and result counting
#   rsync             make headers_install
#   xz-utils          unpacking linux-source-6.12
#   man-db groff-base checking the latnice man page renders
#   python3-ply python3-git   checkpatch.pl's SPDX check (scripts/spdxcheck.py)
#   lib32gcc-12-dev libc6-dev-i386
#                     the ABI test as a static i386 program (gcc -m32); not
#                     gcc-multilib, which conflicts with the arm64 cross
#                     compiler of make matrix
PKGS=(qemu-system-x86 busybox-static gcc make flex bison bc libelf-dev
      libssl-dev cpio perl libc6-dev ccache git python3 rsync xz-utils
      man-db groff-base python3-ply python3-git lib32gcc-12-dev libc6-dev-i386)
#   rt-tests          make demo and make bench: cyclictest and hackbench in
#                     the guest (the demo's last part, figure 6)
PKGS+=(rt-tests)
#   mmdebstrap genext2fs e2fsprogs
#                     the Debian system image (make system, scripts/
#                     build-system.sh) and its ext4 root for each boot
PKGS+=(mmdebstrap genext2fs e2fsprogs)
#   dpkg-dev debhelper build-essential
#                     latnice's Debian package (make deb, scripts/build-deb.sh;
#                     dpkg-buildpackage checks for build-essential)
PKGS+=(dpkg-dev debhelper build-essential)
#   gnuplot-nox       make bench: the PNG plots
[ "${1:-}" = bench ] && PKGS+=(gnuplot-nox)
#   gcc-aarch64-linux-gnu  make matrix: the arm64 build
[ "${1:-}" = matrix ] && PKGS+=(gcc-aarch64-linux-gnu)

missing=()
for p in "${PKGS[@]}"; do
	if ! dpkg-query -W -f='${Status}\n' "$p" 2>/dev/null | grep -q '^install ok installed'; then
		missing+=("$p")
	fi
done

if [ ${#missing[@]} -eq 0 ]; then
	echo "    all ${#PKGS[@]} packages present"
	exit 0
fi

echo "    installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
as_root apt-get update -q >/dev/null || die "apt-get update failed: check the network and /etc/apt/sources.list"
as_root apt-get install -y -q --no-install-recommends "${missing[@]}" >"$BUILD/apt-install.log" 2>&1 ||
	{ tail -n 20 "$BUILD/apt-install.log" >&2; die "apt-get install failed (log: $BUILD/apt-install.log)"; }
