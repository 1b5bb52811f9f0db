// Pins forecast/group_fate on tests/data/consumer-fate (Kafka 4.4.0: an unclean election
// removed broker 1's offsets 10-19; broker 2 leads at epoch 2 and took 10-17): the new leader
// as consumers meet it, the log they read before, and each group's rows; what Kafka's Java
// consumer did with each group is java-consumer.out (checked whole by
// tests/cli/predict-consumer-groups.sh).
#include <catch2/catch.hpp>

#include <string>

#include "kepoch/forecast/group_fate.hpp"
#include "kepoch/storage/committed_offsets.hpp"
#include "support/source_dir.hpp"

using namespace kepoch;
using namespace kepoch::forecast;

namespace {

std::string fixture(const std::string& path) {
  return std::string(KEPOCH_SOURCE_DIR) + "/tests/data/consumer-fate/" + path;
}

PartitionPrediction scene() {
  std::vector<PartitionReplica> replicas;
  replicas.push_back(load_partition_replica(fixture("broker-2/f-0")));
  replicas.push_back(load_partition_replica(fixture("broker-1/f-0")));
  return predict_partition(std::move(replicas), {TruncationMode::fetch}, nullptr);
}

const GroupFate& group(const PartitionGroupFates& f, const std::string& name) {
  for (const auto& g : f.groups)
    if (g.group == name) return g;
  FAIL("no group " << name);
  throw;
}

}  // namespace

TEST_CASE(
    "group fates after Kafka 4.4.0's unclean election: the leader consumers meet and the "
    "log they read",
    "[group_fate]") {
  const CommittedOffsets offsets = read_committed_offsets(fixture("broker-1"));
  CHECK(offsets.offsets.size() == 24);
  const auto f = group_fates(
      scene(), offsets,
      {OffsetResetPolicy::earliest, OffsetResetPolicy::latest, OffsetResetPolicy::none});
  CHECK(f.topic == "f");
  // Broker 2 leads at epoch 2 already (its cache {0:0, 2:10}): no epoch added.
  CHECK(f.leader_epoch == 2);
  CHECK(f.leader.log_end_offset == 18);
  CHECK(f.leader.latest_offset == 18);
  // Broker 1 (the old leader) truncates to 10: consumers read 0-19 from it.
  CHECK_FALSE(f.previous_is_leader);
  CHECK(f.consumed.divergence_offset == 10);
  CHECK(f.consumed.log_end_offset == 20);
  CHECK(f.groups.size() == 24);

  // j-past-e0: committed 20 at epoch 0. Kafka's consumer: position 10 (earliest, latest),
  // LogTruncationException divergent=10 (none).
  const auto& past = group(f, "j-past-e0-none");
  REQUIRE(past.outcomes.size() == 3);
  CHECK(past.outcomes[0].fate.action == FateAction::truncation_seek);
  CHECK(past.outcomes[0].fate.next_position == 10);
  CHECK(past.outcomes[2].fate.action == FateAction::log_truncation_exception);
  CHECK(past.outcomes[2].fate.divergent_offset == 10);
  CHECK(past.outcomes[2].fate.consumed_lost.count() == 10);
  // j-inside-e1: committed 15 without an epoch: position 15, 10-14 passed over.
  const auto& inside = group(f, "j-inside-e1-latest");
  CHECK(inside.outcomes[1].fate.action == FateAction::silent_skip);
  CHECK(inside.outcomes[1].fate.skipped_unseen.count() == 5);
}

TEST_CASE("group fates with --elect: the elected leader's new epoch, the same outcomes",
          "[group_fate]") {
  std::vector<PartitionReplica> replicas;
  replicas.push_back(load_partition_replica(fixture("broker-2/f-0")));
  replicas.push_back(load_partition_replica(fixture("broker-1/f-0")));
  Election e;  // an unclean election of broker 2, as Kafka ran it
  e.change.election.unclean = true;
  const auto p = predict_partition(std::move(replicas), {TruncationMode::fetch}, &e);
  const auto f =
      group_fates(p, read_committed_offsets(fixture("broker-1")), {OffsetResetPolicy::earliest});
  CHECK(f.leader_epoch == 3);  // above every epoch the replicas hold
  CHECK(group(f, "j-past-e0-earliest").outcomes[0].fate.next_position == 10);
}

TEST_CASE("a group whose transactional commit awaits its marker is unknown, never safe",
          "[group_fate]") {
  CommittedOffsets offsets = read_committed_offsets(fixture("broker-1"));
  offsets.pending_keys.insert({"j-below-e0-none", "f", 0});
  offsets.pending_keys.insert({"txn-only", "f", 0});
  const auto f = group_fates(scene(), offsets, {OffsetResetPolicy::none});
  CHECK_FALSE(group(f, "j-below-e0-none").committed);
  CHECK(group(f, "j-below-e0-none").outcomes.empty());
  CHECK_FALSE(group(f, "txn-only").committed);
  CHECK(f.groups.size() == 25);
}
