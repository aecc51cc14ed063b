# SPDX-License-Identifier: GPL-2.0
"""Figures 7, 8 and 9: values 1 to 15 place as 0, the good-enough CPU,
and protection."""
import statistics

from ..report import fmt, num, table, vname
from .common import Boot, Figure, Run, cpulist, ncpus
from .free import FREE_BUSY, FREE_TOPO


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


FIGURES = (
    Figure('7', 'Values 1 to 15 place as 0', LIKE_ZERO_MODES, plan_like_zero, figure7,
           claims=claims_like_zero),
    Figure('8', 'The good-enough CPU', GOOD_MODES, plan_good, figure8, claims=claims_good),
    Figure('9', 'Protection', PROTECT_MODES, plan_protect, figure9, claims=claims_protect),
)
