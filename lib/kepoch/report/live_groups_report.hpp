#pragma once
// The report of `kepoch cluster groups`: the groups the brokers list (ListGroups) and each
// one's committed offsets with their leader epochs (OffsetFetch, KIP-320):
//   {"summary", "groups_listed", "complete", "groups": [{"group", "type", "state",
//      "protocol_type", "error"}], "offsets": [{"group", "topic", "partition",
//      "committed_offset", "leader_epoch", "metadata", "error"}], "warnings": [...]}
// leader_epoch is null when the commit carries none (a client without KIP-320, or -1);
// error is null, or the Kafka error name (or "not_asked" when the coordinator could not be
// asked). complete is false when a broker failed ListGroups: a group may be missing.

#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "kepoch/cluster/protocol/groups.hpp"
#include "kepoch/report/value.hpp"

namespace kepoch::report {

struct LiveGroups {
  std::vector<cluster::protocol::ListedGroup> groups;
  bool complete = true;
  std::vector<cluster::protocol::GroupOffsets> offsets;
  std::vector<std::string> warnings;
};

// Offsets of topics outside `topic` (whole-name match) are left out.
Value live_groups_value(const LiveGroups& g, const std::optional<std::regex>& topic);

// Whether every listed group's offsets were read and every broker listed its groups.
bool live_groups_complete(const LiveGroups& g);

}  // namespace kepoch::report
