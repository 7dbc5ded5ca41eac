#!/usr/bin/env bats
# docs/stream.md and the code agree; the stream's form survives conversion.

load common

setup() {
	TMP=$(mktemp -d)
}

teardown() {
	rm -rf "$TMP"
}

@test "the example lines of docs/stream.md are one valid stream" {
	doc_examples > "$TMP/doc.ndjson"
	run --separate-stderr tr-cat --check "$TMP/doc.ndjson"
	assert_success
	assert_equal "$stderr" ""
}

@test "docs/stream.md shows an example of every kind the schema defines" {
	doc_examples | jq -r .k | sort -u > "$TMP/documented"
	ls-unit kinds | sort > "$TMP/defined"
	run diff "$TMP/defined" "$TMP/documented"
	assert_success
}

@test "docs/stream.md documents every role the schema defines" {
	grep -o '`[a-z_0-9]*`' "$TOP/docs/stream.md" | tr -d '`' | sort -u > "$TMP/mentioned"
	ls-unit roles | sort > "$TMP/roles"
	run comm -23 "$TMP/roles" "$TMP/mentioned"
	assert_success
	assert_output ""
}

@test "msgpack to NDJSON to msgpack is byte-identical" {
	doc_examples | tr-cat -M > "$TMP/a.tr"
	tr-cat -J "$TMP/a.tr" | tr-cat -M > "$TMP/b.tr"
	cmp "$TMP/a.tr" "$TMP/b.tr"
}

@test "NDJSON to msgpack to NDJSON gives the same lines" {
	doc_examples > "$TMP/a.ndjson"
	tr-cat -M "$TMP/a.ndjson" | tr-cat -J > "$TMP/b.ndjson"
	run diff "$TMP/a.ndjson" "$TMP/b.ndjson"
	assert_success
}

@test "unknown kinds and fields pass through unchanged and in place" {
	tr-cat -M "$DATA/stream/pass-through.ndjson" > "$TMP/a.tr"
	run tr-cat -J "$TMP/a.tr"
	assert_success
	assert_output "$(cat "$DATA/stream/pass-through.ndjson")"
	tr-cat -M "$TMP/a.tr" > "$TMP/b.tr"
	cmp "$TMP/a.tr" "$TMP/b.tr"
}

@test "docs/roles.md lists every name of the role table under its role" {
	ls-unit role-table | while IFS=$'\t' read -r name role; do
		grep -qE "^\| \`$role\` \|.*\`$name\`" "$TOP/docs/roles.md" || echo "$name ($role)"
	done > "$TMP/missing"
	assert_equal "$(cat "$TMP/missing")" ""
}
