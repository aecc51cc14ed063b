#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Apply the series (patches/series, in order) onto a fresh branch
# "latnice" made from the base commit of the tree, with git am.
#
# Usage: scripts/apply-series.sh [TREE [PATCHDIR]]
#   (defaults: $SRC and $PATCHES; FORCE=1 drops tree commits that were
#   never exported)
#
# When the branch already holds exactly this series, nothing is touched,
# so that an unchanged series never triggers a rebuild.  A patch that does
# not apply stops here, naming the patch and the hunk that failed.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

tree=${1:-$SRC}
pdir=${2:-$PATCHES}
[ -d "$tree/.git" ] || die "$tree is not a git tree: run 'make source' first"
[ -f "$pdir/series" ] || die "$pdir/series is missing"
cd "$tree"

mapfile -t list < <(series_list "$pdir")
for p in "${list[@]}"; do
	[ -f "$pdir/$p" ] || die "patches/series names $p, which is not in $pdir"
done

# What "this series" is: the base commit plus the contents of the patches.
sum=$(series_sum "$pdir")
state=.git/latnice-applied
if [ -f "$state" ] && [ "$(git symbolic-ref -q --short HEAD || true)" = latnice ]; then
	read -r old_sum old_head <"$state"
	if [ "$old_head" = "$(git rev-parse HEAD)" ] && [ -z "$(git status --porcelain --ignored)" ]; then
		if [ "$old_sum" = "$sum" ]; then
			echo "    series unchanged (${#list[@]} patches): tree left as it is"
			exit 0
		fi
	elif [ "${FORCE:-0}" != 1 ]; then
		die "the tree has changes that are not in patches/ (commits or edits on branch latnice): run 'make export' to keep them, or FORCE=1 to drop them"
	fi
fi

# --ignored: new files hidden by Debian's .gitignore count as edits too.
if [ -n "$(git status --porcelain --ignored)" ] && [ "${FORCE:-0}" != 1 ]; then
	die "the tree at $tree has uncommitted changes: commit and 'make export' them, or FORCE=1 to drop them"
fi
git am --abort >/dev/null 2>&1 || true
# Remember each file the old branch changed, with its blob and mtime, so
# that files the new series leaves identical keep their mtime (and are not
# rebuilt).
keep=$(mktemp)
trap 'rm -f "$keep"' EXIT
if git rev-parse -q --verify latnice >/dev/null; then
	git diff --name-only base latnice | while read -r f; do
		[ -f "$f" ] && printf '%s %s %s\n' "$(git rev-parse "latnice:$f" 2>/dev/null)" "$(stat -c %Y "$f")" "$f"
	done >"$keep" || true
fi
git checkout -q -f -B latnice base
git clean -q -fdx -e .latnice-keep >/dev/null

# Fixed committer and committer date: the same series always gives the same
# commits, so exporting them reproduces patches/ byte for byte.
export GIT_COMMITTER_NAME="latnice harness" GIT_COMMITTER_EMAIL="latnice@localhost"
n=0
for p in "${list[@]}"; do
	n=$((n + 1))
	if ! out=$(git am -q --committer-date-is-author-date --keep-cr "$pdir/$p" 2>&1); then
		git am --abort >/dev/null 2>&1 || true
		echo "error: patch $n of ${#list[@]} does not apply: $p" >&2
		git apply --check -v "$pdir/$p" 2>&1 | grep -E '^(error|Checking|Hunk|while searching|[-+ ]|Applied)' | head -n 30 | sed 's/^/    /' >&2 || true
		[ -n "$out" ] && printf '%s\n' "$out" | head -n 10 | sed 's/^/    git am: /' >&2
		git checkout -q -f -B latnice base
		rm -f "$state"
		exit 1
	fi
done
while read -r blob mtime f; do
	[ -f "$f" ] && [ "$(git rev-parse "HEAD:$f" 2>/dev/null)" = "$blob" ] && touch -m -d "@$mtime" "$f"
done <"$keep"
echo "$sum $(git rev-parse HEAD)" >"$state"
echo "    applied ${#list[@]} patches onto base ($(git rev-parse --short base)): HEAD $(git rev-parse --short HEAD)"
