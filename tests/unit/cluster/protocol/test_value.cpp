// Struct, the dynamic message value: every field starts at its default (Kafka's *Data
// constructors), getters and setters go by name and check the schema's type.
#include <catch2/catch.hpp>

#include "kepoch/base/error.hpp"
#include "kepoch/cluster/protocol/messages.hpp"

namespace {

using namespace kepoch;
using namespace kepoch::cluster::protocol;

}  // namespace

TEST_CASE("A new body holds Kafka's defaults", "[protocol]") {
  const Struct metadata = make_response_body(ApiKey::kMetadata);
  CHECK(metadata.name() == "MetadataResponse");
  CHECK(metadata.get_int32("controller_id") == -1);
  CHECK(metadata.get_nullable_string("cluster_id") == std::nullopt);
  CHECK(metadata.get_array("brokers").empty());

  Struct response = make_response_body(ApiKey::kMetadata);
  Struct& partition = response.add_element("topics").add_element("partitions");
  CHECK(partition.name() == "MetadataResponsePartition");
  CHECK(partition.get_int32("leader_epoch") == -1);
  CHECK(partition.get_int32_array("offline_replicas").empty());
  CHECK(response.get_array("topics")[0].as_struct().get_int32("topic_authorized_operations") ==
        -2147483648);

  const Struct request = make_request_body(ApiKey::kDescribeTopicPartitions);
  CHECK(request.get_int32("response_partition_limit") == 2000);
  CHECK(request.get_nullable_struct("cursor") == nullptr);
  CHECK(make_request_body(ApiKey::kMetadata).get_bool("allow_auto_topic_creation"));
  CHECK(make_request_body(ApiKey::kOffsetForLeaderEpoch).get_int32("replica_id") == -2);
  CHECK(make_request_body(ApiKey::kDescribeCluster).get_int8("endpoint_type") == 1);
}

TEST_CASE("Getters and setters check names and types", "[protocol]") {
  Struct s = make_response_body(ApiKey::kMetadata);
  CHECK_THROWS_WITH(s.get_int16("controller_id"),
                    "MetadataResponse: controller_id: expected a int16 field, found int32");
  CHECK_THROWS_WITH(s.get("controler_id"),
                    "MetadataResponse: controler_id: no such field (fields: throttle_time_ms, "
                    "brokers, cluster_id, controller_id, topics, cluster_authorized_operations, "
                    "error_code)");
  CHECK_THROWS_WITH(s.get_string("cluster_id"),
                    "MetadataResponse: cluster_id: expected a string, found null");
  CHECK_THROWS_WITH(s.set_null("brokers"),
                    "MetadataResponse: brokers: expected array of MetadataResponseBroker (never "
                    "nullable), found null");
  CHECK_THROWS_WITH(s.set("controller_id", Value(std::int64_t{1})),
                    "MetadataResponse: controller_id: expected int32, found int64");
  CHECK_THROWS_WITH(s.add_element("error_code"),
                    "MetadataResponse: error_code: expected an array of structs, found int16");
  CHECK_THROWS_WITH(s.set_struct("topics"),
                    "MetadataResponse: topics: expected a struct field, found array of "
                    "MetadataResponseTopic");
  // An element of another struct is refused too.
  CHECK_THROWS_AS(s.set("topics", Value(Array{Value(make_response_body(ApiKey::kMetadata))})),
                  ProtocolError);

  s.set_string("cluster_id", "c1").set_int32("controller_id", 3);
  CHECK(s.get_string("cluster_id") == "c1");
  CHECK(s.get_nullable_string("cluster_id") == "c1");
  CHECK(s.get_int32("controller_id") == 3);
  CHECK(s.has_field("brokers"));
  CHECK_FALSE(s.has_field("nodes"));
  CHECK(s.field("brokers").type == FieldType::kArray);

  Struct& p = s.add_element("topics").add_element("partitions");
  p.set_int32_array("replica_nodes", {1, 2, 3});
  CHECK(p.get_int32_array("replica_nodes") == std::vector<std::int32_t>{1, 2, 3});
  CHECK(p.get_array("replica_nodes")[1].as<std::int32_t>() == 2);
  CHECK_THROWS_WITH(p.get_array("replica_nodes")[1].as<std::int64_t>(),
                    "expected int64, found int32");
}

TEST_CASE("Nullable arrays, strings, bytes and structs read as absent when null", "[protocol]") {
  Struct p = make_response_body(ApiKey::kDescribeTopicPartitions);
  Struct& part = p.add_element("topics").add_element("partitions");
  CHECK(part.get_nullable_int32_array("eligible_leader_replicas") == std::nullopt);
  CHECK(part.get_nullable_array("eligible_leader_replicas") == nullptr);
  part.set_int32_array("eligible_leader_replicas", {3});
  CHECK(part.get_nullable_int32_array("eligible_leader_replicas") == std::vector<std::int32_t>{3});
  CHECK(part.is_null("last_known_elr"));

  Struct cursor_holder = make_request_body(ApiKey::kDescribeTopicPartitions);
  cursor_holder.set_struct("cursor").set_string("topic_name", "t").set_int32("partition_index", 4);
  CHECK(cursor_holder.get_struct("cursor").get_int32("partition_index") == 4);
  // A response's next_cursor is the same Cursor struct: it can be handed to the next request.
  Struct response = make_response_body(ApiKey::kDescribeTopicPartitions);
  response.set("next_cursor", cursor_holder.get("cursor"));
  CHECK(response.get_struct("next_cursor") == cursor_holder.get_struct("cursor"));

  Struct sasl = make_response_body(ApiKey::kSaslAuthenticate);
  CHECK(sasl.get_bytes("auth_bytes").empty());
  sasl.set_bytes("auth_bytes", {1, 2});
  CHECK(sasl.get_nullable_bytes("auth_bytes") == Bytes{1, 2});
  CHECK(make_response_body(ApiKey::kSaslHandshake).get_string_array("mechanisms").empty());
}

TEST_CASE("An array can be changed in place, the encoder checks what was put in", "[protocol]") {
  Struct s = make_request_body(ApiKey::kMetadata);
  s.set_null("topics");
  Array& topics = s.mutable_array("topics");  // null becomes empty
  CHECK(topics.empty());
  topics.emplace_back(std::int32_t{7});
  CHECK_THROWS_WITH(encode_body(ApiKey::kMetadata, MessageKind::kRequest, 12, s),
                    "MetadataRequest v12: topics: expected a value of the field's type, found "
                    "array");
  topics.back() = Value(Struct(*s.field("topics").fields));
  topics.back().as_struct().set_string("name", "t");
  CHECK_NOTHROW(encode_body(ApiKey::kMetadata, MessageKind::kRequest, 12, s));
  CHECK_THROWS_AS(s.mutable_array("allow_auto_topic_creation"), ProtocolError);
}

TEST_CASE("Structs compare by schema and every value", "[protocol]") {
  Struct a = make_request_body(ApiKey::kMetadata);
  Struct b = make_request_body(ApiKey::kMetadata);
  CHECK(a == b);
  a.add_element("topics").set_string("name", "x");
  CHECK_FALSE(a == b);
  b.add_element("topics").set_string("name", "x");
  CHECK(a == b);
  CHECK_FALSE(make_request_body(ApiKey::kSaslHandshake) ==
              make_response_body(ApiKey::kSaslHandshake));
  CHECK(Value().type_name() == "null");
  CHECK(Value(a).type_name() == "struct MetadataRequest");
}
