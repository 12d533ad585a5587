# SPDX-License-Identifier: GPL-2.0
# locklat top-level Makefile. `make help` lists the targets.

SHELL := /bin/bash
JOBS ?= $(shell nproc)
VARIANTS ?=

.PHONY: help deps kernels modules verify-equivalence tools initramfs run summary plots compare check shellcheck clean distclean

# The run summary and plots read; default the newest run of run-matrix.sh.
RUN ?= results/latest

# C tools, each with its own library and the common one (lib/: locklat.c,
# table.c, the reader of kernels/' '|' data files):
#   bench/host/<tool>/    host side of the QEMU boundary (qmp, guard, table)
#                         -> build/bin/locklat-<tool>, with json-c (the guard
#                         with nothing: it must build before the packages)
#   bench/report/<tool>/  the report stage (summary, compare, power, verdict)
#                         -> build/bin/locklat-<tool>, with bench/report/lib
#                         (key=value files, statistics) and json-c
#   workloads/<name>/     guest workloads -> static build/guest-bin/locklat-<name>,
#                         with workloads/lib (the workload harness)
CC := gcc
CFLAGS := -std=c11 -O2 -g -Wall -Wextra -Werror -pthread -Ilib
BIN := build/bin
GUEST_BIN := build/guest-bin
COMMON_SRC := $(wildcard lib/*.c)
COMMON_HDR := $(wildcard lib/*.h)
REPORT_LIB_SRC := $(wildcard bench/report/lib/*.c)
REPORT_LIB_HDR := $(wildcard bench/report/lib/*.h)
WORKLOAD_LIB_SRC := $(wildcard workloads/lib/*.c)
WORKLOAD_LIB_HDR := $(wildcard workloads/lib/*.h)
tool_dirs = $(notdir $(patsubst %/,%,$(filter-out $(1)lib/,$(wildcard $(1)*/))))
HOST_TOOLS := $(call tool_dirs,bench/host/)
REPORT_TOOLS := $(call tool_dirs,bench/report/)
# Programs: the folders of workloads/ with C sources (not every workload has one).
WORKLOADS := $(filter-out lib,$(patsubst workloads/%/,%,$(sort $(dir $(wildcard workloads/*/*.c)))))
HOST_BINS := $(HOST_TOOLS:%=$(BIN)/locklat-%) $(REPORT_TOOLS:%=$(BIN)/locklat-%)
GUEST_BINS := $(WORKLOADS:%=$(GUEST_BIN)/locklat-%)
JSONC := $$(pkg-config --cflags --libs json-c) -lm
# The summary reads trace-cmd files with the field's libraries.
TRACECMD := $$(pkg-config --cflags --libs libtracecmd libtraceevent)
REPORT_CFLAGS := -Ibench/report/lib

$(BIN)/locklat-%: bench/host/%/*.c $(COMMON_SRC) $(COMMON_HDR)
	@mkdir -p $(BIN)
	$(CC) $(CFLAGS) -o $@ $(filter %.c,$^) $(JSONC)

# The stage guard: gcc alone (run-matrix.sh builds it before the packages).
$(BIN)/locklat-guard: bench/host/guard/guard.c
	@mkdir -p $(BIN)
	$(CC) $(CFLAGS) -o $@ $<

$(BIN)/locklat-%: bench/report/%/*.[ch] $(REPORT_LIB_SRC) $(REPORT_LIB_HDR) $(COMMON_SRC) $(COMMON_HDR)
	@mkdir -p $(BIN)
	$(CC) $(CFLAGS) $(REPORT_CFLAGS) -o $@ $(filter %.c,$^) $(JSONC) $(TRACECMD)

# The summary's cell loader (its files, its checks, the one parser of the
# guest's step log) and the verdict rules run-cell.sh asks locklat-verdict
# for: one judge of a cell, in the summary's own sources.
SUMMARY_CELL_SRC := $(filter-out bench/report/summary/summary.c,$(wildcard bench/report/summary/*.c))
SUMMARY_CELL_HDR := $(wildcard bench/report/summary/*.h)
$(BIN)/locklat-verdict: bench/report/verdict/verdict.c $(SUMMARY_CELL_SRC) $(SUMMARY_CELL_HDR) $(REPORT_LIB_SRC) $(REPORT_LIB_HDR) $(COMMON_SRC) $(COMMON_HDR)
	@mkdir -p $(BIN)
	$(CC) $(CFLAGS) $(REPORT_CFLAGS) -Ibench/report/summary -o $@ $(filter %.c,$^) $(JSONC) $(TRACECMD)

# Static: the guest image carries no libraries for our own programs.
$(GUEST_BIN)/locklat-%: workloads/%/*.[ch] $(WORKLOAD_LIB_SRC) $(WORKLOAD_LIB_HDR) $(COMMON_SRC) $(COMMON_HDR)
	@mkdir -p $(GUEST_BIN)
	$(CC) $(CFLAGS) -Iworkloads/lib -static -o $@ $(filter %.c,$^) -lm

verify-equivalence: ## compare the converted objects of each pair of variants that differ by the series alone
	kernels/verify-equivalence.sh

# C unit tests: tests/unit/test-<name>.c -> build/tests/test-<name>, run by
# tests/unit-<name>.t. A workload's test links the workload's small pure
# files (its checks), never its main().
UNIT_TESTS := $(patsubst tests/unit/%.c,build/tests/%,$(wildcard tests/unit/test-*.c))
build/tests/test-cnproc: tests/unit/test-cnproc.c workloads/cnproc/cnproc-msg.c workloads/cnproc/cnproc-msg.h tests/unit/tap.h
	@mkdir -p build/tests
	$(CC) $(CFLAGS) -Iworkloads/cnproc -o $@ $< workloads/cnproc/cnproc-msg.c

build/tests/test-idr: tests/unit/test-idr.c workloads/idr/idset.c workloads/idr/idset.h tests/unit/tap.h
	@mkdir -p build/tests
	$(CC) $(CFLAGS) -Iworkloads/idr -o $@ $< workloads/idr/idset.c

# The shared integrity count (workloads/lib), the squashfs and zram checks
# and the squashfs readers' files.
INTEGRITY_SRC := workloads/squashfs/sums.c workloads/zram/pages.c
build/tests/test-integrity: tests/unit/test-integrity.c $(INTEGRITY_SRC) $(INTEGRITY_SRC:.c=.h) workloads/squashfs/readers.h $(WORKLOAD_LIB_SRC) $(WORKLOAD_LIB_HDR) $(COMMON_SRC) $(COMMON_HDR) tests/unit/tap.h
	@mkdir -p build/tests
	$(CC) $(CFLAGS) -Iworkloads/lib -Iworkloads/squashfs -Iworkloads/zram -o $@ $< $(INTEGRITY_SRC) $(WORKLOAD_LIB_SRC) $(COMMON_SRC) -lm

build/tests/test-lru: tests/unit/test-lru.c workloads/lru/procfs.c workloads/lru/procfs.h workloads/lru/verify.c workloads/lru/verify.h tests/unit/tap.h
	@mkdir -p build/tests
	$(CC) $(CFLAGS) -Iworkloads/lru -o $@ $< workloads/lru/procfs.c workloads/lru/verify.c

build/tests/test-%: tests/unit/test-%.c $(SUMMARY_CELL_SRC) $(REPORT_LIB_SRC) $(REPORT_LIB_HDR) $(COMMON_SRC) $(COMMON_HDR) tests/unit/tap.h
	@mkdir -p build/tests
	$(CC) $(CFLAGS) $(REPORT_CFLAGS) -Ibench/report/summary -o $@ $< $(SUMMARY_CELL_SRC) $(REPORT_LIB_SRC) $(COMMON_SRC) $(JSONC) $(TRACECMD)

tools: $(HOST_BINS) $(GUEST_BINS) $(UNIT_TESTS) ## build the C tools, workloads and unit tests

initramfs: tools ## build the guest initramfs (cached by content)
	bench/guest/mkinitramfs.sh

help: ## this list
	@awk -F':.*## ' '/^[a-z-]+:.*## / { printf "  %-14s %s\n", $$1, $$2 }' $(MAKEFILE_LIST)

deps: ## install the Debian packages locklat needs (root)
	tools/install-deps.sh

kernels: ## build kernel variants, a plain and a traced kernel each (all, or VARIANTS="rt baseline-rt")
	kernels/build.sh -j$(JOBS) $(VARIANTS)

modules: ## build kernels/modules (llcheck, llbench) against built variants (all, or VARIANTS=...)
	kernels/modules/build.sh $(VARIANTS)

run: ## the whole matrix: ./run-matrix.sh $(RUN_ARGS)
	./run-matrix.sh $(RUN_ARGS)

summary: tools ## summarise a run (RUN=results/<run-id>, default the latest)
	bench/report/report.sh summary $(RUN)

plots: ## draw a run's plots with gnuplot (after make summary)
	bench/report/report.sh plots $(RUN)

compare: tools ## B against A: make compare A=results/<run1> B=results/<run2> [OUT=dir] [THRESHOLD=pct] [ALLOW_DIFFERENT=1]; exit 1 if B regressed
	@[ -n "$(A)" ] && [ -n "$(B)" ] || { echo "usage: make compare A=results/<run1> B=results/<run2>" >&2; exit 2; }
	LOCKLAT_COMPARE_THRESHOLD=$(THRESHOLD) LOCKLAT_COMPARE_ALLOW_DIFFERENT=$(ALLOW_DIFFERENT) \
		bench/report/report.sh compare $(A) $(B) $(OUT)

check: tools ## unit tests, shellcheck and the smoke boot, as TAP through prove
	prove -v tests/

shellcheck: ## shellcheck every shell script
	shellcheck $$(git ls-files '*.sh' '*.t' .ci/run)

clean: ## remove build output of the C tools
	rm -rf build/bin

distclean: clean ## remove all build output, kernels included (not results/)
	rm -rf build
