#!/usr/bin/env bats
# The man pages: EXAMPLES run as a reader pastes them from the rendered page;
# usage() mirrors the SYNOPSIS.

load common

setup() {
	TMP=$(mktemp -d)
	doc_examples | tr-cat -M > "$TMP/run.tr"
	gen-otf2 -r 2 -t 2 -i 3 "$TMP/trace"
	# tr-read(1)'s PyTorch profiles and Nsight export
	gen-kineto --ranks 2 --steps 3 "$TMP/profiles"
	sqlite3 "$TMP/run.sqlite" "CREATE TABLE StringIds (id INTEGER, value TEXT);
		INSERT INTO StringIds VALUES (1, 'cudaLaunchKernel'), (2, 'k');
		CREATE TABLE CUPTI_ACTIVITY_KIND_RUNTIME (start, end, globalTid, correlationId, nameId);
		INSERT INTO CUPTI_ACTIVITY_KIND_RUNTIME VALUES (10, 20, 16777217, 1, 1);
		CREATE TABLE CUPTI_ACTIVITY_KIND_KERNEL (start, end, deviceId, streamId, correlationId, globalPid, shortName);
		INSERT INTO CUPTI_ACTIVITY_KIND_KERNEL VALUES (25, 40, 0, 7, 1, 16777216, 2);"
	# tr-record(1)'s ./app, under mpirun (as root in containers)
	cp "$TOP/tests/helper/mpi-patterns" "$TMP/app"
	export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_rmaps_base_oversubscribe=1 OMPI_MCA_mpi_yield_when_idle=1
}

teardown() {
	rm -rf "$TMP"
}

# The commands of a page's EXAMPLES section as the reader sees them, to
# paste: the .Dl displays of the rendered page (man -l), unwrapped.
examples() {
	MANWIDTH=1000 man -l "$1" 2>/dev/null |
		awk '/^[A-Z]/ { f = ($1 == "EXAMPLES") } f && /^           [^ ]/ { sub(/^ +/, ""); print }'
}

@test "every man page has examples, and each runs successfully" {
	for page in "$TOP"/doc/*.[1-8]; do
		[ -n "$(examples "$page")" ] || fail "$page has no EXAMPLES"
		while IFS= read -r cmd; do
			# sanitizer runs: Open MPI's components lose memory at MPI_Finalize,
			# unloaded by the time LeakSanitizer looks (tests/3011-analyze-mpi.bats)
			leaks=
			[[ $cmd == mpirun* ]] && leaks=detect_leaks=0
			(cd "$TMP" && ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}$leaks" bash -o pipefail -c "$cmd" \
				> "$TMP/out" 2> "$TMP/err") ||
				fail "$(basename "$page"): '$cmd' failed: $(cat "$TMP/err")"
			# --stats writes to stderr by design; a tool's message would start "tr-..."
			if grep -q '^tr-[a-z0-9]*: ' "$TMP/err"; then
				fail "$(basename "$page"): '$cmd' complained: $(cat "$TMP/err")"
			fi
		done <<< "$(examples "$page")"
	done
}

@test "each tool's usage mirrors its man page SYNOPSIS; -h lists every option the page has" {
	for page in "$TOP"/doc/*.1; do
		tool=$(basename "$page" .1)
		synopsis=$(MANWIDTH=400 man -l "$page" 2>/dev/null | awk '/^SYNOPSIS/ { getline; sub(/^ +/, ""); print; exit }')
		"$tool" -h > "$TMP/help"
		assert_equal "$(head -1 "$TMP/help")" "usage: $synopsis"
		# a usage error gives the usage line alone, on stderr
		run --separate-stderr "$tool" --no-such-option
		assert_failure 2
		assert_equal "$(tail -1 <<< "$stderr")" "usage: $synopsis"
		for opt in $(sed -n 's/^\.It .*Fl Fl \([a-z-]*\).*/--\1/p; s/^\.It Fl \([a-zA-Z]\)\( .*\)\{0,1\}$/-\1/p' "$page" | sort -u); do
			grep -q -- "$opt\b" "$TMP/help" || fail "$tool -h does not list $opt"
		done
	done
}

@test "every tool says its name and version with --version, and exits 0" {
	for page in "$TOP"/doc/tr-*.1; do
		tool=$(basename "$page" .1)
		run "$tool" --version
		assert_success
		assert_output --regexp "^$tool [0-9]+\.[0-9]+\.[0-9]+$"
		grep -q '^\.It Fl Fl version$' "$page" || fail "$page does not document --version"
	done
}

@test "make install puts the tools, the man pages and the recipes of pipelines/ in place; make uninstall takes them away" {
	make -s -C "$TOP" install DESTDIR="$TMP/root" PREFIX=/usr > /dev/null
	for page in "$TOP"/doc/tr-*.1; do
		tool=$(basename "$page" .1)
		[ -x "$TMP/root/usr/bin/$tool" ] || fail "$tool not installed"
		[ -f "$TMP/root/usr/share/man/man1/$tool.1" ] || fail "$tool.1 not installed"
	done
	[ -f "$TMP/root/usr/share/man/man7/tr.7" ]
	for jq in "$TOP"/pipelines/*.jq "$TOP"/pipelines/*.mk; do
		[ -f "$TMP/root/usr/share/tr/pipelines/$(basename "$jq")" ] || fail "$jq not installed"
	done
	for sh in "$TOP"/pipelines/*.sh; do
		[ "$(basename "$sh")" = example.sh ] && continue
		[ -x "$TMP/root/usr/share/tr/pipelines/$(basename "$sh")" ] || fail "$sh not installed"
	done
	[ ! -e "$TMP/root/usr/share/tr/pipelines/example.sh" ]
	make -s -C "$TOP" uninstall DESTDIR="$TMP/root" PREFIX=/usr > /dev/null
	run find "$TMP/root" -type f
	assert_output ""
}
