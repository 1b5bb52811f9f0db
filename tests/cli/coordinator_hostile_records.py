"""Hostile coordinator records made from real ones (tests/cli/coordinator-hostile-records.sh).

python3 coordinator_hostile_records.py SEGMENT OUT: reads every uncompressed record of the
__consumer_offsets or __transaction_state SEGMENT (a real Kafka fixture), keeps one record of
each key version, value version and value size, and writes OUT: one batch of one record for
each damaged copy of each kept record's key and value: cut at every byte, trailing bytes, and
at every byte a length or count overwritten with 0x7fff, 0xffff (-1), 0x8000, 0x7fffffff,
0xffffffff, a 5-byte varint of 2^32 - 1 (huge compact lengths and tagged-field counts and
sizes) or version 99. Batches are magic 2 with a right CRC-32C: the lie is in the record.
"""
import struct
import sys


def uvarint(b, p):
    r = s = 0
    while True:
        x = b[p]
        p += 1
        r |= (x & 0x7F) << s
        s += 7
        if not x & 0x80:
            return r, p


def varint(b, p):
    r, p = uvarint(b, p)
    return (r >> 1) ^ -(r & 1), p


def zigzag(v):
    u = (v << 1) ^ (v >> 63)
    out = bytearray()
    while True:
        if u < 0x80:
            out.append(u)
            return bytes(out)
        out.append((u & 0x7F) | 0x80)
        u >>= 7


TABLE = []
for n in range(256):
    c = n
    for _ in range(8):
        c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
    TABLE.append(c)


def crc32c(data):
    c = 0xFFFFFFFF
    for x in data:
        c = TABLE[(c ^ x) & 0xFF] ^ (c >> 8)
    return c ^ 0xFFFFFFFF


def records_of(seg):
    p, out = 0, []
    while p + 61 <= len(seg):
        size = struct.unpack('>i', seg[p + 8:p + 12])[0]
        attributes = struct.unpack('>h', seg[p + 21:p + 23])[0]
        if attributes & 7 == 0 and not attributes & 0x20:  # uncompressed, not control
            q = p + 61
            for _ in range(struct.unpack('>i', seg[p + 57:p + 61])[0]):
                length, q = varint(seg, q)
                end = q + length
                q += 1
                _, q = varint(seg, q)
                _, q = varint(seg, q)
                kl, q = varint(seg, q)
                key = seg[q:q + kl] if kl >= 0 else None
                q += max(kl, 0)
                vl, q = varint(seg, q)
                value = seg[q:q + vl] if vl >= 0 else None
                out.append((key, value))
                q = end
        p += 12 + size
    return out


def batch(offset, key, value):
    body = b'\x00' + zigzag(0) + zigzag(0)
    body += zigzag(-1) if key is None else zigzag(len(key)) + key
    body += zigzag(-1) if value is None else zigzag(len(value)) + value
    body += zigzag(0)
    after_crc = struct.pack('>hiqqqhii', 0, 0, 1700000000000, 1700000000000, -1, -1, -1, 1)
    after_crc += zigzag(len(body)) + body
    head = struct.pack('>qii', offset, 4 + 1 + 4 + len(after_crc), 0) + b'\x02'
    return head + struct.pack('>I', crc32c(after_crc)) + after_crc


PATTERNS = [b'\x7f\xff', b'\xff\xff', b'\x80\x00', b'\x7f\xff\xff\xff', b'\xff\xff\xff\xff',
            b'\xff\xff\xff\xff\x0f', b'\x00\x63']


def damaged(x):
    if x is None:
        return
    yield x + b'\x00\x01\x02'
    for i in range(len(x)):
        yield x[:i]
        for m in PATTERNS:
            yield x[:i] + m + x[i + len(m):]


seg = open(sys.argv[1], 'rb').read()
kept, seen = [], set()
for key, value in records_of(seg):
    kind = (key[:2] if key else None, value[:2] if value else None, len(value or b''))
    if kind not in seen:
        seen.add(kind)
        kept.append((key, value))
out, offset = bytearray(), 0
for key, value in kept[:4]:
    for k in damaged(key):
        out += batch(offset, k, value)
        offset += 1
    for v in damaged(value):
        out += batch(offset, key, v)
        offset += 1
open(sys.argv[2], 'wb').write(out)
print(offset)
