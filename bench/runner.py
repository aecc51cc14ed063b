# SPDX-License-Identifier: GPL-2.0
"""make bench's runner: builds what the boots need and boots them.

build() installs gnuplot, builds the guest programs (make programs), the
kernels the boots measure, all from configs/latnice.config plus
configs/bench.config (the test config without lockdep): the patched tree
into BENCH_OBJ, the baseline (a git worktree of the base commit at
BASE_SRC) into BASE_OBJ, the patched tree without the Debian system
options (configs/nosystem.config last) into LEAN_OBJ and the baseline
with mainline's later buddy fix (bench/kernels/78cde54ea5f0.patch, a
worktree at FIX_SRC) into FIX_OBJ when a boot needs them, and lnbench
($BUILD/bench/lnbench).
boot() runs one boot through harness/boot.py into the folder it is given,
which leaves its verdict.json there for the report.  Every path and
version comes from scripts/settings.
"""
import os
import re
import shlex
import subprocess
import sys
import tempfile
import time
from hashlib import sha256

from harness import TOP, settings
from harness import boot as harness_boot

LNBENCH_DIR = os.path.join(TOP, 'bench', 'lnbench')
# lnbench's C files (each is compiled), then the headers they include.
LNBENCH_SOURCES = tuple(sorted(os.path.join(LNBENCH_DIR, f) for f in os.listdir(LNBENCH_DIR)
                               if f.endswith('.c'))) + (
    os.path.join(LNBENCH_DIR, 'lnbench.h'), os.path.join(TOP, 'tests', 'guest', 'cpulist.h'))


def lnbench_command(out):
    """The compiler's command that builds lnbench into @out."""
    return (['gcc', '-static', '-O2', '-Wall', '-pthread', '-I',
             os.path.join(TOP, 'tests', 'guest'), '-o', out]
            + [f for f in LNBENCH_SOURCES if f.endswith('.c')])


def log(msg):
    print(msg, flush=True)


def sh(cmd, **kw):
    return subprocess.run(cmd, check=True, **kw)


# Each kernel a boot names: (its tree, 'src', 'base' or 'fix'; its build
# folder's setting; the fragments after latnice.config and bench.config).
KERNELS = {'patched': ('src', 'BENCH_OBJ', ()),
           'baseline': ('base', 'BASE_OBJ', ()),
           'lean': ('src', 'LEAN_OBJ', ('nosystem.config',)),
           'mainline-fix': ('fix', 'FIX_OBJ', ())}
# The change the 'fix' tree makes to the base: mainline's 78cde54ea5f0
# ("sched/eevdf: Clear buddies for preempt_short"), adapted to 6.12.
FIX_PATCH = os.path.join(TOP, 'bench', 'kernels', '78cde54ea5f0.patch')


def kernel_of(kernel, s):
    """The bzImage of kernel @kernel (a key of KERNELS)."""
    return os.path.join(s[KERNELS[kernel][1]], 'arch', 'x86', 'boot', 'bzImage')


def lnbench_path(s):
    return os.path.join(s['BUILD'], 'bench', 'lnbench')


def stale(target, sources):
    """True when @target is missing or older than one of @sources."""
    if not os.path.exists(target):
        return True
    t = os.path.getmtime(target)
    return any(os.path.getmtime(src) > t for src in sources)


def build_lnbench(s):
    prog = lnbench_path(s)
    if stale(prog, LNBENCH_SOURCES):
        os.makedirs(os.path.dirname(prog), exist_ok=True)
        sh(lnbench_command(prog))
    return prog


def build(s, kernels=('patched', 'baseline')):
    """Everything the boots need, @kernels among them; returns the path
    of lnbench."""
    log('==> set-up, kernels and programs')
    sh([os.path.join(TOP, 'scripts', 'setup.sh'), 'bench'])
    sh(['make', '-s', '-C', TOP, 'programs'])
    base_tree, src = s['BASE_SRC'], s['SRC']
    want = subprocess.run(['git', '-C', src, 'rev-parse', 'base'], stdout=subprocess.PIPE,
                          text=True, check=True).stdout.strip()
    have = subprocess.run(['git', '-C', base_tree, 'rev-parse', 'HEAD'], stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, text=True).stdout.strip()
    if os.path.isdir(base_tree) and have != want:
        log('==> baseline tree %s is not at the base commit: made again' % base_tree)
        sh(['rm', '-rf', base_tree])
    if not os.path.isdir(base_tree):
        log('==> baseline tree: a git worktree of the pristine base at %s' % base_tree)
        sh(['git', '-C', src, 'worktree', 'prune'])
        sh(['git', '-C', src, 'worktree', 'add', '-q', '--detach', base_tree, 'base'])
    trees = {'src': src, 'base': base_tree}
    if 'mainline-fix' in kernels:
        trees['fix'] = fix_tree(s, want)
    build_kernel = os.path.join(TOP, 'scripts', 'build-kernel.sh')
    for k in KERNELS:
        if k in kernels:
            tree, obj, more = KERNELS[k]
            frags = [os.path.join(TOP, 'configs', f)
                     for f in ('latnice.config', 'bench.config') + more]
            sh([build_kernel, trees[tree], s[obj]] + frags)
    return build_lnbench(s)


def fix_tree(s, base):
    """FIX_SRC: a worktree of the base commit @base with FIX_PATCH applied
    and committed, made again when either changed; its path."""
    tree, src = s['FIX_SRC'], s['SRC']
    with open(FIX_PATCH, 'rb') as f:
        stamp = 'fix of %s: %s' % (base, sha256(f.read()).hexdigest()[:12])
    have = subprocess.run(['git', '-C', tree, 'log', '-1', '--format=%s'], stdout=subprocess.PIPE,
                          stderr=subprocess.DEVNULL, text=True).stdout.strip()
    if os.path.isdir(tree) and have == stamp:
        return tree
    log('==> mainline-fix tree: the base with %s at %s' % (os.path.relpath(FIX_PATCH, TOP), tree))
    sh(['rm', '-rf', tree])
    sh(['git', '-C', src, 'worktree', 'prune'])
    sh(['git', '-C', src, 'worktree', 'add', '-q', '--detach', tree, base])
    sh(['git', '-C', tree, 'apply', FIX_PATCH])
    sh(['git', '-C', tree, '-c', 'user.name=make bench', '-c', 'user.email=bench@localhost',
        'commit', '-q', '-a', '-m', stamp])
    return tree


# latency nice's switches, named as sched features are in the figures:
# LATENCY_PACK and NO_LATENCY_PACK for debugfs sched/latency_nice/pack.
SWITCH = re.compile(r'^(NO_)?LATENCY_(SLICE|GOOD_ENOUGH|PREEMPT|CREDIT|PROTECT|PACK)$')


def feature_command(f):
    """The guest's command that sets feature or switch @f."""
    m = SWITCH.match(f)
    if m:
        return 'echo %d > /sys/kernel/debug/sched/latency_nice/%s;' % (
            0 if m.group(1) else 1, m.group(2).lower())
    return 'echo %s > $F;' % f


def guest_script(boot):
    """The guest's command: set-up, then every run between markers."""
    lines = ['! command -v ip >/dev/null || ip link set lo up',
             'echo %d > /proc/sys/kernel/sched_schedstats' % boot.schedstats,
             'F=/sys/kernel/debug/sched/features',
             'echo "BENCH-INFO kernel=$(uname -r) cpus=$(nproc)"',
             'cat /sys/kernel/debug/sched/domains/cpu0/domain*/name 2>/dev/null | '
             'tr "\\n" " " | sed "s/^/BENCH-INFO domains=/"; echo',
             'failed=0']
    for r in boot.runs:
        feats = ' '.join(feature_command(f) for f in r.features)
        prog = GUEST_SCRIPTS.get(str(r.cmd[0]))
        argv = ['sh', '/extra/' + prog] + r.cmd[1:] if prog else ['/extra/lnbench'] + r.cmd
        cmd = ' '.join(shlex.quote(str(c)) for c in argv)
        if r.value is not None:
            cmd = '/tests/latnice -n %d %s' % (r.value, cmd)
        lines.append('%s echo "LATNICE-TEST-BEGIN %s"; %s; rc=$?; '
                     'echo "LATNICE-TEST-END %s $rc"; [ $rc -eq 0 ] || failed=$((failed + 1))'
                     % (feats, r.id, cmd, r.id))
    lines.append('exit $failed')
    return '\n'.join(lines) + '\n'


def boot_settings(boot, s):
    """The settings of @boot's boot (harness/boot.py): @s (scripts/settings
    and the environment) with the boot's topology, kernel, root and mode."""
    return dict(s, TOPO=boot.topo, KERNEL=kernel_of(boot.kernel, s), ROOTFS=boot.rootfs,
                ICOUNT=s['ICOUNT_REPEATABLE'] if boot.mode == 'icount' else '',
                # A line per run is too many: the boot's own lines only,
                # unless SHOW is given.
                SHOW=s['SHOW'] or 'none',
                GUEST_TIMEOUT=s['BENCH_TIMEOUT'], ACCEL='tcg')


# Workloads that are scripts of bench/ rather than lnbench's (the guest
# gets them in /extra): pgbench needs the Debian system image.
GUEST_SCRIPTS = {'pgbench': 'pgbench.sh'}

# Debian programs a workload of lnbench runs (lnbench cyclictest: rt-tests).
HOST_PROGRAMS = {'cyclictest': ('cyclictest', 'hackbench')}


def host_programs(b):
    """DEST=SRC pairs of the Debian programs @b's runs need, with their
    libraries (harness/boot.py's host_programs())."""
    progs = []
    for r in b.runs:
        for p in HOST_PROGRAMS.get(str(r.cmd[0]), ()):
            if p not in progs:
                progs.append(p)
    return harness_boot.host_programs(progs)


def boot(b, results, i, total, s, prog):
    """Boot @b into @results (its verdict.json is the outcome); returns
    the boot's exit status."""
    log('==> [%d/%d] %s kernel, %s, %s mode: %d runs'
        % (i, total, b.kernel, b.topo, b.mode, len(b.runs)))
    os.makedirs(results, exist_ok=True)
    # The boot keeps its own copy (guest-cmd).
    fd, cmdfile = tempfile.mkstemp(prefix='bench-cmd-', dir=results)
    with os.fdopen(fd, 'w') as f:
        f.write(guest_script(b))
    files = ['/extra/lnbench=' + prog,
             '/tests/latnice=' + os.path.join(s['PROGRAMS'], 'latnice')]
    files += host_programs(b)
    for script in sorted({GUEST_SCRIPTS[str(r.cmd[0])] for r in b.runs
                          if str(r.cmd[0]) in GUEST_SCRIPTS}):
        files.append('/extra/%s=%s' % (script, os.path.join(TOP, 'bench', script)))
    t0 = time.time()
    try:
        rc = harness_boot.boot(boot_settings(b, s), results, cmdfile,
                               harness_boot.pairs(files))
    except (harness_boot.BootError, OSError) as e:
        log('    error: %s' % e)
        rc = 1
    finally:
        os.unlink(cmdfile)
    log('    %s: done in %ds (exit %d)' % (b.name, time.time() - t0, rc))
    return rc


if __name__ == '__main__':
    # python3 -m bench.runner lnbench: build lnbench if it is stale and
    # print its path (make demo's last part uses it).
    if sys.argv[1:] != ['lnbench']:
        sys.exit('usage: python3 -m bench.runner lnbench')
    print(build_lnbench(settings.load()))
