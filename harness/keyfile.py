# SPDX-License-Identifier: GPL-2.0
"""The "key: value" files of the harness (tests/guest/scenarios/,
tests/matrix/): one reader of their lines, for scenario.py and matrix.py.
Lines starting with # are comments; the first ones describe the file.
"""


def items(text, keys, bad):
    """(line number, key, value) of each "key: value" line of @text, blank
    and comment lines left out; bad(n, why) for a line that is neither or
    names a key not in @keys."""
    for n, line in enumerate(text.splitlines(), 1):
        if not line.strip() or line.lstrip().startswith('#'):
            continue
        key, sep, val = line.partition(':')
        key, val = key.strip(), val.strip()
        if not sep or key not in keys:
            bad(n, 'not "key: value" with a key of %s' % ', '.join(sorted(keys)))
        yield n, key, val


def description(text):
    """The comment lines before the first "key: value" line, as one line."""
    out = []
    for line in text.splitlines():
        if line.lstrip().startswith('#'):
            out.append(line.lstrip('# ').rstrip())
        elif line.strip():
            break
    return ' '.join(w for w in out if w)
