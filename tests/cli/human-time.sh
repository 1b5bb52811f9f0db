#!/usr/bin/env bash
# Human time (issue 20) over the real fixtures: Kafka's epoch-millisecond times are ISO 8601
# UTC in table and YAML, JSON keeps them and adds <name>_iso, --local shows the zone TZ
# names with its offset, NO_TIMESTAMP (-1) is none/null (never 1969), and --from-time/--until
# filter segment dump's batches by max_timestamp, [from, until), and metadata records,
# steps and broker events by their timestamp. And a table longer than --limit rows ends in
# "N more (use -o json or --limit)"; JSON is never cut.
. "$(dirname "$0")/common.sh"

LOG="$DATA/divergence/before/broker-1/d-0/00000000000000000000.log"  # 2 batches
META="$DATA/metadata/__cluster_metadata-0"

# Table: the batches' max_timestamp as ISO 8601 UTC, not milliseconds.
expect_exit 0 "$KEPOCH" segment dump "$LOG"
expect_in "$SCRATCH/out" "2026-11-29T08:29:22.224Z"
expect_in "$SCRATCH/out" "2026-11-29T08:29:30.183Z"
expect_not_in "$SCRATCH/out" "1795940962224"
# YAML likewise; JSON: the milliseconds, and <name>_iso right after them.
expect_exit 0 "$KEPOCH" segment dump -o yaml "$LOG"
expect_in "$SCRATCH/out" "max_timestamp: 2026-11-29T08:29:22.224Z"
expect_not_in "$SCRATCH/out" "_iso"
expect_exit 0 "$KEPOCH" segment dump -o json "$LOG"
[[ $(json "$SCRATCH/out" "[(b['max_timestamp'], b['max_timestamp_iso'], b['base_timestamp_iso']) for b in d[0]['batches']][0]") == \
  "(1795940962224, '2026-11-29T08:29:22.224Z', '2026-11-29T08:29:22.173Z')" ]] || fail "JSON _iso"
[[ $(json "$SCRATCH/out" "list(d[0]['batches'][0])[-2:]") == "['max_timestamp', 'max_timestamp_iso']" ]] ||
  fail "max_timestamp_iso is not beside max_timestamp"
# Records, index entries and metadata records follow the same rule.
expect_exit 0 "$KEPOCH" segment dump -o jsonl --records "$LOG"
expect_in "$SCRATCH/out" '"timestamp_iso":"2026-11-29T08:29:22.'
expect_exit 0 "$KEPOCH" metadata history -o yaml "$META" --topic lc
expect_in "$SCRATCH/out" "timestamp: 2026-11-29T08:24:22.088Z"

# --local: TZ's zone with its offset, in table, YAML and the JSON _iso alike.
expect_exit 0 env TZ=Asia/Kolkata "$KEPOCH" --local segment dump "$LOG"
expect_in "$SCRATCH/out" "2026-11-29T13:59:22.224+05:30"
expect_exit 0 env TZ=America/New_York "$KEPOCH" segment dump -o json --local "$LOG"
[[ $(json "$SCRATCH/out" "d[0]['batches'][0]['max_timestamp_iso']") == "2026-11-29T03:29:22.224-05:00" ]] ||
  fail "--local in JSON"
[[ $(json "$SCRATCH/out" "d[0]['batches'][0]['max_timestamp']") == 1795940962224 ]] || fail "--local changed the milliseconds"

# NO_TIMESTAMP: a magic-0 message has none: "none" in the table, null in JSON, never 1969.
python3 "$KEPOCH_SOURCE_DIR/tests/cli/legacy_log.py" "$SCRATCH/00000000000000000000.log" >/dev/null
expect_exit 1 "$KEPOCH" segment dump -o wide --records "$SCRATCH/00000000000000000000.log"
expect_in "$SCRATCH/out" "| offset: 0 timestamp: none "
expect_not_in "$SCRATCH/out" "1969"
expect_exit 1 "$KEPOCH" segment dump -o json --records "$SCRATCH/00000000000000000000.log"
[[ $(json "$SCRATCH/out" "[(r['timestamp'], r['timestamp_iso']) for b in d[0]['batches'] for r in b['records']][0]") == "(-1, None)" ]] ||
  fail "NO_TIMESTAMP in JSON"

# --from-time/--until on segment dump: by max_timestamp, from inclusive, until exclusive;
# epoch milliseconds and ISO 8601 (with a zone, without one, log4j's comma) name the same time.
batches() { json "$SCRATCH/out" "[b['base_offset'] for b in d[0]['batches']]"; }
expect_exit 0 "$KEPOCH" segment dump -o json --from-time 1795940962224 "$LOG"
[[ $(batches) == "[0, 5]" ]] || fail "--from-time at the first max_timestamp: $(batches)"
expect_exit 0 "$KEPOCH" segment dump -o json --from-time 1795940962225 "$LOG"
[[ $(batches) == "[5]" ]] || fail "--from-time a millisecond later: $(batches)"
expect_exit 0 "$KEPOCH" segment dump -o json --until 2026-11-29T08:29:30.183Z "$LOG"
[[ $(batches) == "[0]" ]] || fail "--until is exclusive: $(batches)"
expect_exit 0 "$KEPOCH" segment dump -o json --until '2026-11-29 08:29:30,184' "$LOG"
[[ $(batches) == "[0, 5]" ]] || fail "--until a millisecond later: $(batches)"
expect_exit 0 "$KEPOCH" segment dump -o json --from-time 2026-11-29T09:29:23+01:00 "$LOG"
[[ $(batches) == "[5]" ]] || fail "--from-time with an offset: $(batches)"
expect_exit 0 env TZ=Asia/Kolkata "$KEPOCH" --local segment dump -o json --from-time 2026-11-29T13:59:23 "$LOG"
[[ $(batches) == "[5]" ]] || fail "--from-time without a zone under --local: $(batches)"
# A range that selects no batch of a file holding some is never a silent exit 0 (issue 33).
expect_exit 1 "$KEPOCH" segment dump -o json --from-time 2026-11-30 "$LOG"
[[ $(batches) == "[]" ]] || fail "--from-time after every batch: $(batches)"
expect_in "$SCRATCH/out" "nothing selected: no batch of the file"
# Legacy messages without a timestamp are in no range.
expect_exit 1 "$KEPOCH" segment dump -o json --from-time 0 "$SCRATCH/00000000000000000000.log"
[[ $(json "$SCRATCH/out" "[b['max_timestamp'] for b in d[0]['batches'] if b['max_timestamp'] == -1]") == "[]" ]] ||
  fail "a batch without a timestamp passed a time filter"
expect_exit 2 "$KEPOCH" segment dump --from-time yesterday "$LOG"
expect_in "$SCRATCH/err" "--from-time yesterday: not a time"
expect_exit 2 "$KEPOCH" segment dump --from-time 2026-11-30 --until 2026-11-29 "$LOG"
expect_in "$SCRATCH/err" "the range is empty"

# metadata dump: records in [08:24, 08:25) UTC: 134 of 646 (counted from the unfiltered dump).
expect_exit 0 "$KEPOCH" metadata dump -o json "$META"
want=$(json "$SCRATCH/out" "sum(1 for r in d[0]['records'] if '2026-11-29T08:24:00' <= r['timestamp_iso'] < '2026-11-29T08:25:00')")
expect_exit 0 "$KEPOCH" metadata dump -o json --from-time 2026-11-29T08:24Z --until 2026-11-29T08:25Z "$META"
[[ $(json "$SCRATCH/out" "len(d[0]['records'])") == "$want" && $want == 134 ]] || fail "metadata dump range: $want"
[[ $(json "$SCRATCH/out" "all('2026-11-29T08:24' <= r['timestamp_iso'] < '2026-11-29T08:25' for r in d[0]['records'])") == True ]] ||
  fail "metadata dump: a record outside the range"
# metadata history: lc's steps in the same minute (offsets 38 to 135; 159 is at 08:25:04), whole replay kept.
expect_exit 0 "$KEPOCH" metadata history -o json --topic lc --from-time 2026-11-29T08:24Z --until 2026-11-29T08:25Z "$META"
[[ $(json "$SCRATCH/out" "[s['offset'] for s in d['partitions'][0]['steps']]") == "[38, 66, 99, 135]" ]] ||
  fail "metadata history range: $(json "$SCRATCH/out" "[s['offset'] for s in d['partitions'][0]['steps']]")"
[[ $(json "$SCRATCH/out" "d['partitions'][0]['last_led_epoch']") == 4 ]] || fail "the range changed the replay"

# "N more": a table cut at --limit rows says how many it left out; --limit 0 and JSON keep all.
expect_exit 0 "$KEPOCH" metadata dump --limit 10 "$META"
expect_in "$SCRATCH/out" "636 more (use -o json or --limit)"
(($(grep -cE '^  [0-9]+ +2026-' "$SCRATCH/out") == 10)) || fail "--limit 10 showed $(grep -cE '^  [0-9]+ +2026-' "$SCRATCH/out") rows"
expect_exit 0 "$KEPOCH" metadata dump --limit 0 "$META"
expect_not_in "$SCRATCH/out" "more (use -o json"
(($(grep -cE '^  [0-9]+ +2026-' "$SCRATCH/out") == 646)) || fail "--limit 0 did not show every row"
expect_exit 0 "$KEPOCH" metadata dump "$META"  # not a terminal: every row
expect_not_in "$SCRATCH/out" "more (use -o json"
expect_exit 0 "$KEPOCH" metadata dump -o json --limit 10 "$META"
[[ $(json "$SCRATCH/out" "len(d[0]['records'])") == 646 ]] || fail "JSON was cut"
# The whole-value table too (history's steps), and the exit code does not depend on the limit.
expect_exit 0 "$KEPOCH" metadata history --limit 3 --topic lc "$META"
expect_in "$SCRATCH/out" "8 more (use -o json or --limit)"
expect_exit 1 "$KEPOCH" segment dump --records --limit 1 "$SCRATCH/00000000000000000000.log"
expect_in "$SCRATCH/err" "batch at offset 9"
# A terminal gets 50 rows by default (script(1) gives kepoch a pseudo-terminal).
if command -v script >/dev/null; then
  script -qec "$KEPOCH --no-color metadata dump $META" /dev/null >"$SCRATCH/tty" </dev/null || true
  expect_in "$SCRATCH/tty" "596 more (use -o json or --limit)"
fi
echo ok
