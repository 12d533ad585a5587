# SPDX-License-Identifier: GPL-2.0
# lib.sh - what the guest's init and its setup scripts share (busybox sh):
# logging to the kernel log, which the host reads on the console, and finding
# a virtio disk by the serial the host gave it (bench/host/run-cell.sh).
#
# Usage: . /lib/locklat/lib.sh (in the guest image, by bench/guest/mkinitramfs.sh)

# shellcheck shell=sh

log() {
	echo "locklat: $*" >/dev/kmsg
}

# disk_by_serial SERIAL: the /dev node of the virtio disk with that serial.
disk_by_serial() {
	for d in /sys/block/vd*; do
		[ -r "$d/serial" ] || continue
		if [ "$(cat "$d/serial")" = "$1" ]; then
			echo "/dev/${d##*/}"
			return 0
		fi
	done
	return 1
}

# latency_pass_max FILE: the largest "# Max Latencies:" value of cyclictest's
# text summary FILE, in us (nothing when it has none). cyclictest pads the
# fields with zeros ("04053") and busybox awk reads a leading 0 as octal:
# the zeros go before the number is read.
latency_pass_max() {
	awk '/^# Max Latencies:/ {
		for (i = 4; i <= NF; i++) {
			v = $i
			sub(/^0+/, "", v)
			if (v == "") v = 0
			if (v + 0 > m + 0) m = v + 0
			seen = 1
		}
	} END { if (seen) print m + 0 }' "$1" 2>/dev/null
}

# descendants PID: every live process below PID, deepest last.
descendants() {
	for s in /proc/[0-9]*/stat; do
		{ read -r st <"$s"; } 2>/dev/null || continue
		r=${st##*) }
		r=${r#* }
		[ "${r%% *}" = "$1" ] || continue
		p=${st%% *}
		echo "$p"
		descendants "$p"
	done
}

# tree_kill PID: SIGKILL to PID and everything below it.
tree_kill() {
	for p in $(descendants "$1") "$1"; do
		kill -KILL "$p" 2>/dev/null
	done
}
