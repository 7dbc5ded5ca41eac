#!/usr/bin/env python3
"""chrome-check FILE: check Chrome trace-event JSON as Perfetto reads it, by
Python's own JSON reader: an object with a "traceEvents" list; every event
with ph, ts (microseconds, a number), pid and tid; B and E properly nested
per thread; every flow start ("s") paired with one finish ("f") by id, not
before it; the slices of the process named "critical path". Prints the sum
of those slices in ns and the number of threads with slices; exits 1 with
the first problem found."""
import json
import sys


def fail(why):
    print("chrome-check: " + why, file=sys.stderr)
    sys.exit(1)


with open(sys.argv[1], encoding="utf-8") as f:
    doc = json.load(f)
if not isinstance(doc, dict) or not isinstance(doc.get("traceEvents"), list):
    fail("no traceEvents list")
events = doc["traceEvents"]
crit_pid = None
for e in events:
    for key in ("ph", "ts", "pid", "tid"):
        if key not in e:
            fail("an event without %s: %r" % (key, e))
    if not isinstance(e["ts"], (int, float)):
        fail("ts not a number: %r" % e)
    if e["ph"] == "M" and e.get("name") == "process_name" and e["args"]["name"] == "critical path":
        crit_pid = e["pid"]
if crit_pid is None:
    fail("no critical path track")
open_slices = {}
flows = {}
crit_ns = 0
threads = set()
for e in events:
    key = (e["pid"], e["tid"])
    ph = e["ph"]
    if ph == "B":
        open_slices.setdefault(key, []).append(e["ts"])
        threads.add(key)
    elif ph == "E":
        stack = open_slices.get(key)
        if not stack:
            fail("E without an open B on thread %r at %r" % (key, e["ts"]))
        if e["ts"] < stack[-1]:
            fail("E before its B on thread %r at %r" % (key, e["ts"]))
        stack.pop()
    elif ph == "X":
        if not isinstance(e.get("dur"), (int, float)) or e["dur"] < 0:
            fail("X without a duration: %r" % e)
        threads.add(key)
        if e["pid"] == crit_pid:
            crit_ns += round(e["dur"] * 1000)
    elif ph in ("s", "f"):
        pair = flows.setdefault(e["id"], {})
        if ph in pair:
            fail("flow %r has two %s events" % (e["id"], ph))
        pair[ph] = e["ts"]
    elif ph not in ("M", "i", "I", "C"):
        fail("unknown phase %r" % ph)
for key, stack in open_slices.items():
    if stack:
        fail("thread %r ends with %d slices open" % (key, len(stack)))
for fid, pair in flows.items():
    if set(pair) != {"s", "f"}:
        fail("flow %r not paired: %r" % (fid, pair))
    if pair["f"] < pair["s"]:
        fail("flow %r finishes before it starts" % fid)
print(crit_ns, len(threads))
