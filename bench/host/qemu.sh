#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# qemu.sh - boot a kernel in QEMU with pinned vCPUs, a watchdog and a captured console.
#
# Usage: bench/host/qemu.sh --kernel BZIMAGE --initrd IMAGE --out DIR [options]
#        bench/host/qemu.sh --detect-accel
#        bench/host/qemu.sh --help
#   --accel A        auto (default), kvm, tcg-icount or tcg (multi-threaded TCG)
#   --append ARGS    extra kernel command line
#   --cpus N         vCPUs (default 2)
#   --pin LIST       host CPUs for the vCPU threads, comma-separated (default 0..N-1)
#   --allow-overcommit  allow more vCPUs than host CPUs to pin to
#   --mem MIB        guest memory (default 512)
#   --disk SERIAL=FILE[:ro]  a raw virtio-blk disk the guest finds by serial (repeatable)
#   --deadline S     wall seconds before the watchdog kills QEMU (default 300)
#   --boot-deadline S  wall seconds for the first console output (default 120)
#   --print-cmdline  print the QEMU command these options make (shell-quoted,
#                    the QMP socket as <qmp-socket>) and exit: nothing starts
#   --silence S      kill QEMU when S wall seconds pass without a console line
#                    of the guest's init ("locklat: ...", which logs a heartbeat)
#                    (default: never): its userspace stopped (a clock that stopped,
#                    a wedged kernel that still prints RCU stall warnings)
#
# Writes into DIR: console.log, qemu-cmdline (the exact command, shell-quoted, to
# re-run by hand), qemu-version, accel, pinning ("vcpu thread host_cpu" lines),
# qemu-exit (ok, timeout, no-boot, silent or error).
# Exit: 0 QEMU ended by itself, 3 watchdog timeout, 4 no kernel output by the boot
# deadline, 5 the guest's init silent for --silence seconds, 6 the guest declared
# one of its steps hung and was still running LOCKLAT_HUNG_GRACE_S (30) wall
# seconds later (its poweroff did not finish), 2 bad usage, 70 QEMU failed to
# start or to be pinned.

set -euo pipefail
. "$(dirname "$0")/../../lib/common.sh"

QMP=$LOCKLAT_BUILD/bin/locklat-qmp

# accel_detect: kvm only where the CPU has hardware virtualisation and
# /dev/kvm opens; a /dev/kvm without vmx/svm is a software KVM that cannot
# run an unmodified kernel, so it is not even tried.
accel_detect() {
	if grep -Eqw 'vmx|svm' /proc/cpuinfo && [ -r /dev/kvm ] && [ -w /dev/kvm ]; then
		echo kvm
	else
		echo tcg-icount
	fi
}

accel_args() {
	case $1 in
	kvm) echo "-accel kvm -cpu host" ;;
	# One TCG thread; 1 ns of guest time per instruction, no idle skipping,
	# guest RTC on virtual time: host noise does not reach the guest clock.
	tcg-icount) echo "-accel tcg -icount shift=0,sleep=off -rtc clock=vm" ;;
	tcg) echo "-accel tcg,thread=multi" ;;
	esac
}

case ${1:-} in -h | --help) usage_from_header "$0"; exit 0 ;; esac
if [ "${1:-}" = --detect-accel ]; then
	accel_detect
	exit 0
fi
# --check-accel A: QEMU starts with accelerator A (a machine made, its vCPUs
# never run, ended over QMP on stdin): what a lab host is probed for before
# any cell is sent to it (bench/host/lab-probe.sh).
if [ "${1:-}" = --check-accel ]; then
	[ $# -eq 2 ] || err_exit "usage: qemu.sh --check-accel kvm|tcg-icount|tcg" 2
	case $2 in kvm | tcg-icount | tcg) ;; *) err_exit "unknown accelerator '$2' (kvm, tcg-icount, tcg)" 2 ;; esac
	command -v qemu-system-x86_64 >/dev/null || err_exit "qemu-system-x86_64 not found (qemu-system-x86)" 70
	[ "$2" != kvm ] || [ "$(accel_detect)" = kvm ] ||
		err_exit "no KVM here: the CPU has no vmx/svm flag, or /dev/kvm is not usable" 70
	# shellcheck disable=SC2046 # accel_args returns words on purpose
	if ! err=$(printf '%s\n' '{"execute":"qmp_capabilities"}' '{"execute":"quit"}' |
		timeout 60 qemu-system-x86_64 -machine pc -m 64 -S -display none -nodefaults -nic none \
			-qmp stdio $(accel_args "$2") 2>&1 >/dev/null); then
		err_exit "QEMU does not start with --accel $2: $(printf '%s\n' "$err" | head -n 1)" 70
	fi
	exit 0
fi

kernel='' initrd='' out='' accel=auto append='' cpus=2 pin='' mem=512
deadline=300 boot_deadline=120 silence=0 overcommit=0 print_only=0
disks=()
while [ $# -gt 0 ]; do
	case $1 in
	--kernel) kernel=$2 ;;
	--initrd) initrd=$2 ;;
	--out) out=$2 ;;
	--accel) accel=$2 ;;
	--append) append=$2 ;;
	--cpus) cpus=$2 ;;
	--pin) pin=$2 ;;
	--mem) mem=$2 ;;
	--disk) disks+=("$2") ;;
	--deadline) deadline=$2 ;;
	--boot-deadline) boot_deadline=$2 ;;
	--silence) silence=$2 ;;
	--allow-overcommit) overcommit=1; shift; continue ;;
	--print-cmdline) print_only=1; shift; continue ;;
	*) err_exit "unknown option '$1'" 2 ;;
	esac
	[ $# -ge 2 ] || err_exit "$1 needs a value" 2
	shift 2
done

if [ -z "$kernel" ] || [ -z "$initrd" ] || [ -z "$out" ]; then
	err_exit "--kernel, --initrd and --out are required" 2
fi
[ -f "$kernel" ] || err_exit "kernel image $kernel not found (make kernels)" 2
[ -f "$initrd" ] || err_exit "initramfs $initrd not found" 2
positive_int cpus "$cpus"
positive_int mem "$mem"
positive_int deadline "$deadline"
positive_int boot-deadline "$boot_deadline"
[ "$silence" = 0 ] || positive_int silence "$silence"
[ "$accel" = auto ] && accel=$(accel_detect)
case $accel in kvm | tcg-icount | tcg) ;; *) err_exit "unknown accelerator '$accel' (auto, kvm, tcg-icount, tcg)" 2 ;; esac
[ -x "$QMP" ] || err_exit "$QMP not built: run 'make tools'" 70

host_cpus=$(nproc)
if [ -z "$pin" ]; then
	pin=$(seq -s, 0 $((cpus - 1)))
fi
IFS=, read -r -a pin_list <<<"$pin"
for c in "${pin_list[@]}"; do
	case $c in '' | *[!0-9]*) err_exit "--pin wants host CPU numbers, got '$pin'" 2 ;; esac
	[ "$c" -lt "$host_cpus" ] || err_exit "--pin: host CPU $c does not exist (host has $host_cpus)" 2
done
if [ "$cpus" -gt "${#pin_list[@]}" ] && [ "$overcommit" -eq 0 ]; then
	err_exit "$cpus vCPUs but only ${#pin_list[@]} host CPUs to pin to ($pin); use --allow-overcommit to share" 2
fi

qmp_sock='<qmp-socket>'
[ "$print_only" -eq 1 ] || qmp_sock=$(mktemp -u "${TMPDIR:-/tmp}/locklat-qmp.XXXXXX")
cmd=(qemu-system-x86_64 -machine pc -m "$mem" -smp "$cpus" -S
	-display none -monitor none -nic none -no-reboot
	-serial "file:$out/console.log"
	-qmp "unix:$qmp_sock,server=on,wait=off"
	-kernel "$kernel" -initrd "$initrd"
	-append "console=ttyS0 panic=-1 loglevel=5${append:+ $append}")
# shellcheck disable=SC2207 # accel_args returns words on purpose
cmd+=($(accel_args "$accel"))
for d in "${disks[@]}"; do
	serial=${d%%=*} file=${d#*=} ro=off
	case $file in *:ro) file=${file%:ro} ro=on ;; esac
	[ -f "$file" ] || err_exit "disk image $file not found" 2
	cmd+=(-drive "file=$file,format=raw,if=none,id=$serial,readonly=$ro"
		-device "virtio-blk-pci,drive=$serial,serial=$serial")
done

if [ "$print_only" -eq 1 ]; then
	printf '%q ' "${cmd[@]}"
	echo
	exit 0
fi
mkdir -p "$out"
printf '%q ' "${cmd[@]}" >"$out/qemu-cmdline"
echo >>"$out/qemu-cmdline"
qemu-system-x86_64 --version | head -n 1 >"$out/qemu-version"
echo "$accel" >"$out/accel"
: >"$out/console.log"

# QEMU dies with this script, even when it is killed by SIGKILL and its
# EXIT trap does not run (run-cell.sh starts this script the same way).
setpriv --pdeathsig KILL -- "${cmd[@]}" 2>"$out/qemu-stderr" &
qemu_pid=$!
# shellcheck disable=SC2317 # called from the EXIT trap
cleanup() {
	kill -KILL "$qemu_pid" 2>/dev/null || true
	rm -f "$qmp_sock"
}
trap cleanup EXIT
trap 'exit 130' INT TERM

# vcpus_pin: every vCPU thread QMP names to its host CPU, before the guest runs
# (QEMU was started with -S). Single-threaded TCG runs all vCPUs on one
# thread: that thread goes to the first CPU of --pin. The pinning file
# records the affinity each thread really has afterwards.
vcpus_pin() {
	local idx tid host actual
	declare -A pinned=()
	: >"$out/pinning"
	while read -r idx tid; do
		if [ -z "${pinned[$tid]:-}" ]; then
			host=${pin_list[$((idx % ${#pin_list[@]}))]}
			taskset -pc "$host" "$tid" >/dev/null || return 1
			pinned[$tid]=$host
		fi
		actual=$(taskset -pc "$tid" | sed -n 's/.*current affinity list: //p')
		echo "$idx $tid $actual" >>"$out/pinning"
	done < <("$QMP" --timeout 20 "$qmp_sock" query-cpus-fast)
	[ -s "$out/pinning" ]
}
if ! vcpus_pin; then
	echo error >"$out/qemu-exit"
	sed 's/^/qemu: /' "$out/qemu-stderr" >&2
	err_exit "could not start and pin QEMU (see $out/qemu-stderr)" 70
fi
"$QMP" "$qmp_sock" cont >/dev/null || err_exit "QMP cont failed" 70

# watchdog: poll until QEMU ends, the deadline passes, the boot deadline
# passes with no kernel output (a KVM that cannot run the guest says nothing),
# or, with --silence, the guest's init logs nothing for that long. Only the
# console bytes that are new since the last poll are read.
t0=$SECONDS
result=ok
console_size=0 init_spoke=0 hung_at=''
# A guest that declared a step hung has flushed its results and asked for
# poweroff; one still running this long after that will not end by itself
# (a wedged kernel, a poweroff that never completes).
hung_grace=${LOCKLAT_HUNG_GRACE_S:-30}
while kill -0 "$qemu_pid" 2>/dev/null; do
	now=$((SECONDS - t0))
	if [ "$now" -ge "$deadline" ]; then
		result=timeout
		break
	fi
	size=$(stat -c %s "$out/console.log")
	if [ "$size" -gt "$console_size" ]; then
		# From 200 bytes back, so that a line split between two polls is read whole.
		from=$(( console_size > 200 ? console_size - 199 : 1 ))
		# tail meets SIGPIPE when the console grew since stat and head
		# stops first: not an error (set -e and pipefail would end the
		# watchdog, and QEMU with it, without a word in qemu-exit).
		chunk=$(tail -c +"$from" "$out/console.log" | head -c "$((size - from + 1))" || true)
		case $chunk in *'locklat: '*) init_spoke=$now ;; esac
		if [ -z "$hung_at" ] && grep -q 'locklat: step [a-z.0-9]*: hung, powering off' <<<"$chunk"; then
			hung_at=$now
		fi
		console_size=$size
	fi
	if [ -n "$hung_at" ] && [ $((now - hung_at)) -ge "$hung_grace" ]; then
		result=hung
		break
	fi
	if [ "$now" -ge "$boot_deadline" ] && [ "$size" -eq 0 ]; then
		result=no-boot
		break
	fi
	if [ "$silence" -gt 0 ] && [ $((now - init_spoke)) -ge "$silence" ]; then
		result=silent
		break
	fi
	sleep 0.5
done
if [ "$result" = ok ]; then
	wait "$qemu_pid" || result=error
else
	kill -KILL "$qemu_pid" 2>/dev/null || true
	wait "$qemu_pid" 2>/dev/null || true
fi
echo "$result" >"$out/qemu-exit"
case $result in
ok) exit 0 ;;
timeout) warn "watchdog: QEMU still running after ${deadline} s, killed"; exit 3 ;;
silent) warn "watchdog: no line of the guest's init for ${silence} s, QEMU killed"; exit 5 ;;
hung) warn "watchdog: the guest declared a step hung and was still running ${hung_grace} s later, QEMU killed"; exit 6 ;;
no-boot)
	msg="no kernel output within ${boot_deadline} s under $accel"
	[ "$accel" = kvm ] && ! grep -Eqw 'vmx|svm' /proc/cpuinfo &&
		msg="$msg: this host CPU has no vmx/svm, so /dev/kvm is a software KVM that cannot run the guest; use --accel tcg-icount"
	warn "$msg"
	exit 4 ;;
*) sed 's/^/qemu: /' "$out/qemu-stderr" >&2; err_exit "QEMU failed (see $out/qemu-stderr)" 70 ;;
esac
