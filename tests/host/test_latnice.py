# SPDX-License-Identifier: GPL-2.0
"""latnice's argument handling and messages, on the host.

The host kernel has no latency nice, which is what the "not supported"
cases need; whatever needs a kernel with the series runs in the guest
(tests/guest/latnice-tests.sh).
"""
import ctypes
import os
import re
import shutil
import subprocess
import tempfile
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
SRC = os.path.join(HERE, '..', '..', 'latnice')
SYS_sched_getattr = 315  # x86_64
# The version field of a man page's .TH line.
TH_VERSION = re.compile(r'^\.TH [A-Z-]+ 1 "[^"]*" "latnice ([^"]*)"', re.M)
MANS = ('latnice.1', 'latnice-cyclictest.1')


def read(path):
    with open(path) as f:
        return f.read()


def kernel_has_latency_nice():
    libc = ctypes.CDLL(None, use_errno=True)
    buf = ctypes.create_string_buffer(64)
    if libc.syscall(SYS_sched_getattr, 0, buf, 60, 0):
        return False
    return int.from_bytes(buf.raw[:4], 'little') >= 60


class TestLatnice(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.tmp = tempfile.mkdtemp()
        cls.bin = os.path.join(cls.tmp, 'latnice')
        subprocess.run(['gcc', '-O2', '-Wall', '-Wextra', '-Werror',
                        '-DLATNICE_VERSION="test"', '-o', cls.bin,
                        os.path.join(SRC, 'latnice.c')], check=True)

    @classmethod
    def tearDownClass(cls):
        shutil.rmtree(cls.tmp)

    def run_latnice(self, *args):
        return subprocess.run([self.bin] + list(args), capture_output=True,
                              text=True, timeout=10)

    def assert_error(self, args, message, code=1):
        r = self.run_latnice(*args)
        self.assertEqual(r.returncode, code, (args, r.stdout, r.stderr))
        self.assertIn(message, r.stderr, args)
        # One clear line, prefixed with the program's name.
        self.assertTrue(r.stderr.startswith('latnice: '), r.stderr)
        return r

    def test_help(self):
        r = self.run_latnice('--help')
        self.assertEqual(r.returncode, 0)
        self.assertIn('Usage:', r.stdout)
        for opt in ('--value', '--pid', '--cgroup', '--all-tasks',
                    '--reset-on-fork', '--verbose', '--help', '--version'):
            self.assertIn(opt, r.stdout)
        self.assertEqual(self.run_latnice('-h').stdout, r.stdout)

    def test_version(self):
        r = self.run_latnice('-V')
        self.assertEqual((r.returncode, r.stdout), (0, 'latnice test\n'))

    def test_no_arguments(self):
        r = self.assert_error([], 'no command given')
        self.assertIn('Usage:', r.stderr)

    def test_value_not_a_number(self):
        for v in ('abc', '', '1x', '--', '0x10', '1.5'):
            self.assert_error(['-n', v, 'true'], "invalid latency nice value: '%s'" % v)

    def test_value_out_of_range(self):
        for v in ('20', '-21', '2147483647', '-2147483648'):
            self.assert_error(['-n', v, 'true'], 'latency nice value %s is out of range (-20 to 19)' % v)
        self.assert_error(['-n', '99999999999999999999', 'true'], 'invalid latency nice value')

    # Both go through the one integer parser: the whole argument, nothing
    # around it, in range.
    NOT_INTEGERS = ('', ' ', '-', '+', '5x', '5 ', ' 5', '5\n', '\t5', '0x5',
                    '99999999999999999999', '-99999999999999999999')

    def test_value_parser_rejections(self):
        for v in self.NOT_INTEGERS:
            self.assert_error(['-n', v, 'true'],
                              "invalid latency nice value: '%s' (an integer from -20 to 19)" % v)
        for v in ('20', '-21', '+20', '2147483648'):
            self.assert_error(['-n', v, 'true'], 'latency nice value %s is out of range (-20 to 19)' % v)

    def test_pid_parser_rejections(self):
        for p in self.NOT_INTEGERS + ('-1', '2147483648'):
            self.assert_error(['-p', '--', p], "invalid pid: '%s'" % p)

    def test_parser_accepts_the_bounds(self):
        a = os.path.join(self.fake_cgroups(), 'a')
        for v in ('-20', '19', '+3', '-0'):
            r = self.run_latnice('-n', v, '-c', a)
            self.assertEqual((r.returncode, r.stderr), (0, ''), v)
            self.assertEqual(read(os.path.join(a, 'cpu.latency.nice')), '%d\n' % int(v))
        for p in ('0', '2147483647'):
            self.assertNotIn('invalid pid', self.run_latnice('-p', p).stderr)

    def test_value_needed_for_command(self):
        self.assert_error(['true'], "a value to run 'true' with is needed (-n <value>)")

    def test_bad_pid(self):
        for p in ('abc', '1x', '', '99999999999'):
            self.assert_error(['-p', p], "invalid pid: '%s'" % p)
        self.assert_error(['-p', '--', '-1'], "invalid pid: '-1'")

    def test_pid_must_be_last_and_single(self):
        self.assert_error(['-p'], '-p takes exactly one pid')
        self.assert_error(['-p', '1', '2'], '-p takes exactly one pid')

    def test_option_combinations(self):
        self.assert_error(['-R', '-p', '1'], '-R needs a value to set (-n)')
        self.assert_error(['-a', '-n', '1', 'true'], '-a needs -p <pid>')

    def test_unknown_option(self):
        r = self.run_latnice('--frobnicate')
        self.assertEqual(r.returncode, 1)
        self.assertIn("Try 'latnice --help'", r.stderr)

    def test_options_stop_at_command(self):
        # "-n" after the command belongs to the command: still refused here
        # only because the value is missing before it.
        self.assert_error(['true', '-n', '5'], "a value to run 'true' with is needed")

    def test_no_such_process(self):
        self.assert_error(['-p', '2147483647'], 'pid 2147483647: no such process')
        self.assert_error(['-n', '3', '-p', '2147483647'], 'pid 2147483647: no such process')
        self.assert_error(['-n', 'default', '-p', '2147483647'], 'pid 2147483647: no such process')
        self.assert_error(['-a', '-p', '2147483647'], 'pid 2147483647: no such process')

    @unittest.skipIf(kernel_has_latency_nice(), 'this kernel has latency nice')
    def test_unsupported_kernel(self):
        msg = 'this kernel does not support latency nice'
        self.assert_error(['-p', str(os.getpid())], msg)
        self.assert_error(['-a', '-p', str(os.getpid())], msg)
        marker = os.path.join(self.tmp, 'ran')
        self.assert_error(['-n', '-5', 'touch', marker], msg)
        self.assertFalse(os.path.exists(marker), 'the command ran anyway')
        self.assert_error(['-n', '5', '-p', str(os.getpid())], msg)
        # -n default drops a task's setting; the kernel is checked first.
        self.assert_error(['-n', 'default', '-p', str(os.getpid())], msg)
        self.assert_error(['-n', 'default', 'touch', marker], msg)
        self.assertFalse(os.path.exists(marker), 'the command ran anyway')

    def fake_cgroups(self):
        """A tree of directories that looks like cgroups to latnice:

        root/          cgroup.procs, no cpu.latency.nice (a root)
        root/a/        cpu.latency.nice: -5
        root/a/b/      cpu.latency.nice: default
        """
        top = tempfile.mkdtemp(dir=self.tmp)
        root = os.path.join(top, 'root')
        os.makedirs(os.path.join(root, 'a', 'b'))
        for d, value in ((root, None), (os.path.join(root, 'a'), '-5'),
                         (os.path.join(root, 'a', 'b'), 'default')):
            open(os.path.join(d, 'cgroup.procs'), 'w').close()
            if value is not None:
                with open(os.path.join(d, 'cpu.latency.nice'), 'w') as f:
                    f.write(value + '\n')
        return os.path.realpath(root)

    def test_cgroup_show(self):
        root = self.fake_cgroups()
        a, b = os.path.join(root, 'a'), os.path.join(root, 'a', 'b')
        r = self.run_latnice('--cgroup', a)
        self.assertEqual((r.returncode, r.stdout), (0, "cgroup %s's latency nice: -5\n" % a))
        r = self.run_latnice('-c', b)
        self.assertEqual(r.stdout, "cgroup %s's latency nice: default (-5 in effect, from %s)\n" % (b, a))
        with open(os.path.join(a, 'cpu.latency.nice'), 'w') as f:
            f.write('default\n')
        r = self.run_latnice('-c', b)
        self.assertEqual(r.stdout, "cgroup %s's latency nice: default (0 in effect, as for the root)\n" % b)

    def test_cgroup_set(self):
        root = self.fake_cgroups()
        b = os.path.join(root, 'a', 'b')
        path = os.path.join(b, 'cpu.latency.nice')
        r = self.run_latnice('-n', '-20', '-c', b)
        self.assertEqual((r.returncode, r.stdout, r.stderr), (0, '', ''))
        self.assertEqual(read(path), '-20\n')
        r = self.run_latnice('-v', '-n', 'default', '-c', b)
        self.assertEqual(read(path), 'default\n')
        self.assertIn('default (-5 in effect', r.stdout)

    def test_cgroup_errors(self):
        root = self.fake_cgroups()
        a = os.path.join(root, 'a')
        path = os.path.join(a, 'cpu.latency.nice')
        for v in ('20', '-21'):
            self.assert_error(['-n', v, '-c', a], 'latency nice value %s is out of range' % v)
        self.assert_error(['-n', 'fast', '-c', a], "invalid latency nice value: 'fast'")
        self.assertEqual(read(path), '-5\n', 'a refused value was written')
        self.assert_error(['-c', os.path.join(root, 'none')], 'no such directory')
        self.assert_error(['-c', self.tmp], 'is not a cgroup directory')
        self.assert_error(['-c', root], 'is a root cgroup: it has no latency nice')
        self.assert_error(['-c', ''], '--cgroup needs a cgroup directory')
        for args in (['-p', '1'], ['-a'], ['-R', '-n', '1'], ['true']):
            self.assert_error(['-c', a] + args, '--cgroup takes no pid, command, -a or -R')
        os.unlink(path)
        self.assert_error(['-c', a], 'has no cpu controller (enable it with: echo +cpu > %s/cgroup.subtree_control)' % root)
        open(os.path.join(a, 'cpu.weight'), 'w').close()
        self.assert_error(['-c', a], 'this kernel does not support latency nice for cgroups')

    @unittest.skipIf(os.geteuid() == 0, 'root writes read-only files')
    def test_cgroup_permission_denied(self):
        a = os.path.join(self.fake_cgroups(), 'a')
        path = os.path.join(a, 'cpu.latency.nice')
        os.chmod(path, 0o444)
        self.assert_error(['-n', '1', '-c', a], "failed to set cgroup %s's latency nice: permission denied" % a)
        self.assertEqual(read(path), '-5\n')

    def test_man_page_renders_cleanly(self):
        if not shutil.which('groff'):
            self.skipTest('groff is not installed')
        r = subprocess.run(['groff', '-man', '-Tutf8', '-ww', '-z',
                            os.path.join(SRC, 'latnice.1')],
                           capture_output=True, text=True)
        self.assertEqual((r.returncode, r.stderr), (0, ''))
        with open(os.path.join(SRC, 'latnice.1')) as f:
            page = f.read()
        for section in ('NAME', 'SYNOPSIS', 'DESCRIPTION', 'OPTIONS',
                        'PERMISSIONS', 'EXIT STATUS', 'EXAMPLES', 'SEE ALSO'):
            self.assertIn('.SH %s' % section, page)
        # Every option of --help is documented.
        for opt in ('value', 'pid', 'cgroup', 'all\\-tasks', 'reset\\-on\\-fork',
                    'verbose', 'help', 'version'):
            self.assertIn('\\-\\-' + opt, page)

    def test_man_page_version_is_VERSION(self):
        version = read(os.path.join(SRC, 'VERSION')).strip()
        for man in MANS:
            m = TH_VERSION.search(read(os.path.join(SRC, man)))
            self.assertIsNotNone(m, '%s has no .TH NAME 1 "date" "latnice VERSION" line' % man)
            self.assertEqual(m.group(1), version,
                             '%s is not at VERSION: run make -C latnice, commit it' % man)
        # The Debian package's last entry is at VERSION too.
        m = re.match(r'latnice \(([^)]*)\) ', read(os.path.join(SRC, 'debian', 'changelog')))
        self.assertEqual(m.group(1), version, 'debian/changelog: add an entry at VERSION')

    def test_cyclictest_man_page_renders_cleanly(self):
        if not shutil.which('groff'):
            self.skipTest('groff is not installed')
        path = os.path.join(SRC, 'latnice-cyclictest.1')
        r = subprocess.run(['groff', '-man', '-Tutf8', '-ww', '-z', path],
                           capture_output=True, text=True)
        self.assertEqual((r.returncode, r.stderr), (0, ''))
        page = read(path)
        for section in ('NAME', 'SYNOPSIS', 'DESCRIPTION', 'OPTIONS',
                        'PERMISSIONS', 'EXIT STATUS', 'EXAMPLES', 'SEE ALSO'):
            self.assertIn('.SH %s' % section, page)
        # Every option of its -h is documented.
        usage = subprocess.run(['sh', os.path.join(SRC, 'latnice-cyclictest'), '-h'],
                               capture_output=True, text=True).stdout
        for opt in re.findall(r'^ (-[a-z]) ', usage, re.M):
            self.assertIn('.B' + ('I' if opt != '-k' and opt != '-h' else '') + ' \\' + opt, page)

    def test_make_takes_version_from_VERSION(self):
        if not shutil.which('make'):
            self.skipTest('make is not installed')
        src = tempfile.mkdtemp(dir=self.tmp)
        for name in ('Makefile', 'latnice.c', 'VERSION') + MANS + ('latnice-cyclictest',):
            shutil.copy(os.path.join(SRC, name), src)
        with open(os.path.join(src, 'VERSION'), 'w') as f:
            f.write('9.8.7\n')
        for man in MANS:
            os.utime(os.path.join(src, man), (0, 0))  # older than VERSION
        root = os.path.join(src, 'root')
        subprocess.run(['make', '-s', '-C', src, 'install', 'DESTDIR=' + root,
                        'PREFIX=/usr'], check=True, capture_output=True)
        r = subprocess.run([os.path.join(root, 'usr/bin/latnice'), '--version'],
                           capture_output=True, text=True)
        self.assertEqual(r.stdout, 'latnice 9.8.7\n')
        for man in MANS:
            page = read(os.path.join(SRC, man))
            installed = read(os.path.join(root, 'usr/share/man/man1', man))
            self.assertEqual(TH_VERSION.search(installed).group(1), '9.8.7', man)
            # Nothing but the version changes.
            self.assertEqual(TH_VERSION.sub('', installed), TH_VERSION.sub('', page), man)
        self.assertTrue(os.access(os.path.join(root, 'usr/bin/latnice-cyclictest'), os.X_OK))


if __name__ == '__main__':
    unittest.main()
