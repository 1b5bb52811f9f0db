// Pins the compact form `metadata history` holds steps and broker events in: read back, it
// gives the very steps and events appended, on every partition's history of the
// Kafka-written metadata logs (run A's log from its start; the snapshot fixture from its
// snapshot, whose steps and events are "as_of_snapshot"), and on steps outside the
// replay's vocabulary (a cause or record type it never tells, causes out of its order,
// directories, values that shrink or jump). A typical change is held in ~15 bytes, not the
// ~600 of a PartitionStep.
#include <catch2/catch.hpp>
#include "support/source_dir.hpp"

#include <limits>
#include <string>
#include <vector>

#include "kepoch/metadata/compact_history.hpp"
#include "kepoch/metadata/partition_history.hpp"
#include "kepoch/storage/metadata_replay.hpp"

namespace {

using namespace kepoch;

bool same(const MetadataPosition& a, const MetadataPosition& b) {
  return a.offset == b.offset && a.timestamp == b.timestamp && a.snapshot == b.snapshot;
}

bool same(const PartitionStep& a, const PartitionStep& b) {
  const auto& x = a.state;
  const auto& y = b.state;
  return same(a.at, b.at) && a.record_type == b.record_type && a.causes == b.causes &&
         x.replicas == y.replicas && x.isr == y.isr && x.removing_replicas == y.removing_replicas &&
         x.adding_replicas == y.adding_replicas &&
         x.eligible_leader_replicas == y.eligible_leader_replicas &&
         x.last_known_elr == y.last_known_elr && x.directories == y.directories &&
         x.leader == y.leader && x.leader_recovery_state == y.leader_recovery_state &&
         x.leader_epoch == y.leader_epoch && x.partition_epoch == y.partition_epoch;
}

bool same(const BrokerEvent& a, const BrokerEvent& b) {
  return same(a.at, b.at) && a.broker_id == b.broker_id && a.broker_epoch == b.broker_epoch &&
         a.event == b.event && a.fenced == b.fenced;
}

std::vector<PartitionStep> round_trip(const std::vector<PartitionStep>& steps) {
  CompactSteps held;
  for (const auto& s : steps)
    held.append(s);
  // A list counted but not kept knows what holding it costs.
  CompactSteps counted;
  counted.discard();
  for (const auto& s : steps)
    counted.append(s);
  CHECK(counted.capacity() == held.capacity());
  CHECK(counted.bytes() == held.bytes());
  CHECK(held.capacity() >= held.bytes());
  std::vector<PartitionStep> out;
  PartitionStep s;
  for (CompactSteps::Reader r(held); r.next(s);)
    out.push_back(s);
  return out;
}

std::vector<BrokerEvent> round_trip(const std::vector<BrokerEvent>& events) {
  CompactBrokerEvents held;
  for (const auto& e : events)
    held.append(e);
  std::vector<BrokerEvent> out;
  BrokerEvent e;
  for (CompactBrokerEvents::Reader r(held); r.next(e);)
    out.push_back(e);
  return out;
}

PartitionHistory replay(const std::string& fixture) {
  PartitionHistory history;
  const auto plan = plan_metadata_replay(std::string(KEPOCH_SOURCE_DIR) + "/tests/data/" + fixture);
  replay_metadata(plan, [&](const MetadataLogEntry& e) {
    if (!e.record) return;
    history.apply(
        *e.record,
        e.snapshot ? MetadataPosition{-1, e.snapshot->last_contained_log_timestamp, e.snapshot->id}
                   : MetadataPosition{e.offset, e.timestamp, std::nullopt});
  });
  return history;
}

}  // namespace

TEST_CASE("every fixture's steps and broker events read back as appended",
          "[metadata][CompactHistory]") {
  for (const char* fixture : {"metadata", "metadata-snapshot"}) {
    INFO(fixture);
    const PartitionHistory history = replay(fixture);
    std::size_t changes = 0, change_bytes = 0;  // the steps after each list's first
    for (const auto* t : history.timelines()) {
      const auto back = round_trip(t->steps);
      REQUIRE(back.size() == t->steps.size());
      for (std::size_t i = 0; i < back.size(); ++i) {
        INFO(t->topic << "-" << t->partition << " step " << i);
        CHECK(same(back[i], t->steps[i]));
      }
      CompactSteps held;
      for (const auto& s : t->steps) {
        const std::size_t before = held.bytes();
        held.append(s);
        if (&s != &t->steps.front()) change_bytes += held.bytes() - before;
      }
      changes += t->steps.size() - 1;
    }
    // The point of the form: a change in a few bytes, not hundreds (the first step of each
    // list restates the whole registration, its directories' Uuids 16 bytes each).
    if (std::string(fixture) == "metadata") {
      CHECK(changes >= 28);
      CHECK(change_bytes < changes * 16);
    }
    const auto& events = history.broker_events();
    REQUIRE(!events.empty());
    const auto back = round_trip(events);
    REQUIRE(back.size() == events.size());
    for (std::size_t i = 0; i < back.size(); ++i)
      CHECK(same(back[i], events[i]));
  }
}

TEST_CASE("steps outside the replay's vocabulary read back as appended",
          "[metadata][CompactHistory]") {
  const SnapshotId id{std::numeric_limits<std::int64_t>::max(), 7};
  std::vector<PartitionStep> steps(5);
  steps[0].at = {-1, 1700000000000, id};
  steps[0].record_type = "PARTITION_RECORD";
  steps[0].causes = {"as_of_snapshot"};
  steps[0].state.replicas = {1, 2, 3};
  steps[0].state.isr = {3, 1};
  steps[0].state.directories = {parse_uuid("jHCv2dyMRo6LTdOknqosGQ").uuid, Uuid{}};
  steps[0].state.leader = 3;
  steps[0].state.leader_epoch = std::numeric_limits<std::int32_t>::max();
  steps[0].state.partition_epoch = 0;
  steps[1] = steps[0];
  steps[1].at = {std::numeric_limits<std::int64_t>::max(), -1, std::nullopt};
  steps[1].record_type = "PARTITION_CHANGE_RECORD";
  steps[1].causes = {"isr_shrink", "leader_change"};  // not in the replay's order: as text
  steps[1].state.leader = -1;
  steps[1].state.leader_epoch = std::numeric_limits<std::int32_t>::min();
  steps[1].state.leader_recovery_state = 1;
  steps[1].state.adding_replicas = {4};
  steps[1].state.removing_replicas = {1};
  steps[1].state.eligible_leader_replicas = {2};
  steps[1].state.last_known_elr = {-5};
  steps[1].state.directories = {};
  steps[2] = steps[1];
  steps[2].at = {0, std::numeric_limits<std::int64_t>::min(), std::nullopt};
  steps[2].record_type = "SOME_FUTURE_RECORD";
  steps[2].causes = {"a_cause_kepoch_never_tells"};
  steps[3] = steps[2];
  steps[3].record_type = "REMOVE_TOPIC_RECORD";
  steps[3].causes = {};
  steps[4] = steps[3];
  steps[4].record_type = "PARTITION_CHANGE_RECORD";
  steps[4].causes = {"leader_change", "recovered", "isr_expand", "elr_change", "reassignment"};
  steps[4].state = {};
  const auto back = round_trip(steps);
  REQUIRE(back.size() == steps.size());
  for (std::size_t i = 0; i < steps.size(); ++i) {
    INFO("step " << i);
    CHECK(same(back[i], steps[i]));
  }

  std::vector<BrokerEvent> events(3);
  events[0] = {{-1, 5, id}, 1, 16, "as_of_snapshot", true};
  events[1] = {
      {9, 4, std::nullopt}, -7, std::numeric_limits<std::int64_t>::min(), "fenced", std::nullopt};
  events[2] = {
      {3, std::numeric_limits<std::int64_t>::max(), std::nullopt}, 2, 1, "something_new", false};
  const auto back_events = round_trip(events);
  REQUIRE(back_events.size() == events.size());
  for (std::size_t i = 0; i < events.size(); ++i)
    CHECK(same(back_events[i], events[i]));
}

TEST_CASE("a discarded list counts what it is appended, holding nothing",
          "[metadata][CompactHistory]") {
  const PartitionHistory history = replay("metadata");
  const auto& steps = history.timelines().front()->steps;
  CompactSteps kept, counted;
  counted.discard();
  for (const auto& s : steps) {
    kept.append(s);
    counted.append(s);
  }
  CHECK(counted.bytes() == kept.bytes());
  CHECK(counted.capacity() == kept.capacity());
  CHECK(counted.discarded());
  PartitionStep s;
  CHECK(!CompactSteps::Reader(counted).next(s));
}

TEST_CASE("a long list is held in blocks of up to 64 KiB, a step whole in one",
          "[metadata][CompactHistory]") {
  // 100,000 steps of ~10 bytes: blocks of 256, 512, ... 64 KiB, then 64 KiB each; every
  // step read back across the block boundaries.
  PartitionStep step;
  step.record_type = "PARTITION_CHANGE_RECORD";
  step.state.replicas = {1, 2, 3};
  CompactSteps held;
  std::vector<PartitionStep> steps;
  for (int i = 0; i < 100000; ++i) {
    step.at = {1000 + i * 3, 1700000000000 + i, std::nullopt};
    step.state.leader = 1 + i % 3;
    step.state.leader_epoch = i;
    step.state.partition_epoch = i;
    step.state.isr = i % 2 ? BrokerIds{1, 2, 3} : BrokerIds{step.state.leader};
    step.causes = {"leader_change", i % 2 ? "isr_expand" : "isr_shrink"};
    held.append(step);
    steps.push_back(step);
  }
  CHECK(held.capacity() < held.bytes() + (std::size_t{64} << 10));
  CHECK(held.bytes() < steps.size() * 16);
  std::size_t i = 0;
  PartitionStep s;
  for (CompactSteps::Reader r(held); r.next(s); ++i) {
    REQUIRE(i < steps.size());
    REQUIRE(same(s, steps[i]));
  }
  CHECK(i == steps.size());
}
