#include "kepoch/cluster/protocol/describe_acls.hpp"

#include "kepoch/cluster/protocol/messages.hpp"

namespace kepoch::cluster::protocol {

namespace {
// org.apache.kafka.common.resource.ResourceType, PatternType and org.apache.kafka.common.acl
// AclOperation / AclPermissionType codes.
constexpr std::int8_t kClusterResource = 4;
constexpr std::int8_t kLiteralPattern = 3;
constexpr std::int8_t kAny = 1;
}  // namespace

Struct make_cluster_acls_request() {
  Struct body = make_request_body(ApiKey::kDescribeAcls);
  body.set_int8("resource_type_filter", kClusterResource)
      .set_string("resource_name_filter", "kafka-cluster")
      .set_int8("pattern_type_filter", kLiteralPattern)
      .set_null("principal_filter")
      .set_null("host_filter")
      .set_int8("operation", kAny)
      .set_int8("permission_type", kAny);
  return body;
}

DescribeAclsResponse DescribeAclsResponse::from(const Struct& body) {
  DescribeAclsResponse out;
  out.throttle_time_ms = body.get_int32("throttle_time_ms");
  out.error_code = body.get_int16("error_code");
  out.error_message = body.get_nullable_string("error_message");
  out.resource_count = static_cast<std::int32_t>(body.get_array("resources").size());
  return out;
}

}  // namespace kepoch::cluster::protocol
