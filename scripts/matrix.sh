#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# The build matrix: the series compiled in the configurations that users
# and upstream's build bots build, not only in the test config.
#
# Usage: scripts/matrix.sh [ENTRY...]     (make matrix; default: every entry)
#
# The entries are the files of tests/matrix/ (harness/matrix.py documents
# their keys): an architecture, a base configuration with options set on
# it, and what is built (the touched objects, a full link of vmlinux, or
# the touched objects with W=1 against the base tree's).
#
# The touched objects are the objects of the C files the series changes
# (a kernel/sched file that another one includes, as build_policy.c,
# build_utility.c and fair.c do, counts as that one's), less tools/; a
# file the configuration does not build is skipped and said so.  Each
# entry builds in $BUILD/matrix/<name>, out of tree with ccache; the
# test-config entries that build objects share one folder, so that the
# host tools are built once.  A config change rewrites autoconf.h,
# so these objects miss ccache: keep this out of make check.
#
# Output: a line per entry, then "N passed, N failed".
set -euo pipefail
. "$(dirname "$0")/lib.sh"

# NAME ARCH BASE BUILD NEEDS OPTIONS... a line, checked before anything
# is built.
plan=$(python3 -m harness matrix plan "$@") || exit 1

[ -f "$OBJ/.config" ] || die "$OBJ/.config is missing: run 'make kernel' first"
command -v ccache >/dev/null || die "ccache is missing: run scripts/setup.sh"
mdir=$BUILD/matrix
mkdir -p "$mdir"
export CCACHE_BASEDIR=$BUILD KBUILD_BUILD_USER=latnice KBUILD_BUILD_HOST=qemu
passed=0
failed=0

# The objects of the C files the series changes, for ARCH $1.
touched_objects() {
	local arch=$1 f o
	git -C "$SRC" diff --name-only base HEAD -- '*.c' ':!tools' | while read -r f; do
		case $f in
		arch/*) [[ $f == arch/$arch/* || ($arch == i386 && $f == arch/x86/*) ||
			  ($arch == x86_64 && $f == arch/x86/*) ]] || continue ;;
		esac
		o=${f%.c}.o
		if [[ $f == kernel/sched/* ]]; then
			local unit
			unit=$(grep -lE "^#[[:space:]]*include[[:space:]]+\"${f#kernel/sched/}\"" "$SRC"/kernel/sched/*.c 2>/dev/null | head -n 1)
			[ -n "$unit" ] && o=kernel/sched/$(basename "${unit%.c}").o
		fi
		echo "$o"
	done | sort -u
}

# kmake DIR ARCH LOG ARGS...: make in the tree with O=DIR, appending to LOG.
kmake() {
	local dir=$1 arch=$2 log=$3 cross=
	shift 3
	[ "$arch" = arm64 ] && cross=aarch64-linux-gnu-
	make -C "$SRC" O="$dir" ARCH="$arch" CROSS_COMPILE="$cross" \
		CC="ccache ${cross}gcc" -j"$JOBS" "$@" >>"$log" 2>&1
}

# set_options DIR ARCH LOG OPT=y|n...: set the options, olddefconfig, and
# check that each stuck (a dependency may force an option back).
set_options() {
	local dir=$1 arch=$2 log=$3 o name val
	shift 3
	for o in "$@"; do
		name=${o%%=*}
		val=${o#*=}
		if [ "$val" = n ]; then
			"$SRC/scripts/config" --file "$dir/.config" --disable "$name"
		else
			"$SRC/scripts/config" --file "$dir/.config" --enable "$name"
		fi
	done
	kmake "$dir" "$arch" "$log" olddefconfig || return 1
	for o in "$@"; do
		name=${o%%=*}
		val=${o#*=}
		if [ "$val" = n ]; then
			! grep -q "^CONFIG_$name=[ym]" "$dir/.config" ||
				{ echo "CONFIG_$name is still on after olddefconfig" >>"$log"; return 1; }
		else
			grep -q "^CONFIG_$name=y" "$dir/.config" ||
				{ echo "CONFIG_$name did not stick after olddefconfig" >>"$log"; return 1; }
		fi
	done
}

# build_objects DIR ARCH LOG [MAKEARGS...]: the touched objects this
# config builds.  An object whose folder the config does not enter, or
# whose file is not in the config (a Kconfig-guarded object), is skipped.
build_objects() {
	local dir=$1 arch=$2 log=$3 o objs=() skipped=()
	shift 3
	kmake "$dir" "$arch" "$log" "$@" prepare || return 1
	for o in $(touched_objects "$arch"); do
		if object_in_config "$dir" "$o"; then
			objs+=("$o")
		else
			skipped+=("$o")
		fi
	done
	[ ${#skipped[@]} -eq 0 ] || echo "    not in this config: ${skipped[*]}" | tee -a "$log"
	[ ${#objs[@]} -gt 0 ] || { echo "no touched object in this config" >>"$log"; return 1; }
	kmake "$dir" "$arch" "$log" "$@" "${objs[@]}"
}

# object_in_config DIR OBJ: whether the Makefile of OBJ's folder builds it
# with DIR's config: its obj-y/obj-$(CONFIG_X) line, with X on.
object_in_config() {
	local dir=$1 obj=$2 mf line sym
	mf=$SRC/$(dirname "$obj")/Makefile
	line=$(grep -E "^obj-[^ ]*[[:space:]]*[+:]?=.*[[:space:]]$(basename "$obj")([[:space:]]|$)" "$mf" | head -n 1) || true
	[ -n "$line" ] || return 0	# not listed plainly: let make decide
	sym=$(sed -n 's/^obj-\$(\(CONFIG_[A-Za-z0-9_]*\)).*/\1/p' <<<"$line")
	[ -z "$sym" ] && return 0	# obj-y
	grep -q "^$sym=[ym]" "$dir/.config"
}

# link DIR ARCH LOG: the whole kernel, linked.
link() {
	kmake "$1" "$2" "$3" olddefconfig && kmake "$1" "$2" "$3" vmlinux
}

# warnings LOG: the compiler warnings of LOG, without line numbers and
# folders, so that the base and the series compare.
warnings() {
	grep -E '(warning|error):' "$1" | sed -E 's|^[^ ]*/||; s|:[0-9]+:[0-9]+:|:|' | sort -u
}

# run_entry NAME ARCH BASE BUILD NEEDS OPTIONS...: one line of the plan.
run_entry() {
	local e=$1 arch=$2 base=$3 build=$4 needs=$5 dir log
	shift 5
	# The x86_64 test-config entries that build objects share one folder,
	# so that the host tools are built once.
	if [ "$base" = test ] && [ "$build" = objects ]; then
		dir=$mdir/testconfig
	else
		dir=$mdir/$e
	fi
	log=$mdir/$e.log
	: >"$log"
	mkdir -p "$dir"
	if [ "$needs" != - ] && ! command -v "$needs" >/dev/null; then
		echo "$needs is missing: scripts/setup.sh matrix" >>"$log"
		return 1
	fi
	if [ "$build" = w1 ]; then
		w1 "$dir" "$log"
		return
	fi
	case $base in
	test) cp "$OBJ/.config" "$dir/.config" ;;
	allnoconfig) kmake "$dir" "$arch" "$log" allnoconfig || return 1 ;;
	debian) debian_config "$dir/.config" >>"$log" 2>&1 || return 1 ;;
	esac
	if [ $# -gt 0 ]; then
		set_options "$dir" "$arch" "$log" "$@" || return 1
	else
		kmake "$dir" "$arch" "$log" olddefconfig || return 1
	fi
	case $build in
	objects) build_objects "$dir" "$arch" "$log" ;;
	vmlinux) link "$dir" "$arch" "$log" ;;
	esac
}

# debian_config OUT: Debian's amd64 config of linux-config-6.12 at
# $KVER_DEB, with what an out-of-tree build of a few objects cannot have
# (Debian's signing keys) turned off.
debian_config() {
	local out=$1 deb tmp
	mkdir -p "$CACHE"
	deb=$CACHE/linux-config-6.12_${KVER_DEB/:/%3a}_amd64.deb
	if [ ! -s "$deb" ]; then
		(cd "$CACHE" && apt-get download -q "linux-config-6.12=$KVER_DEB") ||
			{ echo "cannot download linux-config-6.12=$KVER_DEB"; return 1; }
	fi
	tmp=$(mktemp -d)
	dpkg-deb -x "$deb" "$tmp"
	xz -dc "$tmp"/usr/src/linux-config-6.12/config.amd64_none_amd64.xz >"$out"
	rm -rf "$tmp"
	"$SRC/scripts/config" --file "$out" --set-str SYSTEM_TRUSTED_KEYS "" \
		--set-str SYSTEM_REVOCATION_KEYS "" --disable MODULE_SIG_ALL \
		--disable DEBUG_INFO_BTF
}

# w1 DIR LOG: W=1 on the touched objects of the base tree and of the
# series, test config; a warning only the series has fails.
w1() {
	local dir=$1 log=$2 base_log=$1/base.log
	base_tree
	mkdir -p "$dir/base" "$dir/patched"
	cp "$OBJ/.config" "$dir/base/.config"
	cp "$OBJ/.config" "$dir/patched/.config"
	: >"$base_log"
	# The base's objects: the same files, in the base tree.
	SRC=$BASE_SRC kmake "$dir/base" x86_64 "$base_log" olddefconfig &&
		SRC=$BASE_SRC kmake "$dir/base" x86_64 "$base_log" W=1 prepare &&
		SRC=$BASE_SRC kmake "$dir/base" x86_64 "$base_log" W=1 $(touched_objects x86_64) || return 1
	build_objects "$dir/patched" x86_64 "$log" W=1 || return 1
	comm -13 <(warnings "$base_log") <(warnings "$log") >"$dir/new-warnings"
	if [ -s "$dir/new-warnings" ]; then
		echo "W=1 warnings the base does not have:" >>"$log"
		cat "$dir/new-warnings" >>"$log"
		sed 's/^/    /' "$dir/new-warnings"
		return 1
	fi
	echo "    W=1: $(warnings "$log" | wc -l) warnings, all also in the base"
}

mapfile -t lines <<<"$plan"
for line in "${lines[@]}"; do
	e=${line%% *}
	# The stage line names the entry; its description follows, once.
	stage "matrix: $e"
	echo "    $(python3 -m harness matrix title "$e")"
	# shellcheck disable=SC2086 # NAME ARCH BASE BUILD NEEDS OPTIONS, words
	if run_entry $line; then
		echo "ok: $e"
		passed=$((passed + 1))
	else
		echo "not ok: $e (log: ${mdir#"$TOP"/}/$e.log)"
		tail -n 15 "$mdir/$e.log" | sed 's/^/    /'
		failed=$((failed + 1))
	fi
	stage_done
done
echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
