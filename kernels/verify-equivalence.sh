#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# verify-equivalence.sh - does the local_lock conversion change the generated code?
#
# Usage: kernels/verify-equivalence.sh [A B]
#        kernels/verify-equivalence.sh --pairs
# Without A B: every pair of variants that differ by the series alone (the
# same configs, the same patches but LOCKLAT_SERIES, local-lock): local_lock
# and baseline, rt and baseline-rt, and any variant added so. --pairs prints
# them ("A B" lines) and builds nothing. The objects compared are those of
# the .c files the series' patches change.
#
# The series claims "no change in the generated binary code for non
# PREEMPT_RT enabled non-debug kernels". This compares, function by function,
# the disassembly of the objects the series touched in two built variants
# (objdump -dr, addresses and jump offsets masked, so that only instructions,
# operands and relocation targets count). For the non-RT pair it tests the
# claim; for rt vs baseline-rt it shows what PREEMPT_RT changes. A function
# is "identical", "same code" (only a relocation's symbol name differs: a
# static per-CPU variable is referenced through its section, a global one by
# name) or "differs" (instructions differ).
# Writes build/equivalence/A-vs-B.txt (the report) and prints one line per
# object, one on the two .config files, and one on the cache: each object is
# compiled again without ccache and must match the shared build byte for byte.
# Exit: 0 report written (differences are findings, listed), 1 error, 2 bad usage.

set -euo pipefail
. "$(dirname "$0")/../lib/common.sh"
# shellcheck source=kernels/variants.sh
. "$LOCKLAT_ROOT/kernels/variants.sh"
# shellcheck source=sources.sh
. "$LOCKLAT_ROOT/kernels/sources.sh"

case ${1:-} in
-h | --help) usage_from_header "$0"; exit 0 ;;
--pairs) equivalence_pairs; exit 0 ;;
'')
	# Each pair in a process of its own: one report, one trap each.
	mapfile -t pairs < <(equivalence_pairs)
	[ "${#pairs[@]}" -gt 0 ] || err_exit "no two variants differ by $LOCKLAT_SERIES alone" 1
	for pair in "${pairs[@]}"; do
		# shellcheck disable=SC2086 # "A B": two words on purpose
		"$0" $pair || exit
	done
	exit 0 ;;
-*) err_exit "unknown option '$1' (see --help)" 2 ;;
esac
[ $# -eq 2 ] || err_exit "want two variants, A and B, or none (see --help)" 2
a=$1 b=$2
mapfile -t objects < <(series_sources "$LOCKLAT_SERIES" | sed 's/\.c$/.o/')

for v in "$a" "$b"; do
	is_variant "$v" || err_exit "unknown variant '$v'; known: $(known_variants | tr '\n' ' ')" 2
done
for v in "$a" "$b"; do
	# The objects, current with the variant's configuration and patches
	# (a no-op when they are; the whole kernel is not needed).
	"$LOCKLAT_ROOT/kernels/build.sh" --only "${objects[*]}" "$v" >/dev/null ||
		err_exit "building the objects of $v failed (log: $(kernel_path "$v")/build.log)"
done
command -v objdump >/dev/null || err_exit "objdump not found (binutils)"

# uncached_check: the objects came from a build that shares ccache with
# every other kernel (kernels/build.sh). Compile each once more with ccache
# off, in the same tree and objdir (the same command line), and require the
# same bytes: sharing must not change what is measured.
uncached_check() {
	local v o dir n=0
	for v in "$a" "$b"; do
		dir=$(kernel_objdir "$v")
		for o in "${objects[@]}"; do
			mv "$dir/$o" "$tmp/cached-$v-${o//\//_}"
		done
		CCACHE_DISABLE=1 "$LOCKLAT_ROOT/kernels/build.sh" --only "${objects[*]}" "$v" >/dev/null ||
			err_exit "compiling the objects of $v without ccache failed (log: $(kernel_path "$v")/build.log)"
		for o in "${objects[@]}"; do
			cmp -s "$dir/$o" "$tmp/cached-$v-${o//\//_}" ||
				err_exit "$v: $o from the shared build differs from a compile without ccache"
			n=$((n + 1))
		done
	done
	echo "cache: $n objects byte-identical to a compile without ccache"
}

# disasm OBJECT: "function<TAB>normalised instruction" lines.
disasm() {
	objdump -dr --no-show-raw-insn "$1" | awk '
		/^[0-9a-f]+ <.*>:$/ { fn = $2; gsub(/[<>:]/, "", fn); next }
		fn == "" { next }
		/^[[:space:]]*[0-9a-f]+:/ {
			line = $0
			sub(/^[[:space:]]*[0-9a-f]+:[[:space:]]*/, "", line)
			# Jump and call targets: keep the symbol, drop the offset.
			gsub(/[0-9a-f]+ <[^>]*>/, "<target>", line)
			gsub(/-?0x[0-9a-f]+\(%rip\)/, "X(%rip)", line)
			# Relocations: keep the type and symbol.
			gsub(/[+-]0x[0-9a-f]+$/, "", line)
			gsub(/[[:space:]]+/, " ", line)
			print fn "\t" line
		}'
}

out_dir=$LOCKLAT_BUILD/equivalence
mkdir -p "$out_dir"
report=$out_dir/$a-vs-$b.txt
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
{
	echo "# $a vs $b: per-function disassembly of the converted objects"
	echo "# objects of build/kernels/$a and build/kernels/$b, objdump $(objdump --version | awk 'NR == 1 { print $NF }')"
} >"$report"
# The two kernels differ by their patches alone when their .config is the
# same (the non-RT pair and the RT pair each share one configuration).
if cmp -s "$(kernel_objdir "$a")/.config" "$(kernel_objdir "$b")/.config"; then
	line="configuration: the same .config (sha256 $(sha256_of "$(kernel_objdir "$a")/.config" | cut -c1-16)); only the patches differ"
else
	line="configuration: the .config files differ"
fi
echo "$line"
echo "$line" >>"$report"
line=$(uncached_check)
echo "$line"
echo "$line" >>"$report"
for obj in "${objects[@]}"; do
	for v in "$a" "$b"; do
		[ -f "$(kernel_objdir "$v")/$obj" ] || err_exit "$v: $obj not built (is its config option on?)"
		disasm "$(kernel_objdir "$v")/$obj" >"$tmp/$v"
	done
	mapfile -t fns < <(cut -f1 "$tmp/$a" "$tmp/$b" | sort -u)
	same=0 relocs=() differ=()
	for fn in "${fns[@]}"; do
		awk -F'\t' -v f="$fn" '$1 == f { print $2 }' "$tmp/$a" >"$tmp/fa"
		awk -F'\t' -v f="$fn" '$1 == f { print $2 }' "$tmp/$b" >"$tmp/fb"
		if cmp -s "$tmp/fa" "$tmp/fb"; then
			same=$((same + 1))
		elif cmp -s <(grep -v '^R_X86_64' "$tmp/fa") <(grep -v '^R_X86_64' "$tmp/fb"); then
			relocs+=("$fn")
		else
			differ+=("$fn")
			{ echo "--- $fn ($a < > $b)"; diff "$tmp/fa" "$tmp/fb" || true; } >>"$tmp/diffs"
		fi
	done
	line="$obj: ${#fns[@]} functions: $same identical, ${#relocs[@]} same code${relocs[*]:+ (${relocs[*]})}, ${#differ[@]} differ${differ[*]:+ (${differ[*]})}"
	echo "$line"
	echo "$line" >>"$report"
done
[ -f "$tmp/diffs" ] && cat "$tmp/diffs" >>"$report"
progress equivalence "report: $report"
