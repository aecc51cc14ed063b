# SPDX-License-Identifier: GPL-2.0
# Common settings and helpers for the harness scripts.  Sourced, not run.
#
# Every variable here can be overridden from the environment or the make
# command line (make passes them through the environment).

# The Debian package version the series is based on.
: "${KVER_DEB:=6.12.118-1~deb12u1}"
: "${TOP:=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)}"
: "${BUILD:=$TOP/build}"
: "${RESULTS:=$TOP/results}"
: "${PATCHES:=$TOP/patches}"
: "${CACHE:=${XDG_CACHE_HOME:-$HOME/.cache}/latnice}"
# The pristine tree as a git repository; the series is applied on a branch.
: "${SRC:=$BUILD/linux}"
# Out-of-tree build folder of the patched kernel.
: "${OBJ:=$BUILD/obj-patched}"
: "${JOBS:=$(nproc)}"

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

# guest_programs [LIST]: DEST=SRC pairs for every program the guest gets
# in /tests: the static binaries of $BUILD/guest, the guest test scripts,
# and LIST (default tests/guest/list) as /tests/list.
guest_programs() {
	local f
	for f in "$BUILD"/guest/* "$TOP"/tests/guest/*.sh; do
		[ -f "$f" ] && printf '/tests/%s=%s\n' "$(basename "$f")" "$f"
	done
	printf '/tests/list=%s\n' "${1:-$TOP/tests/guest/list}"
}
