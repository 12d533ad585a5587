#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# install-deps.sh - install the Debian packages locklat needs (tools/debian-packages,
# or the file LOCKLAT_PACKAGES names).
#
# Usage: tools/install-deps.sh [--check]
#   --check  only report missing packages (exit 1 if any), install nothing
# As root it runs apt-get; otherwise it prints the exact apt-get line and stops.

set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"

[ -r "$LOCKLAT_PACKAGES" ] || err_exit "package list $LOCKLAT_PACKAGES not readable"
mapfile -t wanted < <(grep -v '^[[:space:]]*\(#\|$\)' "$LOCKLAT_PACKAGES")
missing=()
for p in "${wanted[@]}"; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q 'install ok installed' ||
		missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
if [ "${1:-}" = --check ]; then
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
