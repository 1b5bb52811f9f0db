// Pins the outage recovery plan (forecast/recovery_plan): each partition's condition, the
// candidates' costs (every other replica truncating against the candidate as Kafka's
// fetcher does, committed counted against the highest high watermark any replica recorded),
// the ranking rules, every recommendation kind, the totals and the start order. Kafka's own
// choice is PartitionChangeBuilder's (epoch/election): ISR/ELR first, then the first live
// replica in assignment order.
#include <catch2/catch.hpp>

#include "kepoch/forecast/recovery_plan.hpp"
#include "support/forecast_fixtures.hpp"

using namespace kepoch;
using namespace test;
using namespace kepoch::forecast;

namespace {

// The recovery.md scenario: broker 3 led at epoch 1; broker 1 fell behind at 5, broker 2 at
// 10, broker 3 alone took 10-14 (HW 15). Broker 2's checkpointed HW lags (5).
struct Outage {
  PartitionReplica b1 = replica_of("b1", {{0, 4, 1, 11}}, 5);
  PartitionReplica b2 = replica_of("b2", {{0, 4, 1, 11}, {5, 9, 1, 12}}, 5);
  PartitionReplica b3 = replica_of("b3", {{0, 4, 1, 11}, {5, 9, 1, 12}, {10, 14, 1, 13}}, 15);

  PlanPartitionInput partition(std::vector<std::int32_t> replicas = {1, 2, 3},
                               std::vector<std::int32_t> isr = {3}) const {
    PlanPartitionInput p;
    p.topic = "t";
    p.partition = 0;
    p.state.replicas = std::move(replicas);
    p.state.isr = std::move(isr);
    p.state.leader = kNoLeader;
    p.state.leader_epoch = 1;
    p.replicas = {{1, &b1}, {2, &b2}, {3, &b3}};
    return p;
  }
};

CandidateOutcome candidate(std::int32_t broker) {
  CandidateOutcome c;
  c.broker = broker;
  c.live = true;
  return c;
}

}  // namespace

TEST_CASE(
    "a leaderless partition: every known replica is a candidate, costed by the predict engine",
    "[recovery_plan]") {
  Outage o;
  const PartitionPlan p = plan_partition(o.partition(), {1, 2}, {3});
  CHECK(p.condition == PartitionCondition::leaderless);
  CHECK(p.highest_high_watermark == 15);
  // Broker 3 is gone: not a candidate, but what only it holds (10-14) is lost either way.
  REQUIRE(p.candidates.size() == 2);
  const CandidateOutcome* c1 = p.candidate(1);
  const CandidateOutcome* c2 = p.candidate(2);
  REQUIRE(c1);
  REQUIRE(c2);
  // Leading at a new epoch (2), broker 1's followers truncate to its log end, 5: broker 2
  // loses 5-9, broker 3 loses 5-14; the partition loses the most one replica loses.
  CHECK(c1->leader_epoch == 2);
  CHECK(c1->lost_records == 10);
  CHECK(c1->removed_records == 15);
  // Committed against the highest high watermark (15), not broker 2's stale own (5).
  for (const auto& f : c1->followers)
    if (f.broker == 2) CHECK(f.forecast.committed_lost_records == 5);
  CHECK(c1->committed_lost_records == 10);
  CHECK(c2->lost_records == 5);  // only 10-14 (broker 1's log is a prefix of 2's)
  CHECK(c2->committed_lost_records == 5);
  CHECK(c1->kafka_choice);  // PartitionChangeBuilder.electAnyLeader: first live in order
}

TEST_CASE("elect_unclean: a live replica Kafka would not choose loses less", "[recovery_plan]") {
  Outage o;
  const PartitionPlan p = plan_partition(o.partition(), {1, 2}, {3});
  CHECK(p.kind == RecommendationKind::elect_unclean);
  CHECK(p.chosen == 2);
  CHECK(p.kafka_choice == 1);
  CHECK(p.kafka_choice_now);
  CHECK_FALSE(p.kafka_choice_clean);
  CHECK(p.candidates.front().broker == 2);
  CHECK(p.candidates.front().rank == 1);
}

TEST_CASE("kafka_default_best: Kafka's first live replica is already the longest",
          "[recovery_plan]") {
  Outage o;
  const PartitionPlan p = plan_partition(o.partition({2, 1, 3}), {1, 2}, {3});
  CHECK(p.kind == RecommendationKind::kafka_default_best);
  CHECK(p.chosen == 2);
  CHECK(p.kafka_choice == 2);
}

TEST_CASE("kafka_default_best: a live ISR member leads cleanly", "[recovery_plan]") {
  Outage o;
  const PartitionPlan p = plan_partition(o.partition({1, 2, 3}, {2, 3}), {1, 2}, {});
  CHECK(p.condition == PartitionCondition::leaderless);
  CHECK(p.kind == RecommendationKind::kafka_default_best);
  CHECK(p.chosen == 2);
  CHECK(p.kafka_choice_clean);
}

TEST_CASE("wait_for_broker: the stopped ISR member holds every committed record",
          "[recovery_plan]") {
  Outage o;
  const PartitionPlan p = plan_partition(o.partition(), {1, 2}, {});
  CHECK(p.kind == RecommendationKind::wait_for_broker);
  CHECK(p.chosen == 3);
  const CandidateOutcome* c3 = p.chosen_candidate();
  REQUIRE(c3);
  CHECK_FALSE(c3->live);
  CHECK(c3->clean);
  CHECK(c3->lost_records == 0);
  CHECK(c3->committed_lost_records == 0);
  // Kafka's unclean election among the live brokers would still pick broker 1.
  CHECK(p.kafka_choice == 1);
}

TEST_CASE("no live replica: Kafka's choice is the one it makes when the brokers return",
          "[recovery_plan]") {
  Outage o;
  const PartitionPlan p = plan_partition(o.partition(), {}, {});
  CHECK_FALSE(p.kafka_choice_now);
  CHECK(p.kafka_choice == 3);  // the ISR member, cleanly
  CHECK(p.kafka_choice_clean);
  CHECK(p.kind == RecommendationKind::wait_for_broker);
  CHECK(p.chosen == 3);
}

TEST_CASE("healthy and under_min_isr: a live leader, nothing to decide", "[recovery_plan]") {
  Outage o;
  PlanPartitionInput in = o.partition({1, 2, 3}, {2});
  in.state.leader = 2;
  in.min_isr = 2;
  PartitionPlan p = plan_partition(in, {1, 2}, {});
  CHECK(p.condition == PartitionCondition::under_min_isr);
  CHECK(p.kind == RecommendationKind::healthy);
  CHECK(p.candidates.empty());
  in.state.isr = {1, 2};
  p = plan_partition(in, {1, 2}, {});
  CHECK(p.condition == PartitionCondition::healthy);
  CHECK(p.kind == RecommendationKind::healthy);
  // A leader whose broker is down is no leader.
  in.state.isr = {3};
  in.state.leader = 3;
  p = plan_partition(in, {1, 2}, {});
  CHECK(p.condition == PartitionCondition::leaderless);
}

TEST_CASE("under min ISR: nothing to elect, but affected (Kafka refuses acks=all writes)",
          "[recovery_plan]") {
  // Partition.appendRecordsToLeader: an ISR below min.insync.replicas answers acks=all
  // writes NOT_ENOUGH_REPLICAS; the plan counts and lists it, it does not hide it as healthy.
  Outage o;
  PlanInput input;
  input.live_brokers = {1, 2};
  PlanPartitionInput under = o.partition({1, 2, 3}, {2});
  under.state.leader = 2;
  under.min_isr = 2;
  PlanPartitionInput healthy = under;
  healthy.partition = 1;
  healthy.state.isr = {1, 2};
  input.partitions = {under, healthy};
  const RecoveryPlan plan = plan_recovery(input);
  CHECK(plan.totals.partitions == 2);
  CHECK(plan.totals.affected == 1);
  CHECK(plan.totals.under_min_isr == 1);
  CHECK(plan.totals.leaderless == 0);
  CHECK(plan.totals.plan_committed_loss_partitions == 0);
}

TEST_CASE("the unclean condition: no clean leader and unclean.leader.election.enable",
          "[recovery_plan]") {
  Outage o;
  PlanPartitionInput in = o.partition();
  in.unclean_allowed = true;
  CHECK(plan_partition(in, {1, 2}, {3}).condition == PartitionCondition::unclean);
}

TEST_CASE("unknown: no replica's state is given", "[recovery_plan]") {
  Outage o;
  PlanInput input;
  input.live_brokers = {1, 2};
  PlanPartitionInput in = o.partition();
  in.replicas.clear();
  input.partitions.push_back(in);
  // The ISR member (3) may return: wait for it, Kafka elects it cleanly then.
  RecoveryPlan plan = plan_recovery(input);
  REQUIRE(plan.partitions.size() == 1);
  CHECK(plan.partitions[0].kind == RecommendationKind::wait_for_broker);
  CHECK(plan.partitions[0].chosen == 3);
  CHECK_FALSE(plan.totals.safe());
  // No ISR member to wait for (the ISR given empty, no ELR): nothing to recommend.
  input.partitions[0].state.isr.clear();
  plan = plan_recovery(input);
  CHECK(plan.partitions[0].kind == RecommendationKind::unknown);
  CHECK(plan.partitions[0].unknown_replicas == std::vector<std::int32_t>{1, 2, 3});
  CHECK(plan.totals.unknown == 1);
  CHECK(plan.totals.plan_committed_loss_partitions == 1);  // unknown is never safe
  CHECK_FALSE(plan.totals.complete);
  CHECK_FALSE(plan.totals.safe());
}

TEST_CASE("totals and start order over several partitions", "[recovery_plan]") {
  Outage o;
  PlanInput input;
  input.live_brokers = {1, 2};
  // t-0: broker 3 stopped, its state known: wait for it. t-1: broker 3 gone: elect 2.
  // t-2: healthy, led by 1.
  PlanPartitionInput wait = o.partition();
  PlanPartitionInput elect = o.partition();
  elect.partition = 1;
  elect.state.replicas = {1, 2, 4};
  elect.state.isr = {4};
  elect.replicas = {{1, &o.b1}, {2, &o.b2}, {4, &o.b3}};
  PlanPartitionInput healthy = o.partition();
  healthy.partition = 2;
  healthy.state.leader = 1;
  healthy.state.isr = {1, 2};
  input.partitions = {wait, elect, healthy};
  input.gone_brokers = {4};
  const RecoveryPlan plan = plan_recovery(input);
  CHECK(plan.partitions[0].kind == RecommendationKind::wait_for_broker);
  CHECK(plan.partitions[1].kind == RecommendationKind::elect_unclean);
  CHECK(plan.partitions[2].kind == RecommendationKind::healthy);
  const PlanTotals& t = plan.totals;
  CHECK(t.partitions == 3);
  CHECK(t.affected == 2);
  CHECK(t.wait == 1);
  CHECK(t.elect_unclean == 1);
  CHECK(t.kafka_default_lost_records == 20);  // broker 1 in both: 10 + 10
  CHECK(t.kafka_default_committed_lost_records == 20);
  CHECK(t.plan_lost_records == 5);  // waiting loses nothing, broker 2 loses 10-14
  CHECK(t.plan_committed_lost_records == 5);
  CHECK(t.plan_committed_loss_partitions == 1);
  CHECK(t.complete);
  REQUIRE(plan.start_order.size() == 1);  // 4 is gone, 1 and 2 are live
  CHECK(plan.start_order[0].broker == 3);
  CHECK(plan.start_order[0].phase == StartPhase::first);
  CHECK(plan.start_order[0].partitions == std::vector<std::string>{"t-0"});
}

TEST_CASE("start order: a stopped broker Kafka would pick starts after the elections",
          "[recovery_plan]") {
  Outage o;
  PlanInput input;
  input.live_brokers = {2};
  input.gone_brokers = {3};
  // Broker 1 is stopped and first in assignment order: started before the election, Kafka's
  // unclean rule would pick it (10 lost instead of 5).
  input.partitions = {o.partition()};
  const RecoveryPlan plan = plan_recovery(input);
  // With broker 2 the only live replica, Kafka's unclean rule picks it (recovery.md fact 3).
  CHECK(plan.partitions[0].kind == RecommendationKind::kafka_default_best);
  CHECK(plan.partitions[0].chosen == 2);
  REQUIRE(plan.start_order.size() == 1);
  CHECK(plan.start_order[0].broker == 1);
  CHECK(plan.start_order[0].phase == StartPhase::after_elections);
}

TEST_CASE("ranking rule 1: no committed loss before fewer lost records", "[recovery_plan]") {
  CandidateOutcome a = candidate(1), b = candidate(2);
  a.lost_records = 9;  // uncommitted only
  b.lost_records = 1;
  b.committed_lost_records = 1;
  b.committed_loss_possible = true;
  CHECK(ranks_before(a, b));
  CHECK_FALSE(ranks_before(b, a));
}

TEST_CASE("ranking rule 2: fewest lost records, a known count before an unknown one",
          "[recovery_plan]") {
  CandidateOutcome a = candidate(2), b = candidate(1);
  a.lost_records = 3;
  b.lost_records = 4;
  CHECK(ranks_before(a, b));
  b.lost_records = 3;
  b.loss_known = false;
  CHECK(ranks_before(a, b));
}

TEST_CASE("ranking rule 3: with equal loss, a live broker before waiting", "[recovery_plan]") {
  CandidateOutcome a = candidate(2), b = candidate(1);
  b.live = false;
  b.log_end_offset = 100;  // longer, but nothing more is saved by waiting
  CHECK(ranks_before(a, b));
}

TEST_CASE("ranking rule 4: KIP-966 order, highest last epoch then longest log", "[recovery_plan]") {
  CandidateOutcome a = candidate(2), b = candidate(1);
  a.last_epoch = 5;
  a.log_end_offset = 10;
  b.last_epoch = 4;
  b.log_end_offset = 20;
  CHECK(ranks_before(a, b));
  b.last_epoch = 5;
  CHECK(ranks_before(b, a));
}

TEST_CASE("ranking rule 5: Kafka's own choice, then broker id", "[recovery_plan]") {
  CandidateOutcome a = candidate(2), b = candidate(1);
  a.kafka_choice = true;
  CHECK(ranks_before(a, b));
  a.kafka_choice = false;
  CHECK(ranks_before(b, a));
}

TEST_CASE("a snapshot that did not keep the batches: the loss is not known", "[recovery_plan]") {
  Outage o;
  // Broker 2's snapshot kept only its first batch: what it loses under broker 1 is unknown.
  PartitionReplica b2 = replica_of("b2", {{0, 4, 1, 11}, {5, 9, 1, 12}}, 5, 0, {1});
  PlanPartitionInput in = o.partition();
  in.replicas[2] = &b2;
  const PartitionPlan p = plan_partition(in, {1, 2}, {3});
  const CandidateOutcome* c1 = p.candidate(1);
  REQUIRE(c1);
  CHECK_FALSE(c1->loss_known);
  CHECK(c1->committed_loss_possible);
}

TEST_CASE(
    "a replica of another topic id (the topic deleted and created again under its name) is "
    "not a candidate and its records are not counted",
    "[recovery_plan]") {
  Outage o;
  const Uuid current = parse_uuid("AAAAAAAAAAAAAAAAAAAAAQ").uuid;
  const Uuid older = parse_uuid("AAAAAAAAAAAAAAAAAAAAAg").uuid;
  // Broker 2's dir is of the older topic; 1 and 3 of the current one.
  o.b1.topic_id = current;
  o.b2.topic_id = older;
  o.b3.topic_id = current;
  PlanPartitionInput in = o.partition();
  in.topic_id = current;
  const PartitionPlan p = plan_partition(in, {1, 2}, {});
  REQUIRE(p.other_topic_replicas.size() == 1);
  CHECK(p.other_topic_replicas[0].broker == 2);
  CHECK(p.other_topic_replicas[0].topic_id == older);
  CHECK(p.unknown_replicas == std::vector<std::int32_t>{2});
  CHECK_FALSE(p.candidate(2));
  // Broker 3 (the ISR member, stopped) holds everything; broker 1 follows it. Broker 2 is
  // neither a candidate nor a follower anyone truncates.
  REQUIRE(p.candidates.size() == 2);
  for (const auto& c : p.candidates) {
    REQUIRE(c.followers.size() == 1);
    CHECK(c.followers[0].broker != 2);
  }
  CHECK(p.kind == RecommendationKind::wait_for_broker);
  CHECK(p.chosen == 3);
  // Without the metadata's id (or without the replica's), the replica is used as before.
  in.topic_id.reset();
  const PartitionPlan unchecked = plan_partition(in, {1, 2}, {});
  CHECK(unchecked.other_topic_replicas.empty());
  CHECK(unchecked.candidate(2));
  // Unknown is never safe: what broker 2 holds is not counted (exit 1). Waiting for broker
  // 3, the ISR member, loses no committed record (Kafka's guarantee).
  PlanInput input;
  input.live_brokers = {1, 2};
  in.topic_id = current;
  input.partitions.push_back(in);
  const RecoveryPlan plan = plan_recovery(input);
  CHECK(plan.totals.plan_committed_loss_partitions == 0);
  CHECK_FALSE(plan.totals.complete);
  CHECK_FALSE(plan.totals.safe());
}

TEST_CASE("the highest high watermark may lag: a loss above it is not ruled out committed",
          "[recovery_plan]") {
  // Every broker shut down cleanly and recorded no high watermark: the committed bound falls
  // back to the log start, and a candidate's loss above it was counted as uncommitted. Kafka's
  // high watermark was never read, so that loss is unknown, and the plan is not safe.
  Outage o;
  for (PartitionReplica* r : {&o.b1, &o.b2, &o.b3}) {
    r->clean_shutdown = true;
    r->high_watermark.reset();
    r->loaded.high_watermark = 0;
  }
  const PartitionPlan p = plan_partition(o.partition(), {1, 2}, {3});
  const CandidateOutcome* c2 = p.candidate(2);
  REQUIRE(c2);
  CHECK(c2->lost_records == 5);
  CHECK(c2->committed_lost_records == 0);
  CHECK(c2->committed_loss_possible);
  // With the checkpoints of brokers that shut down cleanly, the bound holds: broker 3's 15.
  for (PartitionReplica* r : {&o.b1, &o.b2, &o.b3})
    r->high_watermark = r->loaded.high_watermark = 5;
  o.b3.high_watermark = o.b3.loaded.high_watermark = 10;
  const PartitionPlan q = plan_partition(o.partition(), {1, 2}, {3});
  CHECK(q.candidate(2)->committed_lost_records == 0);
  CHECK_FALSE(q.candidate(2)->committed_loss_possible);
  // A broker that crashed may have held a higher one than it recorded.
  o.b3.clean_shutdown = false;
  const PartitionPlan r = plan_partition(o.partition(), {1, 2}, {3});
  CHECK(r.candidate(2)->committed_loss_possible);
  // ...but a clean candidate (an ISR member) holds every committed record.
  const PartitionPlan s = plan_partition(o.partition({1, 2, 3}, {2}), {1}, {3});
  CHECK_FALSE(s.candidate(2)->committed_loss_possible);
}

TEST_CASE("the committed bound is the high watermark as recorded, above a replica's log end too",
          "[recovery_plan]") {
  // Broker 3 recorded 20 but its log ends at 15 (writes lost in a crash): offsets up to 19
  // were committed, whatever the load lowers its own high watermark to.
  Outage o;
  o.b3.high_watermark = 20;
  const PartitionPlan p = plan_partition(o.partition(), {1, 2}, {3});
  CHECK(p.highest_high_watermark == 20);
}

TEST_CASE("an ISR older than the replicas' epochs rules no committed loss out", "[recovery_plan]") {
  // Broker 3 wrote 10-14 at epoch 2 while the metadata still says leader epoch 1 with ISR
  // [2]: that ISR is not the one Kafka's guarantee speaks of, so broker 2 leading "cleanly"
  // does not make broker 3's loss above its lagging checkpoint (10, it crashed) uncommitted.
  Outage o;
  o.b3 = replica_of("b3", {{0, 4, 1, 11}, {5, 9, 1, 12}, {10, 14, 2, 13}}, 10);
  PlanPartitionInput in = o.partition({1, 2, 3}, {2});
  in.replicas = {{1, &o.b1}, {2, &o.b2}, {3, &o.b3}};
  in.leader_epoch_known = true;
  const PartitionPlan stale = plan_partition(in, {1}, {});
  REQUIRE(stale.candidate(2));
  CHECK(stale.candidate(2)->lost_records == 5);
  CHECK(stale.candidate(2)->committed_loss_possible);
  // The metadata at epoch 2: broker 2 in that ISR holds every committed record.
  in.state.leader_epoch = 2;
  CHECK_FALSE(plan_partition(in, {1}, {}).candidate(2)->committed_loss_possible);
}

// --- issue 32: committed is a property of records; a missing state is unknown, not empty;
// a stale metadata is never trusted silently.

namespace {

// The divergence fixture's history (tests/data/divergence, run B): a-0..4 at epoch 0 on all
// three; broker 1 alone took b-0..2 at 5..7, epoch 0, acks=1 (HW 5, then kill -9); broker 2
// was elected uncleanly at epoch 2 and wrote c-0..3 at 5..8, which broker 3 fetched (HW 9).
struct Divergence {
  PartitionReplica b1 = replica_of("b1", {{0, 4, 0, 11}, {5, 7, 0, 12}}, 5);
  PartitionReplica b2 = replica_of("b2", {{0, 4, 0, 11}, {5, 8, 2, 13}}, 9);
  PartitionReplica b3 = replica_of("b3", {{0, 4, 0, 11}, {5, 8, 2, 13}}, 9);
};

}  // namespace

TEST_CASE(
    "committed is a property of records: a high watermark commits only the records of the "
    "log that recorded it (the same epoch lineage), not whatever another replica holds at "
    "those offsets",
    "[recovery_plan][committed]") {
  // Kafka: Partition.maybeIncrementLeaderHW moves the leader's high watermark over records
  // every ISR member holds, and a follower takes min(leader HW, its own log end)
  // (ReplicaFetcherThread), so broker 3's 9 covers c-0..3 (epoch 2) at 5..8. Broker 1's
  // b-0..2 at 5..7 (epoch 0) are other records: when broker 1 came back Kafka truncated it to
  // 5 (AbstractFetcherThread, the fixture's truncation.log) and b-0..2 were never committed.
  Divergence d;
  const std::vector<const PartitionReplica*> known{&d.b1, &d.b2, &d.b3};
  // Broker 1 shares 0..4 with brokers 2 and 3 (epoch 0 ends at 5 there): min(9, 5) = 5.
  CHECK(committed_bound(d.b1, known, false).below == 5);
  // Broker 3 shares all of broker 2's log: its own 9, and broker 2's 9 alike.
  CHECK(committed_bound(d.b3, known, false).below == 9);
  // A higher high watermark of the same lineage commits more of a lagging follower: broker
  // 2's recorded 5 is below broker 3's 9 over the same records.
  d.b2.high_watermark = d.b2.loaded.high_watermark = 5;
  CHECK(committed_bound(d.b2, known, false).below == 9);

  PlanPartitionInput in;
  in.topic = "d";
  in.state.replicas = {1, 2, 3};
  in.state.isr = {3};
  in.state.leader = kNoLeader;
  in.replicas = {{1, &d.b1}, {2, &d.b2}, {3, &d.b3}};
  const PartitionPlan p = plan_partition(in, {1, 2}, {});
  const CandidateOutcome* c2 = p.candidate(2);
  REQUIRE(c2);
  REQUIRE(c2->followers.size() == 2);
  for (const auto& f : c2->followers) {
    if (f.broker != 1) continue;
    CHECK(f.forecast.prediction.truncate_to == 5);  // as Kafka truncated it
    CHECK(f.forecast.lost_records == 3);
    CHECK(f.forecast.committed_lost_records == 0);  // not "3 committed"
    // Broker 1 crashed: its own checkpoint may lag what it held, so not ruled out either
    // (the same answer `predict --leader` gives on the same replicas).
    CHECK(f.forecast.committed_loss_possible());
    const ReplicaForecast alone =
        forecast_follower(d.b2, d.b2.as_leader, d.b1, known, TruncationMode::fetch, false);
    CHECK(alone.lost_records == f.forecast.lost_records);
    CHECK(alone.committed_lost_records == f.forecast.committed_lost_records);
  }
  CHECK(c2->committed_lost_records == 0);
}

TEST_CASE("committed_bound: where the bound is a lower bound, and a clean leader's guarantee",
          "[recovery_plan][committed]") {
  Outage o;
  const std::vector<const PartitionReplica*> known{&o.b1, &o.b2, &o.b3};
  // Broker 2 shares 0..9 with broker 3 (HW 15): committed below 10, not broker 2's own 5.
  CommittedBound b = committed_bound(o.b2, known, false);
  CHECK(b.below == 10);
  // Every fixture broker crashed (no .kafka_cleanshutdown): a doubt per replica, each no
  // further than what that replica shares with broker 2 (ReplicaManager checkpoints the high
  // watermark every replica.high.watermark.checkpoint.interval.ms and at a clean shutdown).
  REQUIRE(b.doubts.size() == 3);
  for (const auto& d : b.doubts)
    CHECK(d.below >= 5);
  // Elected from the ISR: Kafka's guarantee, no doubt.
  CHECK(committed_bound(o.b2, known, true).doubts.empty());
  // Broker 3 recorded 20 above its log end 15 (writes lost in a crash): a follower sharing
  // all of broker 3's log may hold those committed records: a doubt from 15 to 20.
  PartitionReplica longer = replica_of("b4", {{0, 4, 1, 11}, {5, 9, 1, 12}, {10, 19, 1, 13}}, 0);
  longer.clean_shutdown = true;
  for (PartitionReplica* r : {&o.b1, &o.b2, &o.b3})
    r->clean_shutdown = true;
  o.b3.high_watermark = 20;
  b = committed_bound(longer, {&o.b3, &longer}, false);
  CHECK(b.below == 15);
  REQUIRE(b.doubts.size() == 1);
  CHECK(b.doubts[0].from == 15);
  CHECK(b.doubts[0].below == 20);
}

TEST_CASE(
    "a missing ISR member is not a replica that holds nothing: its committed end is unknown, "
    "the plan waits for it and never says loses nothing",
    "[recovery_plan][unknown]") {
  // The outage: broker 3, the last ISR member, alone holds the newest committed
  // records; its state is not given. Kafka elects it cleanly once it is back
  // (PartitionChangeBuilder: an ISR member first) and it keeps every committed record;
  // electing broker 2 uncleanly first truncated broker 3 when it came back (its fetcher's
  // divergence check), losing committed acks=all records on real Kafka.
  Outage o;
  PlanPartitionInput in = o.partition();
  in.replicas.erase(3);
  PlanInput input;
  input.live_brokers = {1, 2};
  input.partitions = {in};
  RecoveryPlan plan = plan_recovery(input);
  const PartitionPlan& p = plan.partitions[0];
  CHECK(p.unknown_holders == std::vector<std::int32_t>{3});
  CHECK(p.kind == RecommendationKind::wait_for_broker);
  CHECK(p.chosen == 3);
  CHECK_FALSE(p.chosen_candidate());
  CHECK(p.kafka_choice == 1);  // Kafka's unclean rule among the live ones, if asked
  for (const auto& c : p.candidates) {
    CHECK_FALSE(c.loss_known);         // a lower bound
    CHECK(c.committed_loss_possible);  // broker 3 may hold committed records they lack
  }
  // Started first, elected by Kafka itself: no unclean election for it.
  REQUIRE(plan.start_order.size() == 1);
  CHECK(plan.start_order[0].broker == 3);
  CHECK(plan.start_order[0].phase == StartPhase::first);
  CHECK_FALSE(plan.totals.complete);
  CHECK_FALSE(plan.totals.safe());  // exit 1: a state it rests on is not known
  CHECK(plan.totals.plan_committed_loss_partitions == 0);  // waiting for the ISR loses none

  // Named gone: nobody to wait for; broker 2 is the best known, but a committed loss cannot
  // be ruled out and its count is a lower bound.
  input.gone_brokers = {3};
  plan = plan_recovery(input);
  CHECK(plan.partitions[0].kind == RecommendationKind::elect_unclean);
  CHECK(plan.partitions[0].chosen == 2);
  CHECK(plan.partitions[0].chosen_candidate()->committed_loss_possible);
  CHECK_FALSE(plan.partitions[0].chosen_candidate()->loss_known);
  CHECK(plan.totals.plan_committed_loss_partitions == 1);

  // At a total outage (nothing live), the same: wait for broker 3.
  input.gone_brokers = {};
  input.live_brokers = {};
  plan = plan_recovery(input);
  CHECK(plan.partitions[0].kind == RecommendationKind::wait_for_broker);
  CHECK(plan.partitions[0].chosen == 3);
  CHECK(plan.partitions[0].kafka_choice == 3);  // once back, cleanly
  CHECK(plan.partitions[0].kafka_choice_clean);
}

TEST_CASE("a missing replica outside the ISR: counts are lower bounds, the ISR member is safe",
          "[recovery_plan][unknown]") {
  Outage o;
  PlanPartitionInput in = o.partition();
  in.replicas.erase(1);
  PlanInput input;
  input.live_brokers = {2};
  input.partitions = {in};
  const RecoveryPlan plan = plan_recovery(input);
  const PartitionPlan& p = plan.partitions[0];
  CHECK(p.unknown_holders.empty());  // not in the ISR: it holds no committed record 3 lacks
  CHECK(p.kind == RecommendationKind::wait_for_broker);
  CHECK(p.chosen == 3);
  REQUIRE(p.chosen_candidate());
  CHECK_FALSE(p.chosen_candidate()->committed_loss_possible);
  CHECK_FALSE(p.chosen_candidate()->loss_known);
  CHECK_FALSE(plan.totals.complete);
  CHECK_FALSE(plan.totals.safe());
}

TEST_CASE(
    "a stale metadata is detected as diff --metadata detects it: epochs it never issued, a "
    "leader it calls live whose own state shows a shutdown",
    "[recovery_plan][stale]") {
  // A dead broker's own copy of the metadata log cannot show its own fencing nor what was
  // elected after it stopped (epoch_agreement's check_epoch_cache).
  Outage o;
  o.b3 = replica_of("b3", {{0, 4, 1, 11}, {5, 9, 1, 12}, {10, 14, 3, 13}}, 15);
  PlanPartitionInput in = o.partition();
  in.replicas[3] = &o.b3;
  in.state.leader = 3;  // live, says the log
  in.issued_epochs = {{0, 1}, {1, 3}};
  in.leader_epoch_known = true;
  PlanInput input;
  input.live_brokers = {1, 2, 3};
  input.partitions = {in};
  RecoveryPlan plan = plan_recovery(input);
  REQUIRE(plan.partitions[0].metadata_findings.size() == 1);
  CHECK(plan.partitions[0].metadata_findings[0].find("leader epoch 3") != std::string::npos);
  CHECK(plan.partitions[0].kind == RecommendationKind::healthy);
  CHECK(plan.totals.stale_partitions == 1);
  CHECK_FALSE(plan.totals.safe());
  // Epoch 3 issued, but without a leader: no replica can hold records of it.
  input.partitions[0].issued_epochs = {{0, 1}, {1, 3}, {3, kNoLeader}};
  plan = plan_recovery(input);
  REQUIRE(plan.partitions[0].metadata_findings.size() == 1);
  CHECK(plan.partitions[0].metadata_findings[0].find("without a leader") != std::string::npos);
  // Issued with a leader: current.
  input.partitions[0].issued_epochs = {{0, 1}, {1, 3}, {3, 3}};
  input.partitions[0].state.leader_epoch = 3;
  plan = plan_recovery(input);
  CHECK(plan.partitions[0].metadata_findings.empty());
  CHECK(plan.totals.safe());
  // The leader's own state shows a clean shutdown (a running broker deletes the marker).
  o.b3.clean_shutdown = true;
  plan = plan_recovery(input);
  REQUIRE(plan.partitions[0].metadata_findings.size() == 1);
  CHECK(plan.partitions[0].metadata_findings[0].find("shut down") != std::string::npos);
  CHECK_FALSE(plan.totals.safe());
  // ...unless the metadata is the live cluster's answer, which is current.
  input.partitions[0].live_metadata = true;
  CHECK(plan_recovery(input).totals.safe());
}
