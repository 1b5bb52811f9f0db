#!/usr/bin/env python3
"""gen-fork.py: two replicas of one partition that fork near their end, for `diff` and `predict`.

  gen-fork.py DEST --bytes N [--fork 100] [--batch 1024] [--records 1]
              [--segment-bytes 1073741824]

DEST/a and DEST/b are two broker log dirs (cleanly shut down) holding partition `fork-0`:
about N bytes of ~1 KiB v2 batches of one record each, identical up to offset F, then 100
offsets (--fork) that differ: replica a kept writing at leader epoch 0, replica b was elected
at epoch 1 at offset F (an unclean election) and wrote other records. Their
leader-epoch-checkpoints say so ([0 0] and [0 0, 1 F]), replication-offset-checkpoint puts a's
high watermark at F and b's at its log end, the recovery points at the log ends.

The batches are laid out as a Kafka 4 broker writes them: segments of at most
--segment-bytes, an offset-index entry (batch last offset, batch position) whenever more than
index.interval.bytes (4096) were appended since the last one, indexes trimmed as after a clean
shutdown. Only two batch bodies exist (the shared records and b's): each copy differs in its
baseOffset, which the v2 CRC does not cover, so every batch is valid. Time indexes are not
written (kepoch's diff and predict do not read them).

--records R puts R records in each shared batch (its value shrinks to keep --batch bytes),
so a long log (millions of offsets) stays small on disk; the divergent tails keep one record
per batch. The fork then falls on a multiple of R.

Writes DEST.tmp and renames it, so an interrupted run leaves no half data set.
"""
import argparse, os, shutil, struct, sys

INDEX_INTERVAL = 4096


def crc32c(data):
    table = crc32c.table
    crc = 0xFFFFFFFF
    for b in data:
        crc = table[(crc ^ b) & 0xFF] ^ (crc >> 8)
    return crc ^ 0xFFFFFFFF


crc32c.table = []
for i in range(256):
    c = i
    for _ in range(8):
        c = (c >> 1) ^ 0x82F63B78 if c & 1 else c >> 1
    crc32c.table.append(c)


def varint(n):
    z = (n << 1) ^ (n >> 63)  # zigzag
    out = bytearray()
    while True:
        b = z & 0x7F
        z >>= 7
        if z:
            out.append(b | 0x80)
        else:
            out.append(b)
            return bytes(out)


def batch(size, epoch, fill, timestamp=1700000000000, records=1):
    """A v2 batch of `size` bytes (log overhead included) holding `records` records; baseOffset 0."""
    def build(value_len):
        value = (fill * (value_len // len(fill) + 1))[:value_len]
        record = b""
        for delta in range(records):
            body = (bytes([0]) + varint(0) + varint(delta) + varint(-1) + varint(len(value)) + value
                    + varint(0))
            record += varint(len(body)) + body
        after_crc = struct.pack(">hiqqqhii", 0, records - 1, timestamp, timestamp, -1, -1, -1,
                                records) + record
        crc = crc32c(after_crc)
        length = 4 + 1 + 4 + len(after_crc)  # from partitionLeaderEpoch on
        return struct.pack(">qiibI", 0, length, epoch, 2, crc) + after_crc
    value_len = max((size - 80) // records, 0)
    while value_len > 0 and len(build(value_len)) > size:
        value_len -= 1
    return build(value_len)


def write_replica(pdir, bodies, segment_bytes):
    """bodies: list of (count, batch bytes, records per batch); offsets from 0."""
    os.makedirs(pdir)
    offset, seg_base, seg_size, since_index = 0, 0, 0, 0
    log = index = None

    def roll(base):
        nonlocal log, index, seg_size, since_index, seg_base
        if log:
            log.close()
            index.close()
        seg_base, seg_size, since_index = base, 0, 0
        log = open(os.path.join(pdir, "%020d.log" % base), "wb")
        index = open(os.path.join(pdir, "%020d.index" % base), "wb")

    roll(0)
    for count, body, records in bodies:
        body = bytearray(body)
        for _ in range(count):
            if seg_size + len(body) > segment_bytes:
                roll(offset)
            if since_index > INDEX_INTERVAL:
                # Kafka's LogSegment.append indexes a batch by its last offset, not its first.
                index.write(struct.pack(">ii", offset + records - 1 - seg_base, seg_size))
                since_index = 0
            struct.pack_into(">q", body, 0, offset)
            log.write(body)
            seg_size += len(body)
            since_index += len(body)
            offset += records
    log.close()
    index.close()
    return offset


def checkpoint(path, entries):
    with open(path, "w") as f:
        f.write("0\n%d\n" % len(entries))
        for e in entries:
            f.write(" ".join(str(x) for x in e) + "\n")


def main():
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("dest")
    p.add_argument("--bytes", type=int, required=True)
    p.add_argument("--fork", type=int, default=100)
    p.add_argument("--batch", type=int, default=1024)
    p.add_argument("--records", type=int, default=1)
    p.add_argument("--segment-bytes", type=int, default=1 << 30)
    args = p.parse_args()
    shared = batch(args.batch, 0, b"shared record value, written while broker a led; ",
                   records=args.records)
    tail_a = batch(args.batch, 0, b"a's tail: acknowledged by a alone, lost at the election; ")
    tail_b = batch(args.batch, 1, b"b's tail: written after b was elected uncleanly; ")
    shared_batches = max(args.bytes // args.batch - args.fork, 1)
    fork_at = shared_batches * args.records
    total = fork_at + args.fork
    tmp = args.dest + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    for name, tail, epochs, hw in (("a", tail_a, [(0, 0)], fork_at),
                                   ("b", tail_b, [(0, 0), (1, fork_at)], total)):
        logdir = os.path.join(tmp, name)
        end = write_replica(os.path.join(logdir, "fork-0"),
                            [(shared_batches, shared, args.records), (args.fork, tail, 1)],
                            args.segment_bytes)
        checkpoint(os.path.join(logdir, "fork-0", "leader-epoch-checkpoint"), epochs)
        checkpoint(os.path.join(logdir, "recovery-point-offset-checkpoint"), [("fork", 0, end)])
        checkpoint(os.path.join(logdir, "replication-offset-checkpoint"), [("fork", 0, hw)])
        checkpoint(os.path.join(logdir, "log-start-offset-checkpoint"), [])
        open(os.path.join(logdir, ".kafka_cleanshutdown"), "w").close()
    shutil.rmtree(args.dest, ignore_errors=True)
    os.rename(tmp, args.dest)
    print("gen-fork: 2 replicas of %d offsets in %d batches (%d bytes each), fork at offset %d in %s"
          % (total, shared_batches + args.fork, args.batch, fork_at, args.dest), file=sys.stderr)


if __name__ == "__main__":
    main()
