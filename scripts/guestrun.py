#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Boot a kernel in QEMU, run a command in the guest, judge the console.

The guest init (guest/init) prints markers on the serial console:

    LATNICE-GUEST: start
    LATNICE-TEST-BEGIN <name>       (only in test runs, one per program)
    ... program output (TAP from kselftest programs) ...
    LATNICE-TEST-END <name> <exit status>
    LATNICE-GUEST: exit <status>

KUnit prints KTAP while the kernel boots, before the guest starts.  The
verdict counts KTAP and TAP results and fails the run on any kernel splat,
on a missing exit marker (crash or timeout) and on a non-zero exit status.

Subcommands:
    run    boot and judge (see --help)
    parse  judge an existing console log (for re-reading old results)
"""

import argparse
import json
import os
import re
import shlex
import signal
import subprocess
import sys
import time

# An optional printk timestamp ("[    1.234567] ") before kernel lines.
TS = r'(?:\[\s*\d+\.\d+\]\s?)?'

# Lines that mean the kernel is unhappy.  Anchored at the start of a line
# (after a timestamp) so that a program printing these words mid-line, or
# boot banners such as "MAX_LOCKDEP_SUBCLASSES", do not count.
SPLAT_RES = [re.compile('^' + TS + p) for p in (
    r'WARNING: ',                       # WARN(), lockdep and RCU reports
    r'BUG: ',                           # BUG(), sleeping in atomic, ...
    r'kernel BUG at ',
    r'Oops',
    r'general protection fault',
    r'Call Trace:',
    r'Kernel panic',
    r'INFO: task .* blocked for more than',
    r'INFO: rcu_.* (?:self-)?detected stall',
    r'DEBUG_LOCKS_WARN_ON',
    r'possible (?:recursive|circular) locking',
    r'inconsistent lock state',
    r'suspicious RCU usage',
    r'UBSAN: ',
)]

BEGIN_RE = re.compile(r'LATNICE-TEST-BEGIN (\S+)')
END_RE = re.compile(r'LATNICE-TEST-END (\S+) (-?\d+)')
START_RE = re.compile(r'LATNICE-GUEST: start')
EXIT_RE = re.compile(r'LATNICE-GUEST: exit (-?\d+)')
# TAP/KTAP result lines: indentation, "ok"/"not ok", number, description.
RESULT_RE = re.compile(r'^(\s*)(not ok|ok) (\d+)\b(?: - | )?(.*)$')


def strip_ts(line):
    return re.sub('^' + TS, '', line)


def is_skip(desc):
    return bool(re.search(r'#\s*SKIP', desc, re.IGNORECASE))


def count_ktap(lines):
    """Count leaf results of KTAP output (KUnit).

    A suite's own result line summarises its cases, so only results that
    have no nested results of their own (the leaves) are counted.
    Returns a list of (name, status) with status in pass/fail/skip.
    """
    leaves = []
    # Stack of indentation levels that have seen nested results.
    pending_nested = {}
    for raw in lines:
        line = strip_ts(raw).rstrip('\n')
        m = RESULT_RE.match(line)
        if not m:
            continue
        indent = len(m.group(1).expandtabs(8))
        had_children = any(i > indent for i in pending_nested)
        for i in [i for i in pending_nested if i > indent]:
            del pending_nested[i]
        pending_nested[indent] = True
        if had_children:
            continue
        desc = m.group(4)
        name = desc.split('#')[0].strip()
        if m.group(2) == 'not ok':
            status = 'fail'
        elif is_skip(desc):
            status = 'skip'
        else:
            status = 'pass'
        leaves.append((name, status))
    return leaves


def count_tap_block(lines, rc):
    """Count one guest program's TAP results (top level only).

    A program with no TAP lines counts as one test judged by its exit
    status; a program that exits non-zero with no failed line counts one
    more failure, so that a crash after the last "ok" is not hidden.
    """
    results = []
    for raw in lines:
        m = RESULT_RE.match(raw.rstrip('\n'))
        if not m or m.group(1) != '':
            continue
        desc = m.group(4)
        name = desc.split('#')[0].strip()
        if m.group(2) == 'not ok':
            status = 'fail'
        elif is_skip(desc):
            status = 'skip'
        else:
            status = 'pass'
        results.append((name, status))
    if not results:
        return [('exit status', 'pass' if rc == 0 else 'fail')]
    if rc != 0 and rc != 4 and not any(s == 'fail' for _, s in results):
        # 4 is KSFT_SKIP: the whole program skipped.
        results.append(('exit status %d' % rc, 'fail'))
    return results


def parse_console(text):
    """Judge a console log.  Returns a dict (see keys below)."""
    lines = text.splitlines()
    verdict = {
        'started': False,
        'exit': None,
        'splats': [],
        'kunit': [],
        'tests': {},
        'order': [],
    }
    boot = []
    block = None
    block_lines = []
    for line in lines:
        clean = strip_ts(line)
        for r in SPLAT_RES:
            if r.match(line):
                verdict['splats'].append(line.strip())
                break
        if not verdict['started']:
            if START_RE.search(line):
                verdict['started'] = True
            else:
                boot.append(line)
            continue
        m = EXIT_RE.search(line)
        if m:
            verdict['exit'] = int(m.group(1))
            continue
        m = BEGIN_RE.search(line)
        if m:
            block = m.group(1)
            block_lines = []
            continue
        m = END_RE.search(line)
        if m and block is not None:
            rc = int(m.group(2))
            verdict['tests'][block] = {
                'rc': rc,
                'results': count_tap_block(block_lines, rc),
            }
            verdict['order'].append(block)
            block = None
            continue
        if block is not None:
            block_lines.append(clean)
    if block is not None:
        # The program never finished: the guest died or timed out in it.
        verdict['tests'][block] = {
            'rc': None,
            'results': [r for r in count_tap_block(block_lines, 0)
                        if r[0] != 'exit status'] +
            [('did not finish', 'fail')],
        }
        verdict['order'].append(block)
    verdict['kunit'] = count_ktap(boot)
    return verdict


def tally(verdict):
    """Return (passed, failed, skipped) over KUnit and guest tests."""
    p = f = s = 0
    results = list(verdict['kunit'])
    for name in verdict['order']:
        results += verdict['tests'][name]['results']
    for _, st in results:
        if st == 'pass':
            p += 1
        elif st == 'fail':
            f += 1
        else:
            s += 1
    return p, f, s


def problems(verdict, timed_out=False):
    """Reasons the run as a whole failed (empty if it did not)."""
    out = []
    if timed_out:
        out.append('QEMU timed out')
    if not verdict['started']:
        out.append('the guest never started (no "LATNICE-GUEST: start")')
    elif verdict['exit'] is None:
        out.append('the guest did not finish (no "LATNICE-GUEST: exit")')
    if verdict['splats']:
        out.append('kernel splat on the console: %s' % verdict['splats'][0])
    return out


def parse_topo(topo):
    m = re.fullmatch(r'(\d+)x(\d+)x(\d+)', topo)
    if not m:
        raise ValueError('topology must be SOCKETSxCORESxTHREADS, e.g. 2x4x2, '
                         'not %r' % topo)
    s, c, t = (int(x) for x in m.groups())
    if s < 1 or c < 1 or t < 1 or s * c * t > 64:
        raise ValueError('topology %r: need 1..64 CPUs in all' % topo)
    return s, c, t


def qemu_command(args):
    s, c, t = parse_topo(args.topo)
    ncpu = s * c * t
    accel = {'tcg': 'tcg,thread=multi', 'kvm': 'kvm'}[args.accel]
    if args.icount and args.accel == 'tcg':
        # Instruction counting runs every vCPU in one thread.
        accel = 'tcg,thread=single'
    append = ('console=ttyS0 panic=-1 loglevel=7 LATNICE_TOPO=%s %s'
              % (args.topo, args.append)).strip()
    cmd = [args.qemu, '-nodefaults', '-no-reboot', '-display', 'none',
           '-accel', accel,
           '-cpu', args.cpu,
           '-machine', 'pc',
           '-smp', 'cpus=%d,sockets=%d,cores=%d,threads=%d' % (ncpu, s, c, t),
           '-m', args.memory,
           '-serial', 'stdio',
           '-kernel', args.kernel,
           '-initrd', args.initrd,
           '-append', append]
    if args.icount:
        # Repeatable runs: a seeded random number generator for the guest
        # (RDRAND) and no address space randomization in it.
        cmd += ['-icount', args.icount, '-seed', '1']
        cmd[cmd.index('-append') + 1] += ' norandmaps'
    return cmd


def run(args):
    os.makedirs(args.results, exist_ok=True)
    cmd = qemu_command(args)
    with open(os.path.join(args.results, 'qemu-command'), 'w') as f:
        f.write(' '.join(shlex.quote(c) for c in cmd) + '\n')
    log_path = os.path.join(args.results, 'console.log')
    t0 = time.time()
    timed_out = False
    show = args.show
    err_path = os.path.join(args.results, 'qemu-stderr.log')
    with open(log_path, 'w') as log, open(err_path, 'w') as err:
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
                if START_RE.search(line):
                    in_guest = True
                    if show == 'progress':
                        print('    guest started after %.0fs' % (time.time() - t0),
                              flush=True)
                    continue
                if EXIT_RE.search(line):
                    in_guest = False
                if show == 'all':
                    sys.stdout.write(line)
                elif show == 'guest' and in_guest:
                    sys.stdout.write(strip_ts(line))
                elif show == 'progress':
                    m = END_RE.search(line)
                    if m:
                        print('    %-40s exit %s  (%.0fs)' %
                              (m.group(1), m.group(2), time.time() - t0),
                              flush=True)
                if show != 'all' and any(r.match(line) for r in SPLAT_RES):
                    sys.stdout.write('    console: ' + line)
            proc.wait()
            signal.alarm(0)
        except TimeoutError:
            timed_out = True
            os.killpg(proc.pid, signal.SIGKILL)
            proc.wait()
    elapsed = time.time() - t0
    with open(log_path, errors='replace') as f:
        verdict = parse_console(f.read())
    why = problems(verdict, timed_out)
    p, f, s = tally(verdict)
    summary = {
        'qemu_command': cmd,
        'topology': args.topo,
        'accel': args.accel,
        'elapsed_s': round(elapsed, 1),
        'guest_exit': verdict['exit'],
        'timed_out': timed_out,
        'splats': verdict['splats'],
        'problems': why,
        'passed': p, 'failed': f, 'skipped': s,
        'kunit': verdict['kunit'],
        'tests': {n: verdict['tests'][n] for n in verdict['order']},
    }
    with open(os.path.join(args.results, 'verdict.json'), 'w') as fh:
        json.dump(summary, fh, indent=1)
    for w in why:
        print('    FAIL: %s' % w)
    print('    guest run: %.0fs, console log: %s' % (elapsed, log_path))
    if args.counts:
        with open(args.counts, 'w') as fh:
            fh.write('%d %d %d\n' % (p, f + len(why), s))
    if why:
        return 1 if verdict['exit'] in (None, 0) else max(1, verdict['exit'] & 255)
    if verdict['exit']:
        return verdict['exit'] & 255 or 1
    return 0


def report(verdict, why):
    for name, st in verdict['kunit']:
        print('%s kunit: %s' % (st, name))
    for n in verdict['order']:
        for name, st in verdict['tests'][n]['results']:
            print('%s %s: %s' % (st, n, name))
    for w in why:
        print('FAIL: %s' % w)
    p, f, s = tally(verdict)
    print('%d passed, %d failed, %d skipped' % (p, f + len(why), s))


def main(argv):
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest='cmd', required=True)
    r = sub.add_parser('run', help='boot a kernel and judge the console')
    r.add_argument('--kernel', required=True)
    r.add_argument('--initrd', required=True)
    r.add_argument('--results', required=True, help='folder for the logs')
    r.add_argument('--topo', default='2x4x2', help='SOCKETSxCORESxTHREADS')
    r.add_argument('--accel', choices=('tcg', 'kvm'), default='tcg')
    r.add_argument('--cpu', default='max')
    r.add_argument('--memory', default='1G')
    r.add_argument('--icount', default='', help='QEMU -icount argument')
    r.add_argument('--append', default='', help='more kernel parameters')
    r.add_argument('--timeout', type=float, default=600)
    r.add_argument('--qemu', default='qemu-system-x86_64')
    r.add_argument('--show', choices=('progress', 'guest', 'all', 'none'),
                   default='progress')
    r.add_argument('--counts', help='write "passed failed skipped" here')
    p = sub.add_parser('parse', help='judge a console log')
    p.add_argument('log')
    args = ap.parse_args(argv)
    if args.cmd == 'parse':
        with open(args.log, errors='replace') as f:
            v = parse_console(f.read())
        why = problems(v)
        report(v, why)
        return 1 if why or tally(v)[1] else 0
    try:
        parse_topo(args.topo)
    except ValueError as e:
        print('error: %s' % e, file=sys.stderr)
        return 2
    return run(args)


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
