#!/bin/bash
# SPDX-License-Identifier: GPL-2.0
# layering.t - the summary is a one-way pipeline (bench/report/summary/run.h):
# load -> analyse -> render. Each stage's objects may use only what is
# defined in its own stage, the data model (run.c, cell.c), the passes'
# registry (passes.c) and the libraries; a renderer calling into the
# analysis, or the analysis into a renderer, fails here. A pass's file
# (pass-<name>.c, pass.h) is a plug-in with a member for each stage: it
# may use every stage, and only the registry names it, so no stage calls
# into a pass but through the list. Read from the symbols the compiler emits, not
# from the text, so a call hidden behind a macro counts too. The cells' meta
# is read once, by the load stage, into typed fields: analyse and render call
# no key=value reader. On the shell side, lib/common.sh, which every stage
# sources, reads no registry and runs no built tool: each registry's loader
# lives beside its data (kernels/variants.sh, workloads/workloads.sh,
# bench/passes/passes.sh, kernels/modules/modules.sh).
. "$(dirname "$0")/lib/tap.sh"
root=$(cd "$(dirname "$0")/.." && pwd)
src=$root/bench/report/summary
command -v nm >/dev/null || tap_skip_all "no nm (binutils)"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# stage_of FILE: the stage a source file of the summary belongs to.
stage_of() {
	case ${1##*/} in
	load.c) echo load ;;
	analyse.c) echo analyse ;;
	render*.c) echo render ;;
	summary.c) echo main ;;
	passes.c) echo registry ;;
	pass-*.c) echo plugin ;;
	*) echo model ;;
	esac
}

# Which stages each stage may call (the model and libraries always).
allowed() {
	case $1 in
	load) echo "load registry" ;;
	analyse) echo "analyse registry" ;;
	render) echo "render registry" ;;
	main) echo "load analyse render main registry" ;;
	model) echo "registry" ;;
	registry) echo "plugin" ;;
	plugin) echo "load analyse render plugin registry" ;;
	esac
}

files=("$src"/*.c)
tap_plan $((${#files[@]} + 3))
cflags=(-std=c11 -O2 -Wall -Wextra -Werror -I"$root/lib" -I"$root/bench/report/lib")
# shellcheck disable=SC2207 # pkg-config prints words to split
cflags+=($(pkg-config --cflags json-c libtracecmd libtraceevent))
defs=$tmp/defined
: >"$defs"
uncompiled=''
for f in "${files[@]}"; do
	o=$tmp/$(basename "$f" .c).o
	gcc "${cflags[@]}" -c -o "$o" "$f" || { uncompiled="$uncompiled ${f##*/}"; continue; }
	nm --defined-only "$o" | awk -v s="$(stage_of "$f")" '$2 ~ /^[TDBR]$/ { print $3, s }' >>"$defs"
done
tap_is "${uncompiled# }" "" "every stage compiles on its own"
for f in "${files[@]}"; do
	o=$tmp/$(basename "$f" .c).o
	stage=$(stage_of "$f")
	bad=$(nm --undefined-only "$o" 2>/dev/null | awk '{ print $NF }' | sort -u |
		join - <(sort -u "$defs") | awk -v ok=" $(allowed "$stage") " \
		'index(ok, " " $2 " ") == 0 && $2 != "model" { print $1 " (" $2 ")" }')
	tap_is "$bad" "" "$(basename "$f") ($stage) calls only its own stage and the data model"
done
raw=''
for f in "$src"/analyse.c "$src"/render*.c; do
	o=$tmp/$(basename "$f" .c).o
	nm --undefined-only "$o" 2>/dev/null | awk '{ print $NF }' | grep -qE '^kv_(str|lookup|load)$' &&
		raw="$raw $(basename "$f")"
done
tap_is "${raw# }" "" "analyse and render read no meta key (kv_str, kv_lookup): the load stage types them"
# The function bodies of lib/common.sh (not its comments, not the lines
# that name the paths) never open a registry or run build/bin.
reach=$(awk '/^[a-z_]+\(\) \{/ { f = 1 } f && !/^[[:space:]]*#/ { print } /^}/ { f = 0 }' "$root/lib/common.sh" |
	grep -nE 'LOCKLAT_(VARIANTS|WORKLOADS|CONFIGS|PATCHES|PASSES)_DIR|build/bin|kernels/modules|bench/passes' || true)
tap_is "$reach" "" "lib/common.sh's functions read no registry and run no built tool"
exit $((TAP_FAILED > 0))
