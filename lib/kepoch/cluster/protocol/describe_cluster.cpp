#include "kepoch/cluster/protocol/describe_cluster.hpp"

#include "kepoch/cluster/protocol/messages.hpp"

namespace kepoch::cluster::protocol {

Struct make_describe_cluster_request(bool include_fenced_brokers, std::int8_t endpoint_type,
                                     bool include_cluster_authorized_operations) {
  Struct body = make_request_body(ApiKey::kDescribeCluster);
  body.set_bool("include_cluster_authorized_operations", include_cluster_authorized_operations)
      .set_int8("endpoint_type", endpoint_type)
      .set_bool("include_fenced_brokers", include_fenced_brokers);
  return body;
}

DescribeClusterResponse DescribeClusterResponse::from(const Struct& body) {
  DescribeClusterResponse out;
  out.throttle_time_ms = body.get_int32("throttle_time_ms");
  out.error_code = body.get_int16("error_code");
  out.error_message = body.get_nullable_string("error_message");
  out.endpoint_type = body.get_int8("endpoint_type");
  out.cluster_id = body.get_string("cluster_id");
  out.controller_id = body.get_int32("controller_id");
  out.cluster_authorized_operations = body.get_int32("cluster_authorized_operations");
  for (const auto& e : body.get_array("brokers")) {
    const Struct& b = e.as_struct();
    out.brokers.push_back({b.get_int32("broker_id"), b.get_string("host"), b.get_int32("port"),
                           b.get_nullable_string("rack"), b.get_bool("is_fenced")});
  }
  return out;
}

}  // namespace kepoch::cluster::protocol
