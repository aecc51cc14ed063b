#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check that every option of a config fragment made it into a .config.

Usage: check-config.py [--tree DIR] FRAGMENT... DOTCONFIG

"CONFIG_X=v" in the fragment needs the same line in .config; "# CONFIG_X
is not set" needs X unset (absent or "is not set").  Prints one line per
option that did not stick, with what .config has instead, and exits 1.
With several fragments (merged in that order, as merge_config.sh does), an
option a later fragment names is checked against the later line only.

Options after a line "# --- Added by the series" name symbols the series
adds: with --tree DIR, one that DIR's Kconfig files do not define (a tree
before the patch that adds it) is reported as skipped, not as an error.
"""
import os
import re
import sys

SET = re.compile(r'^(CONFIG_[A-Za-z0-9_]+)=(.*)$')
UNSET = re.compile(r'^# (CONFIG_[A-Za-z0-9_]+) is not set$')


def read_config(lines):
    """Map option -> value ('n' for "is not set") for a .config's lines."""
    opts = {}
    for line in lines:
        line = line.strip()
        m = SET.match(line)
        if m:
            opts[m.group(1)] = m.group(2)
            continue
        m = UNSET.match(line)
        if m:
            opts[m.group(1)] = 'n'
    return opts


SERIES_MARK = '# --- Added by the series'


def kconfig_symbols(tree):
    """Every symbol a kernel tree's Kconfig files define."""
    syms = set()
    pat = re.compile(r'^\s*(?:menu)?config\s+([A-Za-z0-9_]+)', re.M)
    for root, dirs, files in os.walk(tree):
        dirs[:] = [d for d in dirs if not d.startswith('.')]
        for f in files:
            if f.startswith('Kconfig'):
                with open(os.path.join(root, f), errors='replace') as fh:
                    syms.update(pat.findall(fh.read()))
    return syms


def fragment_options(lines):
    """The options a fragment's lines name, set or unset."""
    return set(read_config(lines))


def check(fragment_lines, config_lines, tree_symbols=None, skipped=None,
          overridden=frozenset()):
    """Return a list of messages, one per option that did not stick.

    tree_symbols: the symbols the tree defines (None: do not look); an
    option of the series section missing from them is appended to
    skipped instead of failing.  overridden: options a later fragment
    names, not checked against this one.
    """
    have = read_config(config_lines)
    bad = []
    series = False
    for n, line in enumerate(fragment_lines, 1):
        line = line.strip()
        if line.startswith(SERIES_MARK):
            series = True
            continue
        m = SET.match(line)
        want = None
        if m:
            opt, want = m.group(1), m.group(2)
        else:
            m = UNSET.match(line)
            if m:
                opt, want = m.group(1), 'n'
        if want is None or opt in overridden:
            continue
        got = have.get(opt, 'n')
        if (got != want and series and tree_symbols is not None and
                opt[len('CONFIG_'):] not in tree_symbols):
            if skipped is not None:
                skipped.append(opt)
            continue
        if got != want:
            shown = 'not set' if got == 'n' else got
            wanted = 'not set' if want == 'n' else want
            bad.append('%s: line %d wants %s=%s, the config has %s'
                       % (opt, n, opt, wanted, shown))
    return bad


def main(argv):
    tree = None
    if len(argv) >= 2 and argv[0] == '--tree':
        tree, argv = argv[1], argv[2:]
    if len(argv) < 2:
        sys.exit(__doc__)
    frags = []
    for path in argv[:-1]:
        with open(path) as f:
            frags.append((path, f.readlines()))
    with open(argv[-1]) as f:
        conf = f.readlines()
    symbols = kconfig_symbols(tree) if tree else None
    failed = 0
    for i, (path, frag) in enumerate(frags):
        later = set()
        for _, lines in frags[i + 1:]:
            later |= fragment_options(lines)
        skipped = []
        bad = check(frag, conf, symbols, skipped, later)
        for opt in skipped:
            print('config: %s skipped: this tree does not define it (yet)' % opt)
        for b in bad:
            print('config: ' + b)
        if bad:
            print('config: %d option(s) of %s did not stick: a dependency is '
                  'missing from the fragment' % (len(bad), path))
            failed = 1
    return failed


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
