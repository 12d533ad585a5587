#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# lab.t - run-matrix.sh --hosts: cells given a host's slot by the executor's
# one scheduler, each carried there by GNU parallel over ssh.
# Without a second machine: an sshd of the test's own on a free port of
# localhost, with a host key and a client key made for it (ssh reaches it
# through PARALLEL_SSH="ssh -F <its config>"), and all three removed at the
# end. A hosts file it cannot take stops with one line before anything is
# made; lab_keep leaves out a host that lacks packages, cannot start QEMU
# or is given more cells than CPUs; a cell that comes back cut short is
# not taken into the run (lab_collect's digest check); the smoke variant's idle matrix goes to
# ":" (this machine) and 1/root@localhost (over ssh), while nobody@localhost,
# refused by the sshd, is reported once and left out; each host ran a cell,
# and the result tree has the layout of the same matrix run locally (the
# same files in every cell, the same meta keys, the same summary
# structure); a second run keeps every cell; nothing is left in the
# hosts' folders.
# shellcheck source=lib/guest.sh
. "$(dirname "$0")/lib/guest.sh"
tmp=$(mktemp -d)
sshd_pid=''
# shellcheck disable=SC2317 # the EXIT trap
cleanup() {
	[ -z "$sshd_pid" ] || kill "$sshd_pid" 2>/dev/null
	pkill -KILL -f -- "$tmp/" 2>/dev/null
	rm -rf "$tmp"
}
trap cleanup EXIT
tap_plan 33
rm_=$root/run-matrix.sh

# bad_hosts NAME WANT CONTENT [ARGS...]: --hosts with a file of CONTENT stops
# with one line matching WANT, exit 2, nothing made.
bad_hosts() {
	local name=$1 want=$2 err
	printf '%b' "$3" >"$tmp/bad-hosts"
	shift 3
	err=$("$rm_" --dry-run --hosts "$tmp/bad-hosts" "$@" --out "$tmp/never" 2>&1)
	tap_like "$?:$(printf '%s\n' "$err" | wc -l):$err" "^2:1:.*$want" "$name ($err)"
}
err=$("$rm_" --dry-run --hosts "$tmp/no-such-file" --out "$tmp/never" 2>&1)
tap_like "$?:$err" "^2:.*--hosts: cannot read $tmp/no-such-file" "--hosts: a file that is not there"
bad_hosts "--hosts: no host" "lists no host" '# only a comment\n\n'
bad_hosts "--hosts: N of 0" "bad-hosts:2: N/LOGIN wants N of 1 or more" ':\n0/root@localhost\n'
bad_hosts "--hosts: N not a number" "bad-hosts:1: want \\[N/\\]LOGIN" 'x/root@localhost\n'
bad_hosts "--hosts: a host twice" "bad-hosts:2: root@localhost is listed twice" 'root@localhost\n2/root@localhost\n'
bad_hosts "--hosts with --jobs" "--hosts and --jobs exclude each other" ':\n' --jobs 1
[ ! -e "$tmp/never" ]
tap_result $? "nothing made for bad input"

# lab_keep on made-up answers: what the probe says decides who runs cells.
keep=$(bash -c '. "$1/lib/common.sh"; . "$1/bench/host/lab.sh"
	LAB_LOGIN=(a b c d e) LAB_SLOTS=("" 4 "" "" 2) LAB_ACCEL=tcg-icount
	LAB_ANSWER[a]=$(printf "login=a\thost=ha\tcpus=8\tcpu_model=M\tmissing=\taccel.tcg-icount=ok")
	LAB_ANSWER[b]=$(printf "login=b\thost=hb\tcpus=2\tcpu_model=M\tmissing=\taccel.tcg-icount=ok")
	LAB_ANSWER[c]=$(printf "login=c\thost=hc\tcpus=8\tcpu_model=M\tmissing=rsync\taccel.tcg-icount=not tried")
	LAB_ANSWER[d]=$(printf "login=d\thost=hd\tcpus=8\tcpu_model=M\tmissing=\taccel.tcg-icount=QEMU does not start")
	LAB_ANSWER[e]=$(printf "login=e\thost=he\tcpus=4\tcpu_model=M\tmissing=\taccel.tcg-icount=ok")
	LAB_ERR="f@x: Connection refused"
	LAB_LOGIN+=(f@x) LAB_SLOTS+=("")
	lab_keep 1; printf "%s\n" "${LAB_KEPT[*]}" "${LAB_REPORT[@]}"' _ "$root" 2>&1)
tap_is "$(head -n 1 <<<"$keep")" "8/a 2/e" "lab_keep: a host without N runs one cell per CPU under tcg-icount; N kept"
tap_like "$(grep -P '^b\t' <<<"$keep")" 'left out.*4 cells x 1 host CPUs each > its 2 CPUs' "more cells than CPUs: left out"
tap_like "$(grep -P '^c\t' <<<"$keep")" 'left out.*lacks Debian packages: rsync \(tools/install-deps.sh --runtime\)' \
	"a host without a runtime package: left out, named"
tap_like "$(grep -P '^d\t' <<<"$keep")" 'left out.*QEMU does not start with --accel tcg-icount' "a host whose QEMU does not start: left out"
tap_like "$(grep -P '^f@x\t' <<<"$keep")" 'left out	no answer over ssh: f@x: Connection refused' "no answer: left out with ssh's words"
# The probe itself names what a host lacks of the runtime list.
printf 'locklat-no-such-package runtime\nbuild-only-package\n' >"$tmp/packages"
probe=$(LOCKLAT_PACKAGES=$tmp/packages "$root/bench/host/lab-probe.sh" tcg-icount)
tap_like "$probe" 'missing=locklat-no-such-package	accel.tcg-icount=not tried: packages missing$' \
	"lab-probe.sh: the runtime packages missing (not the build-only ones), QEMU not tried"

# lab_collect: a cell that came back whole moves into the run; one whose
# files differ from its host's digest (a return cut short) does not; the
# log moves in both cases.
collect=$(bash -c '. "$1/lib/common.sh"; . "$1/bench/host/lab.sh"; st=$2/stage out=$2/out
	for c in rep1 rep2; do
		mkdir -p "$st/incoming/v/w/$c" "$st/logs"
		printf "status=OK\ncomplete=1\n" >"$st/incoming/v/w/$c/meta"
		echo x >"$st/incoming/v/w/$c/console.log"
		echo log >"$st/logs/v-w-$c.log"
	done
	whole=$(cell_digest "$st/incoming/v/w/rep1")
	cut=$(cell_digest "$st/incoming/v/w/rep2")
	rm "$st/incoming/v/w/rep2/console.log"
	lab_collect "$st" "$out" v/w/rep1 "$whole"
	lab_collect "$st" "$out" v/w/rep2 "$cut"
	{ ls "$out/cells/v/w"; ls "$out/logs"; } | tr "\n" " "' _ "$root" "$tmp/collect" 2>"$tmp/collect.err")
tap_like "$collect" '^rep1 v-w-rep1.log v-w-rep2.log $' "lab_collect: the whole cell moves in, the cut one does not; both logs do"
tap_like "$(cat "$tmp/collect.err")" 'v/w/rep2 came back incomplete' "and the cut one is named"
[ -d "$tmp/collect/stage/incoming/v/w/rep2" ]
tap_result $? "it stays out of the run (redone on resume)"

# --- over ssh ----------------------------------------------------------
if [ "$(id -u)" -ne 0 ] || [ ! -x /usr/sbin/sshd ] || ! command -v parallel >/dev/null; then
	for ((i = 0; i < 17; i++)); do tap_result 0 "# SKIP needs root, sshd and GNU parallel (tools/install-deps.sh --tests)"; done
	tap_done
	exit 0
fi
"$root/kernels/build.sh" "$variant" >"$tmp/build.log" 2>&1
tap_result $? "kernels/build.sh $variant"

# An sshd of the test's own: keys made here, root alone let in, on the
# first free port of a few. sshd returns once it listens.
ssh-keygen -q -t ed25519 -N '' -f "$tmp/host_key" && ssh-keygen -q -t ed25519 -N '' -f "$tmp/client_key"
cp "$tmp/client_key.pub" "$tmp/authorized_keys"
mkdir -p /run/sshd
for port in 42201 42202 42203 42204 42205; do
	/usr/sbin/sshd -f /dev/null -o "ListenAddress=127.0.0.1:$port" -o "HostKey=$tmp/host_key" \
		-o "AuthorizedKeysFile=$tmp/authorized_keys" -o "PidFile=$tmp/sshd.pid" -o AllowUsers=root \
		-o PermitRootLogin=prohibit-password -o PasswordAuthentication=no -o KbdInteractiveAuthentication=no \
		-o StrictModes=no -o UsePAM=no -E "$tmp/sshd.log" && break
done
sshd_pid=$(cat "$tmp/sshd.pid" 2>/dev/null)
cat >"$tmp/ssh_config" <<EOF
Host localhost
  Port $port
  IdentityFile $tmp/client_key
  UserKnownHostsFile $tmp/known_hosts
  StrictHostKeyChecking accept-new
  BatchMode yes
  ConnectTimeout 20
EOF
export PARALLEL_SSH="ssh -F $tmp/ssh_config"
$PARALLEL_SSH root@localhost true
tap_result $? "an sshd of the test's own on localhost:$port takes the test's key"

printf '1/:\n1/root@localhost\n1/nobody@localhost\n' >"$tmp/hosts"
args=(--variants "$variant" --workloads idle --reps 1 --duration 1 --trace-duration 1 --warmup 1)
plan=$("$rm_" --dry-run --hosts "$tmp/hosts" "${args[@]}" --out "$tmp/lab" 2>&1)
tap_like "$(grep -c '^  host: .*kept' <<<"$plan"):$(grep -m1 '^  host: .*nobody' <<<"$plan")" \
	'^2:  host: +nobody@localhost: left out \(no answer over ssh: .*Permission denied' \
	"the plan: two hosts kept, the one the sshd refuses left out with ssh's words"
tap_like "$(grep 'pass:' <<<"$plan")" '2 cell\(s\) at once' "one cell at a time on each of the two"
if [ "$("$root/bench/host/qemu.sh" --detect-accel)" = kvm ]; then
	tap_result 0 "# SKIP this host has KVM: --accel kvm would keep it"
else
	err=$("$rm_" --dry-run --hosts "$tmp/hosts" "${args[@]}" --accel kvm --out "$tmp/never" 2>&1)
	tap_like "$?:$(grep -c 'QEMU does not start with --accel kvm' <<<"$err"):$(tail -n 1 <<<"$err")" \
		"^1:2:.*no host of $tmp/hosts can run cells" "--accel kvm on hosts without it: each left out, saying why; no run"
fi

"$rm_" --hosts "$tmp/hosts" "${args[@]}" --out "$tmp/lab" >"$tmp/lab.log" 2>&1
tap_result $? "a lab run finishes$(tail -n 1 "$tmp/lab.log" | sed 's/^/: /')"
tap_is "$(grep -c 'warning: host nobody@localhost left out' "$tmp/lab.log")" 1 "the refused host is reported once"
hosts_ran=$(awk -F'\t' 'NR > 1 && $7 == 0 { print $2 }' "$tmp/lab/logs/lab-joblog" | sort -u | tr '\n' ' ')
tap_is "$hosts_ran" ": root@localhost " "each host ran a cell (parallel's job log)"
tap_is "$(cat "$tmp/lab/cells/$variant"/idle/*/meta | grep -c '^complete=1$')" 2 "both cells are in the run's tree, complete"
tap_is "$(grep -h '^accel=\|^host=' "$tmp/lab/cells/$variant"/idle/*/meta | sort -u | tr '\n' ' ')" \
	"accel=tcg-icount host=$(uname -n) " "each cell records its accelerator and its host"
tap_like "$(cut -f1,2 "$tmp/lab/hosts" | tr '\t\n' ': ')" '^::kept root@localhost:kept nobody@localhost:left out $' \
	"DIR/hosts records what became of each host"
[ ! -e "$tmp/lab/.lab" ] && [ -z "$(ls -A "$HOME/.locklat-lab" 2>/dev/null)" ]
tap_result $? "nothing left in the staging folder or the remote host's folder"

# The same matrix on this machine alone: the same layout.
"$rm_" "${args[@]}" --out "$tmp/local" >"$tmp/local.log" 2>&1
tap_result $? "the same matrix run locally"
# layout DIR: every file of every cell, and every meta key, by cell.
layout() {
	(cd "$1/cells" && find "$variant" -type f | sort)
	for m in "$1/cells/$variant"/idle/*/meta; do
		printf '%s: %s\n' "${m#"$1/cells/"}" "$(cut -d= -f1 "$m" | tr '\n' ' ')"
	done
}
diff <(layout "$tmp/local") <(layout "$tmp/lab") >"$tmp/layout.diff"
tap_result $? "the cells' files and meta keys are the local run's$(head -n 3 "$tmp/layout.diff" | tr '\n' ' ' | sed 's/^./: &/')"
# structure FILE: summary.json's paths, without array indices or values.
structure() { jq -c '[paths | map(if type == "number" then 0 else . end)] | unique' "$1"; }
tap_is "$(structure "$tmp/lab/summary.json")" "$(structure "$tmp/local/summary.json")" "summary.json has the local run's structure"
tap_is "$(grep '^##' "$tmp/lab/summary.md")" "$(grep '^##' "$tmp/local/summary.md")" "summary.md has the local run's sections"

"$rm_" --hosts "$tmp/hosts" "${args[@]}" --out "$tmp/lab" >"$tmp/again.log" 2>&1
tap_like "$?:$(grep -c 'kept (OK)' "$tmp/again.log")" '^0:2$' "run again: both cells kept, wherever they ran"
tap_done
