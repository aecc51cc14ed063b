# SPDX-License-Identifier: GPL-2.0
"""make bench on the host: the registry of figures and --only, the plan, the
guest script, a fake run (the results layout, the figures read back from
each boot's verdict.json) and the runner; each figure's tables and claims
are in test_figures.py."""
import contextlib
import io
import json
import os
import shutil
import subprocess
import tempfile
import unittest
from unittest import mock

from bench import bench, figures, report, runner
from harness import settings, verdict

from .bench_fakes import QUICK_LLC, fake_data

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))


class TestPlan(unittest.TestCase):
    def test_shares_of_the_rfc_thread_counts(self):
        # 8..128 threads of 88 CPUs, as shares of 16 CPUs.
        self.assertEqual([figures.unused.pairs_for(t, 16) for t in figures.unused.RFC_THREADS],
                         [1, 3, 6, 9, 12, 23])
        self.assertEqual(figures.unused.pairs_for(8, 8), 1)

    def test_plan(self):
        for mode in figures.MODES:
            p = figures.search.LLC_MODES[mode]
            boots = figures.plan(mode, figures.select('1,2,3,4'))
            names = [b.name for b in boots]
            self.assertEqual(len(names), len(set(names)), mode)
            for llc in p['llc']:
                self.assertIn('bench-llc%d-baseline' % llc, names)
                b = boots[names.index('bench-llc%d-patched' % llc)]
                # 4 values x SIS_CORE/NO x SIS_UTIL/NO, then placement: 4 x 2.
                self.assertEqual(len(b.runs), 16 + 8, mode)
                self.assertEqual([r.figure for r in b.runs], ['1'] * 16 + ['2'] * 8)
                self.assertEqual(b.topo, '1x%dx2' % (llc // 2))
                self.assertEqual(b.mode, 'icount')
            for b in boots:
                ids = [r.id for r in b.runs]
                self.assertEqual(len(ids), len(set(ids)), b.name)
                if b.kernel == 'baseline':
                    # The baseline kernel has no latency nice and no SIS_CORE.
                    for r in b.runs:
                        self.assertIsNone(r.value)
                        self.assertNotIn('SIS_CORE', ' '.join(r.features))
            # Figure 4's runs join figure 3's boot of the patched kernel.
            b = boots[names.index('bench-unused-patched')]
            self.assertEqual(sorted({r.figure for r in b.runs}), ['3', '4'])
        self.assertEqual([b.name for b in figures.plan('quick', figures.select('1,2'))][:2],
                         ['bench-llc8-baseline', 'bench-llc8-patched'])
        # Figure 12 boots the Debian system image, without schedstats.
        b12 = figures.plan('quick', figures.select('12'))
        self.assertEqual([(b.name, b.rootfs, b.schedstats) for b in b12],
                         [('bench-pgbench-baseline', 'system', False),
                          ('bench-pgbench-patched', 'system', False)])
        self.assertEqual(runner.boot_settings(b12[0], settings.load(env={}))['ROOTFS'],
                         'system')
        text = runner.guest_script(b12[1])
        self.assertIn('sh /extra/pgbench.sh -T 5 -c 4 -d -10 -l 19', text)
        self.assertNotIn('lnbench', text)
        self.assertFalse([b for b in figures.plan('quick', figures.select('3'))
                          if 'llc' in b.name])
        # One figure: only its runs.
        one = figures.plan('quick', figures.select('2'))
        self.assertEqual({r.figure for b in one for r in b.runs}, {'2'})
        self.assertEqual(len(one), 2 * len(QUICK_LLC['llc']))

    def test_guest_script(self):
        runs = [figures.Run('1', 'search', None, ('SIS_UTIL',), ['rtt', '-n', 5], llc=8),
                figures.Run('1', 'search', -19, ('NO_SIS_CORE',), ['rtt', '-n', 5], llc=8)]
        text = runner.guest_script(figures.Boot('b', 'patched', '1x4x2', 'icount', True, runs))
        lines = text.splitlines()
        self.assertIn('echo 1 > /proc/sys/kernel/sched_schedstats', lines)
        one = [x for x in lines if runs[0].id + '"' in x][0]
        two = [x for x in lines if runs[1].id + '"' in x][0]
        self.assertIn('echo SIS_UTIL > $F;', one)
        self.assertNotIn('latnice', one)
        self.assertIn('/tests/latnice -n -19 /extra/lnbench rtt -n 5', two)
        self.assertTrue(text.endswith('exit $failed\n'))


def fake_registry(extra):
    return figures.registry(*(list(figures.FIGURES.values()) + [extra]))


def figure20():
    def plan(p):
        return [figures.Boot('bench-twenty', 'patched', '1x2x2', 'wall', False,
                             [figures.Run('20', 'noop', None, (), ['rtt', '-n', p['n']])])]
    return figures.Figure('20', 'A twentieth', {'quick': dict(n=1), 'full': dict(n=2)}, plan,
                          lambda records, p: '## 20\n', needs=('2',))


class TestRegistry(unittest.TestCase):
    def test_only_from_the_registry(self):
        every = ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12', '13', '14',
                 '15', '16']
        self.assertEqual(list(figures.FIGURES), every)
        self.assertEqual(figures.select(''), every)
        self.assertEqual(figures.select(None), every)
        # Ids only with commas: '12' is figure 12, never 1 and 2.
        self.assertEqual(figures.select('12'), ['12'])
        self.assertEqual(figures.select('1,2'), ['1', '2'])
        self.assertEqual(figures.select('2,1'), ['1', '2'])
        self.assertEqual(figures.select('3,4'), ['3', '4'])
        # Figure 4's baseline column is figure 3's runs.
        self.assertEqual(figures.select('4'), ['3', '4'])
        self.assertEqual(figures.select('10'), ['10'])
        self.assertEqual(figures.select('1,10'), ['1', '10'])
        for bad in ('0', '20', '1,x', '3w', ',', '34', '21'):
            with self.assertRaises(ValueError) as e:
                figures.select(bad)
            self.assertIn('the figures are 1, 2, 3, 4, 5', str(e.exception))
        with self.assertRaises(ValueError) as e:
            figures.select('1,20')
        self.assertIn('unknown figure 20', str(e.exception))

    def test_a_new_entry_is_a_new_figure(self):
        reg = fake_registry(figure20())
        self.assertEqual(figures.select('20', reg), ['2', '20'])
        self.assertEqual(figures.select('', reg),
                         ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11', '12', '13',
                          '14', '15', '16', '20'])
        boots = figures.plan('full', ['20'], reg)
        self.assertEqual([b.name for b in boots], ['bench-twenty'])
        self.assertEqual(boots[0].runs[0].cmd, ['rtt', '-n', 2])
        # Not in the real registry.
        with self.assertRaises(ValueError):
            figures.select('20')

    def test_registry_checks(self):
        bad = figure20()
        bad.modes = {'quick': {}}
        with self.assertRaises(ValueError):
            fake_registry(bad)
        with self.assertRaises(ValueError):
            figures.registry(figure20())        # needs figure 2, absent
        with self.assertRaises(ValueError):
            fake_registry(figures.FIGURES['1'])  # registered twice
        # Two figures that plan one boot differently.
        clash = figure20()
        clash.needs = ()
        clash.plan = lambda p: [figures.Boot('bench-llc8-patched', 'patched', '1x2x2',
                                             'wall', False, [])]
        reg = fake_registry(clash)
        with self.assertRaises(ValueError):
            figures.plan('quick', ['1', '20'], reg)
        with self.assertRaises(ValueError):
            figures.plan('slow', ['1'])

    def test_command_line(self):
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            self.assertEqual(bench.main(['--plan', '--only', '0']), 2)
            self.assertEqual(bench.main(['--plan', '--mode', 'slow']), 2)
        self.assertIn('bench: unknown figure 0', err.getvalue())
        self.assertIn('use quick or full', err.getvalue())
        self.assertEqual(out.getvalue(), '')
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            self.assertEqual(bench.main(['--plan', '--only', '1,2']), 0)
        lines = out.getvalue().splitlines()
        self.assertEqual(lines[0], 'bench-llc8-baseline: baseline kernel, 1x4x2, icount, 3 runs')
        self.assertTrue(lines[1].startswith('    1-search-def-SIS_UTIL-NO_DELAY_DEQUEUE-llc8: '
                                            'rtt -n 160 -b 1,2,3,4,5,6,7'))
        self.assertFalse([x for x in lines if 'unused' in x])


# ---------------------------------------------------------------- a fake run

def console(boot, data, rc=lambda r: 0, cut=None):
    lines = ['[    0.100000] Linux version 6.12.0', 'LATNICE-GUEST: start']
    failed = 0
    for r in boot.runs:
        if r.id == cut:
            break
        lines.append('LATNICE-TEST-BEGIN %s' % r.id)
        d = data(boot, r)
        if d:
            lines.append('BENCH ' + ' '.join('%s=%s' % kv for kv in d.items()))
        lines.append('LATNICE-TEST-END %s %d' % (r.id, rc(r)))
        failed += rc(r) != 0
    else:
        lines.append('LATNICE-GUEST: exit %d' % failed)     # as guest_script's
    return '\n'.join(lines) + '\n'


class FakeBoots:
    """boot_one for bench.run(): writes what harness/qemu.py writes, a
    verdict.json judged by harness/verdict.py, into the boot's folder; and
    a console.log that lies, to show that nothing reads it."""

    def __init__(self, rc=lambda r: 0, cut=None, skip=()):
        self.rc, self.cut, self.skip, self.calls = rc, cut, skip, []

    def __call__(self, boot, folder, i, total):
        self.calls.append((boot.name, folder, i, total))
        if boot.name in self.skip:
            return 1
        text = console(boot, fake_data, self.rc, self.cut)
        with open(os.path.join(folder, 'console.log'), 'w') as f:
            f.write(console(boot, lambda b, r: dict(probes=999, tps=1)))
        v = verdict.judge(text, False, qemu_command=['qemu-system-x86_64', '-smp', boot.topo],
                          topology=boot.topo)
        with open(os.path.join(folder, 'verdict.json'), 'w') as f:
            json.dump(v, f)
        return verdict.exit_status(v)


META = dict(version='6.12.0-test', mode='quick', icount='shift=0,sleep=off')


class TestFakeRun(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.out = os.path.join(self.tmp, '20270101-000000-bench')
        os.makedirs(self.out)
        # No gnuplot on PATH: the report says so and goes on.
        os.symlink(shutil.which('sh'), os.path.join(self.tmp, 'sh'))
        self.path = mock.patch.dict(os.environ, {'PATH': self.tmp})

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def run_bench(self, ids, fake):
        boots = figures.plan('quick', ids)
        with self.path, contextlib.redirect_stdout(io.StringIO()) as out:
            data, text, missing = bench.run(boots, self.out, fake, ids, **META)
        return boots, data, text, missing, out.getvalue()

    def test_layout_and_figures_from_verdicts(self):
        fake = FakeBoots()
        ids = figures.select('')
        boots, data, text, missing, out = self.run_bench(ids, fake)
        # One folder: the bench's files, its boots nested.
        self.assertEqual(sorted(os.listdir(self.out)),
                         ['boots', 'runs.csv', 'runs.json', 'tables.md'])
        self.assertEqual(sorted(os.listdir(os.path.join(self.out, 'boots'))),
                         sorted(b.name for b in boots))
        self.assertEqual([c[0] for c in fake.calls], [b.name for b in boots])
        for name, folder, i, total in fake.calls:
            self.assertEqual(folder, os.path.join(self.out, 'boots', name))
            self.assertTrue(os.path.isfile(os.path.join(folder, 'verdict.json')))
        self.assertEqual(total, len(boots))
        self.assertIn('gnuplot is missing', out)
        self.assertEqual(missing, [])
        # runs.json: paths relative to the bench folder.
        with open(os.path.join(self.out, 'runs.json')) as f:
            saved = json.load(f)
        self.assertEqual(saved, data)
        self.assertNotIn(self.tmp, json.dumps(saved))
        self.assertEqual(saved['figures'], ['1', '2', '3', '4', '5', '6', '7', '8', '9', '10', '11',
                                            '12', '13', '14', '15', '16'])
        for b in saved['boots']:
            self.assertEqual(b['results'], 'boots/' + b['name'])
            self.assertEqual(b['exit'], 0)
            self.assertEqual(b['problems'], [])
            self.assertEqual(b['qemu'], 'qemu-system-x86_64 -smp ' + b['topo'])
        self.assertEqual(len(saved['runs']), sum(len(b.runs) for b in boots))
        # The figures are verdict.json's, typed; console.log's lies are not.
        r = report.find(saved['runs'], figure='1', kernel='patched', llc=8, value=-19,
                        util='NO_SIS_UTIL', core='SIS_CORE')
        self.assertEqual((r['probes'], r['scans'], r['rtt_ns']), (320, 160, 50000.5))
        self.assertEqual((r['results'], r['boot'], r['rc'], r['ok']),
                         ('boots/bench-llc8-patched', 'bench-llc8-patched', 0, True))
        self.assertEqual(r['mode'], 'icount')      # the boot's mode, not lnbench's
        self.assertFalse([x for x in saved['runs'] if x.get('probes') == 999 or
                          x.get('tps') == 1])
        # The tables and the claims.
        with open(os.path.join(self.out, 'tables.md')) as f:
            self.assertEqual(f.read(), text)
        for head in ('## 1. ', '## 2. ', '## 3. ', '## 4. ', '## What emulation'):
            self.assertIn(head, text)
        self.assertIn('at every LLC size: holds (16 runs)', text)
        self.assertIn('budget per search: holds (32 runs)', text)
        self.assertIn('| 8 | -19 | 2.00 | 20 | 0.0 | 50000 | 50000 | 0.00 |', text)
        self.assertIn('| 8 | patched | -10 | SIS_CORE | 0.0 | 25.0 | 75.0 | 0.0 |', text)
        self.assertIn('`qemu-system-x86_64 -smp 1x4x2`', text)
        self.assertNotIn('Runs without a result', text)
        with open(os.path.join(self.out, 'runs.csv')) as f:
            self.assertEqual(len(f.read().splitlines()), 1 + len(saved['runs']))

        # --report: the same tables again, from runs.json alone.
        shutil.rmtree(os.path.join(self.out, 'boots'))
        os.unlink(os.path.join(self.out, 'tables.md'))
        with self.path, contextlib.redirect_stdout(io.StringIO()) as o:
            self.assertEqual(bench.main(['--report', self.out]), 0)
        with open(os.path.join(self.out, 'tables.md')) as f:
            self.assertEqual(f.read(), text)
        self.assertIn(text, o.getvalue())
        # An older runs.json: --only as a string, no figure ids.
        saved.pop('figures')
        saved['only'] = '4'
        with open(os.path.join(self.out, 'runs.json'), 'w') as f:
            json.dump(saved, f)
        with self.path, contextlib.redirect_stdout(io.StringIO()):
            bench.main(['--report', self.out])
        with open(os.path.join(self.out, 'tables.md')) as f:
            again = f.read()
        self.assertIn('## 3. ', again)
        self.assertIn('## 4. ', again)
        self.assertNotIn('## 1. ', again)

    def test_runs_without_a_result(self):
        boots = figures.plan('quick', ['1'])
        failing = boots[1].runs[3].id
        cut = boots[3].runs[5].id
        fake = FakeBoots(rc=lambda r: 1 if r.id == failing else 0, cut=cut,
                         skip=(boots[4].name,))
        boots, data, text, missing, out = self.run_bench(['1'], fake)
        by_boot = {b['name']: b for b in data['boots']}
        # A run that failed, a boot that stopped mid-way, one with no verdict.
        self.assertEqual(by_boot[boots[1].name]['exit'], 1)
        self.assertIn('the guest did not finish', ' '.join(by_boot[boots[3].name]['problems']))
        self.assertIn('no verdict.json', ' '.join(by_boot[boots[4].name]['problems']))
        # The records follow the plan: boot by boot, run by run.
        where = [(b.name, i) for b in boots for i in range(len(b.runs))]
        self.assertEqual(len(where), len(data['runs']))
        notok = {where[k] for k, r in enumerate(data['runs']) if not r['ok']}
        want = {(boots[1].name, 3)} | {(boots[3].name, i) for i in range(5, len(boots[3].runs))} \
            | {(boots[4].name, i) for i in range(len(boots[4].runs))}
        self.assertEqual(notok, want)
        self.assertEqual(len(missing), len(want))
        self.assertEqual(data['runs'][where.index((boots[1].name, 3))]['rc'], 1)
        self.assertIn('Runs without a result: ', text)
        self.assertIn('Boots that failed: %s' % boots[3].name, text)
        # Those runs carry no counters: the claims fail.
        self.assertIn('FAILS', text)
        with self.path, contextlib.redirect_stdout(io.StringIO()):
            self.assertEqual(bench.main(['--report', self.out]), 1)


class TestRunner(unittest.TestCase):
    def test_boot_settings(self):
        s = settings.load(env={'ICOUNT': 'x'})
        icount = figures.Boot('b', 'baseline', '1x4x2', 'icount', True, [])
        wall = figures.Boot('b', 'patched', '1x8x2', 'wall', False, [])
        cfg = runner.boot_settings(icount, s)
        self.assertEqual(cfg['KERNEL'], os.path.join(s['BASE_OBJ'], 'arch/x86/boot/bzImage'))
        self.assertEqual(cfg['ICOUNT'], s['ICOUNT_REPEATABLE'])
        self.assertTrue(cfg['ICOUNT'])
        self.assertEqual((cfg['TOPO'], cfg['ACCEL'], cfg['GUEST_TIMEOUT'], cfg['SHOW']),
                         ('1x4x2', 'tcg', s['BENCH_TIMEOUT'], 'none'))
        cfg = runner.boot_settings(wall, settings.load(env={'SHOW': 'progress'}))
        self.assertEqual(cfg['KERNEL'], os.path.join(s['BENCH_OBJ'], 'arch/x86/boot/bzImage'))
        self.assertNotEqual(s['BENCH_OBJ'], s['OBJ'])
        self.assertEqual((cfg['ICOUNT'], cfg['SHOW']), ('', 'progress'))
        s = settings.load(env={'BUILD': '/elsewhere', 'BENCH_TIMEOUT': '7'})
        self.assertEqual(runner.lnbench_path(s), '/elsewhere/bench/lnbench')
        self.assertEqual(runner.kernel_of('baseline', s),
                         '/elsewhere/obj-bench-baseline/arch/x86/boot/bzImage')
        self.assertEqual(runner.boot_settings(wall, s)['GUEST_TIMEOUT'], '7')

    def test_boot(self):
        """harness/boot.py's boot(): the bench's boot folder, the guest
        script, lnbench and latnice; the boot's settings."""
        tmp = tempfile.mkdtemp()
        seen = {}

        def fake(cfg, results, cmdfile, files):
            with open(cmdfile) as f:
                seen.update(cfg=cfg, results=results, cmdfile=cmdfile, files=files,
                            script=f.read())
            return 3
        try:
            s = settings.load(env={'BUILD': os.path.join(tmp, 'build')})
            b = figures.plan('quick', ['1'])[1]
            folder = os.path.join(tmp, 'out', 'boots', b.name)
            prog = os.path.join(tmp, 'lnbench')
            latnice = os.path.join(s['PROGRAMS'], 'latnice')
            for f in (prog, latnice):
                os.makedirs(os.path.dirname(f), exist_ok=True)
                open(f, 'w').close()
            with mock.patch.object(runner.harness_boot, 'boot', fake), \
                    contextlib.redirect_stdout(io.StringIO()) as out:
                rc = runner.boot(b, folder, 2, 13, s, prog)
            self.assertEqual(rc, 3)
            self.assertIn('==> [2/13] patched kernel, 1x4x2, icount mode: 16 runs',
                          out.getvalue())
            self.assertIn('%s: done in' % b.name, out.getvalue())
            self.assertEqual(seen['results'], folder)
            self.assertFalse(os.path.exists(seen['cmdfile']))      # the temporary script
            self.assertEqual(seen['script'], runner.guest_script(b))
            self.assertEqual(seen['files'], [('/extra/lnbench', prog), ('/tests/latnice', latnice)])
            self.assertEqual((seen['cfg']['TOPO'], seen['cfg']['ICOUNT'], seen['cfg']['ACCEL']),
                             ('1x4x2', s['ICOUNT_REPEATABLE'], 'tcg'))
            self.assertEqual(os.listdir(folder), [])
            # A boot that cannot start: its error, exit 1.
            os.unlink(prog)
            with contextlib.redirect_stdout(io.StringIO()) as out:
                self.assertEqual(runner.boot(b, folder, 2, 13, s, prog), 1)
            self.assertIn('error: file to put in the guest not found: ' + prog, out.getvalue())
        finally:
            shutil.rmtree(tmp)

    def test_no_default_written_again(self):
        """Paths and versions come from scripts/settings, not bench code."""
        names = ['bench.py', 'runner.py', 'report.py']
        names += [os.path.join('figures', f) for f in sorted(os.listdir(
            os.path.join(TOP, 'bench', 'figures'))) if f.endswith('.py')]
        for name in names:
            with open(os.path.join(TOP, 'bench', name)) as f:
                text = f.read()
            for word in ('obj-patched', 'obj-bench', 'linux-base', "'build'",
                         "'results'", '6.12.1', 'lib.sh', 'guest.sh', "'programs', 'latnice'"):
                self.assertNotIn(word, text, name)
        self.assertFalse(os.path.exists(os.path.join(TOP, 'scripts', 'bench.py')))
        with open(os.path.join(TOP, 'Makefile')) as f:
            self.assertIn('python3 -m bench', f.read())

    def test_stale(self):
        tmp = tempfile.mkdtemp()
        try:
            a, b, t = (os.path.join(tmp, x) for x in ('a.c', 'b.h', 'prog'))
            for x in (a, b):
                open(x, 'w').close()
                os.utime(x, (100, 100))
            self.assertTrue(runner.stale(t, (a, b)))
            open(t, 'w').close()
            os.utime(t, (200, 200))
            self.assertFalse(runner.stale(t, (a, b)))
            os.utime(b, (300, 300))          # the shared header changed
            self.assertTrue(runner.stale(t, (a, b)))
        finally:
            shutil.rmtree(tmp)
        self.assertEqual([os.path.relpath(x, TOP) for x in runner.LNBENCH_SOURCES],
                         ['bench/lnbench/%s.c' % f for f in
                          ('common', 'cyclictest', 'main', 'messaging', 'noise', 'pack',
                           'pingpong', 'rtt', 'share', 'wakeup')] +
                         ['bench/lnbench/lnbench.h', 'tests/guest/cpulist.h'])

    @unittest.skipUnless(shutil.which('gcc'), 'no gcc')
    def test_lnbench(self):
        """lnbench builds with the shared cpulist parser, warns about nothing
        of its own, and refuses a -b that is not a cpulist."""
        src = ''
        for path in runner.LNBENCH_SOURCES[:-1]:
            with open(path) as f:
                src += f.read()
        self.assertIn('#include "cpulist.h"', src)
        self.assertNotIn('parse_cpulist', src)
        # One file per workload, none over about 500 lines.
        for path in runner.LNBENCH_SOURCES[:-1]:
            with open(path) as f:
                self.assertLess(len(f.readlines()), 500, path)
        tmp = tempfile.mkdtemp()
        try:
            s = {'BUILD': tmp}
            with contextlib.redirect_stderr(io.StringIO()):
                try:
                    prog = runner.build_lnbench(s)
                except subprocess.CalledProcessError:
                    self.skipTest('no static C library')
            self.assertEqual(prog, os.path.join(tmp, 'bench', 'lnbench'))
            r = subprocess.run(runner.lnbench_command(os.path.join(tmp, 'again')),
                               stderr=subprocess.PIPE, text=True)
            self.assertEqual(r.returncode, 0, r.stderr)
            self.assertNotIn('lnbench/', r.stderr)
            mtime = os.path.getmtime(prog)
            runner.build_lnbench(s)                  # up to date: not rebuilt
            self.assertEqual(os.path.getmtime(prog), mtime)
            for args in (['noise'], ['noise', '-s', '999'], ['noise', '-s', '2', '-W', '2000'],
                         ['pack', '-c', '1'], ['pack', '-l', '4', '-c', '1', '-d', '100'],
                         ['pack', '-l', '4', '-c', '1', '-n', '0'],
                         ['pack', '-l', '4', '-c', '1', '-n', '17'],
                         ['pack', '-l', '4', '-c', '1', '-w', '4000']):
                r = subprocess.run([prog] + args, stdout=subprocess.PIPE,
                                   stderr=subprocess.PIPE, text=True, timeout=20)
                self.assertEqual((r.returncode, r.stdout), (2, ''), args)
                self.assertIn('lnbench %s: ' % args[0], r.stderr)
            for junk in ('1-x', '300', 'a'):
                r = subprocess.run([prog, 'rtt', '-n', '1', '-b', junk],
                                   stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                                   text=True, timeout=20)
                self.assertEqual(r.returncode, 2, junk)
                self.assertIn('not a cpulist', r.stderr)
                self.assertEqual(r.stdout, '')
        finally:
            shutil.rmtree(tmp)


if __name__ == '__main__':
    unittest.main()
