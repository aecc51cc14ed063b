# SPDX-License-Identifier: GPL-2.0
"""The scenario loader (harness/scenario.py) and the scenarios themselves."""
import io
import os
import tempfile
import unittest
from contextlib import redirect_stderr, redirect_stdout

from harness import scenario

TOP = os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..')

GOOD = """\
# A comment.
title: a test boot
order: 5
targets: check bisect
topo: 1x2x2
append: foo=1
cgroup: v1
icount: yes
autogroup: off
numbering: apart
program: a /tests/a -v
program: b sh -c 'x y'
"""


def mock_stderr():
    return redirect_stderr(io.StringIO())


class TestParse(unittest.TestCase):
    def test_good(self):
        sc = scenario.parse(GOOD, 'x')
        self.assertEqual(sc.topo, '1x2x2')
        self.assertEqual(sc.targets, {'check', 'bisect'})
        self.assertEqual(sc.order, 5)
        self.assertTrue(sc.icount)
        self.assertEqual(sc.programs, [('a', '/tests/a -v'), ('b', "sh -c 'x y'")])
        self.assertEqual((sc.append, sc.cgroup), ('foo=1', 'v1'))
        self.assertFalse(sc.autogroup)
        self.assertEqual(sc.numbering, 'apart')

    def test_defaults(self):
        sc = scenario.parse('title: t\ntopo: 2x4x2\nprogram: a b\n', 'x')
        self.assertEqual((sc.cgroup, sc.icount, sc.autogroup, sc.targets),
                         ('v2', False, None, set()))
        self.assertEqual(sc.append, '')

    def test_bad(self):
        cases = {
            'topo: 2x4\n': 'topology must be',
            'topo: 4x8x4\n': 'need 1..64 CPUs',
            'cgroup: v3\n': 'cgroup must be v1 or v2',
            'icount: maybe\n': 'icount must be yes or no',
            'autogroup: yes\n': 'autogroup must be on or off',
            'numbering: intel\n': 'numbering must be adjacent or apart',
            'targets: check bench\n': 'unknown target(s) bench',
            'order: soon\n': 'order must be a number',
            'colour: red\n': 'not "key: value"',
            'no colon here\n': 'not "key: value"',
            'program: lonely\n': 'a name and a command',
            'rootfs: debian\n': 'rootfs must be system',
            'kernel: mainline\n': 'kernel must be patched or baseline',
            'journal-of: Sys tem\n': 'journal-of names a scenario',
            'journal-of: system\n': 'journal-of needs kernel: baseline and rootfs: system',
            'rootfs: system\ncgroup: v1\n': 'takes neither cgroup: v1 nor numbering: apart',
            'kernel: baseline\ntargets: bisect\n': 'kernel: baseline is for make check only',
        }
        base = 'title: t\ntopo: 2x4x2\nprogram: a b\n'
        for line, why in cases.items():
            with self.assertRaises(scenario.ScenarioError, msg=line) as cm:
                scenario.parse(base + line, 'x')
            self.assertIn(why, str(cm.exception), line)
        for text, why in (('topo: 2x4x2\nprogram: a b\n', 'no title'),
                          ('title: t\nprogram: a b\n', 'no topo'),
                          ('title: t\ntopo: 2x4x2\n', 'no program'),
                          (base + 'program: a c\n', 'a program name twice')):
            with self.assertRaises(scenario.ScenarioError) as cm:
                scenario.parse(text, 'x')
            self.assertIn(why, str(cm.exception))


class TestFolder(unittest.TestCase):
    def setUp(self):
        self.d = tempfile.mkdtemp()

    def put(self, name, text):
        with open(os.path.join(self.d, name), 'w') as f:
            f.write(text)

    def test_order_and_targets(self):
        self.put('zeta', 'title: z\norder: 1\ntargets: check\ntopo: 1x1x1\nprogram: a b\n')
        self.put('alpha', 'title: a\norder: 2\ntargets: check bisect\ntopo: 1x1x1\n'
                 'program: a b\n')
        self.put('beta', 'title: b\norder: 2\ntargets: bisect\ntopo: 1x1x1\nprogram: a b\n')
        self.put('README.md', 'not a scenario: upper case and a dot')
        self.assertEqual([s.name for s in scenario.scenarios('check', self.d)],
                         ['zeta', 'alpha'])
        self.assertEqual([s.name for s in scenario.scenarios('bisect', self.d)],
                         ['alpha', 'beta'])

    def test_system_and_baseline(self):
        sys_ = 'title: s\ntargets: check\ntopo: 1x2x2\nrootfs: system\nprogram: a b\n'
        self.put('sys', sys_)
        self.put('base', sys_ + 'kernel: baseline\njournal-of: sys\n')
        sc = scenario.load('base', self.d)
        self.assertEqual((sc.rootfs, sc.kernel, sc.journal_of),
                         ('system', 'baseline', 'sys'))
        self.assertEqual(scenario.load('sys', self.d).kernel, 'patched')

        def cli(*args):
            out = io.StringIO()
            with redirect_stdout(out):
                rc = scenario.main(list(args), self.d)
            return rc, out.getvalue()
        self.assertEqual(cli('kernels', 'check'), (0, 'patched\nbaseline\n'))
        self.assertEqual(cli('journals', 'check'), (0, 'base sys\n'))
        self.assertEqual(cli('kernels', 'bisect'), (0, ''))
        # A journal compared with a scenario the target does not boot.
        self.put('sys', sys_.replace('targets: check', 'targets: bisect'))
        with redirect_stdout(io.StringIO()), \
                mock_stderr() as err:
            self.assertEqual(scenario.main(['journals', 'check'], self.d), 1)
        self.assertIn('journal-of sys, which target check does not boot', err.getvalue())
        # ... or one that is not the patched kernel on the system image.
        self.put('sys', sys_.replace('rootfs: system\n', ''))
        with redirect_stdout(io.StringIO()), mock_stderr() as err:
            self.assertEqual(scenario.main(['journals', 'check'], self.d), 1)
        self.assertIn('does not boot the patched kernel on the system image', err.getvalue())

    def test_cli(self):
        self.put('one', GOOD)
        out = io.StringIO()
        with redirect_stdout(out):
            self.assertEqual(scenario.main(['list', 'check'], self.d), 0)
        self.assertEqual(out.getvalue(), 'one\n')
        with redirect_stdout(io.StringIO()), mock_stderr():
            self.assertEqual(scenario.main(['list', 'bench'], self.d), 1)
            self.assertEqual(scenario.main(['show'], self.d), 2)
            self.assertEqual(scenario.main(['shell', 'one'], self.d), 2)


class TestProjectScenarios(unittest.TestCase):
    """The scenarios make check and make bisect boot."""

    def test_all_load(self):
        for name in scenario.names():
            scenario.load(name)

    def test_check_covers_what_it_did(self):
        check = {s.name: s for s in scenario.scenarios('check')}
        self.assertEqual(list(check), ['main', 'llc16', 'apart', 'cgroup-v1', 'slice',
                                       'pack-icount', 'system-baseline', 'keys', 'system',
                                       'first-sensitive', 'autogroup'])
        # The Debian system: systemd as PID 1 in repeatable time, where its
        # latency check judges microseconds; the only boot without the
        # initramfs.
        self.assertEqual([n for n, s in check.items() if s.rootfs],
                         ['system-baseline', 'system'])
        # Its boot journal against the unpatched kernel's on the same image.
        self.assertEqual([n for n, s in check.items() if s.kernel == 'baseline'],
                         ['system-baseline'])
        self.assertEqual(check['system-baseline'].journal_of, 'system')
        self.assertEqual(check['system-baseline'].topo, check['system'].topo)
        self.assertTrue(check['system'].icount)
        self.assertIn('LATNICE_SYSTEM_REPEATABLE=1', dict(check['system'].programs)['system'])
        # The keys test alone in its boot: it can fail only as the first value.
        self.assertEqual(list(dict(check['keys'].programs).values()),
                         ['env LATENCY_NICE_FIRST_VALUE=1 /tests/latency_nice_test '
                          '-t kept_value_acts_after_reset_on_fork'])
        # So is the count's: the first latency sensitive value, a group's.
        self.assertEqual(list(dict(check['first-sensitive'].programs).values()),
                         ['env LATENCY_NICE_FIRST_SENSITIVE=1 /tests/latency_nice_count_test '
                          '-t first_sensitive_value_counts_queued_tasks'])
        self.assertEqual(check['main'].topo, '2x4x2')
        self.assertEqual(check['llc16'].topo, '1x8x2')
        self.assertEqual(check['cgroup-v1'].cgroup, 'v1')
        # Repeatable time on one CPU (-icount is unreliable with more).
        self.assertEqual((check['slice'].icount, check['slice'].topo),
                         (True, '1x1x1'))
        # Packing over time with tasks the guest measures as small, in
        # repeatable time: two LLCs of 8, so that the threads free on
        # every CPU can cross them.
        self.assertEqual((check['pack-icount'].icount, check['pack-icount'].topo),
                         (True, '2x4x2'))
        self.assertIn('LATENCY_NICE_PACK_REQUIRE_SMALL=1',
                      dict(check['pack-icount'].programs)['latency_nice_pack_mix_test'])
        # Autogroup in one boot of its own, off (the setting) elsewhere.
        self.assertEqual([n for n, s in check.items() if s.autogroup is not None],
                         ['autogroup'])
        # The placement test also runs with siblings numbered apart.
        self.assertEqual([n for n, s in check.items() if s.numbering], ['apart'])
        placement = ['latency_nice_%s_test' % f for f in ('search', 'light_load', 'good_enough',
                                                          'protect', 'pack', 'pack_mix')]
        for name in ('main', 'apart', 'llc16'):
            self.assertEqual([p for p, _ in check[name].programs if p in placement], placement,
                             name)
        # The test config has core scheduling, so the good-enough test's
        # cookie cases must not skip wherever it runs.
        with open(os.path.join(TOP, 'configs', 'latnice.config')) as f:
            self.assertIn('CONFIG_SCHED_CORE=y\n', f.readlines())
        for s in check.values():
            cmd = dict(s.programs).get('latency_nice_good_enough_test')
            if cmd:
                self.assertIn('LATENCY_NICE_REQUIRE_CORE=1', cmd, s.name)
        # The slice face's five tests run in repeatable time.
        self.assertEqual([p for p, _ in check['slice'].programs],
                         ['latency_nice_%s_test' % f
                          for f in ('slice', 'round_trip', 'tail', 'share', 'departure')])
        self.assertTrue(check['autogroup'].autogroup)
        progs = {p for s in check.values() for p, _ in s.programs}
        self.assertTrue({'topology', 'latency_nice_test', 'latnice-tool',
                         'latency_nice_search_test', 'latency_nice_cgroup_test',
                         'latency_nice_slice_test'} | set(placement) <= progs)
        self.assertEqual([s.name for s in scenario.scenarios('bisect')], ['main'])

    def test_programs_exist(self):
        # Every /tests/NAME a scenario runs is a guest program, a guest
        # script or a selftest of the series (built from its Makefile).
        import re
        known = {os.path.splitext(f)[0] for f in os.listdir(os.path.join(TOP, 'tests', 'guest'))}
        known.add('latnice')
        # The selftests the series adds: new files of tools/testing/selftests/sched.
        new = re.compile(r'^\+\+\+ b/tools/testing/selftests/sched/(\w+)\.c$', re.M)
        pdir = os.path.join(TOP, 'patches')
        for f in os.listdir(pdir):
            with open(os.path.join(pdir, f)) as fh:
                text = fh.read()
            for m in new.finditer(text):
                if '--- /dev/null\n' + m.group(0) in text:
                    known.add(m.group(1))
        self.assertIn('latency_nice_slice_test', known)
        # scripts/build-programs.sh: the ABI and permission tests again, as i386
        # programs.
        if 'latency_nice_test' in known:
            known.add('latency_nice_test_32')
        if 'latency_nice_privilege_test' in known:
            known.add('latency_nice_privilege_test_32')
        for s in scenario.scenarios('check'):
            for _, cmd in s.programs:
                for prog in re.findall(r'/tests/([\w.-]+)', cmd):
                    self.assertIn(os.path.splitext(prog)[0], known, cmd)


if __name__ == '__main__':
    unittest.main()
