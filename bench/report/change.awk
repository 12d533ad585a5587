# SPDX-License-Identifier: GPL-2.0
# change.awk - change(now, before): how a maximum of now µs compares with one
# of before µs, as the range the 1 µs resolution leaves: cyclictest reads x
# µs for any latency from x to x + 1, so the ratio lies between now / (before
# + 1) and (now + 1) / before. "**39–49×**" (bold: at least doubled), "0.02–
# 0.03×", "+2% to +3%", "−20% to +25%" (no change shown); "–" when either is
# not a number or before is 0. Loaded with awk -f before the program using it
# (bench/report/commits.sh).

# One bound: "49×" from 2× up, "0.03×" up to 0.5×, else a signed percentage.
function change_bound(r) {
	if (r >= 10) return sprintf("%.0f×", r)
	if (r >= 2) return sprintf("%.1f×", r)
	if (r <= 0.5) return sprintf(r >= 0.01 ? "%.2f×" : "%.2g×", r)
	r = 100 * (r - 1)
	if (r > -0.5 && r < 0.5) return "0%"
	return sprintf("%s%.0f%%", r < 0 ? "−" : "+", r < 0 ? -r : r)
}

function change(now, before,    lo, hi, a, b) {
	if (now !~ /^[0-9]+(\.[0-9]+)?$/ || before !~ /^[0-9]+(\.[0-9]+)?$/ || before == 0) return "–"
	lo = now / (before + 1)
	hi = (now + 1) / before
	a = change_bound(lo)
	b = change_bound(hi)
	if (lo >= 2) return "**" (a == b ? a : substr(a, 1, length(a) - length("×")) "–" b) "**"
	if (hi <= 0.5) return a == b ? a : substr(a, 1, length(a) - length("×")) "–" b
	return a == b ? a : a " to " b
}
