#pragma once
// Which controller runs the cluster: the KRaft quorum, or a broker elected controller
// through ZooKeeper (Kafka 3.9 and older). The rules of leaders and leader epochs differ
// between the two (stop_forecast, zk_controller), and so does where a broker keeps its
// metadata. Read from the broker that answered Metadata, without I/O:
//   KRaft      its ApiVersions answer finalizes metadata.version (FinalizedFeatures puts
//              the metadata version in the map in KRaft mode and takes it out in ZooKeeper
//              mode), or, for brokers without finalized features, it does not serve the
//              ZooKeeper-mode inter-broker API LeaderAndIsr;
//   ZooKeeper  no finalized metadata.version and it serves LeaderAndIsr (api key 4), which
//              only a ZooKeeper-mode broker lists (LeaderAndIsrRequest.json: listeners
//              ["zkBroker"]); the controller is the broker Metadata names (controller_id:
//              the /controller znode's broker), -1 while none is elected.
// In KRaft mode Metadata's controller id is a random alive broker (for clients), not the
// active controller, so no id is given for it.

#include <cstdint>
#include <string>

#include "kepoch/live/cluster_view.hpp"

namespace kepoch::live {

enum class ControllerKind { kraft, zookeeper, unknown };

std::string_view controller_kind_name(ControllerKind kind);  // "kraft", "zookeeper", "unknown"

struct ControllerMode {
  ControllerKind kind = ControllerKind::unknown;
  // ZooKeeper mode: the controller broker (Metadata's controller_id); -1: none elected, or
  // not ZooKeeper mode.
  std::int32_t controller_id = -1;
  std::string basis;  // one sentence: what the kind was read from
};

ControllerMode controller_mode(const ClusterView& view);

// "KRaft", "ZooKeeper mode (controller 1)", "ZooKeeper mode (no controller elected)",
// "unknown".
std::string controller_mode_text(const ControllerMode& mode);

}  // namespace kepoch::live
