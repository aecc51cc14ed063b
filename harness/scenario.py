# SPDX-License-Identifier: GPL-2.0
"""Guest test scenarios: one file each in tests/guest/scenarios/.

A scenario is one boot of the test kernel: its topology, its kernel
arguments, how cgroups are set up, whether QEMU counts instructions, and
the programs it runs, in order.  A file holds "key: value" lines; lines
starting with # are comments (the first ones describe the scenario):

    title: KUnit, the ABI, placement and cgroup v2 tests
    order: 10                   make check runs scenarios by order, then name
    targets: check bisect       which targets boot it (check, bisect)
    topo: 2x4x2                 sockets x cores x threads (as the TOPO
                                setting)
    append: sched_verbose       more kernel arguments (optional)
    cgroup: v2                  v2, or v1: the cpu controller on a v1
                                hierarchy at /cgroup-v1/cpu (optional, v2)
    icount: no                  yes: QEMU -icount (ICOUNT_REPEATABLE)
    autogroup: off              on: autogroup in this boot (optional;
                                default: the AUTOGROUP setting)
    numbering: apart            how Linux numbers SMT siblings: adjacent
                                (QEMU's order, 0-1, 2-3, ...) or apart
                                (many Intel machines': thread 0 of every
                                core first; optional, default: the
                                NUMBERING setting)
    rootfs: system              the guest's root: the Debian system image
                                with systemd as PID 1 (scripts/mkrootfs.sh;
                                optional, default: the initramfs); not
                                with cgroup: v1 or numbering: apart
    kernel: baseline            boot the unpatched kernel of the test config
                                (BASE_CHECK_OBJ; optional, default: patched)
    journal-of: NAME            (kernel: baseline, rootfs: system) the boot
                                journal's warnings of scenario NAME, on the
                                patched kernel, must all be printed here too
    program: NAME COMMAND...    a program, as initramfs/run-tests runs it
                                (repeatable; one at least)

Command line (for the bash scripts), python3 -m harness scenario ...:
    list TARGET                 the names of TARGET's scenarios, in order
    kernels TARGET              the kernels TARGET's scenarios boot
    journals TARGET             "BASELINE NAME" a line: scenario NAME's
                                boot journal against scenario BASELINE's
python3 -m harness boot --scenario NAME DIR boots one (harness/boot.py).
"""
import os
import re
import sys
from dataclasses import dataclass, field
from typing import Optional

from . import TOP, keyfile, topology

DIR = os.path.join(TOP, 'tests', 'guest', 'scenarios')
KEYS = {'title', 'order', 'targets', 'topo', 'append', 'cgroup', 'icount',
        'autogroup', 'numbering', 'rootfs', 'kernel', 'journal-of', 'program'}
KERNELS = ('patched', 'baseline')
ROOTFS = ('system',)
TARGETS = {'check', 'bisect'}
NAME_RE = re.compile(r'^[a-z0-9][a-z0-9-]*$')


class ScenarioError(ValueError):
    pass


@dataclass
class Scenario:
    """One scenario file, loaded once: its keys as the header names them
    (journal-of as journal_of); autogroup None and numbering '' leave the
    setting's value, rootfs '' is the initramfs."""
    name: str
    title: str = ''
    order: int = 50
    targets: set = field(default_factory=set)
    topo: str = ''
    append: str = ''
    cgroup: str = 'v2'
    icount: bool = False
    autogroup: Optional[bool] = None
    numbering: str = ''
    rootfs: str = ''
    kernel: str = 'patched'
    journal_of: str = ''
    programs: list = field(default_factory=list)


def parse(text, name='?'):
    """A scenario file's text as a Scenario; ScenarioError names what is wrong."""
    sc = Scenario(name)

    def bad(n, why):
        raise ScenarioError('scenario %s, line %d: %s' % (name, n, why))
    for n, key, val in keyfile.items(text, KEYS, bad):
        if key == 'title':
            sc.title = val
        elif key == 'order':
            if not val.isdigit():
                bad(n, 'order must be a number, not %r' % val)
            sc.order = int(val)
        elif key == 'targets':
            t = set(val.split())
            if not t <= TARGETS:
                bad(n, 'unknown target(s) %s (known: %s)'
                    % (' '.join(sorted(t - TARGETS)), ' '.join(sorted(TARGETS))))
            sc.targets = t
        elif key == 'topo':
            try:
                topology.parse(val)
            except topology.TopologyError as e:
                bad(n, str(e))
            sc.topo = val
        elif key == 'append':
            sc.append = val
        elif key == 'cgroup':
            if val not in ('v1', 'v2'):
                bad(n, 'cgroup must be v1 or v2, not %r' % val)
            sc.cgroup = val
        elif key in ('icount', 'autogroup'):
            yes = {'icount': ('yes', 'no'), 'autogroup': ('on', 'off')}[key]
            if val not in yes:
                bad(n, '%s must be %s or %s, not %r' % (key, yes[0], yes[1], val))
            setattr(sc, key, val == yes[0])
        elif key == 'numbering':
            if val not in topology.NUMBERINGS:
                bad(n, 'numbering must be adjacent or apart, not %r' % val)
            sc.numbering = val
        elif key == 'rootfs':
            if val not in ROOTFS:
                bad(n, 'rootfs must be %s, not %r' % (' or '.join(ROOTFS), val))
            sc.rootfs = val
        elif key == 'kernel':
            if val not in KERNELS:
                bad(n, 'kernel must be %s, not %r' % (' or '.join(KERNELS), val))
            sc.kernel = val
        elif key == 'journal-of':
            if not NAME_RE.match(val):
                bad(n, 'journal-of names a scenario, not %r' % val)
            sc.journal_of = val
        elif key == 'program':
            prog = val.split(None, 1)
            if len(prog) != 2:
                bad(n, 'program needs a name and a command')
            sc.programs.append((prog[0], prog[1]))
    for key in ('title', 'topo'):
        if not getattr(sc, key):
            raise ScenarioError('scenario %s: no %s' % (name, key))
    if not sc.programs:
        raise ScenarioError('scenario %s: no program' % name)
    if sc.rootfs and (sc.cgroup == 'v1' or sc.numbering == 'apart'):
        # systemd owns the cgroup hierarchy; the reordered MADT is loaded
        # from an initramfs.
        raise ScenarioError('scenario %s: rootfs: %s takes neither cgroup: v1 nor '
                            'numbering: apart' % (name, sc.rootfs))
    if sc.journal_of and (sc.kernel != 'baseline' or sc.rootfs != 'system'):
        raise ScenarioError('scenario %s: journal-of needs kernel: baseline and '
                            'rootfs: system' % name)
    if sc.kernel == 'baseline' and 'bisect' in sc.targets:
        # make bisect builds the series' steps only.
        raise ScenarioError('scenario %s: kernel: baseline is for make check only' % name)
    names = [p for p, _ in sc.programs]
    if len(set(names)) != len(names):
        raise ScenarioError('scenario %s: a program name twice' % name)
    return sc


def load(name, folder=DIR):
    if not NAME_RE.match(name):
        raise ScenarioError('scenario name %r: lower case, digits and -' % name)
    path = os.path.join(folder, name)
    try:
        with open(path) as f:
            return parse(f.read(), name)
    except FileNotFoundError:
        raise ScenarioError('no scenario %s (the files of %s are: %s)'
                            % (name, folder, ' '.join(names(folder))))


def names(folder=DIR):
    return sorted(f for f in os.listdir(folder) if NAME_RE.match(f))


def scenarios(target, folder=DIR):
    """The scenarios TARGET boots, in order."""
    all_ = [load(n, folder) for n in names(folder)]
    return sorted((s for s in all_ if target in s.targets),
                  key=lambda s: (s.order, s.name))


def main(argv, folder=DIR):
    if len(argv) != 2 or argv[0] not in ('list', 'kernels', 'journals'):
        print('usage: python3 -m harness scenario list|kernels|journals TARGET',
              file=sys.stderr)
        return 2
    try:
        if argv[1] not in TARGETS:
            raise ScenarioError('unknown target %s (known: %s)'
                                % (argv[1], ' '.join(sorted(TARGETS))))
        scs = scenarios(argv[1], folder)
        by_name = {s.name: s for s in scs}
        for s in scs:
            of = by_name.get(s.journal_of)
            if s.journal_of and of is None:
                raise ScenarioError('scenario %s: journal-of %s, which target %s does '
                                    'not boot' % (s.name, s.journal_of, argv[1]))
            if of and (of.rootfs != 'system' or of.kernel != 'patched'):
                raise ScenarioError('scenario %s: journal-of %s, which does not boot '
                                    'the patched kernel on the system image'
                                    % (s.name, s.journal_of))
    except ScenarioError as e:
        print('error: %s' % e, file=sys.stderr)
        return 1
    if argv[0] == 'list':
        out = [s.name for s in scs]
    elif argv[0] == 'kernels':
        out = [k for k in KERNELS if any(s.kernel == k for s in scs)]
    else:
        out = ['%s %s' % (s.name, s.journal_of) for s in scs if s.journal_of]
    for line in out:
        print(line)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
