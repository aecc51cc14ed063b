# SPDX-License-Identifier: GPL-2.0
"""latnice/latnice-cyclictest on the host, with stand-ins for the programs
it runs: its arguments, the rows it runs, and the percentiles it reads
from cyclictest's histogram.  The real run is in the system scenario."""
import os
import stat
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SCRIPT = os.path.join(HERE, '..', '..', 'latnice', 'latnice-cyclictest')

# A cyclictest that logs its arguments and writes a histogram of 100
# samples: 50 at 3 us, 48 at 7 us, 2 at 900 us, max 950.
FAKE_CYCLICTEST = r'''#!/bin/sh
echo "cyclictest $*" >>"$LOG"
for a in "$@"; do
	case $a in --histfile=*) f=${a#--histfile=} ;; esac
done
{
	echo "# Histogram"
	echo "000003 000050"
	echo "000007 000048"
	echo "000900 000002"
	echo "# Total: 000000100"
	echo "# Max Latencies: 00950"
	echo "# Histogram Overflows: ${OVER:-00000}"
} >"$f"
'''
FAKE = {
    'cyclictest': FAKE_CYCLICTEST,
    'hackbench': '#!/bin/sh\necho "hackbench $*" >>"$LOG"\nsleep 5\n',
    'stress-ng': '#!/bin/sh\necho "stress-ng $*" >>"$LOG"\nsleep 5\n',
    'taskset': '#!/bin/sh\nshift 2\nexec "$@"\n',
    'latnice': '#!/bin/sh\necho "latnice $1 $2" >>"$LOG"\nshift 2\nexec "$@"\n',
}


class TestLatniceCyclictest(unittest.TestCase):
    def setUp(self):
        self.dir = tempfile.TemporaryDirectory()
        self.bin = os.path.join(self.dir.name, 'bin')
        os.mkdir(self.bin)
        for name, text in FAKE.items():
            path = os.path.join(self.bin, name)
            with open(path, 'w') as f:
                f.write(text)
            os.chmod(path, stat.S_IRWXU)
        self.log = os.path.join(self.dir.name, 'log')

    def tearDown(self):
        self.dir.cleanup()

    def run_it(self, *args, **env):
        e = dict(os.environ, PATH=self.bin + ':/usr/bin:/bin', LOG=self.log, **env)
        return subprocess.run(['sh', SCRIPT] + list(args), env=e, stdout=subprocess.PIPE,
                              stderr=subprocess.PIPE, text=True, timeout=60)

    def calls(self):
        with open(self.log) as f:
            return f.read().splitlines()

    def test_default_rows_and_percentiles(self):
        r = self.run_it('-k', '-l', '100')
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stderr, '')
        self.assertEqual(r.stdout.splitlines(), [
            'row=0 samples=100 p50_us=3 p99_us=900 max_us=950',
            'row=-20 samples=100 p50_us=3 p99_us=900 max_us=950',
            'row=fifo samples=100 p50_us=3 p99_us=900 max_us=950'])
        calls = self.calls()
        self.assertIn('latnice -n 0', calls)
        self.assertIn('latnice -n -20', calls)
        cyc = [c for c in calls if c.startswith('cyclictest')]
        self.assertEqual(len(cyc), 3)
        self.assertIn('-p 95', cyc[2])
        self.assertNotIn('-p', cyc[0].split())
        self.assertIn('-a 0 -i 1000 -l 100', cyc[0])
        # rt-tests 2.x always uses clock_nanosleep and refuses the old -n.
        self.assertNotIn('-n', cyc[0].split())
        self.assertTrue(any(c.startswith('hackbench -g 1') for c in calls))

    def test_overflow_counts_in_the_percentiles(self):
        # 100 in the histogram and 100 beyond it: the p50 is the 100th
        # sample (900 us), the p99 is in the overflow.
        r = self.run_it('-k', '-c', '1', '-g', '2', '-l', '200', '5', OVER='00100')
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertEqual(r.stdout.strip(), 'row=5 samples=200 p50_us=900 p99_us=>20000 max_us=950')
        calls = self.calls()
        self.assertTrue(any(c.startswith('hackbench -g 2') for c in calls))
        self.assertIn('-a 1', [c for c in calls if c.startswith('cyclictest')][0])

    def test_table(self):
        r = self.run_it('-20')
        # 100 samples of the 2000 asked for: shown, and the exit status says so.
        self.assertEqual(r.returncode, 1)
        self.assertIn('row -20: 100 samples of 2000', r.stderr)
        lines = r.stdout.splitlines()
        self.assertTrue(lines[0].startswith('# cyclictest -i 1000 -l 2000 on CPU 0'))
        self.assertEqual(lines[1].split(), ['row', 'samples', 'p50_us', 'p99_us', 'max_us'])
        self.assertEqual(lines[2].split(), ['-20', '100', '3', '900', '950'])

    def test_bad_input_is_refused_before_anything_runs(self):
        for args in (['-21'], ['20'], ['rt'], ['-c', 'x'], ['-l', ''], ['-z'], ['-c'],
                     ['-l', '0'], ['-g', '0'], ['-i', '0'], ['-s', 'x']):
            r = self.run_it(*args)
            self.assertEqual(r.returncode, 2, args)
            self.assertTrue(r.stderr, args)
            self.assertFalse(os.path.exists(self.log), args)

    def test_stress_ng_load(self):
        r = self.run_it('-s', '2', '-l', '100', '-20')
        self.assertEqual(r.returncode, 0, r.stderr)
        self.assertTrue(r.stdout.startswith('# cyclictest -i 1000 -l 100 on CPU 0 beside '
                                            'stress-ng --cpu 2 on it'), r.stdout)
        calls = self.calls()
        self.assertIn('stress-ng --cpu 2 --quiet', calls)
        self.assertFalse([c for c in calls if c.startswith('hackbench')])
        r = self.run_it('-s', '2', '-g', '1', '0')
        self.assertEqual(r.returncode, 2)
        self.assertIn('-g and -s name two loads', r.stderr)

    def test_a_load_that_does_not_start(self):
        with open(os.path.join(self.bin, 'hackbench'), 'w') as f:
            f.write('#!/bin/sh\nexit 1\n')
        r = self.run_it('0')
        self.assertEqual(r.returncode, 2)
        self.assertIn('the load (hackbench -g 1 on CPU 0) did not start', r.stderr)

    def test_a_row_that_fails_shows_no_earlier_row(self):
        # The second row's cyclictest fails before writing its histogram:
        # it must not show the first row's numbers.
        with open(os.path.join(self.bin, 'latnice'), 'w') as f:
            f.write('#!/bin/sh\n[ "$2" = -20 ] && exit 1\nshift 2\nexec "$@"\n')
        r = self.run_it('-k', '-l', '100', '0', '-20')
        self.assertEqual(r.returncode, 1)
        self.assertEqual(r.stdout.splitlines()[1], 'row=-20 samples=0 p50_us=- p99_us=- max_us=-')

    def test_missing_program_named(self):
        os.unlink(os.path.join(self.bin, 'hackbench'))
        r = subprocess.run(['/bin/sh', SCRIPT, '0'], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                           text=True, env=dict(os.environ, PATH=self.bin, LOG=self.log))
        self.assertEqual(r.returncode, 2)
        self.assertIn('hackbench is missing', r.stderr)


if __name__ == '__main__':
    unittest.main()
