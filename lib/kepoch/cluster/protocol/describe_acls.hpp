#pragma once
// DescribeAcls (api key 29), typed for the one question kepoch asks of it: is an authorizer
// configured? Kafka answers SECURITY_DISABLED when none is (AclApis.handleDescribeAcls,
// after checking Describe on the cluster, which a broker without an authorizer allows), and
// the matching ACLs otherwise. Mirrors DescribeAclsRequest and DescribeAclsResponse of
// Kafka's clients.

#include <cstdint>
#include <optional>
#include <string>

#include "kepoch/cluster/protocol/value.hpp"

namespace kepoch::cluster::protocol {

// A filter matching only the ACLs on the cluster resource itself (type CLUSTER, name
// "kafka-cluster", LITERAL pattern, any principal, host, operation and permission): a short
// answer however many ACLs the cluster has.
Struct make_cluster_acls_request();

struct DescribeAclsResponse {
  std::int32_t throttle_time_ms = 0;
  std::int16_t error_code = 0;
  std::optional<std::string> error_message;
  std::int32_t resource_count = 0;

  static DescribeAclsResponse from(const Struct& body);
};

}  // namespace kepoch::cluster::protocol
