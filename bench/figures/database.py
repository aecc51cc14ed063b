# SPDX-License-Identifier: GPL-2.0
"""Figure 12: a database beside a load (pgbench on the Debian system
image)."""
import statistics

from ..report import fmt, num, table, vname
from .common import Boot, Figure, Run


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


FIGURES = (
    Figure('12', 'A database beside a load', PGBENCH_MODES, plan_pgbench, figure12,
           cover=cover_pgbench),
)
