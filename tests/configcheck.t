#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# configcheck.t - kernels/configcheck.sh names every option that did not stick.
. "$(dirname "$0")/lib/tap.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
check=$root/kernels/configcheck.sh
fx=$root/tests/fixtures/configcheck
tap_plan 7

out=$("$check" "$fx/dot-config" "$fx/holds.config" 2>&1)
tap_result $? "all requested options hold: exit 0"
tap_is "$out" "" "nothing reported when all hold"

out=$("$check" "$fx/dot-config" "$fx/impossible.config" 2>&1)
tap_is "$?" 1 "an impossible option: exit 1"
tap_like "$out" '^CONFIG_PREEMPT_RT: asked y, got n \(impossible.config\)$' "names the option, its values and fragment"
tap_like "$out" '^CONFIG_NR_CPUS: asked 16, got 8' "reports a changed value too"

"$check" "$fx/dot-config" "$fx/impossible.config" "$fx/override.config" 2>&1 |
	grep -q NR_CPUS
tap_is "$?" 1 "a later fragment overrides an earlier one"

"$check" "$fx/dot-config" 2>/dev/null
tap_is "$?" 2 "bad usage: exit 2"
tap_done
