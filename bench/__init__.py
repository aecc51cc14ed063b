# SPDX-License-Identifier: GPL-2.0
"""make bench, as a package: python3 -m bench ... from the repository's top
(bench.py has the command line).  figures plans and tabulates, runner
builds and boots (through harness/boot.py), report reads the verdicts of
the harness package (harness/verdict.py), publish writes docs/results.md.
"""
