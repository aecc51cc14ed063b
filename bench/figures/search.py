# SPDX-License-Identifier: GPL-2.0
"""Figures 1 and 2: the idle CPU search as the LLC grows, and where
wakees land."""
from ..report import Plot, find, fmt, num, pct, table, vname
from .common import Boot, Figure, Run, VALUES, budget, cpulist


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


FIGURES = (
    Figure('1', 'Idle CPU search cost as the LLC grows', LLC_MODES, plan_search, figure1,
           claims=claims, plots=plots_search, cover=cover_search),
    Figure('2', 'Where wakees land', LLC_MODES, plan_placement, figure2),
)
