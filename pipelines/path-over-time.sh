#!/usr/bin/env bash
# The critical path's share per stream over time: the run from the path's
# first piece to its end in N equal windows (10), and for each the percent
# of the window's path time spent on each stream that had any, most first,
# as "start-end seconds" then "process: stream" and percent pairs,
# tab-separated.
#   pipelines/path-over-time.sh analysed.tr [N]
set -euo pipefail
[[ $# -ge 1 && $# -le 2 ]] || { echo "usage: ${0##*/} STREAM [N]" >&2; exit 2; }
n=${2:-10}
[[ $n =~ ^[1-9][0-9]*$ ]] || { echo "${0##*/}: $n: not a number of windows" >&2; exit 2; }
tr-cat -J "$1" | jq -r -n --argjson n "$n" '
	reduce inputs as $r ({proc: {}, names: {}, pieces: []};
		if $r.k == "process" then .proc[$r.id | tostring] = ($r.name // "process \($r.id)")
		elif $r.k == "stream" then
			.names[$r.id | tostring] = "\(.proc[$r.process | tostring] // "process \($r.process)"): \($r.name // "stream \($r.id)")"
		elif $r.k == "crit" then .pieces += [[$r.s, $r.t, $r.dur]]
		else . end)
	| . as $d
	| if ($d.pieces | length) == 0 then error("no crit records: run tr-critpath first") else . end
	| ($d.pieces[0][1]) as $t0
	| ($d.pieces[-1] | .[1] + .[2]) as $last
	| (($last - $t0) / $n) as $w
	| range(0; $n) as $i
	| ($t0 + $i * $w) as $a | ($t0 + ($i + 1) * $w) as $b
	| [$d.pieces[] | [.[0], ([.[1] + .[2], $b] | min) - ([.[1], $a] | max)] | select(.[1] > 0)]
	| (map(.[1]) | add // 0) as $total
	| group_by(.[0]) | map([$d.names[.[0][0] | tostring], (map(.[1]) | add)])
	| sort_by(-.[1])
	| [$a - $t0, $b - $t0] + (map([.[0], (10000 * .[1] / $total | round / 100)]) | flatten)
	| @tsv' | awk -F'\t' -v OFS='\t' '{ w = sprintf("%.9f-%.9f", $1 / 1e9, $2 / 1e9); $1 = w; $2 = ""; sub(/\t\t/, "\t"); print }'
