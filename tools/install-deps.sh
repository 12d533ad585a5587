#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# install-deps.sh - install the Debian packages locklat needs (tools/debian-packages,
# or the file LOCKLAT_PACKAGES names).
#
# Usage: tools/install-deps.sh [--runtime | --tests] [--check | --list]
#   --runtime  only what a lab host needs to run cells that another machine
#              built (the list's lines marked "runtime": QEMU and the few
#              programs around it; run-matrix.sh --hosts)
#   --tests    also what only the test suite needs (lines marked "test":
#              an ssh server for tests/lab.t; .ci/run installs them)
#   --check    only report missing packages (exit 1 if any), install nothing
#   --list     print the packages, one per line, installed or not (for a lab
#              host: ssh root@host apt-get install $(... --runtime --list))
# As root it runs apt-get; otherwise it prints the exact apt-get line and stops.

set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"

check=0 runtime=0 list=0 tests=0
while [ $# -gt 0 ]; do
	case $1 in
	--check) check=1 ;;
	--list) list=1 ;;
	--runtime) runtime=1 ;;
	--tests) tests=1 ;;
	-h | --help) usage_from_header "$0"; exit 0 ;;
	*) err_exit "unknown option '$1' (see --help)" 2 ;;
	esac
	shift
done
[ -r "$LOCKLAT_PACKAGES" ] || err_exit "package list $LOCKLAT_PACKAGES not readable"
# One package per line, its first word; a second word "runtime" puts it in
# the --runtime list too, "test" in the --tests list alone.
mapfile -t wanted < <(awk -v runtime="$runtime" -v tests="$tests" '/^[[:space:]]*(#|$)/ { next }
	runtime { if ($2 == "runtime") print $1; next }
	$2 != "test" || tests { print $1 }' "$LOCKLAT_PACKAGES")
if [ "$list" -eq 1 ]; then
	printf '%s\n' "${wanted[@]}"
	exit 0
fi
missing=()
for p in "${wanted[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "$check" -eq 1 ]; then
	echo "missing Debian packages: ${missing[*]}" >&2
	exit 1
fi
if [ "$(id -u)" -ne 0 ]; then
	err_exit "missing packages; run as root: apt-get install --no-install-recommends ${missing[*]}"
fi
progress deps "apt-get install ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
# An install killed half way (run-matrix.sh killed in its packages stage)
# leaves dpkg "interrupted": apt-get then refuses everything until the
# configuration is finished, so finish it first.
if [ -n "$(dpkg --audit 2>/dev/null)" ] || [ -n "$(ls -A /var/lib/dpkg/updates 2>/dev/null)" ]; then
	progress deps "dpkg was interrupted: dpkg --configure -a"
	dpkg --configure -a
fi
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}"
