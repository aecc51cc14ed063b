# SPDX-License-Identifier: GPL-2.0
"""python3 -m harness.ktap FOLDER: the KUnit results of a boot's console
lines (standard input), read by the kernel tree's own parser
(FOLDER/kunit_parser.py, as kunit.py reads them), as JSON on standard
output: [[name, status], ...], a leaf named with its suites
(suite.case.parameter), status pass, fail or skip, a case that never
reported a failure by number.  harness/verdict.py's tree_ktap() runs it
in a process of its own, with a time limit: the parser can raise on, or
never finish, a damaged log.  Other kernel lines that the console
interleaves with KTAP are left out first (ktap_only()).
"""
import importlib.util
import io
import json
import os
import re
import sys

# kunit_parser's TestStatus names as the verdict's statuses; NO_TESTS (a
# suite without cases) has no leaf to count.
STATUS = {'SUCCESS': 'pass', 'SKIPPED': 'skip', 'FAILURE': 'fail',
          'TEST_CRASHED': 'fail', 'FAILURE_TO_PARSE_TESTS': 'fail'}


def load(folder):
    """The tree's kunit_parser module, quiet."""
    mods = {}
    # kunit_parser imports kunit_printer as a top-level module.
    for name in ('kunit_printer', 'kunit_parser'):
        spec = importlib.util.spec_from_file_location(name, os.path.join(folder, name + '.py'))
        mods[name] = sys.modules[name] = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(mods[name])
    # It prints what it parses, as kunit.py shows it: not here.
    mods['kunit_parser'].stdout = mods['kunit_printer'].Printer(io.StringIO())
    return mods['kunit_parser']


# A console line's printk time stamp, and what starts a KTAP line.
STAMP = re.compile(r'^\[\s*\d+\.\d+\] ?')
KTAP_WORDS = ('KTAP version', 'TAP version', '1..', 'ok ', 'not ok ', '#')


def ktap_only(lines):
    """@lines without the kernel's own messages that came between KTAP
    lines ("input: AT Translated Set 2 keyboard ..." between a suite's
    "KTAP version 1" and its "# Subtest:" makes the parser take the
    suite's name, and its results, for another suite's).  A line stays
    when, without its time stamp, it starts a KTAP line or is indented (a
    test's own log lines are); KTAP has no other unindented lines."""
    out = []
    for line in lines:
        rest = STAMP.sub('', line, count=1)
        if rest[:1].isspace() or rest.startswith(KTAP_WORDS):
            out.append(line)
    return out


def leaves(test, prefix, n):
    # A result that never came (a crash) has no name: its number.
    name = prefix + (test.name or '#%d (no result)' % n)
    if not test.subtests:
        if test.status.name in STATUS:
            yield name, STATUS[test.status.name]
        return
    for i, sub in enumerate(test.subtests, 1):
        yield from leaves(sub, name + '.', i)


def main(argv):
    if len(argv) != 1:
        print('usage: python3 -m harness.ktap FOLDER < CONSOLE', file=sys.stderr)
        return 2
    top = load(argv[0]).parse_run_tests(ktap_only(sys.stdin.read().splitlines()))
    json.dump([leaf for i, sub in enumerate(top.subtests, 1) for leaf in leaves(sub, '', i)],
              sys.stdout)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
