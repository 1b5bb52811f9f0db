#include "kepoch/forecast/group_fate.hpp"

#include <algorithm>

#include "kepoch/epoch/truncation.hpp"

namespace kepoch::forecast {
namespace {

std::int32_t latest_epoch_of(const PartitionReplica& r) {
  return r.loaded.cache.latest_epoch().value_or(-1);
}

}  // namespace

void set_leader_view(PartitionGroupFates& out, ReplicaLog view, std::int32_t epoch) {
  if (view.cache.latest_epoch().value_or(-1) < epoch) become_leader(view, epoch);
  out.leader.cache = view.cache;
  out.leader.log_start_offset = view.log_start_offset;
  out.leader.log_end_offset = view.log_end_offset;
  out.leader.latest_offset = view.log_end_offset;
  out.leader_epoch = view.cache.latest_epoch().value_or(epoch);
}

PartitionGroupFates group_fates_of(const PartitionReplica& leader,
                                   const std::vector<FateFollower>& followers,
                                   const CommittedOffsets& offsets,
                                   const std::vector<OffsetResetPolicy>& policies,
                                   ConsumerClient client) {
  PartitionGroupFates out;
  out.client = client;
  out.topic = leader.topic;
  out.partition = leader.partition;

  // The new leader as consumers meet it: elected at an epoch above every other replica's.
  std::int32_t highest = -1;  // of the other replicas
  for (const auto& f : followers)
    highest = std::max(highest, latest_epoch_of(*f.replica));
  set_leader_view(out, leader.as_leader, highest + 1);

  // The log consumers read before: the follower whose truncation removes the most (the old
  // leader, which took records no other replica has); none removing anything, the leader's.
  const PartitionReplica* previous = &leader;
  std::int64_t removed = 0;
  std::int64_t divergence = leader.log_end_offset;
  for (const auto& f : followers) {
    const auto& r = *f.replica;
    const std::int64_t cut = std::min(r.log_end_offset, f.truncate_to);
    const std::int64_t n = r.log_end_offset - cut;
    if (n > removed || (n == removed && n > 0 && r.log_end_offset > previous->log_end_offset)) {
      previous = f.replica;
      removed = n;
      divergence = cut;
    }
  }
  out.previous_leader = previous->dir.string();
  out.previous_is_leader = previous == &leader;
  out.consumed = {divergence, previous->log_end_offset};

  for (auto it = offsets.offsets.begin(); it != offsets.offsets.end(); ++it) {
    const auto& [key, committed] = *it;
    if (key.topic != out.topic || key.partition != out.partition) continue;
    GroupFate g;
    g.group = key.group;
    if (offsets.pending_keys.count(key) == 0) {
      g.committed = committed;
      for (auto policy : policies)
        g.outcomes.push_back(
            {policy, consumer_fate(out.leader, out.consumed,
                                   {committed.offset, committed.leader_epoch}, policy, client)});
    }
    out.groups.push_back(std::move(g));
  }
  // Groups whose only commit here awaits its transaction's marker.
  for (const auto& key : offsets.pending_keys) {
    if (key.topic != out.topic || key.partition != out.partition) continue;
    if (offsets.offsets.count(key)) continue;
    out.groups.push_back({key.group, std::nullopt, {}, {}});
  }
  std::sort(out.groups.begin(), out.groups.end(),
            [](const GroupFate& a, const GroupFate& b) { return a.group < b.group; });
  return out;
}

PartitionGroupFates group_fates(const PartitionPrediction& p, const CommittedOffsets& offsets,
                                const std::vector<OffsetResetPolicy>& policies,
                                ConsumerClient client) {
  std::vector<FateFollower> followers;
  for (const auto& f : p.followers)
    if (!f.forecasts.empty())
      followers.push_back({&p.replicas[f.replica], f.forecasts.front().prediction.truncate_to});
  return group_fates_of(p.replicas.front(), followers, offsets, policies, client);
}

}  // namespace kepoch::forecast
