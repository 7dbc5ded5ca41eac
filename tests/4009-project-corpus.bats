#!/usr/bin/env bats
# tr-project on every corpus archive after tr-clock: with no change every
# time comes back through the model; a change gives a valid stream the
# pipeline takes as it took the original; and on
# casita-2_jacobi_blame_cpu_015 the projected gains agree with the
# critical path (see tr-project(1)).

load common

setup() {
	corpus_setup
}

teardown() {
	corpus_teardown
}

@test "every corpus archive: no change gives back the input, a change a stream the pipeline takes" {
	for dir in "$CORPUS"/otf2/*/; do
		name=$(basename "$dir")
		tr-read -M "$(archive "$name")" 2>/dev/null | tr-deps -M 2>/dev/null | tr-clock -M > "$TMP/c.tr" 2>/dev/null
		tr-project --scale '*=1.0' "$TMP/c.tr" > "$TMP/p.tr" 2> "$TMP/err" || fail "$name: $(cat "$TMP/err")"
		cmp <(body "$TMP/c.tr") <(body "$TMP/p.tr" | grep -v '"k":"projection"') ||
			fail "$name: not the input's times and records"
		tr-project --scale '*=0.5' "$TMP/c.tr" > "$TMP/h.tr" 2> "$TMP/err" || fail "$name: $(cat "$TMP/err")"
		tr-cat --check "$TMP/h.tr" || fail "$name: not a valid stream"
		# tr-waits finds what every edge names, as on the original
		tr-waits -M "$TMP/c.tr" 2>&1 > /dev/null | grep naming > "$TMP/werr0" || true
		tr-waits -M "$TMP/h.tr" 2> "$TMP/werr" > "$TMP/w.tr" || fail "$name: tr-waits"
		grep naming "$TMP/werr" | cmp - "$TMP/werr0" ||
			fail "$name: $(cat "$TMP/werr") (without tr-project: $(cat "$TMP/werr0"))"
		tr-critpath -M "$TMP/w.tr" 2>/dev/null | tr-rank > /dev/null || fail "$name: tr-rank"
	done
}

@test "casita-2_jacobi_blame_cpu_015: what a faster kernel would gain, as the critical path says" {
	# After tr-clock jacobi_kernel is hardly on the critical path (each
	# iteration's host loop outlasts it). Halved and doubled back, jacobi_kernel's times come back to within
	# 1 ns (the rounding of odd intervals); the GPU clock's 23 late
	# synchronizations are not followed.
	tr-read -M "$(archive casita-2_jacobi_blame_cpu_015)" 2>/dev/null | tr-deps -M 2>/dev/null |
		tr-clock -M > "$TMP/c.tr" 2>/dev/null
	# A region halved gains the run at most half its time on the path (the
	# path can shrink by no more), and nearly that where nothing else is
	# as long: jacobi_kernel's 0.002 s, halved, within that; copy_kernel's
	# 0.386 s, between 90 % and all of its half.
	tr-waits -M "$TMP/c.tr" 2>/dev/null | tr-critpath -M 2>/dev/null | tr-rank --json -n 0 > "$TMP/rank.json"
	local kernel cp gain
	for kernel in jacobi_kernel copy_kernel; do
		cp=$(jq -r --arg k "$kernel" 'select(.k == "rating" and .name == $k) | .cp' "$TMP/rank.json")
		run --separate-stderr bash -c "tr-project --scale $kernel=0.5 --summary '$TMP/c.tr' > /dev/null"
		assert_success
		gain=$(grep -o "$kernel=0.5: run [0-9.]* s, projected [0-9.]* s, gain [0-9.]* s" <<< "$stderr" |
			awk '{ printf "%.0f", $(NF - 1) * 1e9 }')
		[ -n "$gain" ] || fail "$stderr"
		if [ "$kernel" = jacobi_kernel ]; then
			awk -v g="$gain" -v c="$cp" 'BEGIN { exit !(g >= 0 && g <= c / 2) }' || fail "$kernel: gain $gain ns, $cp ns on the path"
			[[ "$stderr" == *"tr-project: $TMP/c.tr: 18 edges whose source is later than their target"* ]] || fail "$stderr"
		else
			awk -v g="$gain" -v c="$cp" 'BEGIN { exit !(g >= 0.9 * c / 2 && g <= c / 2) }' || fail "$kernel: gain $gain ns, $cp ns on the path"
			[[ "$stderr" == *"floors: 32 API functions (their least own time in the input, or --min), 0 calls held at them"* ]] || fail "$stderr"
		fi
	done
	tr-project --scale jacobi_kernel=0.5 "$TMP/c.tr" 2>/dev/null |
		tr-project --scale jacobi_kernel=2 > "$TMP/back.tr" 2>/dev/null
	# "id t" of every event (ids before times in every event record)
	for f in c back; do
		tr-cat -J "$TMP/$f.tr" | grep -o '"id":[0-9]*,"t":[0-9]*' | tr -c '0-9\n' ' ' |
			awk '{ print $1, $2 }' | sort > "$TMP/$f.t"
	done
	run bash -c "join '$TMP/c.t' '$TMP/back.t' |
		awk '{ d = \$3 - \$2; if (d) n++; if (d < -1 || d > 1) far++ } END { print n + 0, far + 0 }'"
	assert_output "959 0"
}
