# SPDX-License-Identifier: GPL-2.0
"""What the tests of make bench share: each mode's parameters and a fake
lnbench's figures for a run, plausible and within the claims."""
from bench import figures

QUICK_LLC = figures.search.LLC_MODES['quick']
QUICK_UNUSED = figures.unused.UNUSED_MODES['quick']


def fake_data(boot, run):
    """Plausible lnbench figures for @run: within the claims."""
    if run.figure == '1':
        rounds = QUICK_LLC['rounds']
        b = figures.common.budget(run.value, run.meta['llc'])
        probes = rounds * (run.meta['llc'] - 1 if b is None else b)
        return dict(mode='rtt', rounds=rounds, rtt_ns=50000.5, scans=rounds,
                    probes=probes, found=0, scan_ns=probes * 10)
    if run.figure == '2':
        return dict(mode='rtt', rounds=80, same='0.0000', sibling='0.2500',
                    other='0.7500', on_busy='0.0000')
    if run.workload == 'pingpong':
        return dict(mode='pingpong', pairs=1, tps=1000.0 + (run.value or 0), seconds='0.500')
    if run.workload == 'wakeup':
        return dict(mode='wakeup', p50_ns=1000, p99_ns=2000, p999_ns=3000)
    if run.workload == 'cyclictest':
        # 0 at 1000 us, -20 and sched_runtime at 100, FIFO at 50, idle 60.
        # Figure 15's rows with HRTICK ("-hrtick") as the rows without.
        row = run.meta['row'].removesuffix('-hrtick')
        base = {None: 1000, -5: 800, -10: 500, -15: 300, -20: 100, 19: 1200}[run.value]
        if row == 'nopreempt':
            base = 1000
        elif row in ('slack1', 'light-slack1'):
            base = 60 if run.value == -20 else 900
        elif row != 'other':
            base = 100 if row == 'runtime' else 50
        if run.meta['load'] == 'idle':
            base = 60
        return dict(mode='cyclictest', samples=1000, avg_us=base, p50_us=base // 2,
                    p99_us=base * 2, p999_us=base * 3, max_us=base * 4, overflows=0,
                    thread_cpu_pct=0.5, thread_runnable=2.5,
                    hackbench_runs=5, hackbench_s=0.5)
    if run.workload == 'share':
        # Half the CPU, a quarter for the task that sleeps twice its burst.
        share = 25.0 if run.meta['duty'] == '500/1000' else 50.0
        return dict(mode='share', task_ms=20 * share, hog_ms=20 * (100 - share),
                    share_pct=share)
    return dict(mode='messaging', seconds=1.25)
