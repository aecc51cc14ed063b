#!/usr/bin/env python3
# SPDX-License-Identifier: GPL-2.0
"""Run the host tests (tests/host/test_*.py); one line per test.

Usage: run.py [COUNTS_FILE]
Writes "passed failed skipped" to COUNTS_FILE when given; exits 1 on any
failure or error.  The tests are modules of the package tests.host, found
from the repository's top, so that they import the packages harness and
bench as they are (one test alone: python3 -m unittest tests.host.test_NAME
from the top).
"""
import os
import sys
import unittest

HERE = os.path.dirname(os.path.abspath(__file__))
TOP = os.path.dirname(os.path.dirname(HERE))


class Result(unittest.TextTestResult):
    def __init__(self, *a, **kw):
        super().__init__(*a, **kw)
        self.passed = 0

    def addSuccess(self, test):
        super().addSuccess(test)
        self.passed += 1


def main(argv):
    suite = unittest.defaultTestLoader.discover(HERE, pattern='test_*.py',
                                                top_level_dir=TOP)
    runner = unittest.TextTestRunner(resultclass=Result, verbosity=2,
                                     stream=sys.stdout)
    res = runner.run(suite)
    failed = len(res.failures) + len(res.errors) + len(res.unexpectedSuccesses)
    skipped = len(res.skipped)
    print('host tests: %d passed, %d failed, %d skipped'
          % (res.passed, failed, skipped))
    if argv:
        with open(argv[0], 'w') as f:
            f.write('%d %d %d\n' % (res.passed, failed, skipped))
    return 1 if failed or res.testsRun == 0 else 0


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
