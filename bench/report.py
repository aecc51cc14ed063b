# SPDX-License-Identifier: GPL-2.0
"""make bench's report: runs.json and runs.csv from the boots' verdicts,
tables.md and the plots from runs.json.

Reads each boot's figures only from its verdict.json (harness/verdict.py,
written by harness/qemu.py): tests[run id]['data'] holds the key=value
pairs of the last "BENCH ..." line lnbench printed in that run, rc its
exit status.  Nothing here knows a figure: the figures (the figures package) bring
their tables, claims and plots; this module has the helpers they use.
"""
import csv
import json
import os
import shlex
import subprocess

from harness import verdict


def log(msg):
    print(msg, flush=True)


# ---------------------------------------------------------------- helpers

def num(d, k):
    try:
        return float(d[k])
    except (KeyError, ValueError, TypeError):
        return None


def fmt(x, nd=1):
    return '-' if x is None else ('%.*f' % (nd, x))


def sig(x):
    """Five significant digits: seconds and transactions alike."""
    return '-' if x is None else ('%.5g' % x)


def pct(a, b):
    if a is None or b in (None, 0):
        return None
    return (a / b - 1) * 100


def vname(v):
    return 'default' if v is None else str(v)


def table(head, rows):
    out = ['| ' + ' | '.join(head) + ' |', '|' + '---|' * len(head)]
    out += ['| ' + ' | '.join(str(c) for c in r) + ' |' for r in rows]
    return '\n'.join(out) + '\n'


def find(records, **kw):
    for r in records:
        if all(r.get(k) == v for k, v in kw.items()):
            return r
    return None


class Plot:
    """A PNG to draw: its file name, its data file's name and text, and the
    gnuplot commands (%(png)s and %(dat)s stand for the two paths)."""

    def __init__(self, png, dat, data, script):
        self.png, self.dat, self.data, self.script = png, dat, data, script


# ------------------------------------------------------- verdicts -> runs

def value_of(v):
    try:
        return int(v)
    except ValueError:
        try:
            return float(v)
        except ValueError:
            return v


def records_of(boot, tests, results):
    """The records of @boot's runs, from @tests (verdict.json's 'tests'):
    the plan's description of each run, and its figures from the run's
    'data'.  @results: the boot's folder, relative to the bench folder.
    A run is ok when it printed figures and exited 0."""
    recs = []
    for r in boot.runs:
        t = tests.get(r.id) or {}
        d = t.get('data') or {}
        rec = dict(figure=r.figure, workload=r.workload, kernel=boot.kernel,
                   topo=boot.topo, mode=boot.mode, value=r.value,
                   features=' '.join(r.features), boot=boot.name, results=results,
                   rc=t.get('rc'), ok=bool(d) and t.get('rc') == 0)
        rec.update(r.meta)
        for f in r.features:
            if 'CORE' in f:
                rec['core'] = f
            if 'UTIL' in f:
                rec['util'] = f
        for k, v in d.items():
            if k != 'mode':
                rec[k] = value_of(v)
        recs.append(rec)
    return recs


def collect(outdir, boots, exits, **meta):
    """runs.json's content: @meta, every boot (from its verdict.json in
    @outdir/boots/<name>) and every run.  Paths are relative to @outdir."""
    out_boots, recs = [], []
    for b in boots:
        rel = os.path.join('boots', b.name)
        try:
            v = verdict.load(os.path.join(outdir, rel))
            problems = list(v.get('problems', []))
        except (OSError, ValueError) as e:
            v, problems = {}, ['no verdict.json (%s): the boot did not get as far as '
                               'judging its console' % e]
        qemu = v.get('qemu_command') or []
        out_boots.append(dict(name=b.name, kernel=b.kernel, topo=b.topo, mode=b.mode,
                              schedstats=b.schedstats,
                              qemu=' '.join(shlex.quote(c) for c in qemu),
                              results=rel, exit=exits.get(b.name), problems=problems))
        recs += records_of(b, v.get('tests') or {}, rel)
    data = dict(meta)
    data.update(boots=out_boots, runs=recs)
    return data


def save(data, outdir):
    """runs.json and runs.csv."""
    with open(os.path.join(outdir, 'runs.json'), 'w') as f:
        json.dump(data, f, indent=1)
    recs = data['runs']
    keys = sorted({k for r in recs for k in r})
    with open(os.path.join(outdir, 'runs.csv'), 'w', newline='') as f:
        w = csv.DictWriter(f, fieldnames=keys)
        w.writeheader()
        w.writerows(recs)


# ---------------------------------------------------------------- report

def draw(plots, outdir):
    """The PNGs of @plots with gnuplot (skipped, and said, without it)."""
    if not plots:
        return []
    gp = subprocess.run(['sh', '-c', 'command -v gnuplot'], stdout=subprocess.PIPE, text=True)
    if gp.returncode:
        log('    gnuplot is missing (scripts/setup.sh bench installs it): no plots')
        return []
    made = []
    for p in plots:
        dat, png = os.path.join(outdir, p.dat), os.path.join(outdir, p.png)
        with open(dat, 'w') as f:
            f.write(p.data)
        r = subprocess.run(['gnuplot', '-e', p.script % dict(png=png, dat=dat)],
                           stderr=subprocess.PIPE, text=True)
        if r.returncode == 0:
            made.append(png)
        else:
            log('    gnuplot failed: %s' % r.stderr.strip())
    return made


def write(data, outdir, figures):
    """tables.md and the plots of @figures (registry entries) from @data
    (runs.json).  Returns (the Markdown, the runs without a result)."""
    recs, mode = data['runs'], data['mode']
    md = ['# latency nice benchmarks (%s mode)\n' % mode,
          'Kernel source: Debian linux-source-6.12 %s; baseline = that tree, patched = '
          'with the series; same config (configs/latnice.config plus configs/bench.config: '
          'no lockdep), same QEMU command.  '
          'Repeatable mode: `-icount %s` with `-seed 1` and `norandmaps` (virtual time '
          'advances with the instructions executed by all vCPUs, one at a time).  '
          'Wall-clock mode: multi-threaded TCG on a 2-core host, noisy.\n'
          % (data['version'], data['icount'])]
    md.append('## Boots\n')
    md.append(table(['boot', 'kernel', 'topology', 'mode', 'schedstats', 'QEMU command'],
                    [[b['name'], b['kernel'], b['topo'], b['mode'],
                      'on' if b['schedstats'] else 'off', '`%s`' % b['qemu']]
                     for b in data['boots']]))
    failed = [b for b in data['boots'] if b.get('problems')]
    if failed:
        md.append('Boots that failed: %s\n' % '; '.join(
            '%s: %s' % (b['name'], ', '.join(b['problems'])) for b in failed))
    plots = []
    for f in figures:
        p = f.modes[mode]
        md.append(f.table(recs, p))
        if f.claims:
            md.append('### Checked\n')
            md.append(f.claims(recs))
        if f.plots:
            plots += f.plots(recs, p)
    md.append(EMULATION_NOTE)
    missing = [r for r in recs if not r['ok']]
    if missing:
        md.append('Runs without a result: %s\n' % ', '.join(r['boot'] + ':' + r['figure'] + ':'
                                                        + r['workload'] for r in missing))
    pngs = draw(plots, outdir)
    if pngs:
        md.append('Plots: ' + ', '.join(os.path.basename(x) for x in pngs) + '\n')
    text = '\n'.join(md)
    with open(os.path.join(outdir, 'tables.md'), 'w') as f:
        f.write(text)
    return text, missing


EMULATION_NOTE = '''## What emulation cannot show

The RFC's gains on a 44-core machine come from costs QEMU does not model:
the cache misses of reading each remote runqueue a search probes across a
large LLC, idle-state exit latency, and SMT contention.  Under `-icount`
every instruction costs the same virtual time, so a search costs only its
instructions, a small share of a loopback round trip: figure 1 measures
the search itself, and figures 3 and 4 show how little of a workload it is
here.  Wall-clock TCG adds host scheduling noise larger than these effects.
'''
