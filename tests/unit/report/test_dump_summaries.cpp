// The opening sentences of the dumps and inspections (issue 38): an index or producer
// snapshot, a metadata log dump, a partition inspection and a simulation. Each says what its
// exit code says (damaged or not, a finding or not) and what the file or run holds.
#include <catch2/catch.hpp>

#include <cstdint>
#include <vector>

#include "kepoch/report/index_report.hpp"
#include "kepoch/report/simulate_report.hpp"
#include "kepoch/report/summary.hpp"

using namespace kepoch::report;

namespace {

void put32(std::vector<std::uint8_t>& b, std::uint32_t v) {
  for (int s = 24; s >= 0; s -= 8)
    b.push_back(static_cast<std::uint8_t>(v >> s));
}

kepoch::IndexFileDump offset_index(const std::vector<std::uint8_t>& bytes, std::int64_t base) {
  kepoch::IndexFileDump d;
  d.target.kind = kepoch::SegmentFileKind::index;
  d.target.base_offset = base;
  d.content = kepoch::parse_offset_index(bytes, base);
  return d;
}

}  // namespace

TEST_CASE("segment dump of an offset index: sound or damaged, as the exit code says",
          "[report][summary]") {
  // Two entries in OffsetIndex.append's order, then preallocated zeros (an active segment).
  std::vector<std::uint8_t> b;
  put32(b, 3), put32(b, 100), put32(b, 7), put32(b, 250);
  b.resize(b.size() + 16, 0);
  const auto sound = offset_index(b, 10);
  CHECK_FALSE(has_error_problem(index_trailer("10.index", sound)));
  CHECK(index_summary("10.index", sound) ==
        "10.index is sound: 2 entries (offsets 13..17) and 2 zero entries of preallocated space "
        "(untrimmed: the active segment, or a broker that did not shut down cleanly); offsets "
        "increase within the segment and OffsetIndex.sanityCheck passes.");
  CHECK(index_fields("10.index", sound).as_object().front().first == "summary");
  // An offset that goes back (OffsetIndex.append refuses it): damaged, exit 1, and what Kafka
  // does with it (LogSegment.sanityCheck skips the offset index).
  std::vector<std::uint8_t> bad;
  put32(bad, 7), put32(bad, 100), put32(bad, 3), put32(bad, 250);
  const auto damaged = offset_index(bad, 10);
  CHECK(has_error_problem(index_trailer("10.index", damaged)));
  const std::string s = index_summary("10.index", damaged);
  CHECK(s.starts_with("10.index is damaged: entry 1: offset 13 is not greater"));
  CHECK(s.find("It holds 2 entries, the first 1 in append order (offset 17).") !=
        std::string::npos);
  CHECK(
      s.ends_with("Kafka's loader does not check it: only recovering the segment rebuilds "
                  "the index."));
}

TEST_CASE("segment dump of a producer snapshot: producers, open transactions, its offset",
          "[report][summary]") {
  kepoch::IndexFileDump d;
  d.target.kind = kepoch::SegmentFileKind::snapshot;
  d.target.base_offset = 9;
  kepoch::ProducerSnapshot s;
  s.version = 1;
  s.entries.resize(2);
  s.entries[0].producer_id = 1010;
  s.entries[0].current_txn_first_offset = -1;
  s.entries[1].producer_id = 3004;
  s.entries[1].current_txn_first_offset = 7;
  d.content = s;
  CHECK(index_summary("9.snapshot", d) ==
        "9.snapshot is intact (its CRC matches): 2 producers as of offset 9, 1 in an open "
        "transaction (producer 3004 from offset 7); Kafka loads it.");
  // What readSnapshot throws: damaged, and Kafka deletes it.
  s.failure = kepoch::IndexCheckFailure{std::string(kepoch::kCorruptSnapshotException), "crc", 2};
  s.findings.push_back({kepoch::IndexFinding::Severity::error, 2, "the CRC does not match"});
  d.content = s;
  CHECK(index_summary("9.snapshot", d) ==
        "9.snapshot is damaged: the CRC does not match. Kafka cannot read this snapshot of "
        "offset 9: the broker deletes it and loads an older one.");
}

TEST_CASE("metadata dump: what the log holds, its problems first", "[report][summary]") {
  MetadataDumpFacts f;
  f.read = 3;
  f.add(0, 1795940635816, 1, true);
  f.add(1, 1795940636841, 1, true);
  f.add(2, 1795940636841, 2, true);
  CHECK(metadata_dump_summary("meta", f, {}) ==
        "meta holds 3 records, offsets 0..2, written 2026-11-29T08:23:55.816Z to "
        "2026-11-29T08:23:56.841Z, last Raft epoch 2; every record decodes.");
  CHECK(metadata_dump_summary("meta", f, {"record at offset 2: bad"})
            .starts_with("meta has a problem: record at offset 2: bad. It holds 3 records"));
  MetadataDumpFacts none;
  none.read = 646;
  none.filtered = true;
  CHECK(metadata_dump_summary("meta", none, {"nothing selected"}) ==
        "Nothing selected: no record of meta falls in the --from-time/--until range (646 "
        "records read).");
}

TEST_CASE("partition inspect: the replica's state, a controller finding first",
          "[report][summary]") {
  const Value epochs = Value::array().push(Value::object().set("epoch", 2).set("start_offset", 5));
  Value v = Value::object()
                .set("dir", "/data/broker-2/d-0")
                .set("log_start_offset", 0)
                .set("log_end_offset", 9)
                .set("high_watermark", 5)
                .set("clean_shutdown", true)
                .set("segments", Value::array().push(Value::object()))
                .set("loaded_epoch_cache", epochs)
                .set("checkpoint_vs_rebuilt", Value::object().set("equal", true))
                .set("notes", Value::array());
  CHECK(inspect_summary(v) ==
        "broker-2/d-0 holds offsets 0..8 in 1 segment, high watermark 5, latest leader epoch 2 "
        "from offset 5; its leader-epoch-checkpoint agrees with the batches.");
  v.set("controller",
        Value::object()
            .set("leader", 1)
            .set("leader_epoch", 3)
            .set("issued", Value::array())
            .set("findings", Value::array().push(Value::object().set(
                                 "message", "epoch 2 was never issued with a leader"))));
  CHECK(inspect_summary(v).starts_with(
      "broker-2/d-0's epoch cache disagrees with the controller's log: epoch 2 was never issued "
      "with a leader. broker-2/d-0 holds"));
  CHECK(inspect_summary(v).ends_with("; the controller's log: leader 1 at epoch 3."));
}

TEST_CASE("simulate: the expectations' outcome, else the first rule's loss, agree with the exit",
          "[report][summary]") {
  SimulationOutcome epoch, hw;
  epoch.run.rule = kepoch::sim::Rule::epoch;
  hw.run.rule = kepoch::sim::Rule::hw;
  kepoch::sim::Produced m1, m2;
  m1.value = "m1", m1.offset = 0;
  m2.value = "m2", m2.offset = 1;
  epoch.run.verdict.acknowledged = {m1, m2};
  hw.run.verdict.acknowledged = {m1, m2};
  hw.run.verdict.lost_acknowledged = {m2};
  // No expectation: the first rule run decides; the epoch rule keeps both records.
  CHECK_FALSE(simulation_findings({epoch, hw}));
  CHECK(simulate_summary({epoch, hw}) ==
        "No acknowledged record is lost under the leader-epoch rule. Under the leader-epoch "
        "rule all 2 acknowledged records are kept; under the pre-0.11 high-watermark rule m2 "
        "(offset 1) is lost.");
  // --rule hw alone: the loss is the finding, and the sentence opens with it.
  CHECK(simulation_findings({hw}));
  CHECK(simulate_summary({hw}).starts_with(
      "Acknowledged records are lost under the pre-0.11 high-watermark rule."));
  // An expectation that fails leads, whatever the records.
  epoch.expectation_given = true;
  epoch.expectation_failures = {"lost_acknowledged: expected [m1], found []"};
  CHECK(simulation_findings({epoch, hw}));
  CHECK(simulate_summary({epoch, hw})
            .starts_with(
                "The scenario's expectation fails under the leader-epoch rule: lost_acknowledged: "
                "expected [m1], found []."));
}
