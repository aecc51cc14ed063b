# SPDX-License-Identifier: GPL-2.0
# Common settings and helpers for the harness scripts.  Sourced, not run.
#
# Every variable here can be overridden from the environment or the make
# command line (make passes them through the environment).

# The settings and their defaults: scripts/settings, the one place they are
# written (harness/settings.py reads the same file for Python).  A setting
# in the environment wins; an empty one counts as unset.
: "${TOP:=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
# The harness's Python package (python3 -m harness ...), from any folder.
export PYTHONPATH=$TOP${PYTHONPATH:+:$PYTHONPATH}
while IFS= read -r _line; do
	case $_line in '' | '#'*) continue ;; esac
	_name=${_line%%=*}
	[ -n "${!_name:-}" ] || eval "$_name=\"${_line#*=}\""
	export "${_name?}"
done <"$TOP/scripts/settings"
unset _line _name
[ -n "$JOBS" ] || JOBS=$(nproc)

die() {
	printf 'error: %s\n' "$*" >&2
	exit 1
}

# stage NAME: print a stage header; stage_done prints the elapsed time.
stage() {
	_stage_name=$1
	_stage_t0=$(date +%s)
	printf '==> %s\n' "$_stage_name"
}

stage_done() {
	printf '    %s: done in %ss\n' "$_stage_name" "$(($(date +%s) - _stage_t0))"
}

# as_root CMD...: run CMD as root, with sudo when we are not root.
as_root() {
	if [ "$(id -u)" = 0 ]; then
		"$@"
	elif command -v sudo >/dev/null; then
		sudo "$@"
	else
		die "need root to run: $* (install sudo or run as root)"
	fi
}

# series_list PATCHDIR: the patch files named in PATCHDIR/series, in order.
series_list() {
	sed -e 's/#.*//' -e 's/[[:space:]]*$//' -e '/^$/d' "$1/series"
}

# series_sum PATCHDIR: run in a tree; a hash of its base commit and of the
# series in PATCHDIR, which says whether the tree's branch holds the series.
series_sum() {
	local p
	{
		git rev-parse base
		series_list "$1" | while read -r p; do cat "$1/$p"; done
	} | sha256sum | cut -d' ' -f1
}

# new_results NAME [PARENT]: make a new dated results folder (in PARENT,
# default $RESULTS) and print its path.
new_results() {
	local parent=${2:-$RESULTS} dir n=1
	dir=$parent/$(date +%Y%m%d-%H%M%S)-$1
	while [ -e "$dir" ]; do
		dir=$parent/$(date +%Y%m%d-%H%M%S)-$1.$n
		n=$((n + 1))
	done
	mkdir -p "$dir"
	printf '%s\n' "$dir"
}

# base_tree: make $BASE_SRC a git worktree of the pristine base commit
# (the unpatched kernel), unless it is one already.
base_tree() {
	if [ ! -d "$BASE_SRC" ] || [ "$(git -C "$BASE_SRC" rev-parse HEAD 2>/dev/null)" != "$(git -C "$SRC" rev-parse base)" ]; then
		rm -rf "$BASE_SRC"
		git -C "$SRC" worktree prune
		git -C "$SRC" worktree add -q --detach "$BASE_SRC" base
	fi
}
