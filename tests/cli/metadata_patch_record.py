#!/usr/bin/env python3
"""metadata_patch_record.py SEGMENT API_KEY FIELD NEW: rewrites, in place, the first data
record of api key API_KEY in a KRaft metadata log segment written by real Kafka: FIELD "type"
sets its api key to NEW, "version" its version (each a one-byte unsigned varint after the
frame version, AbstractApiMessageSerde), then the batch's CRC-32C (DefaultRecordBatch: over
attributes to the batch end) so that only the record's type or version is unknown, not its
batch damaged. Prints the record's offset."""
import struct, sys
sys.path.insert(0, __import__("os").path.dirname(__file__))
from renumber_epochs import crc32c


def varint(data, pos):
    shift = value = 0
    while True:
        b = data[pos]; pos += 1
        value |= (b & 0x7F) << shift; shift += 7
        if not b & 0x80:
            return (value >> 1) ^ -(value & 1), pos


path, api_key, field, new = sys.argv[1], int(sys.argv[2]), sys.argv[3], int(sys.argv[4])
data = bytearray(open(path, "rb").read())
pos = 0
while pos + 61 <= len(data):
    base = struct.unpack_from(">q", data, pos)[0]
    length = struct.unpack_from(">i", data, pos + 8)[0]
    end = pos + 12 + length
    attributes = struct.unpack_from(">h", data, pos + 21)[0]
    count = struct.unpack_from(">i", data, pos + 57)[0]
    if not attributes & 0x20 and attributes & 0x7 == 0:  # data batch, uncompressed
        r = pos + 61
        for _ in range(count):
            size, r = varint(data, r)
            body = r
            r += 1  # attributes
            _, r = varint(data, r)  # timestamp delta
            delta, r = varint(data, r)
            klen, r = varint(data, r)
            r += max(klen, 0)
            vlen, r = varint(data, r)
            if vlen >= 3 and data[r] == 1 and data[r + 1] == api_key:
                data[r + (1 if field == "type" else 2)] = new
                struct.pack_into(">I", data, pos + 17, crc32c(bytes(data[pos + 21:end])))
                open(path, "wb").write(data)
                print(base + delta)
                sys.exit(0)
            r = body + size
    pos = end
sys.exit(f"no record of api key {api_key} in {path}")
