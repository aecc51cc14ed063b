#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Check that every option of a config fragment made it into a .config.

Usage: check-config.py FRAGMENT DOTCONFIG

"CONFIG_X=v" in the fragment needs the same line in .config; "# CONFIG_X
is not set" needs X unset (absent or "is not set").  Prints one line per
option that did not stick, with what .config has instead, and exits 1.
"""
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


def check(fragment_lines, config_lines):
    """Return a list of messages, one per option that did not stick."""
    have = read_config(config_lines)
    bad = []
    for n, line in enumerate(fragment_lines, 1):
        line = line.strip()
        m = SET.match(line)
        want = None
        if m:
            opt, want = m.group(1), m.group(2)
        else:
            m = UNSET.match(line)
            if m:
                opt, want = m.group(1), 'n'
        if want is None:
            continue
        got = have.get(opt, 'n')
        if got != want:
            shown = 'not set' if got == 'n' else got
            wanted = 'not set' if want == 'n' else want
            bad.append('%s: line %d wants %s=%s, the config has %s'
                       % (opt, n, opt, wanted, shown))
    return bad


def main(argv):
    if len(argv) != 2:
        sys.exit(__doc__)
    with open(argv[0]) as f:
        frag = f.readlines()
    with open(argv[1]) as f:
        conf = f.readlines()
    bad = check(frag, conf)
    for b in bad:
        print('config: ' + b)
    if bad:
        print('config: %d option(s) of %s did not stick: a dependency is '
              'missing from the fragment' % (len(bad), argv[0]))
        return 1
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
