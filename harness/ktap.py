# SPDX-License-Identifier: GPL-2.0
"""python3 -m harness.ktap FOLDER: the KUnit results of a boot's console
lines (standard input), read by the kernel tree's own parser
(FOLDER/kunit_parser.py, as kunit.py reads them), as JSON on standard
output: [[name, status], ...], a leaf named with its suites
(suite.case.parameter), status pass, fail or skip, a case that never
reported a failure by number.  harness/verdict.py's tree_ktap() runs it
in a process of its own, with a time limit: the parser can raise on, or
never finish, a log that interleaves other kernel lines with KTAP.
"""
import importlib.util
import io
import json
import os
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
    top = load(argv[0]).parse_run_tests(sys.stdin.read().splitlines())
    json.dump([leaf for i, sub in enumerate(top.subtests, 1) for leaf in leaves(sub, '', i)],
              sys.stdout)
    return 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
