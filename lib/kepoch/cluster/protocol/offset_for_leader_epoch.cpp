#include "kepoch/cluster/protocol/offset_for_leader_epoch.hpp"

#include "kepoch/cluster/protocol/messages.hpp"
#include "kepoch/cluster/protocol/topic_groups.hpp"

namespace kepoch::cluster::protocol {

Struct make_offset_for_leader_epoch_request(std::span<const EpochQuery> queries,
                                            std::int32_t replica_id) {
  Struct body = make_request_body(ApiKey::kOffsetForLeaderEpoch);
  body.set_int32("replica_id", replica_id);
  TopicGroups topics(body, "topics", "topic");
  for (const auto& q : queries) {
    topics.of(q.topic)
        .add_element("partitions")
        .set_int32("partition", q.partition)
        .set_int32("current_leader_epoch", q.current_leader_epoch)
        .set_int32("leader_epoch", q.leader_epoch);
  }
  return body;
}

OffsetForLeaderEpochResponse OffsetForLeaderEpochResponse::from(const Struct& body) {
  OffsetForLeaderEpochResponse out;
  out.throttle_time_ms = body.get_int32("throttle_time_ms");
  for (const auto& t : body.get_array("topics")) {
    const Struct& topic = t.as_struct();
    for (const auto& p : topic.get_array("partitions")) {
      const Struct& e = p.as_struct();
      out.partitions.push_back({topic.get_string("topic"), e.get_int32("partition"),
                                e.get_int16("error_code"), e.get_int32("leader_epoch"),
                                e.get_int64("end_offset")});
    }
  }
  return out;
}

}  // namespace kepoch::cluster::protocol
