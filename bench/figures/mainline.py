# SPDX-License-Identifier: GPL-2.0
"""Figure 13: mainline's later buddy fix on the baseline, beside latency
nice, under figure 6's load."""
from ..report import fmt, table
from .common import Boot, Figure
from .tail import (CYCLIC_OTHER, SLICE_HEAD, SLICE_LOAD, SLICE_MODES, SLICE_RUNTIME,
                   SLICE_TOPO, cyclictest_run, slice_cells, slice_label, slice_stats)

# The kernels and rows: the baseline and the baseline with mainline's
# 78cde54ea5f0 ("sched/eevdf: Clear buddies for preempt_short", adapted to
# 6.12: bench/kernels/78cde54ea5f0.patch), each at 0, with a 0.1 ms
# sched_runtime and as SCHED_FIFO; the patched kernel at -20 beside them.
MAINLINE_ROWS = (('baseline', 'other', None), ('baseline', 'runtime', None),
                 ('baseline', 'fifo', None),
                 ('mainline-fix', 'other', None), ('mainline-fix', 'runtime', None),
                 ('mainline-fix', 'fifo', None),
                 ('patched', 'other', -20))
KERNEL_LABELS = {'baseline': 'baseline', 'mainline-fix': 'baseline + 78cde54ea5f0',
                 'patched': 'patched'}


def plan_mainline(p):
    """One boot per kernel, the rows of each, value_reps times."""
    boots = []
    for kernel in ('baseline', 'mainline-fix', 'patched'):
        runs = [cyclictest_run(p, row, v, rep, figure='13')
                for rep in range(1, p['value_reps'] + 1)
                for k, row, v in MAINLINE_ROWS if k == kernel]
        boots.append(Boot('bench-mainline-%s' % kernel, kernel, SLICE_TOPO, 'icount', False,
                          runs))
    return boots


def stats(records, kernel, row, v):
    return slice_stats(records, kernel, row, v, figure='13')


def figure13(records, p):
    md = ['## 13. Mainline\'s later buddy fix, beside latency nice\n',
          'Mainline\'s 78cde54ea5f0 ("sched/eevdf: Clear buddies for preempt_short", '
          'April 2026) is not in 6.12; bench/kernels/78cde54ea5f0.patch adapts it (a '
          'short-slice wakeup preemption clears the next buddy that points at the '
          'running task) and kernel "baseline + 78cde54ea5f0" is the baseline with it.  '
          'Figure 6\'s load and cyclictest (`cyclictest %s -l %d` beside `hackbench %s`, '
          'topology %s), with sched_runtime %d us for the rows that say so; median of %d '
          'runs per row, spread = (max - min) / median.  "x vs 0" divides the same '
          'kernel\'s 0 (the baseline\'s, for the patched kernel) by the row.\n'
          % (' '.join(CYCLIC_OTHER), p['loops'], SLICE_LOAD, SLICE_TOPO,
             SLICE_RUNTIME // 1000, p['value_reps'])]
    rows = []
    for kernel, row, v in MAINLINE_ROWS:
        zero = 'baseline' if kernel == 'patched' else kernel
        cells = slice_cells(records, kernel, row, v, 'hackbench', zero_kernel=zero,
                            figure='13')
        if cells:
            rows.append([KERNEL_LABELS[kernel], slice_label(row, v)] + cells)
    md.append(table(['kernel', 'row'] + SLICE_HEAD, rows))
    return '\n'.join(md)


def claims_mainline(records):
    """Whether the fix closes the gap that a 0.1 ms sched_runtime leaves
    to SCHED_FIFO on the baseline, and what -20 does beside it."""
    def med(kernel, row, v, k='p99_us'):
        return stats(records, kernel, row, v).get(k, (None,))[0]

    def line(text, ok, detail):
        verdict = 'NOT CHECKED (no runs)' if ok is None else ('holds' if ok else 'FAILS')
        return '- %s: %s (%s).' % (text, verdict, detail)
    b, f = med('baseline', 'runtime', None), med('mainline-fix', 'runtime', None)
    bf, ff = med('baseline', 'fifo', None), med('mainline-fix', 'fifo', None)
    m = med('patched', 'other', -20)
    out = [line('the fix closes the gap: sched_runtime %d us within 2x of SCHED_FIFO\'s p99 '
                'on the fixed baseline' % (SLICE_RUNTIME // 1000),
                None if None in (f, ff) else f <= 2 * ff,
                'p99 %s against %s us' % (fmt(f, 0), fmt(ff, 0))),
           line('the fix lowers sched_runtime %d us\'s p99 on the baseline by 2x or more'
                % (SLICE_RUNTIME // 1000), None if None in (b, f) or not f else b >= 2 * f,
                '%s -> %s us' % (fmt(b, 0), fmt(f, 0))),
           line('-20 on the patched kernel no worse than sched_runtime %d us on the fixed '
                'baseline at p99 (10%% + 5 us of noise)' % (SLICE_RUNTIME // 1000),
                None if None in (m, f) else m <= 1.1 * f + 5,
                '%s against %s us; SCHED_FIFO %s us on the baseline'
                % (fmt(m, 0), fmt(f, 0), fmt(bf, 0)))]
    return '\n'.join(out) + '\n'


def cover_mainline(records):
    """The cover letter's lines: p99 and max of each row; None without
    the runs."""
    form = '%-46s %6s %6s'
    out = [form % ('hackbench -g 1, us', 'p99', 'max')]
    for kernel, row, v in MAINLINE_ROWS:
        st = stats(records, kernel, row, v)
        if 'p99_us' not in st or 'max_us' not in st:
            return None
        label = '%s, %s' % (KERNEL_LABELS[kernel],
                            {'other': vname_short(v), 'runtime': 'sched_runtime 0.1 ms',
                             'fifo': 'SCHED_FIFO'}[row])
        out.append(form % (label, fmt(st['p99_us'][0], 0), fmt(st['max_us'][0], 0)))
    return '\n'.join(out) + '\n'


def vname_short(v):
    return '0' if v is None else str(v)


FIGURES = (
    Figure('13', 'Mainline\'s later buddy fix', SLICE_MODES, plan_mainline, figure13,
           claims=claims_mainline, cover=cover_mainline),
)
