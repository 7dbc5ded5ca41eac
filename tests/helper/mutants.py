#!/usr/bin/env python3
"""Damaged copies of an input, made the way a mutation campaign makes them,
seeded so that a failure comes back the same.

  mutants.py kineto  FILE.json[.gz] OUTDIR COUNT SEED
  mutants.py nsys    FILE.sqlite    OUTDIR COUNT SEED
  mutants.py stream  FILE.ndjson    OUTDIR COUNT SEED

kineto: the JSON text (gunzipped) with bytes flipped, cut, numbers made
negative, huge or text, keys dropped, raw bytes that are not UTF-8 and
lone surrogate escapes put in. nsys: a copy with one column of one event
or string table damaged in some rows (NULL, text, negative, huge, a BLOB),
its constraints taken off first. stream: NDJSON lines of an analysed
stream with a field's value changed (negative, huge, text, another kind's),
a field dropped, a line repeated, two lines swapped, the stream cut.
Each mutant is OUTDIR/NNN.<ext>; one line per mutant on stdout says what
was done to it."""
import gzip
import json
import os
import random
import shutil
import sqlite3
import sys


def kineto(path, out, count, rng):
    raw = open(path, 'rb').read()
    text = gzip.decompress(raw) if raw[:2] == b'\x1f\x8b' else raw
    numbers = [i for i in range(len(text) - 1) if text[i:i + 1].isdigit() and not text[i - 1:i].isdigit()]
    keys = [i for i in range(len(text) - 2) if text[i:i + 2] == b',"']
    for n in range(count):
        t = bytearray(text)
        how = rng.choice(['flip', 'cut', 'negative', 'huge', 'text', 'dropkey', 'rawbyte', 'surrogate'])
        if how == 'flip':
            for _ in range(rng.randint(1, 8)):
                t[rng.randrange(len(t))] = rng.randrange(256)
        elif how == 'cut':
            del t[rng.randrange(len(t)):]
        elif how in ('negative', 'huge', 'text') and numbers:
            at = rng.choice(numbers)
            end = at
            while end < len(t) and (chr(t[end]).isdigit() or t[end] in b'.eE+-'):
                end += 1
            t[at:end] = {'negative': b'-' + bytes(t[at:end]), 'huge': b'99999999999999999999999',
                         'text': b'"soon"'}[how]
        elif how == 'dropkey' and keys:
            at = rng.choice(keys) + 1
            end = t.find(b',', at + 1)
            if end > 0:
                del t[at - 1:end]
        elif how == 'rawbyte':
            at = t.find(b'"name": "', rng.randrange(len(t)))
            at = at if at >= 0 else t.find(b'"name":"')
            if at >= 0:
                t[at + 9:at + 9] = bytes([rng.choice([0x80, 0xc3, 0xff, 0xfe, 0xed])])
        else:
            at = t.find(b'"name": "', rng.randrange(len(t)))
            at = at if at >= 0 else t.find(b'"name":"')
            if at >= 0:
                t[at + 9:at + 9] = rng.choice([b'\\ud800', b'\\udc00x', b'\\uZ000', b'\\u12'])
        name = os.path.join(out, '%03d.json' % n)
        open(name, 'wb').write(bytes(t))
        print(name, how)


def unconstrain(c, table):
    cols = list(c.execute('pragma table_info("%s")' % table))
    c.execute('create table "%s__u" (%s)' % (table, ', '.join('"%s" %s' % (r[1], r[2]) for r in cols)))
    c.execute('insert into "%s__u" select * from "%s"' % (table, table))
    c.execute('drop table "%s"' % table)
    c.execute('alter table "%s__u" rename to "%s"' % (table, table))
    return [r[1] for r in cols]


def nsys(path, out, count, rng):
    tables = ['CUPTI_ACTIVITY_KIND_RUNTIME', 'CUPTI_ACTIVITY_KIND_KERNEL', 'CUPTI_ACTIVITY_KIND_MEMCPY',
              'NVTX_EVENTS', 'StringIds', 'TARGET_INFO_SESSION_START_TIME']
    values = [None, 'soon', -1, -9223372036854775808, 9223372036854775807, b'\xff\xfe\x80abc', 0, 4294967295]
    for n in range(count):
        name = os.path.join(out, '%03d.sqlite' % n)
        shutil.copy(path, name)
        c = sqlite3.connect(name)
        have = [t for t in tables if c.execute("select count(*) from sqlite_master where name = ?",
                                               (t,)).fetchone()[0]]
        table = rng.choice(have)
        col = rng.choice(unconstrain(c, table))
        value = rng.choice(values)
        share = rng.choice([1, 2, 10])
        c.execute('update "%s" set "%s" = ? where rowid %% %d = 0' % (table, col, share), (value,))
        c.commit()
        c.close()
        print(name, table, col, repr(value), 'every %d' % share)


def stream(path, out, count, rng):
    lines = open(path).read().splitlines()
    body = [i for i, l in enumerate(lines) if '"k":"header"' not in l and '"k":"trailer"' not in l]
    values = [-5, -9223372036854775808, 18446744073709551615, 4611686018427387904, 'x', None, 1.5,
              [1, 1], {'a': 1}, True]
    kinds = ['enter', 'leave', 'wait', 'blame', 'crit', 'edge', 'rating', 'path_blame', 'nope']
    for n in range(count):
        ls = list(lines)
        how = rng.choice(['value', 'value', 'value', 'drop', 'repeat', 'swap', 'cut', 'kind'])
        i = rng.choice(body)
        rec = json.loads(ls[i])
        keys = [k for k in rec if k != 'k']
        if how == 'value' and keys:
            k = rng.choice(keys)
            v = rng.choice(values)
            if v is None:
                rec[k] = None
            else:
                rec[k] = v
            ls[i] = json.dumps(rec, separators=(',', ':'))
            how = 'value %s=%s' % (k, json.dumps(v))
        elif how == 'drop' and keys:
            k = rng.choice(keys)
            del rec[k]
            ls[i] = json.dumps(rec, separators=(',', ':'))
            how = 'drop %s' % k
        elif how == 'repeat':
            ls.insert(i, ls[i])
        elif how == 'swap':
            j = rng.choice(body)
            ls[i], ls[j] = ls[j], ls[i]
        elif how == 'cut':
            del ls[i:]
        else:
            rec['k'] = rng.choice(kinds)
            ls[i] = json.dumps(rec, separators=(',', ':'))
            how = 'kind %s' % rec['k']
        name = os.path.join(out, '%03d.ndjson' % n)
        open(name, 'w').write('\n'.join(ls) + '\n')
        print(name, 'line %d:' % (i + 1), how)


def main():
    if len(sys.argv) != 6 or sys.argv[1] not in ('kineto', 'nsys', 'stream'):
        sys.exit(__doc__)
    what, path, out, count, seed = sys.argv[1:]
    os.makedirs(out, exist_ok=True)
    globals()[what](path, out, int(count), random.Random(int(seed)))


main()
