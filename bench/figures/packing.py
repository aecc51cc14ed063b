# SPDX-License-Identifier: GPL-2.0
"""Figures 10 and 11: packing, and the protected task's latency."""
import statistics

from ..report import fmt, num, table, vname
from .common import Figure, Run
from .placement import ab_boots, claims_shares, face_of


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


FIGURES = (
    Figure('10', 'Packing', PACK_MODES, plan_pack, figure10, claims=claims_pack,
           cover=cover_pack),
    Figure('11', 'The protected task\'s latency', NOISE_MODES, plan_noise, figure11,
           claims=claims_noise),
)
