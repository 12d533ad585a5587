#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# deps.t - tools/install-deps.sh against fake dpkg, dpkg-query, apt-get and
# id on PATH (nothing is installed): what it reports as missing, of all or
# of the runtime list (--runtime), what it lists (--list), and that an
# install killed half way (dpkg "interrupted") is finished with
# dpkg --configure -a before apt-get runs.
. "$(dirname "$0")/lib/tap.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
tap_plan 10
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fake=$tmp/bin
mkdir -p "$fake"
# Each fake logs its call; dpkg-query knows "present" only, dpkg --audit
# speaks when FAKE_AUDIT is set.
for c in apt-get dpkg dpkg-query id; do
	cat >"$fake/$c" <<-'FAKE'
	#!/bin/bash
	echo "$(basename "$0") $*" >>"$FAKE_LOG"
	case "$(basename "$0") $1" in
	"id -u") echo 0 ;;
	"dpkg-query -W") [ "$3" = present ] && printf 'install ok installed' ;;
	"dpkg --audit") [ -z "${FAKE_AUDIT:-}" ] || echo "The following packages are only half configured: foo" ;;
	esac
	exit 0
	FAKE
	chmod +x "$fake/$c"
done
printf '%s\n' '# a comment' 'present runtime' foo 'bar runtime' 'sshd test' >"$tmp/packages"
export FAKE_LOG=$tmp/log LOCKLAT_PACKAGES=$tmp/packages

PATH=$fake:$PATH "$root/tools/install-deps.sh" --check 2>"$tmp/err"
tap_is $? 1 "--check with a package missing exits 1"
tap_like "$(cat "$tmp/err")" '^missing Debian packages: foo bar$' "and names only the missing ones"
PATH=$fake:$PATH "$root/tools/install-deps.sh" --runtime --check 2>"$tmp/err"
tap_like "$?:$(cat "$tmp/err")" '^1:missing Debian packages: bar$' "--runtime: only the lines marked runtime"
tap_is "$(PATH=$fake:$PATH "$root/tools/install-deps.sh" --runtime --list | tr '\n' ' ')" "present bar " \
	"--runtime --list: the runtime packages, installed or not"
tap_is "$(PATH=$fake:$PATH "$root/tools/install-deps.sh" --list | tr '\n' ' ')" "present foo bar " "--list: every package but the tests' own"
tap_is "$(PATH=$fake:$PATH "$root/tools/install-deps.sh" --tests --list | tr '\n' ' ')" "present foo bar sshd " "--tests --list: and the tests' own"

: >"$FAKE_LOG"
PATH=$fake:$PATH "$root/tools/install-deps.sh" >/dev/null 2>&1
tap_result $? "as root it installs"
tap_like "$(grep -c 'configure' "$FAKE_LOG")" '^0$' "a clean dpkg is not reconfigured"

: >"$FAKE_LOG"
FAKE_AUDIT=1 PATH=$fake:$PATH "$root/tools/install-deps.sh" >/dev/null 2>&1
tap_result $? "after an interrupted install it installs"
tap_like "$(grep -E '^(dpkg --configure|apt-get install)' "$FAKE_LOG" | cut -d' ' -f1-2 | tr '\n' ,)" \
	'^dpkg --configure,apt-get install,$' "dpkg --configure -a runs first, then apt-get install"
tap_done
