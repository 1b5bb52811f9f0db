#include "kepoch/cluster/protocol/metadata.hpp"

#include "kepoch/base/error.hpp"
#include "kepoch/cluster/protocol/messages.hpp"

namespace kepoch::cluster::protocol {
namespace {

MetadataPartition partition_from(const Struct& p) {
  MetadataPartition out;
  out.error_code = p.get_int16("error_code");
  out.partition_index = p.get_int32("partition_index");
  out.leader_id = p.get_int32("leader_id");
  out.leader_epoch = p.get_int32("leader_epoch");
  out.replica_nodes = p.get_int32_array("replica_nodes");
  out.isr_nodes = p.get_int32_array("isr_nodes");
  out.offline_replicas = p.get_int32_array("offline_replicas");
  return out;
}

MetadataTopic topic_from(const Struct& t) {
  MetadataTopic out;
  out.error_code = t.get_int16("error_code");
  out.name = t.get_nullable_string("name");
  out.topic_id = t.get_uuid("topic_id");
  out.is_internal = t.get_bool("is_internal");
  for (const auto& p : t.get_array("partitions"))
    out.partitions.push_back(partition_from(p.as_struct()));
  return out;
}

}  // namespace

Struct make_metadata_request(std::int16_t version,
                             const std::optional<std::vector<std::string>>& topics) {
  Struct body = make_request_body(ApiKey::kMetadata);
  if (!topics) {
    if (version >= 1) body.set_null("topics");  // v0: the empty default means every topic
  } else {
    if (version == 0 && topics->empty()) {
      throw ProtocolError("MetadataRequest v0", "topics",
                          "expected at least one topic: an empty array asks for every topic");
    }
    for (const auto& name : *topics)
      body.add_element("topics").set_string("name", name);
  }
  if (version >= 4) body.set_bool("allow_auto_topic_creation", false);
  return body;
}

MetadataResponse MetadataResponse::from(const Struct& body) {
  MetadataResponse out;
  out.throttle_time_ms = body.get_int32("throttle_time_ms");
  for (const auto& e : body.get_array("brokers")) {
    const Struct& b = e.as_struct();
    out.brokers.push_back({b.get_int32("node_id"), b.get_string("host"), b.get_int32("port"),
                           b.get_nullable_string("rack")});
  }
  out.cluster_id = body.get_nullable_string("cluster_id");
  out.controller_id = body.get_int32("controller_id");
  for (const auto& t : body.get_array("topics"))
    out.topics.push_back(topic_from(t.as_struct()));
  out.error_code = body.get_int16("error_code");
  return out;
}

}  // namespace kepoch::cluster::protocol
