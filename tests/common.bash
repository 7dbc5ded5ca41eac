# Shared by every bats file: paths, helpers, the corpus.
bats_require_minimum_version 1.5.0
load /usr/lib/bats/bats-support/load
load /usr/lib/bats/bats-assert/load

TOP=$(cd "$BATS_TEST_DIRNAME/.." && pwd)
PATH="$TOP/bin:$TOP/tests/helper:$TOP/bench:$PATH"
DATA="$TOP/tests/data"
CORPUS=${TR_CORPUS:-$TOP/../shared/corpus}

# Skip when the shared corpus is not beside the checkout (a user's fresh
# clone); fail instead where TR_REQUIRE_CORPUS=1 (CI), so it cannot be
# skipped silently there.
require_corpus() {
	if [ -d "$CORPUS" ]; then
		return 0
	fi
	if [ "${TR_REQUIRE_CORPUS:-0}" = 1 ]; then
		echo "corpus not found at $CORPUS (TR_REQUIRE_CORPUS=1)" >&2
		return 1
	fi
	skip "corpus not found at $CORPUS"
}

# The example lines of docs/stream.md, in order: one valid stream.
doc_examples() {
	awk '/^```ndjson/ { f = 1; next } /^```/ { f = 0 } f' "$TOP/docs/stream.md"
}
