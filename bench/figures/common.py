# SPDX-License-Identifier: GPL-2.0
"""Shared by the figures: the plan's Run, Boot and Figure, and the
topology and value helpers."""
from harness import topology


# Latency nice values of the patched kernel; None: none set (the default, 0).
VALUES = (None, -10, -19, -20)


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


def budget(value, llc, smt=2):
    """latency_nice_scan_budget() of the series (kernel/sched/sched.h)."""
    if value is None or value >= 0:
        return None
    return max(max(smt, 2), -(-llc * (value + 20) // 20))
