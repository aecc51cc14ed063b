# SPDX-License-Identifier: GPL-2.0
"""harness/boot.py: the initramfs, the files a guest gets, a scenario's
settings, and the errors that keep a boot from starting."""
import contextlib
import io
import os
import shutil
import tempfile
import unittest
from unittest import mock

from harness import TOP, boot, settings

from .test_scenario import GOOD as SCENARIO


class TestBoot(unittest.TestCase):
    def setUp(self):
        self.tmp = tempfile.mkdtemp()
        self.addCleanup(shutil.rmtree, self.tmp)

    def put(self, name, text='', mode=0o644):
        path = os.path.join(self.tmp, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, 'w') as f:
            f.write(text)
        os.chmod(path, mode)
        return path

    def test_cpio_list(self):
        """Directories first, parents before children, each once; files
        with their modes."""
        cmd = self.put('cmd', 'exit 0\n', 0o755)
        prog = self.put('prog', '', 0o750)
        lines = boot.cpio_list(cmd, [('/a/b/c/prog', prog), ('/tests/x', prog)], self.tmp)
        dirs = [ln.split()[1] for ln in lines if ln.startswith('dir ')]
        self.assertEqual(dirs, sorted(set(dirs)))
        self.assertLess(dirs.index('/a'), dirs.index('/a/b'))
        self.assertIn('/a/b/c', dirs)
        self.assertFalse([ln for ln in lines[len(dirs):] if ln.startswith('dir ')])
        self.assertIn('file /a/b/c/prog %s 750 0 0' % prog, lines)
        self.assertIn('file /run/cmd %s 755 0 0' % cmd, lines)
        self.assertIn('file /init %s 755 0 0' % os.path.join(TOP, 'initramfs', 'init'), lines)

    def test_initramfs(self):
        """gen_init_cpio of OBJ gets the list; no kernel build: an error
        that says what to do, and no file."""
        obj = os.path.join(self.tmp, 'obj')
        s = settings.load(env={'OBJ': obj})
        cmd = self.put('cmd', 'exit 0\n')
        out = os.path.join(self.tmp, 'out.cpio')
        with self.assertRaisesRegex(boot.BootError, 'build the kernel first'):
            boot.initramfs(s, out, cmd, [])
        self.assertFalse(os.path.exists(out))
        self.put('obj/usr/gen_init_cpio', '#!/bin/sh\ncat "$1"\n', 0o755)
        with mock.patch.object(boot, 'BUSYBOX', '/bin/sh'):
            boot.initramfs(s, out, cmd, [('/extra/f', cmd)])
            with open(out) as f:
                text = f.read()
        self.assertIn('file /extra/f %s 644 0 0\n' % cmd, text)
        self.assertIn('dir /extra 755 0 0\n', text)

    def test_pairs_and_programs(self):
        f = self.put('f')
        self.assertEqual(boot.pairs(['/x/f=' + f]), [('/x/f', f)])
        for bad in ('f', 'x=' + f, '/x/f=' + f + '.missing'):
            with self.assertRaises(boot.BootError):
                boot.pairs([bad])
        prog = self.put('programs/latnice', '', 0o755)
        s = settings.load(env={'PROGRAMS': os.path.dirname(prog)})
        got = boot.project_programs(s, '/l')
        self.assertEqual(got[0], '/tests/latnice=' + prog)
        self.assertEqual(got[-1], '/tests/list=/l')
        self.assertIn('/tests/latnice-tests.sh=%s' % os.path.join(
            TOP, 'tests', 'guest', 'latnice-tests.sh'), got)

    def test_host_programs(self):
        """A program and what ldd lists, at their own paths."""
        out = boot.host_programs(['sh'])
        dests = [x.split('=', 1)[0] for x in out]
        self.assertTrue(all(d == x.split('=', 1)[1] for d, x in zip(dests, out)))
        self.assertTrue(any(d.endswith('/libc.so.6') for d in dests), out)
        self.assertTrue(any('ld-linux' in d for d in dests), out)
        with self.assertRaisesRegex(boot.BootError, 'not found on this machine'):
            boot.host_programs(['no-such-program-here'])

    def test_scenario_settings(self):
        folder = os.path.dirname(self.put('sc/one', SCENARIO))
        s = boot.configure(env={'APPEND': 'x=2'})
        seen = {}

        def fake(cfg, results, cmdfile, files):
            seen.update(cfg=cfg, files=dict(files))
            with open(cmdfile) as f:
                seen['cmd'] = f.read()
            return 5
        results = os.path.join(self.tmp, 'r')
        with mock.patch.object(boot, 'boot', fake), \
                contextlib.redirect_stdout(io.StringIO()) as out:
            self.assertEqual(boot.boot_scenario('one', results, s, folder), 5)
        self.assertIn('a test boot (scenario one, topology 1x2x2)', out.getvalue())
        cfg = seen['cfg']
        self.assertEqual((cfg['TOPO'], cfg['APPEND'], cfg['CGROUP'], cfg['ICOUNT'],
                          cfg['AUTOGROUP'], cfg['NUMBERING'], cfg['ROOTFS'], cfg['KERNEL']),
                         ('1x2x2', 'x=2 foo=1', 'v1', s['ICOUNT_REPEATABLE'], 'off', 'apart', '',
                          s['KERNEL']))
        self.assertEqual(seen['cmd'], 'run-tests\n')
        with open(seen['files']['/tests/list']) as f:
            self.assertEqual(f.read(), "a /tests/a -v\nb sh -c 'x y'\n")
        # The ICOUNT setting wins; the baseline kernel is the test config's.
        s = boot.configure(env={'ICOUNT': 'shift=1'})
        self.put('sc/base', SCENARIO.replace('cgroup: v1\n', '').replace(
            'targets: check bisect', 'targets: check') + 'kernel: baseline\n')
        with mock.patch.object(boot, 'boot', fake), contextlib.redirect_stdout(io.StringIO()):
            boot.boot_scenario('base', results, s, folder)
        self.assertEqual(seen['cfg']['ICOUNT'], 'shift=1')
        self.assertEqual(seen['cfg']['KERNEL'], os.path.join(s['BASE_CHECK_OBJ'], 'arch', 'x86',
                                                             'boot', 'bzImage'))

    def test_skip_absent(self):
        """make bisect: a program a step has not built is skipped (exit 4),
        named; the others run as they are."""
        progs = [('a', '/tests/a -v'), ('b', 'env X=1 /tests/b_test -f x'),
                 ('c', 'sh /tests/latnice-tests.sh'), ('d', "sh -c 'true'")]
        self.assertEqual(boot.skip_absent(progs, {'a', 'latnice-tests.sh'}),
                         [('a', '/tests/a -v'),
                          ('b', "echo '/tests/b_test is not built here: skipped'; exit 4"),
                          ('c', 'sh /tests/latnice-tests.sh'), ('d', "sh -c 'true'")])
        folder = os.path.dirname(self.put('sc/one', SCENARIO))
        prog = self.put('programs/a', '', 0o755)
        s = boot.configure(env={'PROGRAMS': os.path.dirname(prog)})
        lists = []

        def fake(cfg, results, cmdfile, files):
            with open(dict(files)['/tests/list']) as f:
                lists.append(f.read())
            return 0
        with mock.patch.object(boot, 'boot', fake), contextlib.redirect_stdout(io.StringIO()):
            boot.boot_scenario('one', os.path.join(self.tmp, 'r'), s, folder)
            boot.boot_scenario('one', os.path.join(self.tmp, 'r'), s, folder, absent_skips=True)
        self.assertEqual(lists[0], "a /tests/a -v\nb sh -c 'x y'\n")
        self.assertEqual(lists[1], lists[0])
        self.put('sc/two', SCENARIO + 'program: z /tests/z\n')
        with mock.patch.object(boot, 'boot', fake), contextlib.redirect_stdout(io.StringIO()):
            boot.boot_scenario('two', os.path.join(self.tmp, 'r'), s, folder, absent_skips=True)
        self.assertIn("z echo '/tests/z is not built here: skipped'; exit 4\n", lists[2])

    def test_errors(self):
        """Settings a boot cannot take, and bad command lines: a message and
        nothing booted."""
        kernel = self.put('bzImage')
        good = boot.configure(env={'KERNEL': kernel})
        for change, why in (({'TOPO': '2x2'}, 'TOPO=2x2'),
                            ({'NUMBERING': 'odd'}, 'NUMBERING=odd: adjacent or apart'),
                            ({'CGROUP': 'v1', 'ROOTFS': 'system'}, 'CGROUP=v1 needs'),
                            ({'ROOTFS': 'disk'}, 'ROOTFS=disk'),
                            ({'KERNEL': kernel + '.missing'}, "run 'make kernel' first"),
                            ({'SHOW': 'loud'}, 'SHOW=loud'),
                            ({'GUEST_TIMEOUT': 'soon'}, 'GUEST_TIMEOUT=soon')):
            with self.assertRaisesRegex(boot.BootError, why):
                boot.check(dict(good, **change))
        with self.assertRaisesRegex(boot.BootError, 'is not a file'), \
                mock.patch.object(boot, 'check', lambda s: None):
            boot.boot(good, os.path.join(self.tmp, 'r'), os.path.join(self.tmp, 'no-cmd'), [])
        with self.assertRaisesRegex(boot.BootError, 'needs ROOTFS=system'), \
                mock.patch.object(boot, 'check', lambda s: None):
            boot.boot(good, os.path.join(self.tmp, 'r'), None, [])
        err = io.StringIO()
        with contextlib.redirect_stderr(err):
            self.assertEqual(boot.main([]), 2)
            self.assertEqual(boot.main(['--scenario', 'x']), 2)
            self.assertEqual(boot.main(['--bogus', 'a', 'b']), 2)
            self.assertEqual(boot.main(['--skip-absent', 'r', 'c']), 2)
            self.assertEqual(boot.main(['--list', '/no/such/list', 'r', 'c']), 1)
            self.assertEqual(boot.main(['--scenario', 'no-such-scenario', 'r']), 1)
        self.assertIn('--list /no/such/list: no such file', err.getvalue())
        self.assertIn('no scenario no-such-scenario', err.getvalue())


if __name__ == '__main__':
    unittest.main()
