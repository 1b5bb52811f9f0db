#pragma once
// The report of `kepoch cluster groups`: the groups the brokers list (ListGroups) and each
// one's committed offsets with their leader epochs (OffsetFetch, KIP-320):
//   {"summary", "groups_listed", "complete", "groups": [{"group", "type", "state",
//      "protocol_type", "error"}], "offsets": [{"group", "topic", "partition",
//      "committed_offset", "leader_epoch", "metadata", "error"}], "warnings": [...]}
// leader_epoch is null when the commit carries none (a client without KIP-320, or -1);
// error is null, or the Kafka error name (or "not_asked" when the coordinator could not be
// asked). complete is false when a broker failed ListGroups: a group may be missing.
//
// Authorization (live/hidden_topics.hpp): OffsetFetch of every partition leaves out, without
// a word, the offsets of topics this principal may not Describe. "hidden_topics" names the
// topics (matching --topic) the brokers hold that Metadata withholds, each with why, and
// "hidden_topics_ruled_out" is false when others cannot be ruled out; then each group's
// "offsets_unknown" says why its offsets may be incomplete (null when they are complete or
// the group's error already says it), and complete is false. So is it when ListGroups may
// have left out groups this principal may not Describe.

#include <optional>
#include <regex>
#include <string>
#include <vector>

#include "kepoch/cluster/protocol/groups.hpp"
#include "kepoch/live/hidden_topics.hpp"
#include "kepoch/report/value.hpp"

namespace kepoch::report {

struct LiveGroups {
  std::vector<cluster::protocol::ListedGroup> groups;
  bool complete = true;
  std::vector<cluster::protocol::GroupOffsets> offsets;
  std::vector<std::string> warnings;
  live::HiddenTopics hidden;  // default: nothing withheld
};

// Offsets of topics outside `topic` (whole-name match) are left out.
Value live_groups_value(const LiveGroups& g, const std::optional<std::regex>& topic);

// Whether every listed group's offsets were read, every broker listed its groups, and no
// topic matching `topic` (nullopt: any) nor group may be withheld from this principal.
bool live_groups_complete(const LiveGroups& g, const std::optional<std::regex>& topic);

}  // namespace kepoch::report
