#!/usr/bin/env python3
"""gen-logdir.py: derived benchmark log dirs made from partitions real Kafka wrote.

  gen-logdir.py grow  SRC_LOGDIR DEST --bytes N --topics large-,small-
      DEST gets one partition per source partition whose name starts with one of the
      prefixes, each grown to about N / (number of partitions) bytes by appending whole
      copies of the source's segments with every batch's baseOffset shifted past the
      previous copy (a v2 batch CRC does not cover baseOffset, so the batches stay valid;
      .index/.timeindex hold offsets relative to the segment base, so they are copied as
      they are). Producer snapshots are not copied (Kafka rebuilds producer state).
      With --dominant NAME --share F, partition NAME gets F of the bytes and the others share
      the rest (a log dir where one partition holds most of the data). SRC_LOGDIR may also be
      a dir holding __cluster_metadata-0 (--topics __cluster_metadata): the KRaft metadata log
      grown the same way, for `metadata history` (tests/data/metadata, written by Kafka).
      With --segment-bytes N the copies are joined into segments of up to N bytes, as Kafka
      rolls them (metadata.log.segment.bytes is 1 GiB by default, so a real metadata log of
      a few GB has a few segments, not one per copy of the 47 KB source); a joined
      segment's .index and .timeindex are left out (they would index its first copy only).
  gen-logdir.py clone SRC_LOGDIR DEST --partition many-0 --count N
      DEST gets N copies of one real partition dir, named <topic>-0 .. <topic>-(N-1) (one
      topic with N partitions: same topic id in every partition.metadata).

Both write the log dir root files as a cleanly shut down broker leaves them: meta.properties,
bootstrap.checkpoint, .kafka_cleanshutdown copied from SRC_LOGDIR, and the recovery-point,
replication (high watermark) and log-start offset checkpoints for every partition written.
Writes into DEST.tmp and renames, so an interrupted run leaves no half data set.
"""
import argparse, os, re, shutil, struct, sys

SEG = re.compile(r"^(\d{20})\.log$")


def segments(pdir):
    return sorted(int(m.group(1)) for f in os.listdir(pdir) if (m := SEG.match(f)))


def walk_next_offset(path):
    """Next offset after the last entry of a .log file (baseOffset + lastOffsetDelta + 1)."""
    nxt = None
    with open(path, "rb") as f:
        data = f.read()
    pos = 0
    while pos + 61 <= len(data):
        base, size = struct.unpack_from(">qi", data, pos)
        if size < 14 or pos + 12 + size > len(data):
            break
        last_delta = struct.unpack_from(">i", data, pos + 23)[0]
        nxt = base + last_delta + 1
        pos += 12 + size
    return nxt


def shifted_copy(src, dst, delta):
    data = bytearray(open(src, "rb").read())
    pos, n = 0, len(data)
    pack, unpack = struct.pack_into, struct.unpack_from
    while pos + 12 <= n:
        base, size = unpack(">qi", data, pos)
        if size < 14 or pos + 12 + size > n:
            break
        pack(">q", data, pos, base + delta)
        pos += 12 + size
    with open(dst, "wb") as f:
        f.write(data)


def root_files(src, dest, ends):
    for name in ("meta.properties", "bootstrap.checkpoint", ".kafka_cleanshutdown"):
        if os.path.isfile(os.path.join(src, name)):
            shutil.copy2(os.path.join(src, name), os.path.join(dest, name))
    open(os.path.join(dest, "cleaner-offset-checkpoint"), "w").close()
    def ckpt(name, entries):
        with open(os.path.join(dest, name), "w") as f:
            f.write("0\n%d\n" % len(entries))
            for (t, p), off in entries:
                f.write("%s %d %d\n" % (t, p, off))
    ckpt("recovery-point-offset-checkpoint", ends)
    ckpt("replication-offset-checkpoint", ends)
    ckpt("log-start-offset-checkpoint", [])


def split_name(name):
    t, p = name.rsplit("-", 1)
    return t, int(p)


def grow(args):
    prefixes = [p for p in args.topics.split(",") if p]
    parts = sorted(d for d in os.listdir(args.src)
                   if os.path.isdir(os.path.join(args.src, d)) and any(d.startswith(p) for p in prefixes))
    if not parts:
        sys.exit("gen-logdir: no partition in %s matches %s" % (args.src, args.topics))
    per = args.bytes // len(parts)
    def share(name):
        if not args.dominant:
            return per
        if name == args.dominant:
            return int(args.bytes * args.share)
        return int(args.bytes * (1 - args.share)) // max(1, len(parts) - 1)
    tmp = args.dest + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    ends = []
    total = 0
    for name in parts:
        sdir, ddir = os.path.join(args.src, name), os.path.join(tmp, name)
        os.makedirs(ddir)
        for f in ("leader-epoch-checkpoint", "partition.metadata"):
            if os.path.exists(os.path.join(sdir, f)):
                shutil.copy2(os.path.join(sdir, f), os.path.join(ddir, f))
        segs = segments(sdir)
        leo = walk_next_offset(os.path.join(sdir, "%020d.log" % segs[-1]))
        written, copy = 0, 0
        want = share(name)
        while written < want or copy == 0:
            delta = copy * leo
            for base in segs:
                new = "%020d" % (base + delta)
                shifted_copy(os.path.join(sdir, "%020d.log" % base), os.path.join(ddir, new + ".log"), delta)
                for ext in (".index", ".timeindex"):
                    s = os.path.join(sdir, "%020d%s" % (base, ext))
                    if os.path.exists(s):
                        shutil.copy2(s, os.path.join(ddir, new + ext))
                written += os.path.getsize(os.path.join(ddir, new + ".log"))
                if written >= want:
                    end = walk_next_offset(os.path.join(ddir, new + ".log"))
                    break
            else:
                end = (copy + 1) * leo
            copy += 1
        ends.append((split_name(name), end))
        total += written
        if args.segment_bytes:
            join_segments(ddir, args.segment_bytes)
    root_files(args.src, tmp, ends)
    shutil.rmtree(args.dest, ignore_errors=True)
    os.rename(tmp, args.dest)
    print("gen-logdir: %d partitions, %d bytes of segments in %s" % (len(parts), total, args.dest), file=sys.stderr)


def join_segments(pdir, limit):
    """Appends each segment to the one before while the result stays within `limit` bytes."""
    into, size = None, 0
    for base in segments(pdir):
        log = os.path.join(pdir, "%020d.log" % base)
        n = os.path.getsize(log)
        if into is not None and size + n <= limit:
            with open(into, "ab") as out, open(log, "rb") as f:
                shutil.copyfileobj(f, out, 1 << 20)
            size += n
            os.remove(log)
            for ext in (".index", ".timeindex"):
                for b in (base, int(os.path.basename(into)[:20])):
                    idx = os.path.join(pdir, "%020d%s" % (b, ext))
                    if os.path.exists(idx):
                        os.remove(idx)
        else:
            into, size = log, n


def clone(args):
    sdir = os.path.join(args.src, args.partition)
    topic, _ = split_name(args.partition)
    segs = segments(sdir)
    leo = walk_next_offset(os.path.join(sdir, "%020d.log" % segs[-1]))
    tmp = args.dest + ".tmp"
    shutil.rmtree(tmp, ignore_errors=True)
    os.makedirs(tmp)
    files = [f for f in os.listdir(sdir) if os.path.isfile(os.path.join(sdir, f))]
    ends = []
    for i in range(args.count):
        ddir = os.path.join(tmp, "%s-%d" % (topic, i))
        os.makedirs(ddir)
        for f in files:
            shutil.copyfile(os.path.join(sdir, f), os.path.join(ddir, f))
        ends.append(((topic, i), leo))
    root_files(args.src, tmp, ends)
    shutil.rmtree(args.dest, ignore_errors=True)
    os.rename(tmp, args.dest)
    print("gen-logdir: %d copies of %s in %s" % (args.count, args.partition, args.dest), file=sys.stderr)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    sub = ap.add_subparsers(dest="cmd", required=True)
    g = sub.add_parser("grow")
    g.add_argument("src"); g.add_argument("dest")
    g.add_argument("--bytes", type=int, required=True)
    g.add_argument("--topics", default="large-,small-")
    g.add_argument("--dominant", help="the partition that gets --share of the bytes")
    g.add_argument("--share", type=float, default=0.8)
    g.add_argument("--segment-bytes", type=int, help="join the copies into segments of up to N bytes")
    c = sub.add_parser("clone")
    c.add_argument("src"); c.add_argument("dest")
    c.add_argument("--partition", default="many-0")
    c.add_argument("--count", type=int, required=True)
    args = ap.parse_args()
    {"grow": grow, "clone": clone}[args.cmd](args)


if __name__ == "__main__":
    main()
