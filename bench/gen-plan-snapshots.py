#!/usr/bin/env python3
"""Synthetic inputs for `kepoch plan` at scale (issue 18, item 5): one log dir snapshot per
broker (kepoch-logdir-snapshot v1, as `kepoch logdir snapshot` writes it) and the partitions'
states (states.jsonl: {"live": [...]}, then one {"topic", "partition", "replicas", "isr",
"leader", "leader_epoch"} per partition) for bench/plan_bench.cpp.

  gen-plan-snapshots.py OUT_DIR --brokers 100 --replicas-per-broker 2000

RF 3, partition p on brokers p, p+1, p+2 (mod N). Every tenth broker is down. A partition
whose first replica is on a down broker is leaderless with that broker as the only ISR
member (the other two replicas fell behind at different offsets, one of them diverged at a
later epoch); every other partition is healthy (leader its first live replica, ISR every
live replica, all replicas alike). No replica shut down cleanly (the live brokers run, the
down ones stopped), so a plan over bench/gen-metadata-log.py's log of the same partitions finds
the metadata current. Each snapshot lists its replicas in partition order (topic t00000,
t00001, ..., then partition number), as `kepoch logdir snapshot` writes them.
"""
import argparse
import json
import os
import zlib

BATCH_RECORDS = 10
BATCH_SIZE = 1000
FIELDS = ["ordinal", "base_offset", "last_offset", "records", "size", "crc", "epoch",
          "records_before", "bytes_before", "digest_before"]


_BATCHES = {}


def batches(n_batches, diverged_from=None):
    key = (n_batches, diverged_from)
    if key not in _BATCHES:
        _BATCHES[key] = _batches(n_batches, diverged_from)
    return _BATCHES[key]


def _batches(n_batches, diverged_from=None):
    """(base, last, crc, epoch) per batch; from `diverged_from` on, epoch 1 and other CRCs."""
    out = []
    for i in range(n_batches):
        epoch = 1 if diverged_from is not None and i >= diverged_from else 0
        crc = zlib.crc32(f"{i}:{epoch}".encode())
        out.append((i * BATCH_RECORDS, i * BATCH_RECORDS + BATCH_RECORDS - 1, crc, epoch))
    return out


_BATCH_TEXT = {}


def batch_text(bl):
    """The batch lines of a replica: the same for every replica with the same batches, so made
    once (the generator writes GBs at 1,000 brokers; this is most of its time otherwise)."""
    key = tuple(bl)
    text = _BATCH_TEXT.get(key)
    if text is None:
        text = "".join(json.dumps({"batch": [i, base, last, BATCH_RECORDS, BATCH_SIZE, crc, epoch,
                                             i * BATCH_RECORDS, i * BATCH_SIZE, i]},
                                  separators=(",", ":")) + "\n"
                       for i, (base, last, crc, epoch) in enumerate(bl))
        _BATCH_TEXT[key] = text
    return text


def replica_lines(log_dir, topic, partition, bl, hw):
    epochs = []
    for b in bl:
        if not epochs or epochs[-1][0] != b[3]:
            epochs.append([b[3], b[0]])
    leo = bl[-1][1] + 1 if bl else 0
    log = {"epochs": epochs, "log_start_offset": 0, "log_end_offset": leo, "high_watermark": hw}
    rep = {"log_dir": log_dir, "name": f"{topic}-{partition}", "topic": topic,
           "partition": partition, "topic_id": None, "clean_shutdown": False,
           "high_watermark": hw, "recovery_point": leo, "log_start_checkpoint": 0,
           "checkpoint_entries": epochs, "rebuilt_entries": epochs, "log_end_offset": leo,
           "recovery_stop": None, "recovery_truncated_bytes": 0, "loaded": log,
           "as_leader": log,
           "segments": [{"file": "00000000000000000000.log", "base_offset": 0,
                         "size_bytes": len(bl) * BATCH_SIZE, "batches": len(bl),
                         "next_offset": leo}],
           "notes": [], "batch_count": len(bl), "records": len(bl) * BATCH_RECORDS,
           "bytes": len(bl) * BATCH_SIZE, "kept_batches": len(bl)}
    return json.dumps({"replica": rep}, separators=(",", ":")) + "\n" + batch_text(bl)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("out")
    ap.add_argument("--brokers", type=int, default=100)
    ap.add_argument("--replicas-per-broker", type=int, default=2000)
    a = ap.parse_args()
    n = a.brokers
    partitions = n * a.replicas_per_broker // 3
    down = {b for b in range(1, n + 1) if b % 10 == 0}
    os.makedirs(a.out, exist_ok=True)
    files = {}
    for b in range(1, n + 1):
        f = open(os.path.join(a.out, f"b{b}.snap"), "w")
        f.write(json.dumps({"format": "kepoch-logdir-snapshot", "version": 1, "window": 16,
                            "log_dirs": [f"/data/b{b}"], "node_id": b,
                            "cluster_id": "BenchClusterAAAAAAAAAAA", "batch_fields": FIELDS},
                           separators=(",", ":")) + "\n")
        files[b] = [f, 0, 0]  # file, replicas, batch lines
    states = open(os.path.join(a.out, "states.jsonl"), "w")
    states.write(json.dumps({"live": sorted(set(range(1, n + 1)) - down)}) + "\n")
    for p in range(partitions):
        # Zero-padded: partition order (topic name, then number) is generation order, the
        # order `kepoch logdir snapshot` writes and `plan` merges.
        topic = f"t{p // 1000:05d}"
        part = p % 1000
        reps = [(p + i) % n + 1 for i in range(3)]
        if reps[0] in down:
            # Leaderless: the ISR member has 10 batches; the others fell behind at 6 and 8,
            # and the one at 8 took a batch of its own at epoch 1 (diverged).
            logs = {reps[0]: (batches(10), 100), reps[1]: (batches(6), 60),
                    reps[2]: (batches(9, diverged_from=8), 80)}
            state = {"isr": [reps[0]], "leader": -1}
        else:
            logs = {r: (batches(8), 80) for r in reps}
            live = [r for r in reps if r not in down]
            state = {"isr": live, "leader": live[0]}
        states.write(json.dumps({"topic": topic, "partition": part, "replicas": reps,
                                 "leader_epoch": 1, **state}) + "\n")
        for r in reps:
            bl, hw = logs[r]
            files[r][0].write(replica_lines(f"/data/b{r}", topic, part, bl, hw))
            files[r][1] += 1
            files[r][2] += len(bl)
    for f, replicas, batch_lines in files.values():
        f.write(json.dumps({"end": {"replicas": replicas, "batches": batch_lines}}) + "\n")
        f.close()
    print(json.dumps({"brokers": n, "partitions": partitions, "replicas": partitions * 3,
                      "down": sorted(down)}))


if __name__ == "__main__":
    main()
