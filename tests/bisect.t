#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# bisect.t - the latency bisect's driving (bench/bisect/bisect.sh, and
# ./run-matrix.sh --bisect) with a fake judge (tests/fakes/bisect-judge: a
# commit whose lib/f.c says "slow" regressed, "broken" does not build), on
# a scratch git tree and a finished --ab run made of its files: bad input
# stops with one line and exit 2; a tip that did not regress is not
# bisected (exit 0); a regression is bisected to its first bad commit (exit
# 1) with each step's verdict and time, in a scratch repository, the tree
# only read; skipped steps that hide the first bad commit leave the commits
# it is among. The real judge's run is METHODOLOGY.md's ("A latency bisect").
. "$(dirname "$0")/lib/tap.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
[ -x "$root/build/bin/locklat-compare" ] || tap_skip_all "tools not built (make tools)"
{ command -v git >/dev/null && command -v jq >/dev/null; } || tap_skip_all "no git or jq (make deps)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
tap_plan 15
export GIT_AUTHOR_NAME=locklat GIT_AUTHOR_EMAIL=locklat@localhost \
	GIT_COMMITTER_NAME=locklat GIT_COMMITTER_EMAIL=locklat@localhost
export LOCKLAT_BISECT_JUDGE=$root/tests/fakes/bisect-judge
bisect=$root/bench/bisect/bisect.sh

# tree STATES...: a git tree whose commits after "base" set lib/f.c to each state.
tree() {
	local dir=$tmp/tree-$# state i=0
	rm -rf "$dir"
	mkdir -p "$dir/lib"
	echo base >"$dir/lib/f.c"
	git -C "$dir" init -q && git -C "$dir" add -A && git -C "$dir" commit -q -m base
	for state in "$@"; do
		i=$((i + 1))
		echo "$state $i" >"$dir/lib/f.c" && git -C "$dir" commit -qam "lib: commit $i ($state)" >/dev/null
	done
	printf '%s\n' "$dir"
}

# abrun DIR TREE TIP_MAXIMA VERDICT: a finished --ab run of TREE's range: the
# base's maxima 100-103 µs against TIP_MAXIMA (a JSON array) on squashfs,
# PREEMPT_RT, and its gate's line for it ("ok" or "not ok").
abrun() {
	local dir=$1 tree=$2
	mkdir -p "$dir/ab"
	printf 'git:%s@%s..%s\n' "$tree" "$(git -C "$tree" rev-list --max-parents=0 HEAD)" \
		"$(git -C "$tree" rev-parse HEAD)" >"$dir/ab/series"
	printf 'reps=4\nduration_s=10\ntrace_duration_s=3\nwarmup_s=1\ntasks_per_cpu=2\ncpus=1\naccel=tcg-icount\n' \
		>"$dir/matrix"
	jq -n --argjson tip "$3" '{ run: "ab", startup_window_s: 1,
		settings: { accel: "tcg-icount", vcpus: "1", duration_s: "10", warmup_s: "1" },
		groups: [ { variant: "ab-base-rt", workload: "squashfs", max_us: [100, 101, 102, 103] },
			  { variant: "ab-tip-rt", workload: "squashfs", max_us: $tip } ] }' >"$dir/summary.json"
	printf 'TAP version 13\n1..1\n%s 1 - squashfs: ab-tip-rt vs ab-base-rt (4 vs 4 measured), expected not higher: x\n' \
		"$4" >"$dir/verdicts.tap"
}

# bad WANT NAME ARG...: bisect.sh ARG... stops with one line matching WANT, exit 2.
bad() {
	local want=$1 name=$2 err
	shift 2
	err=$("$bisect" "$@" 2>&1)
	tap_like "$?:$(printf '%s\n' "$err" | wc -l):$err" "^2:1:.*$want" "$name"
}
linear=$(tree good good slow slow slow)
abrun "$tmp/regressed" "$linear" '[200, 201, 202, 203]' "not ok"
bad "--from RUN is required" "no --from: exit 2"
bad "is not an --ab run" "--from a run without ab/: exit 2" --from "$tmp"
bad "--variant wants ab-tip or ab-tip-rt" "a bad --variant: exit 2" --from "$tmp/regressed" --variant rt
err=$("$root/run-matrix.sh" --bisect "$tmp/regressed" --reps 3 2>&1)
tap_like "$?:$err" "^2:.*--reps does not go with it" "run-matrix.sh --bisect refuses settings of its own"

# A tip within 10% of its base: nothing to bisect, nothing judged.
abrun "$tmp/flat" "$linear" '[100, 101, 102, 104]' "ok"
out=$("$bisect" --from "$tmp/flat" --workload squashfs 2>&1)
tap_like "$?:$out" "^0:.*ab-tip-rt on squashfs unchanged against its base \(threshold 10%\): nothing to bisect" \
	"a tip that did not regress is not bisected: exit 0"
[ ! -e "$tmp/flat/bisect/judged" ]
tap_result $? "and no step was judged"

objects=$(git -C "$linear" count-objects -v | sed -n 's/^\(count\|in-pack\): //p' | paste -sd+)
out=$("$root/run-matrix.sh" --bisect "$tmp/regressed" 2>&1)
rc=$?
first=$(git -C "$linear" rev-parse HEAD~2)
tap_like "$rc:$(grep '^\*\*First bad commit' <<<"$out")" \
	"^1:\*\*First bad commit: $(git -C "$linear" rev-parse --short "$first") lib: commit 3 \(slow\) \(locklat\)\*\*$" \
	"run-matrix.sh --bisect RUN names the first bad commit (the regressed pair from verdicts.tap) and exits 1"
steps=$(grep -c . "$tmp/regressed/bisect/judged")
tap_like "$(sort "$tmp/regressed/bisect/judged" | uniq -d):$steps:$(grep -c -e "$(git -C "$linear" rev-parse HEAD)" \
	-e "$(git -C "$linear" rev-list --max-parents=0 HEAD)" "$tmp/regressed/bisect/judged")" "^:[23]:0$" \
	"at most 3 steps for 5 commits, none judged twice, neither base nor tip judged again"
tap_like "$(grep -c '^| [0-9]-[0-9a-f]* | [0-9a-f]* lib: commit [0-9] (.*) (locklat) | \(good\|bad\) | .* | 1 |$' "$tmp/regressed/bisect/report.md")" \
	"^$steps$" "the report: each step, its commit, verdict, why and seconds"
grep -q '^git bisect bad' "$tmp/regressed/bisect/bisect.log"
tap_result $? "git bisect's log is kept"
tap_is "$(git -C "$linear" count-objects -v | sed -n 's/^\(count\|in-pack\): //p' | paste -sd+):$(git -C "$linear" for-each-ref | grep -c bisect)" \
	"$objects:0" "the tree is only read: no objects, no bisect refs"

# A commit that cannot build is skipped; when that hides the first bad one,
# the commits it is among are named, still exit 1.
skipped=$(tree good broken slow slow)
abrun "$tmp/skips" "$skipped" '[200, 201, 202, 203]' "not ok"
out=$("$bisect" --from "$tmp/skips" 2>&1)
rc=$?
tap_like "$rc:$(grep -c '^- [0-9a-f]* lib: commit [23] ' <<<"$out")" "^1:2$" \
	"a skipped step that hides the first bad commit: the two it is among, exit 1"
grep -q '| skip | did not build |' "$tmp/skips/bisect/report.md"
tap_result $? "and the skipped step says why"
# --workload names a workload the run did not flag: held by the threshold.
out=$("$bisect" --from "$tmp/skips" --workload squashfs --threshold 150 --out "$tmp/skips/b150" 2>&1)
tap_like "$?:$out" "^0:.*changed, under the threshold against its base \(threshold 150%\): nothing to bisect" \
	"--threshold: a change under it is nothing to bisect"
# The real judge, its run-matrix.sh a stand-in that says what git it was
# given: git bisect run sets GIT_DIR to the scratch repository, and a run
# that inherits it cannot read the developer's tree.
copy=$tmp/copy
mkdir -p "$copy"
(cd "$root" && git ls-files -z | xargs -0 tar -cf -) | tar -xf - -C "$copy"
ln -s "$root/build" "$copy/build"
cat >"$copy/run-matrix.sh" <<'STUB'
#!/bin/bash
tree=${2%@*}
printf 'GIT_DIR=%s tree=%s\n' "${GIT_DIR-unset}" "$(git -C "$tree" rev-parse --is-inside-work-tree 2>&1)" \
	>>"$(dirname "$0")/judged-env"
exit 1
STUB
chmod +x "$copy/run-matrix.sh"
out=$(env -u LOCKLAT_BISECT_JUDGE "$copy/bench/bisect/bisect.sh" --from "$tmp/regressed" --out "$tmp/real" 2>&1)
tap_like "$?:$(sort -u "$copy/judged-env" 2>/dev/null)" "^1:GIT_DIR=unset tree=true$" \
	"the real judge runs each step's run-matrix.sh outside the bisect's repository, on the tree"
tap_done
