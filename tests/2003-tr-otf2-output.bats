#!/usr/bin/env bats
# tr-otf2's output is whole or not there, and never more than its own
# files: what --force may replace, a failure, a crash and a signal at each
# step of moving the archive into place (tests/helper/libfault.so), a full
# disk and a file-size limit.

load common

setup_file() {
	export FIX="$BATS_FILE_TMPDIR/fix"
	mkdir -p "$FIX"
	cat "$DATA/mpi/defs.ndjson" "$DATA/mpi/late-sender.ndjson" | tr-cat -M > "$FIX/old.tr"
	tr-cat -M "$DATA/otf2/lost-role.ndjson" > "$FIX/new.tr"
	gen-otf2 -r 2 -t 2 -i 200 "$FIX/big/t"
	tr-read -M "$FIX/big/t.otf2" > "$FIX/big.tr"
}

setup() {
	TMP=$(mktemp -d)
}

teardown() {
	if mountpoint -q "$TMP/full" 2>/dev/null; then
		umount "$TMP/full"
	fi
	rm -rf "$TMP"
}

# The archive DIR/NAME as tr-read reads it, without the header (which names the path).
archive_body() {
	tr-read -J "$1.otf2" | grep -v '"k":"header"'
}

# $TMP/d: the old archive t and a file of the user's beside it.
old_archive() {
	tr-otf2 -o "$TMP/d/t" "$FIX/old.tr"
	echo "my thesis" > "$TMP/d/thesis.tex"
	archive_body "$TMP/d/t" > "$TMP/old.body"
	tr-otf2 -o "$TMP/n/t" "$FIX/new.tr" 2>/dev/null
	archive_body "$TMP/n/t" > "$TMP/new.body"
}

# tr-otf2 --force writing the new stream over $TMP/d/t, with a fault injected.
force_with_fault() {
	# under AddressSanitizer the preloaded library comes before its runtime
	ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}verify_asan_link_order=0" \
		TR_FAULT=$1 LD_PRELOAD="$TOP/tests/helper/libfault.so" \
		tr-otf2 --force -o "$TMP/d/t" "$FIX/new.tr"
}

# $TMP/d holds the user's file untouched and, besides the archive's own
# names, at most one staging folder.
assert_only_ours() {
	run bash -c "cat '$TMP/d/thesis.tex'; ls -A '$TMP/d' | grep -vxE 't|t.def|t.otf2|thesis.tex|\.t\.tr-otf2-......'"
	assert_output "my thesis"
	[ "$(ls -A "$TMP/d" | grep -c '^\.t\.tr-otf2-')" -le 1 ]
}

@test "--force refuses a folder of the user's where the archive's folder would be" {
	mkdir -p "$TMP/d/x"
	echo "my thesis" > "$TMP/d/x/thesis.tex"
	run --separate-stderr tr-otf2 --force -o "$TMP/d/x" "$FIX/new.tr"
	assert_failure 1
	assert_equal "$stderr" "tr-otf2: $TMP/d/x holds thesis.tex, which is not part of an OTF2 archive; not replacing it"
	run cat "$TMP/d/x/thesis.tex"
	assert_output "my thesis"
	run ls -A "$TMP/d"
	assert_output "x"
}

@test "--force replaces only what libotf2 wrote, by content: a user's NAME.def, or a NAME/ of files named like an archive's, is kept (turn3 F8)" {
	echo "my definitions, not OTF2" > "$TMP/run.def"
	mkdir "$TMP/other"
	echo "my notes" > "$TMP/other/0.evt"
	for tool in "tr-otf2 -q" "tr-analyze -q"; do
		in=$FIX/new.tr
		[ "$tool" = "tr-analyze -q" ] && in=$FIX/big/t.otf2
		run --separate-stderr $tool -f -o "$TMP/run" "$in"
		assert_failure 1
		assert_equal "$stderr" "${tool% -q}: $TMP/run.def is not part of an OTF2 archive; not replacing it"
		run --separate-stderr $tool -f -o "$TMP/other" "$in"
		assert_failure 1
		assert_equal "$stderr" "${tool% -q}: $TMP/other holds 0.evt, which is not part of an OTF2 archive; not replacing it"
		# beside a whole archive of ours too
		tr-otf2 -o "$TMP/d/x" "$FIX/old.tr"
		echo "my notes" > "$TMP/d/x/7.evt"
		run --separate-stderr $tool -f -o "$TMP/d/x" "$in"
		assert_failure 1
		assert_equal "$stderr" "${tool% -q}: $TMP/d/x holds 7.evt, which is not part of an OTF2 archive; not replacing it"
		rm -r "$TMP/d"
	done
	run cat "$TMP/run.def" "$TMP/other/0.evt"
	assert_output "my definitions, not OTF2
my notes"
	run ls -A "$TMP"
	assert_output "other
run.def"
}

@test "--force refuses a folder with a subfolder, beside a whole anchor too" {
	tr-otf2 -o "$TMP/d/x" "$FIX/old.tr"
	mkdir "$TMP/d/x/sub"
	echo 1,2 > "$TMP/d/x/sub/data.csv"
	run --separate-stderr tr-otf2 --force -o "$TMP/d/x" "$FIX/new.tr"
	assert_failure 1
	assert_equal "$stderr" "tr-otf2: $TMP/d/x holds sub, which is not part of an OTF2 archive; not replacing it"
	run cat "$TMP/d/x/sub/data.csv"
	assert_output "1,2"
	run ls -A "$TMP/d"
	assert_output "x
x.def
x.otf2"
}

@test "--force refuses an anchor that is not one, and a link in the archive's place" {
	echo "notes" > "$TMP/x.otf2"
	run --separate-stderr tr-otf2 --force -o "$TMP/x" "$FIX/new.tr"
	assert_failure 1
	assert_equal "$stderr" "tr-otf2: $TMP/x.otf2 is not an OTF2 anchor file; not replacing it"
	mkdir "$TMP/mine"
	ln -s mine "$TMP/y"
	run --separate-stderr tr-otf2 --force -o "$TMP/y" "$FIX/new.tr"
	assert_failure 1
	assert_equal "$stderr" "tr-otf2: $TMP/y is not part of an OTF2 archive; not replacing it"
	run ls -A "$TMP"
	assert_output "mine
x.otf2
y"
}

@test "--force replaces what a killed run left: an archive's parts without their anchor" {
	tr-otf2 -o "$TMP/d/t" "$FIX/old.tr"
	rm "$TMP/d/t.otf2"
	run --separate-stderr tr-otf2 -o "$TMP/d/t" "$FIX/new.tr"
	assert_failure 1
	assert_equal "$stderr" "tr-otf2: $TMP/d/t.def exists; give --force to replace the archive"
	run tr-otf2 --force -o "$TMP/d/t" "$FIX/new.tr"
	assert_success
	run ls -A "$TMP/d"
	assert_output "t
t.def
t.otf2"
}

@test "a failure at each step of --force: the old archive back in place, nothing else left" {
	old_archive
	for n in $(seq 1 200); do
		run --separate-stderr force_with_fault "$n"
		[ "$status" -eq 0 ] && break
		assert_failure 1
		[ "$(printf '%s\n' "$stderr" | wc -l)" -eq 1 ] ||
			fail "step $n: more than one line: $stderr"
		run ls -A "$TMP/d"
		assert_output "t
t.def
t.otf2
thesis.tex"
		run diff "$TMP/old.body" <(archive_body "$TMP/d/t")
		assert_success
	done
	# every step was tried: the run without a fault is the last
	[ "$n" -gt 30 ] && [ "$n" -lt 200 ]
	run diff "$TMP/new.body" <(archive_body "$TMP/d/t")
	assert_success
}

@test "killed at each step of --force: a whole archive, old or new, or a whole backup of the old" {
	old_archive
	cp -a "$TMP/d" "$TMP/orig"
	for n in $(seq 1 200); do
		rm -rf "$TMP/d"
		cp -a "$TMP/orig" "$TMP/d"
		run force_with_fault "$n:kill"
		[ "$status" -eq 0 ] && break
		assert_equal "$status" 137
		assert_only_ours
		if [ -e "$TMP/d/t.otf2" ]; then
			archive_body "$TMP/d/t" > "$TMP/got.body"
			cmp -s "$TMP/got.body" "$TMP/old.body" || cmp -s "$TMP/got.body" "$TMP/new.body" ||
				fail "step $n: the archive in place is neither the old nor the new one"
		else
			run diff "$TMP/old.body" <(archive_body "$TMP/d"/.t.tr-otf2-*/old/t)
			assert_success
		fi
	done
	[ "$n" -gt 30 ] && [ "$n" -lt 200 ]
}

@test "SIGTERM at each step: a whole archive in place, no staging folder left" {
	old_archive
	for n in $(seq 1 200); do
		run force_with_fault "$n:term"
		[ "$status" -eq 0 ] && break
		assert_equal "$status" 143
		run ls -A "$TMP/d"
		assert_output "t
t.def
t.otf2
thesis.tex"
		archive_body "$TMP/d/t" > "$TMP/got.body"
		cmp -s "$TMP/got.body" "$TMP/old.body" || cmp -s "$TMP/got.body" "$TMP/new.body" ||
			fail "step $n: the archive in place is neither the old nor the new one"
	done
	[ "$n" -gt 30 ] && [ "$n" -lt 200 ]
}

# tr-otf2 reading a fifo into $TMP/d/t in the background, with signal $1 caught.
start_on_fifo() {
	mkfifo "$TMP/fifo"
	env --default-signal="$1" tr-otf2 -o "$TMP/d/t" < "$TMP/fifo" 2> "$TMP/err" &
	pid=$!
	exec 8> "$TMP/fifo"
	head -c 100000 "$FIX/big.tr" >&8
	for _ in $(seq 100); do
		compgen -G "$TMP/d/.t.tr-otf2-*/stream" > /dev/null && break
		sleep 0.05
	done
}

@test "SIGINT while standard input is copied: the staging folder is removed" {
	start_on_fifo INT
	kill -INT "$pid"
	status=0
	wait "$pid" || status=$?
	exec 8>&-
	assert_equal "$status" 130
	# the staging folder, and the folder made for the archive, empty
	[ ! -e "$TMP/d" ]
}

@test "SIGTERM while standard input is copied: the staging folder is removed" {
	start_on_fifo TERM
	kill -TERM "$pid"
	status=0
	wait "$pid" || status=$?
	exec 8>&-
	assert_equal "$status" 143
	[ ! -e "$TMP/d" ]
}

@test "a file-size limit while copying standard input: the copy named, nothing left" {
	mkdir "$TMP/d"
	run --separate-stderr bash -c "ulimit -f 64; tr-otf2 -o '$TMP/d/t' < '$FIX/big.tr'"
	assert_failure 1
	assert_regex "$stderr" "^tr-otf2: $TMP/d/t: cannot keep a copy of <stdin>, which is read twice: File too large \($TMP/d/\.t\.tr-otf2-....../stream\)$"
	run ls -A "$TMP/d"
	assert_output ""
}

@test "the archive given by its anchor's name is the same archive" {
	tr-otf2 -o "$TMP/d/b.otf2" "$FIX/big.tr"
	run ls -A "$TMP/d"
	assert_output - <<'OUT'
b
b.def
b.otf2
OUT
	tr-read "$TMP/d/b.otf2" | tr-cat --check
	# and so replaced, with --force, as the archive it is
	run tr-otf2 -o "$TMP/d/b" "$FIX/big.tr"
	assert_failure 1
	tr-otf2 --force -o "$TMP/d/b" "$FIX/big.tr"
}

@test "a failed run takes away the folders it made for the archive, and only those" {
	mkdir "$TMP/d"
	run --separate-stderr bash -c "echo '{\"k\":' | tr-otf2 -o '$TMP/d/new/deeper/t'"
	assert_failure 1
	run ls -A "$TMP/d"
	assert_output ""
	# a folder that was there stays, and so does what is in it
	mkdir -p "$TMP/d/mine" && touch "$TMP/d/mine/notes"
	run --separate-stderr bash -c ": | tr-otf2 -o '$TMP/d/mine/new/t'"
	assert_failure 1
	run ls -A "$TMP/d/mine"
	assert_output "notes"
	# a run that succeeds keeps them
	tr-otf2 -o "$TMP/d/made/t" "$FIX/big.tr"
	[ -f "$TMP/d/made/t.otf2" ]
}

@test "a file-size limit while writing the archive: the file named with the reason, nothing left" {
	mkdir "$TMP/d"
	run --separate-stderr bash -c "ulimit -f 8; tr-otf2 -o '$TMP/d/t' '$FIX/big.tr'"
	assert_failure 1
	assert_regex "$stderr" "^tr-otf2: $TMP/d/t: cannot write the archive: .*$TMP/d/\.t\.tr-otf2-....../t/[0-9]+\.evt: File is too large$"
	run ls -A "$TMP/d"
	assert_output ""
}

@test "a full disk (a small tmpfs): the file named with the reason, nothing left, the old archive kept" {
	mkdir "$TMP/full"
	mount -t tmpfs -o size=256k tmpfs "$TMP/full" 2>/dev/null || skip_unless tmpfs "cannot mount a tmpfs here"
	tr-otf2 -o "$TMP/full/t" "$FIX/old.tr"
	archive_body "$TMP/full/t" > "$TMP/old.body"
	head -c 120000 /dev/zero > "$TMP/full/filler"
	run --separate-stderr tr-otf2 --force -o "$TMP/full/t" < "$FIX/big.tr"
	assert_failure 1
	assert_regex "$stderr" "^tr-otf2: $TMP/full/t: cannot keep a copy of <stdin>, which is read twice: No space left on device \($TMP/full/\.t\.tr-otf2-....../stream\)$"
	run --separate-stderr tr-otf2 --force -o "$TMP/full/t" "$FIX/big.tr"
	assert_failure 1
	assert_regex "$stderr" "^tr-otf2: $TMP/full/t: cannot write the archive: .*: No space left on device$"
	run ls -A "$TMP/full"
	assert_output "filler
t
t.def
t.otf2"
	run diff "$TMP/old.body" <(archive_body "$TMP/full/t")
	assert_success
}

@test "a full standard output is one message, not two" {
	run --separate-stderr bash -c "tr-cat '$FIX/old.tr' > /dev/full"
	assert_failure 1
	assert_equal "$stderr" "tr-cat: <stdout>: No space left on device"
	run --separate-stderr bash -c "ulimit -f 64; tr-deps '$FIX/big.tr' > '$TMP/out'"
	assert_failure 1
	assert_equal "$stderr" "tr-deps: <stdout>: File too large"
}

@test "8 192 streams: libotf2's buffers stay bounded (a share of the streams per pass), every stream's events written (turn3 F11)" {
	python3 - "$TMP/p.ndjson" <<'PY'
import json, sys
n = 8192
with open(sys.argv[1], 'w') as out:
    w = lambda r: out.write(json.dumps(r, separators=(',', ':')) + '\n')
    w({"k": "header", "major": 1, "minor": 1, "producer": "hand", "clock": "ns"})
    for i in range(n): w({"k": "process", "id": i, "name": "MPI Rank %d" % i, "rank": i})
    for i in range(n): w({"k": "stream", "id": i, "process": i, "name": "Master thread", "type": "host", "native": 0})
    w({"k": "region", "id": 0, "name": "main", "role": "cpu", "paradigm": "user"})
    for i in range(n): w({"k": "enter", "id": i, "t": 1000, "s": i, "r": 0})
    # a lock taken on stream 0, then on stream 2000, written in another pass
    for j, (t, s) in enumerate([(1500, 0), (1600, 2000)]):
        w({"k": "lock_acquire", "id": 3 * n + 2 * j, "t": t, "s": s, "lock": 1})
        w({"k": "lock_release", "id": 3 * n + 2 * j + 1, "t": t + 10, "s": s, "lock": 1})
    for i in range(n): w({"k": "leave", "id": n + i, "t": 2000 + i, "s": i, "r": 0})
    w({"k": "trailer"})
PY
	# 512 MiB of buffers and what the tool holds besides: 2.1 GB before (4.1 GB at 16 384)
	run --separate-stderr /usr/bin/time -f "%M" tr-otf2 -q -o "$TMP/o/run" "$TMP/p.ndjson"
	assert_success
	[ "$stderr" -lt 1000000 ] || fail "$stderr KB held"
	run bash -c "otf2-print '$TMP/o/run.otf2' | awk '\$1 == \"LEAVE\" { n++; if (\$2 == 8191) t = \$3 } END { print n, t }'"
	assert_output "8192 10191"
	# the lock's acquisitions numbered in time order across the passes
	run bash -c "otf2-print '$TMP/o/run.otf2' | awk '\$1 ~ /LOCK/ { print \$1, \$2, \$NF }'"
	assert_output "THREAD_ACQUIRE_LOCK 0 1
THREAD_RELEASE_LOCK 0 1
THREAD_ACQUIRE_LOCK 2000 2
THREAD_RELEASE_LOCK 2000 2"
}

@test "a run whose metric values outgrow memory: kept in TMPDIR, the archive the same; TMPDIR unusable: one line, nothing left" {
	# 1.5 M events: their blame shares pass the 16 MiB the writer holds
	gen-otf2 -i 8000 "$TMP/g/t" > /dev/null
	tr-analyze -q --stream "$TMP/s.tr" "$TMP/g/t.otf2" > /dev/null
	mkdir "$TMP/tmp" "$TMP/out"
	TMPDIR="$TMP/tmp" tr-otf2 -o "$TMP/out/a" "$TMP/s.tr"
	run ls -A "$TMP/tmp"
	assert_output ""
	# the same archive as the one-process analysis writes (its stream kept in memory)
	tr-analyze -q -o "$TMP/out/b" "$TMP/g/t.otf2" > /dev/null
	cmp <(otf2-print "$TMP/out/a.otf2") <(otf2-print "$TMP/out/b.otf2")
	run --separate-stderr env TMPDIR="$TMP/none" tr-otf2 -o "$TMP/out/c" "$TMP/s.tr"
	assert_failure 1
	assert_equal "$stderr" "tr-otf2: $TMP/out/c: cannot keep what goes on the streams in a temporary file in TMPDIR=$TMP/none: No such file or directory"
	run ls -A "$TMP/out"
	assert_output "$(printf 'a\na.def\na.otf2\nb\nb.def\nb.otf2')"
}
