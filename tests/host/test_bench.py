# SPDX-License-Identifier: GPL-2.0
"""make bench's plan, guest script, console parsing and verdicts, on the host."""
import os
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
sys.path.insert(0, os.path.join(HERE, '..', '..', 'scripts'))
import bench  # noqa: E402


class TestBench(unittest.TestCase):
    def test_shares_of_the_rfc_thread_counts(self):
        # 8..128 threads of 88 CPUs, as shares of 16 CPUs.
        self.assertEqual([bench.pairs_for(t, 16) for t in bench.RFC_THREADS],
                         [1, 3, 6, 9, 12, 23])
        self.assertEqual(bench.pairs_for(8, 8), 1)

    def test_plan(self):
        for mode, p in bench.PLANS.items():
            boots = bench.plan(mode, '1234')
            names = [b.name for b in boots]
            self.assertEqual(len(names), len(set(names)), mode)
            for llc in p['llc']:
                self.assertIn('bench-llc%d-baseline' % llc, names)
                b = boots[names.index('bench-llc%d-patched' % llc)]
                # 4 values x SIS_CORE/NO x SIS_UTIL/NO, then placement: 4 x 2.
                self.assertEqual(len(b.runs), 16 + 8, mode)
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
        self.assertEqual([b.name for b in bench.plan('quick', '12')][:2],
                         ['bench-llc8-baseline', 'bench-llc8-patched'])
        self.assertFalse([b for b in bench.plan('quick', '3') if 'llc' in b.name])

    def test_guest_script(self):
        runs = [bench.Run('1', 'search', None, ('SIS_UTIL',), ['rtt', '-n', 5], llc=8),
                bench.Run('1', 'search', -19, ('NO_SIS_CORE',), ['rtt', '-n', 5], llc=8)]
        text = bench.guest_script(bench.Boot('b', 'patched', '1x4x2', 'icount', True, runs))
        lines = text.splitlines()
        self.assertIn('echo 1 > /proc/sys/kernel/sched_schedstats', lines)
        one = [x for x in lines if runs[0].id + '"' in x][0]
        two = [x for x in lines if runs[1].id + '"' in x][0]
        self.assertIn('echo SIS_UTIL > $F;', one)
        self.assertNotIn('latnice', one)
        self.assertIn('/tests/latnice -n -19 /extra/lnbench rtt -n 5', two)
        self.assertTrue(text.endswith('exit $failed\n'))

    def test_parse_console(self):
        with tempfile.NamedTemporaryFile('w', suffix='.log', delete=False) as f:
            f.write('LATNICE-TEST-BEGIN a\n'
                    '[    1.0] some kernel message\n'
                    'BENCH mode=rtt rounds=10 rtt_ns=123.5 scans=7\n'
                    'LATNICE-TEST-END a 0\n'
                    'BENCH mode=rtt rounds=99\n'
                    'LATNICE-TEST-BEGIN b\n'
                    'LATNICE-TEST-END b 1\n')
        try:
            got = bench.parse_console(f.name)
        finally:
            os.unlink(f.name)
        self.assertEqual(got, {'a': {'mode': 'rtt', 'rounds': '10', 'rtt_ns': '123.5',
                                     'scans': '7'}})

    def unused(self, base, patched):
        rec = []
        for kernel, tps in (('baseline', base), ('patched', patched)):
            for rep, noise in ((1, 0), (2, 5), (3, -50)):
                # The median of the three runs is the middle one: tps.
                rec.append(dict(figure='3', kernel=kernel, workload='pingpong', threads=32,
                                rep=rep, value=None, tps=tps + noise if noise != 5 else
                                tps + 5))
        return rec

    def test_unused_verdict(self):
        p = bench.PLANS['quick']
        text, worst, _ = bench.figure3(self.unused(1000.0, 1004.0), p)
        self.assertAlmostEqual(worst, 0.4)
        self.assertIn('| yes |', text)
        text, worst, _ = bench.figure3(self.unused(1000.0, 990.0), p)
        self.assertAlmostEqual(worst, 1.0)
        self.assertIn('| NO |', text)

    def test_repeatability(self):
        p = bench.PLANS['quick']
        rec = self.unused(1000.0, 1000.0)
        rec.append(dict(figure='3', kernel='patched', workload='pingpong', threads=32,
                        rep=2 * p['reps'], value=None, tps=1020.0))
        text, _, rep = bench.figure3(rec, p)
        self.assertAlmostEqual(rep, 2.0)
        self.assertIn('NOT within 1%', text)


    def test_budget_and_claims(self):
        # The budget table of Documentation/scheduler/sched-latency-nice.rst.
        self.assertEqual([bench.budget(v, 8) for v in (None, -1, -10, -19, -20)],
                         [None, 8, 4, 2, 0])
        self.assertEqual([bench.budget(-10, n) for n in (16, 32, 64)], [8, 16, 32])
        ok = [dict(figure='1', kernel='patched', value=-10, llc=16, rounds=10,
                   scans=10, probes=80, scan_ns=900),
              dict(figure='1', kernel='patched', value=-20, llc=16, rounds=10,
                   scans=0, probes=0, scan_ns=0)]
        text = bench.claims(ok)
        self.assertNotIn('FAILS', text)
        over = ok + [dict(figure='1', kernel='patched', value=-19, llc=16, rounds=10,
                          scans=10, probes=21, scan_ns=900)]
        self.assertIn('never more CPUs probed than the budget per search: FAILS in 1',
                      bench.claims(over))
        timed = ok + [dict(figure='1', kernel='patched', value=-20, llc=8, rounds=10,
                           scans=0, probes=0, scan_ns=5)]
        self.assertIn('FAILS in 1 runs', bench.claims(timed))
        # Runs without counters prove nothing: they fail the check.
        blind = [dict(figure='1', kernel='patched', value=-20, llc=8, rounds=10)]
        self.assertIn('time in a search at every LLC size: FAILS in 1 runs',
                      bench.claims(blind))
        self.assertIn('budget per search: NOT CHECKED', bench.claims(blind))


if __name__ == '__main__':
    unittest.main()
