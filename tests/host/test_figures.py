# SPDX-License-Identifier: GPL-2.0
"""make bench's figures on the host: each figure's plan, table, checked
claims (each able to fail on planted data) and cover letter block."""
import os
import shutil
import subprocess
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
        self.assertEqual(keys, ['off'] * 3 + ['switch'] + ['on'] * 3)
        self.assertEqual(boots[1].runs[3].value, -20)

    def test_slice_face(self):
        """Figure 6: the plan's rows, the table, and each claim measured."""
        boots = figures.tail.plan_slice(figures.tail.SLICE_MODES['quick'])
        self.assertEqual([(b.kernel, b.topo, b.mode) for b in boots],
                         [('baseline', '1x1x1', 'icount'), ('patched', '1x1x1', 'icount'),
                          ('patched', '1x1x1', 'icount'), ('lean', '1x1x1', 'icount'),
                          ('patched', '1x1x1', 'icount')])
        # The sweep: each load but hackbench -g 1 (in the patched boot) with
        # its rows, then the bystanders; the loads' arguments.
        self.assertEqual(len(boots[2].runs), 3 * (4 * len(figures.tail.SWEEP_ROWS) + 2))
        self.assertEqual({r.meta['load'] for r in boots[2].runs},
                         {'hackbench-g2', 'hackbench-g4', 'hogs8', 'hogs32', 'hogs4',
                          'hogs4-at-19'})
        self.assertIn(['-B', 4, '-V', 19, '--'], [r.cmd[1:6] for r in boots[2].runs])
        self.assertIn(['-H', '-g 4 -l 100', '--'], [r.cmd[1:4] for r in boots[2].runs])
        self.assertEqual(len(boots[3].runs), 3 * len(figures.tail.LEAN_ROWS))
        # The floor's rows: the 100 Hz sleeper under every load of the sweep.
        light = boots[4].runs
        self.assertEqual(len(light), 3 * 5 * len(figures.tail.LIGHT_ROWS))
        self.assertEqual({r.meta['load'] for r in light}, set(figures.tail.SWEEP_LOADS))
        self.assertIn(['-s', 1, '--', '--policy', 'other', '-t', '1', '-a', '0', '-i', '10000',
                       '-m', '-l', 200], [r.cmd[3:] for r in light])
        self.assertIn(['--', '--policy', 'fifo', '-p', '95', '-t', '1', '-a', '0', '-i', '10000',
                       '-m', '-l', 200], [r.cmd[3:] for r in light])
        self.assertEqual({r.value for r in light if r.meta['row'] == 'light-slack1'}, {-20})
        # The baseline has no latency nice: no value is set there.
        self.assertEqual({r.value for r in boots[0].runs}, {None})
        self.assertEqual(len(boots[1].runs), 5 * (len(figures.tail.SLICE_VALUES) + 2 + 2 + 1 + 2))
        self.assertIn(['-s', 1], [r.cmd[3:5] for r in boots[1].runs])
        # The LATENCY_PREEMPT A/B: the run after the one that turns it off
        # turns it back on.
        feats = [r.features for r in boots[1].runs]
        self.assertEqual(feats[:2], [('NO_LATENCY_PREEMPT',), ('LATENCY_PREEMPT',)])
        self.assertIn(['-r', figures.tail.SLICE_RUNTIME], [r.cmd[3:5] for r in boots[1].runs])
        recs = []
        for b in boots:
            for r in b.runs:
                d = fake_data(b, r)
                recs.append(dict(figure='6', kernel=b.kernel, value=r.value, **r.meta,
                                 **{k: v for k, v in d.items() if k != 'mode'}))
        text = figures.tail.claims_slice(recs)
        self.assertIn('at least 5x lower than at 0 under load: holds (avg 1000 -> 100 us', text)
        self.assertIn('no more than 10% above sched_runtime 100 us at p50, p99 and p99.9: holds',
                      text)
        self.assertIn('-10, -15 to -20, within the spread: holds (2000 (0%) >= 1600 (0%) >= '
                      '1000 (0%) >= 600 (0%) >= 200 (0%))', text)
        # -20 above -15: within the spread of its runs or not.
        for p99s, verdict in (((630,) * 5, 'FAILS'), ((600,) * 5, 'holds'),
                              ((700, 500, 640, 620, 660), 'holds')):
            it = iter(p99s)
            up = [dict(r, p99_us=next(it)) if r['value'] == -20 and r.get('row') == 'other'
                  and r.get('load') == 'hackbench' and r['kernel'] == 'patched' else r
                  for r in recs]
            self.assertIn('within the spread: %s' % verdict, figures.tail.claims_slice(up))
        self.assertIn("idle: -20's p99 no worse than 0's", text)
        self.assertIn('moonshot: -20\'s p99 within 2x of SCHED_FIFO\'s: holds (200 against 100', text)
        self.assertIn('value 0 as mainline: hackbench beside cyclictest within 2% of the '
                      'baseline: holds', text)
        # A kernel whose -20 does nothing fails the first claim.
        flat = [dict(r, avg_us=1000, p99_us=2000) if r['value'] == -20 else r for r in recs]
        self.assertIn('under load: FAILS', figures.tail.claims_slice(flat))
        self.assertIn('LATENCY_PREEMPT: -20\'s p99 at least 5x lower with it than without: '
                      'holds (200 against 2000 us)', text)
        self.assertEqual(figures.tail.claims_slice([]).count('NOT CHECKED'), 21)
        # The fake -20 is 10x below 0, not 20x; its 1 ns slack row has a
        # p99 of 120 against FIFO's 100 and a max of 240 against 200.
        self.assertIn("gain: -20's p99 at least 20x lower than 0's under load: FAILS "
                      "(2000 -> 200 us, 10.0x)", text)
        floor = " -20 with 1 ns of timer slack within 2x of SCHED_FIFO's p99 and 4x of its max: "
        self.assertIn("floor under hackbench -g 1, 1 kHz sleeper:" + floor + "holds (p99 120 "
                      "against 100 us, max 240 against 200 us; cpu 2.0%, fair share 33.3% of "
                      "3.0 runnable)", text)
        # The 100 Hz sleeper's rows are claims of their own.
        self.assertEqual(text.count('floor under '), 10)
        self.assertIn('floor under 32 CPU hogs, 100 Hz sleeper:' + floor + 'holds', text)
        # Where -20 used half its fair share or more, the floor does not apply.
        busy = [dict(r, cpu_pct=20.0) if r.get('load') == 'hogs8' else r for r in recs]
        self.assertIn("floor under 8 CPU hogs, 1 kHz sleeper:" + floor + "does not apply, -20 "
                      "used half its fair share or more", figures.tail.claims_slice(busy))
        for row, hz in (('slack1', '1 kHz'), ('light-slack1', '100 Hz')):
            slow = [dict(r, p99_us=500) if r.get('load') == 'hogs32' and r.get('row') == row
                    and r['value'] == -20 else r for r in recs]
            text_slow = figures.tail.claims_slice(slow)
            self.assertIn('floor under 32 CPU hogs, %s sleeper:%sFAILS' % (hz, floor), text_slow)
            self.assertEqual(text_slow.count('FAILS'), text.count('FAILS') + 1)
            self.assertIn('floor under 32 CPU hogs, %s sleeper:%sdoes not apply, -20 used half '
                          'its fair share or more; the rows are not' % (hz, floor),
                          figures.tail.claims_slice([dict(r, cpu_pct=20.0) for r in slow]))
        # Without the 100 Hz rows, their claims are not checked.
        heavy = [r for r in recs if not r.get('row', '').startswith('light-')]
        self.assertEqual(figures.tail.claims_slice(heavy).count('NOT CHECKED'), 5)
        # The bystanders: every value's hackbench, and 0 beside hogs at 19.
        self.assertIn('within 2% of the baseline at every value: holds', text)
        hb = [dict(r, hackbench_s=0.52) if r['value'] == 19 else r for r in recs]
        self.assertIn('within 2% of the baseline at every value: FAILS', figures.tail.claims_slice(hb))
        self.assertIn("beside four hogs at 0: holds (2000 against 2000 us)", text)
        h19 = [dict(r, p99_us=4001) if r.get('load') == 'hogs4-at-19' else r for r in recs]
        self.assertIn("beside four hogs at 0: FAILS (4001 against 2000 us)",
                      figures.tail.claims_slice(h19))
        self.assertIn("no negative value's p99.9 or max above 0's: holds", text)
        tail = [dict(r, max_us=9000) if r['value'] == -5 and r.get('row') == 'other' else r
                for r in recs]
        self.assertIn("no negative value's p99.9 or max above 0's: FAILS (at 0 3000 and 4000 us; "
                      "above: -5 (2400, 9000))", figures.tail.claims_slice(tail))
        far = [dict(r, max_us=900) if r.get('row') == 'slack1' else r for r in recs]
        self.assertIn('4x of its max: FAILS', figures.tail.claims_slice(far))
        table = figures.tail.figure6(recs, figures.tail.SLICE_MODES['quick'])
        self.assertIn('| patched | latency nice -20 | hackbench | 5 | 100 | 50 | 200 | 300 | 400 |',
                      table)
        self.assertIn('| 32 CPU hogs | SCHED_FIFO 95 | 3 | 50 | 25 | 100 | 150 | 200 | 0 | 2.0 '
                      '| 3.0 | 0.500 | 20.0 | 20.0 |', table)
        self.assertIn('| patched, no system options | latency nice -20 | 3 | 100 |', table)
        self.assertIs(figures.FIGURES['6'].claims, figures.tail.claims_slice)
        # The cover block: the sweep per load, the bystanders, and the
        # kernel without the system options; without the sweep's runs,
        # the block of the first table alone.
        cover = figures.tail.cover_slice(recs)
        self.assertIn('32 CPU hogs                  2000    200    120 (240)    100 (200)    '
                      '2.0       3.0', cover)
        self.assertIn('p99 of 0 beside four hogs at 0: 2000 us, at 19: 2000 us', cover)
        self.assertIn('patched, no system options   2000    200          120          100',
                      cover)
        first = figures.tail.cover_slice([r for r in recs if r.get('load') in
                                          ('hackbench', 'idle') and r['kernel'] != 'lean'])
        self.assertTrue(first.endswith('with 1 ns of timer slack on both\n'), first)

    def test_mainline_fix(self):
        """Figure 13: three kernels in one run, and claims that can fail."""
        p = figures.mainline.SLICE_MODES['quick']
        boots = figures.mainline.plan_mainline(p)
        self.assertEqual([(b.kernel, b.topo, b.mode, len(b.runs)) for b in boots],
                         [('baseline', '1x1x1', 'icount', 15),
                          ('mainline-fix', '1x1x1', 'icount', 15),
                          ('patched', '1x1x1', 'icount', 5)])
        self.assertIn(['-r', figures.tail.SLICE_RUNTIME], [r.cmd[3:5] for r in boots[1].runs])
        self.assertEqual({r.figure for b in boots for r in b.runs}, {'13'})
        recs = [dict(figure='13', kernel=b.kernel, value=r.value, **r.meta,
                     **{k: v for k, v in fake_data(b, r).items() if k != 'mode'})
                for b in boots for r in b.runs]
        # The fake sched_runtime row is at 200 us against FIFO's 100 on both
        # kernels: the fix closes no gap, and -20 (200) is no worse.
        text = figures.mainline.claims_mainline(recs)
        self.assertIn('within 2x of SCHED_FIFO\'s p99 on the fixed baseline: holds (p99 200 '
                      'against 100 us)', text)
        self.assertIn('by 2x or more: FAILS (200 -> 200 us)', text)
        self.assertIn('at p99 (10% + 5 us of noise): holds (200 against 200 us', text)
        fixed = [dict(r, p99_us=80) if r['kernel'] == 'mainline-fix' and r['row'] == 'runtime'
                 else r for r in recs]
        text = figures.mainline.claims_mainline(fixed)
        self.assertIn('by 2x or more: holds (200 -> 80 us)', text)
        self.assertIn('at p99 (10% + 5 us of noise): FAILS (200 against 80 us', text)
        far = [dict(r, p99_us=500) if r['kernel'] == 'mainline-fix' and r['row'] == 'runtime'
               else r for r in recs]
        self.assertIn('on the fixed baseline: FAILS', figures.mainline.claims_mainline(far))
        self.assertEqual(figures.mainline.claims_mainline([]).count('NOT CHECKED'), 3)
        table = figures.mainline.figure13(recs, p)
        self.assertIn('| baseline + 78cde54ea5f0 | sched_runtime 100 us | 5 | 100 | 50 | 200 |',
                      table)
        self.assertIn('| patched | latency nice -20 | 5 | 100 | 50 | 200 | 300 | 400 |', table)
        cover = figures.mainline.cover_mainline(recs)
        self.assertIn('baseline + 78cde54ea5f0, sched_runtime 0.1 ms     200    400', cover)
        self.assertIsNone(figures.mainline.cover_mainline(
            [r for r in recs if r['kernel'] != 'patched']))

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

    def test_host_programs(self):
        """scripts/host-programs.sh: a program and what ldd lists, at their paths."""
        script = os.path.join(HERE, '..', '..', 'scripts', 'host-programs.sh')
        out = subprocess.run(['bash', script, 'sh'], stdout=subprocess.PIPE, text=True,
                             check=True).stdout.split()
        dests = [x.split('=', 1)[0] for x in out]
        self.assertTrue(all(d == x.split('=', 1)[1] for d, x in zip(dests, out)))
        self.assertTrue(any(d.endswith('/libc.so.6') for d in dests), out)
        self.assertTrue(any('ld-linux' in d for d in dests), out)
        bad = subprocess.run(['bash', script, 'no-such-program-here'], stdout=subprocess.PIPE,
                             stderr=subprocess.PIPE, text=True)
        self.assertNotEqual(bad.returncode, 0)
        self.assertIn('not found on this machine', bad.stderr)
        self.assertEqual(bad.stdout, '')

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
