#!/usr/bin/env bash
# The longest wait states of an analysed stream, longest first: seconds,
# pattern, the waiting activity's region, its process and its stream, one
# per line, tab-separated.
#   pipelines/longest-waits.sh analysed.tr [N]     (N: 10)
set -euo pipefail
[[ $# -ge 1 && $# -le 2 ]] || { echo "usage: ${0##*/} STREAM [N]" >&2; exit 2; }
n=${2:-10}
[[ $n =~ ^[0-9]+$ ]] || { echo "${0##*/}: $n: not a number of wait states" >&2; exit 2; }
# pass 1: the N longest (only they are kept); pass 2: their activities' regions
top=$(tr-cat -J "$1" | jq -c -n --argjson n "$n" '
	[limit($n; reduce (inputs | select(.k == "wait")) as $w ([]; . + [$w] | sort_by(-.dur) | .[:$n]) | .[])]')
tr-cat -J "$1" | jq -r -n --argjson top "$top" '
	($top | map(.at) | map({key: tostring, value: true}) | from_entries) as $want
	| reduce inputs as $r ({reg: {}, st: {}, proc: {}, act: {}};
		if $r.k == "region" then .reg[$r.id | tostring] = $r.name
		elif $r.k == "stream" then .st[$r.id | tostring] = $r
		elif $r.k == "process" then .proc[$r.id | tostring] = ($r.name // "process \($r.id)")
		elif $r.k == "enter" and $want[$r.id | tostring] then .act[$r.id | tostring] = $r.r
		else . end)
	| . as $d
	| $top[]
	| ($d.st[.s | tostring]) as $s
	| [.dur, .pattern, $d.reg[$d.act[.at | tostring] | tostring] // "?",
	   $d.proc[$s.process | tostring] // "?", $s.name // "stream \(.s)"]
	| @tsv' | awk -F'\t' -v OFS='\t' '{ $1 = sprintf("%.9f", $1 / 1e9); print }'
