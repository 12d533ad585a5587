# SPDX-License-Identifier: GPL-2.0
# variants.sh - the variant registry's loader: kernels/variants/ (a variant
# per file), the Kconfig fragments of kernels/configs/, the pairs that differ by
# the series alone.
#
# Usage: . "$LOCKLAT_ROOT/kernels/variants.sh"   (after lib/common.sh, which names the paths)
#
# The loader lives beside the data it reads; lib/common.sh, which every
# stage sources, holds helpers and reads no registry. It defines functions only.

# shellcheck shell=bash
# shellcheck disable=SC2034 # VARIANT_*, WORKLOAD_*: read by the scripts that source this

# known_variants: the variant names, one per line (a variant is a file).
known_variants() {
	local f
	for f in "$LOCKLAT_VARIANTS_DIR"/*; do
		[ -f "$f" ] && basename "$f"
	done
}

# matrix_variants: the variants a matrix runs by default: all but those
# whose file says matrix=no (kept for a question of their own).
matrix_variants() {
	local v
	for v in $(known_variants); do
		[ "$(kv_get "$LOCKLAT_VARIANTS_DIR/$v" matrix 2>/dev/null)" = no ] || printf '%s\n' "$v"
	done
}

# is_variant NAME: true when NAME is a variant (a file of kernels/variants/).
is_variant() {
	case $1 in '' | *[!A-Za-z0-9_-]*) return 1 ;; esac
	[ -f "$LOCKLAT_VARIANTS_DIR/$1" ]
}

# variant_load NAME: read kernels/variants/NAME into VARIANT_* variables.
variant_load() {
	local name=$1 file=$LOCKLAT_VARIANTS_DIR/$1 key value
	is_variant "$name" ||
		err_exit "unknown variant '$name'; known: $(known_variants | tr '\n' ' ')" 2
	VARIANT_DESCRIPTION='' VARIANT_PATCHES='' VARIANT_CONFIGS='' VARIANT_BOOTARGS='' VARIANT_SOURCE=debian
	while IFS='=' read -r key value; do
		case $key in
		'' | '#'*) ;;
		description) VARIANT_DESCRIPTION=$value ;;
		source) VARIANT_SOURCE=$value ;;
		patches) VARIANT_PATCHES=$value ;;
		configs) VARIANT_CONFIGS=$value ;;
		bootargs) VARIANT_BOOTARGS=$value ;;
		matrix) ;;	# run-matrix.sh's (matrix_variants)
		plot) ;;	# the plots' (variant_plot_style)
		*) err_exit "$file: unknown key '$key'" 2 ;;
		esac
	done <"$file"
	[ -n "$VARIANT_CONFIGS" ] || err_exit "$file: no configs= line" 2
}

# variant_plot_style NAME: "COLOUR POINTTYPE", the variant's in every plot:
# its file's plot= line, else one of a fixed palette chosen by the name's
# checksum (a variant an A/B run or a user added), never by its position
# in a run, so that a variant keeps its colour when another is missing.
variant_plot_style() {
	local style palette=("#000000 1" "#8C564B 2" "#7F7F7F 3" "#BCBD22 8" "#17BECF 10" "#9467BD 12" "#1F77B4 14" "#2CA02C 11")
	style=$(kv_get "$LOCKLAT_VARIANTS_DIR/$1" plot 2>/dev/null) || style=''
	if [[ ! $style =~ ^#[0-9A-Fa-f]{6}\ [0-9]+$ ]]; then
		style=${palette[$(($(printf '%s' "$1" | cksum | cut -d' ' -f1) % ${#palette[@]}))]}
	fi
	printf '%s
' "$style"
}

# equivalence_pairs: "A B" per variant A that applies LOCKLAT_SERIES and
# its variant B with the same source, configs and patches but that series: the
# pairs that differ by the series alone.
equivalence_pairs() {
	local a b p configs pa=() pb=() without=()
	for a in $(known_variants); do
		read -ra pa <<<"$(kv_get "$LOCKLAT_VARIANTS_DIR/$a" patches 2>/dev/null)"
		configs=$(kv_get "$LOCKLAT_VARIANTS_DIR/$a" configs 2>/dev/null) || continue
		without=()
		for p in "${pa[@]}"; do
			[ "$p" = "$LOCKLAT_SERIES" ] || without+=("$p")
		done
		[ "${#without[@]}" -lt "${#pa[@]}" ] || continue
		for b in $(known_variants); do
			[ "$(kv_get "$LOCKLAT_VARIANTS_DIR/$b" configs 2>/dev/null)" = "$configs" ] || continue
			[ "$(kv_get "$LOCKLAT_VARIANTS_DIR/$b" source 2>/dev/null || echo debian)" = \
				"$(kv_get "$LOCKLAT_VARIANTS_DIR/$a" source 2>/dev/null || echo debian)" ] || continue
			read -ra pb <<<"$(kv_get "$LOCKLAT_VARIANTS_DIR/$b" patches 2>/dev/null)"
			[ "${pb[*]}" = "${without[*]}" ] && printf '%s %s\n' "$a" "$b"
		done
	done
	return 0
}

# guest_max_cpus: the most vCPUs a guest can use, the guest kernel's
# CONFIG_NR_CPUS (kernels/configs/guest-base.config): a vCPU past it stays
# offline, and the cell would measure fewer CPUs than it records.
guest_max_cpus() {
	sed -n 's/^CONFIG_NR_CPUS=//p' "$LOCKLAT_CONFIGS_DIR/guest-base.config"
}
