#include "kepoch/cluster/protocol/fetch.hpp"

#include "kepoch/cluster/protocol/messages.hpp"
#include "kepoch/cluster/protocol/topic_groups.hpp"

namespace kepoch::cluster::protocol {

Struct make_fetch_request(std::span<const FetchQuery> partitions, const FetchOptions& options) {
  // replica_id (v4-14) and replica_state (v15+) stay at their defaults, -1: a consumer.
  // session_id 0 and session_epoch -1 are a full fetch outside any fetch session.
  Struct body = make_request_body(ApiKey::kFetch);
  body.set_int32("max_wait_ms", options.max_wait_ms)
      .set_int32("min_bytes", options.min_bytes)
      .set_int32("max_bytes", options.max_bytes)
      .set_int8("isolation_level", options.isolation_level);
  TopicGroups topics(body, "topics", "topic");
  for (const auto& q : partitions) {
    topics.of(q.topic)
        .set_uuid("topic_id", q.topic_id)
        .add_element("partitions")
        .set_int32("partition", q.partition)
        .set_int32("current_leader_epoch", q.current_leader_epoch)
        .set_int64("fetch_offset", q.fetch_offset)
        .set_int32("partition_max_bytes", q.partition_max_bytes);
  }
  return body;
}

FetchResponse FetchResponse::from(const Struct& body) {
  FetchResponse out;
  out.throttle_time_ms = body.get_int32("throttle_time_ms");
  out.error_code = body.get_int16("error_code");
  out.session_id = body.get_int32("session_id");
  for (const auto& t : body.get_array("responses")) {
    const Struct& topic = t.as_struct();
    for (const auto& p : topic.get_array("partitions")) {
      const Struct& e = p.as_struct();
      FetchedPartition f;
      f.topic = topic.get_string("topic");
      f.topic_id = topic.get_uuid("topic_id");
      f.partition = e.get_int32("partition_index");
      f.error_code = e.get_int16("error_code");
      f.high_watermark = e.get_int64("high_watermark");
      f.last_stable_offset = e.get_int64("last_stable_offset");
      f.log_start_offset = e.get_int64("log_start_offset");
      const Struct& leader = e.get_struct("current_leader");
      f.current_leader_id = leader.get_int32("leader_id");
      f.current_leader_epoch = leader.get_int32("leader_epoch");
      f.preferred_read_replica = e.get_int32("preferred_read_replica");
      if (auto records = e.get_nullable_bytes("records")) f.records = std::move(*records);
      out.partitions.push_back(std::move(f));
    }
  }
  return out;
}

}  // namespace kepoch::cluster::protocol
