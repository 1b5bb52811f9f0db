// The verdict sentences: they say what the report's fields say, and never sound safe when a
// field leaves the verdict open.
#include <catch2/catch.hpp>

#include "kepoch/metadata/partition_history.hpp"
#include "kepoch/report/summary.hpp"
#include "kepoch/storage/segment_dump.hpp"

using namespace kepoch::report;

namespace {

Value follower(Value committed_loss, Value removed, Value lost, Value committed,
               std::int64_t unknown, Value outcome = "follows", std::int64_t truncate_to = 5,
               Value kept = Value()) {
  return Value::object()
      .set("dir", "/data/broker-1/d-0")
      .set("log_end_offset", 8)
      .set("truncate_to", truncate_to)
      .set("truncated_fully", false)
      .set("removed_records", std::move(removed))
      .set("lost_records", std::move(lost))
      .set("committed_lost_records", std::move(committed))
      .set("committed_loss", std::move(committed_loss))
      .set("lost_unknown_records", unknown)
      .set("outcome", std::move(outcome))
      .set("kept_divergent_range", std::move(kept));
}

Value section(Value replica) {
  return Value::object()
      .set("topic", "d")
      .set("partition", 0)
      .set("leader", Value::object().set("dir", "/data/broker-2/d-0"))
      .set("replicas", Value::array().push(std::move(replica)));
}

}  // namespace

TEST_CASE("predict: a truncation that loses uncommitted records", "[report][summary]") {
  const std::string s = predict_summary(section(follower(false, 3, 3, 0, 0)));
  CHECK(s ==
        "No committed record is lost. broker-1/d-0 truncates to 5: loses 3 records, none "
        "committed.");
}

TEST_CASE("predict: committed records lost, and a loss that cannot be ruled out",
          "[report][summary]") {
  CHECK(predict_summary(section(follower(true, 3, 3, 2, 0)))
            .starts_with("Committed records would be lost. broker-1/d-0 truncates to 5: loses 3 "
                         "records, 2 of them committed"));
  const std::string unknown = predict_summary(section(follower(Value(), 3, 1, 0, 2)));
  CHECK(unknown.starts_with("A committed loss cannot be ruled out."));
  CHECK(unknown.find("none committed") == std::string::npos);
  CHECK(unknown.find("No committed") == std::string::npos);
  const std::string no_count =
      predict_summary(section(follower(Value(), Value(), Value(), Value(), 0)));
  CHECK(no_count.starts_with("A committed loss cannot be ruled out."));
  CHECK(no_count.find("unknown") != std::string::npos);
}

TEST_CASE("with_summary: first member, inside an existing summary object as text",
          "[report][summary]") {
  const Value v = with_summary(Value::object().set("a", 1), "It is fine.");
  REQUIRE(v.as_object().front().first == "summary");
  CHECK(scalar_text(*summary_text(v)) == "It is fine.");
  const Value counts =
      with_summary(Value::object().set("a", 1).set("summary", Value::object().set("n", 2)), "S.");
  REQUIRE(counts.find("summary")->is_object());
  CHECK(counts.find("summary")->as_object().front().first == "text");
  CHECK(scalar_text(*counts.find("summary")->find("n")) == "2");
  CHECK(scalar_text(*summary_text(counts)) == "S.");
}

TEST_CASE("diff: a strict prefix lags, it does not diverge", "[report][summary]") {
  Value c = Value::object()
                .set("dir", "/x/broker-3/d-0")
                .set("against", "/x/broker-2/d-0")
                .set("identical", false)
                .set("fork_offset_by_epochs", Value())
                .set("fork_offset_by_batches", Value())
                .set("differing_batches", Value::array())
                .set("only_here", Value())
                .set("only_there", Value::object().set("first", 9).set("last", 12))
                .set("unanswered", Value::array());
  const Value d = Value::object()
                      .set("topic", "d")
                      .set("partition", 0)
                      .set("replicas", Value::array())
                      .set("comparisons", Value::array().push(c));
  CHECK(diff_summary(d) ==
        "The replicas of d-0 differ only in length. broker-3/d-0 lags broker-2/d-0: it lacks "
        "offsets 9..12, no divergence.");
}

TEST_CASE("cluster predict: unanswered partitions and warnings are never safe",
          "[report][summary]") {
  auto report = [](std::int64_t loss, std::int64_t unknown, std::int64_t unanswered, bool warning) {
    Value at_risk = Value::array();
    if (loss + unknown > 0) at_risk.push("orders-0");
    Value problems = Value::array();
    if (warning) problems.push(Value::object().set("severity", "warning").set("message", "m"));
    return Value::object()
        .set("broker", 3)
        .set("summary", Value::object()
                            .set("partitions", 4)
                            .set("follows", 3)
                            .set("truncates", 1)
                            .set("lost_records", 2)
                            .set("committed_lost_records", loss ? 2 : 0)
                            .set("committed_loss_partitions", loss)
                            .set("committed_loss_unknown_partitions", unknown)
                            .set("leads", 1)
                            .set("leaderless", 0)
                            .set("stray", 0)
                            .set("unanswered", unanswered)
                            .set("at_risk", at_risk)
                            .set("fails", 0)
                            .set("committed_loss_possible", loss + unknown + unanswered > 0))
        .set("problems", problems);
  };
  CHECK(restart_summary(report(0, 0, 0, false))
            .starts_with("Broker 3's restart loses no committed record."));
  CHECK(restart_summary(report(1, 0, 0, false))
            .starts_with("Broker 3's restart loses committed records in 1 partition (orders-0)."));
  CHECK(restart_summary(report(0, 1, 0, false))
            .starts_with("A committed loss on broker 3's restart cannot be ruled out"));
  CHECK(restart_summary(report(0, 0, 2, false))
            .starts_with("A committed loss on broker 3's restart cannot be ruled out: 2 partitions "
                         "not answered"));
  const std::string warned = restart_summary(report(0, 0, 0, true));
  CHECK(warned.find("not proven safe") != std::string::npos);
}

TEST_CASE("cluster what-if: harm first, assumed defaults are not proven safe",
          "[report][summary]") {
  auto report = [](std::int64_t unavailable, std::int64_t under, bool warning,
                   std::int64_t maybe_under = 0) {
    Value problems = Value::array();
    if (warning) problems.push(Value::object().set("severity", "warning").set("message", "m"));
    return Value::object()
        .set("stop", Value::array().push(2))
        .set("shutdown", "controlled")
        .set("summary", Value::object()
                            .set("partitions", 6)
                            .set("leaders_moved", 2)
                            .set("under_min_isr", under)
                            .set("under_min_isr_unknown", maybe_under)
                            .set("unavailable", unavailable)
                            .set("unclean_election", 0)
                            .set("needs_unclean_election", 0))
        .set("problems", problems);
  };
  CHECK(what_if_summary(report(0, 0, false)) ==
        "Stopping broker 2 (controlled) keeps all 6 partitions available, none under "
        "min.insync.replicas; 2 leaders move.");
  CHECK(what_if_summary(report(1, 2, false))
            .starts_with("Stopping broker 2 (controlled) takes 1 partition offline, leaves 2 "
                         "partitions under min.insync.replicas"));
  CHECK(what_if_summary(report(0, 0, true)).find("not proven safe") != std::string::npos);
  CHECK(what_if_summary(report(0, 0, true, 3))
            .starts_with("Stopping broker 2 (controlled) may leave 3 partitions under "
                         "min.insync.replicas (not "
                         "read: not ruled out)"));
  const Value with = with_summary(report(0, 0, false), what_if_summary(report(0, 0, false)));
  CHECK(with.find("summary")->as_object().front().first == "text");
}

// What decides predict's exit code (ReplicaForecast::fails_possible: the follower fails after
// truncating, or that cannot be told) decides its sentence: never "No committed record is
// lost" with exit 1 (issue 32 item 5).
TEST_CASE("predict: a follower that fails, or may, is never a safe sentence", "[report][summary]") {
  const Value fails = follower(false, 3, 3, 0, 0, "fails");
  const std::string s = predict_summary(section(fails));
  CHECK(s.starts_with("A follower fails after its truncation. broker-1/d-0 truncates to 5"));
  CHECK(s.find("UnexpectedAppendOffsetException") != std::string::npos);
  CHECK(s.find("No committed record") == std::string::npos);
  const Value unknown = follower(false, 3, 3, 0, 0, Value());
  const std::string u = predict_summary(section(unknown));
  CHECK(u.starts_with("A committed loss cannot be ruled out."));
  CHECK(u.find("whether it can follow the leader afterwards is unknown") != std::string::npos);
  // Paired: the partition counted where it fails, not among the safe ones.
  const Value paired = Value::object().set("partitions", Value::array().push(section(fails)));
  CHECK(paired_predict_summary(paired).find("A follower fails in 1 of 1 (d-0)") !=
        std::string::npos);
}

TEST_CASE("predict --elect without a leader: the election's fields, said once",
          "[report][summary]") {
  const Value none = Value::object().set("election", Value::object()
                                                         .set("isr", Value::array().push(1).push(3))
                                                         .set("elr", Value::array())
                                                         .set("alive", Value::array().push(2)));
  CHECK(predict_summary(none) ==
        "No replica can lead: no member of the ISR [1,3] is alive "
        "(alive: [2]).");
}

TEST_CASE("predict: batches kept that differ from the leader's, from the typed range",
          "[report][summary]") {
  const Value kept =
      follower(Value(), 0, 0, 0, 0, "follows", 8, Value::object().set("first", 5).set("last", 7));
  const std::string s = predict_summary(section(kept));
  CHECK(
      s.starts_with("A committed loss cannot be ruled out. broker-1/d-0 truncates nothing but "
                    "keeps batches that differ from the leader's (offsets 5..7)"));
}

TEST_CASE("cluster predict: a failing follower is in the verdict and in the counts",
          "[report][summary]") {
  const Value r = Value::object()
                      .set("broker", 3)
                      .set("summary", Value::object()
                                          .set("partitions", 1)
                                          .set("follows", 0)
                                          .set("fails", 1)
                                          .set("truncates", 1)
                                          .set("lost_records", 0)
                                          .set("committed_lost_records", 0)
                                          .set("committed_loss_partitions", 0)
                                          .set("leads", 0)
                                          .set("leaderless", 0)
                                          .set("stray", 0)
                                          .set("unanswered", 0)
                                          .set("at_risk", Value::array().push("d-0"))
                                          .set("committed_loss_possible", true))
                      .set("problems", Value::array());
  const std::string s = restart_summary(r);
  CHECK(s.starts_with("On broker 3's restart a follower fails in 1 partition (d-0)"));
  CHECK(s.find("Of 1 partition: 0 follow a leader, 1 fail, 0 lead") != std::string::npos);
}

TEST_CASE("logdir scan: an error of the log dir itself is never \"No error found\"",
          "[report][summary]") {
  const Value scan = Value::object().set(
      "log_dirs",
      Value::array().push(
          Value::object()
              .set("dir", "/data/l")
              .set("partitions", 2)
              .set("with_errors", 0)
              .set("with_warnings", 0)
              .set("checkpoints_valid", true)
              .set("has_errors", true)
              .set("problems", Value::array().push(
                                   Value::object().set("severity", "error").set("message", "m")))));
  const std::string s = scan_summary(scan, 0);
  CHECK(s ==
        "Errors found. data/l: 2 partitions, none with a problem, 1 error in the log dir itself "
        "(see problems).");
}

// ---- segment dump and metadata history (issue 38) -------------------------------------------

namespace {

kepoch::DumpedBatch batch(std::int64_t base, std::int32_t count, std::int32_t epoch,
                          std::int64_t time) {
  kepoch::DumpedBatch b;
  b.header.magic = 2;
  b.header.base_offset = base;
  b.header.last_offset_delta = count - 1;
  b.header.records_count = count;
  b.header.partition_leader_epoch = epoch;
  b.header.base_timestamp = time;
  b.header.max_timestamp = time + 10;
  b.crc_valid = true;
  return b;
}

}  // namespace

TEST_CASE("segment dump: what the segment holds, and no damage only when none was found",
          "[report][summary]") {
  SegmentFacts f;
  f.add(batch(0, 5, 0, 1764404962173));
  f.add(batch(5, 3, 2, 1764404970173));
  CHECK_FALSE(f.findings());
  CHECK(segment_summary("d-0/00000000000000000000.log", f) ==
        "d-0/00000000000000000000.log holds 2 batches (8 records), offsets 0..7, leader epochs "
        "0..2, written 2025-11-29T08:29:22.173Z to 2025-11-29T08:29:30.183Z; no damage found.");
  // A batch that fails ensureValid: exit 1, and the sentence opens with it.
  kepoch::DumpedBatch bad = batch(8, 1, 2, 1764404971000);
  bad.invalid = "Record is corrupt (stored crc = 1, computed crc = 2)";
  f.add(bad);
  CHECK(f.findings());
  CHECK(segment_summary("s.log", f)
            .starts_with("s.log is damaged: 1 batch fails Kafka's ensureValid (the first at offset "
                         "8). It holds 3 "
                         "batches (9 records)"));
  // A torn tail is a warning (exit 0): said, never as damage.
  SegmentFacts torn;
  torn.add(batch(0, 1, 0, 1764404962173));
  torn.end.reason = kepoch::LogEndReason::partial_batch;
  torn.end.position = 80;
  torn.end.trailing_bytes = 20;
  CHECK_FALSE(torn.findings());
  const std::string t = segment_summary("s.log", torn);
  CHECK(t.find("no damage found. It ends in a partial batch at byte 80 (20 bytes)") !=
        std::string::npos);
  // A corrupt size and a filter that selects nothing decide exit 1.
  SegmentFacts none;
  none.filtered = true;
  none.nothing_selected = true;
  CHECK(none.findings());
  CHECK(segment_summary("s.log", none).starts_with("Nothing selected: no batch of s.log"));
  SegmentFacts corrupt;
  corrupt.end.reason = kepoch::LogEndReason::corrupt_size;
  corrupt.end.position = 12;
  CHECK(corrupt.findings());
  CHECK(segment_summary("s.log", corrupt).starts_with("s.log is damaged: a corrupt batch size"));
}

TEST_CASE("segment dump: records decoded after the opening are never called whole by it",
          "[report][summary]") {
  // The opening's facts come from the headers and checksums; the records are decoded while
  // printed. The opening never says "no damage found" then, and the closing sentence says
  // what the decode found.
  SegmentFacts opening;
  opening.records_later = true;
  opening.add(batch(0, 5, 0, 1764404962173));
  CHECK_FALSE(opening.findings());
  const std::string s = segment_summary("s.log", opening);
  CHECK(s ==
        "s.log holds 1 batch (5 records), offsets 0..4, leader epoch 0, written "
        "2025-11-29T08:29:22.173Z to 2025-11-29T08:29:22.183Z; its batch headers and checksums "
        "are sound, and the closing sentence says whether every record decodes.");
  CHECK(s.find("no damage") == std::string::npos);
  SegmentFacts printed;
  printed.add(batch(0, 5, 0, 1764404962173));
  CHECK(segment_records_summary(printed) == "Every record read decodes.");
  kepoch::DumpedBatch undecodable = batch(5, 3, 0, 1764404963000);
  undecodable.records_error = "at byte 120: a varint runs past the records section";
  printed.add(undecodable);
  CHECK(printed.findings());
  CHECK(segment_records_summary(printed) ==
        "1 record does not decode (the first in the batch at offset 5).");
  // Damage in the headers is said first as before, whatever the records hold.
  kepoch::DumpedBatch bad = batch(8, 1, 0, 1764404971000);
  bad.invalid = "Record is corrupt (stored crc = 1, computed crc = 2)";
  opening.add(bad);
  CHECK(segment_summary("s.log", opening).starts_with("s.log is damaged: 1 batch fails"));
}

TEST_CASE("metadata history: leader changes counted per partition, unclean elections placed",
          "[report][summary]") {
  kepoch::PartitionTimeline d0;
  d0.topic = "d";
  d0.partition = 0;
  kepoch::PartitionTimeline e1 = d0;
  e1.topic = "e";
  e1.partition = 1;
  const auto step = [](std::int64_t offset, std::int32_t leader, std::vector<std::string> causes) {
    kepoch::PartitionStep s;
    s.at.offset = offset;
    s.state.leader = leader;
    s.causes = std::move(causes);
    return s;
  };
  HistoryTally tally;
  tally.step(d0, step(10, 1, {"created"}), true);
  tally.step(e1, step(11, 2, {"created"}), true);
  tally.step(d0, step(20, 2, {"leader_change", "isr_shrink"}), true);
  tally.step(d0, step(30, -1, {"leader_lost"}), true);
  tally.step(d0, step(40, 1, {"unclean_election"}), true);
  tally.step(e1, step(41, 2, {"leader_epoch_bump"}), true);  // the same leader: no change
  CHECK(tally.sentence(2, {}) ==
        "2 partitions: 1 changed leader (2 elections; d-0 2 times); 1 unclean election: d-0 at "
        "metadata offset 40 (broker 1 elected).");
  // Problems decide exit 1: the sentence opens with them.
  CHECK(tally.sentence(2, {"record at offset 7: bad"})
            .starts_with("The replay found 1 problem, the first: record at offset 7: bad. 2 "
                         "partitions"));
  HistoryTally quiet;
  quiet.step(e1, step(11, -1, {"created"}), true);
  CHECK(quiet.sentence(1, {}) ==
        "1 partition: none changed leader, 1 without a leader at the end; no unclean election.");
  // Steps outside the time range are not counted.
  HistoryTally ranged;
  ranged.step(d0, step(10, 1, {"created"}), false);
  ranged.step(d0, step(20, 2, {"leader_change"}), false);
  CHECK(ranged.sentence(0, {}) == "No partition to show; no unclean election.");
}
