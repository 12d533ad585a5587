# SPDX-License-Identifier: GPL-2.0
# commits-table.awk - the Markdown table of one model for bench/report/commits.sh.
# Input files: RUN_DIR/ab/commits ("name commit subject"), RUN_DIR/logs/jobs
# (a kernel's build seconds), then the rows on standard input ("name<TAB>
# workload<TAB>max<TAB>cells<TAB>booted<TAB>splats"). Variables: sfx (the
# model's variant suffix, "" or "-rt"), workloads (space-separated).
# change() comes from change.awk, loaded first.

# ab/commits: "name commit subject", separated by spaces.
FILENAME == ARGV[1] {
	split($0, word, " "); name[++n] = word[1]; commit[word[1]] = substr(word[2], 1, 12)
	subject[word[1]] = substr($0, length(word[1]) + length(word[2]) + 3); next
}
FILENAME == ARGV[2] { if ($1 ~ /^kernel:/) build[substr($1, 8)] = $3; next }
{ v = $1; max[v, $2] = $3; cells[v] += $4; booted[v] += $5; splats[v] += $6 }
END {
	nw = split(workloads, w, " ")
	printf "| # | commit | build s | booted | splats |"
	for (i = 1; i <= nw; i++) printf " %s max µs | vs before |", w[i]
	printf "\n|---|---|---|---|---|"
	for (i = 1; i <= nw; i++) printf "---|---|"
	printf "\n"
	for (k = 1; k <= n; k++) {
		v = name[k] sfx
		printf "| %s | %s %s | %s | %s | %s |", substr(name[k], 4), commit[name[k]], subject[name[k]],
			(v in build) ? build[v] : "kept", cells[v] ? booted[v] " of " cells[v] : "–", splats[v] + 0
		for (i = 1; i <= nw; i++) {
			m = ((v, w[i]) in max) ? max[v, w[i]] : "–"
			p = k > 1 && ((name[k - 1] sfx, w[i]) in max) ? max[name[k - 1] sfx, w[i]] : ""
			printf " %s | %s |", m, change(m, p)
		}
		printf "\n"
	}
}
