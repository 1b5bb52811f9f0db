#include "kepoch/cluster/protocol/describe_topic_partitions.hpp"

#include "kepoch/cluster/protocol/messages.hpp"
#include "kepoch/cluster/protocol/topic_partition_fields.hpp"

namespace kepoch::cluster::protocol {
namespace {

DescribedPartition partition_from(const Struct& p) {
  auto out = shared_partition_fields<DescribedPartition>(p);
  out.eligible_leader_replicas = p.get_nullable_int32_array("eligible_leader_replicas");
  out.last_known_elr = p.get_nullable_int32_array("last_known_elr");
  return out;
}

}  // namespace

Struct make_describe_topic_partitions_request(const std::vector<std::string>& topics,
                                              std::int32_t response_partition_limit,
                                              const std::optional<TopicPartitionCursor>& cursor) {
  Struct body = make_request_body(ApiKey::kDescribeTopicPartitions);
  for (const auto& name : topics)
    body.add_element("topics").set_string("name", name);
  body.set_int32("response_partition_limit", response_partition_limit);
  if (cursor) {
    body.set_struct("cursor")
        .set_string("topic_name", cursor->topic_name)
        .set_int32("partition_index", cursor->partition_index);
  }
  return body;
}

DescribeTopicPartitionsResponse DescribeTopicPartitionsResponse::from(const Struct& body) {
  DescribeTopicPartitionsResponse out;
  out.throttle_time_ms = body.get_int32("throttle_time_ms");
  for (const auto& t : body.get_array("topics"))
    out.topics.push_back(topic_from<DescribedTopic>(t.as_struct(), partition_from));
  if (const Struct* c = body.get_nullable_struct("next_cursor")) {
    out.next_cursor =
        TopicPartitionCursor{c->get_string("topic_name"), c->get_int32("partition_index")};
  }
  return out;
}

}  // namespace kepoch::cluster::protocol
