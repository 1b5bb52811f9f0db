#pragma once
// DescribeCluster (api key 60), typed: the cluster id, the active controller and the
// brokers (or controllers, endpoint type 2), fenced ones included on request (v2+).
// Mirrors DescribeClusterRequest and DescribeClusterResponse of Kafka's clients.

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "kepoch/cluster/protocol/value.hpp"

namespace kepoch::cluster::protocol {

inline constexpr std::int8_t kBrokerEndpoints = 1;
inline constexpr std::int8_t kControllerEndpoints = 2;  // v1+

// endpoint_type is v1+ and include_fenced_brokers v2+: either is an error below when not
// at its default (brokers, false). include_cluster_authorized_operations (v0+) asks the
// broker for the operations on the cluster resource this principal may perform.
Struct make_describe_cluster_request(bool include_fenced_brokers = false,
                                     std::int8_t endpoint_type = kBrokerEndpoints,
                                     bool include_cluster_authorized_operations = false);

// AclOperation codes (org.apache.kafka.common.acl.AclOperation) of the cluster resource's
// supported operations (AclEntry.supportedOperations(CLUSTER)): a broker without an
// authorizer answers all of them (AuthHelper.authorizedOperations), as it does to a super user.
inline constexpr std::int32_t kAllClusterOperations =
    (1 << 5) | (1 << 7) | (1 << 8) | (1 << 9) | (1 << 10) | (1 << 11) | (1 << 12);

struct ClusterNode {
  std::int32_t broker_id = 0;
  std::string host;
  std::int32_t port = 0;
  std::optional<std::string> rack;
  bool is_fenced = false;  // v2+
};

struct DescribeClusterResponse {
  std::int32_t throttle_time_ms = 0;
  std::int16_t error_code = 0;
  std::optional<std::string> error_message;
  std::int8_t endpoint_type = kBrokerEndpoints;
  std::string cluster_id;
  std::int32_t controller_id = -1;
  std::vector<ClusterNode> brokers;
  // A 32-bit field of AclOperation codes; INT32_MIN when not asked for.
  std::int32_t cluster_authorized_operations = -2147483647 - 1;

  static DescribeClusterResponse from(const Struct& body);
};

}  // namespace kepoch::cluster::protocol
