#!/usr/bin/env bats
# tr-svg: the SVG timeline of an analysed stream: well-formed XML
# (xmllint), a lane per stream (per process from 64 on), the critical
# path's outlines adding up to tr-critpath's length, within a size limit
# at 64 ranks, a time window, clear errors; the README's picture is what
# it makes of the example.

load common

setup() {
	TMP=$(mktemp -d)
}

teardown() {
	rm -rf "$TMP"
}

# The sum of the path outlines' data-ns in SVG $1.
outlined_ns() {
	grep -o 'class="crit" data-ns="[0-9]*"' "$1" | grep -o '[0-9]*' | awk '{ s += $1 } END { print s + 0 }'
}

# The path's length by tr-critpath, ns.
path_ns() {
	tr-critpath --summary "$1" 2>&1 >/dev/null | sed -n 's/.*critical path \([0-9]*\)\.\([0-9]*\) s of.*/\1\2/p' |
		sed 's/^0*//'
}

@test "the corpus's CUDA trace: well-formed, a lane per stream, the path's outlines its length, waits hatched, arrows" {
	corpus_setup
	analysed "$(archive casita-2_cuda_simple)" "$TMP/c.tr"
	tr-svg "$TMP/c.tr" > "$TMP/c.svg"
	xmllint --noout "$TMP/c.svg"
	streams=$(tr-cat -J "$TMP/c.tr" | jq -s '[.[] | select(.k == "stream" and .type != "metric")] | length')
	[ "$(grep -c '<g class="lane"' "$TMP/c.svg")" -eq "$streams" ]
	assert_equal "$(outlined_ns "$TMP/c.svg")" "$(path_ns "$TMP/c.tr")"
	grep -q 'class="wait"' "$TMP/c.svg"
	grep -q 'class="hop"' "$TMP/c.svg"
	grep -q 'class="kernel"' "$TMP/c.svg"
}

@test "64 ranks: a lane per process, under 2 MB, the path whole" {
	gen-otf2 -r 64 -t 1 -i 10 "$TMP/r/t" > /dev/null
	analysed "$TMP/r/t.otf2" "$TMP/r.tr"
	tr-svg "$TMP/r.tr" > "$TMP/r.svg"
	xmllint --noout "$TMP/r.svg"
	[ "$(grep -c '<g class="lane"' "$TMP/r.svg")" -eq 64 ]
	[ "$(stat -c %s "$TMP/r.svg")" -lt 2000000 ]
	assert_equal "$(outlined_ns "$TMP/r.svg")" "$(path_ns "$TMP/r.tr")"
}

@test "-t: a window of the run, its axis from where it starts; -w the width" {
	gen-otf2 -i 30 "$TMP/g/t" > /dev/null
	analysed "$TMP/g/t.otf2" "$TMP/g.tr"
	tr-svg -w 800 -t 0.001,0.002 "$TMP/g.tr" > "$TMP/w.svg"
	xmllint --noout "$TMP/w.svg"
	grep -q '<svg xmlns="http://www.w3.org/2000/svg" width="800"' "$TMP/w.svg"
	grep -q '>0.001 s</text>' "$TMP/w.svg"
	# nothing drawn outside the plot
	run awk '!/class="legend"/ && match($0, / x="[0-9.]*"/) { x = substr($0, RSTART + 4, RLENGTH - 5) + 0; if (/class="(crit|wait|user|mpi|kernel|copy|sync|gpucall|omp)"/ && (x < 200 || x > 800)) print }' "$TMP/w.svg"
	assert_output ""
}

@test "bad usage is exit 2; a stream not analysed, or empty, exit 1 with one line" {
	run --separate-stderr tr-svg -t 2,1 x
	assert_failure 2
	assert_equal "$stderr" "tr-svg: -t 2,1: give a window like 0.5,1.5 (seconds from the run's start)"
	run --separate-stderr tr-svg -w 10 x
	assert_failure 2
	gen-otf2 -i 5 "$TMP/g/t" > /dev/null
	analysed "$TMP/g/t.otf2" "$TMP/g.tr"
	run --separate-stderr tr-svg -t 100,200 "$TMP/g.tr"
	assert_failure 2
	[[ $stderr == "tr-svg: -t 100,200: the run lasts "* ]] || fail "$stderr"
	run --separate-stderr bash -c "tr-read '$TMP/g/t.otf2' | tr-svg"
	assert_failure 1
	[[ $stderr == *"has not been through tr-deps: run it before tr-svg"* ]] || fail "$stderr"
	run --separate-stderr tr-svg < /dev/null
	assert_failure 1
	assert_equal "$stderr" "tr-svg: <stdin>: empty input: no records (not a record stream)"
}

@test "the README's picture (docs/example.svg) is what tr-svg makes of the example's run" {
	gen-otf2 -i 20 "$TMP/jacobi" > /dev/null
	tr-read "$TMP/jacobi.otf2" 2>/dev/null | tr-deps | tr-clock 2>/dev/null | tr-waits | tr-critpath 2>/dev/null |
		tr-svg > "$TMP/example.svg"
	cmp "$TOP/docs/example.svg" "$TMP/example.svg"
}

@test "repros (times at the ends of the range, out of order, overflowing totals): tr-svg and tr-chrome draw them or say why in one line" {
	require_repros
	for f in "$REPROS"/*.tr "$REPROS"/*.ndjson; do
		run --separate-stderr tr-svg "$f"
		if [ "$status" -eq 0 ]; then
			xmllint --noout - <<< "$output" || fail "$f: not well-formed"
		else
			assert_equal "$status" 1
			[ "$(wc -l <<< "$stderr")" -eq 1 ] || fail "$f: $stderr"
		fi
		tr-chrome "$f" > "$TMP/c.json" 2> "$TMP/c.err" || [ "$(wc -l < "$TMP/c.err")" -eq 1 ] ||
			fail "$f: $(cat "$TMP/c.err")"
		[ ! -s "$TMP/c.json" ] || chrome-check.py "$TMP/c.json" > /dev/null || fail "$f: tr-chrome's JSON"
	done
}

@test "a stream the contract rejects (an event on an undefined stream, t missing or out of range, a name not UTF-8): tr-svg, tr-chrome and tr-report stop in one line, as tr-cat --check does (turn3 F6, F7)" {
	edit() {
		tr-cat -J "$DATA/repros/c10-analysed.tr" |
			python3 -c "
import sys
done = False
for line in sys.stdin:
    if not done and sys.argv[1] in line:
        line = line.replace(sys.argv[1], sys.argv[2].replace('@FF@', '\\udcff'), 1)
        done = True
    sys.stdout.buffer.write(line.encode('utf-8', 'surrogateescape'))" "$1" "$2" | tr-cat -M > "$TMP/e.tr"
	}
	# a byte 0xff where @FF@ stands
	for case in '"k":"enter","id":1,"t":76092,"s":0,|"k":"enter","id":1,"t":76092,"s":77777,' \
		    '"k":"enter","id":0,"t":55321,|"k":"enter","id":0,"t":4611686018427387904,' \
		    '"k":"enter","id":0,"t":55321,|"k":"enter","id":0,' \
		    '"k":"region","id":0,"name":"|"k":"region","id":0,"name":"@FF@'; do
		edit "${case%%|*}" "${case#*|}"
		run tr-cat --check "$TMP/e.tr"
		assert_failure 1
		want=${output#tr-cat: }
		for tool in tr-svg tr-chrome tr-report; do
			run --separate-stderr $tool "$TMP/e.tr"
			assert_failure 1
			# one line: tr-report added a false 'out of memory' (F7)
			assert_equal "$(printf '%s\n' "$stderr" | wc -l)" 1
			[ "$tool" = tr-report ] && continue	# the rating's words for it
			assert_equal "$stderr" "$tool: $want"
		done
	done
}

@test "activities nested 6 deep: each drawn inside the one it is in, the deepest 1 high, none below 0 (tests/data/timeline/deep-nesting.ndjson)" {
	# a level insets 1.5 each side (at most 4 levels); the lane's 11 leave
	# 1 for the deepest, which drew -1 high before (turn4's report of a
	# Score-P run: 66 console errors in Chromium)
	tr-svg "$DATA/timeline/deep-nesting.ndjson" > "$TMP/d.svg"
	xmllint --noout "$TMP/d.svg"
	# (the legend's box, 10 high, is written without decimals)
	run bash -c "grep -o '<rect class=\"user\" [^>]*' '$TMP/d.svg' | grep -o 'height=\"-*[0-9]*\.[0-9]*\"' |
		sort -u -t'\"' -k2 -n"
	assert_output - <<'OUT'
height="1.00"
height="2.00"
height="5.00"
height="8.00"
height="11.00"
OUT
}

@test "the path's strip: pieces within a pixel of each other joined, a step drawn only after a pixel or more on a lane (tests/data/timeline/path-hops.ndjson)" {
	# 1 ms over 1000 px: 1 us a pixel. The path stays on a for 400 us, then
	# changes lanes 20 times 600 ns apart (0.6 px each), then stays on b to
	# the end: one step drawn (at 400 us, x = 200 + 400), the 20 quick ones
	# not; a's pieces one strip of 406 us, b's one of 594 us.
	tr-svg -w 1200 "$DATA/timeline/path-hops.ndjson" > "$TMP/h.svg"
	run grep -o 'class="hop"[^/]*' "$TMP/h.svg"
	assert_output 'class="hop" x1="600.00" y1="44.0" x2="600.00" y2="60.0"'
	run grep -o 'class="crit" data-ns="[0-9]*"' "$TMP/h.svg"
	assert_output 'class="crit" data-ns="406000"
class="crit" data-ns="594000"'
}
