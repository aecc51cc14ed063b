# SPDX-License-Identifier: GPL-2.0
"""The figures of make bench: the registry, and each figure's plan, table,
checked claims and plots.

A figure is one entry of FIGURES (a Figure): its id (what --only names),
its parameters per mode (quick, full), plan(p) -> the boots and runs it
needs, table(records, p) -> its Markdown, and optionally claims(records)
-> the statements it checks, plots(records, p) -> report.Plot specs, and
needs (figures whose runs its table reads).  Figures that name the same
boot share it: plan() merges their runs into one boot, in registry order.
Each figure's code is a module of this package, named for what it
measures: search (1, 2), unused (3, 4), free (5), tail (6), placement
(7, 8, 9), packing (10, 11), database (12), mainline (13), floor (14),
hrtick (15), fairness (16);
common holds Run, Boot and Figure.  Adding a figure is a function set in one
of them (or a new module), one entry in FIGURES here, and its workload in a file of bench/lnbench/.

A run's record (runs.json) holds the run's figure, workload, kernel,
topology, mode, value, features, core/util, the run's meta (llc, threads,
rep), and the key=value figures lnbench printed; see report.records_of().
"""
from . import (database, fairness, floor, free, hrtick, mainline, packing, placement, search,
               tail, unused)
from .common import Boot, Figure, Run

__all__ = ['Boot', 'Figure', 'Run', 'FIGURES', 'MODES', 'plan', 'registry', 'select',
           'database', 'fairness', 'floor', 'free', 'hrtick', 'mainline', 'packing',
           'placement', 'search', 'tail', 'unused']


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


FIGURES = registry(*search.FIGURES, *unused.FIGURES, *free.FIGURES, *tail.FIGURES,
                   *placement.FIGURES, *packing.FIGURES, *database.FIGURES,
                   *mainline.FIGURES, *floor.FIGURES, *hrtick.FIGURES, *fairness.FIGURES)
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
