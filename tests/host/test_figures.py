# SPDX-License-Identifier: GPL-2.0
"""make bench's figures on the host: each figure's plan, table, checked
claims (each able to fail on planted data) and cover letter block."""
import os
import shutil
import tempfile
import unittest
from unittest import mock

from bench import figures, report

from .bench_fakes import QUICK_LLC, QUICK_UNUSED, fake_data

HERE = os.path.dirname(os.path.abspath(__file__))


class TestFigures(unittest.TestCase):
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
        p = QUICK_UNUSED
        text, worst, _ = figures.unused.figure3(self.unused(1000.0, 1004.0), p)
        self.assertAlmostEqual(worst, 0.4)
        self.assertIn('| yes |', text)
        text, worst, _ = figures.unused.figure3(self.unused(1000.0, 990.0), p)
        self.assertAlmostEqual(worst, 1.0)
        self.assertIn('| NO |', text)

    def test_repeatability(self):
        p = QUICK_UNUSED
        rec = self.unused(1000.0, 1000.0)
        rec.append(dict(figure='3', kernel='patched', workload='pingpong', threads=32,
                        rep=2 * p['reps'], value=None, tps=1020.0))
        text, _, rep = figures.unused.figure3(rec, p)
        self.assertAlmostEqual(rep, 2.0)
        self.assertIn('NOT within 1%', text)

    def test_budget_and_claims(self):
        # The budget table of Documentation/scheduler/sched-latency-nice.rst.
        self.assertEqual([figures.common.budget(v, 8) for v in (None, -1, -10, -19, -20)],
                         [None, 8, 4, 2, 2])
        self.assertEqual([figures.common.budget(-10, n) for n in (16, 32, 64)], [8, 16, 32])
        ok = [dict(figure='1', kernel='patched', value=-10, llc=16, rounds=10,
                   scans=10, probes=80, scan_ns=900),
              dict(figure='1', kernel='patched', value=-20, llc=16, rounds=10,
                   scans=10, probes=20, scan_ns=300)]
        text = figures.search.claims(ok)
        self.assertNotIn('FAILS', text)
        over = ok + [dict(figure='1', kernel='patched', value=-19, llc=16, rounds=10,
                          scans=10, probes=21, scan_ns=900)]
        self.assertIn('never more CPUs probed than the budget per search: FAILS in 1',
                      figures.search.claims(over))
        wide = ok + [dict(figure='1', kernel='patched', value=-20, llc=64, rounds=10,
                          scans=10, probes=21, scan_ns=300)]
        self.assertIn('at every LLC size: FAILS in 1 runs', figures.search.claims(wide))
        # Runs without counters prove nothing: they fail the check.
        blind = [dict(figure='1', kernel='patched', value=-20, llc=8, rounds=10)]
        self.assertIn('at every LLC size: FAILS in 1 runs', figures.search.claims(blind))
        self.assertIn('budget per search: NOT CHECKED', figures.search.claims(blind))
        self.assertIs(figures.FIGURES['1'].claims, figures.search.claims)

    def test_value_zero_is_free(self):
        def rec(kernel, key, *rtts):
            return [dict(figure='5', kernel=kernel, key=key, rep=i + 1, rtt_ns=x)
                    for i, x in enumerate(rtts)]
        base = rec('baseline', 'none', 10000.0, 10010.0, 9990.0)
        ok = base + rec('patched', 'off', 10020.0, 10000.0, 10030.0) + \
            rec('patched', 'on', 10040.0, 10060.0, 10050.0)
        text = figures.free.claims_free(ok)
        self.assertIn('key off, within 0.5% of baseline per wakeup: holds (+0.200%, +10.0 ns',
                      text)
        self.assertIn('key on, within 0.5% of baseline per wakeup: holds (+0.500%', text)
        slow = base + rec('patched', 'off', 10200.0) + rec('patched', 'on', 10000.0)
        self.assertIn('key off, within 0.5% of baseline per wakeup: FAILS (+2.000%',
                      figures.free.claims_free(slow))
        self.assertEqual(figures.free.claims_free(base).count('NOT CHECKED'), 2)
        table = figures.free.figure5(ok, figures.free.FREE_MODES['quick'])
        self.assertIn('| patched | off | 3 | 10020 | 0.30 | 10.0 | 0.200 |', table)
        self.assertIs(figures.FIGURES['5'].claims, figures.free.claims_free)
        # The key is switched on between the two halves of the patched boot.
        boots = figures.free.plan_free(figures.free.FREE_MODES['quick'])
        keys = [r.meta['key'] for r in boots[1].runs]
        faces = ['slice', 'good-enough', 'preempt', 'credit', 'protect', 'pack']
        self.assertEqual(keys, ['off'] * 3 + ['switch'] + ['on'] * 3 +
                         ['on-no-' + f for f in faces for _ in range(3)])
        self.assertEqual(boots[1].runs[3].value, -20)
        # Each run with a face off sets every switch: that one off, the others on.
        self.assertEqual(boots[1].runs[-1].features,
                         ('LATENCY_SLICE', 'LATENCY_GOOD_ENOUGH', 'LATENCY_PREEMPT',
                          'LATENCY_CREDIT', 'LATENCY_PROTECT', 'NO_LATENCY_PACK'))
        self.assertEqual({r.features for r in boots[1].runs[:7]}, {()})
        faced = ok + rec('patched', 'on-no-protect', 10010.0, 10012.0, 10014.0)
        table = figures.free.figure5(faced, figures.free.FREE_MODES['quick'])
        self.assertIn('| protect off | 3 | 10012 | 0.04 | 6.0 | 19.0 |', table)
        self.assertNotIn('pack off', table)
        self.assertEqual(figures.free.claims_free(faced), text)

    def test_positive_values_place_as_zero(self):
        """Figure 7: the baseline first, the patched kernel with no value
        before any value sets the key; a value that places differently fails."""
        boots = figures.placement.plan_like_zero(figures.placement.LIKE_ZERO_MODES['quick'])
        self.assertEqual([b.kernel for b in boots], ['baseline', 'patched'])
        self.assertEqual([r.value for r in boots[1].runs][::3], [None] + list(range(1, 16)))
        self.assertEqual([r.meta['rep'] for r in boots[1].runs][:4], [1, 2, 3, 1])
        self.assertEqual(figures.placement.LIKE_ZERO_MODES['full']['values'], tuple(range(1, 16)))

        def rec(kernel, value, other, on_busy=0.0):
            return dict(figure='7', kernel=kernel, value=value, same=1 - other, sibling=0.0,
                        other=other, on_busy=on_busy, rtt_ns=1000.0)
        ok = [rec('baseline', None, 0.50), rec('patched', None, 0.52),
              rec('patched', 1, 0.49), rec('patched', 15, 0.53)]
        self.assertIn('values 1, 15 place as the baseline does, every share within 5 points: '
                      'holds (largest difference 3.0 points', figures.placement.claims_like_zero(ok))
        bad = ok + [rec('patched', 10, 0.50, on_busy=0.2)]
        self.assertIn('FAILS (largest difference 20.0 points, on_busy at 10)',
                      figures.placement.claims_like_zero(bad))
        self.assertIn('NOT CHECKED', figures.placement.claims_like_zero(ok[:1]))
        # The median of the repetitions: one odd run does not decide.
        odd = ok + [rec('patched', 15, 0.80), rec('patched', 15, 0.51)]
        self.assertIn('holds (largest difference 3.0 points', figures.placement.claims_like_zero(odd))
        table = figures.placement.figure7(ok, figures.placement.LIKE_ZERO_MODES['quick'])
        self.assertIn('| baseline | default | 50.0 | 0.0 | 50.0 | 0.0 | 1000 |', table)
        self.assertLess(table.index('| baseline'), table.index('| patched | 1 '))

    def test_good_enough_cpu(self):
        """Figure 8: the face on and off at each value; the claims fail on a
        kernel whose face does nothing, or that takes the CPUs without it."""
        boots = figures.placement.plan_good(figures.placement.GOOD_MODES['quick'])
        runs = boots[1].runs
        self.assertEqual([(r.value, r.features[-1]) for r in runs[1:]],
                         [(-10, 'LATENCY_GOOD_ENOUGH'), (-19, 'LATENCY_GOOD_ENOUGH'),
                          (-10, 'NO_LATENCY_GOOD_ENOUGH'), (-19, 'NO_LATENCY_GOOD_ENOUGH')])
        self.assertIn('-i', runs[0].cmd)

        def rec(kernel, value, feats, share):
            return dict(figure='8', kernel=kernel, value=value, features=feats,
                        on_indifferent=share, indifferent=int(kernel == 'patched'),
                        rtt_ns=1000.0)
        good = [rec('baseline', None, 'NO_SIS_UTIL', 0.0),
                rec('patched', -10, 'NO_SIS_UTIL LATENCY_GOOD_ENOUGH', 0.95),
                rec('patched', -10, 'NO_SIS_UTIL NO_LATENCY_GOOD_ENOUGH', 0.02)]
        text = figures.placement.claims_good(good)
        self.assertIn('at least 75% of wakeups: holds (patched -10 95%)', text)
        self.assertIn('on the baseline, in at most 10%: holds', text)
        idle = [dict(r, on_indifferent=0.0) for r in good]
        self.assertIn('at least 75% of wakeups: FAILS', figures.placement.claims_good(idle))
        always = [dict(r, on_indifferent=0.9) for r in good]
        self.assertIn('in at most 10%: FAILS', figures.placement.claims_good(always))
        self.assertEqual(figures.placement.claims_good([]).count('NOT CHECKED'), 2)
        table = figures.placement.figure8(good, figures.placement.GOOD_MODES['quick'])
        self.assertIn('| patched | -10 | off | 1 | 2.0 | 1000 |', table)

    def test_protected_task_latency(self):
        """Figure 11: each row repeated; the residency claims fail on a kernel
        whose face moves nothing, and the latency claim is checked as
        measured, not assumed."""
        p = figures.packing.NOISE_MODES['quick']
        boots = figures.packing.plan_noise(p)
        self.assertEqual([len(b.runs) for b in boots], [2 * p['reps'], 4 * p['reps']])
        self.assertEqual({r.meta['noise'] for r in boots[1].runs}, {0, figures.packing.NOISE_THREADS})

        def rec(kernel, value, feats, noise, on_core, p99, rep=1):
            return dict(figure='11', kernel=kernel, value=value, features=feats, noise=noise,
                        rep=rep, on_core=on_core, resident=on_core, running=on_core / 4,
                        p99_us=p99, avg_us=70.0, p50_us=64.0, p999_us=700.0, max_us=800.0,
                        protected=10, wakeups=2000, ok=True)
        on, off = 'LATENCY_PROTECT', 'NO_LATENCY_PROTECT'
        good = [rec('baseline', None, '', 8, 0.13, 480.0),
                rec('patched', -20, on, 8, 0.02, 360.0),
                rec('patched', -20, on, 8, 0.01, 500.0, rep=2),
                rec('patched', -20, on, 8, 0.03, 350.0, rep=3),
                rec('patched', -20, off, 8, 0.13, 620.0)]
        text = figures.packing.claims_noise(good)
        self.assertEqual(text.count(': holds'), 3, text)
        self.assertIn('(2.0% against 13.0%)', text)      # the median of three runs
        same = [dict(r, on_core=0.13, resident=0.13) for r in good]
        self.assertEqual(figures.packing.claims_noise(same).count(': FAILS'), 2)
        worse = [dict(r, p99_us=900.0) if r['features'] == on else r for r in good]
        self.assertIn('no worse than without it (10%): FAILS', figures.packing.claims_noise(worse))
        self.assertIn('NOT CHECKED', figures.packing.claims_noise(good[:1]))
        table = figures.packing.figure11(good, p)
        self.assertIn('| patched | -20 | 8 | on | 3 | 70 | 64 | 360 |', table)
        self.assertIn('| baseline | default | 8 | - | 1 |', table)

    def test_packing_residency(self):
        """Figure 10's residency claim fails when the thread is found on the
        loads' cores as often without the face as with it."""
        def rec(kernel, value, feats, share, resident):
            return dict(figure='10', kernel=kernel, value=value, features=feats,
                        duty=figures.packing.PACK_DUTY, on_loads=share, on_load_cpus=share / 2,
                        resident=resident, packed=100, wakeups=400)
        good = [rec('baseline', None, '', 0.0, 0.01),
                rec('patched', 19, 'LATENCY_PACK', 0.85, 0.9),
                rec('patched', 19, 'NO_LATENCY_PACK', 0.0, 0.02)]
        text = figures.packing.claims_pack(good)
        self.assertEqual(text.count(': holds'), 4, text)
        stuck = [dict(r, resident=0.9) for r in good]
        self.assertEqual(figures.packing.claims_pack(stuck).count(': FAILS'), 1)
        self.assertIn('| 90.0 |', figures.packing.figure10(good, figures.packing.PACK_MODES['quick']))
        self.assertIn('NOT CHECKED', figures.packing.claims_pack(good))

    def test_packing_mix(self):
        """Figure 10's mix claim fails when packing uses more cores than
        value 0 does, or leaves the other cores as busy as the baseline."""
        def mix(kernel, value, feats, share, cores, off):
            return dict(figure='10', kernel=kernel, value=value, features=feats,
                        duty=figures.packing.PACK_DUTY, threads=figures.packing.PACK_MIX, on_loads=share,
                        on_load_cpus=share / 2, resident=share, packed=100, wakeups=1800,
                        cores_used=cores, cores_touched=cores + 1, off_loads_cpus=off)
        good = [mix('baseline', None, '', 0.0, 6, 0.24),
                mix('patched', 0, 'LATENCY_PACK', 0.0, 6, 0.25),
                mix('patched', 19, 'LATENCY_PACK', 0.95, 2, 0.02),
                mix('patched', 19, 'NO_LATENCY_PACK', 0.0, 6, 0.25)]
        text = figures.packing.claims_pack_mix(good)
        self.assertIn(': holds', text)
        self.assertIn('cores used 2, 6 at 0, 6 on the baseline', text)
        # The mix rows do not enter the one-thread claims.
        self.assertEqual(figures.packing.claims_pack(good).count('NOT CHECKED'), 4)
        for bad in (dict(cores_used=7), dict(on_loads=0.5), dict(off_loads_cpus=0.13)):
            runs = good[:2] + [dict(good[2], **bad)] + good[3:]
            self.assertIn(': FAILS', figures.packing.claims_pack_mix(runs), bad)
        self.assertIn('NOT CHECKED', figures.packing.claims_pack_mix(good[1:]))
        table = figures.packing.figure10(good, figures.packing.PACK_MODES['quick'])
        self.assertIn('| patched | 19 | on | 20 | 4 | 1800 | 95.0 | 47.5 | 95.0 | 100 | 2 | 3 | 0.020 |',
                      table)
        cover = figures.packing.cover_pack(good)
        self.assertIn('patched, 19                1800        95.0           2            0.020',
                      cover)
        self.assertIsNone(figures.packing.cover_pack(good[1:]))

    def test_plots(self):
        """With gnuplot: a data file and a PNG per curve, in the bench folder."""
        tmp = tempfile.mkdtemp()
        try:
            gp = os.path.join(tmp, 'bin', 'gnuplot')
            os.makedirs(os.path.dirname(gp))
            with open(gp, 'w') as f:
                f.write('#!/bin/sh\nprintf "%s\\n" "$2" >> "$(dirname "$0")/calls"\n')
            os.chmod(gp, 0o755)
            recs = [dict(figure='1', kernel='patched', llc=llc, util='NO_SIS_UTIL',
                         core='SIS_CORE', value=v, rounds=10, probes=20, scan_ns=100)
                    for llc in QUICK_LLC['llc'] for v in figures.common.VALUES]
            plots = figures.search.plots_search(recs, QUICK_LLC)
            env = {'PATH': os.path.dirname(gp) + os.pathsep + os.environ.get('PATH', '')}
            with mock.patch.dict(os.environ, env):
                made = report.draw(plots, tmp)
            self.assertEqual(len(made), 4)
            with open(os.path.join(tmp, 'plot-probes-NO_SIS_UTIL.dat')) as f:
                self.assertEqual(f.read().splitlines()[1], '8 2 2 2 2')
            with open(os.path.join(tmp, 'plot-probes-SIS_UTIL.dat')) as f:
                self.assertEqual(f.read().splitlines()[1], '8 NaN NaN NaN NaN')
            with open(os.path.join(tmp, 'bin', 'calls')) as f:
                calls = f.read()
            self.assertIn('set output "%s"' % os.path.join(tmp, 'llc-probes-NO_SIS_UTIL.png'),
                          calls)
            self.assertNotIn('%(', calls)
        finally:
            shutil.rmtree(tmp)

    def test_fairness(self):
        """Figure 16: the plan's rows, the claims (each able to fail), the
        warm-up run left out, and the cover block."""
        f = figures.fairness
        p = f.FAIR_MODES['quick']
        boots = f.plan_fairness(p)
        self.assertEqual([(b.kernel, b.topo, b.mode) for b in boots],
                         [('baseline', '1x1x1', 'icount'), ('patched', '1x1x1', 'icount')])
        self.assertEqual([len(b.runs) for b in boots], [1 + 3 * 6, 1 + 3 * 13])
        # The values are lnbench's options, not latnice's: the hog keeps its own.
        self.assertEqual({r.value for b in boots for r in b.runs}, {None})
        self.assertNotIn('-V', [c for r in boots[0].runs for c in r.cmd])
        self.assertIn(['share', '-r', 1000, '-s', 0, '-t', 2000, '-V', 19, '-W', 0],
                      [r.cmd for r in boots[1].runs])
        recs = [dict(figure='16', kernel=b.kernel, value=None, **r.meta,
                     **{k: v for k, v in fake_data(b, r).items() if k != 'mode'})
                for b in boots for r in b.runs]
        text = f.claims_fairness(recs)
        self.assertEqual(text.count(': holds'), 19, text)
        self.assertIn('a task at -20 that runs 4 ms and sleeps 100 us beside a hog at 0 gets '
                      '47..53%: holds (50.00%)', text)

        def planted(**kw):
            return [dict(r, share_pct=kw['share']) if all(r.get(k) == v for k, v in kw.items()
                                                          if k != 'share') else r
                    for r in recs]
        low = f.claims_fairness(planted(kernel='patched', duty='4000/100', task='-20',
                                        share=46.5))
        self.assertIn('47..53%: FAILS (46.50%)', low)
        farm = f.claims_fairness(planted(kernel='patched', duty='500/1000', task='-20',
                                         share=28.5))
        self.assertIn('runs 500 us and sleeps 1000 us beside a hog at 0 gets at most 53%, and '
                      'no more than 3 points above the same task at 0: FAILS (28.50% against '
                      '25.00%)', farm)
        less = f.claims_fairness(planted(kernel='patched', duty='500/1000', task='-20',
                                         share=21.5))
        self.assertIn('runs 500 us and sleeps 1000 us beside a hog at 0 gets no less than 3 '
                      'points below the same task at 0: FAILS (21.50% against 25.00%)', less)
        self.assertEqual(less.count('FAILS'), 1)
        hog = f.claims_fairness(planted(kernel='patched', duty='1000/0', task='19', share=40))
        self.assertIn('a hog at 19 beside a hog at 0 gets 47..53%: FAILS (40.00%)', hog)
        zero = f.claims_fairness(planted(kernel='patched', duty='80/10', task='0', share=54))
        self.assertIn('value 0 as mainline: a task at 0 that runs 80 us and sleeps 10 us gets '
                      'the baseline\'s share, within 3 points: FAILS (54.00% against 50.00%)',
                      zero)
        # The first run of a boot is left out, whatever it measured.
        first = [dict(r, share_pct=10.0) if r['rep'] == 0 else r for r in recs]
        self.assertEqual(f.claims_fairness(first), text)
        self.assertEqual(f.claims_fairness([r for r in recs if r['kernel'] != 'baseline'])
                         .count('NOT CHECKED'), 6)
        self.assertEqual(f.claims_fairness([r for r in recs if r.get('task') != '-20'])
                         .count('NOT CHECKED'), 12)
        cover = f.cover_fairness(recs)
        self.assertIn('runs 500 us, sleeps 1000 us      25.00     25.00     25.00         -',
                      cover)
        self.assertIn('hog                              50.00     50.00     50.00     50.00',
                      cover)
        self.assertIsNone(f.cover_fairness([r for r in recs if r.get('task') != '19']))
        self.assertIn('| patched | hog | 19 | 0 | 3 | 50.00 | 0.00 |', f.figure16(recs, p))

    def test_free_cover(self):
        """Figure 5's cover form: the three medians and the cost per wakeup."""
        recs = [dict(figure='5', kernel=k, key=key, rtt_ns=ns)
                for k, key, xs in (('baseline', 'none', (1000, 1010, 990)),
                                   ('patched', 'off', (1002, 1004, 1000)),
                                   ('patched', 'on', (1010, 1020, 1030)))
                for ns in xs]
        lines = figures.free.cover_free(recs).splitlines()
        self.assertEqual(lines[1].split(), ['baseline', '1000', '2.00', '-'])
        self.assertEqual(lines[2].split()[-1], '+1.0')
        self.assertEqual(lines[3].split()[-1], '+10.0')
        self.assertIsNone(figures.free.cover_free(recs[:3]))

    def test_pgbench_cover(self):
        """Figure 12's cover form: each row's medians and ratios to the
        baseline's row; None while a row is missing."""
        recs = []
        for k, db, load in figures.database.PGBENCH_ROWS:
            f = 2 if db is not None else 1
            recs += [dict(figure='12', kernel=k, db=report.vname(db),
                          load=report.vname(load), tps=100 * f + rep,
                          lat_avg_ms=1.0, lat_p50_ms=0.5, lat_p99_ms=4.0 / f)
                     for rep in (0, 1, 2)]
        lines = figures.database.cover_pgbench(recs).splitlines()
        self.assertEqual(len(lines), 1 + len(figures.database.PGBENCH_ROWS))
        self.assertEqual(lines[1].split(), ['baseline', 'default', 'default', '101', '100-102',
                                            '1.000', '4.000', '1.00', '1.00'])
        self.assertEqual(lines[4].split()[-2:], ['1.99', '0.50'])  # 201 / 101
        self.assertIsNone(figures.database.cover_pgbench(recs[3:]))
        self.assertIn('| patched | -10 | 19 | 3 | 201 | 200-202 |', figures.database.figure12(recs, dict(
            clients=4, secs=5, reps=3)))

    def test_search_cover(self):
        """Figure 1's cover form: probed / ns per wakeup, one line per LLC."""
        recs = [dict(figure='1', kernel='patched', llc=llc, util='NO_SIS_UTIL',
                     core='SIS_CORE', value=v, rounds=10, probes=10 * (llc + 1),
                     scan_ns=4950 * llc // 8)
                for llc in QUICK_LLC['llc'] for v in figures.common.VALUES]
        cover = figures.search.cover_search(recs)
        self.assertEqual(cover.splitlines()[0], 'LLC  default      -10          -19          -20')
        self.assertEqual(cover.splitlines()[1],
                         '8    9 / 495      9 / 495      9 / 495      9 / 495')
        self.assertEqual(len(cover.splitlines()), 1 + len(QUICK_LLC['llc']))
        self.assertIsNone(figures.search.cover_search(recs[1:]))
