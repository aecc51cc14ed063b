# SPDX-License-Identifier: GPL-2.0
"""Figure 14: the floor, -20 against SCHED_FIFO on the same load, where
the sleeper uses less than half its fair share of the CPU."""
from ..report import fmt, table
from .common import Boot, Figure, Run
from .tail import (LIGHT_INTERVAL, LOAD_LABELS, SLICE_TOPO, SWEEP_LOADS, cyclictest_run,
                   slice_label, slice_stats)

FLOOR_MODES = dict(
    quick=dict(loops=1000, light_loops=200, reps=3),
    full=dict(loops=5000, light_loops=1000, reps=5),
)
# Each sleeper: (its label, the rows of -20 with 1 ns of timer slack and
# of SCHED_FIFO).  1 kHz is figure 6's cyclictest; 100 Hz a lighter one.
SLEEPERS = (('1 kHz', 'slack1', 'fifo'), ('100 Hz', 'light-slack1', 'light-fifo'))
# The claim's bounds: -20's p99 within P99_BOUND x FIFO's, its maximum
# within MAX_BOUND x FIFO's, where -20's CPU is below SHARE_PART of its
# fair share.
P99_BOUND, MAX_BOUND, SHARE_PART = 2, 4, 0.5
# Two CPUs under -icount: the 1 kHz sleeper's rows beside two loads.
# QEMU then runs the vCPUs in turn and virtual time passes for both while
# one of them executes, so the emulator's own floor comes first: the floor
# is judged there only where SCHED_FIFO's p99 on two CPUs is within
# P99_BOUND x its p99 on one CPU under the same load.
TWO_TOPO = '1x2x1'
TWO_LOADS = ('hackbench', 'hogs8')
# How the cover letter's block names them.
TWO_COVER_LABELS = {'hackbench': 'hb -g 1, 2 CPUs', 'hogs8': '8 hogs, 2 CPUs'}


def one_cpu(records):
    """The records of the runs on one CPU (those on two have cpus=2)."""
    return [r for r in records if r.get('cpus', 1) in (1, '1')]


def two_cpus(records):
    return [r for r in records if r.get('cpus') in (2, '2')]


def plan_floor(p):
    """One boot: every load of figure 6's sweep, each sleeper's two rows."""
    runs = [cyclictest_run(p, row, -20 if row.endswith('slack1') else None, rep, load=load,
                           figure='14')
            for rep in range(1, p['reps'] + 1) for load in SWEEP_LOADS
            for _, slack, fifo in SLEEPERS for row in (slack, fifo)]
    two = []
    for rep in range(1, p['reps'] + 1):
        for load in TWO_LOADS:
            for row in ('fifo', 'slack1'):
                r = cyclictest_run(p, row, -20 if row == 'slack1' else None, rep, load=load,
                                   figure='14')
                two.append(Run('14', 'cyclictest', r.value, (), r.cmd, row=row, load=load,
                               rep=rep, cpus=2))
    return [Boot('bench-floor', 'patched', SLICE_TOPO, 'icount', False, runs),
            Boot('bench-floor-2cpu', 'patched', TWO_TOPO, 'icount', False, two)]


def med(records, load, row, k):
    v = -20 if row.endswith('slack1') else None
    return slice_stats(records, 'patched', row, v, load, figure='14').get(k, (None,))[0]


def floor_of(records, load, slack, fifo):
    """(verdict, cells) of the floor on @load for one sleeper: verdict is
    True or False where the claim applies, 'n/a' where -20 used
    SHARE_PART of its fair share or more, None without the runs."""
    s99, smax, f99, fmax = (med(records, load, row, k) for row in (slack, fifo)
                            for k in ('p99_us', 'max_us'))
    cpu, runnable = (med(records, load, slack, k) for k in ('thread_cpu_pct', 'thread_runnable'))
    share = 100 / runnable if runnable else None
    cells = dict(s99=s99, smax=smax, f99=f99, fmax=fmax, cpu=cpu, share=share,
                 runnable=runnable)
    if None in cells.values():
        return None, cells
    within = s99 <= P99_BOUND * f99 and smax <= MAX_BOUND * fmax
    return (within if cpu < SHARE_PART * share else ('n/a', within)), cells


def figure14(records, p):
    md = ['## 14. The floor: -20 against SCHED_FIFO where fairness allows\n',
          'The patched kernel on one CPU under QEMU -icount (topology %s): cyclictest at '
          'latency nice -20 with 1 ns of timer slack (PR_SET_TIMERSLACK, as an RT thread '
          'has none) and as SCHED_FIFO 95, beside each load of figure 6\'s sweep, at 1 kHz '
          '(`-i 1000 -l %d`) and at 100 Hz (`-i %d -l %d`).  cpu %%: the CPU the measuring '
          'thread used while it measured, percent (its sum_exec_runtime over the time it '
          'ran); runnable: the average number of tasks running or waiting meanwhile '
          '(/proc/schedstat); fair share: 100 / runnable percent.  Median of %d runs per '
          'row, spread = (max - min) / median.  The claim: -20\'s p99 within %dx '
          'SCHED_FIFO\'s and its maximum within %dx, where -20 used less than half its '
          'fair share.\n'
          % (SLICE_TOPO, p['loops'], LIGHT_INTERVAL, p['light_loops'], p['reps'], P99_BOUND,
             MAX_BOUND)]
    head = ['load', 'sleeper', 'row', 'runs', 'p50', 'p99', 'p99.9', 'max', 'p99 spread %',
            'cpu %', 'runnable', 'fair share %']
    md.append(table(head, table_rows(one_cpu(records), SWEEP_LOADS, SLEEPERS)))
    two = table_rows(two_cpus(records), TWO_LOADS, SLEEPERS[:1])
    if two:
        md.append('### Two CPUs\n\nThe 1 kHz sleeper\'s rows on two CPUs under -icount '
                  '(topology %s), beside %s; the measuring thread on CPU 0.  QEMU then runs '
                  'the vCPUs in turn, and virtual time passes for both while one executes, so '
                  'the emulator\'s own floor comes first: the floor is judged on two CPUs only '
                  'where SCHED_FIFO\'s p99 there is within %dx of its p99 on one CPU under the '
                  'same load.\n' % (TWO_TOPO, ' and '.join(LOAD_LABELS[x] for x in TWO_LOADS),
                                    P99_BOUND))
        md.append(table(head, two))
    return '\n'.join(md)


def table_rows(records, loads, sleepers):
    """The table's rows of @loads and @sleepers in @records."""
    rows = []
    for load in loads:
        for hz, slack, fifo in sleepers:
            for row in (slack, fifo):
                v = -20 if row == slack else None
                st = slice_stats(records, 'patched', row, v, load, figure='14')
                if not st:
                    continue
                m = {k: st[k][0] if k in st else None
                     for k in ('p50_us', 'p99_us', 'p999_us', 'max_us', 'thread_cpu_pct',
                               'thread_runnable')}
                share = 100 / m['thread_runnable'] if m['thread_runnable'] else None
                rows.append([LOAD_LABELS[load], hz, slice_label(row.replace('light-', ''), v),
                             st['p99_us'][2] if 'p99_us' in st else 0,
                             fmt(m['p50_us'], 0), fmt(m['p99_us'], 0), fmt(m['p999_us'], 0),
                             fmt(m['max_us'], 0),
                             fmt(st.get('p99_us', (None, None))[1], 0),
                             fmt(m['thread_cpu_pct'], 2), fmt(m['thread_runnable'], 1),
                             fmt(share, 1)])
    return rows


def verdict_line(text, verdict, c):
    """A claim's line: holds, FAILS, does not apply (the sleeper used half
    its share or more) or NOT CHECKED."""
    detail = 'p99 %s against %s us, max %s against %s us; cpu %s%%, fair share %s%% ' \
        'of %s runnable' % (fmt(c['s99'], 0), fmt(c['f99'], 0), fmt(c['smax'], 0),
                            fmt(c['fmax'], 0), fmt(c['cpu'], 2), fmt(c['share'], 1),
                            fmt(c['runnable'], 1))
    if verdict is None:
        return '- %s: NOT CHECKED (no runs) (%s).' % (text, detail)
    if isinstance(verdict, tuple):
        return ('- %s: does not apply, -20 used half its fair share or more; the rows %s '
                '(%s).' % (text, 'are within it' if verdict[1] else 'are not', detail))
    return '- %s: %s (%s).' % (text, 'holds' if verdict else 'FAILS', detail)


def claim_text(where, hz):
    return 'floor %s, %s sleeper: -20 with 1 ns of timer slack within %dx of SCHED_FIFO\'s ' \
        'p99 and %dx of its max' % (where, hz, P99_BOUND, MAX_BOUND)


def two_cpu_floor(records, load):
    """(judged, verdict, cells, FIFO's p99 on one CPU) of the floor on two
    CPUs under @load: judged is None without the runs, False where the
    emulator's floor is too high."""
    _, slack, fifo = SLEEPERS[0]
    verdict, c = floor_of(two_cpus(records), load, slack, fifo)
    one = med(one_cpu(records), load, fifo, 'p99_us')
    if c['f99'] is None or one is None:
        return None, verdict, c, one
    return c['f99'] <= P99_BOUND * one, verdict, c, one


def claims_floor(records):
    """Per load and sleeper: the floor holds, FAILS, does not apply (the
    sleeper used half its share or more) or is NOT CHECKED; on two CPUs,
    first whether the emulator's floor allows judging it."""
    out = []
    one = one_cpu(records)
    for load in SWEEP_LOADS:
        for hz, slack, fifo in SLEEPERS:
            verdict, c = floor_of(one, load, slack, fifo)
            out.append(verdict_line(claim_text('under %s' % LOAD_LABELS[load], hz), verdict, c))
    for load in TWO_LOADS:
        judged, verdict, c, fifo1 = two_cpu_floor(records, load)
        where = 'on two CPUs under %s' % LOAD_LABELS[load]
        if judged is None:
            out.append('- %s: NOT CHECKED (no runs on two CPUs).' % claim_text(where, '1 kHz'))
        elif not judged:
            out.append('- %s: not judged, the emulator\'s floor is too high (SCHED_FIFO\'s p99 '
                       '%s us on two CPUs against %s us on one; -20 with 1 ns of timer slack: '
                       'p99 %s us, max %s us).'
                       % (claim_text(where, '1 kHz'), fmt(c['f99'], 0), fmt(fifo1, 0),
                          fmt(c['s99'], 0), fmt(c['smax'], 0)))
        else:
            out.append(verdict_line(claim_text(where, '1 kHz'), verdict, c))
    return '\n'.join(out) + '\n'


def cover_floor(records):
    """The cover letter's lines: per load and sleeper, -20's and FIFO's
    p99 (max), -20's CPU and its fair share, and the verdict; None
    without the runs."""
    form = '%-16s %-7s %12s %12s %7s %7s  %s'
    out = [form % ('p99 (max) us', 'sleeper', '-20, 1 ns', 'FIFO', 'cpu %', 'share %',
                   'floor')]
    for load in SWEEP_LOADS:
        for hz, slack, fifo in SLEEPERS:
            verdict, c = floor_of(one_cpu(records), load, slack, fifo)
            if verdict is None:
                return None
            word = ('does not apply' if isinstance(verdict, tuple)
                    else 'holds' if verdict else 'FAILS')
            out.append(form % (LOAD_LABELS[load], hz,
                               '%s (%s)' % (fmt(c['s99'], 0), fmt(c['smax'], 0)),
                               '%s (%s)' % (fmt(c['f99'], 0), fmt(c['fmax'], 0)),
                               fmt(c['cpu'], 2), fmt(c['share'], 1), word))
    for load in TWO_LOADS:
        judged, verdict, c, fifo1 = two_cpu_floor(records, load)
        if judged is None:
            continue
        word = ('not judged: FIFO\'s p99 is %s us on one CPU' % fmt(fifo1, 0) if not judged
                else 'does not apply' if isinstance(verdict, tuple)
                else 'holds' if verdict else 'FAILS')
        out.append(form % (TWO_COVER_LABELS[load], '1 kHz',
                           '%s (%s)' % (fmt(c['s99'], 0), fmt(c['smax'], 0)),
                           '%s (%s)' % (fmt(c['f99'], 0), fmt(c['fmax'], 0)),
                           fmt(c['cpu'], 2), fmt(c['share'], 1), word))
    return '\n'.join(out) + '\n'


FIGURES = (
    Figure('14', 'The floor', FLOOR_MODES, plan_floor, figure14, claims=claims_floor,
           cover=cover_floor),
)
