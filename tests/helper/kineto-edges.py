#!/usr/bin/env python3
"""The GPU edges tr-deps must find in a Kineto trace, counted by another
route: Python's json over the file itself, with the rules of docs/stream.md
("GPU dependencies") written out again, not tr-read's stream.

Prints "launch N", "sync N", "event N", "stream_wait N": every GPU activity
whose correlation id a runtime call has is linked to that launch; every
synchronizing call to the last work of what it waited for (a stream
synchronization: its stream's; a device-wide one, cudaMalloc and cudaFree
among them: each stream's last work not yet synchronized; an event
synchronization or query: the work its event record stood for); every
stream's wait for an event to the next work on the waiting stream.
"""
import gzip
import json
import sys

LAUNCH = {"cudaLaunchKernel", "cudaLaunchKernelExC", "cuLaunchKernel", "cudaMemcpyAsync", "cudaMemsetAsync"}
STREAM_SYNC = {"cudaStreamSynchronize", "cuStreamSynchronize"}
DEVICE_WIDE = {"cudaDeviceSynchronize", "cuCtxSynchronize", "cudaMalloc", "cudaFree", "cudaHostAlloc",
               "cudaMallocHost", "cudaFreeHost"}
EVENT_SYNC = {"cudaEventSynchronize", "cudaEventQuery", "cuEventSynchronize", "cuEventQuery"}
RECORD = {"cudaEventRecord", "cuEventRecord"}
STREAM_WAIT = {"cudaStreamWaitEvent", "cuStreamWaitEvent"}


def stream_of(s):
    return None if s is None or s < 0 or s == 0xFFFFFFFF else s


def main(path):
    opener = gzip.open if path.endswith(".gz") else open
    with opener(path, "rt") as f:
        events = json.load(f)["traceEvents"]
    calls, work, syncs, recorded = [], {}, {}, {}
    for e in events:
        if e.get("ph") != "X":
            continue
        a, cat = e.get("args", {}), e.get("cat")
        if cat in ("cuda_runtime", "cuda_driver"):
            calls.append(e)
        elif cat in ("kernel", "gpu_memcpy", "gpu_memset") and "correlation" in a:
            work[a["correlation"]] = stream_of(a.get("stream"))
        elif cat == "cuda_sync" and "correlation" in a:
            syncs[a["correlation"]] = a
            r = a.get("wait_on_cuda_event_record_corr_id", -1)
            if r is not None and r >= 0:
                recorded[r] = stream_of(a.get("wait_on_stream"))
    calls.sort(key=lambda e: e["ts"])
    n = {"launch": 0, "sync": 0, "event": 0, "stream_wait": 0}
    last, synced, events_at, waits = {}, set(), {}, {}
    for c in calls:
        name, corr = c["name"], c.get("args", {}).get("correlation")
        s = syncs.get(corr, {})
        if name in LAUNCH and corr in work:
            n["launch"] += 1
            stream = work[corr]
            last[stream] = corr
            n["stream_wait"] += len(waits.pop(stream, set()))
        elif name in STREAM_SYNC and stream_of(s.get("stream")) in last:
            n["sync"] += 1
            synced.add(last[stream_of(s.get("stream"))])
        elif name in DEVICE_WIDE:
            for w in last.values():
                if w not in synced:
                    n["sync"] += 1
                    synced.add(w)
        elif name in RECORD and corr in recorded and recorded[corr] in last:
            events_at[corr] = last[recorded[corr]]
        elif name in EVENT_SYNC and s:
            r = s.get("wait_on_cuda_event_record_corr_id", -1)
            w = events_at.get(r) if r is not None and r >= 0 else last.get(stream_of(s.get("wait_on_stream")))
            if w is not None:
                n["event"] += 1
                synced.add(w)
        elif name in STREAM_WAIT and s:
            r = s.get("wait_on_cuda_event_record_corr_id", -1)
            w = events_at.get(r) if r is not None and r >= 0 else last.get(stream_of(s.get("wait_on_stream")))
            if w is not None:
                waits.setdefault(stream_of(s.get("stream")), set()).add(w)
    for k in ("launch", "sync", "event", "stream_wait"):
        print(k, n[k])


if __name__ == "__main__":
    main(sys.argv[1])
