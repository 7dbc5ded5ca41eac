#!/usr/bin/env bash
# Waiting time per process and pattern of an analysed stream: the
# process's rank (or id where it has none), its name, the pattern, the
# number of wait states and their seconds, tab-separated, by rank then
# pattern. GPU idleness (idle records) is not waiting and is left out.
#   pipelines/waits-by-rank.sh analysed.tr
set -euo pipefail
[[ $# -eq 1 ]] || { echo "usage: ${0##*/} STREAM" >&2; exit 2; }
tr-cat -J "$1" | jq -r -n '
	reduce inputs as $r ({st: {}, proc: {}, sum: {}};
		if $r.k == "process" then .proc[$r.id | tostring] = $r
		elif $r.k == "stream" then .st[$r.id | tostring] = $r.process
		elif $r.k == "wait" then
			(.st[$r.s | tostring] | tostring) as $p
			| .sum[$p][$r.pattern].count += 1 | .sum[$p][$r.pattern].ns += $r.dur
		else . end)
	| . as $d
	| [$d.sum | to_entries[] | .key as $p | .value | to_entries[]
	   | {rank: ($d.proc[$p].rank // ($p | tonumber)), name: ($d.proc[$p].name // "process \($p)"),
	      pattern: .key, count: .value.count, ns: .value.ns}]
	| sort_by(.rank, .pattern)[]
	| [.rank, .name, .pattern, .count, .ns] | @tsv' | awk -F'\t' -v OFS='\t' '{ $5 = sprintf("%.9f", $5 / 1e9); print }'
