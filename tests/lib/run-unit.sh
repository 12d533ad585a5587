#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# run-unit.sh - run a C unit test from the repository root, by the name it is
# called with: tests/unit-<name>.t (a link to this file) runs build/tests/test-<name>.
# Usage: prove tests/unit-<name>.t   (make tools builds the binaries)
root=$(cd "$(dirname "$(readlink -f "$0")")/../.." && pwd)
name=$(basename "$0" .t)
bin=$root/build/tests/test-${name#unit-}
if [ ! -x "$bin" ]; then
	echo "1..0 # SKIP $bin not built (make tools)"
	exit 4
fi
cd "$root" && exec "$bin"
