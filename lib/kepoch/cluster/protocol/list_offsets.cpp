#include "kepoch/cluster/protocol/list_offsets.hpp"

#include "kepoch/cluster/protocol/messages.hpp"
#include "kepoch/cluster/protocol/topic_groups.hpp"

namespace kepoch::cluster::protocol {

Struct make_list_offsets_request(std::span<const OffsetQuery> queries, std::int8_t isolation_level,
                                 std::int32_t replica_id, std::int32_t timeout_ms) {
  Struct body = make_request_body(ApiKey::kListOffsets);
  body.set_int32("replica_id", replica_id)
      .set_int8("isolation_level", isolation_level)
      .set_int32("timeout_ms", timeout_ms);
  TopicGroups topics(body, "topics", "name");
  for (const auto& q : queries) {
    topics.of(q.topic)
        .add_element("partitions")
        .set_int32("partition_index", q.partition)
        .set_int32("current_leader_epoch", q.current_leader_epoch)
        .set_int64("timestamp", q.timestamp);
  }
  return body;
}

std::int16_t list_offsets_min_version(std::int64_t timestamp) {
  if (timestamp == kLatestTieredTimestamp) return 9;
  if (timestamp == kEarliestLocalTimestamp) return 8;
  if (timestamp == kMaxTimestamp) return 7;
  return 0;
}

ListOffsetsResponse ListOffsetsResponse::from(const Struct& body) {
  ListOffsetsResponse out;
  out.throttle_time_ms = body.get_int32("throttle_time_ms");
  for (const auto& t : body.get_array("topics")) {
    const Struct& topic = t.as_struct();
    for (const auto& p : topic.get_array("partitions")) {
      const Struct& e = p.as_struct();
      out.partitions.push_back({topic.get_string("name"), e.get_int32("partition_index"),
                                e.get_int16("error_code"), e.get_int64("timestamp"),
                                e.get_int64("offset"), e.get_int32("leader_epoch")});
    }
  }
  return out;
}

}  // namespace kepoch::cluster::protocol
