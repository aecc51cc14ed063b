# SPDX-License-Identifier: GPL-2.0
"""make bench: the latency nice series measured against the unpatched kernel.

Builds the baseline kernel (the same Debian source and config, without the
series) beside the patched one, boots both with the same QEMU command and
topology, runs bench/lnbench in the guests and writes one dated folder,
results/<date>-bench/: runs.json and runs.csv (every run), tables.md, the
PNG plots, and boots/<boot>/ for each boot (its QEMU command, console log
and verdict.json).

The figures are the registry of the figures package (FIGURES in
bench/figures/__init__.py; python3 -m bench --help lists their ids).
The layers: figures/ plans (and tabulates), runner.py builds and boots,
report.py reads the verdicts into runs.json and writes the tables.

Usage (from the repository's top):
       python3 -m bench [--mode quick|full] [--only FIGURES] [--plan]
       python3 -m bench --report results/<date>-bench
       python3 -m bench --publish results/<date>-bench
BENCH=full in make's environment selects the full matrix.  --publish
writes the run's figures into docs/results.md (publish.py), the one
source of the numbers the cover letter quotes.
"""
import argparse
import functools
import json
import os
import sys
import time

from harness import TOP, settings

from . import figures, publish, report, runner

log = report.log


def print_plan(boots):
    for b in boots:
        print('%s: %s kernel, %s, %s, %d runs' % (b.name, b.kernel, b.topo, b.mode,
                                                  len(b.runs)))
        for r in b.runs:
            print('    %s: %s' % (r.id, ' '.join(str(c) for c in r.cmd)))


def run(boots, outdir, boot_one, ids, **meta):
    """Boot each of @boots into @outdir/boots/<name> with boot_one(boot,
    folder, i, total) -> exit status, then write runs.json, runs.csv,
    tables.md and the plots of figures @ids into @outdir.
    Returns (runs.json's data, tables.md's text, the runs without a result)."""
    exits = {}
    for i, b in enumerate(boots, 1):
        folder = os.path.join(outdir, 'boots', b.name)
        os.makedirs(folder)
        exits[b.name] = boot_one(b, folder, i, len(boots))
    data = report.collect(outdir, boots, exits, figures=list(ids), **meta)
    report.save(data, outdir)
    text, missing = report.write(data, outdir, [figures.FIGURES[i] for i in ids])
    return data, text, missing


def run_ids(data):
    """The figure ids of a runs.json: kept there, or an older one's --only."""
    return figures.select(','.join(data['figures']) if data.get('figures')
                          else data.get('only'))


def report_again(outdir):
    """--report: tables.md and the plots of @outdir again, from its runs.json."""
    with open(os.path.join(outdir, 'runs.json')) as f:
        data = json.load(f)
    ids = run_ids(data)
    text, missing = report.write(data, outdir, [figures.FIGURES[i] for i in ids])
    print(text)
    return 1 if missing else 0


def publish_run(outdir):
    """--publish: the figures of @outdir's runs.json into docs/results.md."""
    with open(os.path.join(outdir, 'runs.json')) as f:
        data = json.load(f)
    ids = run_ids(data)
    missing = [r for r in data['runs'] if not r['ok']]
    if missing:
        print('bench: %s has %d runs without a result: not published'
              % (outdir, len(missing)), file=sys.stderr)
        return 1
    if data.get('kernel_code') != publish.kernel_code():
        print('bench: %s measured kernel code %s; patches/ builds %s: not published'
              % (outdir, data.get('kernel_code', '(not recorded)'), publish.kernel_code()),
              file=sys.stderr)
        return 1
    done = publish.publish(data, outdir, [figures.FIGURES[i] for i in ids],
                           list(figures.FIGURES))
    log('figures %s of %s written to %s' % (', '.join(done), outdir,
                                           os.path.relpath(publish.RESULTS_MD, TOP)))
    return 0


def main(argv=None):
    s = settings.load()
    ap = argparse.ArgumentParser(prog='python3 -m bench', description=__doc__.split('\n')[0])
    ap.add_argument('--mode', default=s['BENCH'],
                    help='%s (default: BENCH, %s)' % (' or '.join(figures.MODES), s['BENCH']))
    ap.add_argument('--only', default='',
                    help='figures to run: ids from %s, e.g. 12 or 1,2 (default: all)'
                    % ', '.join(figures.FIGURES))
    ap.add_argument('--plan', action='store_true', help='print the boots and runs and stop')
    ap.add_argument('--report', metavar='DIR',
                    help='write the tables and plots of results DIR again, from its runs.json')
    ap.add_argument('--publish', metavar='DIR',
                    help='write the figures of results DIR into docs/results.md')
    args = ap.parse_args(argv)
    try:
        if args.report:
            return report_again(args.report)
        if args.publish:
            return publish_run(args.publish)
        ids = figures.select(args.only)
    except ValueError as e:
        print('bench: %s' % e, file=sys.stderr)
        return 2
    if args.mode not in figures.MODES:
        print('bench: BENCH=%s: use %s' % (args.mode, ' or '.join(figures.MODES)),
              file=sys.stderr)
        return 2
    boots = figures.plan(args.mode, ids)
    if args.plan:
        print_plan(boots)
        return 0
    t0 = time.time()
    prog = runner.build(s, {b.kernel for b in boots})
    outdir = os.path.join(s['RESULTS'], time.strftime('%Y%m%d-%H%M%S') + '-bench')
    os.makedirs(outdir)
    log('==> %d boots, %d runs, results in %s' % (len(boots), sum(len(b.runs) for b in boots),
                                                 os.path.relpath(outdir, TOP)))
    boot_one = functools.partial(runner.boot, s=s, prog=prog)
    _, text, missing = run(boots, outdir, boot_one, ids, version=s['KVER_DEB'],
                           mode=args.mode, icount=s['ICOUNT_REPEATABLE'],
                           date=time.strftime('%Y-%m-%d %H:%M UTC', time.gmtime()),
                           kernel_code=publish.kernel_code())
    print()
    print(text)
    log('==> make bench (%s): %ds in all; results in %s'
        % (args.mode, time.time() - t0, os.path.relpath(outdir, TOP)))
    if missing:
        log('bench: %d runs gave no result (see boots/*/console.log and verdict.json)'
            % len(missing))
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main())
