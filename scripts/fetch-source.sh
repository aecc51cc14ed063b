#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Fetch Debian's linux-source-6.12 at $KVER_DEB and make the pristine tree
# a git repository ($SRC) with one base commit, tagged "base".
#
# Usage: scripts/fetch-source.sh
# The base commit is made with a fixed author, committer and date, so its
# hash depends on the tree alone and is the same on every machine.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

stamp=$SRC/.git/latnice-source
if [ -f "$stamp" ]; then
	have=$(cat "$stamp")
	[ "$have" = "$KVER_DEB" ] && exit 0
	die "$SRC holds linux-source-6.12 $have, not $KVER_DEB: run 'make distclean' (it removes $BUILD) or set KVER_DEB=$have"
fi
[ ! -e "$SRC" ] || die "$SRC exists but was not made by this script: remove it"

mkdir -p "$CACHE" "$BUILD"
deb=$CACHE/linux-source-6.12_${KVER_DEB/:/%3a}_all.deb
if [ ! -s "$deb" ]; then
	echo "    downloading linux-source-6.12=$KVER_DEB"
	if ! (cd "$CACHE" && apt-get download -q "linux-source-6.12=$KVER_DEB") >"$BUILD/download.log" 2>&1; then
		as_root apt-get update -q >/dev/null 2>&1 || true
		if ! (cd "$CACHE" && apt-get download -q "linux-source-6.12=$KVER_DEB") >"$BUILD/download.log" 2>&1; then
			echo "The archive has no linux-source-6.12 $KVER_DEB.  It has:" >&2
			apt-cache madison linux-source-6.12 2>/dev/null | awk -F'|' '{gsub(/ /,"",$2); print "    " $2}' >&2
			die "set KVER_DEB to one of these (make KVER_DEB=...), and check the series applies"
		fi
	fi
	[ -s "$deb" ] || die "apt-get download did not produce $deb (log: $BUILD/download.log)"
fi

tmp=$BUILD/extract.tmp
rm -rf "$tmp"
mkdir -p "$tmp"
echo "    unpacking $(basename "$deb")"
dpkg-deb -x "$deb" "$tmp/deb"
tarball=$(ls "$tmp"/deb/usr/src/linux-source-6.12.tar.*)
tar -C "$tmp" -xf "$tarball"
rm -rf "$tmp/deb"
mv "$tmp/linux-source-6.12" "$SRC"
rmdir "$tmp"

echo "    making the base commit"
cd "$SRC"
git init -q -b pristine
git config gc.auto 0
git config core.autocrlf false
git config user.name "latnice harness"
git config user.email "latnice@localhost"
git add -A -f .
export GIT_AUTHOR_NAME="Debian linux-source-6.12" GIT_AUTHOR_EMAIL="debian-kernel@lists.debian.org"
export GIT_COMMITTER_NAME=$GIT_AUTHOR_NAME GIT_COMMITTER_EMAIL=$GIT_AUTHOR_EMAIL
export GIT_AUTHOR_DATE="2000-01-01T00:00:00Z" GIT_COMMITTER_DATE="2000-01-01T00:00:00Z"
git commit -q -m "Debian linux-source-6.12 $KVER_DEB" -m "Pristine tree of Debian's linux-source-6.12 package, version $KVER_DEB."
git tag base
echo "$KVER_DEB" >"$stamp"
echo "    base commit $(git rev-parse --short HEAD) for $KVER_DEB"
