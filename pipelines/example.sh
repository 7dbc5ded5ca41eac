#!/bin/sh
# The main job on the bundled example: check the stream, then show it as
# NDJSON. Grows into the full analysis pipeline as the stages land.
set -eu
cd "$(dirname "$0")/.."
PATH="$PWD/bin:$PATH"

tr-cat --check examples/jacobi-2ranks.ndjson
echo "examples/jacobi-2ranks.ndjson: valid stream; its records:"
tr-cat -M examples/jacobi-2ranks.ndjson | tr-cat -J
