#!/usr/bin/env python3
"""tr-clock keeps the order it read records in but for the events it moved:
an edge record never goes out before an event that was read before it and
kept its time. Reads the stream before tr-clock (argv[1]) and after it
(argv[2]), both NDJSON; prints how many edge records broke that (0)."""
import json
import sys

DEFS = ("header", "trailer", "process", "stream", "region", "comm", "counter")


def key(r):
    if r["k"] == "edge":
        return ("edge", r["from"], r["to"], r["type"])
    if r["k"] not in DEFS and "id" in r:
        return ("event", r["id"])
    return None


def records(path):
    with open(path) as f:
        return [json.loads(line) for line in f]


def main():
    before, after = records(sys.argv[1]), records(sys.argv[2])
    where, t = {}, {}
    for i, r in enumerate(after):
        k = key(r)
        if k:
            where[k], t[k] = i, r.get("t")
    broken, latest = 0, -1	# the latest place out of an unmoved event read so far
    for r in before:
        k = key(r)
        if not k or k not in where:
            continue
        if k[0] == "edge":
            broken += where[k] < latest
        elif t[k] == r.get("t"):
            latest = max(latest, where[k])
    print(broken)


main()
