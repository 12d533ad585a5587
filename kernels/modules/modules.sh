# SPDX-License-Identifier: GPL-2.0
# modules.sh - the out-of-tree modules' registry loader: llcheck's
# scenarios (kernels/modules/llcheck/scenarios, a '|'-separated table read by
# locklat-table, lib/table.c, the summary's reader too).
#
# Usage: . "$LOCKLAT_ROOT/kernels/modules/modules.sh"   (after lib/common.sh, which names the paths)
#
# The loader lives beside the data it reads; lib/common.sh, which every
# stage sources, holds helpers and reads no registry. It defines functions only.

# shellcheck shell=bash
# shellcheck disable=SC2034 # LOCKLAT_MODULES: read by the scripts that source this

# The out-of-tree modules of kernels/modules/, which the modules pass loads
# in the guest (bench/passes/modules/).
LOCKLAT_MODULES="llcheck llbench"

# table_names FILE: the first field of each line of a '|'-separated data file
# of kernels/, read by locklat-table (lib/table.c, the summary's reader too).
table_names() {
	local table=$LOCKLAT_ROOT/build/bin/locklat-table
	[ -x "$table" ] || err_exit "$table not built: run 'make tools'" 70
	"$table" "$1"
}

# llcheck_scenarios: llcheck's scenario names in the order the guest loads
# them (kernels/modules/llcheck/scenarios).
llcheck_scenarios() {
	table_names "$LOCKLAT_ROOT/kernels/modules/llcheck/scenarios"
}
