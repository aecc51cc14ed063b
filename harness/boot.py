# SPDX-License-Identifier: GPL-2.0
"""Boot the built kernel with a command and files, and judge it.

    python3 -m harness boot [--list LIST] [--host PROGRAM ...] RESULTS_DIR CMDFILE [DEST=SRC ...]
    python3 -m harness boot [--list LIST] [--host PROGRAM ...] RESULTS_DIR - [DEST=SRC ...]
    python3 -m harness boot --scenario NAME [--skip-absent] RESULTS_DIR
    python3 -m harness boot --initramfs OUT.cpio CMDFILE [DEST=SRC ...]

RESULTS_DIR is the run's folder (made if missing): qemu-command,
console.log, qemu-stderr.log, initramfs.cpio, guest-cmd and verdict.json.
CMDFILE is a shell script the guest runs as /run/cmd; - (ROOTFS=system
only) gives a root shell on this terminal instead.  DEST=SRC puts the
host file SRC at DEST in the guest.
  --list LIST     the guest also gets the project's programs (PROGRAMS and
                  tests/guest/*.sh in /tests) and LIST, the programs
                  initramfs/run-tests runs, as /tests/list
  --host PROGRAM  a program of this machine (a name in PATH or a path) at
                  its own path, with every library ldd lists (repeatable)
  --scenario NAME scenario NAME of tests/guest/scenarios/: its topology,
                  kernel arguments, root and programs, in RESULTS_DIR
  --skip-absent   (make bisect) a program of the scenario that is not
                  built (a step before the patch that adds it) is skipped,
                  exit 4, instead of failing
  --initramfs     only make the initramfs OUT.cpio, and stop

The settings (scripts/settings; the environment wins): TOPO, ACCEL,
GUEST_TIMEOUT, SHOW, APPEND, ICOUNT, AUTOGROUP, NUMBERING, CGROUP and
ROOTFS, and KERNEL (default: OBJ's bzImage).  ROOTFS=system boots the
Debian system image (scripts/build-system.sh, scripts/mkrootfs.sh: a
root disk instead of the initramfs) with systemd as PID 1 and 2 GiB of
memory.  The exit status is the guest command's, or non-zero when the
kernel splats, the guest crashes or QEMU times out; the verdict is in
RESULTS_DIR/verdict.json (python3 -m harness verdict counts DIR).
"""
import glob
import os
import re
import shutil
import subprocess
import sys
import tempfile

from . import TOP, madt, qemu, scenario, settings, topology

# Always in an initramfs: busybox-static, initramfs/init and run-tests,
# and the users and groups of root and nobody.
BUSYBOX = '/bin/busybox'
DIRS = ('/bin', '/sbin', '/usr', '/usr/bin', '/proc', '/sys', '/dev', '/tmp', '/run',
        '/etc', '/root', '/extra', '/tests', '/cgroup-v1')
PASSWD = 'root:x:0:0:root:/root:/bin/sh\nnobody:x:65534:65534:nobody:/nonexistent:/bin/sh\n'
GROUP = 'root:x:0:\nnogroup:x:65534:\n'
# Seconds a KVM probe guest has to boot and exit.
PROBE_TIMEOUT = 20
# The ACCEL setting: auto (KVM if a probe guest boots under it), tcg, kvm.
ACCELS = 'auto tcg kvm'.split()


class BootError(Exception):
    """What keeps a boot from starting, and what to do about it."""


def pairs(specs):
    """[(dest, src)] of DEST=SRC strings; BootError for a missing SRC."""
    out = []
    for spec in specs:
        dest, sep, src = spec.partition('=')
        if not sep or not dest.startswith('/'):
            raise BootError('not DEST=SRC with an absolute DEST: %r' % spec)
        if not os.path.exists(src):
            raise BootError('file to put in the guest not found: %s' % src)
        out.append((dest, src))
    return out


def project_programs(s, listfile):
    """DEST=SRC of what every test boot gets in /tests: the static programs
    of PROGRAMS, the guest test scripts, and @listfile as /tests/list."""
    files = [f for f in sorted(glob.glob(os.path.join(s['PROGRAMS'], '*')))
             + sorted(glob.glob(os.path.join(TOP, 'tests', 'guest', '*.sh')))
             if os.path.isfile(f)]
    return ['/tests/%s=%s' % (os.path.basename(f), f) for f in files] + \
        ['/tests/list=%s' % listfile]


LDD_PATH = re.compile(r'(/\S+)')


def host_programs(names, ldd='ldd'):
    """DEST=SRC of programs of this machine at their own paths, with every
    library ldd lists and the loader at theirs, so that the guest's
    dynamic loader finds them.  BootError names the package to install."""
    out, seen = [], set()
    for name in names:
        path = shutil.which(name) if '/' not in name else name
        if not path or not os.access(path, os.X_OK):
            raise BootError('%s: not found on this machine (for cyclictest and hackbench: '
                            'apt-get install rt-tests)' % name)
        path = os.path.realpath(path)
        res = subprocess.run([ldd, path], stdout=subprocess.PIPE, stderr=subprocess.STDOUT,
                             text=True)
        text = res.stdout if res.returncode == 0 else ''
        missing = [ln.split()[0] for ln in text.splitlines() if 'not found' in ln]
        if missing:
            raise BootError('%s: ldd cannot find %s' % (name, ' '.join(missing)))
        # "libc.so.6 => /lib/x86_64-linux-gnu/libc.so.6 (0x...)" and
        # "/lib64/ld-linux-x86-64.so.2 (0x...)"; the vDSO has no file.
        for f in [path] + LDD_PATH.findall(text):
            if f not in seen:
                seen.add(f)
                out.append('%s=%s' % (f, f))
    return out


def cpio_list(cmdfile, files, work):
    """gen_init_cpio's list of an initramfs: directories first, parents
    before children (gen_init_cpio needs that), then the files."""
    dirs = set(DIRS)
    lines = ['nod /dev/console 600 0 0 c 5 1',
             'file /bin/busybox %s 755 0 0' % BUSYBOX,
             'file /init %s 755 0 0' % os.path.join(TOP, 'initramfs', 'init'),
             'file /bin/run-tests %s 755 0 0' % os.path.join(TOP, 'initramfs', 'run-tests'),
             'file /run/cmd %s 755 0 0' % os.path.abspath(cmdfile),
             'file /etc/passwd %s 644 0 0' % os.path.join(work, 'passwd'),
             'file /etc/group %s 644 0 0' % os.path.join(work, 'group')]
    for dest, src in files:
        d = os.path.dirname(dest)
        while d != '/':
            dirs.add(d)
            d = os.path.dirname(d)
        lines.append('file %s %s %o 0 0' % (dest, os.path.realpath(src),
                                            os.stat(src).st_mode & 0o7777))
    return ['dir %s 755 0 0' % d for d in sorted(dirs)] + lines


def initramfs(s, out, cmdfile, files):
    """Make the guest's initramfs @out with the tree's usr/gen_init_cpio:
    @cmdfile as /run/cmd and @files ([(dest, src)])."""
    gen = os.path.join(s['OBJ'], 'usr', 'gen_init_cpio')
    if not os.access(gen, os.X_OK):
        raise BootError('%s is missing: build the kernel first (make kernel)' % gen)
    if not os.access(BUSYBOX, os.X_OK):
        raise BootError('%s not found: install busybox-static (scripts/setup.sh)' % BUSYBOX)
    with tempfile.TemporaryDirectory() as work:
        for name, text in (('passwd', PASSWD), ('group', GROUP)):
            with open(os.path.join(work, name), 'w') as f:
                f.write(text)
        lst = os.path.join(work, 'list')
        with open(lst, 'w') as f:
            f.write('\n'.join(cpio_list(cmdfile, files, work)) + '\n')
        with open(out + '.tmp', 'wb') as f:
            if subprocess.run([gen, lst], stdout=f).returncode:
                raise BootError('gen_init_cpio failed on %s' % lst)
    os.replace(out + '.tmp', out)


def qemu_args(s, results, root, accel, timeout, interactive=False):
    """python3 -m harness qemu's arguments for a boot with settings @s."""
    args = ['--kernel', s['KERNEL']] + root + [
        '--results', results, '--topo', s['TOPO'], '--accel', accel,
        '--timeout', str(timeout), '--show', s['SHOW'] or 'progress',
        '--numbering', s['NUMBERING'], '--autogroup', s['AUTOGROUP'],
        '--cgroup', s['CGROUP'], '--append', s['APPEND']]
    if s['ICOUNT']:
        args += ['--icount', s['ICOUNT']]
    if interactive:
        args.append('--interactive')
    return args


def choose_accel(s, results):
    """ACCEL=auto: KVM only when a probe guest boots and exits under it
    within PROBE_TIMEOUT seconds (it hangs on some hosts with no console
    output at all); the answer is kept in BUILD/accel-probe for this QEMU
    and host kernel."""
    if s['ACCEL'] != ACCELS[0]:
        return s['ACCEL']
    if not os.access('/dev/kvm', os.W_OK):
        return 'tcg'
    version = subprocess.run(['qemu-system-x86_64', '--version'], stdout=subprocess.PIPE,
                             text=True).stdout.splitlines()[0]
    key = '%s / %s' % (version, os.uname().release)
    probe = os.path.join(s['BUILD'], 'accel-probe')
    try:
        with open(probe) as f:
            known = f.read().splitlines()
        if known[1:2] == [key]:
            return known[0]
    except (OSError, IndexError):
        pass
    print('    probing KVM (a guest that exits at once, %ds at most)' % PROBE_TIMEOUT,
          flush=True)
    cmd = os.path.join(results, 'probe-cmd')
    with open(cmd, 'w') as f:
        f.write('exit 0\n')
    initramfs(s, os.path.join(results, 'probe.cpio'), cmd, [])
    probe_s = dict(s, TOPO='1x2x1', NUMBERING=topology.NUMBERINGS[0], CGROUP='v2', APPEND='',
                   ICOUNT='', SHOW='none')
    args = qemu_args(probe_s, os.path.join(results, 'kvm-probe'),
                     ['--initrd', os.path.join(results, 'probe.cpio')], 'kvm', PROBE_TIMEOUT)
    with open(os.devnull, 'w') as null:
        ok = subprocess.run([sys.executable, '-m', 'harness', 'qemu'] + args, stdout=null,
                            stderr=null, env=dict(os.environ, PYTHONPATH=TOP)).returncode == 0
    accel = 'kvm' if ok else 'tcg'
    with open(probe, 'w') as f:
        f.write('%s\n%s\n' % (accel, key))
    print('    KVM probe: using %s' % accel)
    return accel


def check(s):
    """BootError for a setting a boot cannot take, naming the choices."""
    try:
        topology.parse(s['TOPO'])
    except topology.TopologyError as e:
        raise BootError('TOPO=%s: %s' % (s['TOPO'], e))
    for name, choices in (('NUMBERING', topology.NUMBERINGS), ('ROOTFS', ('', 'system')),
                          ('AUTOGROUP', ('on', 'off')), ('CGROUP', ('v1', 'v2')),
                          ('ACCEL', ACCELS), ('SHOW', ('', 'progress', 'guest', 'all', 'none'))):
        if s[name] not in choices:
            raise BootError('%s=%s: %s' % (name, s[name], ' or '.join(
                c or 'empty' for c in choices)))
    try:
        if float(s['GUEST_TIMEOUT']) <= 0:
            raise ValueError
    except ValueError:
        raise BootError('GUEST_TIMEOUT=%s: seconds, a number above 0' % s['GUEST_TIMEOUT'])
    if s['CGROUP'] == 'v1' and s['ROOTFS']:
        raise BootError('CGROUP=v1 needs the initramfs (systemd owns the cgroup hierarchy '
                        'of ROOTFS=%s)' % s['ROOTFS'])
    if not os.path.isfile(s['KERNEL']):
        raise BootError("no kernel at %s: run 'make kernel' first" % s['KERNEL'])
    if not shutil.which('qemu-system-x86_64'):
        raise BootError('qemu-system-x86_64 is missing: run scripts/setup.sh')


def boot(s, results, cmdfile, files):
    """Boot with settings @s (KERNEL among them), the guest command
    @cmdfile (None: a root shell on this terminal, ROOTFS=system) and
    @files ([(dest, src)]) into @results; the exit status."""
    check(s)
    interactive = cmdfile is None
    if not interactive and not os.path.isfile(cmdfile):
        raise BootError('the guest command %s is not a file' % cmdfile)
    if interactive and s['ROOTFS'] != 'system':
        raise BootError('a shell on the console needs ROOTFS=system (the initramfs runs '
                        'a command)')
    os.makedirs(results, exist_ok=True)
    if not interactive:
        shutil.copyfile(cmdfile, os.path.join(results, 'guest-cmd'))
    accel = choose_accel(s, results)
    files = list(files)
    if s['NUMBERING'] == 'apart':
        # QEMU's MADT with the local APICs reordered, where Linux looks for
        # table upgrades in the initramfs.
        table = os.path.join(results, 'madt-apart.aml')
        sockets, cores, threads = topology.parse(s['TOPO'])
        try:
            data = madt.apart(madt.qemu_madt(sockets, cores, threads), threads)
        except madt.MadtError as e:
            raise BootError('NUMBERING=apart on %s: %s' % (s['TOPO'], e))
        with open(table, 'wb') as f:
            f.write(data)
        files.append(('/kernel/firmware/acpi/apic.aml', table))
    if s['ROOTFS'] == 'system':
        image = os.path.join(results, 'root.img')
        for step in (['build-system.sh'], ['mkrootfs.sh', image, cmdfile or '-']
                     + ['%s=%s' % f for f in files]):
            if subprocess.run([os.path.join(TOP, 'scripts', step[0])] + step[1:]).returncode:
                raise BootError('scripts/%s failed' % step[0])
        root = ['--root', image, '--memory', '2G']
    else:
        image = None
        initramfs(s, os.path.join(results, 'initramfs.cpio'), cmdfile, files)
        root = ['--initrd', os.path.join(results, 'initramfs.cpio')]
    icount = ', -icount %s' % s['ICOUNT'] if s['ICOUNT'] else ''
    print('    guest: %s (%s%s%s%s), results in %s'
          % (s['TOPO'], accel, icount,
             ', siblings numbered apart' if s['NUMBERING'] == 'apart' else '',
             ', root: %s' % s['ROOTFS'] if s['ROOTFS'] else '',
             os.path.relpath(results, TOP) if results.startswith(TOP + '/') else results),
          flush=True)
    try:
        return qemu.main(qemu_args(s, results, root, accel, s['GUEST_TIMEOUT'], interactive))
    finally:
        # The root disk is a copy of the cached image (1 GiB or more): the
        # console log and the verdict are what a run keeps.
        if image and os.path.exists(image):
            os.unlink(image)


def configure(env=None):
    """The settings of a boot: scripts/settings with the environment's
    values, and KERNEL (the environment's, or OBJ's bzImage)."""
    env = os.environ if env is None else env
    s = settings.load(env)
    s['KERNEL'] = env.get('KERNEL') or os.path.join(s['OBJ'], 'arch', 'x86', 'boot', 'bzImage')
    return s


def scenario_settings(sc, s):
    """@s with what scenario @sc sets for its own boot."""
    out = dict(s, TOPO=sc.topo, APPEND=' '.join(a for a in (s['APPEND'], sc.append) if a),
               CGROUP=sc.cgroup, ROOTFS=sc.rootfs,
               ICOUNT=s['ICOUNT'] or (s['ICOUNT_REPEATABLE'] if sc.icount else ''))
    if sc.autogroup is not None:
        out['AUTOGROUP'] = 'on' if sc.autogroup else 'off'
    if sc.numbering:
        out['NUMBERING'] = sc.numbering
    if sc.kernel == 'baseline':
        out['KERNEL'] = os.path.join(s['BASE_CHECK_OBJ'], 'arch', 'x86', 'boot', 'bzImage')
    return out


TESTS_WORD = re.compile(r'(?:^|\s)/tests/([^\s/]+)')


def skip_absent(programs, present):
    """@programs ([(name, command)]) with each whose command runs a
    /tests/ file not in @present replaced by a skip (exit 4) that names
    it."""
    out = []
    for name, cmd in programs:
        m = TESTS_WORD.search(cmd)
        if m and m.group(1) not in present:
            cmd = "echo '/tests/%s is not built here: skipped'; exit 4" % m.group(1)
        out.append((name, cmd))
    return out


def boot_scenario(name, results, s, folder=scenario.DIR, absent_skips=False):
    """Boot scenario @name (of @folder) with its topology, kernel arguments
    and programs into @results; the exit status.  @absent_skips: a
    program that is not built is skipped rather than failed."""
    sc = scenario.load(name, folder)
    print('    %s (scenario %s, topology %s)' % (sc.title, name, sc.topo), flush=True)
    os.makedirs(results, exist_ok=True)
    listfile = os.path.join(results, 'programs')
    files = project_programs(s, listfile)
    programs = sc.programs
    if absent_skips:
        programs = skip_absent(programs, {f.split('=', 1)[0][len('/tests/'):] for f in files})
    with open(listfile, 'w') as f:
        f.write(''.join('%s %s\n' % p for p in programs))
    cmdfile = os.path.join(results, 'cmd')
    with open(cmdfile, 'w') as f:
        f.write('run-tests\n')
    return boot(scenario_settings(sc, s), results, cmdfile, pairs(files))


def main(argv):
    usage = __doc__.strip().split('\n\n')[1]
    listfile, hosts, name, only_cpio, absent_skips = None, [], None, False, False
    while argv and argv[0].startswith('--'):
        opt = argv.pop(0)
        if opt in ('--list', '--host', '--scenario') and argv:
            val = argv.pop(0)
            if opt == '--list':
                listfile = val
            elif opt == '--host':
                hosts.append(val)
            else:
                name = val
        elif opt == '--initramfs':
            only_cpio = True
        elif opt == '--skip-absent':
            absent_skips = True
        else:
            argv = []
            break
    s = configure()
    try:
        if name is not None and len(argv) == 1 and not (listfile or hosts or only_cpio):
            return boot_scenario(name, argv[0], s, absent_skips=absent_skips)
        if name is not None or absent_skips or len(argv) < 2:
            print(usage, file=sys.stderr)
            return 2
        if listfile is not None and not os.path.isfile(listfile):
            raise BootError('--list %s: no such file' % listfile)
        files = pairs(argv[2:] + host_programs(hosts) +
                      (project_programs(s, listfile) if listfile else []))
        if only_cpio:
            initramfs(s, argv[0], argv[1], files)
            return 0
        return boot(s, argv[0], None if argv[1] == '-' else argv[1], files)
    except (BootError, scenario.ScenarioError, OSError) as e:
        print('error: %s' % e, file=sys.stderr)
        return 1


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
