# SPDX-License-Identifier: GPL-2.0
"""The test harness: boots the kernel in QEMU and judges what it printed.

    settings    scripts/settings (every default) with the environment's values
    scenario    tests/guest/scenarios/: which boot runs which tests
    matrix      tests/matrix/: the configurations make matrix builds
    keyfile     the reader of the "key: value" files of both
    madt        the ACPI MADT that numbers SMT siblings apart
    qemu        the QEMU and kernel command lines of a boot, and the boot
    boot        a boot from the settings or a scenario: the initramfs, the
                MADT, the accelerator, the programs the guest gets
    verdict     the judge of a guest's console log

The bash scripts of scripts/ call it as python3 -m harness COMMAND ...
(__main__.py; scripts/lib.sh puts the repository on PYTHONPATH); bench/
and the host tests import it.  The build steps (fetch, apply, export,
build the kernel, the programs and the system image) stay in bash.
"""
import os

TOP = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
