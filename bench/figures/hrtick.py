# SPDX-License-Identifier: GPL-2.0
"""Figure 15: HRTICK, mainline's high-resolution tick that ends a slice
when it ends rather than at the next tick, beside latency nice on the
hackbench loads where the floor's maximum is not held."""
from ..report import fmt, table
from .common import Boot, Figure, Run
from .floor import MAX_BOUND
from .tail import (LOAD_LABELS, SLICE_TOPO, cyclictest_run, slice_label, slice_stats)

HRTICK_MODES = dict(
    quick=dict(loops=1000, reps=3),
    full=dict(loops=5000, reps=5),
)
HRTICK_LOADS = ('hackbench', 'hackbench-g2', 'hackbench-g4')
# The rows measured without and with HRTICK: (row, value).  SCHED_FIFO
# once, without: an RT wakeup preempts a fair task at once either way.
HRTICK_ROWS = (('other', None), ('other', -20), ('slack1', -20), ('runtime', None))
# HRTICK's cost: hackbench beside cyclictest at 0 within this many percent.
COST_PCT = 2
# "No worse": within 10% + 5 us of noise, as figure 13's claim.
NOISE_PCT, NOISE_US = 10, 5


def row_of(kind, on):
    """The record's row of cyclictest row @kind with HRTICK @on."""
    return kind + '-hrtick' if on else kind


def plan_hrtick(p):
    """One boot of the patched kernel: per repetition and load, the rows
    without HRTICK, SCHED_FIFO, then the rows with it (every run sets the
    feature: features stay set)."""
    runs = []
    for rep in range(1, p['reps'] + 1):
        for load in HRTICK_LOADS:
            for on in (False, True):
                feats = ('HRTICK',) if on else ('NO_HRTICK',)
                rows = HRTICK_ROWS + ((('fifo', None),) if not on else ())
                for kind, v in rows:
                    base = cyclictest_run(p, kind, v, rep, load=load, figure='15')
                    runs.append(Run('15', 'cyclictest', v, feats, base.cmd,
                                    row=row_of(kind, on), load=load, rep=rep))
    return [Boot('bench-hrtick', 'patched', SLICE_TOPO, 'icount', False, runs)]


def med(records, kind, v, on, load, key):
    st = slice_stats(records, 'patched', row_of(kind, on), v, load, figure='15')
    return st.get(key, (None,))[0]


def figure15(records, p):
    md = ['## 15. HRTICK: a slice that ends when it ends (repeatable mode)\n',
          'The patched kernel on one CPU under QEMU -icount (topology %s): figure 6\'s '
          'cyclictest (`-l %d`) beside hackbench with 1, 2 and 4 groups at latency nice 0, '
          'each row without and with the HRTICK feature of /sys/kernel/debug/sched/features '
          '(off by default: the current task\'s slice ends at the next tick, every 4 ms '
          'with HZ=250; on, an hrtimer ends it when it ends).  SCHED_FIFO is measured '
          'without it.  Latencies in us; hackbench: median seconds per run of the load '
          'beside it; cpu %% and runnable as in figure 6.  Median of %d runs per row, '
          'spread = (max - min) / median.\n' % (SLICE_TOPO, p['loops'], p['reps'])]
    rows = []
    for load in HRTICK_LOADS:
        for kind, v in HRTICK_ROWS + (('fifo', None),):
            for on in (False, True):
                st = slice_stats(records, 'patched', row_of(kind, on), v, load, figure='15')
                if not st:
                    continue

                def m(k):
                    return st[k][0] if k in st else None
                rows.append([LOAD_LABELS[load], slice_label(kind, v), 'on' if on else 'off',
                             st['p99_us'][2] if 'p99_us' in st else 0,
                             fmt(m('p50_us'), 0), fmt(m('p99_us'), 0), fmt(m('p999_us'), 0),
                             fmt(m('max_us'), 0), fmt(st.get('p99_us', (None, None))[1], 0),
                             fmt(m('thread_cpu_pct'), 2), fmt(m('thread_runnable'), 1),
                             fmt(m('hackbench_s'), 3)])
    md.append(table(['load', 'row', 'HRTICK', 'runs', 'p50', 'p99', 'p99.9', 'max',
                     'p99 spread %', 'cpu %', 'runnable', 'hackbench s'], rows))
    return '\n'.join(md)


def verdict(ok, text, detail):
    if ok is None:
        return '- %s: NOT CHECKED (no runs) (%s).' % (text, detail)
    return '- %s: %s (%s).' % (text, 'holds' if ok else 'FAILS', detail)


def claims_hrtick(records):
    """Per load: whether HRTICK brings -20's maximum (1 ns of timer slack)
    within the floor's bound of SCHED_FIFO's, keeps its p99, and what it
    costs hackbench."""
    out = []
    for load in HRTICK_LOADS:
        name = LOAD_LABELS[load]
        off, on, fifo = (med(records, k, v, o, load, 'max_us')
                         for k, v, o in (('slack1', -20, False), ('slack1', -20, True),
                                         ('fifo', None, False)))
        ok = None if None in (on, fifo) else on <= MAX_BOUND * fifo
        out.append(verdict(ok, 'HRTICK under %s: -20 with 1 ns of timer slack within %dx of '
                           'SCHED_FIFO\'s max' % (name, MAX_BOUND),
                           'max %s us with HRTICK, %s without, FIFO %s'
                           % (fmt(on, 0), fmt(off, 0), fmt(fifo, 0))))
        off, on = (med(records, 'slack1', -20, o, load, 'p99_us') for o in (False, True))
        ok = None if None in (on, off) else on <= off * (1 + NOISE_PCT / 100) + NOISE_US
        out.append(verdict(ok, 'HRTICK under %s: -20\'s p99 with 1 ns of timer slack no worse '
                           'than without (%d%% + %d us of noise)' % (name, NOISE_PCT, NOISE_US),
                           '%s against %s us' % (fmt(on, 0), fmt(off, 0))))
        off, on = (med(records, 'other', None, o, load, 'hackbench_s') for o in (False, True))
        ok = None if None in (on, off) else on <= off * (1 + COST_PCT / 100)
        out.append(verdict(ok, 'HRTICK under %s: hackbench beside cyclictest at 0 within %d%% '
                           'of its time without' % (name, COST_PCT),
                           '%s s with, %s s without' % (fmt(on, 3), fmt(off, 3))))
    return '\n'.join(out) + '\n'


def cover_hrtick(records):
    """The cover letter's lines: per load and row, p99 (max) without and
    with HRTICK, and hackbench's time; None without the runs."""
    form = '%-26s %14s %14s'
    out = [form % ('p99 (max) us', 'HRTICK off', 'HRTICK on')]
    for load in HRTICK_LOADS:
        out.append(LOAD_LABELS[load])
        for kind, v in HRTICK_ROWS + (('fifo', None),):
            cells = []
            for on in (False, True):
                p99, mx = (med(records, kind, v, on, load, k) for k in ('p99_us', 'max_us'))
                if kind == 'fifo' and on:
                    cells.append('-')
                elif p99 is None or mx is None:
                    return None
                else:
                    cells.append('%s (%s)' % (fmt(p99, 0), fmt(mx, 0)))
            out.append(form % ('  ' + COVER_LABELS[kind, v], cells[0], cells[1]))
        hb = [med(records, 'other', None, on, load, 'hackbench_s') for on in (False, True)]
        if None in hb:
            return None
        out.append(form % ('  hackbench s', fmt(hb[0], 3), fmt(hb[1], 3)))
    return '\n'.join(out) + '\n'


COVER_LABELS = {('other', None): '0', ('other', -20): '-20',
                ('slack1', -20): '-20, 1 ns timer slack',
                ('runtime', None): 'sched_runtime 0.1 ms', ('fifo', None): 'SCHED_FIFO 95'}

FIGURES = (
    Figure('15', 'HRTICK', HRTICK_MODES, plan_hrtick, figure15, claims=claims_hrtick,
           cover=cover_hrtick),
)
