#!/usr/bin/env bash
# SPDX-License-Identifier: GPL-2.0
# Boot the built kernel in QEMU with a command and files, and judge it.
#
# Usage: scripts/boot.sh RESULTS_DIR CMDFILE [DEST=SRC ...]
#        scripts/boot.sh RESULTS_DIR - [DEST=SRC ...]   (ROOTFS=system only:
#                a root shell on this terminal instead of a command)
#   RESULTS_DIR  the run's folder (made if missing; new_results in lib.sh
#                makes a dated one): qemu-command, console.log,
#                qemu-stderr.log, initramfs.cpio, guest-cmd, verdict.json
#   CMDFILE      a shell script the guest runs as /run/cmd
#   DEST=SRC     files to put in the guest (DEST: path in the guest)
# Settings (scripts/settings; the environment wins): TOPO, ACCEL,
# GUEST_TIMEOUT, SHOW, APPEND, ICOUNT, AUTOGROUP, NUMBERING, CGROUP, ROOTFS, and
# KERNEL (default: OBJ's bzImage).  ROOTFS=system boots the Debian system
# image (scripts/mkrootfs.sh: root.img instead of initramfs.cpio) with
# systemd as PID 1 and 2 GiB of memory.
# The exit status is the guest command's, or non-zero when the kernel
# splats, the guest crashes or QEMU times out.  Callers read the verdict
# from RESULTS_DIR/verdict.json (python3 -m harness verdict counts|problems DIR).
set -euo pipefail
. "$(dirname "$0")/lib.sh"

[ $# -ge 2 ] || die "usage: $0 RESULTS_DIR CMDFILE [DEST=SRC ...]"
dir=$1 cmdfile=$2
shift 2
: "${KERNEL:=$OBJ/arch/x86/boot/bzImage}" "${SHOW:=progress}"
[ -f "$KERNEL" ] || die "no kernel at $KERNEL: run 'make kernel' first"
command -v qemu-system-x86_64 >/dev/null || die "qemu-system-x86_64 is missing: run scripts/setup.sh"

mkdir -p "$dir"
interactive=
if [ "$cmdfile" = - ]; then
	[ "$ROOTFS" = system ] || die "a shell on the console needs ROOTFS=system (the initramfs runs a command)"
	interactive=--interactive
else
	cp "$cmdfile" "$dir/guest-cmd"
fi

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
			if python3 -m harness qemu --kernel "$KERNEL" \
				--initrd "$dir/probe.cpio" --results "$dir/kvm-probe" \
				--topo 1x2x1 --accel kvm --timeout 20 --show none \
				--numbering adjacent --autogroup "$AUTOGROUP" --cgroup v2 >/dev/null 2>&1; then
				ACCEL=kvm
			fi
			printf '%s\n%s\n' "$ACCEL" "$key" >"$probe"
			echo "    KVM probe: using $ACCEL"
		fi
	fi
fi

# NUMBERING=apart: QEMU's MADT for this topology with the local APICs
# reordered (harness/madt.py), where Linux looks for table upgrades in the
# initramfs.
madt=
case $NUMBERING in
adjacent) ;;
apart)
	madt=$dir/madt-apart.aml
	python3 -m harness madt qemu "$TOPO" "$madt" apart
	set -- "$@" "/kernel/firmware/acpi/apic.aml=$madt"
	;;
*) die "NUMBERING=$NUMBERING: adjacent or apart" ;;
esac
case $ROOTFS in
'')
	"$TOP/scripts/mkinitramfs.sh" "$dir/initramfs.cpio" "$cmdfile" "$@"
	root=(--initrd "$dir/initramfs.cpio")
	;;
system)
	"$TOP/scripts/build-system.sh"
	"$TOP/scripts/mkrootfs.sh" "$dir/root.img" "$cmdfile" "$@"
	root=(--root "$dir/root.img" --memory 2G)
	;;
*) die "ROOTFS=$ROOTFS: empty (the initramfs) or system" ;;
esac

case $AUTOGROUP in
on | off) ;;
*) die "AUTOGROUP=$AUTOGROUP: on or off" ;;
esac
case $CGROUP in
v2) ;;
v1) [ -z "$ROOTFS" ] || die "CGROUP=v1 needs the initramfs (systemd owns the cgroup hierarchy of ROOTFS=$ROOTFS)" ;;
*) die "CGROUP=$CGROUP: v1 or v2" ;;
esac
# The kernel's command line, every LATNICE_* parameter in it, is
# harness/qemu.py's kernel_cmdline(), from these settings.
args=(--kernel "$KERNEL" "${root[@]}" --results "$dir"
      --topo "$TOPO" --accel "$ACCEL" --timeout "$GUEST_TIMEOUT" --show "$SHOW"
      --numbering "$NUMBERING" --autogroup "$AUTOGROUP" --cgroup "$CGROUP" --append "$APPEND")
[ -n "$ICOUNT" ] && args+=(--icount "$ICOUNT")
[ -n "$interactive" ] && args+=("$interactive")
echo "    guest: $TOPO ($ACCEL${ICOUNT:+, -icount $ICOUNT}${madt:+, siblings numbered apart}${ROOTFS:+, root: $ROOTFS}), results in ${dir#"$TOP"/}"
if [ -z "$ROOTFS" ]; then
	exec python3 -m harness qemu "${args[@]}"
fi
# The root disk is a copy of the cached image (1 GiB or more): the console
# log and the verdict are what a run keeps.
rc=0
python3 -m harness qemu "${args[@]}" || rc=$?
rm -f "$dir/root.img"
exit "$rc"
