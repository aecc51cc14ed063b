#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Build the Debian package of latnice (make deb) with Debian's own tools
# (dpkg-buildpackage, debhelper), from a copy of latnice/, so that the
# tree stays clean.
#
# Usage: scripts/build-deb.sh [--path]
#   --path   print the package's path only (fails if it is not built)
# Output: $BUILD/deb/latnice_<VERSION>_<arch>.deb, built again only when a
# file of latnice/ is newer.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

version=$(cat "$TOP/latnice/VERSION")
arch=$(dpkg --print-architecture)
out=$BUILD/deb
deb=$out/latnice_${version}_$arch.deb
if [ "${1:-}" = --path ]; then
	[ -f "$deb" ] || die "no $deb: run 'make deb' first"
	printf '%s\n' "$deb"
	exit 0
fi
[ $# -eq 0 ] || die "usage: $0 [--path]"
if [ -f "$deb" ] && [ -z "$(find "$TOP/latnice" -newer "$deb" -print -quit)" ]; then
	echo "    Debian package unchanged: ${deb#"$TOP"/}"
	exit 0
fi
command -v dpkg-buildpackage >/dev/null && command -v dh >/dev/null ||
	die "dpkg-buildpackage or debhelper is missing: run scripts/setup.sh"
changelog=$(sed -n '1s/^latnice (\([^)]*\)).*/\1/p' "$TOP/latnice/debian/changelog")
[ "$changelog" = "$version" ] ||
	die "latnice/debian/changelog's last entry is $changelog, latnice/VERSION says $version: add an entry"

stage "Debian package latnice $version"
rm -rf "$out/latnice-$version"
mkdir -p "$out"
# The sources only: not what a build of latnice/ left there.
(cd "$TOP/latnice" && git ls-files -co --exclude-standard 2>/dev/null || find . -type f) |
	grep -v -e '^latnice$' -e '^static/' |
	rsync -a --files-from=- "$TOP/latnice/" "$out/latnice-$version/"
log=$out/build.log
(cd "$out/latnice-$version" && dpkg-buildpackage -b -us -uc) >"$log" 2>&1 ||
	{ tail -n 20 "$log" >&2; die "dpkg-buildpackage failed (log: $log)"; }
[ -f "$deb" ] || die "no $deb after the build (log: $log)"
rm -rf "$out/latnice-$version"
echo "    installs: $(dpkg-deb -c "$deb" | awk '$6 ~ /usr\/bin\/.|man1\/./ {sub(/.*\//, "", $6); printf "%s ", $6}')"
stage_done
