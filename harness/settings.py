# SPDX-License-Identifier: GPL-2.0
"""The harness's settings for Python: scripts/settings, as scripts/lib.sh
reads it for bash.  A setting in the environment wins over its default; an
empty one counts as unset.

    from harness import settings
    s = settings.load()
    s['OBJ'], s['KVER_DEB'], ...

python3 -m harness settings prints NAME=VALUE for every setting (or one
value: python3 -m harness settings NAME).
"""
import os
import re
import sys

from . import TOP

FILE = os.path.join(TOP, 'scripts', 'settings')
LINE = re.compile(r'^([A-Z][A-Z0-9_]*)=(.*)$')
VAR = re.compile(r'\$(?:\{([A-Za-z_][A-Za-z0-9_]*)\}|([A-Za-z_][A-Za-z0-9_]*))')


def defaults(path=FILE):
    """[(name, raw default)] in the file's order."""
    out = []
    with open(path) as f:
        for n, line in enumerate(f, 1):
            line = line.rstrip('\n')
            if not line.strip() or line.lstrip().startswith('#'):
                continue
            m = LINE.match(line)
            if not m:
                raise ValueError('%s:%d: not NAME=VALUE: %r' % (path, n, line))
            out.append((m.group(1), m.group(2)))
    return out


def load(env=None, path=FILE, top=TOP):
    """{name: value}: the environment's value, else the expanded default."""
    env = os.environ if env is None else env
    known = {'TOP': env.get('TOP') or top, 'HOME': env.get('HOME', '')}
    out = {}
    for name, raw in defaults(path):
        if env.get(name):
            val = env[name]
        else:
            val = VAR.sub(lambda m: known.get(m.group(1) or m.group(2), ''), raw)
        known[name] = out[name] = val
    return out


def main(argv):
    s = load()
    if argv:
        if argv[0] not in s:
            print('settings: no setting %s (see scripts/settings)' % argv[0],
                  file=sys.stderr)
            return 2
        print(s[argv[0]])
        return 0
    for k, v in s.items():
        print('%s=%s' % (k, v))
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
