// The typed views of the group and transaction APIs over both shapes Kafka's messages have:
// FindCoordinator's one answer (v0-3) and batched coordinators (v4+, KIP-699), OffsetFetch's
// one group (v1-7) and many groups (v8+, KIP-709), each round-tripped through the codec at
// that version. The bytes themselves are held to Kafka's serializers by test_kafka_vectors.
#include <catch2/catch.hpp>

#include "kepoch/cluster/protocol/groups.hpp"
#include "kepoch/cluster/protocol/messages.hpp"
#include "kepoch/cluster/protocol/transactions.hpp"

namespace {

using namespace kepoch::cluster::protocol;

Struct round_trip(ApiKey api, MessageKind kind, std::int16_t version, const Struct& body) {
  return decode_body(api, kind, version, encode_body(api, kind, version, body));
}

}  // namespace

TEST_CASE("FindCoordinator: one answer below v4, one per key from v4", "[protocol]") {
  const auto v3 = round_trip(ApiKey::kFindCoordinator, MessageKind::kRequest, 3,
                             make_find_coordinator_request(3, kTransactionCoordinator, {"t"}));
  CHECK(v3.get_string("key") == "t");
  CHECK(v3.get_int8("key_type") == 1);
  const auto v4 = round_trip(ApiKey::kFindCoordinator, MessageKind::kRequest, 4,
                             make_find_coordinator_request(4, kGroupCoordinator, {"a", "b"}));
  CHECK(v4.get_string_array("coordinator_keys") == std::vector<std::string>{"a", "b"});

  Struct old = make_response_body(ApiKey::kFindCoordinator);
  old.set_int32("node_id", 3).set_string("host", "broker-3").set_int32("port", 9093);
  const auto one =
      coordinators_from(round_trip(ApiKey::kFindCoordinator, MessageKind::kResponse, 2, old), "t");
  REQUIRE(one.size() == 1);
  CHECK((one[0].key == "t" && one[0].node_id == 3 && one[0].port == 9093));

  Struct batched = make_response_body(ApiKey::kFindCoordinator);
  batched.add_element("coordinators").set_string("key", "a").set_int32("node_id", 1);
  batched.add_element("coordinators").set_string("key", "b").set_int16("error_code", 15);
  const auto many = coordinators_from(
      round_trip(ApiKey::kFindCoordinator, MessageKind::kResponse, 6, batched), "");
  REQUIRE(many.size() == 2);
  CHECK((many[0].key == "a" && many[0].node_id == 1 && many[0].error_code == 0));
  CHECK((many[1].key == "b" && many[1].error_code == 15));  // COORDINATOR_NOT_AVAILABLE
}

TEST_CASE("OffsetFetch: every topic of one group below v8, of many from v8", "[protocol]") {
  const auto v7 = round_trip(ApiKey::kOffsetFetch, MessageKind::kRequest, 7,
                             make_offset_fetch_request(7, {"g"}));
  CHECK(v7.get_string("group_id") == "g");
  CHECK(v7.is_null("topics"));
  const auto v9 = round_trip(ApiKey::kOffsetFetch, MessageKind::kRequest, 9,
                             make_offset_fetch_request(9, {"g", "h"}));
  REQUIRE(v9.get_array("groups").size() == 2);
  CHECK(v9.get_array("groups")[1].as_struct().get_string("group_id") == "h");
  CHECK(v9.get_array("groups")[1].as_struct().is_null("topics"));

  Struct single = make_response_body(ApiKey::kOffsetFetch);
  auto& p = single.add_element("topics").set_string("name", "f").add_element("partitions");
  p.set_int32("partition_index", 0)
      .set_int64("committed_offset", 15)
      .set_int32("committed_leader_epoch", 4);
  const auto at5 =
      offset_fetch_from(round_trip(ApiKey::kOffsetFetch, MessageKind::kResponse, 5, single), "g");
  REQUIRE((at5.size() == 1 && at5[0].offsets.size() == 1));
  CHECK((at5[0].group_id == "g" && at5[0].offsets[0].committed_offset == 15));
  CHECK(at5[0].offsets[0].committed_leader_epoch == 4);
  // v4 has no epoch: the committed offset comes back without one (-1), not as 4.
  const auto at4 =
      offset_fetch_from(round_trip(ApiKey::kOffsetFetch, MessageKind::kResponse, 4, single), "g");
  CHECK(at4[0].offsets[0].committed_leader_epoch == -1);

  Struct multi = make_response_body(ApiKey::kOffsetFetch);
  auto& g = multi.add_element("groups").set_string("group_id", "h");
  g.add_element("topics")
      .set_string("name", "f")
      .add_element("partitions")
      .set_int32("partition_index", 2)
      .set_int64("committed_offset", 20)
      .set_int32("committed_leader_epoch", 0);
  multi.add_element("groups").set_string("group_id", "x").set_int16("error_code", 30);
  const auto at9 =
      offset_fetch_from(round_trip(ApiKey::kOffsetFetch, MessageKind::kResponse, 9, multi), "");
  REQUIRE(at9.size() == 2);
  CHECK((at9[0].offsets.size() == 1 && at9[0].offsets[0].partition == 2));
  CHECK(at9[0].offsets[0].committed_leader_epoch == 0);
  CHECK((at9[1].group_id == "x" && at9[1].error_code == 30));  // GROUP_AUTHORIZATION_FAILED
}
