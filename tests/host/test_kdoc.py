# SPDX-License-Identifier: GPL-2.0
"""The kernel documentation of the series names only what the code has:
every sched feature (``NAME`` or ``NO_NAME``), function (name()), debugfs
file under sched/ and switch under sched/latency_nice/, cpu controller file (cpu.NAME), Kconfig option and
identifier it names must exist in the patched tree.  Runs against the
tree make check applies (SRC); skipped when there is none."""
import os
import re
import unittest

from harness import settings


DOC = 'Documentation/scheduler/sched-latency-nice.rst'
# Where what the documentation names is defined or used.
SOURCES = ('kernel/sched', 'include/linux/sched.h', 'include/linux/sched',
           'include/uapi/linux/sched.h', 'include/uapi/linux/sched',
           'include/linux/topology.h', 'include/linux/cpumask.h', 'kernel/cgroup',
           'include/linux/cgroup-defs.h', 'include/linux/cgroup.h',
           'kernel/fork.c', 'include/linux/capability.h', 'include/uapi/linux/capability.h',
           'include/uapi/asm-generic/resource.h', 'include/uapi/linux/prctl.h',
           'include/linux/sched/coredump.h', 'kernel/time', 'include/linux/hrtimer.h',
           'tools/testing/selftests/sched')
KCONFIG_DIRS = ('init', 'kernel', 'lib', 'arch/x86', 'mm', 'drivers/base')
IDENT = re.compile(r'^[A-Za-z_][A-Za-z0-9_]*$')


def read(path):
    with open(path, errors='replace') as f:
        return f.read()


def read_tree(src, paths, exts=('.c', '.h')):
    out = []
    for p in paths:
        full = os.path.join(src, p)
        if os.path.isfile(full):
            out.append(read(full))
            continue
        for root, _, files in os.walk(full):
            out += [read(os.path.join(root, f)) for f in files if f.endswith(exts)]
    return '\n'.join(out)


def kconfig_symbols(src):
    syms = set()
    for d in KCONFIG_DIRS:
        for root, _, files in os.walk(os.path.join(src, d)):
            for f in files:
                if f.startswith('Kconfig'):
                    text = read(os.path.join(root, f))
                    syms.update(re.findall(r'^\s*(?:menu)?config\s+([A-Z0-9_]+)', text, re.M))
    return syms


def problems(doc, code, features, switches, debugfs, cgroup_files, kconfig):
    """What @doc names that the code lacks, as a sorted list of strings."""
    words = set(re.findall(r'[A-Za-z_][A-Za-z0-9_]*', code))
    bad = set()
    for name in re.findall(r'\b([a-z_][a-z0-9_]*)\(\)', doc):
        if name not in words:
            bad.add('function %s()' % name)
    for tok in re.findall(r'``([^`]+)``', doc):
        if tok.startswith('NO_') and IDENT.match(tok):
            if tok[3:] not in features:
                bad.add('feature %s' % tok)
        elif tok.startswith('CONFIG_'):
            if tok[7:] not in kconfig:
                bad.add('option %s' % tok)
        elif tok.startswith('cpu.'):
            if tok[4:] not in cgroup_files:
                bad.add('cgroup file %s' % tok)
        elif IDENT.match(tok) and tok not in features and tok not in words:
            bad.add('name %s' % tok)
    for name in re.findall(r'(?<![\w.])sched/latency_nice/([a-z_]+)\b', doc):
        if name not in switches:
            bad.add('switch sched/latency_nice/%s' % name)
    # sched/NAME alone or under /sys/kernel/debug/, not kernel/sched/NAME.
    for name in re.findall(r'(?:/sys/kernel/debug/sched/|(?<![\w/.])sched/)([a-z_]+)\b', doc):
        if name not in debugfs:
            bad.add('debugfs file sched/%s' % name)
    return sorted(bad)


class TestKernelDoc(unittest.TestCase):
    @classmethod
    def setUpClass(cls):
        cls.src = settings.load()['SRC']
        if not os.path.isfile(os.path.join(cls.src, DOC)):
            raise unittest.SkipTest('no patched tree with %s (make apply)' % DOC)
        cls.code = read_tree(cls.src, SOURCES)
        fh = read(os.path.join(cls.src, 'kernel/sched/features.h'))
        cls.features = set(re.findall(r'SCHED_FEAT\((\w+),', fh))
        dbg = read(os.path.join(cls.src, 'kernel/sched/debug.c'))
        cls.switches = set(re.findall(r'\[LATENCY_SWITCH_\w+\] = "(\w+)"', dbg))
        dbg = read(os.path.join(cls.src, 'kernel/sched/debug.c'))
        cls.debugfs = set(re.findall(r'debugfs_create_\w+\("(\w+)"', dbg))
        core = read(os.path.join(cls.src, 'kernel/sched/core.c'))
        cls.cgroup_files = set(re.findall(r'\.name\s*=\s*"([\w.]+)"', core))
        cls.kconfig = kconfig_symbols(cls.src)

    def check(self, doc):
        return problems(doc, self.code, self.features, self.switches, self.debugfs,
                        self.cgroup_files, self.kconfig)

    def test_documentation_names_only_what_exists(self):
        doc = read(os.path.join(self.src, DOC))
        self.assertEqual([], self.check(doc))

    def test_cgroup_v2_entry_names_only_what_exists(self):
        doc = read(os.path.join(self.src, 'Documentation/admin-guide/cgroup-v2.rst'))
        doc = doc[doc.index('cpu.latency.nice'):][:4000]
        self.assertEqual([], self.check(doc))

    def test_planted_names_are_found(self):
        doc = ('``NO_LATENCY_NOTHING`` and ``NO_SIS_CORE``, latency_no_such() and '
               '``sched/latency_nice/nothing`` and ``sched/latency_nice/pack``, '
               'select_idle_sibling(), ``sched/no_such_file`` and ``sched/idle_search``, '
               '``cpu.latency.nothing`` and ``cpu.latency.nice``, ``CONFIG_NO_SUCH`` and '
               'kernel/sched/nothing.c, '
               '``CONFIG_SCHED_CORE``, ``nr_no_such_counter`` and ``nr_latency_sensitive``')
        self.assertEqual(['cgroup file cpu.latency.nothing', 'debugfs file sched/no_such_file',
                          'feature NO_LATENCY_NOTHING', 'function latency_no_such()',
                          'name nr_no_such_counter', 'option CONFIG_NO_SUCH',
                          'switch sched/latency_nice/nothing'],
                         self.check(doc))


if __name__ == '__main__':
    unittest.main()
