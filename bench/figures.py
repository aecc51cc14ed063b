# SPDX-License-Identifier: GPL-2.0
"""The figures of make bench: the registry, and each figure's plan, table,
checked claims and plots.

A figure is one entry of FIGURES (a Figure): its id (what --only names),
its parameters per mode (quick, full), plan(p) -> the boots and runs it
needs, table(records, p) -> its Markdown, and optionally claims(records)
-> the statements it checks, plots(records, p) -> report.Plot specs, and
needs (figures whose runs its table reads).  Figures that name the same
boot share it: plan() merges their runs into one boot, in registry order.
Adding a figure is one entry here plus its workload in lnbench.c.

A run's record (runs.json) holds the run's figure, workload, kernel,
topology, mode, value, features, core/util, the run's meta (llc, threads,
rep), and the key=value figures lnbench printed; see report.records_of().
"""
import statistics

from harness import topology

from .report import Plot, find, fmt, num, pct, sig, table, vname

# Latency nice values of the patched kernel; None: none set (the default, 0).
VALUES = (None, -10, -19, -20)
# The RFC's uperf thread counts on its 88-CPU machine, as shares of the CPUs.
RFC_THREADS = (8, 16, 32, 48, 64, 128)
RFC_CPUS = 88
# The RFC's table (seed cover letter): threads -> (baseline, SIS_CORE, NO_SIS_CORE).
RFC_TABLE = {8: (64.66, 64.38, 64.79), 16: (123.34, 122.88, 125.87),
             32: (215.18, 215.55, 247.77), 48: (278.56, 321.6, 321.2),
             64: (259.99, 319.45, 333.95), 128: (431.1, 437.69, 431.09)}
UNUSED_TOPO = '1x8x2'


# ---------------------------------------------------------------- plan

class Run:
    """One workload in a guest: an id, what it measures, and its command."""

    def __init__(self, figure, workload, value, features, cmd, **meta):
        self.figure, self.workload, self.value = figure, workload, value
        self.features, self.cmd, self.meta = features, cmd, meta
        self.id = '%s-%s-%s-%s' % (figure, workload, 'def' if value is None
                                   else value, '-'.join(features) or 'default')
        for k in sorted(meta):
            self.id += '-%s%s' % (k, meta[k])


class Boot:
    """One guest: its name (and results folder boots/<name>), kernel
    (baseline or patched), topology, mode (icount or wall), whether
    schedstats are on, its runs in order, and its root file system
    (ROOTFS: '' for the initramfs, 'system' for the Debian image)."""

    def __init__(self, name, kernel, topo, mode, schedstats, runs, rootfs=''):
        self.name, self.kernel, self.topo, self.mode = name, kernel, topo, mode
        self.schedstats, self.runs, self.rootfs = schedstats, runs, rootfs


class Figure:
    """A registry entry; see the module's docstring."""

    def __init__(self, fid, title, modes, plan, table, claims=None, plots=None,
                 needs=(), cover=None):
        self.id, self.title, self.modes = fid, title, modes
        self.plan, self.table, self.claims, self.plots = plan, table, claims, plots
        self.needs, self.cover = tuple(needs), cover


def ncpus(topo):
    return topology.parse(topo).cpus


def cpulist(cpus):
    return ','.join(str(c) for c in cpus)


def pairs_for(threads, n):
    """The RFC's thread count on 88 CPUs, as the same share of n CPUs."""
    return max(1, round(threads * n / RFC_CPUS))


def budget(value, llc, smt=2):
    """latency_nice_scan_budget() of the series (kernel/sched/sched.h)."""
    if value is None or value >= 0:
        return None
    return max(max(smt, 2), -(-llc * (value + 20) // 20))


# ------------------------------------------------- figures 1 and 2: the LLC

LLC_MODES = dict(
    quick=dict(llc=(8, 16, 32, 64), rounds=160),
    full=dict(llc=(8, 16, 32, 64), rounds=800),
)


def llc_boots(p, runs_of):
    """A baseline and a patched boot per LLC size (1 socket x llc/2 cores x
    2 threads, repeatable mode, schedstats on), with runs_of(kernel, llc,
    values, cores) as their runs."""
    boots = []
    for llc in p['llc']:
        for kernel in ('baseline', 'patched'):
            values = VALUES if kernel == 'patched' else (None,)
            cores = (('SIS_CORE',), ('NO_SIS_CORE',)) if kernel == 'patched' else ((),)
            boots.append(Boot('bench-llc%d-%s' % (llc, kernel), kernel,
                              '1x%dx2' % (llc // 2), 'icount', True,
                              runs_of(llc, values, cores)))
    return boots


def plan_search(p):
    def runs_of(llc, values, cores):
        full_busy = cpulist(range(1, llc))
        runs = []
        # NO_DELAY_DEQUEUE: a task that blocks is dequeued, so that each
        # wakeup chooses a CPU (6.12 keeps some on the runqueue).
        for util in ('SIS_UTIL', 'NO_SIS_UTIL'):
            for v in values:
                for core in cores:
                    runs.append(Run('1', 'search', v, core + (util, 'NO_DELAY_DEQUEUE'),
                                    ['rtt', '-n', p['rounds'], '-b', full_busy], llc=llc))
        return runs
    return llc_boots(p, runs_of)


def plan_placement(p):
    def runs_of(llc, values, cores):
        # Every other core busy (both siblings), the waker's core not.
        half_busy = cpulist(c for c in range(llc) if (c // 2) % 2 == 1)
        return [Run('2', 'placement', v, core + ('SIS_UTIL', 'NO_DELAY_DEQUEUE'),
                    ['rtt', '-R', '-n', p['rounds'] // 2, '-b', half_busy], llc=llc)
                for v in values for core in cores]
    return llc_boots(p, runs_of)


def figure1(records, p):
    md = ['## 1. Idle CPU search cost as the LLC grows (repeatable mode)\n',
          'Every CPU of the LLC but the waker\'s (CPU 0) runs a pinned busy '
          'thread; the wakee may run anywhere, so each wakeup searches the LLC '
          'and finds nothing idle.  Per wakeup (%d round trips): CPUs probed, '
          'time in the search (ns of virtual time), share of wakeups that found '
          'an idle CPU; and the round trip time, against baseline.  "default" '
          'is the patched kernel with no latency nice set (0); the baseline '
          'kernel has no counters.\n' % p['rounds']]
    for util in ('SIS_UTIL', 'NO_SIS_UTIL'):
        for core in ('SIS_CORE', 'NO_SIS_CORE'):
            rows = []
            for llc in p['llc']:
                base = find(records, figure='1', kernel='baseline', llc=llc, util=util)
                for v in VALUES:
                    r = find(records, figure='1', kernel='patched', llc=llc, util=util,
                             core=core, value=v)
                    if not r:
                        continue
                    w = r.get('rounds') or 1
                    rows.append([llc, vname(v), fmt(num(r, 'probes') and num(r, 'probes') / w, 2),
                                 fmt(num(r, 'scan_ns') and num(r, 'scan_ns') / w, 0),
                                 fmt(num(r, 'found') is not None and 100 * num(r, 'found') / w, 1),
                                 fmt(num(r, 'rtt_ns'), 0),
                                 fmt(num(base, 'rtt_ns') if base else None, 0),
                                 fmt(pct(num(r, 'rtt_ns'),
                                         num(base, 'rtt_ns') if base else None), 2)])
            md.append('### %s, %s\n' % (util, core))
            md.append(table(['LLC', 'value', 'probed/wakeup', 'search ns/wakeup',
                             'found %', 'rtt ns', 'baseline rtt ns', 'rtt vs baseline %'], rows))
    return '\n'.join(md)


def cover_search(records):
    """Figure 1 as the cover letter quotes it: per LLC and value, CPUs
    probed / ns in the search per wakeup (NO_SIS_UTIL, SIS_CORE); None
    without the runs."""
    out = ['%-5s' % 'LLC' + ''.join('%-13s' % ('default' if v is None else v)
                                     for v in VALUES).rstrip()]
    llcs = sorted({r['llc'] for r in records if r['figure'] == '1' and r.get('llc')})
    for llc in llcs:
        cells = []
        for v in VALUES:
            r = find(records, figure='1', kernel='patched', llc=llc, util='NO_SIS_UTIL',
                     core='SIS_CORE', value=v)
            if not r or num(r, 'probes') is None or num(r, 'scan_ns') is None:
                return None
            w = r.get('rounds') or 1
            cells.append('%-13s' % ('%s / %s' % (fmt(num(r, 'probes') / w, 0),
                                                fmt(num(r, 'scan_ns') / w, 0))))
        out.append(('%-5d' % llc + ''.join(cells)).rstrip())
    return '\n'.join(out) + '\n' if llcs else None


def claims(records):
    """The statements the series makes, checked against the runs.  A run
    without the search counters fails the check: it proves nothing."""
    runs = [r for r in records if r['figure'] == '1' and r['kernel'] == 'patched'
            and r.get('value') is not None]
    bad = {-20: [], 'bounded': []}
    n = {-20: 0, 'bounded': 0}
    for r in runs:
        key = -20 if r['value'] == -20 else 'bounded'
        n[key] += 1
        probes, scans, time_ns = num(r, 'probes'), num(r, 'scans'), num(r, 'scan_ns')
        if probes is None or scans is None or time_ns is None:
            bad[key].append(r)
        elif probes > scans * budget(r['value'], r['llc']):
            bad[key].append(r)

    def verdict(key):
        if not n[key]:
            return 'NOT CHECKED (no runs)'
        return 'holds' if not bad[key] else 'FAILS in %d runs' % len(bad[key])
    return ('- -20: never more CPUs probed per search than the floor (the target\'s '
            'SMT sibling and one CPU more), at every LLC size: %s (%d runs).\n'
            '- -10 and -19: never more CPUs probed than the budget per '
            'search: %s (%d runs).\n' % (verdict(-20), n[-20], verdict('bounded'),
                                         n['bounded']))


def plots_search(records, p):
    """The LLC-growth curves: CPUs probed and time in the search per wakeup."""
    out = []
    for metric, label in (('probes', 'CPUs probed per wakeup'),
                          ('scan_ns', 'ns in the search per wakeup')):
        for util in ('NO_SIS_UTIL', 'SIS_UTIL'):
            lines = ['# llc ' + ' '.join(vname(v) for v in VALUES)]
            for llc in p['llc']:
                vals = []
                for v in VALUES:
                    r = find(records, figure='1', kernel='patched', llc=llc, util=util,
                             core='SIS_CORE', value=v)
                    x = num(r, metric) if r else None
                    vals.append('%g' % (x / r['rounds']) if x is not None else 'NaN')
                lines.append('%d %s' % (llc, ' '.join(vals)))
            script = ('set terminal png noenhanced size 800,500; set output "%%(png)s"; '
                      'set title "%s, SIS_CORE (%s, -icount)"; set xlabel "CPUs in the LLC"; '
                      'set ylabel "%s"; set logscale x 2; set key top left; set grid; '
                      'plot "%%(dat)s" using 1:2 with linespoints title "default (0)", '
                      '"" using 1:3 with linespoints title "-10", '
                      '"" using 1:4 with linespoints title "-19", '
                      '"" using 1:5 with linespoints title "-20"' % (label, util, label))
            out.append(Plot('llc-%s-%s.png' % (metric, util),
                            'plot-%s-%s.dat' % (metric, util),
                            '\n'.join(lines) + '\n', script))
    return out


def figure2(records, p):
    md = ['## 2. Where wakees land (repeatable mode)\n',
          'The waker runs on CPU 0; both siblings of every odd core run busy '
          'threads, so CPU 0\'s sibling and the even cores are idle.  The wakee '
          'returns to CPU 0 after each round, so every wakeup starts from the '
          'same place.  Share of wakeups landing on the waker\'s CPU, its SMT '
          'sibling or another core, and on a busy CPU (a busy thread\'s or the '
          'waker\'s).\n']
    rows = []
    for llc in p['llc']:
        cand = [('baseline', None, '')] + [('patched', v, c) for v in VALUES
                                           for c in ('SIS_CORE', 'NO_SIS_CORE')]
        for kernel, v, core in cand:
            kw = dict(figure='2', kernel=kernel, llc=llc)
            if kernel == 'patched':
                kw.update(value=v, core=core)
            r = find(records, **kw)
            if not r:
                continue
            rows.append([llc, kernel, vname(v), core or '-'] +
                        ['%.1f' % (100 * float(r.get(k, 'nan'))) for k in
                         ('same', 'sibling', 'other', 'on_busy')])
    md.append(table(['LLC', 'kernel', 'value', 'feature', 'same CPU %', 'SMT sibling %',
                     'other core %', 'on a busy CPU %'], rows))
    return '\n'.join(md)


# ------------------------------------------- figures 3 and 4: 1x8x2 workloads

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


# ------------------------------------------------- figure 5: value 0 is free

FREE_MODES = dict(
    quick=dict(rounds=2000, reps=3),
    full=dict(rounds=5000, reps=5),
)
FREE_TOPO = '1x8x2'
# Half the cores busy (both siblings of every odd core): every wakeup
# searches the LLC and finds an idle CPU, so the search code runs.
FREE_BUSY = cpulist(c for c in range(ncpus(FREE_TOPO)) if (c // 2) % 2 == 1)
# The bound the cover letter states, per wakeup (a round trip is two wakeups).
FREE_BOUND_PCT = 0.5


def plan_free(p):
    """Baseline, and the patched kernel before and after its latency nice
    key is switched on (a task sets -20 once and exits; every task is then
    at 0, as after a probe by a userland tool), mainline's default features."""
    def rtt(state, rep, value=None, rounds=p['rounds']):
        return Run('5', 'rtt', value, (), ['rtt', '-n', rounds, '-b', FREE_BUSY],
                   key=state, rep=rep)
    reps = range(1, p['reps'] + 1)
    patched = [rtt('off', r) for r in reps]
    patched.append(rtt('switch', 0, value=-20, rounds=10))
    patched += [rtt('on', r) for r in reps]
    return [Boot('bench-free-baseline', 'baseline', FREE_TOPO, 'icount', False,
                 [rtt('none', r) for r in reps]),
            Boot('bench-free-patched', 'patched', FREE_TOPO, 'icount', False, patched)]


def free_rows(records):
    """{(kernel, key): (median rtt ns, spread %, n)} of figure 5."""
    out = {}
    for kernel, key in (('baseline', 'none'), ('patched', 'off'), ('patched', 'on')):
        xs = [num(r, 'rtt_ns') for r in records if r['figure'] == '5' and
              r['kernel'] == kernel and r.get('key') == key]
        xs = [x for x in xs if x is not None]
        if xs:
            m = statistics.median(xs)
            out[(kernel, key)] = (m, 100 * (max(xs) - min(xs)) / m if m else None, len(xs))
    return out


def figure5(records, p):
    md = ['## 5. Value 0 is free: virtual time per wakeup (repeatable mode)\n',
          'Topology %s, mainline\'s default features; CPU 0 wakes a task that may '
          'run anywhere, %d round trips (two wakeups each) per run, with both '
          'siblings of every odd core busy, so every wakeup searches the LLC and '
          'finds an idle CPU.  Under `-icount shift=0` a nanosecond of virtual time '
          'is one instruction.  "key off": the patched kernel before any task or '
          'group has had a non-zero latency nice; "key on": after one task set -20 '
          'and exited, every task at 0.  Median of %d runs per row.\n'
          % (FREE_TOPO, p['rounds'], p['reps'])]
    rows, got = [], free_rows(records)
    base = got.get(('baseline', 'none'))
    for kernel, key in (('baseline', 'none'), ('patched', 'off'), ('patched', 'on')):
        if (kernel, key) not in got:
            continue
        m, spread, n = got[(kernel, key)]
        diff = (m - base[0]) / 2 if base else None
        rows.append([kernel, key, n, fmt(m, 0), fmt(spread, 2), fmt(diff, 1),
                     fmt(pct(m, base[0]) if base else None, 3)])
    md.append(table(['kernel', 'latency nice key', 'runs', 'round trip ns (median)',
                     'spread %', 'ns per wakeup vs baseline', '% vs baseline'], rows))
    return '\n'.join(md)


def cover_free(records):
    """Figure 5 as the cover letter quotes it; None without the runs."""
    got = free_rows(records)
    keys = (('baseline', 'none', 'baseline'), ('patched', 'off', 'patched, key off'),
            ('patched', 'on', 'patched, key on'))
    if any((k, key) not in got for k, key, _ in keys):
        return None
    base = got[('baseline', 'none')][0]
    out = ['%-18s %14s %9s %18s' % ('kernel', 'round trip ns', 'spread %', 'ns/wakeup vs base')]
    for kernel, key, label in keys:
        m, spread, _ = got[(kernel, key)]
        out.append('%-18s %14s %9s %18s' % (label, fmt(m, 0), fmt(spread, 2),
                                            '-' if kernel == 'baseline'
                                            else '%+.1f' % ((m - base) / 2)))
    return '\n'.join(out) + '\n'


def claims_free(records):
    """The patched kernel, key off and key on, within FREE_BOUND_PCT of the
    baseline per wakeup; NOT CHECKED without the runs."""
    got = free_rows(records)
    base = got.get(('baseline', 'none'))
    lines = []
    for key in ('off', 'on'):
        mine = got.get(('patched', key))
        if not base or not mine:
            verdict = 'NOT CHECKED (no runs)'
        else:
            d = pct(mine[0], base[0])
            verdict = '%s (%+.3f%%, %+.1f ns per wakeup)' % (
                'holds' if abs(d) <= FREE_BOUND_PCT else 'FAILS', d,
                (mine[0] - base[0]) / 2)
        lines.append('- patched, latency nice key %s, within %.1f%% of baseline per '
                     'wakeup: %s.' % (key, FREE_BOUND_PCT, verdict))
    return '\n'.join(lines) + '\n'


# ------------------------------------- figure 6: the slice face, rt-tests

SLICE_MODES = dict(
    quick=dict(loops=1000, reps=3),
    full=dict(loops=5000, reps=5),
)
# One CPU: under -icount QEMU runs the vCPUs one after another, and a CPU
# that idles without a tick may miss its timers while another spins.
SLICE_TOPO = '1x1x1'
# The load: one hackbench group (20 senders, 20 receivers, processes) at
# latency nice 0, again and again while cyclictest measures.
SLICE_LOAD = '-g 1 -l 100'
SLICE_VALUES = (None, -5, -10, -15, -20, 19)
# Mainline's own knob: the same slice as -20 through sched_runtime (ns).
SLICE_RUNTIME = 100000
# cyclictest's arguments: one thread on CPU 0, 1 ms period.
CYCLIC_OTHER = ['--policy', 'other', '-t', '1', '-a', '0', '-i', '1000', '-m']
CYCLIC_FIFO = ['--policy', 'fifo', '-p', '95', '-t', '1', '-a', '0', '-i', '1000', '-m']
SLICE_KEYS = ('avg_us', 'p50_us', 'p99_us', 'p999_us', 'max_us')
# Rows whose cyclictest sleeps with 1 ns of timer slack (lnbench -s) rather
# than SCHED_OTHER's 50 us: the scheduler's part alone, as a FIFO thread
# (which has none) shows it.
SLICE_SLACK_VALUES = (None, -20)
# The sweep: where the floor holds and where it stops.  Each load, by its
# name in the records: lnbench cyclictest's arguments for it.  The load runs
# at latency nice 0 unless the name says otherwise.
SLICE_LOADS = {'hackbench': ['-H', SLICE_LOAD],
               'hackbench-g2': ['-H', '-g 2 -l 100'],
               'hackbench-g4': ['-H', '-g 4 -l 100'],
               'hogs8': ['-B', 8],
               'hogs32': ['-B', 32],
               'hogs4': ['-B', 4],
               'hogs4-at-19': ['-B', 4, '-V', 19],
               'idle': []}
# How the tables name them.
LOAD_LABELS = {'hackbench': 'hackbench -g 1', 'hackbench-g2': 'hackbench -g 2',
               'hackbench-g4': 'hackbench -g 4', 'hogs8': '8 CPU hogs',
               'hogs32': '32 CPU hogs', 'hogs4': '4 CPU hogs at 0',
               'hogs4-at-19': '4 CPU hogs at 19', 'idle': 'idle'}
SWEEP_LOADS = ('hackbench', 'hackbench-g2', 'hackbench-g4', 'hogs8', 'hogs32')
# The sweep's rows: (row, value).
SWEEP_ROWS = (('other', None), ('other', -20), ('slack1', None), ('slack1', -20),
              ('fifo', None))
# Bystanders: cyclictest at 0 beside four hogs at 0 and at 19.
BYSTANDER_LOADS = ('hogs4', 'hogs4-at-19')
# The patched kernel without the Debian system section of
# configs/latnice.config (kernel "lean", configs/nosystem.config): the rows
# that show what those options cost the tail.
LEAN_ROWS = (('other', None), ('other', -20), ('slack1', -20), ('fifo', None))


def plan_slice(p):
    """cyclictest at each value under hackbench, mainline's sched_runtime and
    SCHED_FIFO under the same load, and cyclictest on an idle CPU; the
    baseline has no latency nice, so only its default, sched_runtime, FIFO
    and idle rows.  Then the sweep (SWEEP_LOADS) and the bystanders on the
    patched kernel, and the LEAN_ROWS on the kernel without the Debian
    system options."""
    def cyc(kind, value, rep, load='hackbench', features=()):
        cmd = ['cyclictest'] + SLICE_LOADS[load]
        if kind == 'runtime':
            cmd += ['-r', SLICE_RUNTIME]
        if kind == 'slack1':
            cmd += ['-s', 1]
        cmd += ['--'] + (CYCLIC_FIFO if kind == 'fifo' else CYCLIC_OTHER)
        cmd += ['-l', p['loops']]
        return Run('6', 'cyclictest', value, features, cmd, row=kind, load=load, rep=rep)
    reps = range(1, p['reps'] + 1)
    boots = []
    for kernel in ('baseline', 'patched'):
        values = SLICE_VALUES if kernel == 'patched' else (None,)
        runs = []
        for rep in reps:
            if kernel == 'patched':
                # -20 without LATENCY_PREEMPT (the A/B of patch 26); the
                # next run turns it back on (features stay set).
                runs.append(Run('6', 'cyclictest', -20, ('NO_LATENCY_PREEMPT',),
                                cyc('other', -20, rep).cmd, row='nopreempt',
                                load='hackbench', rep=rep))
                runs.append(cyc('other', values[0], rep, features=('LATENCY_PREEMPT',)))
                runs += [cyc('other', v, rep) for v in values[1:]]
            else:
                runs += [cyc('other', v, rep) for v in values]
            runs += [cyc('slack1', v, rep)
                     for v in (SLICE_SLACK_VALUES if kernel == 'patched' else (None,))]
            runs += [cyc('runtime', None, rep), cyc('fifo', None, rep)]
            runs += [cyc('other', v, rep, load='idle')
                     for v in ((None, -20) if kernel == 'patched' else (None,))]
        boots.append(Boot('bench-slice-%s' % kernel, kernel, SLICE_TOPO, 'icount', False,
                          runs))
    sweep = [cyc(row, v, rep, load=load) for rep in reps for load in SWEEP_LOADS[1:]
             for row, v in SWEEP_ROWS]
    sweep += [cyc('other', None, rep, load=load) for rep in reps for load in BYSTANDER_LOADS]
    boots.append(Boot('bench-slice-sweep', 'patched', SLICE_TOPO, 'icount', False, sweep))
    boots.append(Boot('bench-slice-lean', 'lean', SLICE_TOPO, 'icount', False,
                      [cyc(row, v, rep) for rep in reps for row, v in LEAN_ROWS]))
    return boots


def slice_stats(records, kernel, row, value, load='hackbench'):
    """{key: (median, spread %, n)} of a figure 6 row over its repetitions."""
    rs = [r for r in records if r['figure'] == '6' and r['kernel'] == kernel
          and r.get('row') == row and r['value'] == value and r.get('load') == load]
    out = {}
    for k in SLICE_KEYS + ('hackbench_s', 'cpu_pct', 'runnable'):
        xs = [num(r, k) for r in rs]
        xs = [x for x in xs if x is not None and x >= 0]
        if xs:
            m = statistics.median(xs)
            out[k] = (m, 100 * (max(xs) - min(xs)) / m if m else None, len(xs))
    return out


SLICE_ROWS = ([('baseline', 'other', None, 'hackbench')] +
              [('patched', 'other', v, 'hackbench') for v in SLICE_VALUES] +
              [('patched', 'nopreempt', -20, 'hackbench')] +
              [('baseline', 'slack1', None, 'hackbench')] +
              [('patched', 'slack1', v, 'hackbench') for v in SLICE_SLACK_VALUES] +
              [(k, 'runtime', None, 'hackbench') for k in ('baseline', 'patched')] +
              [(k, 'fifo', None, 'hackbench') for k in ('baseline', 'patched')] +
              [('baseline', 'other', None, 'idle'), ('patched', 'other', None, 'idle'),
               ('patched', 'other', -20, 'idle')])


def slice_label(row, value):
    if row == 'runtime':
        return 'sched_runtime %d us' % (SLICE_RUNTIME // 1000)
    if row == 'fifo':
        return 'SCHED_FIFO 95'
    if row == 'nopreempt':
        return 'latency nice %s, NO_LATENCY_PREEMPT' % vname(value)
    if row == 'slack1':
        return 'latency nice %s, 1 ns timer slack' % vname(value)
    return 'latency nice %s' % vname(value)


SLICE_HEAD = ['runs', 'avg', 'p50', 'p99', 'p99.9', 'max', 'p99 spread %', 'cpu %',
              'runnable', 'hackbench s', 'avg x vs 0', 'p99 x vs 0']


def slice_cells(records, kernel, row, v, load, zero_kernel='patched'):
    """A figure 6 row's cells under SLICE_HEAD, or None without runs.  The
    ratios divide @zero_kernel's value 0 on the same load (with 1 ns of
    timer slack for a row with it) by the row's, under a load only."""
    st = slice_stats(records, kernel, row, v, load)
    if not st:
        return None
    zero = slice_stats(records, zero_kernel, 'slack1' if row == 'slack1' else 'other',
                       None, load)

    def m(k):
        return st[k][0] if k in st else None

    def ratio(k):
        z = zero.get(k, (None,))[0]
        x = m(k)
        return fmt(z / x, 1) if z and x and load != 'idle' else '-'
    return [st['avg_us'][2] if 'avg_us' in st else 0,
            fmt(m('avg_us'), 0), fmt(m('p50_us'), 0), fmt(m('p99_us'), 0),
            fmt(m('p999_us'), 0), fmt(m('max_us'), 0),
            fmt(st.get('p99_us', (None, None))[1], 0), fmt(m('cpu_pct'), 1),
            fmt(m('runnable'), 1), fmt(m('hackbench_s'), 3), ratio('avg_us'), ratio('p99_us')]


def figure6(records, p):
    md = ['## 6. The slice face: cyclictest under hackbench (repeatable mode)\n',
          'Debian\'s rt-tests in the guest: `cyclictest %s -l %d` (SCHED_OTHER unless '
          'the row says FIFO) while `hackbench %s` runs again and again at latency nice 0; '
          'topology %s (one CPU, see below).  Latencies in us (p50, p99 and p99.9 from '
          'cyclictest\'s histogram); hackbench: median seconds per run of the load beside '
          'it; cpu %%: the CPU cyclictest used, percent of its run; runnable: the average '
          'number of tasks running or waiting on the CPU meanwhile (/proc/schedstat).  '
          'Median of %d runs per row, spread = (max - min) / median.  "x vs 0": the '
          'patched kernel at 0 divided by the row, for the average and p99 (rows with 1 ns '
          'of timer slack: against 0 with 1 ns).\n'
          % (' '.join(CYCLIC_OTHER), p['loops'], SLICE_LOAD, SLICE_TOPO, p['reps'])]
    rows = []
    for kernel, row, v, load in SLICE_ROWS:
        cells = slice_cells(records, kernel, row, v, load)
        if cells:
            rows.append([kernel, slice_label(row, v), load] + cells)
    md.append(table(['kernel', 'row', 'load'] + SLICE_HEAD, rows))
    rows = []
    for load in SWEEP_LOADS + BYSTANDER_LOADS:
        for row, v in (SWEEP_ROWS if load in SWEEP_LOADS else (('other', None),)):
            cells = slice_cells(records, 'patched', row, v, load)
            if cells:
                rows.append([LOAD_LABELS[load], slice_label(row, v)] + cells)
    if rows:
        md.append('\n### The load swept\n\nThe patched kernel, the same cyclictest beside '
                  'each load (hackbench with 1, 2 and 4 groups, 8 and 32 processes that '
                  'spin), all at latency nice 0 unless the load says otherwise; the last '
                  'two loads are the bystander rows (cyclictest at 0 beside four hogs at '
                  '0 and at 19).  "x vs 0" divides 0 on the same load by the row.\n')
        md.append(table(['load', 'row'] + SLICE_HEAD, rows))
    rows = []
    for row, v in LEAN_ROWS:
        for kernel in ('patched', 'lean'):
            cells = slice_cells(records, kernel, row, v, 'hackbench', zero_kernel=kernel)
            if cells:
                rows.append([KERNEL_LABELS[kernel], slice_label(row, v)] + cells)
    if rows:
        md.append('\n### Without the Debian system options\n\nThe patched kernel as '
                  'above, and built without the options configs/latnice.config adds for a '
                  'Debian system in the guest (configs/nosystem.config turns them off), '
                  'under hackbench -g 1.  "x vs 0" divides each kernel\'s own 0.\n')
        md.append(table(['kernel', 'row'] + SLICE_HEAD, rows))
    return '\n'.join(md)


KERNEL_LABELS = {'patched': 'patched', 'lean': 'patched, no system options'}


# The cover letter's rows of figure 6: (label, kernel, row, value).
SLICE_COVER = (('baseline, default', 'baseline', 'other', None),
               ('patched, 0', 'patched', 'other', None),
               ('patched, -5', 'patched', 'other', -5),
               ('patched, -10', 'patched', 'other', -10),
               ('patched, -15', 'patched', 'other', -15),
               ('patched, -20', 'patched', 'other', -20),
               ('-20, preempt switch off', 'patched', 'nopreempt', -20),
               ('patched, 19', 'patched', 'other', 19),
               ('0, 1 ns timer slack', 'patched', 'slack1', None),
               ('-20, 1 ns timer slack', 'patched', 'slack1', -20),
               ('sched_runtime 0.1 ms', 'patched', 'runtime', None),
               ('SCHED_FIFO 95', 'patched', 'fifo', None))


def cover_slice(records):
    """Figure 6 as the cover letter quotes it: the medians of the rows
    under hackbench, and -20's p99 gain; None without the runs."""
    head = '%-26s %5s %5s %6s %6s %6s  %s' % ('row', 'avg', 'p50', 'p99', 'p99.9', 'max',
                                             'hackbench s')
    out = [head]
    for label, kernel, row, v in SLICE_COVER:
        st = slice_stats(records, kernel, row, v)
        if not all(k in st for k in SLICE_KEYS + ('hackbench_s',)):
            return None
        out.append('%-26s %5s %5s %6s %6s %6s  %s'
                   % (label, fmt(st['avg_us'][0], 0), fmt(st['p50_us'][0], 0),
                      fmt(st['p99_us'][0], 0), fmt(st['p999_us'][0], 0),
                      fmt(st['max_us'][0], 0), fmt(st['hackbench_s'][0], 3)))

    def gain(row, v):
        zero = slice_stats(records, 'patched', row, None)['p99_us'][0]
        return zero / slice_stats(records, 'patched', row, v)['p99_us'][0]
    out.append('')
    out.append('p99 at -20 against 0: %.1fx lower, %.1fx with 1 ns of timer slack on both'
               % (gain('other', -20), gain('slack1', -20)))
    return '\n'.join(out) + '\n'


def claims_slice(records):
    """The issue's goals for the slice face, each as measured: holds, FAILS
    or NOT CHECKED; none is assumed."""
    def med(kernel, row, v, k, load='hackbench'):
        return slice_stats(records, kernel, row, v, load).get(k, (None,))[0]

    def line(text, ok, detail):
        verdict = 'NOT CHECKED (no runs)' if ok is None else ('holds' if ok else 'FAILS')
        return '- %s: %s (%s).' % (text, verdict, detail)
    out = []
    z_avg, z_p99 = med('patched', 'other', None, 'avg_us'), med('patched', 'other', None, 'p99_us')
    m_avg, m_p99 = med('patched', 'other', -20, 'avg_us'), med('patched', 'other', -20, 'p99_us')
    ok = None if None in (z_avg, z_p99, m_avg, m_p99) or not (m_avg and m_p99) else \
        z_avg >= 5 * m_avg and z_p99 >= 5 * m_p99
    out.append(line('-20: cyclictest average and p99 at least 5x lower than at 0 under load', ok,
                    'avg %s -> %s us, p99 %s -> %s us' % (fmt(z_avg, 0), fmt(m_avg, 0),
                                                          fmt(z_p99, 0), fmt(m_p99, 0))))
    parity, detail = None, []
    for k in ('p50_us', 'p99_us', 'p999_us'):
        a, b = med('patched', 'other', -20, k), med('patched', 'runtime', None, k)
        if a is None or not b:
            parity = None
            break
        d = 100 * (a - b) / b
        detail.append('%s %+.0f%%' % (k[:-3], d))
        parity = (parity is not False) and d <= 10
    out.append(line('-20 no more than 10%% above sched_runtime %d us at p50, p99 and p99.9'
                    % (SLICE_RUNTIME // 1000), parity, ', '.join(detail) or 'no runs'))
    # Non-increasing within the spread between runs that the table reports:
    # a value may measure above the one before by no more than its spread.
    st99 = [slice_stats(records, 'patched', 'other', v).get('p99_us')
            for v in (None, -5, -10, -15, -20)]
    ok = None if None in st99 else all(
        b[0] <= a[0] or b[0] - a[0] <= (b[1] or 0) * b[0] / 100 for a, b in zip(st99, st99[1:]))
    out.append(line('p99 non-increasing from 0 through -5, -10, -15 to -20, within the spread',
                    ok, 'no runs' if None in st99 else ' >= '.join(
                        '%s (%s%%)' % (fmt(x[0], 0), fmt(x[1], 0)) for x in st99)))
    b0, p0 = med('baseline', 'other', None, 'p99_us'), z_p99
    bh, ph = med('baseline', 'other', None, 'hackbench_s'), med('patched', 'other', None, 'hackbench_s')
    ok = None if None in (bh, ph) else abs(ph - bh) <= 0.02 * bh
    out.append(line('value 0 as mainline: hackbench beside cyclictest within 2% of the '
                    'baseline', ok, 'baseline %s s, patched %s s; cyclictest p99 %s and %s us'
                    % (fmt(bh, 3), fmt(ph, 3), fmt(b0, 0), fmt(p0, 0))))
    i0, i20 = med('patched', 'other', None, 'p99_us', 'idle'), med('patched', 'other', -20, 'p99_us', 'idle')
    ok = None if None in (i0, i20) else i20 <= i0 * 1.1 + 5
    out.append(line('idle: -20\'s p99 no worse than 0\'s (10% + 5 us of noise)', ok,
                    '%s and %s us' % (fmt(i20, 0), fmt(i0, 0))))
    n99 = med('patched', 'nopreempt', -20, 'p99_us')
    ok = None if None in (n99, m_p99) or not m_p99 else n99 >= 5 * m_p99
    out.append(line('LATENCY_PREEMPT: -20\'s p99 at least 5x lower with it than without', ok,
                    '%s against %s us' % (fmt(m_p99, 0), fmt(n99, 0))))
    f99 = med('patched', 'fifo', None, 'p99_us')
    ok = None if None in (f99, m_p99) else m_p99 <= 2 * f99
    out.append(line('moonshot: -20\'s p99 within 2x of SCHED_FIFO\'s', ok,
                    '%s against %s us' % (fmt(m_p99, 0), fmt(f99, 0))))
    ok = None if None in (z_p99, m_p99) or not m_p99 else z_p99 >= 20 * m_p99
    out.append(line('gain: -20\'s p99 at least 20x lower than 0\'s under load', ok,
                    '%s -> %s us, %sx' % (fmt(z_p99, 0), fmt(m_p99, 0),
                                          fmt(z_p99 / m_p99, 1) if z_p99 and m_p99 else '-')))
    for load in SWEEP_LOADS:
        out.append(floor_line(records, load, line))
    hb = [(v, med('patched', 'other', v, 'hackbench_s')) for v in SLICE_VALUES]
    ok = None if bh is None or None in [x for _, x in hb] else \
        all(abs(x - bh) <= 0.02 * bh for _, x in hb)
    out.append(line('bystanders: hackbench beside cyclictest within 2% of the baseline at '
                    'every value', ok, 'baseline %s s; %s' % (fmt(bh, 3), ', '.join(
                        '%s %s s' % (vname(v), fmt(x, 3)) for v, x in hb))))
    h0, h19 = (med('patched', 'other', None, 'p99_us', load) for load in BYSTANDER_LOADS)
    ok = None if None in (h0, h19) else h19 <= 2 * h0
    out.append(line('bystanders: a 0 task\'s p99 beside four hogs at 19 at most 2x its p99 '
                    'beside four hogs at 0', ok, '%s against %s us' % (fmt(h19, 0), fmt(h0, 0))))
    worse = []
    z999, zmax = med('patched', 'other', None, 'p999_us'), med('patched', 'other', None, 'max_us')
    for v in (-5, -10, -15, -20):
        a, b = med('patched', 'other', v, 'p999_us'), med('patched', 'other', v, 'max_us')
        if None in (a, b, z999, zmax):
            worse = None
            break
        if a > z999 or b > zmax:
            worse.append('%d (%s, %s)' % (v, fmt(a, 0), fmt(b, 0)))
    out.append(line('no negative value\'s p99.9 or max above 0\'s', None if worse is None
                    else not worse, 'at 0 %s and %s us; above: %s'
                    % (fmt(z999, 0), fmt(zmax, 0), ', '.join(worse or []) or 'none')))
    return '\n'.join(out) + '\n'


def floor_line(records, load, line):
    """The floor on @load: -20 with 1 ns of timer slack within 2x of
    SCHED_FIFO's p99 and 4x of its max, where -20 used less than half its
    fair share of the CPU (100 / runnable percent); elsewhere the claim
    does not apply, and the line says so."""
    def med(row, v, k):
        return slice_stats(records, 'patched', row, v, load).get(k, (None,))[0]
    s99, smax = med('slack1', -20, 'p99_us'), med('slack1', -20, 'max_us')
    f99, fmax = med('fifo', None, 'p99_us'), med('fifo', None, 'max_us')
    cpu, runnable = med('slack1', -20, 'cpu_pct'), med('slack1', -20, 'runnable')
    detail = 'p99 %s against %s us, max %s against %s us; cpu %s%%, %s runnable' % (
        fmt(s99, 0), fmt(f99, 0), fmt(smax, 0), fmt(fmax, 0), fmt(cpu, 1), fmt(runnable, 1))
    text = 'floor under %s: -20 with 1 ns of timer slack within 2x of SCHED_FIFO\'s p99 ' \
        'and 4x of its max' % LOAD_LABELS[load]
    if None in (s99, smax, f99, fmax, cpu, runnable):
        return line(text, None, detail)
    if runnable > 0 and cpu >= 50 / runnable:
        return '- %s: does not apply, -20 used half its fair share or more (%s).' % (text,
                                                                                    detail)
    return line(text, s99 <= 2 * f99 and smax <= 4 * fmax, detail)


# ------------------------------------ figure 7: values 1..15 place as 0

LIKE_ZERO_MODES = dict(
    quick=dict(rounds=400, values=tuple(range(1, 16)), reps=3),
    full=dict(rounds=2000, values=tuple(range(1, 16)), reps=5),
)
# How far (percentage points) a value's landing shares may be from the
# baseline's; the patched kernel with no value set shows the noise.
LIKE_ZERO_POINTS = 5.0
LIKE_ZERO_SHARES = ('same', 'sibling', 'other', 'on_busy')


def plan_like_zero(p):
    """figure 5's placement (half the cores busy, mainline's default
    features), each wakeup from the waker's CPU (-R): the baseline, the
    patched kernel before any value is set, then at each positive value
    (which turns its latency nice key on), each run p['reps'] times."""
    def rtt(kernel, value, rep):
        feats = ('SIS_UTIL', 'DELAY_DEQUEUE') + (('SIS_CORE',) if kernel == 'patched' else ())
        return Run('7', 'rtt', value, feats, ['rtt', '-R', '-n', p['rounds'], '-b', FREE_BUSY],
                   rep=rep)
    reps = range(1, p['reps'] + 1)
    return [Boot('bench-like-zero-baseline', 'baseline', FREE_TOPO, 'icount', False,
                 [rtt('baseline', None, r) for r in reps]),
            Boot('bench-like-zero-patched', 'patched', FREE_TOPO, 'icount', False,
                 [rtt('patched', None, r) for r in reps] +
                 [rtt('patched', v, r) for v in p['values'] for r in reps])]


def like_zero_rows(records):
    """[(kernel, value, median record)] of figure 7, baseline first: per
    kernel and value, the median of each share and of the round trip over
    the repetitions, and their number as 'n'."""
    groups = {}
    for r in records:
        if r['figure'] == '7':
            groups.setdefault((r['kernel'], r.get('value')), []).append(r)
    out = []
    for (kernel, value), rs in groups.items():
        med = dict(n=len(rs))
        for k in LIKE_ZERO_SHARES + ('rtt_ns',):
            xs = [num(r, k) for r in rs if num(r, k) is not None]
            med[k] = statistics.median(xs) if xs else None
        out.append((kernel, value, med))
    return sorted(out, key=lambda x: (x[0] != 'baseline', x[1] is not None, x[1] or 0))


def figure7(records, p):
    md = ['## 7. Values 1 to 15 place as 0 does (repeatable mode)\n',
          'Topology %s, mainline\'s default features; the waker runs on CPU 0, both '
          'siblings of every odd core run busy threads, and the wakee returns to '
          'CPU 0 after each of %d rounds, so every wakeup chooses a CPU from the '
          'same place.  Shares of wakeups landing on the waker\'s CPU, its sibling, '
          'another core, and on a busy CPU; the patched kernel at each value against '
          'the baseline kernel (no latency nice) and the patched kernel before any '
          'value was set; median of %d runs.  Positive values keep mainline\'s search; '
          'only the slice differs (section 5 of the documentation).\n'
          % (FREE_TOPO, p['rounds'], p['reps'])]
    rows = []
    for kernel, v, r in like_zero_rows(records):
        rows.append([kernel, vname(v)] + ['%.1f' % (100 * num(r, k)) if num(r, k) is not None
                                          else '-' for k in LIKE_ZERO_SHARES] +
                    [fmt(num(r, 'rtt_ns'), 0)])
    md.append(table(['kernel', 'value', 'same CPU %', 'SMT sibling %', 'other core %',
                     'on a busy CPU %', 'round trip ns'], rows))
    return '\n'.join(md)


def claims_like_zero(records):
    """Each positive value's shares within LIKE_ZERO_POINTS of the
    baseline's; NOT CHECKED without the runs."""
    rows = like_zero_rows(records)
    base = next((r for k, v, r in rows if k == 'baseline'), None)
    mine = [(v, r) for k, v, r in rows if k == 'patched' and v is not None]
    if not base or not mine:
        return '- values 1 to 15 place as the baseline does: NOT CHECKED (no runs).\n'
    worst, where = 0.0, '-'
    for v, r in mine:
        for k in LIKE_ZERO_SHARES:
            a, b = num(r, k), num(base, k)
            if a is None or b is None:
                return ('- values 1 to 15 place as the baseline does: NOT CHECKED '
                        '(value %d has no %s share).\n' % (v, k))
            d = 100 * abs(a - b)
            if d >= worst:
                worst, where = d, '%s at %d' % (k, v)
    return ('- values %s place as the baseline does, every share within %.0f points: %s '
            '(largest difference %.1f points, %s).\n'
            % (', '.join(str(v) for v, _ in mine), LIKE_ZERO_POINTS,
               'holds' if worst <= LIKE_ZERO_POINTS else 'FAILS', worst, where))


# ------------------------------------------ figure 8: the good-enough CPU

GOOD_MODES = dict(
    quick=dict(rounds=200),
    full=dict(rounds=1000),
)
GOOD_TOPO = '1x8x2'
# Every CPU but the waker's busy; a whole core of them at latency nice 19.
GOOD_BUSY = cpulist(range(1, ncpus(GOOD_TOPO)))
GOOD_INDIFFERENT = '6,7'
GOOD_VALUES = (-10, -19)
# Landing shares the claims ask for: with the face, at least; without, at most.
GOOD_WITH, GOOD_WITHOUT = 0.75, 0.10


def plan_good(p):
    """rtt with every CPU busy and one core's busy threads at latency nice
    19, SIS_UTIL off (with the LLC full it would stop every search): the
    baseline, the patched kernel with no value, and at -10 and -19 with
    LATENCY_GOOD_ENOUGH on and off."""
    def rtt(value, feats):
        return Run('8', 'rtt', value, ('NO_SIS_UTIL',) + feats,
                   ['rtt', '-S', '-n', p['rounds'], '-b', GOOD_BUSY, '-i', GOOD_INDIFFERENT])
    patched = [rtt(None, ())]
    for face in ('LATENCY_GOOD_ENOUGH', 'NO_LATENCY_GOOD_ENOUGH'):
        patched += [rtt(v, (face,)) for v in GOOD_VALUES]
    return ab_boots('good', GOOD_TOPO, [rtt(None, ())], patched)


def ab_boots(name, topo, baseline, patched):
    """A figure's two boots in repeatable mode with schedstats: the
    baseline's runs and the patched kernel's."""
    return [Boot('bench-%s-baseline' % name, 'baseline', topo, 'icount', True, baseline),
            Boot('bench-%s-patched' % name, 'patched', topo, 'icount', True, patched)]


def face_of(r, feature):
    """'off' when run @r turned @feature off, else 'on'."""
    return 'off' if 'NO_' + feature in r.get('features', '') else 'on'


def figure8(records, p):
    md = ['## 8. The good-enough CPU (repeatable mode)\n',
          'Topology %s with SIS_UTIL off; the waker runs on CPU 0 and every other CPU '
          'runs a busy thread, those of CPUs %s at latency nice 19 (on the baseline '
          'they cannot set it: "indifferent" 0).  The wakee wakes %d times, each time '
          'from where it last ran; the waker spins until it answers (`-S`), so that '
          'CPU 0 does not go idle and pull the wakee over before it ran where the '
          'wakeup put it.  Share of wakeups landing on the latency indifferent CPUs, '
          'and the round trip time.\n'
          % (GOOD_TOPO, GOOD_INDIFFERENT, p['rounds'])]
    rows = []
    for r in records:
        if r['figure'] != '8':
            continue
        face = ('-' if r['kernel'] == 'baseline' or r.get('value') is None
                else face_of(r, 'LATENCY_GOOD_ENOUGH'))
        rows.append([r['kernel'], vname(r.get('value')), face, fmt(num(r, 'indifferent'), 0),
                     fmt(num(r, 'on_indifferent') is not None and
                         100 * num(r, 'on_indifferent'), 1),
                     fmt(num(r, 'rtt_ns'), 0)])
    md.append(table(['kernel', 'value', 'LATENCY_GOOD_ENOUGH', 'indifferent',
                     'on a latency indifferent CPU %', 'round trip ns'], rows))
    return '\n'.join(md)


def claims_shares(records, fid, key, checks):
    """The landing claims of figure @fid: for each (label, pick, ok) of
    @checks, whether the share @key of every run that @pick selects is
    @ok; NOT CHECKED without such runs."""
    runs = [r for r in records if r['figure'] == fid]
    out = []
    for label, pick, ok in checks:
        got = [(r, num(r, key)) for r in runs if pick(r)]
        if not got or any(x is None for _, x in got):
            out.append('- %s: NOT CHECKED (no runs).' % label)
            continue
        bad = [r for r, x in got if not ok(x)]
        out.append('- %s: %s (%s).' % (label, 'holds' if not bad else 'FAILS',
                                       ', '.join('%s %s %.0f%%' % (r['kernel'],
                                                                  vname(r.get('value')),
                                                                  100 * x)
                                                 for r, x in got)))
    return '\n'.join(out) + '\n'


def claims_good(records):
    """With the face, -10 and -19 land on the indifferent CPUs in at least
    GOOD_WITH of their wakeups; without it, and on the baseline, in at most
    GOOD_WITHOUT."""
    return claims_shares(records, '8', 'on_indifferent', (
        ('-10 and -19 with LATENCY_GOOD_ENOUGH land on the latency indifferent '
         'core in at least %d%% of wakeups' % (100 * GOOD_WITH),
         lambda r: r['kernel'] == 'patched' and r.get('value') is not None
         and face_of(r, 'LATENCY_GOOD_ENOUGH') == 'on', lambda x: x >= GOOD_WITH),
        ('without it, and on the baseline, in at most %d%%' % (100 * GOOD_WITHOUT),
         lambda r: r['kernel'] == 'baseline' or (r.get('value') is not None
                                                 and face_of(r, 'LATENCY_GOOD_ENOUGH') == 'off'),
         lambda x: x <= GOOD_WITHOUT)))


# --------------------------------------------------- figure 9: protection

PROTECT_MODES = dict(
    quick=dict(rounds=200),
    full=dict(rounds=1000),
)
PROTECT_TOPO = '1x8x2'
# A latency sensitive (-20) busy thread on CPU 2; its SMT sibling, CPU 3, is
# idle and is where the wakee goes back to after every round; the waker on
# CPU 0 spins; every other CPU is idle.
PROTECT_SENSITIVE, PROTECT_BACK = 2, 3
PROTECT_VALUES = (None, 19)
# Landing shares on the protected core the claims ask for.
PROTECT_WITH, PROTECT_WITHOUT = 0.10, 0.75


def plan_protect(p):
    """rtt with one -20 busy thread and the wakee starting each wakeup on
    its idle SMT sibling, on mainline's default features: the baseline, and
    the patched kernel with LATENCY_PROTECT on and off, the wakee at the
    default and at 19."""
    def rtt(value, feats):
        return Run('9', 'rtt', value, feats,
                   ['rtt', '-S', '-n', p['rounds'], '-b', PROTECT_SENSITIVE,
                    '-s', PROTECT_SENSITIVE, '-B', PROTECT_BACK])
    patched = [rtt(v, (face,)) for face in ('LATENCY_PROTECT', 'NO_LATENCY_PROTECT')
               for v in PROTECT_VALUES]
    return ab_boots('protect', PROTECT_TOPO, [rtt(None, ())], patched)


def figure9(records, p):
    md = ['## 9. Protection (repeatable mode)\n',
          'Topology %s, mainline\'s default features; the waker runs on CPU 0 and spins '
          'until the wakee answers (`-S`), a busy thread on CPU %d sets latency nice -20 '
          '(on the baseline it cannot: "sensitive" 0), and after each of %d rounds the '
          'wakee goes back to CPU %d, that thread\'s idle SMT sibling (`-B`), where '
          'mainline wakes it again.  Share of wakeups landing on that core, and the '
          'round trip time.\n'
          % (PROTECT_TOPO, PROTECT_SENSITIVE, p['rounds'], PROTECT_BACK)]
    rows = []
    for r in records:
        if r['figure'] != '9':
            continue
        face = '-' if r['kernel'] == 'baseline' else face_of(r, 'LATENCY_PROTECT')
        share = num(r, 'on_protected')
        rows.append([r['kernel'], vname(r.get('value')), face, fmt(num(r, 'sensitive'), 0),
                     fmt(share is not None and 100 * share, 1), fmt(num(r, 'rtt_ns'), 0)])
    md.append(table(['kernel', 'wakee value', 'LATENCY_PROTECT', 'sensitive',
                     'on the protected core %', 'round trip ns'], rows))
    return '\n'.join(md)


def claims_protect(records):
    """With the face the wakees land on the protected core in at most
    PROTECT_WITH of their wakeups; without it, and on the baseline, in at
    least PROTECT_WITHOUT."""
    return claims_shares(records, '9', 'on_protected', (
        ('wakees at the default and 19 with LATENCY_PROTECT land on the core of a -20 '
         'task in at most %d%% of wakeups' % (100 * PROTECT_WITH),
         lambda r: r['kernel'] == 'patched' and face_of(r, 'LATENCY_PROTECT') == 'on',
         lambda x: x <= PROTECT_WITH),
        ('without it, and on the baseline, in at least %d%%' % (100 * PROTECT_WITHOUT),
         lambda r: r['kernel'] == 'baseline' or face_of(r, 'LATENCY_PROTECT') == 'off',
         lambda x: x >= PROTECT_WITHOUT)))


# ------------------------------------------------------ figure 10: packing

PACK_MODES = dict(
    quick=dict(ms=2000),
    full=dict(ms=8000),
)
PACK_TOPO = '1x8x2'
# Periodic loads on CPUs 4 and 6 (cores of their own); the measured thread
# sleeps first on CPU 10, an idle core, then wakes up from a 4 ms timer.
PACK_LOADS, PACK_START = '4,6', 10
PACK_DUTY, PACK_HEAVY = 20, 70
# Shares of wakeups on the loads' cores the claims ask for.
PACK_WITH, PACK_WITHOUT = 2 / 3, 0.25
# The mix of a desktop rule set: four threads working 200 us every 4 ms,
# first asleep on idle cores of their own.
PACK_MIX, PACK_MIX_WORK_US, PACK_MIX_STARTS = 4, 200, '8,10,12,14'


def pack_threads(r):
    """The measured threads of figure 10's run @r (1 before the mix)."""
    return int(num(r, 'threads') or 1)


def plan_pack(p):
    """lnbench pack on mainline's default features: the baseline at the
    default, and the patched kernel at 19 and 16 with LATENCY_PACK, at 19
    without it, at 15 with it, and at 19 beside loads past half a CPU."""
    def pack(value, feats, duty=PACK_DUTY):
        return Run('10', 'pack', value, feats,
                   ['pack', '-l', PACK_LOADS, '-c', PACK_START, '-d', duty, '-t', p['ms']],
                   duty=duty)

    def mix(value, feats):
        return Run('10', 'pack', value, feats,
                   ['pack', '-l', PACK_LOADS, '-c', PACK_MIX_STARTS, '-n', PACK_MIX,
                    '-w', PACK_MIX_WORK_US, '-d', PACK_DUTY, '-t', p['ms']],
                   duty=PACK_DUTY, threads=PACK_MIX)
    on, off = ('LATENCY_PACK',), ('NO_LATENCY_PACK',)
    patched = [pack(19, on), pack(16, on), pack(15, on), pack(19, off),
               pack(19, on, PACK_HEAVY), mix(0, on), mix(19, on), mix(19, off)]
    return ab_boots('pack', PACK_TOPO, [pack(None, ()), mix(None, ())], patched)


def figure10(records, p):
    md = ['## 10. Packing (repeatable mode)\n',
          'Topology %s, mainline\'s default features; CPUs %s each run a periodic load '
          '(the share of every 10 ms in the "load %%" column, at latency nice 0), and a '
          'thread at the value shown first sleeps on CPU %d, an idle core, then wakes up '
          'from a 4 ms timer for %d ms of virtual time.  Share of its wakeups that ran on '
          'the loads\' SMT cores and on the loads\' CPUs, the share of 1 ms samples of '
          'its last CPU (/proc/.../stat) on the loads\' cores (residency), and the packed '
          'wakeups that sched/idle_search counted (-1: none on the baseline).  Rows of '
          '%d threads: the mix, each working %d us before each sleep and first asleep on '
          'one of CPUs %s; cores used counts the loads\' cores and those that took 1%% '
          'of the wakeups or more, touched those that took any, and "CPUs off the '
          'loads\' cores" the CPU time of the other cores (/proc/stat) over the run, in '
          'CPUs.\n'
          % (PACK_TOPO, PACK_LOADS, PACK_START, p['ms'], PACK_MIX, PACK_MIX_WORK_US,
             PACK_MIX_STARTS)]
    rows = []
    for r in records:
        if r['figure'] != '10':
            continue
        face = '-' if r['kernel'] == 'baseline' else face_of(r, 'LATENCY_PACK')
        cores, cpus, res = num(r, 'on_loads'), num(r, 'on_load_cpus'), num(r, 'resident')
        rows.append([r['kernel'], vname(r.get('value')), face, fmt(num(r, 'duty'), 0),
                     str(pack_threads(r)),
                     fmt(num(r, 'wakeups'), 0), fmt(cores is not None and 100 * cores, 1),
                     fmt(cpus is not None and 100 * cpus, 1),
                     fmt(res is not None and 100 * res, 1), fmt(num(r, 'packed'), 0),
                     fmt(num(r, 'cores_used'), 0), fmt(num(r, 'cores_touched'), 0),
                     fmt(num(r, 'off_loads_cpus'), 3)])
    md.append(table(['kernel', 'value', 'LATENCY_PACK', 'load %', 'threads', 'wakeups',
                     'on the loads\' cores %', 'on their CPUs %', 'resident there %',
                     'packed', 'cores used', 'touched', 'CPUs off the loads\' cores'], rows))
    return '\n'.join(md)


def claims_pack(records):
    """With the face, 19 and 16 beside light loads wake on the loads' cores
    in at least PACK_WITH of their wakeups; on the baseline, without the
    face and at 15, in at most PACK_WITHOUT."""
    def light(r):
        return num(r, 'duty') == PACK_DUTY and pack_threads(r) == 1

    def packs(r):
        return (r['kernel'] == 'patched' and face_of(r, 'LATENCY_PACK') == 'on'
                and (r.get('value') or 0) >= 16)
    out = ''
    for key, what in (('on_loads', 'wake on the loads\' cores in'),
                      ('resident', 'are found on the loads\' cores in')):
        out += claims_shares(records, '10', key, (
            ('19 and 16 with LATENCY_PACK, beside loads of %d%%, %s at least %d%% of %s'
             % (PACK_DUTY, what, round(100 * PACK_WITH),
                'wakeups' if key == 'on_loads' else '1 ms samples'),
             lambda r: light(r) and packs(r), lambda x: x >= PACK_WITH),
            ('the baseline, 19 without it and 15 with it, in at most %d%%'
             % (100 * PACK_WITHOUT),
             lambda r: light(r) and not packs(r), lambda x: x <= PACK_WITHOUT)))
    return out + claims_pack_mix(records)


PACK_COVER = (('baseline, default', 'baseline', None, None),
              ('patched, 0', 'patched', 0, 'on'),
              ('patched, 19', 'patched', 19, 'on'),
              ('19, pack switch off', 'patched', 19, 'off'))


def mix_run(records, kernel, value, face=None):
    """Figure 10's one run of the mix on @kernel at @value (with the pack
    switch @face, 'on' or 'off', if given), or None."""
    got = [r for r in records if r['figure'] == '10' and pack_threads(r) == PACK_MIX and
           r['kernel'] == kernel and r.get('value') == value and
           (face is None or face_of(r, 'LATENCY_PACK') == face)]
    return got[0] if len(got) == 1 else None


def cover_pack(records):
    """Figure 10's mix as the cover letter quotes it; None without the runs."""
    out = ['%-22s %8s %11s %11s %16s' % ('mix of 4 threads', 'wakeups', 'on loads %',
                                         'cores used', 'CPUs off loads')]
    for label, kernel, v, face in PACK_COVER:
        r = mix_run(records, kernel, v, face)
        if not r or any(num(r, k) is None for k in
                        ('wakeups', 'on_loads', 'cores_used', 'off_loads_cpus')):
            return None
        out.append('%-22s %8s %11s %11s %16s'
                   % (label, fmt(num(r, 'wakeups'), 0), fmt(100 * num(r, 'on_loads'), 1),
                      fmt(num(r, 'cores_used'), 0), fmt(num(r, 'off_loads_cpus'), 3)))
    return '\n'.join(out) + '\n'


def claims_pack_mix(records):
    """The mix at 19 with the face: more than half of its wakeups on the
    loads' cores, no more cores used than the mix at 0 and on the baseline,
    and at most half the baseline's CPU time off the loads' cores."""
    packed = mix_run(records, 'patched', 19, 'on')
    zero = mix_run(records, 'patched', 0)
    base = mix_run(records, 'baseline', None)
    label = ('the mix at 19 with LATENCY_PACK: more than half of its wakeups on the loads\' '
             'cores, no more cores used than at 0 and on the baseline, and at most half '
             'the baseline\'s CPU time off the loads\' cores')
    keys = ('on_loads', 'cores_used', 'off_loads_cpus')
    if not (packed and zero and base) or any(num(r, k) is None or num(r, k) < 0
                                             for r in (packed, zero, base) for k in keys):
        return '- %s: NOT CHECKED (no runs).\n' % label
    ok = (num(packed, 'on_loads') > 0.5 and
          num(packed, 'cores_used') <= min(num(zero, 'cores_used'), num(base, 'cores_used')) and
          num(packed, 'off_loads_cpus') <= num(base, 'off_loads_cpus') / 2)
    return ('- %s: %s (on the loads\' cores %.0f%%; cores used %d, %d at 0, %d on the '
            'baseline; CPUs off the loads\' cores %.3f, %.3f at 0, %.3f on the baseline).\n'
            % (label, 'holds' if ok else 'FAILS', 100 * num(packed, 'on_loads'),
               num(packed, 'cores_used'), num(zero, 'cores_used'), num(base, 'cores_used'),
               num(packed, 'off_loads_cpus'), num(zero, 'off_loads_cpus'),
               num(base, 'off_loads_cpus')))


# ------------------------------- figure 11: the protected task's latency

NOISE_MODES = dict(
    quick=dict(ms=2000, reps=5),
    full=dict(ms=8000, reps=5),
)
NOISE_TOPO = '1x8x2'
# The measured thread (latency nice -20 on the patched kernel) on CPU 2;
# NOISE_THREADS threads at 0 first sleep on its SMT core.
NOISE_CPU, NOISE_THREADS = 2, 8
NOISE_KEYS = ('avg_us', 'p50_us', 'p99_us', 'p999_us', 'max_us', 'on_core', 'resident',
              'running', 'protected', 'wakeups')
# The noise's share on the measured thread's core with the face, at most
# this fraction of the share without it.
NOISE_WITH = 0.5


def noise_run(p, value, feats, nnoise, rep):
    return Run('11', 'noise', value, feats,
               ['noise', '-s', NOISE_CPU, '-n', nnoise, '-t', p['ms']], noise=nnoise, rep=rep)


def plan_noise(p):
    """lnbench noise on mainline's default features, each row p['reps']
    times: the baseline alone and with noise; the patched kernel at -20
    alone, with noise and LATENCY_PROTECT on and off, and at the default
    with noise."""
    reps = range(1, p['reps'] + 1)
    on, off = ('LATENCY_PROTECT',), ('NO_LATENCY_PROTECT',)
    base = [noise_run(p, None, (), n, r) for n in (0, NOISE_THREADS) for r in reps]
    patched = ([noise_run(p, -20, on, 0, r) for r in reps] +
               [noise_run(p, v, f, NOISE_THREADS, r)
                for v, f in ((-20, on), (-20, off), (None, on)) for r in reps])
    return ab_boots('noise', NOISE_TOPO, base, patched)


def noise_rows(records):
    """[(kernel, value, noise, face, {key: median}, runs)] of figure 11, in
    the order of the plan."""
    groups = {}
    for r in records:
        if r['figure'] != '11' or not r.get('ok', True):
            continue
        face = '-' if r['kernel'] == 'baseline' else face_of(r, 'LATENCY_PROTECT')
        key = (r['kernel'], r.get('value'), int(num(r, 'noise') or 0), face)
        groups.setdefault(key, []).append(r)
    out = []
    for key, rs in groups.items():
        med = {}
        for k in NOISE_KEYS:
            xs = [num(r, k) for r in rs if num(r, k) is not None]
            med[k] = statistics.median(xs) if xs else None
        out.append(key + (med, len(rs)))
    return out


def figure11(records, p):
    md = ['## 11. Protection: the protected task\'s wakeup latency (repeatable mode)\n',
          'Topology %s, mainline\'s default features.  A thread pinned on CPU %d, at '
          'latency nice -20 on the patched kernel, wakes up every 1 ms on an absolute '
          'timer and works 200 us, for %d ms of virtual time; beside it, none or %d '
          'noise threads at latency nice 0, which first sleep on its SMT core, then '
          'run anywhere, working 500 us and sleeping about 1.5 ms.  How late the '
          'thread ran (us), the share of the noise\'s wakeups that ran on its core, '
          'of 1 ms samples of the noise threads\' last CPU on it (residency) and of '
          'those runnable there, and the CPUs that sched/idle_search says wakeups '
          'kept off (-1: none on the baseline).  Median of %d runs per row.\n'
          % (NOISE_TOPO, NOISE_CPU, p['ms'], NOISE_THREADS, p['reps'])]
    rows = []
    for kernel, v, n, face, m, runs in noise_rows(records):
        def share(k):
            return fmt(m[k] is not None and 100 * m[k], 1) if n else '-'
        rows.append([kernel, vname(v), n, face, runs] +
                    [fmt(m[k], 0) for k in ('avg_us', 'p50_us', 'p99_us', 'p999_us', 'max_us')] +
                    [share('on_core'), share('resident'), share('running'),
                     fmt(m['protected'], 0)])
    md.append(table(['kernel', 'value', 'noise', 'LATENCY_PROTECT', 'runs', 'avg', 'p50',
                     'p99', 'p99.9', 'max', 'noise wakeups on its core %',
                     'noise resident there %', 'runnable there %', 'kept off'], rows))
    return '\n'.join(md)


def claims_noise(records):
    """With the face, the noise's wakeups and residency on the -20 thread's
    core at most NOISE_WITH of the same share with the face off; and,
    checked as measured, the thread's p99 with the face no worse than
    without it (10%)."""
    rows = {(k, v, n, f): m for k, v, n, f, m, _ in noise_rows(records)}
    on = rows.get(('patched', -20, NOISE_THREADS, 'on'))
    off = rows.get(('patched', -20, NOISE_THREADS, 'off'))
    if not on or not off:
        return '- protection beside noise: NOT CHECKED (no runs).\n'
    out = []
    for k, what in (('on_core', 'wakeups'), ('resident', 'residency')):
        a, b = on[k], off[k]
        ok = None if None in (a, b) else a <= NOISE_WITH * b
        out.append('- the noise\'s %s on the core of a -20 task with LATENCY_PROTECT at most '
                   '%d%% of the share without it: %s (%s%% against %s%%).'
                   % (what, 100 * NOISE_WITH, 'NOT CHECKED' if ok is None else
                      ('holds' if ok else 'FAILS'), fmt(a is not None and 100 * a, 1),
                      fmt(b is not None and 100 * b, 1)))
    a, b = on['p99_us'], off['p99_us']
    ok = None if None in (a, b) else a <= 1.1 * b
    out.append('- the -20 task\'s p99 beside noise with LATENCY_PROTECT no worse than without '
               'it (10%%): %s (%s against %s us).'
               % ('NOT CHECKED' if ok is None else ('holds' if ok else 'FAILS'),
                  fmt(a, 0), fmt(b, 0)))
    return '\n'.join(out) + '\n'


# ---------------------------------------------------------------- 12: pgbench

PGBENCH_MODES = dict(
    quick=dict(secs=5, reps=3, clients=4),
    full=dict(secs=20, reps=5, clients=4),
)
PGBENCH_TOPO = '1x2x2'
# (kernel, the database's value, the load's value) of each row; None: none
# set.  The database's value is its service's cgroup's, which every
# backend follows (bench/pgbench.sh).
PGBENCH_ROWS = (('baseline', None, None), ('patched', None, None),
                ('patched', -10, None), ('patched', -10, 19))
PGBENCH_KEYS = ('tps', 'lat_avg_ms', 'lat_p50_ms', 'lat_p99_ms')


def plan_pgbench(p):
    """bench/pgbench.sh in the Debian system image, each row p['reps']
    times: pgbench -S against PostgreSQL beside stress-ng on every CPU."""
    boots = []
    for kernel in ('baseline', 'patched'):
        runs = []
        for k, db, load in PGBENCH_ROWS:
            if k != kernel:
                continue
            cmd = ['pgbench', '-T', p['secs'], '-c', p['clients']]
            cmd += ['-d', db] if db is not None else []
            cmd += ['-l', load] if load is not None else []
            runs += [Run('12', 'pgbench', None, (), cmd, db=vname(db), load=vname(load), rep=r)
                     for r in range(1, p['reps'] + 1)]
        boots.append(Boot('bench-pgbench-%s' % kernel, kernel, PGBENCH_TOPO, 'icount', False,
                          runs, rootfs='system'))
    return boots


def pgbench_rows(records):
    """{(kernel, db, load): ({key: median, 'tps_lo'/'tps_hi': the runs'
    lowest and highest tps}, runs)} of figure 12."""
    groups = {}
    for r in records:
        if r['figure'] == '12' and r.get('ok', True):
            groups.setdefault((r['kernel'], r.get('db'), r.get('load')), []).append(r)
    out = {}
    for key, rs in groups.items():
        med = {}
        for k in PGBENCH_KEYS:
            xs = [num(r, k) for r in rs if num(r, k) is not None]
            med[k] = statistics.median(xs) if xs else None
            if k == 'tps':
                med['tps_lo'], med['tps_hi'] = (min(xs), max(xs)) if xs else (None, None)
        out[key] = (med, len(rs))
    return out


def cover_pgbench(records):
    """Figure 12 as the cover letter quotes it; None without every row."""
    rows = pgbench_rows(records)
    keys = [(k, vname(db), vname(load)) for k, db, load in PGBENCH_ROWS]
    if any(k not in rows or rows[k][0].get('tps') is None for k in keys):
        return None
    base = rows[keys[0]][0]
    out = ['%-9s %-9s %-8s %6s %11s %8s %8s %9s %9s'
           % ('kernel', 'database', 'load', 'tps', 'tps range', 'avg ms', 'p99 ms',
              'tps/base', 'p99/base')]
    for k in keys:
        m = rows[k][0]
        out.append('%-9s %-9s %-8s %6s %11s %8s %8s %9s %9s'
                   % (k[0], k[1], k[2], fmt(m['tps'], 0),
                      '%s-%s' % (fmt(m['tps_lo'], 0), fmt(m['tps_hi'], 0)),
                      fmt(m['lat_avg_ms'], 3),
                      fmt(m['lat_p99_ms'], 3), '%.2f' % (m['tps'] / base['tps']),
                      '%.2f' % (m['lat_p99_ms'] / base['lat_p99_ms'])
                      if m['lat_p99_ms'] and base['lat_p99_ms'] else '-'))
    return '\n'.join(out) + '\n'


def figure12(records, p):
    md = ['## 12. A database beside a load: pgbench (repeatable mode)\n',
          'The Debian system image (systemd as PID 1), topology %s.  PostgreSQL 15 from '
          'Debian\'s packages, `pgbench -S -c %d -j 2 -T %d` (select only, a data set of '
          'scale 2) beside `stress-ng --cpu` with one worker a CPU; the database\'s value '
          'is its service\'s cgroup\'s (`latnice --cgroup`), which every backend follows.  '
          'Median of %d runs per row; the ratios are against the baseline\'s row, from the '
          'same run.\n' % (PGBENCH_TOPO, p['clients'], p['secs'], p['reps'])]
    rows = pgbench_rows(records)
    base = rows.get(('baseline', 'default', 'default'), ({}, 0))[0]

    def ratio(m, k):
        a, b = m.get(k), base.get(k)
        return '-' if a is None or not b else '%.2f' % (a / b)
    out = []
    for kernel, db, load in PGBENCH_ROWS:
        m, n = rows.get((kernel, vname(db), vname(load)), ({}, 0))
        out.append([kernel, vname(db), vname(load), n, fmt(m.get('tps'), 0),
                    '%s-%s' % (fmt(m.get('tps_lo'), 0), fmt(m.get('tps_hi'), 0)),
                    fmt(m.get('lat_avg_ms'), 3), fmt(m.get('lat_p50_ms'), 3),
                    fmt(m.get('lat_p99_ms'), 3), ratio(m, 'tps'), ratio(m, 'lat_p99_ms')])
    md.append(table(['kernel', 'database', 'load', 'runs', 'tps', 'tps range', 'latency avg ms',
                     'p50 ms', 'p99 ms', 'tps / baseline', 'p99 / baseline'], out))
    return '\n'.join(md)


# ---------------------------------------------------------------- registry

def registry(*figures):
    """{id: Figure}, checked: ids unique, the same modes (BENCH's values)
    in every figure, and what they need registered."""
    out = {}
    for f in figures:
        if f.id in out:
            raise ValueError('figure %s registered twice' % f.id)
        if out and set(f.modes) != set(figures[0].modes):
            raise ValueError('figure %s has modes %s, figure %s %s'
                             % (f.id, ', '.join(f.modes), figures[0].id,
                                ', '.join(figures[0].modes)))
        out[f.id] = f
    for f in out.values():
        for d in f.needs:
            if d not in out:
                raise ValueError('figure %s needs figure %s, which is not registered'
                                 % (f.id, d))
    return out


FIGURES = registry(
    Figure('1', 'Idle CPU search cost as the LLC grows', LLC_MODES, plan_search, figure1,
           claims=claims, plots=plots_search, cover=cover_search),
    Figure('2', 'Where wakees land', LLC_MODES, plan_placement, figure2),
    Figure('3', 'Cost when unused', UNUSED_MODES, plan_unused,
           lambda records, p: figure3(records, p)[0]),
    Figure('4', 'The RFC\'s table', UNUSED_MODES, plan_rfc, figure4, needs=('3',)),
    Figure('5', 'Value 0 is free', FREE_MODES, plan_free, figure5, claims=claims_free,
           cover=cover_free),
    Figure('6', 'The slice face', SLICE_MODES, plan_slice, figure6, claims=claims_slice,
           cover=cover_slice),
    Figure('7', 'Values 1 to 15 place as 0', LIKE_ZERO_MODES, plan_like_zero, figure7,
           claims=claims_like_zero),
    Figure('8', 'The good-enough CPU', GOOD_MODES, plan_good, figure8, claims=claims_good),
    Figure('9', 'Protection', PROTECT_MODES, plan_protect, figure9, claims=claims_protect),
    Figure('10', 'Packing', PACK_MODES, plan_pack, figure10, claims=claims_pack,
           cover=cover_pack),
    Figure('11', 'The protected task\'s latency', NOISE_MODES, plan_noise, figure11,
           claims=claims_noise),
    Figure('12', 'A database beside a load', PGBENCH_MODES, plan_pgbench, figure12,
           cover=cover_pgbench),
)
# The modes (BENCH, --mode): every figure has parameters for each.
MODES = tuple(next(iter(FIGURES.values())).modes)


def select(only=None, figures=None):
    """The figure ids that --only names, with the figures they need, in
    registry order.  @only: None or '' (every figure), or ids separated by
    commas ('1,2'; '12' is figure 12, never 1 and 2).  An unknown id
    raises ValueError."""
    figures = FIGURES if figures is None else figures
    if not only:
        return list(figures)
    only = only.strip()
    want = [x.strip() for x in only.split(',') if x.strip()]
    unknown = [x for x in want if x not in figures]
    if unknown or not want:
        raise ValueError('unknown figure %s in --only %r: the figures are %s '
                         '(e.g. --only %s or --only %s)'
                         % (', '.join(unknown) or '(none)', only, ', '.join(figures),
                            list(figures)[0], ','.join(list(figures)[:2])))
    chosen, todo = set(), list(want)
    while todo:
        fid = todo.pop()
        if fid not in chosen:
            chosen.add(fid)
            todo += figures[fid].needs
    return [fid for fid in figures if fid in chosen]


def plan(mode, ids, figures=None):
    """The boots of figures @ids in @mode.  Figures that name the same boot
    share it (its runs in the figures' order); they must agree on its
    kernel, topology, mode, schedstats and root file system."""
    figures = FIGURES if figures is None else figures
    modes = next(iter(figures.values())).modes
    if mode not in modes:
        raise ValueError('mode %s: use %s' % (mode, ' or '.join(modes)))
    boots, by_name = [], {}
    for fid in ids:
        for b in figures[fid].plan(figures[fid].modes[mode]):
            have = by_name.get(b.name)
            if have is None:
                by_name[b.name] = b
                boots.append(b)
                continue
            if (have.kernel, have.topo, have.mode, have.schedstats, have.rootfs) != \
                    (b.kernel, b.topo, b.mode, b.schedstats, b.rootfs):
                raise ValueError('figure %s plans boot %s differently from an earlier '
                                 'figure' % (fid, b.name))
            have.runs = have.runs + b.runs
    for b in boots:
        ids_ = [r.id for r in b.runs]
        if len(ids_) != len(set(ids_)):
            raise ValueError('boot %s has two runs with the same id' % b.name)
    return boots
