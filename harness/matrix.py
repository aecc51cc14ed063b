# SPDX-License-Identifier: GPL-2.0
"""The entries of the build matrix (make matrix): one file each in
tests/matrix/, as scenarios are for boots.

An entry is one configuration the series must compile in.  A file holds
"key: value" lines; lines starting with # are comments (the first ones
describe the entry):

    order: 10                   make matrix builds entries by order, then name
    arch: x86_64                x86_64, i386 or arm64
    base: test                  the configuration it starts from: test (the
                                test kernel's .config), allnoconfig, or
                                debian (Debian's config.amd64_none_amd64 of
                                linux-config-6.12 at KVER_DEB)
    options: SMP=y CGROUPS=n    options set on the base, each checked after
                                olddefconfig (optional)
    build: objects              objects (the objects of the C files the
                                series changes), vmlinux (a full link), or
                                w1 (the objects with W=1, in the base tree
                                and the series: a warning only the series
                                has fails)
    needs: PROGRAM              a program the entry needs, e.g. a cross
                                compiler (optional)

Command line (for scripts/matrix.sh), python3 -m harness matrix ...:
    plan [ENTRY ...]            the entries (default: all), in order, one
                                a line: NAME ARCH BASE BUILD NEEDS|- OPTIONS...
    title ENTRY                 its description, one line
"""
import os
import re
import sys
from dataclasses import dataclass, field

from . import TOP, keyfile

DIR = os.path.join(TOP, 'tests', 'matrix')
KEYS = {'order', 'arch', 'base', 'options', 'build', 'needs'}
ARCHES = ('x86_64', 'i386', 'arm64')
BASES = ('test', 'allnoconfig', 'debian')
BUILDS = ('objects', 'vmlinux', 'w1')
NAME_RE = re.compile(r'^[a-z0-9][a-z0-9-]*$')
OPTION_RE = re.compile(r'^[A-Z0-9_]+=[yn]$')


class MatrixError(ValueError):
    pass


@dataclass
class Entry:
    name: str
    title: str = ''
    order: int = 50
    arch: str = ''
    base: str = ''
    options: list = field(default_factory=list)
    build: str = ''
    needs: str = ''


def parse(text, name='?'):
    """An entry file's text as an Entry; MatrixError names what is wrong."""
    e = Entry(name, title=keyfile.description(text))

    def bad(n, why):
        raise MatrixError('matrix entry %s, line %d: %s' % (name, n, why))
    for n, key, val in keyfile.items(text, KEYS, bad):
        if key == 'order':
            if not val.isdigit():
                bad(n, 'order must be a number, not %r' % val)
            e.order = int(val)
        elif key in ('arch', 'base', 'build'):
            choices = {'arch': ARCHES, 'base': BASES, 'build': BUILDS}[key]
            if val not in choices:
                bad(n, '%s must be %s, not %r' % (key, ', '.join(choices), val))
            setattr(e, key, val)
        elif key == 'options':
            for o in val.split():
                if not OPTION_RE.match(o):
                    bad(n, 'an option is NAME=y or NAME=n, not %r' % o)
            e.options = val.split()
        else:
            if not val or len(val.split()) != 1:
                bad(n, 'needs names one program')
            e.needs = val
    for key in ('arch', 'base', 'build'):
        if not getattr(e, key):
            raise MatrixError('matrix entry %s: no %s' % (name, key))
    if not e.title:
        raise MatrixError('matrix entry %s: no comment that describes it' % name)
    if (e.base == 'debian' or e.build == 'w1') and e.arch != 'x86_64':
        raise MatrixError('matrix entry %s: base: debian and build: w1 are x86_64 only' % name)
    if e.build == 'w1' and (e.base != 'test' or e.options):
        # w1 compares the test config's objects with the base tree's.
        raise MatrixError('matrix entry %s: build: w1 takes base: test and no options' % name)
    return e


def names(folder=DIR):
    return sorted(f for f in os.listdir(folder) if NAME_RE.match(f))


def load(name, folder=DIR):
    if name not in names(folder):
        try:
            known = [e.name for e in entries(folder)]
        except MatrixError:         # one that does not parse: by name
            known = names(folder)
        raise MatrixError("no matrix entry '%s' (entries: %s)" % (name, ' '.join(known)))
    with open(os.path.join(folder, name)) as f:
        return parse(f.read(), name)


def entries(folder=DIR):
    """Every entry, in order."""
    return sorted((load(n, folder) for n in names(folder)), key=lambda e: (e.order, e.name))


def main(argv, folder=DIR):
    try:
        if argv[:1] == ['plan']:
            chosen = [load(n, folder) for n in argv[1:]] or entries(folder)
            for e in chosen:
                print(' '.join([e.name, e.arch, e.base, e.build, e.needs or '-'] + e.options))
            return 0
        if argv[:1] == ['title'] and len(argv) == 2:
            print(load(argv[1], folder).title.rstrip('.'))
            return 0
    except MatrixError as e:
        print('error: %s' % e, file=sys.stderr)
        return 1
    print('usage: python3 -m harness matrix plan [ENTRY ...] | title ENTRY', file=sys.stderr)
    return 2


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
