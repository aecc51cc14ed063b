# SPDX-License-Identifier: GPL-2.0
"""scripts/apply-series.sh and export-series.sh on a small git tree.

The scripts work on any tree with a "base" tag; a tiny one keeps these
tests fast while exercising the same code the kernel tree goes through.
"""
import os
import shutil
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPTS = os.path.join(HERE, '..', '..', 'scripts')
APPLY = os.path.join(SCRIPTS, 'apply-series.sh')
EXPORT = os.path.join(SCRIPTS, 'export-series.sh')

ENV = dict(os.environ, KVER_DEB='6.12.0-test', GIT_AUTHOR_NAME='A U Thor',
           GIT_AUTHOR_EMAIL='author@example.org', GIT_COMMITTER_NAME='C',
           GIT_COMMITTER_EMAIL='c@example.org')


def sh(*args, cwd=None, check=True, env=None):
    r = subprocess.run(args, cwd=cwd, env=dict(ENV, **(env or {})),
                       capture_output=True, text=True)
    if check and r.returncode:
        raise AssertionError('%s failed (%d): %s%s' % (args, r.returncode,
                                                     r.stdout, r.stderr))
    return r


def read(path):
    with open(path) as f:
        return f.read()


def files(d):
    return {f: read(os.path.join(d, f)) for f in sorted(os.listdir(d))}


class TestSeries(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.tree = os.path.join(self.tmp, 'tree')
        os.mkdir(self.tree)
        t = self.tree
        with open(os.path.join(t, 'a.c'), 'w') as f:
            f.write(''.join('line %d\n' % i for i in range(30)))
        sh('git', 'init', '-q', '-b', 'pristine', cwd=t)
        sh('git', 'add', '.', cwd=t)
        sh('git', 'commit', '-q', '-m', 'base', cwd=t)
        sh('git', 'tag', 'base', cwd=t)
        sh('git', 'checkout', '-q', '-b', 'latnice', cwd=t)
        with open(os.path.join(t, 'a.c'), 'a') as f:
            f.write('added\n')
        sh('git', 'commit', '-q', '-am', 'sched/fair: Change a', '-m', 'Because.', cwd=t)
        with open(os.path.join(t, 'c.c'), 'w') as f:
            f.write('new file\n')
        sh('git', 'add', 'c.c', cwd=t)
        sh('git', 'commit', '-q', '-m', 'sched: Add c', cwd=t)
        self.p1 = os.path.join(self.tmp, 'p1')
        sh(EXPORT, t, self.p1)

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def edited_series(self, name, patch, old, new):
        """A copy of the exported series with one patch's text edited."""
        d = os.path.join(self.tmp, name)
        shutil.copytree(self.p1, d)
        path = os.path.join(d, patch)
        text = read(path)
        self.assertIn(old, text)
        with open(path, 'w') as f:
            f.write(text.replace(old, new))
        return d

    def test_export_layout(self):
        names = sorted(os.listdir(self.p1))
        self.assertEqual(names, ['0000-cover-letter.patch', '0001-sched-fair-Change-a.patch',
                                 '0002-sched-Add-c.patch', 'series'])
        series = read(os.path.join(self.p1, 'series'))
        self.assertIn('0001-sched-fair-Change-a.patch\n0002-sched-Add-c.patch\n', series)
        self.assertNotIn('0000', series)
        self.assertIn('6.12.0-test', series)
        cover = read(os.path.join(self.p1, '0000-cover-letter.patch'))
        self.assertIn('[PATCH 0/2]', cover)
        self.assertIn('sched: Add c', cover)
        self.assertIn('base-commit:', cover)

    def test_round_trip_in_a_fresh_clone(self):
        clone = os.path.join(self.tmp, 'clone')
        sh('git', 'clone', '-q', '-b', 'pristine', self.tree, clone)
        sh(APPLY, clone, self.p1)
        p2 = os.path.join(self.tmp, 'p2')
        shutil.copytree(self.p1, p2)
        with open(os.path.join(p2, '0000-cover-letter.patch')) as f:
            hand = f.read().replace('TODO: motivation', 'Hand-written text')
        with open(os.path.join(p2, '0000-cover-letter.patch'), 'w') as f:
            f.write(hand)
        # Another machine, another git identity: the series is the same.
        sh(EXPORT, clone, p2, env={'GIT_COMMITTER_NAME': 'Someone Else',
                                   'GIT_COMMITTER_EMAIL': 'else@example.org'})
        want = files(self.p1)
        want['0000-cover-letter.patch'] = hand
        self.assertEqual(files(p2), want)

    def test_unchanged_series_touches_nothing(self):
        r = sh(APPLY, self.tree, self.p1)
        self.assertIn('series unchanged', r.stdout)
        a = os.path.join(self.tree, 'a.c')
        os.utime(a, (1000000000, 1000000000))
        r = sh(APPLY, self.tree, self.p1)
        self.assertIn('series unchanged', r.stdout)
        self.assertEqual(os.stat(a).st_mtime, 1000000000)

    def test_changed_patch_keeps_mtime_of_identical_files(self):
        a = os.path.join(self.tree, 'a.c')
        os.utime(a, (1000000000, 1000000000))
        p3 = self.edited_series('p3', '0002-sched-Add-c.patch', '+new file', '+newer file')
        sh(APPLY, self.tree, p3)
        self.assertEqual(read(os.path.join(self.tree, 'c.c')), 'newer file\n')
        self.assertEqual(os.stat(a).st_mtime, 1000000000)

    def test_broken_patch_is_named(self):
        clone = os.path.join(self.tmp, 'clone')
        sh('git', 'clone', '-q', '-b', 'pristine', self.tree, clone)
        bad = self.edited_series('bad', '0001-sched-fair-Change-a.patch', ' line 29', ' line 2x')
        r = sh(APPLY, clone, bad, check=False)
        self.assertEqual(r.returncode, 1)
        self.assertIn('patch 1 of 2 does not apply: 0001-sched-fair-Change-a.patch', r.stderr)
        self.assertIn('a.c', r.stderr)
        # The tree is left at the base, clean, and not half-applied.
        head = sh('git', 'rev-parse', 'HEAD', cwd=clone).stdout
        base = sh('git', 'rev-parse', 'base', cwd=clone).stdout
        self.assertEqual(head, base)
        self.assertEqual(sh('git', 'status', '--porcelain', cwd=clone).stdout, '')

    def test_uncommitted_edits_are_not_lost(self):
        a = os.path.join(self.tree, 'a.c')
        with open(a, 'a') as f:
            f.write('work in progress\n')
        r = sh(APPLY, self.tree, self.p1, check=False)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn('make export', r.stderr)
        self.assertIn('work in progress', read(a))

    def test_ignored_new_files_are_not_lost(self):
        # Debian's .gitignore ignores the whole top level: a new file is
        # invisible to "git status" unless asked for ignored files.
        with open(os.path.join(self.tree, '.gitignore'), 'w') as f:
            f.write('/*\n')
        sh('git', 'add', '-f', '.gitignore', cwd=self.tree)
        sh('git', 'commit', '-q', '-m', 'ignore all', cwd=self.tree)
        sh(EXPORT, self.tree, self.p1)
        new = os.path.join(self.tree, 'new.c')
        with open(new, 'w') as f:
            f.write('new\n')
        r = sh(APPLY, self.tree, self.p1, check=False)
        self.assertNotEqual(r.returncode, 0)
        self.assertTrue(os.path.exists(new))
        r = sh(EXPORT, self.tree, self.p1, check=False)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn("git add -f", r.stderr)
        self.assertIn('new.c', r.stderr)

    def test_unexported_commits_are_not_lost(self):
        with open(os.path.join(self.tree, 'd.c'), 'w') as f:
            f.write('d\n')
        sh('git', 'add', 'd.c', cwd=self.tree)
        sh('git', 'commit', '-q', '-m', 'sched: Add d', cwd=self.tree)
        r = sh(APPLY, self.tree, self.p1, check=False)
        self.assertNotEqual(r.returncode, 0)
        self.assertIn('make export', r.stderr)
        self.assertTrue(os.path.exists(os.path.join(self.tree, 'd.c')))

    def test_series_names_missing_patch(self):
        with open(os.path.join(self.p1, 'series'), 'a') as f:
            f.write('0003-missing.patch\n')
        r = sh(APPLY, self.tree, self.p1, check=False)
        self.assertEqual(r.returncode, 1)
        self.assertIn('0003-missing.patch', r.stderr)


if __name__ == '__main__':
    unittest.main()
