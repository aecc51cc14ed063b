# SPDX-License-Identifier: GPL-2.0
"""The guest's topology, SOCKETSxCORESxTHREADS (2x4x2: two sockets of four
cores of two threads): the one parser of it and its error messages, for
the TOPO setting, a scenario's "topo:" line, the QEMU command line,
the MADT and bench's figures alike.  QEMU's pc machine takes at most 64
CPUs here (the MADT's local APIC entries hold 8-bit APIC IDs).
"""
import re
from typing import NamedTuple

MAX_CPUS = 64
# How Linux numbers SMT siblings (the NUMBERING setting, harness/madt.py).
NUMBERINGS = 'adjacent apart'.split()
TOPO_RE = re.compile(r'([0-9]+)x([0-9]+)x([0-9]+)')


class TopologyError(ValueError):
    pass


class Topology(NamedTuple):
    sockets: int
    cores: int
    threads: int

    @property
    def cpus(self):
        return self.sockets * self.cores * self.threads

    def __str__(self):
        return '%dx%dx%d' % self


def parse(text):
    """The Topology of @text; TopologyError says what is wrong with it."""
    m = TOPO_RE.fullmatch(text)
    if not m:
        raise TopologyError('topology must be SOCKETSxCORESxTHREADS, e.g. 2x4x2, '
                            'not %r' % text)
    topo = Topology(*(int(x) for x in m.groups()))
    if min(topo) < 1 or topo.cpus > MAX_CPUS:
        raise TopologyError('topology %r: need 1..%d CPUs in all' % (text, MAX_CPUS))
    return topo
