// Pins the simulate engine on the seed scenarios shipped in examples/scenarios: the verdict
// under the leader-epoch rule (Fetch divergence, KRaft) and the pre-0.11 high-watermark rule,
// and the replica states the seed articles describe along the way.
#include <catch2/catch.hpp>
#include "support/source_dir.hpp"

#include <fstream>
#include <sstream>

#include "kepoch/sim/engine.hpp"
#include "kepoch/sim/scenario_parser.hpp"
#include "kepoch/sim/verdict.hpp"

using namespace kepoch;
using namespace kepoch::sim;

namespace {

Scenario shipped(const std::string& name) {
  const std::string path = std::string(KEPOCH_SOURCE_DIR) + "/examples/scenarios/" + name;
  std::ifstream in(path);
  REQUIRE(in);
  std::stringstream text;
  text << in.rdbuf();
  return parse_scenario(text.str(), path);
}

std::vector<std::string> lost(const Verdict& v) {
  std::vector<std::string> out;
  for (const auto& p : v.lost_acknowledged)
    out.push_back(p.value);
  return out;
}

std::vector<std::int64_t> truncations_of(const Verdict& v, const std::string& replica) {
  std::vector<std::int64_t> out;
  for (const auto& t : v.truncations)
    if (t.replica == replica) out.push_back(t.to);
  return out;
}

const SimReplica& replica(const StepResult& step, const std::string& name) {
  for (const auto& r : step.replicas)
    if (r.name == name) return r;
  FAIL("no replica " << name);
  throw;
}

Scenario two_replicas(std::vector<Step> steps) {
  Scenario s;
  ReplicaSpec a, b;
  a.name = "A";
  b.name = "B";
  s.replicas = {a, b};
  s.leader = "A";
  s.isr = {"A", "B"};
  s.steps = std::move(steps);
  return s;
}

Step produce(std::vector<std::string> values, Acks acks = Acks::all) {
  Step s;
  s.kind = StepKind::produce;
  s.values = std::move(values);
  s.acks = acks;
  return s;
}

Step on(StepKind kind, std::string replica) {
  Step s;
  s.kind = kind;
  s.replica = std::move(replica);
  return s;
}

}  // namespace

TEST_CASE("hw truncation loses an acknowledged record, the epoch rule keeps it", "[simulate]") {
  const Scenario s = shipped("hw-truncation-loses-acked.yaml");
  const SimulationRun hw = simulate(s, Rule::hw);
  const SimulationRun epoch = simulate(s, Rule::epoch);

  // The seed's state before A restarts: A LEO 2 HW 1, B LEO 2 HW 2, m1 and m2 acknowledged.
  const StepResult& before = hw.steps[6];
  CHECK(replica(before, "A").log.log_end_offset == 2);
  CHECK(replica(before, "A").log.high_watermark == 1);
  CHECK(replica(before, "B").log.high_watermark == 2);
  CHECK(hw.verdict.acknowledged.size() == 2);

  CHECK(lost(hw.verdict) == std::vector<std::string>{"m2"});
  CHECK(hw.verdict.consistent);
  CHECK(truncations_of(hw.verdict, "A") == std::vector<std::int64_t>{1});
  CHECK(truncations_of(hw.verdict, "B") == std::vector<std::int64_t>{1});

  CHECK(lost(epoch.verdict).empty());
  CHECK(epoch.verdict.consistent);
  CHECK(epoch.verdict.truncations.empty());
  // A leads at epoch 1 from offset 2 with both records.
  const StepResult& end = epoch.steps.back();
  CHECK(end.partition.leader_epoch == 1);
  CHECK(replica(end, "A").log.cache.entries() == std::vector<EpochEntry>{{0, 0}, {1, 2}});

  CHECK(expectation_failures(*s.expect_hw, hw.verdict).empty());
  CHECK(expectation_failures(*s.expect_epoch, epoch.verdict).empty());
}

TEST_CASE("hw rule leaves two replicas with different records at offset 1, epoch converges",
          "[simulate]") {
  const Scenario s = shipped("divergent-offset.yaml");
  const SimulationRun hw = simulate(s, Rule::hw);
  const SimulationRun epoch = simulate(s, Rule::epoch);

  CHECK(hw.verdict.divergent_offsets == std::vector<std::int64_t>{1});
  CHECK_FALSE(hw.verdict.consistent);
  const StepResult& end = hw.steps.back();
  CHECK(replica(end, "A").records[1].value == "m2");
  CHECK(replica(end, "B").records[1].value == "m3");

  CHECK(epoch.verdict.divergent_offsets.empty());
  CHECK(epoch.verdict.consistent);
  CHECK(truncations_of(epoch.verdict, "A") == std::vector<std::int64_t>{1});
  CHECK(replica(epoch.steps.back(), "A").records[1].value == "m3");

  // The unclean election loses the acknowledged m2 under both rules.
  CHECK(lost(hw.verdict) == std::vector<std::string>{"m2"});
  CHECK(lost(epoch.verdict) == std::vector<std::string>{"m2"});
  CHECK(expectation_failures(*s.expect_hw, hw.verdict).empty());
  CHECK(expectation_failures(*s.expect_epoch, epoch.verdict).empty());
}

TEST_CASE("follower with cache (0,0)(1,100)(2,250) truncates to 280 against epoch 3 from 280",
          "[simulate]") {
  const Scenario s = shipped("follower-epoch-cache.yaml");
  const SimulationRun epoch = simulate(s, Rule::epoch);
  const SimulationRun hw = simulate(s, Rule::hw);

  CHECK(epoch.steps.front().replicas[1].log.log_end_offset == 300);
  CHECK(truncations_of(epoch.verdict, "follower") == std::vector<std::int64_t>{280});
  CHECK(truncations_of(hw.verdict, "follower") == std::vector<std::int64_t>{260});
  for (const auto* run : {&epoch, &hw}) {
    CHECK(run->verdict.consistent);
    CHECK(run->verdict.lost_acknowledged.empty());
    const SimReplica& f = replica(run->steps.back(), "follower");
    CHECK(f.log.log_end_offset == 320);
    CHECK(f.log.cache.entries() == std::vector<EpochEntry>{{0, 0}, {1, 100}, {2, 250}, {3, 280}});
    // The second fetch tells the leader the follower caught up: ISR and high watermark.
    CHECK(run->steps.back().partition.isr.size() == 2);
    CHECK(replica(run->steps.back(), "leader").log.high_watermark == 320);
  }
  CHECK(expectation_failures(*s.expect_epoch, epoch.verdict).empty());
  CHECK(expectation_failures(*s.expect_hw, hw.verdict).empty());
}

TEST_CASE("a fetch carries the leader's high watermark from before that fetch", "[simulate]") {
  const SimulationRun run =
      simulate(two_replicas({produce({"m0"}), on(StepKind::fetch, "B"), on(StepKind::fetch, "B"),
                             on(StepKind::fetch, "B")}),
               Rule::epoch);
  // Step 2: B has m0 but learns HW 0; the leader still waits for B's next fetch offset.
  CHECK(replica(run.steps[2], "B").log.log_end_offset == 1);
  CHECK(replica(run.steps[2], "B").log.high_watermark == 0);
  CHECK(replica(run.steps[2], "A").log.high_watermark == 0);
  // Step 3: B's fetch at offset 1 raises the leader's HW; B learns it one fetch later.
  CHECK(replica(run.steps[3], "A").log.high_watermark == 1);
  CHECK(replica(run.steps[3], "B").log.high_watermark == 0);
  CHECK(replica(run.steps[4], "B").log.high_watermark == 1);
  REQUIRE(run.produced.size() == 1);
  CHECK(run.produced[0].state == AckState::acknowledged);
  CHECK(run.produced[0].step == 1);
}

TEST_CASE("acks=all is acknowledged only when the high watermark passes the record", "[simulate]") {
  SECTION("leader dies first: not acknowledged, so its loss is not counted") {
    const SimulationRun run =
        simulate(two_replicas({produce({"m0"}), on(StepKind::crash, "A")}), Rule::epoch);
    CHECK(run.produced[0].state == AckState::failed);
    CHECK(run.verdict.lost_acknowledged.empty());
  }
  SECTION("acks=1 is acknowledged on the leader's append and lost with it") {
    const SimulationRun run = simulate(
        two_replicas({produce({"m0"}, Acks::leader), on(StepKind::crash, "A")}), Rule::epoch);
    CHECK(run.produced[0].state == AckState::acknowledged);
    CHECK(lost(run.verdict) == std::vector<std::string>{"m0"});
  }
  SECTION("min.insync.replicas above the ISR size rejects the produce") {
    Scenario s = two_replicas({on(StepKind::shrink_isr, "B"), produce({"m0"})});
    s.min_insync_replicas = 2;
    const SimulationRun run = simulate(s, Rule::epoch);
    CHECK(run.produced.empty());
    CHECK(replica(run.steps.back(), "A").log.log_end_offset == 0);
  }
}

TEST_CASE("expectation failures name the field, the expected and the found value", "[simulate]") {
  Verdict v;
  v.divergent_offsets = {1};
  v.consistent = false;
  Expectation e;
  e.divergent_offsets = std::vector<std::int64_t>{};
  e.consistent = true;
  e.lost_acknowledged = std::vector<std::string>{"m2"};
  const auto failures = expectation_failures(e, v);
  REQUIRE(failures.size() == 3);
  CHECK(failures[0] == "lost_acknowledged: expected [m2], found []");
  CHECK(failures[1] == "divergent_offsets: expected [], found [1]");
  CHECK(failures[2] == "consistent: expected true, found false");
}

TEST_CASE("a returning follower truncates where Kafka's rules put it, under each rule",
          "[simulate]") {
  // Judged by hand from the seed's numbers (not by predict_truncation, which the engine
  // calls): the follower holds (0,0)(1,100)(2,250) with log end 300 and HW 260; the leader
  // (0,0)(1,100)(2,250)(3,280), log end 320.
  //   epoch rule: the follower fetches at offset 300 with last fetched epoch 2; epoch 2 is
  //     not the leader's latest, so it answers DivergingEpoch(epoch 2, end offset 280), the
  //     start of the next epoch (LeaderEpochFileCache.endOffsetFor); the follower truncates to
  //     min(280, its own end of epoch 2 = 300) = 280
  //     (AbstractFetcherThread.truncateOnFetchResponse). The seed records that outcome:
  //     "截断到offset 280" (truncated to offset 280).
  //   hw rule: the pre-0.11 follower truncates to its own high watermark, 260.
  const Scenario s = shipped("follower-epoch-cache.yaml");
  for (const auto& [rule, to] :
       {std::pair{Rule::epoch, std::int64_t{280}}, std::pair{Rule::hw, std::int64_t{260}}}) {
    const SimulationRun run = simulate(s, rule);
    REQUIRE(run.verdict.truncations.size() == 1);
    const Truncation& t = run.verdict.truncations[0];
    CHECK(t.replica == "follower");
    CHECK(t.step == 1);  // on the first fetch
    CHECK(t.from == 300);
    CHECK(t.to == to);
  }
  // The epoch rule's reason names the leader's answer derived above.
  const SimulationRun epoch = simulate(s, Rule::epoch);
  CHECK_THAT(epoch.verdict.truncations[0].reason,
             Catch::Contains("last fetched epoch 2, the leader says epoch 2 ends at 280"));
}

TEST_CASE("a fenced follower leaves the ISR and the high watermark passes without it",
          "[simulate]") {
  const SimulationRun run =
      simulate(two_replicas({produce({"m0"}), on(StepKind::crash, "B")}), Rule::epoch);
  CHECK(run.steps.back().partition.isr == std::vector<std::int32_t>{1});
  CHECK(replica(run.steps.back(), "A").log.high_watermark == 1);
  CHECK(run.produced[0].state == AckState::acknowledged);
}

TEST_CASE("with no ISR member alive the partition is offline until an unclean election",
          "[simulate]") {
  Step elect;
  elect.kind = StepKind::elect;
  elect.election = ElectionType::unclean;
  const SimulationRun run =
      simulate(two_replicas({produce({"m0"}, Acks::leader), on(StepKind::shrink_isr, "B"),
                             on(StepKind::crash, "A"), elect}),
               Rule::epoch);
  const StepResult& offline = run.steps[3];
  CHECK(offline.partition.leader == kNoLeader);
  CHECK(offline.partition.leader_epoch == 1);
  const StepResult& end = run.steps.back();
  CHECK(end.partition.leader == 2);
  CHECK(end.partition.leader_epoch == 2);
  CHECK(replica(end, "B").log.cache.entries() == std::vector<EpochEntry>{{2, 0}});
  CHECK(lost(run.verdict) == std::vector<std::string>{"m0"});
}

TEST_CASE("No leader at the end: the replicas that may lead next decide what is lost",
          "[simulate]") {
  // handleBrokerUnfenced -> PartitionChangeBuilder.electLeader: a leaderless partition is led
  // by the ISR member (ELR off: the last one stays in the ISR) that returns; the other
  // replicas truncate to it. m2, acknowledged with acks=1 on B alone, is gone once A leads
  // without it, and stays gone when A crashes too: no replica holding m2 may lead again.
  // (Any replica holding it passed as kept, and simulate exited 0.)
  const std::string base = R"(replicas: [B, A]
steps:
  - produce: {values: [m1], acks: all}
  - fetch: A
  - fetch: A
  - produce: {values: [m2], acks: 1}
  - crash: B
  - crash: A
)";
  const SimulationRun run = simulate(parse_scenario(base, "leaderless.yaml"), Rule::epoch);
  REQUIRE(run.steps.back().partition.leader == kNoLeader);
  CHECK(lost(run.verdict) == std::vector<std::string>{"m2"});
  CHECK(run.verdict.maybe_lost_acknowledged.empty());
  // With unclean.leader.election.enable, B may return first and lead: m2 is maybe lost.
  const SimulationRun unclean = simulate(
      parse_scenario("unclean_leader_election: true\n" + base, "unclean.yaml"), Rule::epoch);
  REQUIRE(unclean.steps.back().partition.leader == kNoLeader);
  CHECK(lost(unclean.verdict).empty());
  REQUIRE(unclean.verdict.maybe_lost_acknowledged.size() == 1);
  CHECK(unclean.verdict.maybe_lost_acknowledged[0].value == "m2");
}
