#!/usr/bin/env bats
# tr-report: the HTML report of an analysed stream, opened in a real
# headless browser (chromium): no console errors, nothing fetched, the
# rating table with tr-rank's rows, sortable; the timeline with a lane
# per stream and the critical path whole; the charts; clear errors.

load common

setup() {
	TMP=$(mktemp -d)
}

teardown() {
	rm -rf "$TMP"
}

# tr-rank's rows of stream $1 (more arguments: tr-rank's), as report-dom.py prints them.
rank_rows() {
	local s=$1
	shift
	tr-rank --json "$@" "$s" | jq -r 'select(.k == "rating") | [.name, .calls, .excl, .cp, .blame, .cp_blame] | @tsv' |
		awk '{ print "row " NR "\t" $0 }'
}

# The facts report-dom.py finds in the browser's DOM of page $1; no console message.
dom_facts() {
	browser_dom "$1" > "$1.dom"
	[ ! -s "$1.console" ] || fail "console: $(cat "$1.console")"
	tests/helper/report-dom.py < "$1.dom"
}

@test "the corpus's CUDA trace: opens without a console error; tr-rank's rows; a lane per stream; the path whole; nothing fetched" {
	require_corpus
	analysed "$(archive casita-2_cuda_simple)" "$TMP/c.tr"
	tr-report "$TMP/c.tr" > "$TMP/c.html"
	dom_facts "$TMP/c.html" > "$TMP/facts"
	run grep '^row ' "$TMP/facts"
	assert_output "$(rank_rows "$TMP/c.tr")"
	[ "${#lines[@]}" -eq 20 ]
	streams=$(tr-cat -J "$TMP/c.tr" | jq -s '[.[] | select(.k == "stream" and .type != "metric")] | length')
	grep -qx "lanes $streams" "$TMP/facts"
	path=$(tr-critpath --summary "$TMP/c.tr" 2>&1 > /dev/null | sed -n 's/.*critical path \([0-9]*\)\.\([0-9]*\) s of.*/\1\2/p' | sed 's/^0*//')
	grep -qx "crit $path" "$TMP/facts"
	# the charts: a row per pattern with waits (tr-rank's summary), a row per process
	patterns=$(tr-rank --json "$TMP/c.tr" | jq -s '[.[] | select(.k == "wait_summary")] | length')
	grep -qx "bars $((patterns + 2))" "$TMP/facts"
	grep -qx "external 0" "$TMP/facts"
	# the first rows in words, as tr-rank -v tells them, each pattern linked to its explanation
	run sed -n 's/^words //p' "$TMP/facts"
	assert_output "$(tr-rank -v "$TMP/c.tr" | sed -n 's/^ [0-9]\. //p')"
	[ "${#lines[@]}" -eq 3 ]
	grep -qx "broken 0" "$TMP/facts"
	# no address of anything outside the page (but the SVG namespace)
	run bash -c "grep -o 'https\?://[^\"]*' '$TMP/c.html' | sort -u"
	assert_output "http://www.w3.org/2000/svg"
}

@test "-n 0: every row of the rating, as tr-rank -n 0; --idle: rated as tr-rank --idle" {
	gen-otf2 -r 4 -g 1 -f 40 -i 20 "$TMP/g/t" > /dev/null
	analysed "$TMP/g/t.otf2" "$TMP/g.tr"
	tr-report -n 0 "$TMP/g.tr" > "$TMP/all.html"
	run bash -c "tests/helper/report-dom.py < '$TMP/all.html' | grep '^row '"
	assert_output "$(rank_rows "$TMP/g.tr" -n 0)"
	tr-report --idle -n 5 "$TMP/g.tr" > "$TMP/idle.html"
	run bash -c "tests/helper/report-dom.py < '$TMP/idle.html' | grep '^row '"
	assert_output "$(rank_rows "$TMP/g.tr" --idle -n 5)"
}

@test "a click on a heading sorts the rating by it, down then up; numbers as numbers" {
	gen-otf2 -r 4 -i 20 "$TMP/g/t" > /dev/null
	analysed "$TMP/g/t.otf2" "$TMP/g.tr"
	tr-report -n 0 "$TMP/g.tr" > "$TMP/r.html"
	# the page with a click on "calls" (then, in the second, a second click)
	click="document.querySelectorAll('#rating-table th')[2].click();"
	sed "s|</body>|<script>$click</script></body>|" "$TMP/r.html" > "$TMP/once.html"
	sed "s|</body>|<script>$click$click</script></body>|" "$TMP/r.html" > "$TMP/twice.html"
	dom_facts "$TMP/once.html" | awk -F'\t' '/^row / { print $3 }' > "$TMP/down"
	dom_facts "$TMP/twice.html" | awk -F'\t' '/^row / { print $3 }' > "$TMP/up"
	[ "$(wc -l < "$TMP/down")" -gt 3 ]
	run diff "$TMP/down" <(sort -n -r "$TMP/down")
	assert_success
	run diff "$TMP/up" <(sort -n "$TMP/up")
	assert_success
	# the rows are the same rows, in another order
	run diff <(sort "$TMP/down") <(rank_rows "$TMP/g.tr" -n 0 | awk -F'\t' '{ print $3 }' | sort)
	assert_success
}

@test "names are text, not markup: <, > and & in a region's name" {
	gen-otf2 -r 2 -i 5 "$TMP/g/t" > /dev/null
	analysed "$TMP/g/t.otf2" "$TMP/g.tr"
	tr-cat -J "$TMP/g.tr" | jq -c 'if .k == "region" and .name == "MPI_Sendrecv" then .name = "f<int, \"&\">()</script>" else . end' |
		tr-cat -M > "$TMP/odd.tr"
	tr-report -n 0 "$TMP/odd.tr" > "$TMP/odd.html"
	run bash -c "tests/helper/report-dom.py < '$TMP/odd.html' | grep -c '^row .*f<int, \"&\">()</script>'"
	assert_output 1
	# in words too (a waiting call, or a row told), as text
	run bash -c "tests/helper/report-dom.py < '$TMP/odd.html' | grep -c '^words .*f<int, \"&\">()</script>'"
	refute_output 0
	browser_dom "$TMP/odd.html" > /dev/null
	[ ! -s "$TMP/odd.html.console" ] || fail "console: $(cat "$TMP/odd.html.console")"
}

@test "64 ranks: a lane per process, under 3 MB" {
	gen-otf2 -r 64 -t 1 -i 10 "$TMP/r/t" > /dev/null
	analysed "$TMP/r/t.otf2" "$TMP/r.tr"
	tr-report "$TMP/r.tr" > "$TMP/r.html"
	[ "$(stat -c %s "$TMP/r.html")" -lt 3000000 ]
	dom_facts "$TMP/r.html" > "$TMP/facts"
	grep -qx "lanes 64" "$TMP/facts"
	grep -qx "bars $(( $(tr-rank --json "$TMP/r.tr" | jq -s '[.[] | select(.k == "wait_summary")] | length') + 64 ))" "$TMP/facts"
}

@test "bad usage is exit 2; a stream not analysed, or empty, exit 1 with one line" {
	run --separate-stderr tr-report -n -1 x
	assert_failure 2
	assert_equal "$stderr" "tr-report: -n -1: give a number of rows (0: all)"
	run --separate-stderr tr-report -w 10 x
	assert_failure 2
	assert_equal "$stderr" "tr-report: -w 10: give a width from 400 to 20000 pixels"
	run --separate-stderr tr-report a b
	assert_failure 2
	gen-otf2 -i 5 "$TMP/g/t" > /dev/null
	run --separate-stderr bash -c "tr-read '$TMP/g/t.otf2' | tr-deps | tr-report"
	assert_failure 1
	[[ $stderr == *"has not been through tr-waits: run it before tr-report"* ]] || fail "$stderr"
	run --separate-stderr tr-report < /dev/null
	assert_failure 1
	assert_equal "$stderr" "tr-report: <stdin>: empty input: no records (not a record stream)"
	run --separate-stderr tr-report --version
	assert_success
	assert_output "$(tr-rank --version | sed 's/^tr-rank/tr-report/')"
}

@test "--diff: a tr-project what-if against its input, as tr-rank --diff compares them; the runs' figures; streams or ratings alike" {
	set -o pipefail
	gen-otf2 -r 4 -g 1 -i 20 "$TMP/g/t" > /dev/null
	tr-read "$TMP/g/t.otf2" 2>/dev/null | tr-deps 2>/dev/null | tr-clock 2>/dev/null > "$TMP/clocked.tr"
	tr-waits "$TMP/clocked.tr" 2>/dev/null | tr-critpath > "$TMP/a.tr" 2>/dev/null
	tr-project --scale 'jacobi_kernel=0.5' "$TMP/clocked.tr" 2>/dev/null | tr-waits 2>/dev/null |
		tr-critpath > "$TMP/b.tr" 2>/dev/null
	tr-report --diff "$TMP/a.tr" "$TMP/b.tr" > "$TMP/d.html"
	dom_facts "$TMP/d.html" > "$TMP/facts"
	# each region as tr-rank --diff has it, in its order: the kernel, halved, first
	run bash -c "sed -n 's/^diff [0-9]*\t//p' '$TMP/facts' | awk -F'\t' '{ printf \"%s\t%s\t%s\t%s\t%s\t%.6f\n\", \$1, \$2, \$3, \$4, \$5, \$6 }'"
	assert_output "$(tr-rank --diff --json "$TMP/a.tr" "$TMP/b.tr" | jq -r 'select(.k == "rating_diff") |
		[.name, .cp_a, .cp_b, .blame_a, .blame_b, (.rating_b - .rating_a)] | @tsv' |
		awk -F'\t' '{ printf "%s\t%s\t%s\t%s\t%s\t%.6f\n", $1, $2, $3, $4, $5, $6 }' | head -20)"
	assert_line --index 0 --regexp $'^jacobi_kernel\t825526\t4[0-9]{5}\t'
	# the runs: tr-rank's run_summary of each; the what-if is shorter
	for side in a b; do
		tr-rank --json "$TMP/$side.tr" | jq -r 'select(.k == "run_summary") | .runtime, .cp, .waiting, .blame, .idle' \
			> "$TMP/$side.run"
	done
	run bash -c "grep '^figure ' '$TMP/facts' | cut -f2,3"
	assert_output "$(paste "$TMP/a.run" "$TMP/b.run")"
	[ "$(sed -n 1p "$TMP/b.run")" -lt "$(sed -n 1p "$TMP/a.run")" ]
	grep -qx "external 0" "$TMP/facts"
	grep -qx "broken 0" "$TMP/facts"
	# the same page from two tr-rank --json ratings (all rows)
	tr-rank --json -n 0 "$TMP/a.tr" > "$TMP/a.json"
	tr-rank --json -n 0 "$TMP/b.tr" > "$TMP/b.json"
	tr-report --diff "$TMP/a.json" "$TMP/b.json" > "$TMP/j.html"
	run diff <(tests/helper/report-dom.py < "$TMP/d.html") <(tests/helper/report-dom.py < "$TMP/j.html")
	assert_success
	# -n: rows; bad usage; a side that is not there
	tr-report --diff -n 3 "$TMP/a.tr" "$TMP/b.tr" > "$TMP/n.html"
	run bash -c "tests/helper/report-dom.py < '$TMP/n.html' | grep -c '^diff '"
	assert_output 3
	run --separate-stderr tr-report --diff "$TMP/a.tr"
	assert_failure 2
	run --separate-stderr tr-report --diff "$TMP/a.tr" "$TMP/none.tr"
	assert_failure 1
	assert_equal "$stderr" "tr-report: $TMP/none.tr: No such file or directory"
	assert_output ""
}

# The path's time within [FROM, TO] (seconds from the run's first event) of stream $1, ns, as the strip sums it.
path_within() {
	tr-cat -J "$1" | jq -s --argjson a "$2" --argjson b "$3" '
		(map(select(.k == "enter" or .k == "leave").t) | min) as $f |
		($f + ($a * 1e9 | round)) as $lo | ($f + ($b * 1e9 | round)) as $hi |
		[.[] | select(.k == "crit") | ([.t + .dur, $hi] | min) - ([.t, $lo] | max) | select(. >= 0)] | add // 0'
}

@test "zoom: the wheel narrows the window and redraws it, the path's strip whole in it; #t=FROM,TO opens a window" {
	gen-otf2 -r 2 -g 1 -i 30 "$TMP/g/t" > /dev/null
	analysed "$TMP/g/t.otf2" "$TMP/g.tr"
	tr-report "$TMP/g.tr" > "$TMP/r.html"
	dom_facts "$TMP/r.html" > "$TMP/full"
	read -r _ from to drawn < <(grep '^view ' "$TMP/full")
	[ "$from" = 0 ]
	grep -qx "crit $(path_within "$TMP/g.tr" 0 "$to")" "$TMP/full"
	# ten turns of the wheel towards the reader, in the middle of the picture: 0.8^10 of the run
	wheel="var s=document.querySelector('#timeline svg'),r=s.getBoundingClientRect();for(var i=0;i<10;i++)s.dispatchEvent(new WheelEvent('wheel',{deltaY:-100,clientX:r.left+r.width*0.6,clientY:r.top+60,bubbles:true,cancelable:true}));"
	sed "s|</body>|<script>$wheel</script></body>|" "$TMP/r.html" > "$TMP/wheel.html"
	dom_facts "$TMP/wheel.html" > "$TMP/zoomed"
	read -r _ zfrom zto zdrawn < <(grep '^view ' "$TMP/zoomed")
	awk -v f="$zfrom" -v t="$zto" -v T="$to" 'BEGIN { w = (t - f) / T; exit !(f > 0 && t < T && w > 0.10 && w < 0.11) }' ||
		fail "zoomed to $zfrom..$zto of 0..$to"
	[ "$(grep '^titles ' "$TMP/zoomed")" != "$(grep '^titles ' "$TMP/full")" ]
	[ "$zdrawn" -gt 0 ]
	grep -qx "crit $(path_within "$TMP/g.tr" "$zfrom" "$zto")" "$TMP/zoomed"
	# a window from the address, and the same one after the zoom: the shared view
	dom_facts "$TMP/r.html#t=0.0005,0.0006" > "$TMP/window"
	grep -qx "view 0.0005 0.0006 [1-9][0-9]*" "$TMP/window"
	grep -qx "crit $(path_within "$TMP/g.tr" 0.0005 0.0006)" "$TMP/window"
	# the buttons: in halves the window, reset shows the whole run again
	sed "s|</body>|<script>document.querySelector('[data-zoom=in]').click();</script></body>|" "$TMP/r.html" > "$TMP/in.html"
	read -r _ bfrom bto _ < <(dom_facts "$TMP/in.html" | grep '^view ')
	awk -v f="$bfrom" -v t="$bto" -v T="$to" 'BEGIN { exit !((t - f) * 2 > T * 0.999 && (t - f) * 2 < T * 1.001) }'
	sed "s|</body>|<script>document.querySelector('[data-zoom=in]').click();document.querySelector('[data-zoom=reset]').click();</script></body>|" \
		"$TMP/r.html" > "$TMP/reset.html"
	browser_dom "$TMP/reset.html" | tests/helper/report-dom.py > "$TMP/reset"
	diff <(grep -E '^(view|crit|titles) ' "$TMP/full") <(grep -E '^(view|crit|titles) ' "$TMP/reset")
	# a page of a window (-t): zoomed within it, and it is what the page calls the whole
	tr-report -t 0.0005,0.001 "$TMP/g.tr" > "$TMP/t.html"
	sed "s|</body>|<script>document.querySelector('[data-zoom=in]').click();</script></body>|" "$TMP/t.html" > "$TMP/tin.html"
	dom_facts "$TMP/t.html" | grep -qx "view 0.0005 0.001 [0-9]*"
	grep -q 'id="timeline-window">the window drawn (-t), 0.0005 s to 0.001 s' "$TMP/t.html.dom"
	dom_facts "$TMP/tin.html" | grep -qx "view 0.000625 0.000875 [0-9]*"
}

@test "tools/report-pictures: the timeline's two pictures of a run, whole and zoomed; bad usage" {
	command -v chromium-headless-shell > /dev/null ||
		skip_unless chromium "no chromium-headless-shell (make deps installs it)"
	gen-otf2 -r 2 -g 1 -i 10 "$TMP/g/t" > /dev/null
	tools/report-pictures "$TMP/g/t.otf2" 0.0002,0.0004 "$TMP/p"
	for shot in full zoomed; do
		[ "$(head -c 8 "$TMP/p-$shot.png" | od -An -tx1 | tr -d ' \n')" = 89504e470d0a1a0a ]
	done
	! cmp -s "$TMP/p-full.png" "$TMP/p-zoomed.png"
	run tools/report-pictures "$TMP/g/t.otf2" 0.2 "$TMP/p"
	assert_failure 2
}

@test "a run with more items than the page holds (TR_ZOOM_ITEMS): drawn once, not zoomable, and the page says so" {
	gen-otf2 -r 2 -g 1 -i 10 "$TMP/g/t" > /dev/null
	analysed "$TMP/g/t.otf2" "$TMP/g.tr"
	TR_ZOOM_ITEMS=50 tr-report "$TMP/g.tr" > "$TMP/r.html"
	tr-report "$TMP/g.tr" > "$TMP/all.html"
	[ "$(stat -c %s "$TMP/r.html")" -lt "$(stat -c %s "$TMP/all.html")" ]
	dom_facts "$TMP/r.html" > "$TMP/facts"
	run grep -c '^view ' "$TMP/facts"
	assert_output 0
	# the picture as drawn once: the path whole
	path=$(tr-critpath --summary "$TMP/g.tr" 2>&1 > /dev/null | sed -n 's/.*critical path \([0-9]*\)\.\([0-9]*\) s of.*/\1\2/p' | sed 's/^0*//')
	grep -qx "crit $path" "$TMP/facts"
	grep -q 'More activities than the page holds to zoom (50): tr-report -t FROM,TO draws a window of the run.' "$TMP/r.html.dom"
}

@test "the page's script draws the path's strip and steps as tr-svg does: one step after a pixel or more on a lane (tests/data/timeline/path-hops.ndjson)" {
	tr-report -w 1200 "$DATA/timeline/path-hops.ndjson" > "$TMP/h.html"
	dom_facts "$TMP/h.html" > "$TMP/facts"
	grep -qx "hops 1" "$TMP/facts" || fail "$(grep '^hops' "$TMP/facts")"
	grep -qx "crit 1000000" "$TMP/facts"
	grep -qx "view 0 0.001 [0-9]*" "$TMP/facts"
}

@test "activities nested 6 deep: the page's script draws them as tr-svg does, no console error (an SVG height below 0 is one)" {
	tr-report "$DATA/timeline/deep-nesting.ndjson" > "$TMP/d.html"
	dom_facts "$TMP/d.html" > /dev/null
	run bash -c "grep -o 'height=\"-[^\"]*\"' '$TMP/d.html.dom' | head -1"
	assert_output ""
}

@test "every corpus trace: its page opens in the browser without a console message, no shape below 0 high" {
	require_corpus
	local n=0
	while read -r input; do
		n=$((n + 1))
		tr-analyze -q --stream "$TMP/$n.tr" "$input" 2> /dev/null || fail "$input: tr-analyze failed"
		tr-report "$TMP/$n.tr" > "$TMP/$n.html"
		browser_dom "$TMP/$n.html" > "$TMP/$n.dom"
		[ ! -s "$TMP/$n.html.console" ] || fail "$input: console: $(head -3 "$TMP/$n.html.console")"
		! grep -q 'height="-' "$TMP/$n.html" "$TMP/$n.dom" || fail "$input: a shape drawn below 0 high"
	done < <(corpus_inputs)
	[ "$n" -eq 19 ]
}

@test "a run spanning the whole range of times (2^63 ns): the page and the pictures, no undefined sum (turn4)" {
	run --separate-stderr tr-report "$DATA/repros/report-full-range.tr"
	assert_success
	assert_equal "$stderr" ""
	[[ $output == *"</html>" ]] || fail "not a whole page"
	# (the sanitizer build: the offsets from the first event, 2^63 - 1 at most, in unsigned arithmetic)
	for tool in tr-svg tr-chrome; do
		run --separate-stderr "$tool" "$DATA/repros/report-full-range.tr"
		assert_success
	done
}
