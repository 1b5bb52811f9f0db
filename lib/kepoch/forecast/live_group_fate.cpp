#include "kepoch/forecast/live_group_fate.hpp"

#include <algorithm>
#include <map>

#include <fmt/format.h>

#include "kepoch/cluster/cluster_client.hpp"

namespace kepoch::forecast {
namespace {

// The rows of the groups on one partition: each committed offset's fate under each policy
// (consumed: the log read before, nullopt when not given), each unknown offset, each unread
// group.
void add_groups(PartitionGroupFates& out, const LiveGroupOffsets& live,
                const std::vector<OffsetResetPolicy>& policies,
                const std::optional<ConsumedLog>& consumed, const std::string* leader_unknown) {
  std::map<std::string, GroupFate> by_group;
  for (const auto& [key, committed] : live.offsets.offsets) {
    if (key.topic != out.topic || key.partition != out.partition) continue;
    GroupFate g;
    g.group = key.group;
    if (leader_unknown) {
      g.unknown_reason = *leader_unknown;
    } else {
      g.committed = committed;
      for (auto policy : policies)
        g.outcomes.push_back(
            {policy, consumer_fate(out.leader, consumed, {committed.offset, committed.leader_epoch},
                                   policy, out.client)});
    }
    by_group[g.group] = std::move(g);
  }
  for (const auto& key : live.offsets.pending_keys) {
    if (key.topic != out.topic || key.partition != out.partition) continue;
    by_group[key.group] = {key.group,
                           std::nullopt,
                           {},
                           "the coordinator answered this partition's committed offset with an "
                           "error: the offset the group fetches from is not known"};
  }
  // A group whose offsets could not be read may have one here.
  for (const auto& group : live.unread_groups)
    by_group[group] = {group, std::nullopt, {}, live.unread_reason};
  for (auto& [name, g] : by_group)
    out.groups.push_back(std::move(g));
}

}  // namespace

LiveGroupOffsets live_group_offsets(const std::vector<std::string>& listed,
                                    const std::vector<cluster::protocol::GroupOffsets>& fetched,
                                    bool listing_complete) {
  LiveGroupOffsets out;
  out.complete = listing_complete;
  out.unread_reason =
      "its committed offsets could not be read (no coordinator answered OffsetFetch): the "
      "offset it fetches from here, if any, is not known";
  std::set<std::string> answered;
  for (const auto& g : fetched) {
    if (g.error_code != 0) {
      out.unread_groups.insert(g.group_id);
      continue;
    }
    answered.insert(g.group_id);
    for (const auto& o : g.offsets) {
      const GroupTopicPartition key{g.group_id, o.topic, o.partition};
      if (o.error_code != 0) {
        out.offsets.pending_keys.insert(key);
        continue;
      }
      if (o.committed_offset < 0) continue;  // OffsetFetch's -1: no offset committed
      CommittedOffset c;
      c.offset = o.committed_offset;
      if (o.committed_leader_epoch >= 0) c.leader_epoch = o.committed_leader_epoch;
      c.metadata = o.metadata.value_or("");
      out.offsets.offsets[key] = c;
    }
  }
  for (const auto& id : listed)
    if (!answered.contains(id)) out.unread_groups.insert(id);
  return out;
}

LiveGroupOffsets read_live_group_offsets(cluster::ClusterClient& client,
                                         std::vector<std::string>& warnings) {
  auto listing = client.list_groups();
  for (auto& w : listing.warnings)
    warnings.push_back(std::move(w));
  std::vector<std::string> ids;
  for (const auto& g : listing.groups)
    ids.push_back(g.group_id);
  const auto fetched = client.committed_offsets(ids, warnings);
  return live_group_offsets(ids, fetched, listing.complete);
}

PartitionGroupFates elected_group_fates(const PartitionReplica& leader, std::int32_t leader_epoch,
                                        const LiveGroupOffsets& offsets,
                                        const std::vector<OffsetResetPolicy>& policies,
                                        ConsumerClient client) {
  PartitionGroupFates out;
  out.client = client;
  out.topic = leader.topic;
  out.partition = leader.partition;
  // The log as the returning broker loads it, then Partition.makeLeader at the new epoch.
  set_leader_view(out, leader.loaded, leader_epoch);
  out.consumed_known = false;
  out.consumed = {out.leader.log_end_offset, out.leader.log_end_offset};
  add_groups(out, offsets, policies, std::nullopt, nullptr);
  return out;
}

PartitionGroupFates unknown_group_fates(const std::string& topic, std::int32_t partition,
                                        const LiveGroupOffsets& offsets, const std::string& reason,
                                        ConsumerClient client) {
  PartitionGroupFates out;
  out.client = client;
  out.topic = topic;
  out.partition = partition;
  out.consumed_known = false;
  out.leader_epoch = -1;
  add_groups(out, offsets, {}, std::nullopt, &reason);
  return out;
}

std::vector<PartitionGroupFates> restart_group_fates(const RestartForecast& forecast,
                                                     const LiveGroupOffsets& offsets,
                                                     const std::vector<OffsetResetPolicy>& policies,
                                                     ConsumerClient client) {
  std::vector<PartitionGroupFates> out;
  for (const auto& r : forecast.partitions) {
    if (r.outcome != RestartOutcome::leads || !r.election) continue;
    out.push_back(
        elected_group_fates(r.replica, r.election->after.leader_epoch, offsets, policies, client));
  }
  return out;
}

std::vector<PartitionGroupFates> stop_group_fates(const live::StopForecast& forecast,
                                                  const LiveGroupOffsets& offsets,
                                                  ConsumerClient client) {
  std::vector<PartitionGroupFates> out;
  for (const auto& p : forecast.partitions) {
    if (!p.unclean_election) continue;
    out.push_back(unknown_group_fates(
        p.topic, p.partition, offsets,
        fmt::format("an unclean election makes broker {} leader: its log is not given here, so "
                    "whether this group's offset survives it is not known (run `kepoch cluster "
                    "predict --groups` on that broker's log dir, or `kepoch predict --offsets`)",
                    p.after.leader),
        client));
  }
  return out;
}

}  // namespace kepoch::forecast
