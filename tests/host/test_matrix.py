# SPDX-License-Identifier: GPL-2.0
"""make matrix without building: its entries (tests/matrix/, read by
harness/matrix.py) are the ones docs/harness.md documents, a wrong entry
or entry file is refused before anything is built, and CI sums the counts
of check and matrix."""
import contextlib
import io
import os
import shutil
import subprocess
import tempfile
import unittest

from harness import TOP, matrix

MATRIX = os.path.join(TOP, 'scripts', 'matrix.sh')
GOOD = '# A test entry.\norder: 5\narch: i386\nbase: allnoconfig\noptions: SMP=y\nbuild: objects\n'


def read(path):
    with open(path) as f:
        return f.read()


class TestMatrix(unittest.TestCase):
    def test_entries_documented(self):
        readme = read(os.path.join(TOP, 'docs', 'harness.md'))
        names = [e.name for e in matrix.entries()]
        self.assertGreaterEqual(len(names), 9)
        self.assertEqual(sorted(names), matrix.names())
        for e in names:
            self.assertIn('| `%s` |' % e, readme, 'docs/harness.md, "Build matrix"')

    def test_parse(self):
        e = matrix.parse(GOOD, 'x')
        self.assertEqual((e.title, e.order, e.arch, e.base, e.options, e.build, e.needs),
                         ('A test entry.', 5, 'i386', 'allnoconfig', ['SMP=y'], 'objects', ''))
        for text, why in ((GOOD.replace('arch: i386', 'arch: sparc'), 'arch must be'),
                          (GOOD.replace('SMP=y', 'SMP=m'), 'NAME=y or NAME=n'),
                          (GOOD.replace('build: objects\n', ''), 'no build'),
                          (GOOD.replace('# A test entry.\n', ''), 'no comment'),
                          (GOOD + 'color: red\n', 'not "key: value"'),
                          (GOOD.replace('base: allnoconfig', 'base: debian'), 'x86_64 only'),
                          (GOOD.replace('arch: i386', 'arch: x86_64').replace(
                              'build: objects', 'build: w1'), 'w1 takes base: test')):
            with self.assertRaisesRegex(matrix.MatrixError, why):
                matrix.parse(text, 'x')

    def test_plan(self):
        tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, tmp)
        for name, text in (('b', GOOD), ('a', GOOD.replace('order: 5', 'order: 9'))):
            with open(os.path.join(tmp, name), 'w') as f:
                f.write(text)
        out = io.StringIO()
        with contextlib.redirect_stdout(out):
            self.assertEqual(matrix.main(['plan'], tmp), 0)
            self.assertEqual(matrix.main(['title', 'a'], tmp), 0)
        self.assertEqual(out.getvalue(), 'b i386 allnoconfig objects - SMP=y\n'
                         'a i386 allnoconfig objects - SMP=y\nA test entry\n')
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            self.assertEqual(matrix.main(['plan', 'a', 'c'], tmp), 1)
            self.assertEqual(matrix.main(['show'], tmp), 2)
        self.assertIn("no matrix entry 'c' (entries: b a)", err.getvalue())

    def test_unknown_entry_refused(self):
        r = subprocess.run(['bash', MATRIX, 'nosuchentry'], capture_output=True,
                           text=True, timeout=30)
        self.assertEqual(r.returncode, 1)
        self.assertIn("no matrix entry 'nosuchentry'", r.stderr)
        self.assertIn('entries: ' + ' '.join(e.name for e in matrix.entries()), r.stderr)
        self.assertEqual(r.stdout, '')

    def test_ci_runs_check_then_matrix(self):
        ci = read(os.path.join(TOP, '.ci', 'run'))
        self.assertLess(ci.index('run check'), ci.index('run matrix'))
        self.assertIn('echo "$passed passed, $failed failed"', ci)


if __name__ == '__main__':
    unittest.main()
