# Shared by every bats file: paths, helpers, the corpus.
bats_require_minimum_version 1.5.0
load /usr/lib/bats/bats-support/load
load /usr/lib/bats/bats-assert/load

TOP=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
PATH="$TOP/bin:$TOP/tests/helper:$TOP/bench:$PATH"
DATA="$TOP/tests/data"
CORPUS=${TR_CORPUS:-$TOP/../shared/corpus}
# sanitizer runs: what libotf2 itself loses on a failed write (tests/lsan.supp)
export LSAN_OPTIONS="suppressions=$TOP/tests/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"

# skip_unless KEY MESSAGE: skip the test, saying MESSAGE, unless KEY is a
# skip CI does not allow (tests/ci-skips) and TR_REQUIRE_CORPUS=1 (CI), or
# TR_REQUIRE names KEY (TR_REQUIRE=tmpfs,chromium): then fail instead.
skip_unless() {
	local allowed
	allowed=$(awk -v k="$1" '$1 == k { print "yes" }' "$TOP/tests/ci-skips")
	if [[ ",${TR_REQUIRE:-}," == *",$1,"* ]] || { [ "${TR_REQUIRE_CORPUS:-0}" = 1 ] && [ -z "$allowed" ]; }; then
		fail "$2 (a skip of kind '$1', which TR_REQUIRE or CI's tests/ci-skips does not allow)"
	fi
	skip "$2"
}

# require_shared DIR WHAT: skip when a folder of ../shared (the corpus,
# the repros) is not beside the checkout (a user's fresh clone); CI, which
# has it, fails instead (WHAT is not in tests/ci-skips).
require_shared() {
	[ -d "$1" ] || skip_unless "$2" "$2 not found at $1"
}

require_corpus() {
	require_shared "$CORPUS" corpus
}

# The inputs that broke the tools (../shared/repros, TR_REPROS)
REPROS=${TR_REPROS:-$TOP/../shared/repros}
require_repros() {
	require_shared "$REPROS" repros
}

# setup/teardown of a test on the corpus: a scratch folder $TMP.
corpus_setup() {
	require_corpus
	TMP=$(mktemp -d)
}

corpus_teardown() {
	rm -rf "${TMP:-/nonexistent}"
}

# Every trace of the corpus, one per line.
corpus_inputs() {
	for d in "$CORPUS"/otf2/*/; do echo "$d/traces.otf2"; done
	for d in "$CORPUS"/kineto/*/; do echo "${d%/}"; done
	ls "$CORPUS"/nsys/*.sqlite
}

# The example lines of docs/stream.md, in order: one valid stream.
doc_examples() {
	awk '/^```ndjson/ { f = 1; next } /^```/ { f = 0 } f' "$TOP/docs/stream.md"
}

# The stream in $1 as NDJSON without its header (which names the source
# and the arguments each tool was run with): the records to compare.
body() {
	tr-cat -J "$1" | grep -v '"k":"header"'
}

# The corpus archive NAME's anchor file.
archive() {
	echo "$CORPUS/otf2/$1/traces.otf2"
}

# "PROCESS ROLE" for every role entered on a process of the stream on stdin.
roles_by_process() {
	tr-cat -J | jq -rs '
		(map(select(.k == "stream")) | map({key: (.id | tostring), value: .process}) | from_entries) as $p |
		(map(select(.k == "region")) | map({key: (.id | tostring), value: .role}) | from_entries) as $r |
		map(select(.k == "enter")) | map("\($p[.s | tostring]) \($r[.r | tostring])") | unique[]'
}

# The filters' analysed stream of archive $1 into $2, their messages dropped:
# tr-read | tr-deps | tr-waits | tr-critpath.
analysed() {
	tr-read "$1" 2>/dev/null | tr-deps 2>/dev/null | tr-waits 2>/dev/null | tr-critpath > "$2" 2>/dev/null
}

# The DOM a real browser (Debian's chromium, headless) made of HTML page
# $1 once its scripts ran, on stdout; the browser's console messages
# (script errors among them) in $1.console.
browser_dom() {
	command -v chromium-headless-shell > /dev/null ||
		skip_unless chromium "no chromium-headless-shell (make deps installs it)"
	timeout 120 chromium-headless-shell --no-sandbox --disable-gpu --enable-logging=stderr --v=0 \
		--user-data-dir="$(dirname "$1")/chromium-profile" --dump-dom "file://$1" 2> "$1.log"
	grep ':CONSOLE' "$1.log" > "$1.console" || true
}

# Terminal log $3 (script) shows TOOL $1's progress line in UNIT $2
# ("events", "records"): count, rate, time, the share of the input.
assert_progress_line() {
	grep -q $'\r'"$1: [0-9.]* M $2, [0-9.]* M $2/s, [0-9.]* s, [0-9]* % of the input" "$3" ||
		fail "no progress line: $(cat -A "$3")"
}

# Terminal log $2 shows no progress line in UNIT $1.
assert_no_progress_line() {
	run grep -c "$1/s" "$2"
	assert_output 0
}
