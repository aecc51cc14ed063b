# SPDX-License-Identifier: GPL-2.0
"""Figures 3 and 4: the cost when unused, and the RFC's table."""
import statistics

from ..report import find, fmt, num, pct, sig, table, vname
from .common import Boot, Figure, Run, ncpus


# The RFC's uperf thread counts on its 88-CPU machine, as shares of the CPUs.
RFC_THREADS = (8, 16, 32, 48, 64, 128)
RFC_CPUS = 88
# The RFC's table (seed cover letter): threads -> (baseline, SIS_CORE, NO_SIS_CORE).
RFC_TABLE = {8: (64.66, 64.38, 64.79), 16: (123.34, 122.88, 125.87),
             32: (215.18, 215.55, 247.77), 48: (278.56, 321.6, 321.2),
             64: (259.99, 319.45, 333.95), 128: (431.1, 437.69, 431.09)}
UNUSED_TOPO = '1x8x2'


def pairs_for(threads, n):
    """The RFC's thread count on 88 CPUs, as the same share of n CPUs."""
    return max(1, round(threads * n / RFC_CPUS))


UNUSED_MODES = dict(
    quick=dict(shares=(8, 32, 64), pp_seconds=0.5, reps=3, wall_shares=(32,),
               wall_reps=3, wall_seconds=2.0, hb_loops=60, wk_rounds=400),
    full=dict(shares=RFC_THREADS, pp_seconds=1.0, reps=5, wall_shares=(8, 32, 64),
              wall_reps=5, wall_seconds=3.0, hb_loops=120, wk_rounds=1000),
)


def unused_runs(p, value, features, rep):
    """pingpong at each share (figure 3 at the default, 4 with a value);
    at the default also messaging (processes, threads) and wakeup."""
    n = ncpus(UNUSED_TOPO)
    runs = []
    for t in p['shares']:
        runs.append(Run('3' if value is None else '4', 'pingpong', value, features,
                        ['pingpong', '-p', pairs_for(t, n), '-t', p['pp_seconds']],
                        threads=t, rep=rep))
    if value is None:
        for thr in ((), ('-T',)):
            runs.append(Run('3', 'messaging-' + ('threads' if thr else 'processes'),
                            None, features, ['messaging', '-g', 1, '-l', p['hb_loops']]
                            + list(thr), rep=rep))
        runs.append(Run('3', 'wakeup', None, features,
                        ['wakeup', '-m', 2, '-w', n // 2 - 1, '-n', p['wk_rounds']],
                        rep=rep))
    return runs


def plan_unused(p):
    n = ncpus(UNUSED_TOPO)
    reps = p['reps']
    boots = []
    for kernel in ('baseline', 'patched'):
        runs = []
        for rep in range(1, reps + 1):
            runs += unused_runs(p, None, ('SIS_UTIL', 'DELAY_DEQUEUE') +
                                (('SIS_CORE',) if kernel == 'patched' else ()), rep)
        boots.append(Boot('bench-unused-%s' % kernel, kernel, UNUSED_TOPO, 'icount',
                          False, runs))
    # The same boot of the patched kernel again: icount must repeat.
    runs = []
    for rep in range(reps + 1, 2 * reps + 1):
        runs += unused_runs(p, None, ('SIS_UTIL', 'DELAY_DEQUEUE', 'SIS_CORE'), rep)
    boots.append(Boot('bench-unused-patched-again', 'patched', UNUSED_TOPO, 'icount',
                      False, runs))
    # Wall clock: noisy, so repeated and reported with the spread.
    for kernel in ('baseline', 'patched'):
        runs = []
        values = (None, -20) if kernel == 'patched' else (None,)
        for rep in range(1, p['wall_reps'] + 1):
            for v in values:
                for t in p['wall_shares']:
                    runs.append(Run('3w', 'pingpong', v, (),
                                    ['pingpong', '-p', pairs_for(t, n), '-t',
                                     p['wall_seconds']], threads=t, rep=rep))
        boots.append(Boot('bench-wall-%s' % kernel, kernel, UNUSED_TOPO, 'wall',
                          False, runs))
    return boots


def plan_rfc(p):
    runs = []
    for v in (-19, -20):
        for core in ('SIS_CORE', 'NO_SIS_CORE'):
            runs += unused_runs(p, v, (core, 'SIS_UTIL', 'DELAY_DEQUEUE'), 1)
    return [Boot('bench-unused-patched', 'patched', UNUSED_TOPO, 'icount', False, runs)]


def metric_keys(workload):
    if workload == 'wakeup':
        return ('p50_ns', 'p99_ns', 'p999_ns')
    return ('tps',) if workload == 'pingpong' else ('seconds',)


def median_of(records, kernel, workload, threads, reps, key):
    """The median of @key over the repetitions @reps of a figure 3 run, and
    the spread of the repetitions (max - min, % of the median)."""
    xs = [num(r, key) for r in records if r['figure'] == '3' and r['kernel'] == kernel
          and r['workload'] == workload and r.get('threads') == threads
          and r.get('rep') in reps]
    xs = [x for x in xs if x is not None]
    if not xs:
        return None, None
    m = statistics.median(xs)
    return m, (100 * (max(xs) - min(xs)) / m if m else None)


def figure3(records, p):
    """(Markdown, largest difference against baseline %, largest difference
    between the two boots of the patched kernel %)."""
    reps = p.get('reps', 1)
    first, second = range(1, reps + 1), range(reps + 1, 2 * reps + 1)
    md = ['## 3. Cost when unused: patched at the default against baseline (repeatable mode)\n',
          'Topology %s.  pingpong: transactions per second (higher is better); '
          'messaging: seconds (lower is better); wakeup: latency percentiles in ns '
          '(lower is better).  Each figure is the median of %d runs in one boot; '
          'the spread is (max - min) / median of those runs.\n' % (UNUSED_TOPO, reps)]
    rows, worst = [], 0.0
    n = ncpus(UNUSED_TOPO)
    seen = []
    for r in records:
        if r['figure'] != '3' or r['kernel'] != 'patched' or r.get('rep') != 1:
            continue
        w, t = r['workload'], r.get('threads')
        seen.append((w, t))
        for k in metric_keys(w):
            b, bs = median_of(records, 'baseline', w, t, first, k)
            x, xs = median_of(records, 'patched', w, t, first, k)
            if b is None or x is None:
                continue
            d = pct(x, b)
            if d is not None:
                worst = max(worst, abs(d))
            what = w
            if t:
                what += ' %d pairs (%d%%)' % (pairs_for(t, n), round(100 * t / RFC_CPUS))
            rows.append([what, k, sig(b), fmt(bs, 2), sig(x), fmt(xs, 2), fmt(d, 2),
                         'yes' if d is not None and abs(d) <= 0.5 else 'NO'])
    md.append(table(['workload', 'figure', 'baseline', 'spread %', 'patched, default',
                     'spread %', 'difference %', 'within 0.5%'], rows))
    md.append('Largest difference: %.2f%%.\n' % worst)
    # Repeatability: the patched kernel booted twice.
    rows, worst_rep = [], 0.0
    for w, t in seen:
        for k in metric_keys(w):
            m1, _ = median_of(records, 'patched', w, t, first, k)
            m2, _ = median_of(records, 'patched', w, t, second, k)
            d = pct(m2, m1)
            if d is None:
                continue
            worst_rep = max(worst_rep, abs(d))
            rows.append([w + (' %d pairs' % pairs_for(t, n) if t else ''), k, sig(m1),
                         sig(m2), fmt(d, 3)])
    if rows:
        md.append('### Repeatability: two boots of the patched kernel, same runs\n')
        md.append(table(['workload', 'figure', 'first boot', 'second boot', 'difference %'],
                        rows))
        md.append('Largest difference between the two boots: %.3f%% (%s 1%%).\n'
                  % (worst_rep, 'within' if worst_rep <= 1 else 'NOT within'))
    # Wall clock.
    rows = []
    for t in p['wall_shares']:
        for kernel, v in (('baseline', None), ('patched', None), ('patched', -20)):
            xs = [num(r, 'tps') for r in records if r['figure'] == '3w' and
                  r['kernel'] == kernel and r['value'] == v and r.get('threads') == t]
            xs = [x for x in xs if x is not None]
            if not xs:
                continue
            rows.append(['%d pairs' % pairs_for(t, n), kernel, vname(v), len(xs),
                         fmt(statistics.mean(xs), 0), fmt(min(xs), 0), fmt(max(xs), 0),
                         fmt(100 * (max(xs) - min(xs)) / statistics.mean(xs), 1)])
    if rows:
        md.append('### Wall-clock mode (multi-threaded TCG on this host: noisy)\n')
        md.append(table(['pingpong', 'kernel', 'value', 'runs', 'mean tps', 'min', 'max',
                         'spread %'], rows))
    return '\n'.join(md), worst, worst_rep


def figure4(records, p):
    n = ncpus(UNUSED_TOPO)
    md = ['## 4. The RFC\'s table: pingpong at -19 and -20 against baseline (repeatable mode)\n',
          'Topology %s; the RFC\'s thread counts (of 88 CPUs) as the same share of '
          '%d CPUs.  Transactions per second, and %% against baseline.  Beside it, '
          'the RFC\'s uperf figures (44 cores / 88 threads, latency-nice=5 of its '
          '1-100 scale, about -19 here).\n' % (UNUSED_TOPO, n)]
    rows = []
    for t in p['shares']:
        # The baseline column is figure 3's (hence needs=('3',)).
        base, _ = median_of(records, 'baseline', 'pingpong', t, range(1, p.get('reps', 1) + 1),
                            'tps')
        row = ['%d (%d pairs)' % (t, pairs_for(t, n)), fmt(base, 0)]
        for v in (-19, -20):
            for core in ('SIS_CORE', 'NO_SIS_CORE'):
                r = find(records, figure='4', workload='pingpong', threads=t, value=v, core=core)
                x = num(r, 'tps') if r else None
                row.append('%s (%s%%)' % (fmt(x, 0), fmt(pct(x, base), 2)))
        rfc = RFC_TABLE.get(t)
        row.append('%.2f / %.2f (%+.2f%%) / %.2f (%+.2f%%)' % (
            rfc[0], rfc[1], pct(rfc[1], rfc[0]), rfc[2], pct(rfc[2], rfc[0])) if rfc else '-')
        rows.append(row)
    md.append(table(['threads', 'baseline', '-19, SIS_CORE', '-19, NO_SIS_CORE',
                     '-20, SIS_CORE', '-20, NO_SIS_CORE', 'RFC: baseline / 5,SIS_CORE / '
                     '5,NO_SIS_CORE'], rows))
    return '\n'.join(md)


FIGURES = (
    Figure('3', 'Cost when unused', UNUSED_MODES, plan_unused,
           lambda records, p: figure3(records, p)[0]),
    Figure('4', 'The RFC\'s table', UNUSED_MODES, plan_rfc, figure4, needs=('3',)),
)
