#!/usr/bin/env bats
# tr-analyze on every input of the shared corpus (OTF2 archives, Kineto
# traces, Nsight exports): the stream it writes is the filters' own, byte
# for byte (with tr-project's what-if too), its rating is tr-rank's, its
# archive tr-otf2's (otf2-print).

load common

setup() {
	corpus_setup
}

teardown() {
	corpus_teardown
}

@test "every corpus trace: tr-analyze --stream writes what tr-read | tr-deps | tr-clock | tr-waits | tr-critpath writes, -o what tr-otf2 writes of it" {
	local n=0
	while read -r trace; do
		rm -f "$TMP/a.tr"
		tr-read "$trace" 2>/dev/null | tr-deps 2>/dev/null | tr-clock 2>/dev/null | tr-waits 2>/dev/null |
			tr-critpath > "$TMP/p.tr" 2>/dev/null || fail "$trace: the filters failed"
		rm -rf "$TMP/a" "$TMP/f"
		tr-analyze -q --stream "$TMP/a.tr" -o "$TMP/a/t" "$trace" > "$TMP/a.txt" 2> "$TMP/a.err" ||
			fail "$trace: $(cat "$TMP/a.err")"
		cmp "$TMP/p.tr" "$TMP/a.tr" || fail "$trace: the streams differ"
		# the annotated archive: tr-otf2's of the filters' stream
		tr-otf2 -o "$TMP/f/t" "$TMP/p.tr" 2>/dev/null
		cmp <(otf2-print "$TMP/f/t.otf2") <(otf2-print "$TMP/a/t.otf2") || fail "$trace: the archives differ"
		# the table's first line names the input: tr-rank's here read stdin
		tr-rank < "$TMP/p.tr" | sed 1d > "$TMP/p.txt"
		sed 1d "$TMP/a.txt" | diff "$TMP/p.txt" - || fail "$trace: the ratings differ"
		n=$((n + 1))
	done < <(corpus_inputs)
	[ "$n" -ge 19 ]
}

@test "every corpus trace: tr-analyze --scale writes what the filters write with tr-project --scale after tr-clock" {
	local n=0
	while read -r trace; do
		rm -f "$TMP/a.tr"
		tr-read "$trace" 2>/dev/null | tr-deps 2>/dev/null | tr-clock 2>/dev/null |
			tr-project --scale '*=0.5' 2>/dev/null | tr-waits 2>/dev/null |
			tr-critpath > "$TMP/p.tr" 2>/dev/null || fail "$trace: the filters failed"
		tr-analyze -q --scale '*=0.5' --stream "$TMP/a.tr" "$trace" > /dev/null 2> "$TMP/a.err" ||
			fail "$trace: $(cat "$TMP/a.err")"
		cmp "$TMP/p.tr" "$TMP/a.tr" || fail "$trace: the streams differ"
		n=$((n + 1))
	done < <(corpus_inputs)
	[ "$n" -ge 19 ]
}

@test "every corpus trace: --csv and --json ratings are tr-rank's, -e and --idle too" {
	while read -r trace; do
		tr-read "$trace" 2>/dev/null | tr-deps 2>/dev/null | tr-clock 2>/dev/null | tr-waits 2>/dev/null |
			tr-critpath > "$TMP/p.tr" 2>/dev/null
		tr-analyze -q --csv -e -n 0 "$trace" 2>/dev/null > "$TMP/a.csv"
		tr-rank --csv -e -n 0 "$TMP/p.tr" | cmp - "$TMP/a.csv" || fail "$trace: --csv differs"
		# NDJSON: the same records after the header (which names the tool)
		tr-analyze -q --json --idle "$trace" 2>/dev/null | tr-cat -J | sed 1d > "$TMP/a.json"
		tr-rank --json --idle "$TMP/p.tr" | tr-cat -J | sed 1d | cmp - "$TMP/a.json" ||
			fail "$trace: --json differs"
	done < <(corpus_inputs)
}

@test "every corpus trace: the rating's rows and the path's time in no activity add up to the whole path, the rows' blame to all blame (issue 59)" {
	while read -r trace; do
		tr-analyze -q --json -n 0 "$trace" 2>/dev/null > "$TMP/a.json"
		run jq -sr '(map(select(.k == "run_summary")) | .[0]) as $r | [.[] | select(.k == "rating")] as $v |
			"\((($v | map(.cp) | add) // 0) + $r.cp_host_outside + $r.cp_gpu_between) \($r.cp) \(($v | map(.blame) | add) // 0) \($r.blame)"' "$TMP/a.json"
		read -r rows cp blame all <<< "$output"
		[[ $rows == "$cp" && $blame == "$all" ]] || fail "$trace: path rows $rows of $cp, blame rows $blame of $all"
	done < <(corpus_inputs)
}
