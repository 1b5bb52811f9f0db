#pragma once
// Consumer groups' fates where a live forecast elects a replica (`cluster predict`: a stopped
// broker whose replica leads when it returns, unclean or not; `cluster what-if`: a partition
// led uncleanly after the stops). The groups' committed offsets are read live (ListGroups,
// OffsetFetch: cluster::ClusterClient, as `cluster groups` reads them); the rules are
// forecast/consumer_fate's, run on the new leader's log as consumers meet it.
//
//   - the new leader's log given (the stopped broker's own replica, read from its log dir):
//     its log as Kafka loads it, with the election's leader epoch added at its log end
//     (Partition.makeLeader); the high watermark consumers reset to with `latest` is its log
//     end (the leader alone in the ISR). The log consumers read before, the old leader's, is
//     not at hand: what they consumed is known only where the committed leader epoch places
//     the divergence in the new leader's epoch history (consumer_fate with no ConsumedLog).
//   - the new leader's log not given (what-if's elected broker is another host's): every
//     group with an offset there is unknown, never unaffected;
//   - a group whose offsets could not be read (no coordinator, an error) is unknown on every
//     partition forecast, and so is a partition offset answered with an error; when some
//     broker did not list its groups, groups may exist that no row shows (complete = false).
//
// A leader change that keeps every committed record (a clean election, a follower's restart)
// changes nothing consumers see: no fate is forecast there.

#include <cstdint>
#include <set>
#include <string>
#include <vector>

#include "kepoch/cluster/protocol/groups.hpp"
#include "kepoch/forecast/group_fate.hpp"
#include "kepoch/forecast/restart_forecast.hpp"
#include "kepoch/live/stop_forecast.hpp"
#include "kepoch/storage/partition_replica.hpp"

namespace kepoch::cluster {
class ClusterClient;
}

namespace kepoch::forecast {

struct LiveGroupOffsets {
  CommittedOffsets offsets;             // pending_keys: partition offsets answered with an error
  std::set<std::string> unread_groups;  // listed, but OffsetFetch could not be answered
  std::string unread_reason;            // one sentence for their rows
  bool complete = true;                 // every broker listed its groups
};

// From ListGroups' ids and OffsetFetch's answers (ClusterClient::committed_offsets): a group
// with an error code, or none answered, is unread; offset -1 with no error is no commit.
LiveGroupOffsets live_group_offsets(const std::vector<std::string>& listed,
                                    const std::vector<cluster::protocol::GroupOffsets>& fetched,
                                    bool listing_complete);

// Every group's committed offsets, read as `cluster groups` reads them (ListGroups on every
// broker of the client's last view, OffsetFetch at each coordinator); what could not be read
// is added to `warnings`.
LiveGroupOffsets read_live_group_offsets(cluster::ClusterClient& client,
                                         std::vector<std::string>& warnings);

// The fates on `leader`'s partition when that replica (its log given) leads at
// `leader_epoch`.
PartitionGroupFates elected_group_fates(const PartitionReplica& leader, std::int32_t leader_epoch,
                                        const LiveGroupOffsets& offsets,
                                        const std::vector<OffsetResetPolicy>& policies,
                                        ConsumerClient client = ConsumerClient::java);

// The fates on a partition whose new leader's log is not given: every group with an offset
// there (and every unread group) unknown, for `reason`.
PartitionGroupFates unknown_group_fates(const std::string& topic, std::int32_t partition,
                                        const LiveGroupOffsets& offsets, const std::string& reason,
                                        ConsumerClient client = ConsumerClient::java);

// `cluster predict`'s: the fates on every partition the stopped broker leads when it returns
// (outcome leads), its replica at the election's leader epoch; by topic, then partition.
std::vector<PartitionGroupFates> restart_group_fates(const RestartForecast& forecast,
                                                     const LiveGroupOffsets& offsets,
                                                     const std::vector<OffsetResetPolicy>& policies,
                                                     ConsumerClient client = ConsumerClient::java);

// `cluster what-if`'s: every partition the stops leave led uncleanly. The elected replica's
// log is another host's, not given: each group with an offset there (and each unread group)
// is unknown. A clean election keeps every committed record: nothing to forecast there.
std::vector<PartitionGroupFates> stop_group_fates(const live::StopForecast& forecast,
                                                  const LiveGroupOffsets& offsets,
                                                  ConsumerClient client = ConsumerClient::java);

}  // namespace kepoch::forecast
