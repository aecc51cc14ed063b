# SPDX-License-Identifier: GPL-2.0
"""docs/results.md, the one source of the measured numbers: the cover
letter quotes its cover blocks verbatim and only from the kernel code that
patches/ builds; publishing replaces a figure's section and keeps the
others; the kernel code hash ignores documentation and tests."""
import json
import os
import shutil
import tempfile
import unittest

from bench import figures, publish

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))

COVER_LETTER = os.path.join(TOP, 'patches', '0000-cover-letter.patch')


def indented(block):
    return ''.join(('    ' + line if line.strip() else '\n')
                   for line in block.splitlines(True))


def quoted(results_text, cover_text, code):
    """The problems of @cover_text against @results_text: a cover block
    not quoted verbatim, or quoted from other kernel code than @code."""
    out = []
    for fid, (block, measured) in sorted(publish.covers(results_text).items()):
        if indented(block) not in cover_text:
            out.append('figure %s: the cover letter does not quote its block' % fid)
        elif measured != code:
            out.append('figure %s: measured on kernel code %s, patches/ builds %s'
                       % (fid, measured, code))
    return out


def fake_run(p99_at_20, code):
    """A runs.json of figure 6 whose -20 rows have @p99_at_20."""
    runs = []
    for _, kernel, row, v in figures.tail.SLICE_COVER:
        p99 = p99_at_20 if v == -20 else 4000
        runs.append(dict(figure='6', workload='cyclictest', kernel=kernel, row=row, value=v,
                         load='hackbench', boot='bench-slice-' + kernel, ok=True,
                         avg_us=p99 / 2, p50_us=p99 / 4, p99_us=p99, p999_us=2 * p99,
                         max_us=3 * p99, hackbench_s=0.69, thread_cpu_pct=5.0))
    boots = [dict(name='bench-slice-' + k, kernel=k, topo='1x1x1', mode='icount',
                  schedstats=False, qemu='qemu-system-x86_64 -icount shift=0')
             for k in ('baseline', 'patched')]
    return dict(figures=['6'], version='6.12.118-1~deb12u1', mode='quick', icount='shift=0',
                date='2026-12-05 22:00 UTC', kernel_code=code, boots=boots, runs=runs)


class TestPublished(unittest.TestCase):
    def test_cover_letter_quotes_results(self):
        """Every cover block of docs/results.md is in the cover letter, from
        the kernel code that patches/ builds."""
        with open(publish.RESULTS_MD) as f:
            results = f.read()
        with open(COVER_LETTER) as f:
            cover = f.read()
        self.assertTrue(publish.covers(results), 'docs/results.md has no cover block')
        self.assertEqual(quoted(results, cover, publish.kernel_code()), [])

    def test_every_section_names_its_run(self):
        with open(publish.RESULTS_MD) as f:
            secs = publish.sections(f.read())
        self.assertTrue(secs)
        for fid, sec in secs.items():
            self.assertIn(fid, figures.FIGURES)
            self.assertRegex(sec, r'Run `\d{8}-\d{6}-bench` \((quick|full) mode\)')
            self.assertIn('qemu-system-', sec)
            self.assertRegex(sec, r'Kernel code: `[0-9a-f]{12}`')


class TestPublish(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.md = os.path.join(self.tmp, 'docs', 'results.md')

    def tearDown(self):
        shutil.rmtree(self.tmp)

    def put(self, data):
        run_dir = os.path.join(self.tmp, '20261205-220000-bench')
        publish.publish(data, run_dir, [figures.FIGURES['6']], list(figures.FIGURES),
                        self.md)
        with open(self.md) as f:
            return f.read()

    def test_a_changed_number_fails(self):
        text = self.put(fake_run(46, 'abc123abc123'))
        block, code = publish.covers(text)['6']
        self.assertEqual(code, 'abc123abc123')
        letter = 'Some prose.\n\n' + indented(block) + '\nMore prose.\n'
        self.assertEqual(quoted(text, letter, 'abc123abc123'), [])
        self.assertEqual(len(quoted(text, letter.replace('  46  ', '  45  '),
                                    'abc123abc123')), 1)
        self.assertIn('measured on kernel code', quoted(text, letter, 'ffffffffffff')[0])
        # A new run of the figure replaces the old block.
        text = self.put(fake_run(50, 'abc123abc123'))
        self.assertEqual(len(quoted(text, letter, 'abc123abc123')), 1)
        self.assertEqual(list(publish.sections(text)), ['6'])

    def test_other_sections_kept(self):
        other = (publish.BEGIN % '10') + '\n## 10. Packing\n\nold\n' + (publish.END % '10') + '\n'
        os.makedirs(os.path.dirname(self.md))
        with open(self.md, 'w') as f:
            f.write(publish.HEADER + '\n' + other)
        text = self.put(fake_run(46, 'abc123abc123'))
        self.assertEqual(list(publish.sections(text)), ['6', '10'])
        self.assertIn(other, text)
        self.assertTrue(text.startswith(publish.HEADER))

    def test_kernel_code_ignores_docs_and_tests(self):
        src = os.path.join(self.tmp, 'p')
        os.makedirs(src)

        def patch(doc, code, test):
            with open(os.path.join(src, '0001-x.patch'), 'w') as f:
                f.write('Subject: x\n\n---\n'
                        'diff --git a/Documentation/x.rst b/Documentation/x.rst\n'
                        '--- a/Documentation/x.rst\n+++ b/Documentation/x.rst\n'
                        '@@ -1 +1 @@\n+%s\n'
                        'diff --git a/kernel/sched/fair.c b/kernel/sched/fair.c\n'
                        '--- a/kernel/sched/fair.c\n+++ b/kernel/sched/fair.c\n'
                        '@@ -1 +1 @@\n+%s\n'
                        'diff --git a/tools/testing/x.c b/tools/testing/x.c\n'
                        '@@ -1 +1 @@\n+%s\n'
                        'diff --git a/kernel/sched/tests/x.c b/kernel/sched/tests/x.c\n'
                        '@@ -1 +1 @@\n+%s\n-- \n2.39.5\n' % (doc, code, test, test))
            with open(os.path.join(src, '0000-cover-letter.patch'), 'w') as f:
                f.write('diff --git a/kernel/x.c b/kernel/x.c\n+%s\n' % doc)
            return publish.kernel_code(src)
        a = patch('doc', 'int x;', 'test')
        self.assertEqual(a, patch('other doc', 'int x;', 'other test'))
        self.assertNotEqual(a, patch('doc', 'int y;', 'test'))


class TestPublishRun(unittest.TestCase):
    def test_refuses_other_kernel_code_and_missing_runs(self):
        from bench import bench
        tmp = tempfile.mkdtemp()
        try:
            data = fake_run(46, 'not-this-one')
            with open(os.path.join(tmp, 'runs.json'), 'w') as f:
                json.dump(data, f)
            self.assertEqual(bench.main(['--publish', tmp]), 1)
            data['kernel_code'] = publish.kernel_code()
            data['runs'][0]['ok'] = False
            with open(os.path.join(tmp, 'runs.json'), 'w') as f:
                json.dump(data, f)
            self.assertEqual(bench.main(['--publish', tmp]), 1)
        finally:
            shutil.rmtree(tmp)


if __name__ == '__main__':
    unittest.main()
