#!/usr/bin/env python3
"""html_readback.py: reads back what a `kepoch ... --html` page drew, from the DOM headless
Chromium dumped after loading it (so what is compared is what the browser built, not the
file's text), and holds it to the same command's `-o json` report.

  html_readback.py timeline DOM JSON   diff, predict, plan: every timeline of the report
  html_readback.py history DOM JSON    metadata history
  html_readback.py geometry DOM        diff, predict, plan, as Chromium laid the page out (the
                                       boxes a probe script wrote into data-box): each
                                       replica's spans tile its row left to right in offset
                                       order, rows apart, and each marker's line sits at its
                                       offset's x (within a pixel) on its replica's spans
  html_readback.py wellformed PAGE     every <svg> of the page file parses as XML
  html_readback.py visible DOM OFFSET  the fork at OFFSET is drawn clearly: its marker sits
                                       inside the plot, away from both ends, and the spans
                                       that start there are wide enough to see

Prints what differs and exits 1; prints a one-line account and exits 0 when all agree.
"""
import json, re, sys
import xml.etree.ElementTree as ET
from html.parser import HTMLParser



def colour_hue(colour):
    """The hue (degrees) of an hsl(...) or #rrggbb colour; None for a grey."""
    import colorsys
    m = re.match(r"hsl\(([-0-9.]+),", colour)
    if m:
        return float(m.group(1)) % 360
    m = re.match(r"#([0-9a-fA-F]{6})$", colour)
    if not m:
        return None
    r, g, b = (int(m.group(1)[i:i + 2], 16) / 255 for i in (0, 2, 4))
    h, _, s = colorsys.rgb_to_hls(r, g, b)
    return None if s < 0.15 else h * 360

class Elements(HTMLParser):
    """Every element's tag and attributes, in document order, with the svg it lies in."""

    def __init__(self):
        super().__init__(convert_charrefs=True)
        self.items = []
        self.svg = None
        self.text = {}
        self._h1 = False

    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "svg":
            self.svg = a
        self.items.append((tag, a, self.svg))
        self._h1 = tag == "h1"

    def handle_endtag(self, tag):
        if tag == "svg":
            self.svg = None
        if tag == "h1":
            self._h1 = False

    def handle_data(self, data):
        if self._h1:
            self.text["h1"] = self.text.get("h1", "") + data


def parse(path):
    p = Elements()
    p.feed(open(path, encoding="utf-8").read())
    return p


def num(s):
    return None if s in (None, "") else int(s)


def timelines_of(report):
    """(topic, partition, timeline) for every object holding a timeline, in order."""
    out = []

    def walk(v):
        if isinstance(v, dict):
            t = v.get("timeline")
            if isinstance(t, dict) and "replicas" in t:
                out.append((str(v.get("topic", "")), str(v.get("partition", "")), t))
                return
            for m in v.values():
                walk(m)
        elif isinstance(v, list):
            for e in v:
                walk(e)

    walk(report)
    return out


def check_timeline(dom, report):
    p = parse(dom)
    problems = []
    want_sections = timelines_of(report)
    svgs = [a for t, a, _ in p.items if t == "svg" and a.get("class") == "timeline"]
    if len(svgs) != len(want_sections):
        problems.append("%d timeline pictures, the JSON has %d timelines" % (len(svgs), len(want_sections)))
    summary = report.get("summary")
    summary = summary.get("text") if isinstance(summary, dict) else summary
    heading = summary or report.get("verdict")
    if heading and " ".join(p.text.get("h1", "").split()) != " ".join(heading.split()):
        problems.append("heading %r, the report's sentence %r" % (p.text.get("h1"), heading))
    spans_drawn = removed_drawn = 0
    for i, (topic, partition, t) in enumerate(want_sections):
        if i >= len(svgs):
            break
        svg = svgs[i]
        where = "%s-%s" % (topic, partition)
        if (svg.get("data-topic"), svg.get("data-partition")) != (topic, partition):
            problems.append("%s: picture %d is of %s-%s" % (where, i, svg.get("data-topic"), svg.get("data-partition")))
        if (num(svg.get("data-from")), num(svg.get("data-to")), num(svg.get("data-fork"))) != (t["from"], t["to"], t["fork"]):
            problems.append("%s: axis %s..%s fork %s, JSON %s..%s fork %s" % (
                where, svg.get("data-from"), svg.get("data-to"), svg.get("data-fork"), t["from"], t["to"], t["fork"]))
        mine = [(tag, a) for tag, a, s in p.items if s is svg]
        # Spans: each drawn rect (a span crossing the break is drawn as two parts).
        drawn = set()
        for tag, a in mine:
            if tag == "rect" and a.get("class") == "span":
                if float(a["width"]) <= 0:
                    problems.append("%s: a span of width %s" % (where, a["width"]))
                drawn.add((a["data-replica"], num(a["data-epoch"]), int(a["data-start"]), int(a["data-end"])))
        want = set((r["dir"], s["epoch"], s["start"], s["end"]) for r in t["replicas"] for s in r["spans"])
        spans_drawn += len(drawn)
        for x in sorted(want - drawn, key=str):
            problems.append("%s: span not drawn: %s" % (where, x))
        for x in sorted(drawn - want, key=str):
            problems.append("%s: span drawn that the JSON lacks: %s" % (where, x))
        # Markers: the fork, and each replica's hw, recovery point and truncation point.
        marks = set()
        for tag, a in mine:
            if a.get("class") == "marker" and a.get("data-kind") != "break":
                marks.add((a.get("data-kind"), a.get("data-replica"), int(a["data-offset"])))
        want = set()
        if t["fork"] is not None:
            want.add(("fork", None, t["fork"]))
        for r in t["replicas"]:
            for k in ("hw", "recovery_point", "truncate_to"):
                if r.get(k) is not None and t["from"] <= r[k] <= t["to"]:
                    want.add((k, r["dir"], r[k]))
        for x in sorted(want - marks, key=str):
            problems.append("%s: marker not drawn: %s" % (where, x))
        for x in sorted(marks - want, key=str):
            problems.append("%s: marker drawn that the JSON lacks: %s" % (where, x))
        # What each replica's truncation removes (predict, plan: the timeline's "removed"):
        # one hatched mark per replica that loses records, with the JSON's ends and counts.
        def committed_word(v):
            return "unknown" if v is None else ("true" if v else "false")
        gone_drawn = set()
        for tag, a in mine:
            if tag == "g" and a.get("class") == "removed":
                gone_drawn.add((a["data-replica"], int(a["data-start"]), int(a["data-end"]),
                                num(a["data-records"]), num(a["data-lost-records"]), a["data-committed-loss"]))
        gone_want = set()
        for r in t["replicas"]:
            g = r.get("removed")
            if g:
                gone_want.add((r["dir"], g["start"], g["end"], g["records"], g["lost_records"],
                               committed_word(g["committed_loss"])))
        for x in sorted(gone_want - gone_drawn, key=str):
            problems.append("%s: removed span not drawn: %s" % (where, x))
        for x in sorted(gone_drawn - gone_want, key=str):
            problems.append("%s: removed span drawn that the JSON lacks: %s" % (where, x))
        removed_drawn += len(gone_drawn)
        # The break: there exactly when the axis starts after the first offset.
        breaks = [a for tag, a in mine if a.get("data-kind") == "break"]
        axis_from = int(svg["data-axis-from"])
        if bool(breaks) != (axis_from > t["from"]):
            problems.append("%s: break drawn %s, axis from %d of %d" % (where, bool(breaks), axis_from, t["from"]))
    # A plan's candidates, side by side under each picture: every candidate of a drawn
    # partition with its rank and what electing it loses, as the JSON says.
    drawn_parts = set((tp, pa) for tp, pa, _ in want_sections)
    rows = set((a["data-topic"], a["data-partition"], int(a["data-broker"]), int(a["data-rank"]),
                num(a["data-lost-records"]), num(a["data-committed-lost-records"]))
               for tag, a, _ in p.items if tag == "tr" and "data-broker" in a)
    want_rows = set((str(c["topic"]), str(c["partition"]), c["broker"], c["rank"], c["lost_records"],
                     c["committed_lost_records"])
                    for c in report.get("candidates", []) if isinstance(report, dict)
                    and (str(c["topic"]), str(c["partition"])) in drawn_parts)
    for x in sorted(want_rows - rows, key=str):
        problems.append("candidate not listed: %s" % (x,))
    for x in sorted(rows - want_rows, key=str):
        problems.append("candidate listed that the JSON lacks: %s" % (x,))
    # The legends: every epoch drawn has one entry, and no two epochs share a colour.
    epochs = set(s["epoch"] for _, _, t in want_sections for r in t["replicas"] for s in r["spans"])
    legend = {}
    for tag, a, _ in p.items:
        if tag == "li" and "data-color" in a:
            e = num(a["data-epoch"])
            if e in legend and legend[e] != a["data-color"]:
                problems.append("epoch %s has two colours: %s, %s" % (e, legend[e], a["data-color"]))
            legend[e] = a["data-color"]
    if set(legend) != epochs:
        problems.append("legend epochs %s, JSON epochs %s" % (sorted(legend, key=str), sorted(epochs, key=str)))
    if len(set(legend.values())) != len(legend):
        problems.append("two epochs share a colour: %s" % legend)
    # Red and green mean state on these pages (fenced/unfenced, truncation, recovery point):
    # no epoch is drawn in either (issue 38: epoch 0 was red, epoch 1 green).
    for e, colour in legend.items():
        hue = colour_hue(colour)
        if hue is not None and (hue < 25 or hue > 335 or 70 < hue < 165):
            problems.append("epoch %s drawn in a state colour (%s, hue %.0f)" % (e, colour, hue))
    for tag, a, _ in p.items:
        if tag == "rect" and a.get("class") == "span" and legend.get(num(a["data-epoch"])) != a.get("fill"):
            problems.append("span %s filled %s, its legend colour %s" % (a, a.get("fill"), legend.get(num(a["data-epoch"]))))
            break
    return problems, "%d timeline(s), %d spans, %d removed spans, %d candidates, %d epochs with distinct colours" % (
        len(want_sections), spans_drawn, removed_drawn, len(rows), len(legend))


def box(a):
    left, top, width, height = (float(x) for x in a["data-box"].split())
    return left, top, left + width, top + height


def check_geometry(dom):
    """Positions against offsets, from the boxes Chromium laid out (not the attributes)."""
    p = parse(dom)
    problems = []
    svgs = [a for t, a, _ in p.items if t == "svg" and a.get("class") == "timeline"]
    spans_seen = markers_seen = removed_seen = 0
    for svg in svgs:
        where = "%s-%s" % (svg.get("data-topic"), svg.get("data-partition"))
        mine = [(t, a) for t, a, s in p.items if s is svg]
        rows = {}
        for t, a in mine:
            if t == "rect" and a.get("class") == "span":
                if "data-box" not in a:
                    problems.append("%s: a span Chromium did not lay out: %s" % (where, a))
                    continue
                rows.setdefault(a["data-replica"], []).append(
                    (int(a["data-start"]), int(a["data-end"]), a.get("data-part"), box(a)))
        # Each replica's row: its spans in offset order go left to right, touching where the
        # offsets do (a span is [start, end) of the axis), all on one row.
        extents = []
        for replica, spans in rows.items():
            spans.sort(key=lambda s: (s[0], s[1]))
            spans_seen += len(spans)
            for (s0, e0, p0, b0), (s1, e1, p1, b1) in zip(spans, spans[1:]):
                if b1[0] < b0[2] - 0.5:
                    problems.append("%s %s: span %d..%d at x %.2f..%.2f overlaps or precedes span %d..%d at x %.2f..%.2f" % (
                        where, replica, s1, e1, b1[0], b1[2], s0, e0, b0[0], b0[2]))
                elif e0 == s1 and p0 == p1 == "whole" and abs(b1[0] - b0[2]) > 1:
                    problems.append("%s %s: spans %d..%d and %d..%d meet at offset %d but are drawn %.2f px apart" % (
                        where, replica, s0, e0, s1, e1, s1, b1[0] - b0[2]))
            for s, e, part, b in spans:
                if b[2] - b[0] <= 0 or b[3] - b[1] <= 0:
                    problems.append("%s %s: span %d..%d laid out empty: %s" % (where, replica, s, e, b))
            tops = set(round(b[1], 1) for *_, b in spans) | set(round(b[3], 1) for *_, b in spans)
            if len(tops) != 2:
                problems.append("%s %s: the spans are not on one row: %s" % (where, replica, [b for *_, b in spans]))
            extents.append((min(b[1] for *_, b in spans), max(b[3] for *_, b in spans), replica))
        # One scale: every whole span (not squeezed behind a break) as wide as its offsets.
        whole = [(s, e, b) for spans in rows.values() for s, e, part, b in spans if part == "whole" and e > s]
        if whole:
            scale = sorted((b[2] - b[0]) / (e - s) for s, e, b in whole)[len(whole) // 2]
            for s, e, b in whole:
                if abs((b[2] - b[0]) - scale * (e - s)) > 1:
                    problems.append("%s: span %d..%d is %.2f px wide, %d offsets at %.2f px per offset make %.2f" % (
                        where, s, e, b[2] - b[0], e - s, scale, scale * (e - s)))
        extents.sort()
        for (t0, b0, r0), (t1, b1, r1) in zip(extents, extents[1:]):
            if t1 < b0:
                problems.append("%s: the rows of %s (y %.1f..%.1f) and %s (y %.1f..%.1f) overlap" % (
                    where, r0, t0, b0, r1, t1, b1))
        # Removed spans: the hatched rect over exactly its offsets on its replica's row.
        for i, (t, a) in enumerate(mine):
            if t != "g" or a.get("class") != "removed":
                continue
            rect = next((ra for tr, ra in mine[i + 1:] if tr == "rect"), None)
            if rect is None or "data-box" not in rect:
                problems.append("%s: removed span %s has no laid out rect" % (where, a))
                continue
            rb = box(rect)
            start, end = int(a["data-start"]), int(a["data-end"])
            spans = rows.get(a["data-replica"], [])
            def x_of(o):
                return [b[0] + (o - s) / (e - s) * (b[2] - b[0])
                        for s, e, part, b in spans if part == "whole" and s <= o <= e and e > s]
            xs, xe = x_of(start), x_of(end)
            if not xs or not xe:
                continue  # squeezed behind a break or past the replica's spans
            removed_seen += 1
            if min(abs(rb[0] - w) for w in xs) > 1 or min(abs(rb[2] - w) for w in xe) > 1:
                problems.append("%s: removed span %s %d..%d drawn at x %.2f..%.2f, its offsets are at x %s..%s" % (
                    where, a["data-replica"], start, end, rb[0], rb[2], xs, xe))
            if spans and (abs(rb[1] - spans[0][3][1]) > 1 or abs(rb[3] - spans[0][3][3]) > 1):
                problems.append("%s: removed span %s is not on its replica's row (y %.1f..%.1f)" % (
                    where, a["data-replica"], rb[1], rb[3]))
        # Markers: the line of each at its offset's x on its replica's spans (the fork on any).
        for i, (t, a) in enumerate(mine):
            if a.get("class") != "marker" or a.get("data-kind") == "break" or "data-offset" not in a:
                continue
            line = next((la for tl, la in mine[i + 1:] if tl == "line"), None)
            if line is None or "data-box" not in line:
                problems.append("%s: marker %s has no laid out line" % (where, a))
                continue
            lb = box(line)
            x = (lb[0] + lb[2]) / 2
            o = int(a["data-offset"])
            candidates = rows.get(a["data-replica"], []) if a.get("data-replica") else \
                [s for spans in rows.values() for s in spans]
            want = [b[0] + (o - s) / (e - s) * (b[2] - b[0])
                    for s, e, part, b in candidates if part == "whole" and s <= o <= e and e > s]
            if not want:
                continue  # in a squeezed part or past the spans: no scale to hold it to
            markers_seen += 1
            if min(abs(x - w) for w in want) > 1:
                problems.append("%s: marker %s %s at offset %d drawn at x %.2f, the offset is at x %s" % (
                    where, a.get("data-kind"), a.get("data-replica"), o, x, ", ".join("%.2f" % w for w in want)))
    if spans_seen == 0:
        problems.append("no spans laid out")
    if markers_seen == 0:
        problems.append("no marker could be held to its offset")
    return problems, "%d timeline(s) laid out: %d spans tile their rows, %d markers and %d removed spans at their offsets" % (
        len(svgs), spans_seen, markers_seen, removed_seen)


def position(v):
    if v.get("offset") is not None:
        return v["offset"]
    return int(v["snapshot"].split("-")[0]) if v.get("snapshot") else None


def check_history(dom, report):
    p = parse(dom)
    problems = []
    lanes = {}
    lane = None
    for tag, a, _ in p.items:
        if tag == "g" and a.get("class") == "lane":
            lane = ("p", a["data-topic"], a["data-partition"]) if "data-topic" in a else ("b", a["data-broker"])
            lanes[lane] = {"steps": [], "marks": [], "states": []}
        elif lane and tag == "rect" and a.get("class") == "step":
            lanes[lane]["steps"].append((num(a["data-offset"]), a["data-snapshot"] or None, num(a["data-leader"]), num(a["data-epoch"])))
        elif lane and a.get("class") == "marker":
            lanes[lane]["marks"].append((a["data-kind"], a.get("data-event"), int(a["data-offset"])))
        elif lane and tag == "rect" and a.get("class") == "state":
            lanes[lane]["states"].append(a["data-state"])
    for part in report["partitions"]:
        key = ("p", part["topic"], str(part["partition"]))
        if key not in lanes:
            problems.append("no lane for %s-%s" % key[1:])
            continue
        want = [(s["offset"], s["snapshot"], s["leader"], s["leader_epoch"]) for s in part["steps"] if position(s) is not None]
        if lanes[key]["steps"] != want:
            problems.append("%s-%s: steps drawn %s, JSON %s" % (key[1], key[2], lanes[key]["steps"], want))
        want = sorted((c, None, position(s)) for s in part["steps"] for c in s["causes"] if c in ("isr_shrink", "isr_expand"))
        if sorted(lanes[key]["marks"]) != want:
            problems.append("%s-%s: ISR ticks drawn %s, JSON %s" % (key[1], key[2], lanes[key]["marks"], want))
    brokers = sorted(set(b["broker_id"] for b in report["brokers"]))
    for b in brokers:
        key = ("b", str(b))
        want = [("broker_event", e["event"], position(e)) for e in report["brokers"] if e["broker_id"] == b and position(e) is not None]
        if key not in lanes or lanes[key]["marks"] != want:
            problems.append("broker %d: events drawn %s, JSON %s" % (b, lanes.get(key, {}).get("marks"), want))
    # The time axis: each tick names the last record at or before its offset and that record's
    # timestamp, as the JSON has them (first of the records at one offset, as drawn).
    known = {}
    for e in [st for part in report["partitions"] for st in part["steps"]] + report["brokers"]:
        at = position(e)
        if at is not None and e.get("timestamp") is not None and e["timestamp"] >= 0:
            known.setdefault(at, e["timestamp"])
    ticks = [(int(a["data-offset"]), int(a["data-at-offset"]), int(a["data-timestamp"]))
             for tag, a, _ in p.items if tag == "g" and a.get("class") == "time-tick"]
    if known and not ticks:
        problems.append("no time axis, though the JSON has %d timed records" % len(known))
    for o, at, ts in ticks:
        before = [k for k in known if k <= o]
        if not before or max(before) != at or known[at] != ts:
            problems.append("time tick at offset %d names offset %d at %d; the JSON's last timed record "
                            "at or before it is %s" % (o, at, ts, (max(before), known[max(before)]) if before else None))
    extra = len(lanes) - len(report["partitions"]) - len(brokers)
    if extra:
        problems.append("%d lanes the JSON does not have" % extra)
    steps = sum(len(l["steps"]) for l in lanes.values())
    return problems, "%d partition lanes (%d steps), %d broker lanes, %d time ticks" % (
        len(report["partitions"]), steps, len(brokers), len(ticks))


def check_wellformed(page):
    text = open(page, encoding="utf-8").read()
    problems = []
    svgs = re.findall(r"<svg\b.*?</svg>", text, re.S)
    for s in svgs:
        try:
            ET.fromstring(s)
        except ET.ParseError as e:
            problems.append("an svg does not parse as XML: %s" % e)
    if re.search(r"<(script|link|iframe|img|object|embed)\b|@import|url\(|https?://(?!www\.w3\.org/2000/svg)", text):
        problems.append("the page loads or runs something: %s" % re.search(
            r"<(script|link|iframe|img|object|embed)\b|@import|url\(|https?://(?!www\.w3\.org/2000/svg)", text).group(0))
    return problems, "%d svg(s) well-formed, nothing external" % len(svgs)


def check_visible(dom, offset):
    """The fork marker lies inside the plot, at least 100 px from each end, and the spans
    starting at the fork are at least 100 px wide (drawn to scale, not squeezed)."""
    p = parse(dom)
    problems = []
    fork = [a for t, a, _ in p.items if a.get("data-kind") == "fork"]
    if [int(a["data-offset"]) for a in fork] != [offset]:
        return ["fork markers %s, expected one at %d" % ([a.get("data-offset") for a in fork], offset)], ""
    # The marker's line follows its <g> in document order.
    idx = next(i for i, (t, a, _) in enumerate(p.items) if a is fork[0])
    x = float(next(a["x1"] for t, a, _ in p.items[idx:] if t == "line"))
    plot = [(float(a["x"]), float(a["x"]) + float(a["width"])) for t, a, _ in p.items
            if t == "rect" and a.get("class") == "span"]
    left, right = min(l for l, _ in plot), max(r for _, r in plot)
    if not (left + 100 <= x <= right - 100):
        problems.append("fork at x=%.1f, the plot spans %.1f..%.1f" % (x, left, right))
    after = [float(a["width"]) for t, a, _ in p.items
             if t == "rect" and a.get("class") == "span" and int(a["data-start"]) == offset]
    if not after or min(after) < 100:
        problems.append("the spans from the fork are %s px wide" % after)
    return problems, "fork at x=%.0f in a plot of %.0f..%.0f, spans after it %s px wide" % (
        x, left, right, [round(w) for w in after])


def main():
    kind = sys.argv[1]
    if kind == "timeline":
        problems, account = check_timeline(sys.argv[2], json.load(open(sys.argv[3])))
    elif kind == "history":
        problems, account = check_history(sys.argv[2], json.load(open(sys.argv[3])))
    elif kind == "geometry":
        problems, account = check_geometry(sys.argv[2])
    elif kind == "wellformed":
        problems, account = check_wellformed(sys.argv[2])
    elif kind == "visible":
        problems, account = check_visible(sys.argv[2], int(sys.argv[3]))
    else:
        sys.exit("unknown check " + kind)
    for x in problems:
        print("html_readback %s: %s" % (kind, x))
    if problems:
        sys.exit(1)
    print("html_readback %s: %s" % (kind, account))


if __name__ == "__main__":
    main()
