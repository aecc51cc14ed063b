# SPDX-License-Identifier: GPL-2.0
"""scripts/matrix.sh (make matrix) without building: its entries are the
ones docs/harness.md and its own header document, a wrong entry is refused
before anything is built, and CI sums the counts of check and matrix."""
import os
import re
import subprocess
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.normpath(os.path.join(HERE, '..', '..'))
MATRIX = os.path.join(TOP, 'scripts', 'matrix.sh')


def read(path):
    with open(path) as f:
        return f.read()


def entries():
    m = re.search(r'^ALL=\(([^)]*)\)', read(MATRIX), re.M)
    return m.group(1).split()


class TestMatrix(unittest.TestCase):
    def test_entries_documented(self):
        text = read(MATRIX)
        readme = read(os.path.join(TOP, 'docs', 'harness.md'))
        self.assertGreaterEqual(len(entries()), 9)
        for e in entries():
            self.assertRegex(text, r'(?m)^#   %s\s' % re.escape(e), 'header of matrix.sh')
            self.assertIn('| `%s` |' % e, readme, 'docs/harness.md, "Build matrix"')

    def test_unknown_entry_refused(self):
        r = subprocess.run(['bash', MATRIX, 'nosuchentry'], capture_output=True,
                           text=True, timeout=30)
        self.assertEqual(r.returncode, 1)
        self.assertIn("no matrix entry 'nosuchentry'", r.stderr)
        self.assertIn('entries: ' + ' '.join(entries()), r.stderr)

    def test_ci_runs_check_then_matrix(self):
        ci = read(os.path.join(TOP, '.ci', 'run'))
        self.assertLess(ci.index('run check'), ci.index('run matrix'))
        self.assertIn('echo "$passed passed, $failed failed"', ci)


if __name__ == '__main__':
    unittest.main()
