#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Export the commits of the tree's branch (base..HEAD) into patches/ with
# git format-patch, and rewrite patches/series.  The cover letter keeps its
# hand-written subject and text; its shortlog and diffstat are regenerated.
#
# Usage: scripts/export-series.sh [TREE [PATCHDIR]]
set -euo pipefail
. "$(dirname "$0")/lib.sh"

tree=${1:-$SRC}
pdir=${2:-$PATCHES}
[ -d "$tree/.git" ] || die "$tree is not a git tree: run 'make source' first"
cd "$tree"
[ -z "$(git status --porcelain)" ] || die "the tree at $tree has uncommitted changes: commit them first (git -C $tree commit)"
# Debian's top-level .gitignore ignores everything ("/*"), so a new file
# stays out of git unless added with -f: refuse rather than lose it.
ignored=$(git status --porcelain --ignored | sed -n 's/^!! //p')
[ -z "$ignored" ] || die "new files in no commit (Debian's .gitignore hides them; add them with 'git add -f'): $(echo $ignored)"
n=$(git rev-list --count base..HEAD)

out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
if [ "$n" -gt 0 ]; then
	git format-patch -q --zero-commit --no-signature --cover-letter \
		--base=base -o "$out" base..HEAD
	python3 "$TOP/scripts/cover-letter.py" "$pdir/0000-cover-letter.patch" \
		"$out/0000-cover-letter.patch" "$KVER_DEB" >"$out/cover.new"
	mv "$out/cover.new" "$out/0000-cover-letter.patch"
fi
{
	echo "# The latency nice series, in the order git am applies it."
	echo "# Base: Debian linux-source-6.12 $KVER_DEB"
	(cd "$out" && ls -1 | grep -E '^[0-9]{4}-.*\.patch$' | grep -v '^0000-' || true)
} >"$out/series"

mkdir -p "$pdir"
rm -f "$pdir"/[0-9][0-9][0-9][0-9]-*.patch
cp "$out"/* "$pdir"/
# The tree now is exactly the series: record it, so that applying the
# series again leaves the tree (and the build) alone.
mapfile -t list < <(series_list "$pdir")
sum=$(series_sum "$pdir")
if [ "$(git symbolic-ref -q --short HEAD || true)" = latnice ]; then
	echo "$sum $(git rev-parse HEAD)" >.git/latnice-applied
fi
echo "    exported $n patches to $pdir"
