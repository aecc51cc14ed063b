# SPDX-License-Identifier: GPL-2.0
# Latency nice for Linux 6.12: build, boot and test the series in QEMU.
#
#   make demo     set up, build, boot the kernel and show the feature
#   make check    the same build plus every test; ends "N passed, N failed"
#   make run CMD='...' EXTRA='file ...'   your command in the guest
#
# Steps, each also a target: setup, source, apply, kernel, programs.
# make system builds the guest's Debian system image (systemd as PID 1,
# Debian's packages; cached, rebuilt when system/packages changes); the
# "system" scenario of make check boots it, and so does
# make run ROOTFS=system CMD='...'.  make deb builds latnice's Debian
# package (latnice/debian; the guests get it in /tests).
# make bisect builds and boots the base and every patch of the series
# (BISECT_STEPS=15-16: only those steps; 0 is the base).
# make matrix builds the series in the configurations of build bots and
# distributions (!SMP, !SCHED_SMT, !CGROUP_SCHED, i386, arm64, Debian's,
# W=1 against the base; ENTRIES='up arm64' picks some); CI runs it after
# make check.
# make bench measures the series against the unpatched kernel (BENCH=quick
# by default, BENCH=full for the whole matrix; ONLY=1,2 picks figures).
# Work on the series: make apply (patches/ -> build/linux, branch latnice),
# edit and commit in build/linux, make export (-> patches/).
# Settings (defaults in scripts/settings, all in docs/harness.md): TOPO=SxCxT,
# ACCEL=auto|tcg|kvm, KVER_DEB=<Debian version>, JOBS=<n>, GUEST_TIMEOUT=<s>,
# SHOW, APPEND, ICOUNT, ...; e.g. make run TOPO=1x8x2 CMD='nproc'.

SHELL := /bin/bash
# Every setting of scripts/settings goes to the scripts' environment.
export $(shell sed -n 's/^\([A-Z][A-Z0-9_]*\)=.*/\1/p' scripts/settings) CMD

S := scripts

.PHONY: all help setup source apply export kernel programs system deb check demo run bisect \
	matrix bench host-check clean distclean

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

programs: kernel
	@$(S)/build-programs.sh

system: setup
	@$(S)/build-system.sh

deb: setup
	@$(S)/build-deb.sh

check:
	@$(S)/check.sh

# The host tests alone: no kernel, no guest.
host-check:
	@python3 tests/host/run.py

demo: programs
	@$(S)/demo.sh

run: programs
	@$(S)/run.sh "$$CMD" $(EXTRA)

# Build and boot the kernel at the base and after each patch (slow).
bisect: kernel
	@$(S)/bisect-check.sh

# The series built in other configurations (see scripts/matrix.sh).
matrix: kernel
	@$(S)/setup.sh matrix
	@$(S)/matrix.sh $(ENTRIES)

# The series against the unpatched kernel, side by side (see README.md):
# python3 -m bench (bench/bench.py); ONLY=1,6 picks figures 1 and 6, ONLY=12 figure 12
# (default: every figure it has).
bench: programs
	@python3 -m bench $(if $(ONLY),--only '$(ONLY)')

clean:
	rm -rf build/obj-* build/programs* build/kselftest-sched build/bench build/counts \
		build/matrix results

distclean:
	rm -rf build results
