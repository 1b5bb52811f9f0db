#include "kepoch/forecast/election_forecast.hpp"

#include <algorithm>

#include <fmt/format.h>

#include "kepoch/base/error.hpp"
#include "kepoch/storage/broker_identity.hpp"

namespace kepoch::forecast {
namespace {

// Each argument is one broker's replica: two with one id are two copies of one broker's
// (Kafka holds one replica of a partition per broker), refused as diff and predict refuse them.
void refuse_repeated_ids(const std::vector<std::string>& arguments,
                         const std::vector<std::int32_t>& ids) {
  for (std::size_t i = 0; i < ids.size(); ++i)
    for (std::size_t j = 0; j < i; ++j)
      if (ids[i] == ids[j])
        throw UsageError(fmt::format(
            "{} and {} are both broker {}'s: a partition has one replica per broker; compare "
            "replicas from different brokers",
            arguments[j], arguments[i], ids[i]));
}

// The elected replica leads at a new epoch above every epoch the replicas hold, and adds it
// to its cache as Partition.makeLeader does.
std::int32_t elect_leader_epoch(std::vector<PartitionReplica>& replicas) {
  std::int32_t epoch = 0;
  for (const auto& r : replicas)
    if (const auto latest = r.loaded.cache.latest_epoch()) epoch = std::max(epoch, *latest + 1);
  become_leader(replicas.front().as_leader, epoch);
  return epoch;
}

}  // namespace

std::vector<std::int32_t> argument_broker_ids(const std::vector<std::string>& arguments,
                                              const std::vector<std::int32_t>& given) {
  if (!given.empty()) {
    if (given.size() != arguments.size())
      throw UsageError(
          fmt::format("--ids gives {} broker ids for {} dirs", given.size(), arguments.size()));
    refuse_repeated_ids(arguments, given);
    return given;
  }
  std::vector<std::int32_t> ids;
  for (const auto& dir : arguments) {
    const auto id = broker_id_of_replica_dir(dir);
    if (!id)
      throw UsageError(
          fmt::format("{}: no broker id (its log dir has no meta.properties with "
                      "node.id); give the ids with --ids",
                      dir));
    ids.push_back(*id);
  }
  refuse_repeated_ids(arguments, ids);
  return ids;
}

Election elect_among(const std::vector<std::string>& arguments, const ElectionSetting& s) {
  Election e;
  e.ids = argument_broker_ids(arguments, s.ids);
  e.before.replicas = s.replicas.empty() ? e.ids : s.replicas;
  e.before.isr = s.isr;
  e.before.elr = s.elr;
  e.request.target_isr = s.isr;
  const auto& alive = s.alive.empty() ? e.ids : s.alive;
  e.request.acceptable = {alive.begin(), alive.end()};
  e.request.election = s.preferred ? ElectionType::preferred
                       : s.unclean ? ElectionType::unclean
                                   : ElectionType::online;
  e.request.elr_enabled = !s.elr.empty();
  e.request.min_isr = s.min_isr;
  e.change = change_partition(e.before, e.request);
  const std::int32_t leader_id = e.change.election.node;
  if (leader_id == kNoLeader) return e;
  const auto at = std::find(e.ids.begin(), e.ids.end(), leader_id);
  if (at == e.ids.end())
    throw UsageError(
        fmt::format("broker {} would lead, but none of the arguments is its replica", leader_id));
  e.leader_argument = static_cast<std::size_t>(at - e.ids.begin());
  return e;
}

void keep_divergent_batches(ReplicaForecast& f, const ReplicaComparison& c,
                            const PartitionReplica& follower) {
  if (!c.fork_by_batches || f.fails() || f.prediction.truncated_fully) return;
  const std::int64_t keeps_until = std::min(f.prediction.truncate_to, follower.log_end_offset);
  if (*c.fork_by_batches >= keeps_until) return;
  f.committed_loss_unknown = true;
  f.kept_divergent_range = std::make_pair(*c.fork_by_batches, keeps_until - 1);
  f.unanswered.push_back(fmt::format(
      "whether records are lost: {} keeps the batches from offset {} to {} although they differ "
      "from the leader's (the epoch caches do not tell them apart, so Kafka's truncation does "
      "not remove them): the replicas stay diverged there",
      follower.dir.string(), *c.fork_by_batches, keeps_until - 1));
}

namespace {

PartitionPrediction predict_partition_reading(std::vector<PartitionReplica> replicas,
                                              const std::vector<TruncationMode>& modes,
                                              const Election* election,
                                              const LeaderBatchReader& leader_batches,
                                              RemovedTailRead tail,
                                              ReplicaComparisons comparisons) {
  PartitionPrediction p;
  p.replicas = std::move(replicas);
  if (election) p.new_leader_epoch = elect_leader_epoch(p.replicas);
  const PartitionReplica& leader = p.replicas.front();
  // A leader elected cleanly (from the ISR or ELR) holds every committed record, so the
  // followers' lost records above their recorded high watermarks were not committed; any
  // other leader (--leader, an unclean election), or a clean one whose own checkpoint shows
  // committed records gone from it, leaves that open (high_watermark_doubts).
  const bool leader_clean = leader_holds_committed(leader, election && election->clean());
  // Committed records are those every replica's high watermark commits in its own lineage
  // (committed_bound): the same rule, over the same replicas, as `kepoch plan`.
  std::vector<const PartitionReplica*> known;
  for (const auto& r : p.replicas)
    known.push_back(&r);
  p.truncate_to.push_back(std::nullopt);
  const LeaderBatchLookup lookup = [&](std::int64_t from, std::int64_t until) {
    return leader_batches(leader, from, until);
  };
  const LeaderBatchLookup* batches = leader_batches ? &lookup : nullptr;
  for (std::size_t i = 1; i < p.replicas.size(); ++i) {
    FollowerPrediction fp;
    fp.replica = i;
    const bool compared = comparisons == ReplicaComparisons::made;
    if (compared) fp.comparison = compare_replicas(p.replicas, i, 0);
    for (auto mode : modes) {
      fp.forecasts.push_back(forecast_follower(leader, leader.as_leader, p.replicas[i], known, mode,
                                               leader_clean, batches, tail));
      if (compared) keep_divergent_batches(fp.forecasts.back(), fp.comparison, p.replicas[i]);
    }
    const ReplicaForecast& main = fp.forecasts.front();
    p.committed_loss = p.committed_loss || main.committed_loss_possible() || main.fails_possible();
    p.truncate_to.push_back(main.prediction.truncate_to);
    p.followers.push_back(std::move(fp));
  }
  return p;
}

}  // namespace

PartitionPrediction predict_partition(std::vector<PartitionReplica> replicas,
                                      const std::vector<TruncationMode>& modes,
                                      const Election* election) {
  return predict_partition_reading(std::move(replicas), modes, election, {},
                                   RemovedTailRead::counted, ReplicaComparisons::made);
}

TruncationPredictions predict_truncations(std::vector<std::vector<PartitionReplica>> groups,
                                          const std::vector<TruncationMode>& modes,
                                          Election* election,
                                          const LeaderBatchReader& leader_batches,
                                          RemovedTailRead tail, ReplicaComparisons comparisons) {
  TruncationPredictions out;
  for (auto& replicas : groups) {
    out.partitions.push_back(predict_partition_reading(std::move(replicas), modes, election,
                                                       leader_batches, tail, comparisons));
    out.committed_loss = out.committed_loss || out.partitions.back().committed_loss;
    if (election) election->new_leader_epoch = out.partitions.back().new_leader_epoch;
  }
  return out;
}

bool loses_records(const TruncationPredictions& predictions) {
  for (const auto& p : predictions.partitions)
    for (const auto& f : p.followers) {
      const ReplicaForecast& main = f.forecasts.front();
      if (main.lost_records > 0 || main.lost_unknown_records > 0 ||
          (!main.lost_counted && main.removed_records > 0))
        return true;
    }
  return false;
}

}  // namespace kepoch::forecast
