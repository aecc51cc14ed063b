# SPDX-License-Identifier: GPL-2.0
"""The console judge (harness/verdict.py) and the QEMU command (harness/qemu.py)."""
import contextlib
import io
import os
import shutil
import sys
import tempfile
import unittest
from unittest import mock

from harness import qemu, settings, verdict

TOP = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')

KUNIT = """\
[    3.100000] KTAP version 1
[    3.100001] 1..2
[    3.100002]     KTAP version 1
[    3.100003]     # Subtest: cpumask
[    3.100004]     1..3
[    3.100005]     ok 1 test_cpumask_weight
[    3.100006]     not ok 2 test_cpumask_first
[    3.100007]     ok 3 test_cpumask_last # SKIP no reason
[    3.100008] not ok 1 cpumask
[    3.100009]     KTAP version 1
[    3.100010]     # Subtest: params
[    3.100011]     1..1
[    3.100012]         KTAP version 1
[    3.100013]         # Subtest: case_a
[    3.100014]         ok 1 p=1
[    3.100015]         ok 2 p=2
[    3.100016]     ok 1 case_a
[    3.100017] ok 2 params
"""


def console(*parts):
    return ''.join(parts)


GUEST_OK = """\
LATNICE-GUEST: start 16 CPUs, kernel 6.12
LATNICE-TEST-BEGIN topology
TAP version 13
1..3
# Starting 3 tests from 1 test cases.
#  RUN           global.cpu_count ...
#            OK  global.cpu_count
ok 1 global.cpu_count
ok 2 global.smt # SKIP not SMT
ok 3 - -R: dash kept
# PASSED: 2 / 2 tests passed.
LATNICE-TEST-END topology 0
LATNICE-GUEST: exit 0
"""


class TestTreeKtap(unittest.TestCase):
    """KUnit's results read by the tree's kunit_parser.py: suites kept in
    the names, and a result that never came is a failure."""
    @classmethod
    def setUpClass(cls):
        read = verdict.tree_ktap(settings.load()['SRC'])
        cls.read = staticmethod(read)
        if read is None:
            raise unittest.SkipTest('no tree with tools/testing/kunit/kunit_parser.py '
                                    '(make apply)')

    def test_suites_in_names(self):
        v = verdict.parse_console(KUNIT + GUEST_OK, self.read)
        self.assertEqual(v['kunit'], [
            ('cpumask.test_cpumask_weight', 'pass'), ('cpumask.test_cpumask_first', 'fail'),
            ('cpumask.test_cpumask_last', 'skip'), ('params.case_a.p=1', 'pass'),
            ('params.case_a.p=2', 'pass')])
        self.assertEqual(verdict.tally(v), (5, 1, 2))
        self.assertEqual(verdict.parse_console(GUEST_OK, self.read)['kunit'], [])

    def test_crash(self):
        """KUnit cut short after one case: the cases and the suite it did
        not report fail, by number."""
        cut = ''.join(KUNIT.splitlines(True)[:6])
        self.assertEqual(verdict.parse_console(cut + GUEST_OK, self.read)['kunit'], [
            ('cpumask.test_cpumask_weight', 'pass'), ('cpumask.#2 (no result)', 'fail'),
            ('cpumask.#3 (no result)', 'fail'), ('#2 (no result)', 'fail')])

    def test_kernel_lines_between(self):
        """Kernel messages between KTAP lines (one between a suite's
        "KTAP version 1" and its "# Subtest:" once made the parser merge
        the suites that followed into one without a name) are left out."""
        lines = KUNIT.splitlines(True)
        at = next(i for i, line in enumerate(lines) if 'Subtest: params' in line)
        noisy = ''.join(lines[:at] + [
            '[    3.100009] input: AT Translated Set 2 keyboard as /devices/serio0/input3\n',
            '[    3.100009] root domain span: 0-13,15\n'] + lines[at:])
        self.assertEqual(verdict.parse_console(noisy + GUEST_OK, self.read)['kunit'],
                         verdict.parse_console(KUNIT + GUEST_OK, self.read)['kunit'])

    def test_no_tree(self):
        self.assertIsNone(verdict.tree_ktap('/nonexistent'))



class TestTreeKtapFallback(unittest.TestCase):
    def test_parser_that_fails_or_hangs(self):
        """A tree parser that raises or never returns: the leaves are
        counted without it, within KTAP_TIMEOUT."""
        tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, tmp)
        folder = os.path.join(tmp, 'tools', 'testing', 'kunit')
        os.makedirs(folder)
        with open(os.path.join(folder, 'kunit_printer.py'), 'w') as f:
            f.write('class Printer:\n    def __init__(self, out):\n        pass\n')
        for body in ('raise ValueError("LineStream: going past EOF")', 'while True:\n        pass'):
            with open(os.path.join(folder, 'kunit_parser.py'), 'w') as f:
                f.write('stdout = None\n\n\ndef parse_run_tests(lines):\n    %s\n' % body)
            read = verdict.tree_ktap(tmp)
            with mock.patch.object(verdict, 'KTAP_TIMEOUT', 2), \
                    contextlib.redirect_stderr(io.StringIO()) as err:
                got = verdict.parse_console(KUNIT + GUEST_OK, read)['kunit']
            self.assertEqual(got, verdict.count_ktap(KUNIT.splitlines()))
            self.assertIn('counted without it', err.getvalue())


class TestKtap(unittest.TestCase):
    def test_leaves_only(self):
        v = verdict.parse_console(KUNIT + GUEST_OK)
        self.assertEqual(v['kunit'], [
            ('test_cpumask_weight', 'pass'),
            ('test_cpumask_first', 'fail'),
            ('test_cpumask_last', 'skip'),
            ('p=1', 'pass'),
            ('p=2', 'pass'),
        ])

    def test_no_timestamps(self):
        plain = '\n'.join(line.split('] ', 1)[1] if '] ' in line else line
                          for line in KUNIT.splitlines()) + '\n'
        v = verdict.parse_console(plain + GUEST_OK)
        self.assertEqual(len(v['kunit']), 5)

    def test_ktap_after_start_ignored(self):
        # Kernel results are read from the boot only; a guest program's
        # indented TAP is its own business.
        v = verdict.parse_console(GUEST_OK + KUNIT)
        self.assertEqual(v['kunit'], [])


class TestGuestTap(unittest.TestCase):
    def test_counts(self):
        v = verdict.parse_console(GUEST_OK)
        self.assertEqual(verdict.tally(v), (2, 0, 1))
        self.assertEqual(verdict.problems(v), [])
        self.assertEqual(v['tests']['topology']['results'][2], ('-R: dash kept', 'pass'))
        self.assertEqual(v['exit'], 0)

    def test_failure_line(self):
        v = verdict.parse_console(GUEST_OK.replace('ok 1 global', 'not ok 1 global'))
        self.assertEqual(verdict.tally(v), (1, 1, 1))

    def test_why_of_a_failure(self):
        text = GUEST_OK.replace(
            '#            OK  global.cpu_count\nok 1 global.cpu_count',
            '# t.c:10:cpu_count:16 CPUs seen\n# t.c:12:cpu_count:Expected 8 (8) == n (16)\n'
            '#          FAIL  global.cpu_count\nnot ok 1 global.cpu_count')
        v = verdict.parse_console(text)
        self.assertEqual(v['tests']['topology']['why'], {'global.cpu_count': [
            '# t.c:10:cpu_count:16 CPUs seen', '# t.c:12:cpu_count:Expected 8 (8) == n (16)']})
        self.assertEqual(verdict.reasons({'tests': v['tests']}), [
            'topology: global.cpu_count', '    # t.c:10:cpu_count:16 CPUs seen',
            '    # t.c:12:cpu_count:Expected 8 (8) == n (16)'])
        # Passing tests have no reasons, however much they printed.
        self.assertEqual(verdict.parse_console(GUEST_OK)['tests']['topology']['why'], {})

    def test_nonzero_exit_without_failed_line(self):
        v = verdict.parse_console(GUEST_OK.replace('END topology 0', 'END topology 139'))
        self.assertEqual(verdict.tally(v), (2, 1, 1))

    def test_ksft_skip_exit(self):
        text = GUEST_OK.replace('ok 1 global.cpu_count\n', '').replace(
            'ok 3 - -R: dash kept\n', '').replace(
            'END topology 0', 'END topology 4')
        v = verdict.parse_console(text)
        self.assertEqual(verdict.tally(v), (0, 0, 1))

    def test_program_without_tap(self):
        text = ('LATNICE-GUEST: start\nLATNICE-TEST-BEGIN a\nhello\n'
                'LATNICE-TEST-END a 0\nLATNICE-TEST-BEGIN b\n'
                'LATNICE-TEST-END b 2\nLATNICE-GUEST: exit 1\n')
        v = verdict.parse_console(text)
        self.assertEqual(verdict.tally(v), (1, 1, 0))
        self.assertEqual(v['exit'], 1)

    def test_skip_without_tap(self):
        """A program that prints no TAP and exits 4 (KSFT_SKIP, as make
        bisect's stand-in for a program a step lacks) is a skip."""
        text = ("LATNICE-GUEST: start\nLATNICE-TEST-BEGIN a\n/tests/a is not built here: "
                "skipped\nLATNICE-TEST-END a 4\nLATNICE-GUEST: exit 0\n")
        self.assertEqual(verdict.tally(verdict.parse_console(text)), (0, 0, 1))

    def test_program_that_never_ends(self):
        text = 'LATNICE-GUEST: start\nLATNICE-TEST-BEGIN a\nok 1 x\n'
        v = verdict.parse_console(text)
        self.assertEqual(verdict.tally(v), (1, 1, 0))
        self.assertIn('did not finish', verdict.problems(v)[0])

    def test_never_started(self):
        v = verdict.parse_console('Linux version 6.12\nKernel panic - not syncing\n')
        why = verdict.problems(v)
        self.assertTrue(any('never started' in w for w in why))
        self.assertTrue(any('splat' in w for w in why))

    def test_timeout_is_a_problem(self):
        v = verdict.parse_console(GUEST_OK)
        self.assertEqual(verdict.problems(v, timed_out=True), ['QEMU timed out'])


class TestSplats(unittest.TestCase):
    SPLATS = [
        '[   12.3] WARNING: CPU: 3 PID: 77 at drivers/misc/lkdtm/bugs.c:1 lkdtm_WARNING+0x1/0x2',
        'BUG: sleeping function called from invalid context at kernel/sched/core.c:1',
        '[    1.0] BUG: kernel NULL pointer dereference, address: 0000000000000000',
        'Oops: general protection fault, probably for non-canonical address',
        '[    2.0] Call Trace:',
        'WARNING: possible circular locking dependency detected',
        'WARNING: suspicious RCU usage',
        'Kernel panic - not syncing: Fatal exception',
        'kernel BUG at kernel/sched/fair.c:123!',
        '[    5.0] INFO: task kworker/0:1:12 blocked for more than 120 seconds.',
    ]
    BENIGN = [
        '... MAX_LOCKDEP_SUBCLASSES:  8',
        'Lock dependency validator: Copyright (c) 2006 Red Hat, Inc., Ingo Molnar',
        'lkdtm: Performing direct entry WARNING',
        '# a test said: no WARNING: here',
        'qemu-system-x86_64: warning: TCG doesn\'t support requested feature',
    ]

    def test_splats_fail(self):
        for line in self.SPLATS:
            v = verdict.parse_console(GUEST_OK + line + '\n')
            self.assertEqual(v['splats'], [line.strip()], line)
            self.assertTrue(verdict.problems(v), line)

    def test_benign_lines(self):
        for line in self.BENIGN:
            v = verdict.parse_console(line + '\n' + GUEST_OK)
            self.assertEqual(v['splats'], [], line)


class TestBlocks(unittest.TestCase):
    def test_one_block_parser(self):
        text = ('boot line\nLATNICE-GUEST: start\nLATNICE-TEST-BEGIN a\n'
                '[    1.0] x\nBENCH rtt_ns=5 probes=3\nBENCH rtt_ns=7\n'
                'LATNICE-TEST-END a 3\nLATNICE-TEST-BEGIN b\ny\n')
        boot, guest = verdict.blocks(text.splitlines())
        self.assertEqual(boot, ['boot line'])
        self.assertEqual(guest['exit'], None)
        self.assertEqual(guest['blocks'][0][:2], ('a', 3))
        self.assertEqual(guest['blocks'][0][2][0], 'x')
        self.assertEqual(guest['blocks'][1], ('b', None, ['y']))

    def test_no_start(self):
        boot, guest = verdict.blocks(['a', 'b'])
        self.assertEqual((boot, guest), (['a', 'b'], None))

    def test_bench_data_is_the_last_line(self):
        text = ('LATNICE-GUEST: start\nLATNICE-TEST-BEGIN r1\n'
                'BENCH rtt_ns=5 probes=3\nBENCH rtt_ns=7 mode=x\n'
                'LATNICE-TEST-END r1 0\nLATNICE-GUEST: exit 0\n')
        v = verdict.judge(text)
        self.assertEqual(v['tests']['r1']['data'], {'rtt_ns': '7', 'mode': 'x'})
        self.assertEqual(v['tests']['r1']['results'], [('exit status', 'pass')])


class TestVerdictFile(unittest.TestCase):
    """What callers read: verdict.json through counts and problems."""

    def write(self, text, **kw):
        import json
        import tempfile
        d = tempfile.mkdtemp()
        with open(os.path.join(d, 'verdict.json'), 'w') as f:
            json.dump(verdict.judge(text, **kw), f)
        return d

    def cli(self, *args):
        import subprocess
        return subprocess.run([sys.executable, '-m', 'harness', 'verdict'] +
                              list(args), cwd=TOP, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True)

    def test_counts_include_problems(self):
        d = self.write(GUEST_OK + 'WARNING: CPU: 1 PID: 1 at x\n')
        r = self.cli('counts', d)
        self.assertEqual(r.stdout.split(), ['2', '1', '1'])
        r = self.cli('problems', d)
        self.assertIn('kernel splat on the console: WARNING: CPU', r.stdout)

    def test_failures_named(self):
        d = self.write(KUNIT + GUEST_OK + 'WARNING: CPU: 1 PID: 1 at x\n')
        lines = self.cli('failures', d).stdout.splitlines()
        self.assertEqual(len(lines), 2, lines)
        self.assertTrue(lines[0].startswith('kunit: '), lines)
        self.assertIn('kernel splat on the console', lines[1])
        self.assertEqual(self.cli('failures', self.write(GUEST_OK)).stdout, '')

    def test_clean_run(self):
        d = self.write(GUEST_OK)
        self.assertEqual(self.cli('counts', d).stdout.split(), ['2', '0', '1'])
        self.assertEqual(self.cli('problems', d).stdout, '')
        self.assertEqual(verdict.exit_status(verdict.load(d)), 0)

    def test_timeout_and_exit_status(self):
        v = verdict.judge(GUEST_OK, timed_out=True)
        self.assertEqual(verdict.exit_status(v), 1)
        v = verdict.judge(GUEST_OK.replace('exit 0', 'exit 7'))
        self.assertEqual(verdict.exit_status(v), 7)

    def test_no_verdict(self):
        import tempfile
        r = self.cli('counts', tempfile.mkdtemp())
        self.assertEqual(r.returncode, 1)
        self.assertIn('no verdict', r.stderr)

    def test_parse_subcommand(self):
        import tempfile
        log = os.path.join(tempfile.mkdtemp(), 'console.log')
        with open(log, 'w') as f:
            f.write(KUNIT + GUEST_OK)
        r = self.cli('parse', log)
        self.assertEqual(r.returncode, 1)           # a KUnit case failed
        self.assertTrue(r.stdout.endswith('5 passed, 1 failed, 2 skipped\n'), r.stdout)


class TestSystemImage(TestVerdictFile):
    """The system image's markers: failed units and the boot journal."""

    def system(self, journal, units=()):
        lines = ['LATNICE-GUEST: start 4 CPUs, kernel 6.12, systemd 252']
        lines += ['LATNICE-JOURNAL: ' + j for j in journal]
        lines += ['LATNICE-JOURNAL-END %d' % len(journal)]
        lines += GUEST_OK.splitlines()[1:-1]
        lines += ['LATNICE-GUEST: failed unit ' + u for u in units]
        return '\n'.join(lines + ['LATNICE-GUEST: exit 0']) + '\n'

    def test_a_failed_unit_fails_the_run(self):
        d = self.write(self.system([], ['lnfail.service', 'x.mount']))
        v = verdict.load(d)
        self.assertEqual(v['failed_units'], ['lnfail.service', 'x.mount'])
        self.assertEqual(self.cli('problems', d).stdout,
                         'systemd unit(s) failed: lnfail.service x.mount\n')
        self.assertEqual(self.cli('counts', d).stdout.split(), ['2', '1', '1'])
        self.assertEqual(verdict.exit_status(v), 1)
        self.assertEqual(verdict.load(self.write(self.system([])))['problems'], [])

    def test_journal_extra(self):
        base = self.write(self.system(['ACPI: fail 12 at 0xff', 'systemd[1]: unit x']))
        same = self.write(self.system(['ACPI: fail 7 at 0xee', 'systemd[1]: unit x']))
        more = self.write(self.system(['ACPI: fail 7 at 0xee', 'sched: latency 5 odd']))
        self.assertEqual(verdict.load(more)['journal'], ['ACPI: fail 7 at 0xee',
                                                         'sched: latency 5 odd'])
        r = self.cli('journal-extra', same, base)
        self.assertEqual((r.returncode, r.stdout), (0, ''))
        r = self.cli('journal-extra', more, base)
        self.assertEqual((r.returncode, r.stdout), (1, 'sched: latency 5 odd\n'))
        # A boot without the journal markers (the initramfs) cannot be compared.
        r = self.cli('journal-extra', more, self.write(GUEST_OK))
        self.assertEqual(r.returncode, 2)
        self.assertIn('no journal', r.stderr)
        # An empty journal is a journal: nothing printed at warning level.
        empty = self.write(self.system([]))
        self.assertEqual(verdict.load(empty)['journal'], [])
        self.assertEqual(self.cli('journal-extra', empty, base).returncode, 0)
        r = self.cli('journal-extra', more, empty)
        self.assertEqual((r.returncode, r.stdout.count('\n')), (1, 2))
        # A piece of a continued kernel line, cut off on one boot only.
        self.assertEqual(verdict.journal_extra([' #2', ' #1 #3', 'real one'], []),
                         ['real one'])
        # Ids that change with every boot are numbers too.
        self.assertEqual(verdict.journal_extra(
            ['machine 3f2a9c0d1e2b4c5d6e7f8091a2b3c4d5 up',
             'fs 123e4567-e89b-12d3-a456-426614174000 mounted'],
            ['machine 00000000aaaaaaaabbbbbbbbcccccccc up',
             'fs 00000000-0000-0000-0000-000000000000 mounted']), [])


class TestQemuCommand(unittest.TestCase):
    def test_qemu_command(self):
        class A:
            topo = '1x8x2'
            accel = 'tcg'
            cpu = 'max'
            memory = '1G'
            append = 'x=1'
            numbering = 'adjacent'
            autogroup = 'off'
            cgroup = 'v2'
            qemu = 'qemu-system-x86_64'
            kernel = 'bz'
            initrd = 'rd'
            root = None
            interactive = False
            icount = ''
        cmd = qemu.qemu_command(A)
        self.assertEqual(cmd[cmd.index('-initrd') + 1], 'rd')
        self.assertNotIn('-drive', cmd)
        self.assertIn('cpus=16,sockets=1,cores=8,threads=2', cmd)
        self.assertIn('tcg,thread=multi', cmd)
        self.assertNotIn('-icount', cmd)
        self.assertEqual(cmd[cmd.index('-append') + 1],
                         'console=ttyS0 panic=-1 loglevel=7 LATNICE_TOPO=1x8x2 sched_verbose '
                         'noautogroup LATNICE_NUMBERING=adjacent x=1')
        # Every LATNICE_* parameter comes from the setting of its name.
        A.numbering, A.autogroup, A.cgroup = 'apart', 'on', 'v1'
        cmd = qemu.qemu_command(A)
        self.assertEqual(cmd[cmd.index('-append') + 1],
                         'console=ttyS0 panic=-1 loglevel=7 LATNICE_TOPO=1x8x2 sched_verbose '
                         'LATNICE_NUMBERING=apart x=1 LATNICE_CGROUP=v1')
        A.numbering, A.autogroup, A.cgroup = 'adjacent', 'off', 'v2'
        # -icount needs single-threaded TCG (QEMU refuses it with MTTCG).
        A.icount = 'shift=0,sleep=off'
        cmd = qemu.qemu_command(A)
        self.assertIn('tcg,thread=single', cmd)
        self.assertEqual(cmd[cmd.index('-icount') + 1], 'shift=0,sleep=off')
        self.assertEqual(cmd[cmd.index('-seed') + 1], '1')
        self.assertIn('norandmaps', cmd[cmd.index('-append') + 1])
        # A root disk: virtio-blk, no initramfs, the kernel mounts it.
        A.root = 'root.img'
        cmd = qemu.qemu_command(A)
        self.assertNotIn('-initrd', cmd)
        self.assertIn('file=root.img,if=virtio,format=raw', cmd)
        self.assertIn('root=/dev/vda rw', cmd[cmd.index('-append') + 1])
        self.assertEqual(cmd[cmd.index('-serial') + 1], 'stdio')
        self.assertIn('loglevel=7', cmd[cmd.index('-append') + 1])
        # A person at the console: QEMU's monitor on Ctrl-A, fewer messages.
        A.interactive = True
        cmd = qemu.qemu_command(A)
        self.assertEqual(cmd[cmd.index('-serial') + 1], 'mon:stdio')
        self.assertIn('loglevel=4', cmd[cmd.index('-append') + 1])


if __name__ == '__main__':
    unittest.main()
