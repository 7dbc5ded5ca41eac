#!/usr/bin/env python3
"""trlog-damaged.py DIR: two-rank tr-record logs (docs/trlog.md) made by hand
into DIR/CASE/rank-R.trlog, one folder per way rank 1's log is damaged after
a whole first exchange (rank 0 sends tag 7 to rank 1, which receives it with
an Irecv and an MPI_Wait), and DIR/whole as it is: for tests/3005."""
import os
import struct
import sys


def pack(v):
    """msgpack of ints, strings, lists and dicts, as the collector writes them"""
    if isinstance(v, bool):
        return b'\xc3' if v else b'\xc2'
    if isinstance(v, int):
        if 0 <= v <= 0x7f:
            return bytes([v])
        if -32 <= v < 0:
            return struct.pack('b', v)
        if v >= 0:
            return b'\xcf' + struct.pack('>Q', v)
        return b'\xd3' + struct.pack('>q', v)
    if isinstance(v, str):
        b = v.encode()
        return (bytes([0xa0 | len(b)]) if len(b) < 32 else b'\xd9' + bytes([len(b)])) + b
    if isinstance(v, list):
        return (bytes([0x90 | len(v)]) if len(v) < 16 else b'\xdc' + struct.pack('>H', len(v))) + \
            b''.join(pack(x) for x in v)
    if isinstance(v, dict):
        return bytes([0x80 | len(v)]) + b''.join(pack(k) + pack(x) for k, x in v.items())
    raise TypeError(v)


SEND, IRECV, WAIT, WAITALL, BARRIER, INIT, FINALIZE = 3, 14, 15, 16, 23, 0, 2
START = 1_000_000_000


def log(rank, tail):
    header = {'format': 'trlog', 'major': 1, 'minor': 1, 'producer': 'trlog-damaged.py', 'host': 'h',
              'pid': 100 + rank, 'program': 'prog', 'start': START, 'realtime': 1_700_000_000_000_000_000,
              'launcher_rank': rank, 'job': 'j1'}
    recs = [[4, 0, 500 + rank], [1, rank, 2, 'h-100-1'], [2, 0, START + 10, 0, 100],
            [3, 0, 0, [0, 1]], [3, 1, 1, []], [5, 0, INIT, START + 5, START + 20]]
    if rank == 0:
        recs += [[5, 0, SEND, START + 1000, START + 1100, 0, 1, 7, 4]]
    else:
        recs += [[5, 0, IRECV, START + 100, START + 110, 0, 1],
                 [5, 0, WAIT, START + 120, START + 1200, [[1, 1, 0, 0, 7, 4]]]]
    recs += tail
    return pack(header) + b''.join(pack(r) for r in recs)


# each way rank 1's log goes on after its whole first exchange
T = START + 2000
ways = {
    'whole': [[5, 0, FINALIZE, T, T + 10], [6, T + 20]],
    'args-missing': [[5, 0, IRECV, T, T + 5, 0]],
    'completion-not-a-list': [[5, 0, WAIT, T, T + 5, 7]],
    'request-twice': [[5, 0, IRECV, T, T + 5, 0, 2],
                      [5, 0, WAITALL, T + 10, T + 20, [[2, 1, 0, 0, 8, 4], [2, 1, 0, 0, 8, 4]]]],
    'completion-unknown': [[5, 0, IRECV, T, T + 5, 0, 2], [5, 0, WAIT, T + 10, T + 20, [[2, 9, 0, 0, 8, 4]]]],
    'comm-twice': [[3, 0, 7, [0, 1]]],
    'peer-2^40': [[5, 0, SEND, T, T + 5, 0, 1 << 40, 7, 4]],
    'rank-negative': [[5, 0, SEND, T, T + 5, 0, -5, 7, 4]],
}
for name, tail in ways.items():
    d = os.path.join(sys.argv[1], name)
    os.makedirs(d)
    for rank in (0, 1):
        end = [[5, 0, FINALIZE, T, T + 10], [6, T + 20]] if rank == 0 else tail
        with open(os.path.join(d, 'rank-%d.trlog' % rank), 'wb') as f:
            f.write(log(rank, end))
