# SPDX-License-Identifier: GPL-2.0
"""scripts/check-config.py: every fragment option must reach .config."""
import importlib.util
import os
import subprocess
import sys
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, '..', '..', 'scripts', 'check-config.py')
# A program of scripts/ (a build step's helper), loaded by its path.
_spec = importlib.util.spec_from_file_location('check_config', SCRIPT)
check_config = importlib.util.module_from_spec(_spec)
_spec.loader.exec_module(check_config)

FRAG = """\
# comment
CONFIG_SMP=y
CONFIG_NR_CPUS=64
CONFIG_CMDLINE="a b"
# CONFIG_IPV6 is not set
"""


class TestCheckConfig(unittest.TestCase):
    def test_all_present(self):
        conf = ['CONFIG_SMP=y\n', 'CONFIG_NR_CPUS=64\n', 'CONFIG_CMDLINE="a b"\n',
                '# CONFIG_IPV6 is not set\n']
        self.assertEqual(check_config.check(FRAG.splitlines(), conf), [])

    def test_absent_counts_as_unset(self):
        conf = ['CONFIG_SMP=y\n', 'CONFIG_NR_CPUS=64\n', 'CONFIG_CMDLINE="a b"\n']
        self.assertEqual(check_config.check(FRAG.splitlines(), conf), [])

    def test_each_mismatch_named(self):
        conf = ['# CONFIG_SMP is not set\n', 'CONFIG_NR_CPUS=8\n', 'CONFIG_IPV6=y\n']
        bad = check_config.check(FRAG.splitlines(), conf)
        self.assertEqual(len(bad), 4)
        self.assertIn('CONFIG_SMP: line 2 wants CONFIG_SMP=y, the config has not set', bad[0])
        self.assertIn('has 8', bad[1])
        self.assertIn('CONFIG_CMDLINE', bad[2])
        self.assertIn('CONFIG_IPV6: line 5 wants CONFIG_IPV6=not set, the config has y', bad[3])

    def test_command_exit_status(self):
        with tempfile.TemporaryDirectory() as d:
            frag = os.path.join(d, 'frag')
            conf = os.path.join(d, 'conf')
            with open(frag, 'w') as f:
                f.write(FRAG)
            with open(conf, 'w') as f:
                f.write('CONFIG_SMP=y\n')
            r = subprocess.run([sys.executable, SCRIPT, frag, conf],
                               capture_output=True, text=True)
            self.assertEqual(r.returncode, 1)
            self.assertIn('CONFIG_NR_CPUS', r.stdout)
            self.assertIn('2 option(s)', r.stdout)

    def test_series_options_skipped_only_where_undefined(self):
        frag = FRAG + '# --- Added by the series\nCONFIG_NEW_TEST=y\n'
        conf = ['CONFIG_SMP=y\n', 'CONFIG_NR_CPUS=64\n', 'CONFIG_CMDLINE="a b"\n']
        skipped = []
        # A tree without the symbol: skipped, not an error.
        self.assertEqual(check_config.check(frag.splitlines(), conf, {'SMP'}, skipped), [])
        self.assertEqual(skipped, ['CONFIG_NEW_TEST'])
        # A tree that defines it: it must stick.
        bad = check_config.check(frag.splitlines(), conf, {'SMP', 'NEW_TEST'})
        self.assertEqual(len(bad), 1)
        self.assertIn('CONFIG_NEW_TEST', bad[0])
        # Options before the mark are never skipped.
        bad = check_config.check(frag.splitlines(), conf[:1], set())
        self.assertEqual(len(bad), 2)
        self.assertIn('CONFIG_NR_CPUS', bad[0])
        self.assertIn('CONFIG_CMDLINE', bad[1])

    def test_kconfig_symbols(self):
        with tempfile.TemporaryDirectory() as d:
            os.makedirs(os.path.join(d, 'lib'))
            with open(os.path.join(d, 'lib', 'Kconfig.debug'), 'w') as f:
                f.write('config FOO\n\tbool\nmenuconfig BAR\n  config BAZ_2\n')
            self.assertEqual(check_config.kconfig_symbols(d), {'FOO', 'BAR', 'BAZ_2'})

    def test_real_fragment_parses(self):
        frag = os.path.join(HERE, '..', '..', 'configs', 'latnice.config')
        with open(frag) as f:
            lines = f.readlines()
        bad = check_config.check(lines, [])
        # Every "=y" line is reported against an empty config.
        self.assertGreater(len(bad), 20)
        self.assertTrue(any('CONFIG_PROVE_LOCKING' in b for b in bad))
        self.assertTrue(any('CONFIG_DEBUG_ATOMIC_SLEEP' in b for b in bad))

    def test_later_fragment_wins(self):
        """The test fragment wants lockdep, the bench fragment turns it off:
        a bench .config without it passes, one with it fails on the bench
        line, and the test fragment's other lines are still checked."""
        with tempfile.TemporaryDirectory() as d:
            test = os.path.join(d, 'test.config')
            bench = os.path.join(d, 'bench.config')
            conf = os.path.join(d, '.config')
            with open(test, 'w') as f:
                f.write('CONFIG_SMP=y\nCONFIG_PROVE_LOCKING=y\n')
            with open(bench, 'w') as f:
                f.write('# CONFIG_PROVE_LOCKING is not set\n')

            def run(lines, *frags):
                with open(conf, 'w') as f:
                    f.write(lines)
                return subprocess.run([sys.executable, SCRIPT] + list(frags) + [conf],
                                      stdout=subprocess.PIPE, text=True)
            self.assertEqual(run('CONFIG_SMP=y\n', test, bench).returncode, 0)
            r = run('CONFIG_SMP=y\nCONFIG_PROVE_LOCKING=y\n', test, bench)
            self.assertEqual(r.returncode, 1)
            self.assertIn('bench.config', r.stdout)
            self.assertNotIn('test.config', r.stdout)
            r = run('CONFIG_SMP=y\nCONFIG_PROVE_LOCKING=y\n', test)
            self.assertEqual(r.returncode, 0)
            r = run('', test, bench)
            self.assertEqual(r.returncode, 1)
            self.assertIn('CONFIG_SMP', r.stdout)
            # As build-kernel.sh calls it: --tree, then the fragments.
            with open(conf, 'w') as f:
                f.write('CONFIG_SMP=y\n')
            r = subprocess.run([sys.executable, SCRIPT, '--tree', d, test, bench, conf],
                               stdout=subprocess.PIPE, text=True)
            self.assertEqual(r.returncode, 0, r.stdout)

    def test_bench_fragment_turns_off_every_check(self):
        """Each correctness check the test fragment turns on, the bench
        fragment turns off: a debug option added to one must be added to
        the other."""
        top = os.path.join(HERE, '..', '..', 'configs')
        with open(os.path.join(top, 'latnice.config')) as f:
            test = check_config.read_config(f.readlines())
        with open(os.path.join(top, 'bench.config')) as f:
            bench = check_config.read_config(f.readlines())
        checks = [o for o in test if o.startswith(('CONFIG_PROVE_', 'CONFIG_DEBUG_ATOMIC',
                                                     'CONFIG_LOCKDEP', 'CONFIG_DEBUG_LOCK'))]
        self.assertIn('CONFIG_PROVE_LOCKING', checks)
        for o in checks:
            self.assertEqual(bench.get(o), 'n', o)
        self.assertTrue(all(v == 'n' for v in bench.values()), bench)


if __name__ == '__main__':
    unittest.main()
