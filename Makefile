# SPDX-License-Identifier: GPL-2.0
# locklat top-level Makefile. `make help` lists the targets.

SHELL := /bin/bash
JOBS ?= $(shell nproc)
VARIANTS ?=

.PHONY: help deps kernels check check-unit shellcheck clean distclean

help: ## this list
	@awk -F':.*## ' '/^[a-z-]+:.*## / { printf "  %-14s %s\n", $$1, $$2 }' $(MAKEFILE_LIST)

deps: ## install the Debian packages locklat needs (root)
	tools/install-deps.sh

kernels: ## build kernel variants (all, or VARIANTS="rt baseline-rt")
	kernels/build.sh -j$(JOBS) $(VARIANTS)

check: ## unit tests, shellcheck and the smoke boot, as TAP through prove
	prove -v tests/

shellcheck: ## shellcheck every shell script
	shellcheck $$(git ls-files '*.sh' '*.t' .ci/run)

clean: ## remove build output of the C tools
	rm -rf build/bin

distclean: clean ## remove all build output, kernels included (not results/)
	rm -rf build
