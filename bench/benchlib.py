#!/usr/bin/env python3
"""benchlib.py: helpers of bench/run (not a user-facing tool).

  benchlib.py count FILE...                  {"bytes", "batches", "records"} of .log files
                                             (a header walk: 8+4 bytes, then the record count)
  benchlib.py hyperfine NAME JSON RSS_FILE META_JSON >> results.jsonl
                                             one result line from a hyperfine export,
                                             /usr/bin/time's "%M %e %x" and the caller's meta
  benchlib.py report RESULTS.jsonl MACHINE.json OUT.md
"""
import json, os, struct, sys


def count(files):
    tot = {"bytes": 0, "batches": 0, "records": 0, "files": 0}
    for path in files:
        size = os.path.getsize(path)
        tot["bytes"] += size
        tot["files"] += 1
        with open(path, "rb") as f:
            pos = 0
            while pos + 61 <= size:
                f.seek(pos)
                head = f.read(61)
                base, length = struct.unpack_from(">qi", head, 0)
                if length < 14 or pos + 12 + length > size:
                    break
                magic = head[16]
                tot["batches"] += 1
                tot["records"] += struct.unpack_from(">i", head, 57)[0] if magic >= 2 else 1
                pos += 12 + length
    print(json.dumps(tot))


def from_hyperfine(name, hf_json, rss_file, meta_json):
    hf = json.load(open(hf_json))["results"][0]
    meta = json.loads(meta_json)
    times = sorted(hf["times"])
    med = times[len(times) // 2] if len(times) % 2 else (times[len(times) // 2 - 1] + times[len(times) // 2]) / 2
    rss_kb, wall, code = None, None, None
    if rss_file and os.path.exists(rss_file):
        parts = open(rss_file).read().split()
        if len(parts) >= 3:
            rss_kb, wall, code = int(parts[-3]), float(parts[-2]), int(parts[-1])
    out = {"name": name, "median_s": med, "min_s": min(times), "mean_s": hf["mean"],
           "stddev_s": hf.get("stddev"), "runs": len(times), "rss_kb": rss_kb, "exit": code,
           "user_s": hf.get("user"), "system_s": hf.get("system")}
    out.update(meta)
    print(json.dumps(out))


def fmt_s(s):
    return "%.3f" % s if s < 10 else "%.1f" % s


def gbs(bytes_, s):
    return bytes_ / s / 1e9 if s > 0 else float("nan")


def cpu(r):
    return (r.get("user_s") or 0) + (r.get("system_s") or 0)


def report(results_path, machine_path, out_path):
    rows = [json.loads(l) for l in open(results_path) if l.strip()]
    m = json.load(open(machine_path))
    by = {r["name"]: r for r in rows}
    L = []
    w = L.append
    w("# kepoch benchmark: %s on %s" % (m["date"], m["host"]))
    w("")
    w("Written by `bench/run%s` (profile **%s**). Times are hyperfine's median and minimum over "
      "the runs shown, files in the page cache (one warm-up run first, except for "
      "DumpLogSegments, which runs after kepoch and cat have read the same files). Peak RSS is "
      "one extra run under `/usr/bin/time`. GB = 10^9 bytes; throughput uses the median." % (
          m.get("args", ""), m["profile"]))
    w("")
    w("## Machine")
    w("")
    w("| | |")
    w("| --- | --- |")
    for k in ("cpu", "cores", "ram", "kernel", "os", "compiler", "kepoch", "kafka", "java", "hyperfine",
              "crc32c", "load_start", "load_end", "note"):
        if m.get(k):
            w("| %s | %s |" % (k.replace("_", " "), m[k]))
    w("")
    w("The machine is shared: other engineers' builds ran at the same time, so every row carries "
      "the 1-minute load average read just before it, and the CPU time (user + system, mean of "
      "the runs) next to the wall time. With a load above the core count (2) the wall times are "
      "pessimistic and *GB per CPU s* (bytes over CPU time: the speed on a core of its own) is "
      "the steadier figure; DumpLogSegments' CPU time includes its JIT and GC threads.")
    w("")
    w("## Data")
    w("")
    for line in m.get("data", []):
        w("- " + line)
    w("")

    def table(title, names, ref=None, ref_label=None, extra=None):
        sel = [by[n] for n in names if n in by]
        if not sel:
            return
        w("### " + title)
        w("")
        hdr = "| what | command | data | runs | median s | min s | CPU s | GB/s | GB per CPU s | batches/s | peak RSS MiB | load |"
        sep = "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
        if ref:
            hdr = hdr + " %s |" % ref_label
            sep += " --- |"
        w(hdr)
        w(sep)
        for r in sel:
            b = r.get("bytes", 0)
            cells = [r.get("label", r["name"]), "`%s`" % r.get("shown", ""),
                     "%.2f GB, %d files" % (b / 1e9, r.get("files", 0)) if b else "-",
                     str(r["runs"]), fmt_s(r["median_s"]), fmt_s(r["min_s"]), fmt_s(cpu(r)),
                     "%.2f" % gbs(b, r["median_s"]) if b else "-",
                     "%.2f" % gbs(b, cpu(r)) if b else "-",
                     "%.3g" % (r["batches"] / r["median_s"]) if r.get("batches") else "-",
                     "%.1f" % (r["rss_kb"] / 1024) if r.get("rss_kb") else "-",
                     "%.2f" % r["load"] if r.get("load") is not None else "-"]
            if ref:
                cells.append(ref(r))
            w("| " + " | ".join(cells) + " |")
        w("")
        if extra:
            for line in extra:
                w(line)
            w("")

    w("## Results")
    w("")
    crc = [r for r in rows if r["name"].startswith("crc32c")]
    if crc:
        w("### CRC-32C speed of this machine (kepoch's `crc32c`, one core, in memory)")
        w("")
        w("| chunk (batch) size | GB per CPU s, mean | GB per CPU s, best pass | GB/s wall, mean | hardware crc32 | load |")
        w("| --- | --- | --- | --- | --- | --- |")
        for r in crc:
            w("| %d B | %.2f | %.2f | %.2f | %s | %.2f |" % (
                r["chunk_bytes"], r.get("cpu_mean_gb_s", float("nan")), r.get("cpu_best_gb_s", float("nan")),
                r["mean_gb_s"], "yes" if r["hardware"] else "no", r.get("load", 0)))
        w("")

    def ratio_to(other):
        def f(r):
            o = by.get(other(r["name"]))
            if not o:
                return "-"
            return "%.1fx faster" % (o["median_s"] / r["median_s"]) if not r["name"].startswith("dls") else "1"
        return f

    groups = m.get("dump_groups", [])
    names = []
    for g in groups:
        for mode in ("headers", "records"):
            names += ["dump-%s-%s" % (mode, g), "dls-%s-%s" % (mode, g)]
    def vs_dls(r):
        if r["name"].startswith("dls-"):
            return "(reference)"
        o = by.get("dls-" + r["name"][5:])
        if not o:
            return "-"
        return "**%.1fx** faster (wall), %.1fx (CPU)" % (o["median_s"] / r["median_s"], cpu(o) / max(cpu(r), 1e-9))
    table("`segment dump` vs Kafka's DumpLogSegments (same files; output to /dev/null)", names, vs_dls,
          "kepoch vs DumpLogSegments",
          ["Headers: `kepoch segment dump` (every batch header, CRC checked) vs `DumpLogSegments "
           "--files` (every batch header, `isvalid` computes the CRC). Records: `--records` vs "
           "`--deep-iteration` (every record decompressed and printed). DumpLogSegments runs as "
           "`kafka-dump-log.sh` would run it (JVM flags of `kafka-run-class.sh`, -Xmx256M, G1: "
           "its GC and JIT threads use both cores; kepoch uses one)."])

    def out_speed(r):
        ob = r.get("out_bytes")
        if not ob:
            return "-"
        j = by.get("format-json")
        rel = " (%.2fx json's CPU time)" % (cpu(r) / max(cpu(j), 1e-9)) if j and r is not j else ""
        return "%.0f MB, %.2f GB per CPU s%s" % (ob / 1e6, ob / max(cpu(r), 1e-9) / 1e9, rel)
    table("`segment dump --records` per output format (issue 21: the writers)",
          [n for f in ("table", "json", "yaml", "jsonl") for n in ("format-" + f,)], out_speed,
          "output written")

    def vs_dls_codec(r):
        if r["name"].startswith("dls-"):
            return "(reference)"
        o = by.get("dls-" + r["name"])
        if not o:
            return "-"
        return "**%.1fx** faster (wall), %.1fx (CPU)" % (o["median_s"] / r["median_s"], cpu(o) / max(cpu(r), 1e-9))
    codec_names = [n for g in ("small", "large") for c in ("none", "gzip", "snappy", "lz4", "zstd")
                   for n in ("codec-%s-%s" % (g, c), "dls-codec-%s-%s" % (g, c))]
    table("`segment dump --records` per codec vs DumpLogSegments `--deep-iteration` (same files)",
          codec_names, vs_dls_codec, "kepoch vs DumpLogSegments")
    size_dls = [n for z in ("tiny", "mid", "huge") for n in ("size-dump-" + z, "size-dls-" + z)]
    def vs_size_dls(r):
        if r["name"].startswith("size-dls-"):
            return "(reference)"
        o = by.get("size-dls-" + r["name"][len("size-dump-"):])
        if not o:
            return "-"
        return "**%.1fx** faster (wall), %.1fx (CPU)" % (o["median_s"] / r["median_s"], cpu(o) / max(cpu(r), 1e-9))
    table("DumpLogSegments `--deep-iteration` at three sizes: JVM start-up (23 KB) vs steady state (91 MB, 1 GB)",
          size_dls, vs_size_dls, "kepoch vs DumpLogSegments",
          ["At 23 KB both figures are start-up: the JVM's (class loading, JIT warm-up) against "
           "kepoch's process start. At 91 MB and 1 GB the work dominates: those ratios are the "
           "steady-state speed."])
    tails = sorted([n for n in by if n.startswith("tail-")], key=lambda n: (n.split("-")[1], int(n.split("-")[2])))
    table("`diff` and `predict` on two replicas forking 100 offsets before the end (cost follows the tail)",
          tails)

    def vs_cat(r):
        c = by.get(r.get("cat"))
        if not c:
            return "-"
        return "%.0f%% of cat (wall), %.0f%% (CPU)" % (100 * c["median_s"] / r["median_s"], 100 * cpu(c) / max(cpu(r), 1e-9))
    one = [n for n in ("cat-big", "inspect-big", "verify-big", "dump-headers-big") if n in by]
    table("One partition on one core: header walk and full verification vs `cat` of the same .log files",
          one, vs_cat, "vs page-cache read")

    def vs_baseline(r):
        b = by.get(r["name"] + "-baseline")
        if not b:
            return "(before)"
        return "%.1fx less CPU time, %.1fx less wall time" % (cpu(b) / max(cpu(r), 1e-9),
                                                             b["median_s"] / r["median_s"])
    pairs = [x for n in by if n.endswith("-baseline") and n[:-9] in by for x in (n, n[:-9])]
    table("Before and after: the `--baseline` binary and this one on the same files, in the same run",
          pairs, vs_baseline, "after vs before")

    size_names = []
    for s in m.get("sizes", []):
        size_names += ["cat-size-%s" % s, "scan1-size-%s" % s, "scan-size-%s" % s]
    table("`logdir scan` vs data size (same partitions, grown; `-j 1` one core, default: all cores)",
          size_names, vs_cat, "vs cat (one core)")
    count_names = [n for c in m.get("counts", []) for n in ("scan-count-%s" % c, "scan-count-%s-before" % c)]
    table("`logdir scan` vs partition count (copies of one real small partition; all cores)",
          count_names)
    hist = [n for f in ("table", "wide", "json", "yaml", "jsonl")
            for n in ("history-%s" % f, "history-%s-baseline" % f)]
    table("`metadata history` on the grown metadata log, per output format (target: peak RSS "
          "under 32 MiB in every format)", hist)
    last = m.get("counts", ["?"])[-1]
    def vs_findcat(r):
        o = by.get("findcat-count-%s" % last)
        if not o or r["name"].startswith("findcat") or not cpu(o):
            return "-"
        return "%.2fx the CPU" % (cpu(r) / cpu(o))
    table("`logdir scan -j 1` of %s small partitions vs `find -exec cat` over the same files "
          "(target: no more CPU)" % last,
          ["findcat-count-%s" % last, "scan1-count-%s" % last, "scan1-count-%s-baseline" % last],
          vs_findcat, "CPU vs find -exec cat")
    def vs_one_core(r):
        o = by.get("scan1-dominant")
        if not o or r["name"] == "scan1-dominant":
            return "1"
        return "%.2fx (wall)" % (o["median_s"] / r["median_s"])
    table("`logdir scan` where one partition holds 80% of the bytes (target: all cores >= 1.7x "
          "`-j 1`)", ["scan1-dominant", "scan-dominant"], vs_one_core, "speed-up vs -j 1")
    real = [n for n in ("cat-kafka", "scan1-kafka", "scan-kafka") if n in by]
    table("`logdir scan` of the whole Kafka-written log dir", real, vs_cat, "vs cat (one core)")

    w("## Targets")
    w("")
    w("| target | measured | met |")
    w("| --- | --- | --- |")
    for t in m.get("targets", []):
        w("| %s | %s | %s |" % (t["target"], t["measured"], t.get("verdict") or ("yes" if t["met"] else "**no**")))
    w("")
    for line in m.get("analysis", []):
        w(line)
    if m.get("analysis"):
        w("")
    open(out_path, "w").write("\n".join(L) + "\n")


def main():
    cmd = sys.argv[1]
    if cmd == "count":
        count(sys.argv[2:])
    elif cmd == "hyperfine":
        from_hyperfine(*sys.argv[2:6])
    elif cmd == "report":
        report(*sys.argv[2:5])
    else:
        sys.exit("benchlib.py: unknown command " + cmd)


if __name__ == "__main__":
    main()
