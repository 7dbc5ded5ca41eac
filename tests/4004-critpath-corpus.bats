#!/usr/bin/env bats
# The whole pipeline, tr-read | tr-deps | tr-waits | tr-critpath | tr-rank,
# on every corpus archive; the critical path against the run, and the
# rating's top against CASITA 1.9's (../shared/corpus/peer-output/casita-1.9/).

load common

setup() {
	corpus_setup
}

teardown() {
	corpus_teardown
}

# Analyse archive NAME into $TMP/NAME.tr (messages in $TMP/NAME.err).
analyse() {
	set -o pipefail
	tr-read -M "$(archive "$1")" 2> "$TMP/$1.err" | tr-deps -M 2>> "$TMP/$1.err" |
		tr-waits -M 2>> "$TMP/$1.err" | tr-critpath -M -j 2 > "$TMP/$1.tr" 2>> "$TMP/$1.err"
}

@test "every corpus archive: the path is the same collected as it goes or kept whole, nothing lost" {
	for dir in "$CORPUS"/otf2/*/; do
		name=$(basename "$dir")
		tr-read -M "$(archive "$name")" 2>/dev/null | tr-deps -M 2>/dev/null |
			tr-waits -M > "$TMP/w.tr" 2>/dev/null
		tr-critpath -J "$TMP/w.tr" 2> "$TMP/err" | grep '"k":"crit"' > "$TMP/collected"
		! grep -q "dependencies came for events" "$TMP/err" || fail "$name: $(cat "$TMP/err")"
		TR_CRITPATH_KEEP_ALL=1 tr-critpath -J "$TMP/w.tr" 2>/dev/null | grep '"k":"crit"' |
			cmp - "$TMP/collected" || fail "$name: the path differs when collected"
		# blame on the path: the same totals per activity, whenever its blame came
		for keep in "" 1; do
			TR_CRITPATH_KEEP_ALL=$keep tr-critpath -J "$TMP/w.tr" 2>/dev/null | grep '"k":"path_blame"' |
				jq -sc 'group_by([.act, .idle]) | map([.[0].act, .[0].idle, (map(.ns) | add)])' > "$TMP/pb$keep"
		done
		cmp "$TMP/pb" "$TMP/pb1" || fail "$name: other blame on the path when collected"
		! grep -q "let go of" "$TMP/err" || fail "$name: $(cat "$TMP/err")"
	done
}

@test "every corpus archive goes through the whole pipeline; the path tiles the run" {
	for dir in "$CORPUS"/otf2/*/; do
		name=$(basename "$dir")
		analyse "$name" || fail "$name: $(cat "$TMP/$name.err")"
		tr-rank "$TMP/$name.tr" > /dev/null || fail "$name: tr-rank failed"
		tr-rank --json "$TMP/$name.tr" | tr-cat --check || fail "$name: tr-rank --json"
		# the pieces follow each other without gap or overlap, and end at the
		# run's end: the latest leave of MPI_Finalize, else the last event of
		# a host thread or GPU stream
		run bash -c "tr-cat -J '$TMP/$name.tr' | jq -s -r '
			(map(select(.k == \"region\" and .role == \"mpi_finalize\")) | map(.id)) as \$fin |
			(map(select(.k == \"leave\" and ([.r] | inside(\$fin))) | .t) | max) as \$f |
			(map(select(.k == \"stream\" and .type != \"metric\") | .id)) as \$run |
			(map(select(.id != null and .t != null and ([.s] | inside(\$run))) | .t) | max) as \$last |
			map(select(.k == \"crit\")) as \$c |
			([range(1; \$c | length) as \$i | select(\$c[\$i].t != \$c[\$i - 1].t + \$c[\$i - 1].dur)] | length),
			(\$c[-1].t + \$c[-1].dur == (\$f // \$last))'"
		assert_success
		assert_output "0
true"
	done
}

@test "every corpus archive: no piece of the path lies outside its activity" {
	# A step across an edge is charged to its source's activity only until
	# that activity ends (a kernel's end to the sync that waited for it, a
	# send to its receive): before, on the GPU traces, 45 (cuda_simple),
	# 2332 (jacobi) and 9024 (cloverleaf) pieces outlasted their activity.
	for dir in "$CORPUS"/otf2/*/; do
		name=$(basename "$dir")
		analyse "$name" || fail "$name: $(cat "$TMP/$name.err")"
		run pieces-outside-activity <(tr-cat -J "$TMP/$name.tr")
		assert_success
		assert_output ""
	done
}

@test "single-process traces: the path is as long as the run" {
	for name in casita-1_ocl_deps casita-1_scorep-ompt-host-nested casita-1_sptc fastotf2-mi300-hip; do
		analyse "$name"
		run tr-rank --json "$TMP/$name.tr"
		assert_success
		run jq -r 'select(.k == "run_summary") | .runtime == .cp' <<< "$output"
		assert_output true
	done
}

@test "the run's length is the events' span, not the archive's recorded length CASITA reports" {
	# casita-1_scorep-ompt-host-nested: the events span 0.010581 s; the
	# clock properties' length, 27908192 ticks at 1995563064 per second, is
	# CASITA's "Total program runtime: 0.013985 s" (tr-rank(1))
	analyse casita-1_scorep-ompt-host-nested
	run bash -c "tr-rank --json '$TMP/casita-1_scorep-ompt-host-nested.tr' |
		jq -r 'select(.k == \"run_summary\") | .runtime'"
	assert_output 10581060
	run bash -c "otf2-print -G '$(archive casita-1_scorep-ompt-host-nested)' 2> /dev/null |
		awk '/^CLOCK_PROPERTIES/ { gsub(\",\", \"\"); printf \"%.6f\\n\", \$10 / \$5 }'"
	assert_output 0.013985
	grep -q "Total program runtime *: *0.013985 s" \
		"$CORPUS/peer-output/casita-1.9/casita-1_scorep-ompt-host-nested/casita_summary.txt"
}

@test "CASITA: the same critical path through init_cuda and foo" {
	# casita-4_mpi_ls_barr: foo is on the path 19.945392 s (99.81 %) and
	# has 51.428307 s of blame, as in CASITA's table. casita-2_cuda_simple
	# and casita-2_jacobi_blame_cpu_015: init_cuda on the path 0.419458 s
	# (CASITA's to the microsecond) and 0.718371 s (CASITA 0.718381).
	for case in casita-4_mpi_ls_barr:foo:19.945392:51.428307 \
		casita-2_cuda_simple:init_cuda:0.419458: \
		casita-2_jacobi_blame_cpu_015:init_cuda:0.718371:; do
		IFS=: read -r name region cp blame <<< "$case"
		analyse "$name"
		run bash -c "tr-rank --json -n 0 '$TMP/$name.tr' | jq -r --arg r '$region' \
			'select(.k == \"rating\" and .name == \$r) | \"\(.cp / 1e9 * 1e6 | round / 1e6) \(.blame / 1e9 * 1e6 | round / 1e6)\"'"
		assert_success
		[[ "$output" == "$cp "* ]] || fail "$name $region: $output, not cp $cp"
		[ -z "$blame" ] || [[ "$output" == *" $blame" ]] || fail "$name $region: $output, not blame $blame"
	done
}

# "REGION SECONDS" on the path, of the four regions the CASITA comparison
# on jacobi_blame_cpu_015 is about, from the analysed stream on stdin.
jacobi_cp() {
	tr-rank --json -n 0 | jq -r 'select(.k == "rating" and (.name |
		IN("jacobi_kernel", "copy_kernel", "init_cuda", "!$omp for @jacobi_cuda.c:175")))
		| "\(.name) \(.cp / 1e9 * 1e6 | round / 1e6)"' | sort
}

# For "REGION SECONDS" lines in file $1: "REGION near" where CASITA's time
# on the path is within $2 % of ours, "below" where ours is under a tenth
# of it, "above" where over twice, else "far".
against_casita() {
	local peer=$CORPUS/peer-output/casita-1.9/casita-2_jacobi_blame_cpu_015/casita_rating.csv
	while read -r line; do
		awk -F';' -v r="${line% *}" -v a="${line##* }" -v pct="$2" '$1 == r {
			d = a - $4; w = d < 0 ? -d : d
			print r, (w <= $4 * pct / 100 ? "near" : a < $4 / 10 ? "below" : a > 2 * $4 ? "above" : "far") }' "$peer"
	done < "$1"
}

@test "casita-2_jacobi_blame_cpu_015: CASITA's jacobi_kernel on the path comes from edges against time" {
	# The GPUs' clocks run behind their hosts': 9870 of 11890 GPU activities
	# begin before the call that enqueued them, by up to 87 us. Our path steps back to the launch in 0 ns
	# and stays with the host's "!$omp for", longer than the kernel (1.36 ms
	# to 0.78 ms an iteration). CASITA links a kernel only to a launch read
	# before it, so not such a kernel to its launch; with those edges dropped
	# (pipelines/casita-reverse-edges.jq) our path, like CASITA's, stays on
	# a GPU stream: jacobi_kernel 0.771557 s (CASITA 0.775891), init_cuda
	# 0.718376 s (CASITA 0.718381). Not the rest of CASITA's path (as
	# tr-critpath(1) says): copy_kernel 0.386379 s (CASITA 0.337208), the
	# "!$omp for" 0.022844 s (CASITA 0.666515), 0.715 s in no activity.
	analyse casita-2_jacobi_blame_cpu_015
	grep -q "9870 GPU activities that came before" "$TMP/casita-2_jacobi_blame_cpu_015.err"
	# relations to CASITA's Time on CP (casita_rating.csv): "REGION OURS
	# CASITA" per line, then whether ours is within PCT % of it ("near"),
	# far below ("below": under a tenth) or far above ("above": over twice)
	jacobi_cp < "$TMP/casita-2_jacobi_blame_cpu_015.tr" > "$TMP/ours"
	run against_casita "$TMP/ours" 0.5
	assert_output - <<'OUT'
!$omp for @jacobi_cuda.c:175 above
copy_kernel far
init_cuda near
jacobi_kernel below
OUT
	run bash -c "set -o pipefail; tr-cat -J '$TMP/casita-2_jacobi_blame_cpu_015.tr' |
		jq -c -n -f '$TOP/pipelines/casita-reverse-edges.jq' | tr-critpath 2> '$TMP/err' > '$TMP/casita.tr'"
	assert_success
	jacobi_cp < "$TMP/casita.tr" > "$TMP/ours"
	run against_casita "$TMP/ours" 0.6
	assert_output - <<'OUT'
!$omp for @jacobi_cuda.c:175 below
copy_kernel far
init_cuda near
jacobi_kernel near
OUT
	run bash -c "tr-cat -J '$TMP/casita.tr' | jq -n '[inputs | select(.k == \"crit\" and .r == null) | .dur] | add'"
	assert_output 715139809
	run cat "$TMP/err"
	refute_output --partial "back in time"
}

@test "casita-2_cuda_simple: a blocking copy to the device does not wait for its own copy, and the path is CASITA's" {
	# Its 43 cuMemcpyHtoD calls return before their copies end, by up to
	# 990 us: pageable memory, staged by the call, copied after it (CUDA's
	# documented behaviour). Waiting for its own copy, each such call had a
	# synchronization back in time, 133 steps of the path followed them,
	# and "!$omp for @jacobi_cuda.c:175" had 0.015453 s on the path. Now no
	# step goes back, and it has CASITA's 0.024031 s (casita_rating.csv);
	# dropping edges against time (pipelines/casita-reverse-edges.jq)
	# changes nothing.
	name=casita-2_cuda_simple
	analyse "$name"
	run cat "$TMP/$name.err"
	refute_output --partial "back in time"
	omp_for_cp() {
		tr-rank --json -n 0 | jq -r 'select(.k == "rating" and .name == "!$omp for @jacobi_cuda.c:175")
			| .cp / 1e9 * 1e6 | round / 1e6'
	}
	run omp_for_cp < "$TMP/$name.tr"
	assert_output 0.024031
	grep -q '^!$omp for @jacobi_cuda.c:175;40;0.096127;0.024031;' \
		"$CORPUS/peer-output/casita-1.9/$name/casita_rating.csv"
	run bash -c "set -o pipefail; tr-cat -J '$TMP/$name.tr' |
		jq -c -n -f '$TOP/pipelines/casita-reverse-edges.jq' | tr-critpath > '$TMP/casita.tr'"
	assert_success
	run omp_for_cp < "$TMP/casita.tr"
	assert_output 0.024031
	# no synchronization ends before the copy it waited for
	tr-read -M "$(archive "$name")" 2> /dev/null | tr-deps -M 2> /dev/null | tr-clock 2> "$TMP/clock.err" > /dev/null
	run cat "$TMP/clock.err"
	refute_output --partial "ended after the host call"
}

@test "casita-1_xeonphi_jacobi_01: CASITA's target regions hold the copies Score-P recorded in them" {
	# Score-P recorded this run's device copies ("memcpy HtoD/DtoH") on the
	# host thread, inside the target regions that made them; we rate each
	# copy as an activity of its own, CASITA folds it into the region around
	# it. Our time and path time of a target region plus those of the copies
	# in it are CASITA's (casita_rating.csv): targetmap @174 0.975221 s and
	# 0.971366 s on the path, target @224 0.613432 s and 0.609436 s.
	name=casita-1_xeonphi_jacobi_01
	analyse "$name"
	tr-read -J "$(archive "$name")" 2>/dev/null > "$TMP/x.json"
	# seconds of the copies on the host thread, by the region they are in
	jq -rs '(map(select(.k == "region")) | map({key: (.id | tostring), value: .name}) | from_entries) as $r |
		[foreach (.[] | select(.s == 0 and (.k == "enter" or .k == "leave"))) as $e ({st: [], out: null};
			if $e.k == "enter" then .out = null | .st += [{r: $e.r, t: $e.t, p: (.st[-1].r // null)}]
			else .out = (.st[-1] + {d: ($e.t - .st[-1].t)}) | .st |= .[:-1] end; .out // empty)] |
		map(select($r[.r | tostring] | test("^memcpy "))) | group_by(.p)[] |
		"\($r[.[0].p | tostring])\t\(map(.d) | add)"' "$TMP/x.json" > "$TMP/copies"
	tr-rank --json "$TMP/$name.tr" | tr-cat -J | jq -r 'select(.k == "rating") | "\(.name)\t\(.excl)\t\(.cp)"' > "$TMP/rated"
	run awk -F'\t' 'NR == FNR { c[$1] = $2; next }
		$1 == "!$omp targetmap @jacobi_target.c:174" || $1 == "!$omp target @jacobi_target.c:224" {
			printf "%s %.6f %.6f\n", $1, ($2 + c[$1]) / 1e9, ($3 + c[$1]) / 1e9 }' "$TMP/copies" "$TMP/rated"
	assert_output - <<'OUT'
!$omp targetmap @jacobi_target.c:174 0.975221 0.971366
!$omp target @jacobi_target.c:224 0.613432 0.609436
OUT
}

@test "OpenMP team start: a fork's transit leaves the function that forked, on the team threads, toward CASITA's figures" {
	# Score-P forks inside 'jacobi'; charged to it, the team's start put
	# 0.017775 s of jacobi_blame_cpu_015's path and 0.002720 s of
	# cuda_simple's on it (CASITA: 0.006555, 0.000227). The team start is a
	# region of its own now, in no activity, on the team threads and on the
	# first host thread of a process too, which forks: its own fork to its
	# team_begin (turn4's case 1: 0.011721 s of jacobi there before,
	# 0.009608 s now; its blame 0.002279 s before, 0.002052 s now, CASITA
	# 0.002135 s), and jacobi's time on the path is within a factor 2 of
	# CASITA's.
	local name peer cp casita
	for name in casita-2_jacobi_blame_cpu_015 casita-2_cuda_simple; do
		analyse "$name"
		run bash -c "tr-cat -J '$TMP/$name.tr' | jq -r -n '[inputs] |
			(map(select(.k == \"region\" and .role == \"omp_team_start\")) | .[0].id) as \$r |
			(map(select(.k == \"stream\" and .type == \"host\")) | group_by(.process) | map(.[0].id)) as \$first |
			map(select(.k == \"crit\" and .r == \$r)) |
			\"\(length > 0) \(map(select(.act != null)) | length) \(any(.[]; .s | IN(\$first[])))\"'"
		assert_output "true 0 true"
		cp=$(tr-rank --json -n 0 "$TMP/$name.tr" | jq -r 'select(.k == "rating" and .name == "jacobi") | .cp / 1e9')
		casita=$(awk -F';' '$1 == "jacobi" { print $4 }' "$CORPUS/peer-output/casita-1.9/$name/casita_rating.csv")
		awk -v a="$cp" -v b="$casita" 'BEGIN { exit !(a < 2 * b && b < 2 * a) }' || fail "$name: jacobi $cp s on the path, CASITA $casita"
	done
}

@test "casita-4_mpi_ls_barr: the time after the last arrival at a collective is on the path, to the member it goes on with; CASITA has the last arriver's own" {
	# From the events: the barrier's last arriver enters at E and leaves at
	# L; our path has it from E to L, then another member (the last to
	# arrive at the Finalize the run ends with) from L to that member's own
	# leave M: M - E of MPI_Barrier on the path. CASITA's
	# (casita_rating.csv) is L - E, to its microsecond.
	local name=casita-4_mpi_ls_barr e l m
	analyse "$name"
	read -r e l m < <(tr-cat -J "$TMP/$name.tr" | jq -r -n '[inputs] as $all
		| ($all | map(select(.k == "region" and .name == "MPI_Barrier")) | .[0].id) as $r
		| ($all | map(select(.k == "enter" and .r == $r)) | max_by(.t)) as $last
		| ($all | map(select(.k == "leave" and .r == $r))) as $leaves
		| ($leaves | map(select(.s == $last.s)) | .[0].t) as $l
		| ($all | map(select(.k == "crit" and .r == $r)) | sort_by(.t)) as $p
		| ($leaves | map(select(.s == $p[1].s)) | .[0].t) as $m
		| if ($p | length) == 2 and $p[0].s == $last.s and $p[0].t == $last.t and
		     $p[0].dur == $l - $last.t and $p[1].s != $last.s and $p[1].t == $l and $p[1].dur == $m - $l
		  then "\($last.t) \($l) \($m)" else "pieces \($p)" end')
	[ "$m" -gt "$l" ] || fail "$e $l $m"
	run awk -F';' '$1 == "MPI_Barrier" { print $4 }' "$CORPUS/peer-output/casita-1.9/$name/casita_rating.csv"
	assert_output "$(awk -v d="$((l - e))" 'BEGIN { printf "%.6f", d / 1e9 }')"
	run bash -c "tr-rank --json -n 0 '$TMP/$name.tr' | jq -r 'select(.k == \"rating\" and .name == \"MPI_Barrier\") | .cp'"
	assert_output "$((m - e))"
}
