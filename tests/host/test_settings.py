# SPDX-License-Identifier: GPL-2.0
"""The settings: one file, read alike by bash (lib.sh) and Python, and
documented in docs/harness.md."""
import os
import re
import subprocess
import tempfile
import unittest

from harness import settings

TOP = os.path.abspath(os.path.join(os.path.dirname(os.path.abspath(__file__)), '..', '..'))


def bash_settings(env):
    names = [n for n, _ in settings.defaults()]
    script = '. %s/scripts/lib.sh; for n in %s; do printf "%%s=%%s\\n" "$n" "${!n}"; done' % (
        TOP, ' '.join(names))
    out = subprocess.run(['bash', '-c', script], env=env, stdout=subprocess.PIPE,
                         text=True, check=True).stdout
    return dict(line.split('=', 1) for line in out.splitlines())


class TestSettings(unittest.TestCase):
    def clean_env(self, **kw):
        env = {k: v for k, v in os.environ.items()
               if k not in dict(settings.defaults())}
        env.update(kw)
        return env

    def test_bash_and_python_agree(self):
        for extra in ({}, {'TOPO': '1x8x2', 'BUILD': '/tmp/b', 'KVER_DEB': '6.12.9-1'}):
            env = self.clean_env(**extra)
            py = settings.load(env)
            sh = bash_settings(env)
            py['JOBS'] = py['JOBS'] or str(os.cpu_count())  # lib.sh fills in nproc
            self.assertEqual(py, sh, extra)

    def test_environment_wins_and_expands(self):
        s = settings.load(self.clean_env(BUILD='/tmp/b'))
        self.assertEqual(s['OBJ'], '/tmp/b/obj-patched')
        self.assertEqual(s['SRC'], '/tmp/b/linux')
        s = settings.load(self.clean_env(BUILD=''))       # empty: the default
        self.assertEqual(s['BUILD'], os.path.join(TOP, 'build'))

    def test_bad_line(self):
        with tempfile.NamedTemporaryFile('w', suffix='settings', delete=False) as f:
            f.write('GOOD=1\nbad line\n')
        with self.assertRaises(ValueError):
            settings.defaults(f.name)

    def test_readme_documents_every_setting(self):
        with open(os.path.join(TOP, 'docs', 'harness.md')) as f:
            readme = f.read()
        table = re.search(r'\n## Settings\n(.*?)\n## ', readme, re.S)
        self.assertTrue(table, 'docs/harness.md has no "## Settings" section')
        documented = set(re.findall(r'^\| `([A-Z][A-Z0-9_]*)` \|', table.group(1), re.M))
        names = {n for n, _ in settings.defaults()}
        self.assertEqual(names - documented, set(), 'settings the README does not document')
        self.assertEqual(documented - names, set(), 'README settings that do not exist')

    def test_no_default_written_twice(self):
        # The defaults live in scripts/settings only: no script sets one.
        for name, raw in settings.defaults():
            if not raw or len(raw) < 4:
                continue
            for folder in ('scripts', 'harness', 'bench'):
                d = os.path.join(TOP, folder)
                for f in os.listdir(d):
                    if f == 'settings' or not f.endswith(('.sh', '.py')):
                        continue
                    with open(os.path.join(d, f)) as fh:
                        text = fh.read()
                    for shape in ("'%s'", '"%s"', ':=%s', ':-%s'):
                        self.assertFalse(shape % raw in text, '%s/%s repeats the default of %s'
                                         % (folder, f, name))


if __name__ == '__main__':
    unittest.main()
