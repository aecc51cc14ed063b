# SPDX-License-Identifier: GPL-2.0
"""Figure 16: fairness kept, the CPU share of a task beside a hog."""
import statistics

from ..report import fmt, num, table, vname
from .common import Boot, Figure, Run

FAIR_MODES = dict(
    quick=dict(ms=2000, reps=3),
    full=dict(ms=4000, reps=5),
)
FAIR_TOPO = '1x1x1'
# The tasks beside a hog at 0, as (run us, sleep us): one that runs 4 ms
# and sleeps 100 us (nearly a hog), ones that run 0.5 ms and sleep briefly
# and often (what would farm credit if credit gave lag), and bursts within
# -20's 0.1 ms request, so that every wakeup would preempt.
DUTIES = ((4000, 100), (500, 10), (500, 100), (500, 1000), (80, 10))
# The values of the patched kernel's tasks; the baseline's run at its default.
DUTY_VALUES = (0, -20)
# Two hogs: (the first one's value, the second one's); None: not set.
HOG_PAIRS = ((0, 0), (-20, 0), (19, 0))
# The claims' bounds, in points of the CPU: a task that runs 4 ms and
# sleeps 100 us gets 47..53% at -20 (as at 0), a hog at -20 or 19 beside one
# at 0 as well; a task at -20 gets at most 53% whatever its duty, and no
# more than DUTY_SLACK points above the same task at 0, nor less than
# DUTY_SLACK points below it; value 0's share within DUTY_SLACK points of
# the baseline's.
HALF_LOW, HALF_HIGH, DUTY_SLACK = 47, 53, 3


def share_run(p, run_us, sleep_us, value, hog, rep):
    """lnbench share: a task that runs @run_us and sleeps @sleep_us (0: a
    hog) at @value beside a hog at @hog (None: not set), repetition @rep."""
    cmd = ['share', '-r', run_us, '-s', sleep_us, '-t', p['ms']]
    if value is not None:
        cmd += ['-V', value]
    if hog is not None:
        cmd += ['-W', hog]
    return Run('16', 'share', None, (), cmd, duty='%d/%d' % (run_us, sleep_us),
               task=vname(value), hog=vname(hog), rep=rep)


def plan_fairness(p):
    """The baseline (nothing set) and the patched kernel, each boot with a
    first run that the table leaves out: the first seconds after boot take
    a point or two from whichever task runs then."""
    boots = []
    for kernel in ('baseline', 'patched'):
        patched = kernel == 'patched'
        runs = [share_run(p, 4000, 100, None, None, 0)]
        for rep in range(1, p['reps'] + 1):
            for run_us, sleep_us in DUTIES:
                for v in (DUTY_VALUES if patched else (None,)):
                    runs.append(share_run(p, run_us, sleep_us, v, None, rep))
            for a, b in (HOG_PAIRS if patched else ((None, None),)):
                runs.append(share_run(p, 1000, 0, a, b, rep))
        boots.append(Boot('bench-fairness-%s' % kernel, kernel, FAIR_TOPO, 'icount', False,
                          runs))
    return boots


def share_of(records, kernel, duty, task, hog='default'):
    """(median share %, spread in points, runs, median task ms, median hog
    ms) of a row, or None without its runs."""
    rs = [r for r in records if r['figure'] == '16' and r['kernel'] == kernel and
          r.get('duty') == duty and r.get('task') == task and r.get('hog') == hog and
          str(r.get('rep')) != '0']
    xs = [num(r, 'share_pct') for r in rs]
    xs = [x for x in xs if x is not None and x >= 0]
    if not xs:
        return None
    ms = [statistics.median([num(r, k) for r in rs if num(r, k) is not None] or [0])
          for k in ('task_ms', 'hog_ms')]
    return statistics.median(xs), max(xs) - min(xs), len(xs), ms[0], ms[1]


def rows_of(kernel):
    """(duty, task value name, hog value name) of each row of @kernel."""
    if kernel == 'baseline':
        return ([('%d/%d' % d, 'default', 'default') for d in DUTIES] +
                [('1000/0', 'default', 'default')])
    return ([('%d/%d' % d, vname(v), 'default') for d in DUTIES for v in DUTY_VALUES] +
            [('1000/0', vname(a), vname(b)) for a, b in HOG_PAIRS])


def duty_label(duty, joint=', '):
    """'runs 4 ms, sleeps 100 us' for '4000/100' (@joint between), 'hog'
    for a task that never sleeps."""
    run_us, sleep_us = (int(x) for x in duty.split('/'))
    if not sleep_us:
        return 'hog'
    return 'runs %s%ssleeps %d us' % ('%d ms' % (run_us // 1000) if run_us >= 1000
                                      else '%d us' % run_us, joint, sleep_us)


def figure16(records, p):
    md = ['## 16. Fairness kept: the CPU share of a task beside a hog (repeatable mode)\n',
          'Topology %s under QEMU -icount: `lnbench share`, a task pinned to CPU 0 that uses '
          'a burst of CPU time and sleeps (1 ns of timer slack, so no longer than asked), '
          'again and again, beside a hog at 0 on the same CPU; or two hogs.  Each process '
          'keeps its own CPU time (CLOCK_THREAD_CPUTIME_ID); the share is the task\'s part of '
          'what both got over %d ms, after 200 ms of warm-up.  Each boot starts with a run '
          'the table leaves out.  Median of %d runs per row; spread: max - min, in points.  '
          'Latency nice changes who waits, never what each gets: the claims below.\n'
          % (FAIR_TOPO, p['ms'], p['reps'])]
    rows = []
    for kernel in ('baseline', 'patched'):
        for duty, task, hog in rows_of(kernel):
            got = share_of(records, kernel, duty, task, hog)
            if got is None:
                continue
            m, spread, n, tms, hms = got
            rows.append([kernel, duty_label(duty), task, hog, n, fmt(m, 2), fmt(spread, 2),
                         fmt(tms, 1), fmt(hms, 1)])
    md.append(table(['kernel', 'task', 'task\'s value', 'hog\'s value', 'runs', 'share %',
                     'spread (points)', 'task ms', 'hog ms'], rows))
    return '\n'.join(md)


def _median(records, kernel, duty, task, hog='default'):
    got = share_of(records, kernel, duty, task, hog)
    return None if got is None else got[0]


def claims_fairness(records):
    """Each claim holds, FAILS, or is NOT CHECKED without its runs."""
    out = []

    def claim(text, ok, detail):
        verdict = 'NOT CHECKED (no runs)' if ok is None else 'holds' if ok else 'FAILS'
        out.append('- %s: %s (%s).' % (text, verdict, detail))

    def half(text, s):
        claim(text, None if s is None else HALF_LOW <= s <= HALF_HIGH,
              '%s%%' % fmt(s, 2))

    half('a task at -20 that runs 4 ms and sleeps 100 us beside a hog at 0 gets %d..%d%%'
         % (HALF_LOW, HALF_HIGH), _median(records, 'patched', '4000/100', '-20'))
    for a in ('-20', '19'):
        half('a hog at %s beside a hog at 0 gets %d..%d%%' % (a, HALF_LOW, HALF_HIGH),
             _median(records, 'patched', '1000/0', a, '0'))
    for run_us, sleep_us in DUTIES:
        duty = '%d/%d' % (run_us, sleep_us)
        s20, s0 = (_median(records, 'patched', duty, v) for v in ('-20', '0'))
        ok = None if None in (s20, s0) else s20 <= HALF_HIGH and s20 <= s0 + DUTY_SLACK
        claim('a task at -20 that %s beside a hog at 0 gets at most %d%%, and no more than '
              '%d points above the same task at 0'
              % (duty_label(duty, ' and '), HALF_HIGH, DUTY_SLACK),
              ok, '%s%% against %s%%' % (fmt(s20, 2), fmt(s0, 2)))
    for run_us, sleep_us in DUTIES:
        duty = '%d/%d' % (run_us, sleep_us)
        s20, s0 = (_median(records, 'patched', duty, v) for v in ('-20', '0'))
        claim('a task at -20 that %s beside a hog at 0 gets no less than %d points below the '
              'same task at 0' % (duty_label(duty, ' and '), DUTY_SLACK),
              None if None in (s20, s0) else s20 >= s0 - DUTY_SLACK,
              '%s%% against %s%%' % (fmt(s20, 2), fmt(s0, 2)))
    for run_us, sleep_us in DUTIES + ((1000, 0),):
        duty = '%d/%d' % (run_us, sleep_us)
        hog = '0' if not sleep_us else 'default'
        s0 = _median(records, 'patched', duty, '0', hog)
        base = _median(records, 'baseline', duty, 'default')
        ok = None if None in (s0, base) else abs(s0 - base) <= DUTY_SLACK
        what = ('a hog at 0 beside a hog at 0' if not sleep_us else
                'a task at 0 that %s' % duty_label(duty, ' and '))
        claim('value 0 as mainline: %s gets the baseline\'s share, within %d points'
              % (what, DUTY_SLACK), ok, '%s%% against %s%%' % (fmt(s0, 2), fmt(base, 2)))
    return '\n'.join(out) + '\n'


def cover_fairness(records):
    """The cover letter's lines: each task's share beside a hog at 0 on
    both kernels, and the hogs'; None without the runs."""
    form = '%-28s %9s %9s %9s %9s'
    out = [form % ('share % beside a hog at 0', 'baseline', '0', '-20', '19')]
    for run_us, sleep_us in DUTIES + ((1000, 0),):
        duty = '%d/%d' % (run_us, sleep_us)
        hog = '0' if not sleep_us else 'default'
        cells = [_median(records, 'baseline', duty, 'default')] + \
            [_median(records, 'patched', duty, v, hog) for v in ('0', '-20')]
        cells.append(_median(records, 'patched', duty, '19', hog) if not sleep_us else None)
        if None in cells[:3] or (not sleep_us and cells[3] is None):
            return None
        out.append(form % ((duty_label(duty),) +
                           tuple('-' if c is None else fmt(c, 2) for c in cells)))
    return '\n'.join(out) + '\n'


FIGURES = (
    Figure('16', 'Fairness kept', FAIR_MODES, plan_fairness, figure16,
           claims=claims_fairness, cover=cover_fairness),
)
