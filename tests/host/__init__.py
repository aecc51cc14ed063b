# SPDX-License-Identifier: GPL-2.0
"""The host tests (tests/host/run.py runs them; make host-check)."""
