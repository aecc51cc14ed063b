#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Boot the built kernel in QEMU with a command and files, and judge it.
#
# Usage: scripts/guest.sh NAME CMDFILE [DEST=SRC ...]
#   NAME     names the results folder: results/<date>-NAME/
#   CMDFILE  a shell script the guest runs as /run/cmd
#   DEST=SRC files to put in the guest (DEST: path in the guest)
# Settings (environment): TOPO (SxCxT, default 2x4x2), ACCEL (auto, tcg or
# kvm; auto probes KVM once and uses TCG unless a guest really boots),
# GUEST_TIMEOUT (seconds, default 900), SHOW (progress, guest, all, none),
# COUNTS (file for "passed failed skipped"), KERNEL (default: OBJ's bzImage).
# The exit status is the guest command's, or non-zero when the kernel
# splats, the guest crashes or QEMU times out.
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ $# -ge 2 ] || die "usage: $0 NAME CMDFILE [DEST=SRC ...]"
name=$1 cmdfile=$2
shift 2
: "${TOPO:=2x4x2}" "${ACCEL:=auto}" "${GUEST_TIMEOUT:=900}" "${SHOW:=progress}"
: "${KERNEL:=$OBJ/arch/x86/boot/bzImage}"
[ -f "$KERNEL" ] || die "no kernel at $KERNEL: run 'make kernel' first"
command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 is missing: run scripts/setup.sh"

dir=$RESULTS/$(date +%Y%m%d-%H%M%S)-$name
n=1
while [ -e "$dir" ]; do dir=$RESULTS/$(date +%Y%m%d-%H%M%S)-$name.$n; n=$((n + 1)); done
mkdir -p "$dir"
cp "$cmdfile" "$dir/guest-cmd"
"$TOP/scripts/mkinitramfs.sh" "$dir/initramfs.cpio" "$cmdfile" "$@"

# KVM: hangs on some hosts (no console output at all), so use it only when
# a probe guest boots and exits within 20 seconds.  The answer is kept in
# $BUILD/accel-probe for this QEMU and host kernel.
if [ "$ACCEL" = auto ]; then
	ACCEL=tcg
	if [ -w /dev/kvm ]; then
		key="$(qemu-system-x86_64 --version | head -n1) / $(uname -r)"
		probe=$BUILD/accel-probe
		if [ -f "$probe" ] && [ "$(sed -n 2p "$probe")" = "$key" ]; then
			ACCEL=$(sed -n 1p "$probe")
		else
			echo "    probing KVM (a guest that exits at once, 20s at most)"
			printf 'exit 0\n' >"$dir/probe-cmd"
			"$TOP/scripts/mkinitramfs.sh" "$dir/probe.cpio" "$dir/probe-cmd"
			if python3 "$TOP/scripts/guestrun.py" run --kernel "$KERNEL" \
				--initrd "$dir/probe.cpio" --results "$dir/kvm-probe" \
				--topo 1x2x1 --accel kvm --timeout 20 --show none >/dev/null 2>&1; then
				ACCEL=kvm
			fi
			printf '%s\n%s\n' "$ACCEL" "$key" >"$probe"
			echo "    KVM probe: using $ACCEL"
		fi
	fi
fi

args=(run --kernel "$KERNEL" --initrd "$dir/initramfs.cpio" --results "$dir"
      --topo "$TOPO" --accel "$ACCEL" --timeout "$GUEST_TIMEOUT" --show "$SHOW"
      --append "sched_verbose ${APPEND:-}")
[ -n "${COUNTS:-}" ] && args+=(--counts "$COUNTS")
[ -n "${ICOUNT:-}" ] && args+=(--icount "$ICOUNT")
echo "    guest: $TOPO ($ACCEL), results in ${dir#"$TOP"/}"
set +e
python3 "$TOP/scripts/guestrun.py" "${args[@]}"
rc=$?
set -e
exit $rc
