#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Configure and build a kernel out of tree, with ccache.
#
# Usage: scripts/build-kernel.sh [TREE [OBJDIR [FRAGMENT...]]]
#        (defaults: $SRC, $OBJ, configs/latnice.config)
#
# The config is tinyconfig plus the fragments in order (make bench adds
# configs/bench.config after latnice.config), then olddefconfig; every
# option of the fragments is checked in the result.  It is made in a
# scratch folder and copied over OBJDIR/.config only when it differs, so
# an unchanged config rebuilds nothing.  Compiler output goes to
# OBJDIR/build.log; the terminal gets progress lines.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

tree=${1:-$SRC}
obj=${2:-$OBJ}
if [ $# -gt 2 ]; then
	frags=("${@:3}")
else
	frags=("$TOP/configs/latnice.config")
fi
for f in "${frags[@]}"; do
	[ -f "$f" ] || die "no config fragment $f"
done
[ -f "$tree/Makefile" ] || die "no kernel tree at $tree: run 'make source' first"
mkdir -p "$obj"
export ARCH=x86_64
export KBUILD_BUILD_USER=latnice KBUILD_BUILD_HOST=qemu
export CCACHE_BASEDIR=$BUILD
command -v ccache >/dev/null || die "ccache is missing: run scripts/setup.sh"

stage "kernel config ($(basename "$obj"))"
work=$obj.config-work
rm -rf "$work"
mkdir -p "$work"
make -s -C "$tree" O="$work" tinyconfig >"$work/log" 2>&1 ||
	{ cat "$work/log" >&2; die "make tinyconfig failed"; }
"$tree/scripts/kconfig/merge_config.sh" -m -O "$work" "$work/.config" "${frags[@]}" >>"$work/log" 2>&1 ||
	{ cat "$work/log" >&2; die "merge_config.sh failed"; }
make -s -C "$tree" O="$work" olddefconfig >>"$work/log" 2>&1 ||
	{ cat "$work/log" >&2; die "make olddefconfig failed"; }
python3 "$TOP/scripts/check-config.py" --tree "$tree" "${frags[@]}" "$work/.config" ||
	die "fix ${frags[*]} (the merged config is $work/.config)"
if cmp -s "$work/.config" "$obj/.config"; then
	echo "    config unchanged"
else
	cp "$work/.config" "$obj/.config"
	echo "    config written: $obj/.config"
fi
rm -rf "$work"
stage_done

stage "kernel build ($(basename "$obj"), $JOBS jobs, log: $obj/build.log)"
log=$obj/build.log
make -C "$tree" O="$obj" CC="ccache gcc" -j"$JOBS" bzImage headers >"$log" 2>&1 &
pid=$!
trap 'kill $pid 2>/dev/null || true' INT TERM
t0=$(date +%s)
while kill -0 $pid 2>/dev/null; do
	for _ in $(seq 30); do
		kill -0 $pid 2>/dev/null || break
		sleep 1
	done
	kill -0 $pid 2>/dev/null || break
	printf '    ... %4ss, %s files compiled\n' "$(($(date +%s) - t0))" "$(grep -c '^  CC ' "$log" || true)"
done
if ! wait $pid; then
	echo "error: the kernel build failed; first errors:" >&2
	grep -E -m 15 -A 3 'error:|Error [0-9]|undefined reference' "$log" | head -n 40 | sed 's/^/    /' >&2
	die "full compiler output: $log"
fi
echo "    $(grep -c '^  CC ' "$log" || true) files compiled"
[ -f "$obj/arch/x86/boot/bzImage" ] || die "no bzImage after the build: see $log"
stage_done
