# SPDX-License-Identifier: GPL-2.0
"""Console parsing and result counting of scripts/guestrun.py."""
import os
import sys
import unittest

sys.path.insert(0, os.path.join(os.path.dirname(__file__), '..', '..', 'scripts'))
import guestrun  # noqa: E402

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


class TestKtap(unittest.TestCase):
    def test_leaves_only(self):
        v = guestrun.parse_console(KUNIT + GUEST_OK)
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
        v = guestrun.parse_console(plain + GUEST_OK)
        self.assertEqual(len(v['kunit']), 5)

    def test_ktap_after_start_ignored(self):
        # Kernel results are read from the boot only; a guest program's
        # indented TAP is its own business.
        v = guestrun.parse_console(GUEST_OK + KUNIT)
        self.assertEqual(v['kunit'], [])


class TestGuestTap(unittest.TestCase):
    def test_counts(self):
        v = guestrun.parse_console(GUEST_OK)
        self.assertEqual(guestrun.tally(v), (2, 0, 1))
        self.assertEqual(guestrun.problems(v), [])
        self.assertEqual(v['tests']['topology']['results'][2], ('-R: dash kept', 'pass'))
        self.assertEqual(v['exit'], 0)

    def test_failure_line(self):
        v = guestrun.parse_console(GUEST_OK.replace('ok 1 global', 'not ok 1 global'))
        self.assertEqual(guestrun.tally(v), (1, 1, 1))

    def test_nonzero_exit_without_failed_line(self):
        v = guestrun.parse_console(GUEST_OK.replace('END topology 0', 'END topology 139'))
        self.assertEqual(guestrun.tally(v), (2, 1, 1))

    def test_ksft_skip_exit(self):
        text = GUEST_OK.replace('ok 1 global.cpu_count\n', '').replace(
            'ok 3 - -R: dash kept\n', '').replace(
            'END topology 0', 'END topology 4')
        v = guestrun.parse_console(text)
        self.assertEqual(guestrun.tally(v), (0, 0, 1))

    def test_program_without_tap(self):
        text = ('LATNICE-GUEST: start\nLATNICE-TEST-BEGIN a\nhello\n'
                'LATNICE-TEST-END a 0\nLATNICE-TEST-BEGIN b\n'
                'LATNICE-TEST-END b 2\nLATNICE-GUEST: exit 1\n')
        v = guestrun.parse_console(text)
        self.assertEqual(guestrun.tally(v), (1, 1, 0))
        self.assertEqual(v['exit'], 1)

    def test_program_that_never_ends(self):
        text = 'LATNICE-GUEST: start\nLATNICE-TEST-BEGIN a\nok 1 x\n'
        v = guestrun.parse_console(text)
        self.assertEqual(guestrun.tally(v), (1, 1, 0))
        self.assertIn('did not finish', guestrun.problems(v)[0])

    def test_never_started(self):
        v = guestrun.parse_console('Linux version 6.12\nKernel panic - not syncing\n')
        why = guestrun.problems(v)
        self.assertTrue(any('never started' in w for w in why))
        self.assertTrue(any('splat' in w for w in why))

    def test_timeout_is_a_problem(self):
        v = guestrun.parse_console(GUEST_OK)
        self.assertEqual(guestrun.problems(v, timed_out=True), ['QEMU timed out'])


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
            v = guestrun.parse_console(GUEST_OK + line + '\n')
            self.assertEqual(v['splats'], [line.strip()], line)
            self.assertTrue(guestrun.problems(v), line)

    def test_benign_lines(self):
        for line in self.BENIGN:
            v = guestrun.parse_console(line + '\n' + GUEST_OK)
            self.assertEqual(v['splats'], [], line)


class TestTopo(unittest.TestCase):
    def test_parse(self):
        self.assertEqual(guestrun.parse_topo('2x4x2'), (2, 4, 2))
        for bad in ('2x4', 'axbxc', '0x4x2', '4x8x4', '2x4x2x1', ''):
            with self.assertRaises(ValueError, msg=bad):
                guestrun.parse_topo(bad)

    def test_qemu_command(self):
        class A:
            topo = '1x8x2'
            accel = 'tcg'
            cpu = 'max'
            memory = '1G'
            append = 'x=1'
            qemu = 'qemu-system-x86_64'
            kernel = 'bz'
            initrd = 'rd'
            icount = ''
        cmd = guestrun.qemu_command(A)
        self.assertIn('cpus=16,sockets=1,cores=8,threads=2', cmd)
        self.assertIn('tcg,thread=multi', cmd)
        self.assertNotIn('-icount', cmd)
        self.assertTrue(cmd[cmd.index('-append') + 1].endswith('LATNICE_TOPO=1x8x2 x=1'))
        # -icount needs single-threaded TCG (QEMU refuses it with MTTCG).
        A.icount = 'shift=0,sleep=off'
        cmd = guestrun.qemu_command(A)
        self.assertIn('tcg,thread=single', cmd)
        self.assertEqual(cmd[cmd.index('-icount') + 1], 'shift=0,sleep=off')
        self.assertEqual(cmd[cmd.index('-seed') + 1], '1')
        self.assertIn('norandmaps', cmd[cmd.index('-append') + 1])


if __name__ == '__main__':
    unittest.main()
