#!/usr/bin/env python3
"""Writes a legacy (magic v0/v1) .log segment, byte by byte per the spec's section 6
(LegacyRecord): Kafka 4.x cannot write these formats, but its DumpLogSegments still reads
them, which tests/oracle/legacy-dump-vs-kafka.sh uses as the judge.

Entries: a v0 message (offset 0), a v1 message (1), a v1 gzip wrapper of relative inner
offsets 0..2 at wrapper offset 4 (absolute 2..4), a v0 gzip wrapper of absolute inner
offsets 5..6, a LogAppendTime v1 message whose CRC is damaged (7), a v0 gzip wrapper
holding a v1 message (8: it takes the wrapper's timestamp type, none), and, unless
--kafka-readable, a v1 wrapper whose value is not gzip (9; DumpLogSegments throws there).

usage: legacy_log.py OUT.log [--kafka-readable]
"""
import gzip
import struct
import sys
import zlib


def entry(offset, magic, attributes, timestamp, key, value, damage=False):
    """offset int64, size int32, crc uint32 (CRC-32 of magic..end), magic, attributes,
    v1: timestamp int64, keyLength int32 (-1 null), key, valueLength int32, value."""
    body = struct.pack('>bb', magic, attributes)
    if magic == 1:
        body += struct.pack('>q', timestamp)
    for b in (key, value):
        body += struct.pack('>i', -1) if b is None else struct.pack('>i', len(b)) + b
    crc = zlib.crc32(body) ^ (1 if damage else 0)
    return struct.pack('>qi', offset, len(body) + 4) + struct.pack('>I', crc) + body


GZIP, LOG_APPEND_TIME = 1, 8
inner_v1 = b''.join(entry(i, 1, 0, 100 + i, b'k%d' % i, b'v%d' % i) for i in range(3))
inner_v0 = b''.join(entry(5 + i, 0, 0, -1, None, b'w%d' % i) for i in range(2))
log = (entry(0, 0, 0, -1, b'a', b'zero')
       + entry(1, 1, 0, 1000, None, b'one')
       + entry(4, 1, GZIP, 1000, None, gzip.compress(inner_v1, mtime=0))
       + entry(6, 0, GZIP, -1, None, gzip.compress(inner_v0, mtime=0))
       + entry(7, 1, LOG_APPEND_TIME, 2000, b'b', b'damaged', damage=True)
       + entry(8, 0, GZIP, -1, None, gzip.compress(entry(8, 1, 0, 777, b'm', b'mixed'), mtime=0)))
if '--kafka-readable' not in sys.argv:
    log += entry(9, 1, GZIP, 3000, None, b'not gzip at all')
open(sys.argv[1], 'wb').write(log)
