# SPDX-License-Identifier: GPL-2.0
"""harness/topology.py: the one parser of SOCKETSxCORESxTHREADS, and every
user of a topology going through it with the same messages."""
import contextlib
import io
import os
import re
import tempfile
import unittest

from bench import figures
from harness import madt, qemu, scenario, topology

TOP = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
SHAPE = 'topology must be SOCKETSxCORESxTHREADS, e.g. 2x4x2, not '
# Bad topologies and the message each gets.
BAD = {'2x4': SHAPE + "'2x4'", 'axbxc': SHAPE + "'axbxc'", '2x4x2x1': SHAPE + "'2x4x2x1'",
       '': SHAPE + "''", ' 2x4x2': SHAPE + "' 2x4x2'",
       '0x4x2': "topology '0x4x2': need 1..64 CPUs in all",
       '4x8x4': "topology '4x8x4': need 1..64 CPUs in all"}


class TestParse(unittest.TestCase):
    def test_good(self):
        t = topology.parse('2x4x2')
        self.assertEqual(t, (2, 4, 2))
        self.assertEqual((t.sockets, t.cores, t.threads, t.cpus), (2, 4, 2, 16))
        self.assertEqual(str(t), '2x4x2')
        self.assertEqual(topology.parse('1x1x1').cpus, 1)
        self.assertEqual(topology.parse('4x4x4').cpus, 64)

    def test_bad(self):
        for text, why in BAD.items():
            with self.assertRaises(topology.TopologyError, msg=text) as e:
                topology.parse(text)
            self.assertEqual(str(e.exception), why)
            self.assertIsInstance(e.exception, ValueError)


class TestUsers(unittest.TestCase):
    """Each user of a topology says what the parser says."""

    def test_scenario(self):
        text = 'title: t\ntopo: %s\nprogram: p /tests/p\n'
        for bad, why in BAD.items():
            if bad != bad.strip():
                continue            # a scenario's value is stripped
            with self.assertRaises(scenario.ScenarioError) as e:
                scenario.parse(text % bad, 'x')
            self.assertEqual(str(e.exception), 'scenario x, line 2: ' + why)

    def test_qemu(self):
        for bad, why in BAD.items():
            err = io.StringIO()
            with contextlib.redirect_stderr(err):
                rc = qemu.main(['--kernel', 'k', '--initrd', 'i', '--results', 'r',
                                '--timeout', '1', '--numbering', 'adjacent',
                                '--autogroup', 'off', '--cgroup', 'v2', '--topo', bad,
                                '--print'])
            self.assertEqual((rc, err.getvalue()), (2, 'error: %s\n' % why))

    def test_madt(self):
        with tempfile.TemporaryDirectory() as d:
            for bad, why in BAD.items():
                err = io.StringIO()
                with contextlib.redirect_stderr(err):
                    rc = madt.main(['qemu', bad, os.path.join(d, 'apic.aml')])
                self.assertEqual((rc, err.getvalue()), (1, 'madt: %s\n' % why))

    def test_bench(self):
        self.assertEqual(figures.common.ncpus('1x8x2'), 16)
        with self.assertRaises(topology.TopologyError):
            figures.common.ncpus('1x8')

    def test_no_other_parser(self):
        # Another parse of SxCxT would be a regex or a split on "x".
        shapes = re.compile(r"""split\(['"]x['"]\)|\)x\(|\\d\+\)x""")
        for folder in ('harness', 'bench'):
            for name in os.listdir(os.path.join(TOP, folder)):
                if not name.endswith('.py') or (folder, name) == ('harness', 'topology.py'):
                    continue
                with open(os.path.join(TOP, folder, name)) as f:
                    self.assertIsNone(shapes.search(f.read()), '%s/%s' % (folder, name))


if __name__ == '__main__':
    unittest.main()
