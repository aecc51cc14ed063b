# SPDX-License-Identifier: GPL-2.0
"""python3 -m bench: make bench's command line (bench/bench.py)."""
import sys

from .bench import main

if __name__ == '__main__':
    sys.exit(main())
