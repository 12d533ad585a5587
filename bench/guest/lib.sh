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
