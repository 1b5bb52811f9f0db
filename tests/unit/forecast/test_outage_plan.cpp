// `plan`'s one library call (forecast/outage_plan.hpp) on the divergence fixture Kafka 4.1.1
// wrote (tests/data/divergence/before: d-0 on brokers 1-3; broker 1 was the ISR's only
// member when it stopped).

#include "kepoch/forecast/outage_plan.hpp"

#include <unistd.h>

#include <algorithm>

#include <catch2/catch.hpp>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include "kepoch/base/error.hpp"
#include "kepoch/base/text.hpp"
#include "kepoch/forecast/one_cluster.hpp"
#include "kepoch/report/plan_json_stream.hpp"
#include "kepoch/report/recovery_plan_report.hpp"
#include "kepoch/report/render.hpp"
#include "kepoch/storage/logdir_snapshot.hpp"
#include "support/source_dir.hpp"

using namespace kepoch;
using namespace kepoch::forecast;
namespace fs = std::filesystem;

namespace {

std::vector<BrokerState> divergence_states(const std::vector<std::int32_t>& ids) {
  std::vector<std::string> args;
  for (const auto id : ids)
    args.push_back((fs::path(KEPOCH_SOURCE_DIR) /
                    ("tests/data/divergence/before/broker-" + std::to_string(id) + "/d-0"))
                       .string());
  std::vector<BrokerState> states = load_broker_states(args, 2);
  check_one_cluster(states, ids);
  return states;
}

PlanMetadata flags_metadata(const std::vector<BrokerState>& states) {
  return metadata_from_flags({{1, 2, 3}, {1}, {}, std::vector<std::int32_t>{2, 3}, {}}, states);
}

}  // namespace

TEST_CASE("the states joined to the metadata: every assigned broker listed and a missing one said",
          "[outage_plan]") {
  std::vector<BrokerState> states = divergence_states({2, 3});
  PlanMetadata metadata = flags_metadata(states);
  const OutagePlan out = plan_outage(std::move(states), std::move(metadata), {});
  CHECK(out.metadata == "flags");
  CHECK_FALSE(out.cluster_id);  // replica dirs without meta.properties
  REQUIRE(out.brokers.size() == 3);
  CHECK(out.brokers[0].broker == 1);
  CHECK(out.brokers[0].source.empty());
  CHECK_FALSE(out.brokers[0].live);
  CHECK(out.brokers[1].live);
  CHECK(out.brokers[1].source == out.states[0].argument);
  REQUIRE(out.input.partitions.size() == 1);
  // The replicas the plan reads are the states' own, held by the result.
  const auto& replicas = out.input.partitions[0].replicas;
  REQUIRE(replicas.size() == 2);
  CHECK(replicas.at(2) == &out.states[0].replicas[0]);
  CHECK(replicas.at(3) == &out.states[1].replicas[0]);
  REQUIRE(out.plan.partitions.size() == 1);
  // Broker 1, the ISR's only member, is not given: it is waited for, never safe.
  CHECK(out.plan.partitions[0].kind == RecommendationKind::wait_for_broker);
  CHECK_FALSE(out.plan.totals.safe());
  REQUIRE_FALSE(out.notes.empty());
  CHECK(out.notes[0] ==
        "broker 1: no state given; what its replicas of 1 partition(s) without a live leader "
        "hold is not counted");
}

TEST_CASE("a gone broker is never live: states of partitions the metadata lacks are counted",
          "[outage_plan]") {
  std::vector<BrokerState> states = divergence_states({1, 2, 3});
  PlanMetadata metadata = flags_metadata(states);
  metadata.partitions[0].topic = "other";  // the states' d-0 is not in the metadata
  const OutagePlan out = plan_outage(std::move(states), std::move(metadata), {3});
  for (const auto& b : out.brokers)
    if (b.broker == 3) {
      CHECK(b.gone);
      CHECK_FALSE(b.live);  // --alive said 3 is up; it will not come back
    }
  CHECK(std::find(out.notes.begin(), out.notes.end(),
                  "1 partition(s) in the states are not in the metadata (deleted topics, or not "
                  "selected)") != out.notes.end());
}

TEST_CASE("the one-cluster rule holds for the metadata too", "[outage_plan]") {
  std::vector<BrokerState> states = divergence_states({2, 3});
  states[0].cluster_id = "C";
  PlanMetadata metadata = flags_metadata(states);
  metadata.cluster_id = "D";
  CHECK_THROWS_AS(plan_outage(states, metadata, {}), UsageError);
  metadata.cluster_id = "C";
  const OutagePlan out = plan_outage(states, metadata, {});
  CHECK(out.cluster_id == "C");
  // Without the metadata's, the first state's that records one.
  metadata.cluster_id.reset();
  CHECK(plan_outage(states, metadata, {}).cluster_id == "C");
  // A state without a broker id never reaches the plan.
  states[1].broker.reset();
  CHECK_THROWS_AS(plan_outage(states, metadata, {}), UsageError);
}

namespace {

// The report `plan` prints, as JSON: the plan's Value with its timelines.
std::string plan_json(const OutagePlan& out, bool all) {
  report::Value v = report::recovery_plan_value(
      out.plan, {out.metadata, out.cluster_id, out.brokers, out.notes, all, out.salvages});
  v.set("timelines", report::plan_timelines_value(out.plan, out.input));
  std::ostringstream text, err;
  report::RenderOptions options;
  options.iso_times = true;  // as `plan` renders
  report::render(v, report::Format::json, text, err, options);
  return text.str();
}

// Each log dir's snapshot, written to a scratch dir removed at the end.
struct ScratchSnapshots {
  fs::path dir;
  std::vector<std::string> files;
  explicit ScratchSnapshots(const std::vector<fs::path>& log_dirs) {
    char tmpl[] = "/tmp/kepoch-plan-stream-XXXXXX";
    dir = ::mkdtemp(tmpl);
    for (std::size_t i = 0; i < log_dirs.size(); ++i) {
      files.push_back((dir / ("b" + std::to_string(i + 1) + ".snap")).string());
      std::ofstream out(files.back());
      write_logdir_snapshot(out, {log_dirs[i]});
    }
  }
  ~ScratchSnapshots() { fs::remove_all(dir); }
};

void same_plans(const std::vector<std::string>& args, const std::vector<std::int32_t>& ids,
                const std::function<PlanMetadata(const std::vector<BrokerState>&)>& metadata,
                const std::vector<std::int32_t>& gone) {
  // In one block, and in blocks of one and two partitions (each stream's turn stopped by a
  // peek at a later block's partition; two threads: the streams in chunks).
  for (const auto& [block, jobs] :
       {std::pair<std::size_t, unsigned>{kPlanBlock, 1u}, {1, 2}, {2, 2}})
    for (const bool all : {false, true}) {
      INFO("block " << block << ", jobs " << jobs << (all ? ", --all" : ""));
      std::vector<BrokerState> whole = load_broker_states(args, 2);
      check_one_cluster(whole, ids);
      PlanMetadata m = metadata(whole);
      const OutagePlan held = plan_outage(std::move(whole), m, gone);

      std::vector<StreamedBrokerState> streams = open_broker_states(args, 2);
      for (std::size_t i = 0; i < streams.size(); ++i)
        streams[i].state.broker = ids[i];
      const OutagePlan streamed =
          plan_outage_streamed(std::move(streams), m, gone, all, jobs, {}, {}, {}, block);
      const std::string expected = plan_json(held, all);
      CHECK(plan_json(streamed, all) == expected);
      CHECK(streamed.plan.totals.partitions == held.plan.totals.partitions);

      // `plan -o json`'s own path: the listed partitions handed to the report a block at a
      // time (report::PlanJsonStream), the document written from its files.
      std::vector<StreamedBrokerState> again = open_broker_states(args, 2);
      for (std::size_t i = 0; i < again.size(); ++i)
        again[i].state.broker = ids[i];
      report::PlanJsonStream json(all, /*iso_times=*/true, /*local=*/false);
      std::size_t blocks = 0;
      const OutagePlan sunk = plan_outage_streamed(
          std::move(again), m, gone, all, jobs, {},
          [&](RecoveryPlan& listed, PlanInput& input) {
            ++blocks;
            json.add(listed, input);
          },
          json.start_names(), block);
      CHECK(sunk.input.partitions.empty());  // nothing listed is held
      CHECK(sunk.plan.partitions.size() <= kNamedDecisions);
      report::Value head = report::recovery_plan_value(
          sunk.plan, {sunk.metadata, sunk.cluster_id, sunk.brokers, sunk.notes, all, sunk.salvages,
                      sunk.unheld_decisions});
      head.set("timelines", report::Value::array());
      std::ostringstream text;
      json.write(head, sunk.plan.start_order, text);
      CHECK(text.str() == expected);
      const bool any_listed = std::any_of(
          held.plan.partitions.begin(), held.plan.partitions.end(),
          [all](const PartitionPlan& p) { return all || RecoveryPlanBuilder::listed(p); });
      if (block == kPlanBlock) CHECK((blocks > 0) == any_listed);  // one: the fixtures are small
    }
}

}  // namespace

TEST_CASE("the streamed plan's report is byte for byte the held plan's", "[outage_plan]") {
  SECTION("divergence/before's snapshots, d-0 without a live leader: candidates and timelines") {
    const fs::path before = fs::path(KEPOCH_SOURCE_DIR) / "tests/data/divergence/before";
    const ScratchSnapshots snaps({before / "broker-1", before / "broker-2", before / "broker-3"});
    same_plans(snaps.files, {1, 2, 3},
               [](const std::vector<BrokerState>& states) { return flags_metadata(states); }, {});
    // Broker 1 given up: the plan elects among the others.
    same_plans(snaps.files, {1, 2, 3},
               [](const std::vector<BrokerState>& states) { return flags_metadata(states); }, {1});
  }
  SECTION("tests/data/logdir (a snapshot and the log dir) against the metadata log") {
    const fs::path logdir = fs::path(KEPOCH_SOURCE_DIR) / "tests/data/logdir";
    const ScratchSnapshots snaps({logdir});
    const auto from_log = [](const std::vector<BrokerState>&) {
      return metadata_from_log(
          read_logged_metadata(fs::path(KEPOCH_SOURCE_DIR) / "tests/data/metadata", {}),
          "tests/data/metadata", {});
    };
    same_plans(snaps.files, {1}, from_log, {});
    same_plans({logdir.string()}, {1}, from_log, {});
  }
}

TEST_CASE(
    "the plan names a salvage run for each follower its chosen leader truncates with records "
    "lost: the follower's replica dir read against the leader's state",
    "[outage_plan][salvage]") {
  std::vector<BrokerState> states = divergence_states({1, 2, 3});
  PlanMetadata metadata = flags_metadata(states);
  const OutagePlan out = plan_outage(std::move(states), std::move(metadata), {});
  REQUIRE(out.plan.partitions.size() == 1);
  const CandidateOutcome* chosen = out.plan.partitions[0].chosen_candidate();
  REQUIRE(chosen);
  const auto dir = [](std::int32_t id) {
    return (fs::path(KEPOCH_SOURCE_DIR) /
            ("tests/data/divergence/before/broker-" + std::to_string(id) + "/d-0"))
        .string();
  };
  // One run per follower that loses records (ReplicaForecast's lost, known or not), no other.
  std::size_t losing = 0;
  for (const auto& f : chosen->followers) {
    if (f.forecast.lost_records + f.forecast.lost_unknown_records == 0) continue;
    REQUIRE(losing < out.salvages.size());
    const PlanSalvage& s = out.salvages[losing++];
    CHECK(s.topic == "d");
    CHECK(s.partition == 0);
    CHECK(s.follower == f.broker);
    CHECK(s.leader == chosen->broker);
    CHECK(s.lost_records == f.forecast.lost_records);
    CHECK(s.follower_live == (f.broker != 1));  // --alive 2,3
    CHECK(s.command == "kepoch salvage --archive d-0.broker-" + std::to_string(f.broker) +
                           ".salvage.jsonl --leader " + dir(chosen->broker) + " " + dir(f.broker));
  }
  CHECK(losing == out.salvages.size());
  CHECK(losing > 0);  // the fixture's brokers diverged: whoever leads, another loses records

  // A gone broker's disk is lost: nothing to salvage from it.
  std::vector<BrokerState> again = divergence_states({1, 2, 3});
  PlanMetadata metadata2 = flags_metadata(again);
  std::vector<std::int32_t> gone;
  for (const auto& s : out.salvages)
    gone.push_back(s.follower);
  const OutagePlan without = plan_outage(std::move(again), std::move(metadata2), gone);
  for (const auto& s : without.salvages)
    CHECK(std::find(gone.begin(), gone.end(), s.follower) == gone.end());
}

TEST_CASE("shell_word quotes what a shell would read otherwise", "[outage_plan][salvage]") {
  CHECK(shell_word("/var/lib/kafka/d-0") == "/var/lib/kafka/d-0");
  CHECK(shell_word("b1.snap:d-0") == "b1.snap:d-0");
  CHECK(shell_word("my dir/d-0") == "'my dir/d-0'");
  CHECK(shell_word("it's") == "'it'\\''s'");
  CHECK(shell_word("") == "''");
  CHECK(shell_word("$HOME") == "'$HOME'");
}

TEST_CASE("the plan's report from the metadata log read in ranges is the one-pass read's",
          "[outage_plan]") {
  const fs::path logdir = fs::path(KEPOCH_SOURCE_DIR) / "tests/data/logdir";
  const fs::path meta = fs::path(KEPOCH_SOURCE_DIR) / "tests/data/metadata";
  const ScratchSnapshots snaps({logdir});
  const auto metadata = [&](std::size_t range_slots) {
    return metadata_from_log(read_logged_metadata(meta, {}, {}, range_slots), "tests/data/metadata",
                             {});
  };
  const auto streams = [&] {
    std::vector<StreamedBrokerState> s = open_broker_states(snaps.files, 1);
    s[0].state.broker = 1;
    return s;
  };
  for (const bool all : {false, true}) {
    const std::string want =
        plan_json(plan_outage_streamed(streams(), metadata(kLoggedRangeSlots), {}, all, 1), all);
    for (const std::size_t range_slots : {1, 2, 5}) {
      INFO("range_slots " << range_slots << (all ? ", --all" : ""));
      PlanMetadata ranged = metadata(range_slots);
      REQUIRE(ranged.logged.ranged());
      CHECK(plan_json(plan_outage_streamed(streams(), std::move(ranged), {}, all, 1), all) == want);
      // The held plan (materialize) and `plan -o json`'s sink.
      std::vector<BrokerState> whole = load_broker_states(snaps.files, 1);
      check_one_cluster(whole, {1});
      const OutagePlan held = plan_outage(std::move(whole), metadata(range_slots), {});
      CHECK(plan_json(held, all) == plan_json(plan_outage(load_broker_states(snaps.files, 1),
                                                          metadata(kLoggedRangeSlots), {}),
                                              all));
      report::PlanJsonStream json(all, /*iso_times=*/true, /*local=*/false);
      const OutagePlan sunk = plan_outage_streamed(
          streams(), metadata(range_slots), {}, all, 1, {},
          [&](RecoveryPlan& listed, PlanInput& input) { json.add(listed, input); },
          json.start_names());
      report::Value head = report::recovery_plan_value(
          sunk.plan, {sunk.metadata, sunk.cluster_id, sunk.brokers, sunk.notes, all, sunk.salvages,
                      sunk.unheld_decisions});
      head.set("timelines", report::Value::array());
      std::ostringstream text;
      json.write(head, sunk.plan.start_order, text);
      CHECK(text.str() == want);
    }
  }
}
