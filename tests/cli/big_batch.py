#!/usr/bin/env python3
"""Writes a .log segment of one large v2 record batch, byte by byte per the spec's layout
(DefaultRecordBatch, DefaultRecord), for the memory tests (out-of-memory.sh):

  big_batch.py records N CODEC OUT.log   N records (null key, a 1-byte value), CODEC gzip or
                                         none: the batch of millions of records
  big_batch.py copies N COPIES OUT.log   COPIES uncompressed batches of N records each, at
                                         offsets 0, N, 2N, ...: a large valid segment (a v2
                                         batch's CRC does not cover baseOffset, so the copies
                                         differ only there)
  big_batch.py bomb BYTES OUT.log        one gzip batch whose records section inflates to
                                         BYTES zero bytes (a few hundred KiB that pass
                                         kepoch's 256 MiB decompression cap)

Batch: baseOffset int64, batchLength int32, partitionLeaderEpoch int32, magic int8 = 2,
crc uint32 (CRC-32C of attributes..end), attributes int16 (codec in bits 0-2),
lastOffsetDelta int32, baseTimestamp int64, maxTimestamp int64, producerId int64,
producerEpoch int16, baseSequence int32, recordsCount int32, records.
Record: length varint, attributes int8, timestampDelta varlong, offsetDelta varint,
keyLength varint (-1: null), key, valueLength varint, value, headersCount varint.
"""
import gzip
import struct
import sys
import zlib

CODECS = {'none': 0, 'gzip': 1, 'zstd': 4}


def varint(n):
    z = (n << 1) ^ (n >> 63)  # zigzag
    out = bytearray()
    while z >= 0x80:
        out.append((z & 0x7f) | 0x80)
        z >>= 7
    out.append(z)
    return bytes(out)


def crc32c(data):
    table = []
    for n in range(256):
        c = n
        for _ in range(8):
            c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
        table.append(c)
    c = 0xFFFFFFFF
    for x in data:
        c = table[(c ^ x) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


def record(delta):
    body = b'\x00' + varint(0) + varint(delta) + varint(-1) + varint(1) + b'v' + varint(0)
    return varint(len(body)) + body


def batch(codec, count, section, base_offset=0):
    after_crc = struct.pack('>hiqqqhii', CODECS[codec], count - 1, 1000, 1000, -1, -1, -1,
                            count) + section
    head = struct.pack('>ib', 0, 2)  # partitionLeaderEpoch, magic
    crc = struct.pack('>I', crc32c(after_crc))
    length = len(head) + len(crc) + len(after_crc)
    return struct.pack('>qi', base_offset, length) + head + crc + after_crc


def main():
    mode, arg = sys.argv[1], sys.argv[2]
    if mode == 'records':
        n, codec, out = int(arg), sys.argv[3], sys.argv[4]
        section = b''.join(record(i) for i in range(n))
        if codec == 'gzip':
            section = gzip.compress(section, 6)
        data = batch(codec, n, section)
    elif mode == 'copies':
        n, copies, out = int(arg), int(sys.argv[3]), sys.argv[4]
        one = batch('none', n, b''.join(record(i) for i in range(n)))
        with open(out, 'wb') as f:
            for i in range(copies):
                f.write(struct.pack('>q', i * n) + one[8:])
        return
    else:
        out = sys.argv[3]
        z = zlib.compressobj(1, zlib.DEFLATED, 31)  # gzip framing
        chunk = bytes(1 << 20)
        left, parts = int(arg), []
        while left > 0:
            parts.append(z.compress(chunk[:min(left, len(chunk))]))
            left -= len(chunk)
        parts.append(z.flush())
        data = batch('gzip', 1, b''.join(parts))
    open(out, 'wb').write(data)


main()
