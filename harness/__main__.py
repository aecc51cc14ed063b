# SPDX-License-Identifier: GPL-2.0
"""python3 -m harness COMMAND ARGS...: the harness for the bash scripts.

    settings [NAME]                 every setting as NAME=VALUE, or one value
    scenario list|kernels|journals TARGET
                                    the scenarios (harness/scenario.py)
    boot RESULTS_DIR CMDFILE [DEST=SRC ...] | --scenario NAME RESULTS_DIR
                                    boot the kernel and judge it
    matrix plan [ENTRY ...] | title ENTRY
                                    the build matrix (harness/matrix.py)
    verdict parse LOG | counts|problems|failures|why DIR
    verdict journal-extra DIR OTHER_DIR
    madt qemu TOPO OUT [apart] | show FILE
    qemu --kernel BZIMAGE --initrd CPIO|--root IMAGE --results DIR ...
                                    boot and judge (--print: the command only)

Each command's module documents its arguments and output.
"""
import sys

from . import boot, madt, matrix, qemu, scenario, settings, verdict

COMMANDS = {'settings': settings.main, 'scenario': scenario.main,
            'verdict': verdict.main, 'madt': madt.main, 'qemu': qemu.main,
            'boot': boot.main, 'matrix': matrix.main}


def main(argv):
    if not argv or argv[0] not in COMMANDS:
        print(__doc__.strip().split('\n\n')[1], file=sys.stderr)
        return 2
    return COMMANDS[argv[0]](argv[1:])


if __name__ == '__main__':
    sys.exit(main(sys.argv[1:]))
