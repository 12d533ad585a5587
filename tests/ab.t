#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# ab.t - ./run-matrix.sh --ab TREE@BASE..TIP on a copy of the tree whose
# stages are fakes (tests/lib/fake-tree.sh): a scratch git tree shaped like a
# kernel (a Makefile, kernel/Kconfig.preempt with PREEMPT_RT) and a range of
# two commits. Bad input stops with one line before anything is made; the
# plan takes the five A/B variants; a run keeps what it was made of in
# DIR/ab/ (variants pinned to commit ids, comparisons, the series, the
# functions the diff changes as verify targets and call sites), checks
# the binary equivalence of each pair the range alone separates, and its
# summary has their columns, the question tip-rt vs base-rt, and a
# reviewer's verdict quoting the equivalence; resuming with another range is
# refused. The real
# kernels of such variants are sources.t's.
. "$(dirname "$0")/lib/tap.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
[ -x "$root/build/bin/locklat-summary" ] || tap_skip_all "tools not built (make tools)"
command -v git >/dev/null || tap_skip_all "no git (make deps)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tap_plan 42
export GIT_AUTHOR_NAME=locklat GIT_AUTHOR_EMAIL=locklat@localhost \
	GIT_COMMITTER_NAME=locklat GIT_COMMITTER_EMAIL=locklat@localhost
# shellcheck source=lib/fake-tree.sh
. "$root/tests/lib/fake-tree.sh"
copy=$tmp/tree
fake_tree "$copy"
rm_=$copy/run-matrix.sh

# A tree shaped like a kernel, and a change of two commits on top of it.
linux=$tmp/linux
mkdir -p "$linux/kernel" "$linux/lib"
printf 'VERSION = 6\nPATCHLEVEL = 12\n' >"$linux/Makefile"
printf 'config PREEMPT\n\tbool\n\nconfig PREEMPT_RT\n\tbool\n' >"$linux/kernel/Kconfig.preempt"
printf 'int f(void)\n{\n\treturn 0;\n}\n' >"$linux/lib/f.c"
git -C "$linux" init -q && git -C "$linux" add -A && git -C "$linux" commit -q -m base && git -C "$linux" tag v6.12
sed -i 's/return 0/return 1/' "$linux/lib/f.c" && git -C "$linux" commit -qam "lib: one"
printf 'int g(void)\n{\n\treturn 2;\n}\n' >>"$linux/lib/f.c" && git -C "$linux" commit -qam "lib: two"
base=$(git -C "$linux" rev-parse v6.12) tip=$(git -C "$linux" rev-parse HEAD)

# bad SPEC WANT NAME: --ab SPEC stops with one line matching WANT, exit 2.
bad() {
	local err
	err=$("$rm_" --dry-run --ab "$1" --out "$tmp/never" 2>&1)
	tap_like "$?:$(printf '%s\n' "$err" | wc -l):$err" "^2:1:.*$2" "$3 ($err)"
}
bad "$tmp/nowhere@v6.12..HEAD" "is not a git tree" "--ab: not a git tree"
bad "$linux@v6.12..nope" "has no commit 'nope'" "--ab: a ref that does not exist"
bad "$linux@HEAD..HEAD" "the range has no commits" "--ab: an empty range"
bad "$linux" "wants BASE..TIP" "--ab: no range"
# A git user's forms: -C TREE, or the current directory; one tree only;
# a mail series needs its base, and a base its series.
# bad_args WANT NAME ARG...: run-matrix.sh --dry-run ARG... stops with one line matching WANT, exit 2.
bad_args() {
	local want=$1 name=$2 err
	shift 2
	err=$("$rm_" --dry-run --out "$tmp/never" "$@" 2>&1)
	tap_like "$?:$(printf '%s\n' "$err" | wc -l):$err" "^2:1:.*$want" "$name ($err)"
}
bad_args "names its tree, and so does -C" "--ab TREE@RANGE with -C: two trees" -C "$linux" --ab "$linux@v6.12..HEAD"
bad_args "needs --ab-base" "--ab-mbox without --ab-base" --ab-mbox /dev/null
bad_args "needs --ab-mbox" "--ab-base without --ab-mbox" --ab-base v6.12 -C "$linux"
bad_args "give one" "--ab and --ab-mbox together" --ab v6.12..HEAD --ab-mbox /dev/null --ab-base v6.12
bad_args "-C names the tree of --ab" "-C alone" -C "$linux"
printf 'not a mail\n' >"$tmp/not.mbox"
bad_args "not an mbox" "--ab-mbox: not an mbox" --ab-mbox "$tmp/not.mbox" --ab-base v6.12 -C "$linux"
git -C "$linux" format-patch -q --stdout v6.12..HEAD >"$tmp/series.mbox"
git -C "$linux" format-patch -q --stdout HEAD~1..HEAD >"$tmp/second.mbox"
bad_args "'lib: two' does not apply onto" "--ab-mbox: a series that does not apply onto its base" \
	--ab-mbox "$tmp/second.mbox" --ab-base v6.12 -C "$linux"
plan=$(cd "$linux" && "$rm_" --dry-run --ab v6.12..HEAD --workloads idle --out "$tmp/never" 2>&1)
tap_like "$plan" "variants: +ab-base ab-base-rt ab-tip ab-tip-lockdep ab-tip-rt\$" \
	"--ab BASE..TIP from inside the tree: the tree is the current directory"
plan=$("$rm_" --dry-run --ab -C "$linux" v6.12..HEAD --workloads idle --out "$tmp/never" 2>&1)
tap_like "$plan" "variants: +ab-base ab-base-rt ab-tip ab-tip-lockdep ab-tip-rt\$" "--ab -C TREE BASE..TIP, git's order"
# A mail series: applied onto its base in a scratch repository that borrows
# the tree's objects; the tree gains nothing.
objects=$(git -C "$linux" count-objects -v | sed -n 's/^\(count\|in-pack\): //p' | paste -sd+)
plan=$("$rm_" --dry-run --ab-mbox "$tmp/series.mbox" --ab-base v6.12 -C "$linux" --workloads idle --out "$tmp/never" 2>&1)
tap_like "$plan" "variants: +ab-base ab-base-rt ab-tip ab-tip-lockdep ab-tip-rt\$" "--ab-mbox FILE --ab-base REF: the plan"
stip=$(find "$copy/build/ab-trees" -mindepth 2 -maxdepth 2 -name locklat-tip)
scratch=$(dirname "$stip")/repo.git stip=$(cat "$stip")
tap_is "$(git -C "$scratch" rev-parse "$stip^{tree}"):$(git -C "$scratch" log --format='%an %s' "$base..$stip" | paste -sd,)" \
	"$(git -C "$linux" rev-parse "HEAD^{tree}"):locklat lib: two,locklat lib: one" \
	"the mbox's messages are commits on the base, as git am makes them (the same tree as the original range)"
tap_is "$(git -C "$linux" count-objects -v | sed -n 's/^\(count\|in-pack\): //p' | paste -sd+):$(git -C "$linux" status --porcelain)" \
	"$objects:" "the user's tree is only read"
# Reach, before the run: which workloads' targets or call sites hold a
# function the range changes; none, said up front with who might.
tap_like "$(printf '%s\n' "$plan" | grep -A1 '^  reach:')" \
	"no chosen workload reaches a function the range changes \(f, g\): no workload of workloads/ does; --targets" \
	"reach: a range no workload reaches is said up front, with --targets"
swap=$tmp/swap
mkdir -p "$swap/kernel" "$swap/mm"
cp "$linux/Makefile" "$swap/" && cp "$linux/kernel/Kconfig.preempt" "$swap/kernel/"
printf 'static void lru_add(int x)\n{\n\tx++;\n}\n' >"$swap/mm/swap.c"
git -C "$swap" init -q && git -C "$swap" add -A && git -C "$swap" commit -q -m base
sed -i 's/x++/x += 2/' "$swap/mm/swap.c" && git -C "$swap" commit -qam "mm: lru_add"
plan=$("$rm_" --dry-run -C "$swap" --ab HEAD~1..HEAD --workloads lru,squashfs --out "$tmp/never" 2>&1)
tap_like "$(printf '%s\n' "$plan" | grep -A2 '^  changes:' | paste -sd'|')" \
	"changes: +lru_add \(mm/swap.c\)\|  reach: +lru: lru_add \(in mm/swap folio batches\)\| +squashfs: none" \
	"reach: the changed function, and per workload whether its call sites hold it"
plan=$("$rm_" --dry-run -C "$swap" --ab HEAD~1..HEAD --workloads squashfs --out "$tmp/never" 2>&1)
tap_like "$plan" "no chosen workload reaches a function the range changes \(lru_add\): --workloads lru might" \
	"reach: none of the chosen, and the workload that might"
# A tree whose Kconfig has no PREEMPT_RT: the CONFIG_PREEMPT half, said in one line.
nort=$tmp/nort
cp -r "$swap" "$nort" && printf 'config PREEMPT\n\tbool\n' >"$nort/kernel/Kconfig.preempt"
git -C "$nort" commit -qam "no RT" && sed -i 's/x += 2/x += 3/' "$nort/mm/swap.c" && git -C "$nort" commit -qam "mm: again"
plan=$("$rm_" --dry-run -C "$nort" --ab HEAD~1..HEAD --workloads lru --out "$tmp/never" 2>&1)
tap_like "$(printf '%s\n' "$plan" | grep -e '^  variants:' -e '^  models:' | paste -sd'|')" \
	"^  variants: +ab-base ab-tip ab-tip-lockdep\|  models: +CONFIG_PREEMPT only: the tree has no PREEMPT_RT at the base\$" \
	"a tree without PREEMPT_RT: the non-RT variants, and the plan says so"
err=$("$rm_" --dry-run --targets 'f;rm' --out "$tmp/never" 2>&1)
tap_like "$?:$err" "^2:.*--targets wants kernel function names" "--targets: not function names"
[ ! -e "$tmp/never" ]
tap_result $? "nothing made for bad input"

plan=$("$rm_" --dry-run --ab "$linux@v6.12..HEAD" --workloads idle,squashfs --out "$tmp/ab" 2>&1)
tap_like "$plan" "variants: +ab-base ab-base-rt ab-tip ab-tip-lockdep ab-tip-rt\$" "the plan: the five A/B variants"
"$rm_" --ab "$linux@v6.12..HEAD" --workloads idle,squashfs --reps 1 --duration 1 --warmup 1 \
	--accel tcg-icount --jobs 1 --out "$tmp/ab" >"$tmp/ab.log" 2>&1
tap_result $? "a run finishes$(tail -n 1 "$tmp/ab.log" | sed 's/^/: /')"
# The kernel jobs read the run's own variants: the plan must name DIR/ab/variants.
tap_is "$(awk -F'\t' '$1 == "set" { for (i = 2; i < NF; i += 2) if ($i == "variants_dir") print $(i + 1) }' "$tmp/ab/plan")" \
	"$tmp/ab/ab/variants" "the plan hands the kernel jobs DIR/ab/variants"
tap_is "$(sed -n 's/^source=//p' "$tmp/ab/ab/variants/ab-tip"):$(sed -n 's/^patches=//p' "$tmp/ab/ab/variants/ab-tip")" \
	"git:$linux@$base:git:$linux@$base..$tip" "DIR/ab/variants: the tip is the base and the range, pinned to commit ids"
tap_is "$(cat "$tmp/ab/ab/series")" "git:$linux@$base..$tip" "DIR/ab/series: the range under test"
tap_is "$(grep -cE '^ab-tip(-rt)? \| ab-base(-rt)? \| \* \| not-higher \|' "$tmp/ab/ab/comparisons")" 2 \
	"DIR/ab/comparisons: the tip expected no higher than its base on both models, the run's gate (exit 1)"
tap_is "$(paste -sd, "$tmp/ab/ab/targets"):$(grep -v '^#' "$tmp/ab/ab/call-sites")" "f,g:lib/f.c (changed) | f, g" \
	"from the range's diff: the functions it changes, the verify targets and a call site per file"
grep -qx 'targets=f,g' "$tmp/ab/matrix"
tap_result $? "the run's targets are part of its matrix record"
md=$tmp/ab/summary.md
# (The fakes' kernels record no preemption model: the columns go by name.)
grep -qE '^\|  \| ab-base \| ab-base-rt \| ab-tip \| ab-tip-lockdep \| ab-tip-rt \|$' "$md"
tap_result $? "the summary has a column for each A/B variant"
grep -q '^\*\*ab-tip-rt vs ab-base-rt on squashfs\*\*' "$md"
tap_result $? "the question: tip vs base on PREEMPT_RT, on squashfs"
sed -n '/^## For a reviewer$/,/^## The run$/p' "$md" >"$tmp/verdict"
grep -q '^ab-tip vs ab-base' "$tmp/verdict" && grep -q '^ab-tip-rt vs ab-base-rt' "$tmp/verdict"
tap_result $? "a reviewer's verdict for the change on CONFIG_PREEMPT and on PREEMPT_RT"
tap_is "$(ls "$tmp/ab/equivalence")" "$(printf '%s\n' ab-tip-rt-vs-ab-base-rt.txt ab-tip-vs-ab-base.txt)" \
	"the run checked binary equivalence for each pair that differs by the range alone"
grep -A1 '^  binary equivalence (make verify-equivalence):$' "$tmp/verdict" | grep -q 'configuration: fake (ab-tip vs ab-base)'
tap_result $? "and the verdict quotes it"
# The range's branch moves on: the same --ab is another range, refused.
printf 'int h(void);\n' >>"$linux/lib/f.c" && git -C "$linux" commit -qam "lib: three"
err=$("$rm_" --ab "$linux@v6.12..HEAD" --workloads idle,squashfs --reps 1 --duration 1 --warmup 1 \
	--accel tcg-icount --jobs 1 --out "$tmp/ab" 2>&1)
tap_like "$?:$err" "^2:.*(another --ab|was started with series=)" "resuming with another range is refused"
# Every commit: the base and each of the range's three, on both models,
# plain kernels, one repetition, and a table with a row per commit.
err=$("$rm_" --dry-run --each-commit --out "$tmp/never" 2>&1)
tap_like "$?:$err" "^2:.*--each-commit goes with --ab" "--each-commit without a range: exit 2"
"$rm_" --ab "$linux@v6.12..HEAD" --each-commit --workloads squashfs --duration 1 --warmup 1 \
	--accel tcg-icount --jobs 1 --out "$tmp/each" >"$tmp/each.log" 2>&1
tap_result $? "an --each-commit run finishes$(tail -n 1 "$tmp/each.log" | sed 's/^/: /')"
tap_is "$(cut -d' ' -f1 "$tmp/each/ab/commits" | paste -sd' '):$(grep -c '^ab-c0[0-3]\(-rt\)\? squashfs rep1$' "$tmp/each/order")" \
	"ab-c00 ab-c01 ab-c02 ab-c03:8" "a variant per commit and model, base first, one plain cell each, no traced cell"
tap_is "$(grep -c '^| c0[0-3] | [0-9a-f]\{12\} .* | [0-9]* | 1 of 1 | [0-9]* | [0-9–]* | .* |$' "$tmp/each/commits.md")" 8 \
	"commits.md: a row per commit and model, with build seconds, boots, splats and the maximum"
grep -q '^| c03 | [0-9a-f]* lib: three |' "$tmp/each.log"
tap_result $? "and the run prints it at its end"
# The change against the commit before, as the 1 µs resolution leaves it.
printf 'BEGIN { printf "%%s|%%s|%%s|%%s|%%s", change(196, 4), change(201, 196), change(4, 4), change(4, 196), change(4, 0) }\n' \
	>"$tmp/change.awk"
tap_is "$(awk -f "$root/bench/report/change.awk" -f "$tmp/change.awk")" \
	"**39–49×**|+2% to +3%|−20% to +25%|0.02–0.03×|–" \
	"commits.md's change: 196 against 4 is 39–49×, 4 against 4 anything from −20% to +25%"
tap_done
