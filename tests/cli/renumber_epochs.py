#!/usr/bin/env python3
"""renumber_epochs.py SRC DEST SHIFT: a copy of a broker log dir (or a partition dir) written by
real Kafka, with every leader epoch moved up by SHIFT, as if the partition had been through
SHIFT more leader elections before the fixture was made (each election bumps the leader
epoch by one: PartitionRegistration.merge), so its epochs are in the hundreds like a
long-lived partition's.

Rewritten consistently, everything else byte for byte:
  - leader-epoch-checkpoint: each entry's epoch (LeaderEpochCheckpointFile: version line,
    count line, "epoch startOffset" lines);
  - each .log segment's v2 record batches: partitionLeaderEpoch (bytes 12..15 of the batch,
    after baseOffset and batchLength) and the CRC-32C (bytes 17..20, over attributes to the
    batch end, DefaultRecordBatch), which covers it. A batch's size does not change, so the
    offset and time indexes stay valid. Legacy (v0/v1) messages carry no leader epoch.
The producer snapshots hold no leader epoch; the root checkpoints name offsets only.
"""
import os, shutil, struct, sys


def crc32c(data, table=[]):
    if not table:
        for i in range(256):
            c = i
            for _ in range(8):
                c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
            table.append(c)
    crc = 0xFFFFFFFF
    for b in data:
        crc = table[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


def renumber_segment(path, shift):
    data = bytearray(open(path, "rb").read())
    pos = 0
    while pos + 17 <= len(data):
        length = struct.unpack_from(">i", data, pos + 8)[0]
        end = pos + 12 + length
        if length < 0 or end > len(data):
            break  # a torn tail: left as Kafka's recovery would find it
        magic = data[pos + 16]
        if magic == 2:
            epoch = struct.unpack_from(">i", data, pos + 12)[0]
            stored = struct.unpack_from(">I", data, pos + 17)[0]
            if crc32c(bytes(data[pos + 21:end])) != stored:
                sys.exit("%s: batch at byte %d has a bad CRC already" % (path, pos))
            if epoch >= 0:
                struct.pack_into(">i", data, pos + 12, epoch + shift)
                struct.pack_into(">I", data, pos + 17, crc32c(bytes(data[pos + 21:end])))
        pos = end
    open(path, "wb").write(data)


def renumber_checkpoint(path, shift):
    lines = open(path).read().split("\n")
    out = lines[:2]
    for line in lines[2:]:
        if line.strip():
            epoch, offset = line.split()
            line = "%d %s" % (int(epoch) + shift, offset)
        out.append(line)
    open(path, "w").write("\n".join(out))


def main():
    src, dest, shift = sys.argv[1], sys.argv[2], int(sys.argv[3])
    shutil.copytree(src, dest)
    for root, _, files in os.walk(dest):
        for name in files:
            path = os.path.join(root, name)
            if name == "leader-epoch-checkpoint":
                renumber_checkpoint(path, shift)
            elif name.endswith(".log"):
                renumber_segment(path, shift)


if __name__ == "__main__":
    main()
