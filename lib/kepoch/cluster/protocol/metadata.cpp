#include "kepoch/cluster/protocol/metadata.hpp"

#include "kepoch/base/error.hpp"
#include "kepoch/cluster/protocol/messages.hpp"
#include "kepoch/cluster/protocol/topic_partition_fields.hpp"

namespace kepoch::cluster::protocol {
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
    out.topics.push_back(
        topic_from<MetadataTopic>(t.as_struct(), shared_partition_fields<MetadataPartition>));
  out.error_code = body.get_int16("error_code");
  return out;
}

}  // namespace kepoch::cluster::protocol
