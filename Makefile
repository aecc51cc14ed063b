# SPDX-License-Identifier: GPL-2.0
# Latency nice for Linux 6.12: build, boot and test the series in QEMU.
#
#   make demo     set up, build, boot the kernel and show the feature
#   make check    the same build plus every test; ends "N passed, N failed"
#   make run CMD='...' EXTRA='file ...'   your command in the guest
#
# Steps, each also a target: setup, source, apply, kernel, guest.
# make bisect builds and boots the base and every patch of the series.
# make bench measures the series against the unpatched kernel (BENCH=quick
# by default, BENCH=full for the whole matrix; ONLY=1234 picks figures).
# Work on the series: make apply (patches/ -> build/linux, branch latnice),
# edit and commit in build/linux, make export (-> patches/).
# Settings: TOPO=SxCxT (2x4x2), ACCEL=auto|tcg|kvm, KVER_DEB=<Debian version>,
# JOBS=<n>, GUEST_TIMEOUT=<s>.  See README.md.

SHELL := /bin/bash
export TOPO ACCEL KVER_DEB JOBS GUEST_TIMEOUT SHOW APPEND CMD BENCH

S := scripts

.PHONY: all help setup source apply export kernel guest check demo run bisect \
	bench host-check clean distclean

all: help

help:
	@sed -n '2,/^$$/s/^# \{0,1\}//p' Makefile

setup:
	@$(S)/setup.sh

source: setup
	@$(S)/fetch-source.sh

apply: source
	@$(S)/apply-series.sh

export:
	@$(S)/export-series.sh

kernel: apply
	@$(S)/build-kernel.sh

guest: kernel
	@$(S)/build-guest.sh

check:
	@$(S)/check.sh

# The host tests alone: no kernel, no guest.
host-check:
	@python3 tests/host/run.py

demo: guest
	@$(S)/demo.sh

run: guest
	@$(S)/run.sh "$$CMD" $(EXTRA)

# Build and boot the kernel at the base and after each patch (slow).
bisect: kernel
	@$(S)/bisect-check.sh

# The series against the unpatched kernel, side by side (see README.md).
bench: guest
	@python3 $(S)/bench.py --only '$(or $(ONLY),1234)'

clean:
	rm -rf build/obj-* build/guest build/bench build/counts results

distclean:
	rm -rf build results
