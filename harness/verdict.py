# SPDX-License-Identifier: GPL-2.0
"""Judge a guest's console log: the one reader of guest results.

The guest init (initramfs/init) and test runner (initramfs/run-tests) print
markers on the serial console:

    LATNICE-GUEST: start
    LATNICE-TEST-BEGIN <name>       (one per program)
    ... program output (TAP from kselftest programs; BENCH key=value lines
        from bench/lnbench) ...
    LATNICE-TEST-END <name> <exit status>
    LATNICE-GUEST: exit <status>

KUnit prints KTAP while the kernel boots, before the guest starts.  The
verdict counts KTAP and TAP results and fails the run on any kernel splat,
on a missing exit marker (crash or timeout) and on a non-zero exit status.
The KTAP of KUnit is read by the kernel tree's own parser
(tools/testing/kunit/kunit_parser.py, as kunit.py reads it; tree_ktap()),
which names a case with its suite (suite.case, suite.case.parameter) and
marks a case that never printed its result as crashed; without the tree
(make host-check on a fresh clone), count_ktap() counts the leaves.

Everything here is pure (text in, dict out) but for tree_ktap() and the
command line, python3 -m harness verdict ...:

    parse LOG                  judge a console log again (any results folder)
    counts DIR                 "passed failed skipped" of DIR/verdict.json,
                               run-level problems counted as failures
    problems DIR               why the run as a whole failed, a line each
                               (nothing: it booted, ran and stopped cleanly)
    failures DIR               the names of what failed, a line each
    why DIR                    each failed program test and the last lines
                               it printed before its result
    journal-extra DIR OTHER    the boot journal's warnings of DIR that
                               OTHER's lacks (exit 1: one at least)

harness/qemu.py writes DIR/verdict.json with judge(); every caller reads
that file (through the subcommands above or load()), never the boot's stdout.
"""
import json
import os
import re
import subprocess
import sys

from . import TOP, settings

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
# The system image's guest (system/overlay/usr/local/sbin/latnice-guest):
# a systemd unit that failed, and the journal's warnings from the boot.
UNIT_RE = re.compile(r'LATNICE-GUEST: failed unit (\S+)')
JOURNAL_RE = re.compile(r'LATNICE-JOURNAL: (.*)$')
JOURNAL_END_RE = re.compile(r'LATNICE-JOURNAL-END (\d+)')
# TAP/KTAP result lines: indentation, "ok"/"not ok", number, description.
RESULT_RE = re.compile(r'^(\s*)(not ok|ok) (\d+)\b(?: - | )?(.*)$')
# A workload's figures: "BENCH key=value key=value ...".
DATA_RE = re.compile(r'^BENCH (.*)$')
KV_RE = re.compile(r'(\w+)=(\S+)')


def strip_ts(line):
    return re.sub('^' + TS, '', line)


def is_splat(line):
    return any(r.match(line) for r in SPLAT_RES)


def result_of(line):
    """(indent, name, pass|fail|skip) of a TAP/KTAP result line, or None."""
    m = RESULT_RE.match(line.rstrip('\n'))
    if not m:
        return None
    desc = m.group(4)
    if m.group(2) == 'not ok':
        status = 'fail'
    elif re.search(r'#\s*SKIP', desc, re.IGNORECASE):
        status = 'skip'
    else:
        status = 'pass'
    return len(m.group(1).expandtabs(8)), desc.split('#')[0].strip(), status


def count_ktap(lines):
    """Leaf results of KTAP output (KUnit), as [(name, status)].

    A suite's own result line summarises its cases, so only results that
    have no nested results of their own (the leaves) are counted.
    """
    leaves = []
    nested = set()          # indentation levels that have seen results
    for raw in lines:
        r = result_of(strip_ts(raw))
        if not r:
            continue
        indent, name, status = r
        had_children = any(i > indent for i in nested)
        nested = {i for i in nested if i <= indent} | {indent}
        if not had_children:
            leaves.append((name, status))
    return leaves


# Seconds the tree's KTAP parser may take for one boot (it takes well
# under one).
KTAP_TIMEOUT = 30


def tree_ktap(src):
    """The tree @src's KTAP reader, tools/testing/kunit/kunit_parser.py, as
    a function of the boot's console lines to [(name, status)] like
    count_ktap(), a leaf named with its suites; None without the file.
    It runs in a process of its own (harness/ktap.py), for KTAP_TIMEOUT
    seconds at most; when it fails, count_ktap() counts the leaves."""
    folder = os.path.join(src, 'tools', 'testing', 'kunit')
    if not all(os.path.isfile(os.path.join(folder, f))
               for f in ('kunit_parser.py', 'kunit_printer.py')):
        return None

    def read(lines):
        if not any(KTAP_START_RE.search(line) for line in lines):
            return []
        try:
            out = subprocess.run([sys.executable, '-m', 'harness.ktap', folder],
                                 input='\n'.join(lines), stdout=subprocess.PIPE,
                                 stderr=subprocess.PIPE, text=True, timeout=KTAP_TIMEOUT,
                                 cwd=TOP, check=True).stdout
            return [tuple(leaf) for leaf in json.loads(out)]
        except (subprocess.SubprocessError, ValueError) as e:
            why = str(e).splitlines()[0] if str(e) else type(e).__name__
            print('    kunit_parser.py could not read this boot (%s): counted without it'
                  % why, file=sys.stderr)
            return count_ktap(lines)
    return read


KTAP_START_RE = re.compile(r'K?TAP version \d+')


def count_tap(lines, rc):
    """One program's TAP results (top level only), as [(name, status)].

    A program with no TAP lines counts as one test judged by its exit
    status (None: it never finished); a program that exits non-zero with
    no failed line counts one more failure, so that a crash after the last
    "ok" is not hidden.  Exit status 4 (KSFT_SKIP) is a whole-program skip.
    """
    results = [(name, st) for indent, name, st in filter(None, map(result_of, lines))
               if indent == 0]
    if rc is None:
        return results + [('did not finish', 'fail')]
    if not results:
        return [('exit status', 'pass' if rc == 0 else 'skip' if rc == 4 else 'fail')]
    if rc not in (0, 4) and not any(s == 'fail' for _, s in results):
        results.append(('exit status %d' % rc, 'fail'))
    return results


def blocks(lines):
    """Split a console log at the guest's markers, the one block parser.

    Returns (boot, guest): the lines before "LATNICE-GUEST: start" (None
    if it never came), and a dict with 'exit' (the guest's exit status or
    None) and 'blocks', a list of (name, rc, lines) per test program (rc
    None: the program never finished), timestamps stripped.
    """
    boot, guest, cur = [], None, None
    for line in lines:
        if guest is None:
            if START_RE.search(line):
                guest = {'exit': None, 'blocks': []}
            else:
                boot.append(line)
            continue
        clean = strip_ts(line)
        m = EXIT_RE.search(line)
        if m:
            guest['exit'] = int(m.group(1))
            continue
        m = BEGIN_RE.search(line)
        if m:
            cur = (m.group(1), [])
            continue
        m = END_RE.search(line)
        if m and cur is not None:
            guest['blocks'].append((cur[0], int(m.group(2)), cur[1]))
            cur = None
            continue
        if cur is not None:
            cur[1].append(clean)
    if cur is not None:
        guest['blocks'].append((cur[0], None, cur[1]))
    return boot, guest


# Lines of a kselftest block that are not a failed test's reason.
RUN_RE = re.compile(r'^#\s+RUN\s')
NOISE_RE = re.compile(r'^#\s+(?:RUN|OK|FAIL|SKIP)\s|^#\s*$')


def why_of(lines, keep=12):
    """{test: [lines]} for each failed top-level TAP result of a program:
    the last @keep comment lines ("# ...": TH_LOG and assertion messages)
    printed since the test began ("#  RUN") or the previous result, which
    say why it failed."""
    out, since = {}, []
    for line in lines:
        r = result_of(line)
        if r and r[0] == 0:
            if r[2] == 'fail':
                out[r[1]] = since[-keep:]
            since = []
        elif RUN_RE.match(line):
            since = []
        elif line.startswith('#') and not NOISE_RE.match(line):
            since.append(line.rstrip())
    return out


def data_of(lines):
    """The last "BENCH key=value ..." line of a block, as a dict."""
    out = {}
    for line in lines:
        m = DATA_RE.match(line.strip())
        if m:
            out = dict(KV_RE.findall(m.group(1)))
    return out


def parse_console(text, ktap=None):
    """Judge a console log: a dict with started, exit, splats, kunit,
    tests ({name: {rc, results, data}}) and order (the names as run).
    @ktap reads the KUnit results (tree_ktap()'s; default count_ktap)."""
    lines = text.splitlines()
    boot, guest = blocks(lines)
    v = {'started': guest is not None,
         'exit': guest['exit'] if guest else None,
         'splats': [line.strip() for line in lines if is_splat(line)],
         'kunit': (ktap or count_ktap)(boot),
         'failed_units': [m.group(1) for m in map(UNIT_RE.search, lines) if m],
         # None: no journal printed (not the system image, or cut short).
         'journal': ([m.group(1).rstrip() for m in map(JOURNAL_RE.search, lines) if m]
                     if any(map(JOURNAL_END_RE.search, lines)) else None),
         'tests': {}, 'order': []}
    for name, rc, blines in (guest['blocks'] if guest else []):
        v['tests'][name] = {'rc': rc, 'results': count_tap(blines, rc),
                            'data': data_of(blines), 'why': why_of(blines)}
        v['order'].append(name)
    return v


def tally(v):
    """(passed, failed, skipped) over KUnit and the programs' results."""
    results = list(v['kunit'])
    for name in v['order']:
        results += v['tests'][name]['results']
    return tuple(sum(1 for _, st in results if st == want)
                 for want in ('pass', 'fail', 'skip'))


def problems(v, timed_out=False):
    """Reasons the run as a whole failed (empty if it did not)."""
    out = []
    if timed_out:
        out.append('QEMU timed out')
    if not v['started']:
        out.append('the guest never started (no "LATNICE-GUEST: start")')
    elif v['exit'] is None:
        out.append('the guest did not finish (no "LATNICE-GUEST: exit")')
    if v['splats']:
        out.append('kernel splat on the console: %s' % v['splats'][0])
    if v['failed_units']:
        out.append('systemd unit(s) failed: %s' % ' '.join(v['failed_units']))
    return out


# Numbers in a journal line: UUIDs and ids (machine, boot), hex and
# decimal numbers.
DIGITS_RE = re.compile(r'[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-'
                       r'[0-9a-fA-F]{12}|\b[0-9a-f]{8,}\b|0x[0-9a-fA-F]+|\d+')


WORD_RE = re.compile(r'[A-Za-z]')


def journal_extra(journal, other):
    """The lines of @journal (a verdict's 'journal') that @other's lacks,
    numbers aside (times, process ids and addresses differ between boots).
    A line with no word is left out: it is a piece of a continued kernel
    line (" #2" of the CPUs brought up) that another message, printed on
    another CPU in between, cut off and the journal logged on its own, as
    a warning, which happens or not with the emulator's timing."""
    seen = {DIGITS_RE.sub('#', line) for line in other}
    return [line for line in journal
            if WORD_RE.search(line) and DIGITS_RE.sub('#', line) not in seen]


def judge(text, timed_out=False, ktap=None, **extra):
    """The verdict.json of a run: counts, problems, every result, and
    @extra (the QEMU command, topology, elapsed time...); @ktap as for
    parse_console()."""
    v = parse_console(text, ktap)
    why = problems(v, timed_out)
    p, f, s = tally(v)
    out = dict(extra)
    out.update({'guest_exit': v['exit'], 'timed_out': timed_out,
                'splats': v['splats'], 'problems': why,
                'failed_units': v['failed_units'], 'journal': v['journal'],
                'passed': p, 'failed': f, 'skipped': s,
                'kunit': v['kunit'],
                'tests': {n: v['tests'][n] for n in v['order']}})
    return out


def exit_status(verdict):
    """The boot's exit status: the guest command's, or non-zero when the
    run as a whole failed."""
    rc = verdict['guest_exit']
    if verdict['problems']:
        return 1 if rc in (None, 0) else max(1, rc & 255)
    return (rc & 255 or 1) if rc else 0


def load(results):
    """The verdict.json of a results folder."""
    with open(os.path.join(results, 'verdict.json')) as f:
        return json.load(f)


def counts(verdict):
    """(passed, failed, skipped), a run-level problem counted as a failure."""
    return (verdict['passed'], verdict['failed'] + len(verdict['problems']),
            verdict['skipped'])


def failures(verdict):
    """The names of what failed: "kunit: CASE", "PROGRAM: TEST" and the
    run-level problems, in the order they ran."""
    out = ['kunit: %s' % name for name, st in verdict['kunit'] if st == 'fail']
    for prog, t in verdict['tests'].items():
        out += ['%s: %s' % (prog, name) for name, st in t['results'] if st == 'fail']
    return out + list(verdict['problems'])


def reasons(verdict):
    """Each failed program test with the lines that say why, for a log's
    tail: "PROGRAM: TEST" and its lines indented."""
    out = []
    for prog, t in verdict['tests'].items():
        for name, lines in t.get('why', {}).items():
            out.append('%s: %s' % (prog, name))
            out += ['    ' + line for line in lines]
    return out


def report(v, why):
    for name, st in v['kunit']:
        print('%s kunit: %s' % (st, name))
    for n in v['order']:
        for name, st in v['tests'][n]['results']:
            print('%s %s: %s' % (st, n, name))
    for w in why:
        print('FAIL: %s' % w)
    p, f, s = tally(v)
    print('%d passed, %d failed, %d skipped' % (p, f + len(why), s))


USAGE = ('usage: python3 -m harness verdict parse LOG | counts DIR | problems DIR | failures DIR | why DIR'
         ' | journal-extra DIR OTHER_DIR')


def main(argv):
    if len(argv) == 3 and argv[0] == 'journal-extra':
        # The boot journal's warnings of DIR that OTHER_DIR's boot lacks;
        # exits 1 if there is one, 2 if a boot printed no journal.
        try:
            mine, other = load(argv[1]), load(argv[2])
        except (OSError, ValueError) as e:
            print('verdict: %s' % e, file=sys.stderr)
            return 2
        if mine.get('journal') is None or other.get('journal') is None:
            print('verdict: no journal in %s' % (argv[1] if mine.get('journal') is None
                                                     else argv[2]), file=sys.stderr)
            return 2
        extra = journal_extra(mine['journal'], other['journal'])
        for line in extra:
            print(line)
        return 1 if extra else 0
    if len(argv) != 2 or argv[0] not in ('parse', 'counts', 'problems', 'failures', 'why'):
        print(USAGE, file=sys.stderr)
        return 2
    cmd, arg = argv
    if cmd == 'parse':
        with open(arg, errors='replace') as f:
            v = parse_console(f.read(), tree_ktap(settings.load()['SRC']))
        why = problems(v)
        report(v, why)
        return 1 if why or tally(v)[1] else 0
    try:
        verdict = load(arg)
    except (OSError, ValueError) as e:
        print('verdict: no verdict in %s (%s): the boot did not get as far as '
              'judging its console' % (arg, e), file=sys.stderr)
        return 1
    if cmd == 'counts':
        print('%d %d %d' % counts(verdict))
    elif cmd == 'failures':
        for w in failures(verdict):
            print(w)
    elif cmd == 'why':
        for w in reasons(verdict):
            print(w)
    else:
        for w in verdict['problems']:
            print(w)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
