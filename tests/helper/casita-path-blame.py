#!/usr/bin/env python3
"""Our blame on the path beside CASITA's "Blame on CP", for the regions
whose blame agrees with CASITA's (within 0.1 % or 2 us): one line per
region, "= NAME ours theirs" where blame on the path agrees as well,
"! NAME ours theirs" where not.
  casita-path-blame.py OURS.json CASITA_RATING.csv
OURS.json: tr-rank --json -n 0; the CSV: CASITA 1.9's casita_rating.csv."""
import csv
import json
import sys


def near(a, b):
    return abs(a - b) <= max(2e-6, 0.001 * b)


ours = {}
with open(sys.argv[1]) as f:
    for line in f:
        r = json.loads(line)
        if r.get("k") == "rating":
            ours[r["name"]] = r
with open(sys.argv[2]) as f:
    rows = list(csv.reader(f, delimiter=";"))
for row in rows[1:]:
    if len(row) < 8:
        continue
    name, blame, on_path = row[0], float(row[5]), float(row[7])
    o = ours.get(name)
    if o is None or blame < 1e-5 or not near(o["blame"] / 1e9, blame):
        continue
    mine = o["cp_blame"] / 1e9
    print(f"{'=' if near(mine, on_path) else '!'} {name} {mine:.6f} {on_path:.6f}")
