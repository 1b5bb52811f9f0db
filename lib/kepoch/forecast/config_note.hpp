#pragma once
// The plan's note on where each selected topic's unclean.leader.election.enable or
// min.insync.replicas came from (config_source.hpp): the topics with their own config by
// name, the others by source and value. A value taken from one node's own config (static or
// dynamic) or from the flags says that the nodes deciding may hold another.

#include <string>
#include <string_view>
#include <vector>

#include "kepoch/forecast/recovery_plan.hpp"

namespace kepoch::forecast {

// How the note names the metadata a value was read from, and the nodes whose own config
// decides where the metadata cannot say.
struct ConfigWhere {
  std::string read_from;    // "metadata log", "DescribeConfigs"
  std::string answered_by;  // the broker whose own config DescribeConfigs resolved
  std::string deciders;     // who applies the config, by their own config
  std::string flag;         // the flag standing for what the metadata log cannot hold
};

// Who applies each config by its own (the deciders of ConfigWhere): the active controller
// elects (ConfigurationControlManager), each partition's leader checks acks=all writes
// (Partition.appendRecordsToLeader) and the controller keeps the ELR.
inline constexpr std::string_view kUncleanDeciders = "the active controller elects by its own";
inline constexpr std::string_view kMinIsrDeciders =
    "each partition's leader refuses acks=all writes by its own, and the controller keeps the "
    "ELR by its own";

// `unclean`: the note of unclean.leader.election.enable, else of min.insync.replicas.
std::string config_note(bool unclean, const std::vector<PlanPartitionInput>& partitions,
                        const ConfigWhere& where);

}  // namespace kepoch::forecast
