#!/usr/bin/env bats
# The suite's own skips: a test that cannot run here says why and skips,
# but CI (TR_REQUIRE_CORPUS=1) fails every skip tests/ci-skips does not
# list, and TR_REQUIRE=KEY,... fails those of the kinds it names.

load common

setup() {
	TMP=$(mktemp -d)
	# (bats would take a test line of this file's own for one of its tests)
	printf '%s\n' "load \"$TOP/tests/common\"" \
		'@%s "needs a tmpfs" { skip_unless tmpfs "cannot mount a tmpfs here"; }' \
		'@%s "needs chromium" { skip_unless chromium "no chromium-headless-shell"; }' \
		"@%s \"needs the corpus\" { require_shared '$TMP/nothing' corpus; }" | sed 's/@%s/@test/' > "$TMP/t.bats"
}

teardown() {
	rm -rf "$TMP"
}

# "ok"/"not ok" per test of the file above, with env $@.
outcomes() {
	env "$@" bats --tap "$TMP/t.bats" 3>&- | grep -E '^(not )?ok' | sed -E 's/ [0-9]+ .*# skip.*/ skip/; s/ [0-9]+ .*//'
}

@test "a user's machine skips what it lacks; CI fails the skips tests/ci-skips does not allow; TR_REQUIRE forces any" {
	run outcomes TR_REQUIRE_CORPUS=0
	assert_output "$(printf 'ok skip\nok skip\nok skip')"
	run outcomes TR_REQUIRE_CORPUS=1
	assert_output "$(printf 'ok skip\nnot ok\nnot ok')"
	run outcomes TR_REQUIRE_CORPUS=0 TR_REQUIRE=tmpfs,corpus
	assert_output "$(printf 'not ok\nok skip\nnot ok')"
}

@test "every kind of skip the suite takes is either allowed in CI, with its reason, or meant to fail there" {
	# the kinds CI allows, each with a reason; every skip goes through skip_unless
	run awk '!/^#/ && NF < 2' "$TOP/tests/ci-skips"
	assert_output ""
	run bash -c "grep -n -E '(^|[^_])skip \"' \$(ls '$TOP'/tests/[0-9]*.bats | grep -v 0005-skips)"
	assert_output ""
}
