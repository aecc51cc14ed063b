# SPDX-License-Identifier: GPL-2.0
"""Figure 5: value 0 is free, in virtual time per wakeup."""
import statistics

from ..report import fmt, num, pct, table
from .common import Boot, Figure, Run, cpulist, ncpus


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
# The faces' switches (sched/latency_nice/<face>): with the key on, each
# one off in turn, the others on, to say which face's reads cost value 0.
FACES = ('SLICE', 'GOOD_ENOUGH', 'PREEMPT', 'CREDIT', 'PROTECT', 'PACK')


def face_key(face):
    return 'on-no-%s' % face.lower().replace('_', '-')


def face_switches(face):
    """Every face's switch on but @face's."""
    return tuple(('NO_LATENCY_%s' if f == face else 'LATENCY_%s') % f for f in FACES)


def plan_free(p):
    """Baseline, and the patched kernel before and after its latency nice
    key is switched on (a task sets -20 once and exits; every task is then
    at 0, as after a probe by a userland tool), mainline's default features."""
    def rtt(state, rep, value=None, rounds=p['rounds'], features=()):
        return Run('5', 'rtt', value, features, ['rtt', '-n', rounds, '-b', FREE_BUSY],
                   key=state, rep=rep)
    reps = range(1, p['reps'] + 1)
    patched = [rtt('off', r) for r in reps]
    patched.append(rtt('switch', 0, value=-20, rounds=10))
    patched += [rtt('on', r) for r in reps]
    # Then each face off in turn (every run sets all the switches).
    patched += [rtt(face_key(f), r, features=face_switches(f)) for f in FACES for r in reps]
    return [Boot('bench-free-baseline', 'baseline', FREE_TOPO, 'icount', False,
                 [rtt('none', r) for r in reps]),
            Boot('bench-free-patched', 'patched', FREE_TOPO, 'icount', False, patched)]


def free_rows(records):
    """{(kernel, key): (median rtt ns, spread %, n)} of figure 5, the rows
    with one face off among them."""
    out = {}
    for kernel, key in (('baseline', 'none'), ('patched', 'off'), ('patched', 'on')) + \
            tuple(('patched', face_key(f)) for f in FACES):
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
    on = got.get(('patched', 'on'))
    rows = []
    for f in FACES:
        if ('patched', face_key(f)) not in got:
            continue
        m, spread, n = got[('patched', face_key(f))]
        rows.append(['%s off' % f.lower(), n, fmt(m, 0), fmt(spread, 2),
                     fmt((m - base[0]) / 2 if base else None, 1),
                     fmt((on[0] - m) / 2 if on else None, 1)])
    if rows:
        md.append('### Key on, one face off\n\nThe patched kernel with the key on, as in '
                  'the last row above, and one face\'s switch '
                  '(/sys/kernel/debug/sched/latency_nice/<face>) off, the others on: what '
                  'is left per wakeup, and what that face costs a wakeup at 0 (the key-on '
                  'row less this one, per wakeup; within the spread of the runs, it is '
                  'noise).\n')
        md.append(table(['switch', 'runs', 'round trip ns (median)', 'spread %',
                         'ns per wakeup vs baseline', 'the face costs, ns per wakeup'], rows))
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


FIGURES = (
    Figure('5', 'Value 0 is free', FREE_MODES, plan_free, figure5, claims=claims_free,
           cover=cover_free),
)
