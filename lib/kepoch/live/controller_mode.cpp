#include "kepoch/live/controller_mode.hpp"

#include <fmt/format.h>

namespace kepoch::live {
namespace {

constexpr const char* kMetadataVersion = "metadata.version";
constexpr std::int16_t kLeaderAndIsr = 4;  // ApiKeys.LEADER_AND_ISR

}  // namespace

std::string_view controller_kind_name(ControllerKind kind) {
  switch (kind) {
    case ControllerKind::kraft:
      return "kraft";
    case ControllerKind::zookeeper:
      return "zookeeper";
    case ControllerKind::unknown:
      break;
  }
  return "unknown";
}

ControllerMode controller_mode(const ClusterView& view) {
  ControllerMode m;
  if (view.finalized_features) {
    const auto it = view.finalized_features->find(kMetadataVersion);
    if (it != view.finalized_features->end()) {
      m.kind = ControllerKind::kraft;
      m.basis = fmt::format("{}={} finalized (ApiVersions)", kMetadataVersion, it->second);
      return m;
    }
  }
  if (view.api_keys.empty()) {
    m.basis = "the broker's ApiVersions answer was not read";
    return m;
  }
  const std::string features = view.finalized_features
                                   ? fmt::format("no finalized {}", kMetadataVersion)
                                   : std::string("no finalized features (ApiVersions below v3)");
  if (view.api_keys.count(kLeaderAndIsr)) {
    m.kind = ControllerKind::zookeeper;
    m.controller_id = view.controller_id;
    m.basis = fmt::format(
        "{}, and the broker serves LeaderAndIsr (ApiVersions), which only ZooKeeper-mode "
        "brokers do; the controller is Metadata's controller_id",
        features);
    return m;
  }
  m.kind = ControllerKind::kraft;
  m.basis = fmt::format(
      "{}, and the broker does not serve LeaderAndIsr (ApiVersions), as every ZooKeeper-mode "
      "broker does",
      features);
  return m;
}

std::string controller_mode_text(const ControllerMode& mode) {
  switch (mode.kind) {
    case ControllerKind::kraft:
      return "KRaft";
    case ControllerKind::zookeeper:
      return mode.controller_id < 0
                 ? std::string("ZooKeeper mode (no controller elected)")
                 : fmt::format("ZooKeeper mode (controller {})", mode.controller_id);
    case ControllerKind::unknown:
      break;
  }
  return "unknown";
}

}  // namespace kepoch::live
