# SPDX-License-Identifier: GPL-2.0
"""Boot a kernel in QEMU with an initramfs, keep its console, judge it.

    python3 -m harness qemu --kernel BZIMAGE --initrd CPIO --results DIR [options]
    python3 -m harness qemu --kernel BZIMAGE --root IMAGE --results DIR [options]

--root boots a root disk instead (virtio-blk, ext4: the Debian system
image of scripts/mkrootfs.sh, with its own init, systemd).
--interactive gives the console to the terminal instead (make run
ROOTFS=system without a command: a root shell on the Debian system); the
guest is not judged, and QEMU's exit status is returned.

Writes into DIR: qemu-command (the exact command line), console.log,
qemu-stderr.log and verdict.json (harness/verdict.py judges the console).
--print prints the QEMU command line and stops: nothing runs, nothing is
written.
Exits with the guest command's exit status, or non-zero when the kernel
splats, the guest crashes or QEMU times out.  harness/boot.py is the usual
way in: it makes the initramfs and chooses the accelerator.
"""
import argparse
import json
import os
import shlex
import signal
import subprocess
import sys
import time

from . import settings, topology, verdict


def kernel_cmdline(args):
    """The kernel's command line: the one place that writes it, with every
    LATNICE_* parameter the guest's init and tests read, each named after
    its setting (TOPO, NUMBERING, CGROUP), and the scheduler's own."""
    # A person at the console sees warnings and worse; a judged boot logs
    # everything.
    words = ['console=ttyS0', 'panic=-1', 'loglevel=%d' % (4 if args.interactive else 7),
             'LATNICE_TOPO=%s' % (topology.parse(args.topo),), 'sched_verbose']
    if args.autogroup == 'off':
        # In the guest every task shares one session (scripts/settings).
        words.append('noautogroup')
    words.append('LATNICE_NUMBERING=%s' % args.numbering)
    if args.append.strip():
        words.append(args.append.strip())
    if args.cgroup == 'v1':
        words.append('LATNICE_CGROUP=v1')       # initramfs/init mounts it
    if args.root:
        # systemd's status lines only for failures, so that they do not
        # come between the lines of the harness's command on the console.
        words += ['root=/dev/vda', 'rw', 'systemd.show_status=error']
    if args.icount:
        # Repeatable runs: no address space randomization in the guest.
        words.append('norandmaps')
    return ' '.join(words)


def shell_line(cmd):
    """A command as one line a shell runs as it is."""
    return ' '.join(shlex.quote(c) for c in cmd)


def qemu_command(args):
    s, c, t = topology.parse(args.topo)
    ncpu = s * c * t
    accel = {'tcg': 'tcg,thread=multi', 'kvm': 'kvm'}[args.accel]
    if args.icount and args.accel == 'tcg':
        # Instruction counting runs every vCPU in one thread.
        accel = 'tcg,thread=single'
    cmd = [args.qemu, '-nodefaults', '-no-reboot', '-display', 'none',
           '-accel', accel,
           '-cpu', args.cpu,
           '-machine', 'pc',
           '-smp', 'cpus=%d,sockets=%d,cores=%d,threads=%d' % (ncpu, s, c, t),
           '-m', args.memory,
           # mon:stdio: Ctrl-A X ends QEMU, Ctrl-C goes to the guest.
           '-serial', 'mon:stdio' if args.interactive else 'stdio',
           '-kernel', args.kernel]
    if args.root:
        # No initramfs: the kernel mounts the disk itself.
        cmd += ['-drive', 'file=%s,if=virtio,format=raw' % args.root]
    else:
        cmd += ['-initrd', args.initrd]
    cmd += ['-append', kernel_cmdline(args)]
    if args.icount:
        # Repeatable runs: a seeded random number generator for the guest
        # (RDRAND).
        cmd += ['-icount', args.icount, '-seed', '1']
    return cmd


def show_line(show, line, in_guest, t0):
    """What the terminal gets of one console line."""
    if show == 'all':
        return line
    if show == 'guest' and in_guest:
        return verdict.strip_ts(line)
    if show == 'progress':
        m = verdict.END_RE.search(line)
        if m:
            return '    %-40s exit %s  (%.0fs)\n' % (m.group(1), m.group(2),
                                                   time.time() - t0)
    if show != 'none' and verdict.is_splat(line):
        return '    console: ' + line
    return ''


def boot(args):
    """Run QEMU; returns (console text, timed out, seconds)."""
    cmd = qemu_command(args)
    with open(os.path.join(args.results, 'qemu-command'), 'w') as f:
        f.write(shell_line(cmd) + '\n')
    t0 = time.time()
    timed_out = False
    text = []
    with open(os.path.join(args.results, 'console.log'), 'w') as log, \
            open(os.path.join(args.results, 'qemu-stderr.log'), 'w') as err:
        proc = subprocess.Popen(cmd, stdin=subprocess.DEVNULL,
                                stdout=subprocess.PIPE, stderr=err,
                                start_new_session=True)

        def on_alarm(signum, frame):
            raise TimeoutError()
        signal.signal(signal.SIGALRM, on_alarm)
        signal.alarm(max(1, int(args.timeout)))
        in_guest = False
        try:
            for raw in proc.stdout:
                line = raw.decode('utf-8', 'replace')
                log.write(line)
                log.flush()
                text.append(line)
                if verdict.START_RE.search(line):
                    in_guest = True
                    if args.show == 'progress':
                        print('    guest started after %.0fs' % (time.time() - t0),
                              flush=True)
                    continue
                if verdict.EXIT_RE.search(line):
                    in_guest = False
                out = show_line(args.show, line, in_guest, t0)
                if out:
                    sys.stdout.write(out)
                    sys.stdout.flush()
            proc.wait()
            signal.alarm(0)
        except TimeoutError:
            timed_out = True
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    return ''.join(text), timed_out, time.time() - t0, cmd


def run(args):
    os.makedirs(args.results, exist_ok=True)
    if args.interactive:
        cmd = qemu_command(args)
        with open(os.path.join(args.results, 'qemu-command'), 'w') as f:
            f.write(shell_line(cmd) + '\n')
        print('    console attached: log in as root (no password), power off with '
              '"poweroff", or end QEMU with Ctrl-A X', flush=True)
        return subprocess.call(cmd)
    text, timed_out, elapsed, cmd = boot(args)
    v = verdict.judge(text, timed_out, ktap=verdict.tree_ktap(settings.load()['SRC']),
                      qemu_command=cmd, topology=args.topo,
                      accel=args.accel, icount=args.icount,
                      elapsed_s=round(elapsed, 1))
    with open(os.path.join(args.results, 'verdict.json'), 'w') as fh:
        json.dump(v, fh, indent=1)
    for w in v['problems']:
        print('    FAIL: %s' % w)
    print('    guest run: %.0fs, console log: %s'
          % (elapsed, os.path.join(args.results, 'console.log')))
    return verdict.exit_status(v)


def main(argv):
    ap = argparse.ArgumentParser(prog='python3 -m harness qemu',
                                 description=__doc__.split('\n')[0])
    ap.add_argument('--kernel', required=True)
    where = ap.add_mutually_exclusive_group(required=True)
    where.add_argument('--initrd', help='the initramfs (its /init runs the command)')
    where.add_argument('--root', help='a root disk image (virtio-blk, ext4)')
    ap.add_argument('--results', required=True, help='folder for the logs')
    ap.add_argument('--topo', required=True, help='SOCKETSxCORESxTHREADS')
    ap.add_argument('--accel', choices=('tcg', 'kvm'), default='tcg')
    ap.add_argument('--cpu', default='max')
    ap.add_argument('--memory', default='1G')
    ap.add_argument('--icount', default='', help='QEMU -icount argument')
    ap.add_argument('--append', default='', help='more kernel parameters')
    # The settings of the same names (scripts/settings).
    ap.add_argument('--numbering', choices=topology.NUMBERINGS, required=True)
    ap.add_argument('--autogroup', choices=('on', 'off'), required=True)
    ap.add_argument('--cgroup', choices=('v1', 'v2'), required=True)
    ap.add_argument('--timeout', type=float, required=True, help='seconds')
    ap.add_argument('--qemu', default='qemu-system-x86_64')
    ap.add_argument('--show', choices=('progress', 'guest', 'all', 'none'),
                    default='progress')
    ap.add_argument('--interactive', action='store_true',
                    help='the console on this terminal; no verdict')
    ap.add_argument('--print', action='store_true',
                    help='print the QEMU command line and stop')
    args = ap.parse_args(argv)
    try:
        topology.parse(args.topo)
    except topology.TopologyError as e:
        print('error: %s' % e, file=sys.stderr)
        return 2
    if args.print:
        print(shell_line(qemu_command(args)))
        return 0
    return run(args)


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
