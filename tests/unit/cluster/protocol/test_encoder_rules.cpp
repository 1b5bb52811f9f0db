// The write-side rules of Kafka's generated classes (MessageDataGenerator.generateClassWriter,
// FieldSpec.generateNonIgnorableFieldCheck): a field the version lacks is dropped when it
// holds its default or is ignorable, and is an error (Kafka's UnsupportedVersionException)
// otherwise; null only where the version allows it; strings of at most 32767 bytes.
#include <catch2/catch.hpp>

#include <string>

#include "kafka_vectors.hpp"
#include "kepoch/base/error.hpp"
#include "kepoch/cluster/protocol/messages.hpp"

namespace {

using namespace kepoch;
using namespace kepoch::cluster::protocol;
using namespace kepoch::cluster::protocol::testing;

std::string encode_error(ApiKey api, MessageKind kind, std::int16_t version, const Struct& body) {
  try {
    encode_body(api, kind, version, body);
  } catch (const ProtocolError& e) {
    return e.what();
  }
  FAIL("encoded without an error");
  return {};
}

}  // namespace

TEST_CASE("A non-default, non-ignorable field the version lacks is an error", "[protocol]") {
  Struct body = make_request_body(ApiKey::kMetadata);
  body.set_bool("allow_auto_topic_creation", false);  // v4+, default true, not ignorable
  CHECK(encode_error(ApiKey::kMetadata, MessageKind::kRequest, 3, body) ==
        "MetadataRequest v3: allow_auto_topic_creation: expected the default value in a version "
        "without this field, found another (Kafka: UnsupportedVersionException)");
  CHECK_NOTHROW(encode_body(ApiKey::kMetadata, MessageKind::kRequest, 4, body));

  Struct cluster_ops = make_request_body(ApiKey::kMetadata);
  cluster_ops.set_bool("include_cluster_authorized_operations", true);  // v8-10 only
  CHECK_NOTHROW(encode_body(ApiKey::kMetadata, MessageKind::kRequest, 10, cluster_ops));
  CHECK_THROWS_AS(encode_body(ApiKey::kMetadata, MessageKind::kRequest, 11, cluster_ops),
                  ProtocolError);

  // Nested: ListOffsetsPartitionResponse.leader_epoch is v4+ and not ignorable.
  Struct response = make_response_body(ApiKey::kListOffsets);
  response.add_element("topics")
      .set_string("name", "t")
      .add_element("partitions")
      .set_int32("leader_epoch", 3);
  CHECK(encode_error(ApiKey::kListOffsets, MessageKind::kResponse, 3, response) ==
        "ListOffsetsResponse v3: topics[0].partitions[0].leader_epoch: expected the default "
        "value in a version without this field, found another (Kafka: "
        "UnsupportedVersionException)");
}

TEST_CASE("An ignorable field the version lacks is dropped, as Kafka drops it", "[protocol]") {
  Struct with_id = make_request_body(ApiKey::kMetadata);
  with_id.add_element("topics")
      .set_string("name", "t")
      .set_uuid("topic_id", parse_uuid("AAAAAAAAAAAAAAAAAAAAAQ").uuid);
  Struct without_id = make_request_body(ApiKey::kMetadata);
  without_id.add_element("topics").set_string("name", "t");
  CHECK(encode_body(ApiKey::kMetadata, MessageKind::kRequest, 9, with_id) ==
        encode_body(ApiKey::kMetadata, MessageKind::kRequest, 9, without_id));
  CHECK(encode_body(ApiKey::kMetadata, MessageKind::kRequest, 10, with_id) !=
        encode_body(ApiKey::kMetadata, MessageKind::kRequest, 10, without_id));

  // A tagged field before the flexible versions: ignorable, dropped.
  Struct features = make_response_body(ApiKey::kApiVersions);
  features.set_int64("finalized_features_epoch", 7);
  CHECK(encode_body(ApiKey::kApiVersions, MessageKind::kResponse, 2, features) ==
        encode_body(ApiKey::kApiVersions, MessageKind::kResponse, 2,
                    make_response_body(ApiKey::kApiVersions)));
  const auto v3 = encode_body(ApiKey::kApiVersions, MessageKind::kResponse, 3, features);
  // error_code, api_keys, throttle_time_ms, then one tagged field: tag 1, size 8, value 7.
  CHECK(to_hex(v3) == "000001000000000101080000000000000007");
}

TEST_CASE("Null only where the version allows it", "[protocol]") {
  Struct all_topics = make_request_body(ApiKey::kMetadata);
  all_topics.set_null("topics");  // nullable from v1
  CHECK(encode_error(ApiKey::kMetadata, MessageKind::kRequest, 0, all_topics) ==
        "MetadataRequest v0: topics: expected a value (the field is not nullable in v0), found "
        "null");
  CHECK(to_hex(encode_body(ApiKey::kMetadata, MessageKind::kRequest, 1, all_topics)) == "ffffffff");
  // v9: topics null (compact 0), allow_auto_topic_creation true, the two authorized-ops
  // flags false, no tagged fields.
  CHECK(to_hex(encode_body(ApiKey::kMetadata, MessageKind::kRequest, 9, all_topics)) ==
        "0001000000");

  Struct unnamed = make_response_body(ApiKey::kMetadata);
  unnamed.add_element("topics").set_null("name");  // nullable from v12
  CHECK_NOTHROW(encode_body(ApiKey::kMetadata, MessageKind::kResponse, 12, unnamed));
  CHECK(encode_error(ApiKey::kMetadata, MessageKind::kResponse, 11, unnamed) ==
        "MetadataResponse v11: topics[0].name: expected a value (the field is not nullable in "
        "v11), found null");
}

TEST_CASE("Strings over 32767 bytes cannot be written", "[protocol]") {
  Struct body = make_request_body(ApiKey::kSaslHandshake);
  body.set_string("mechanism", std::string(32767, 'm'));
  CHECK(encode_body(ApiKey::kSaslHandshake, MessageKind::kRequest, 1, body).size() == 32769);
  body.set_string("mechanism", std::string(32768, 'm'));
  CHECK(encode_error(ApiKey::kSaslHandshake, MessageKind::kRequest, 1, body) ==
        "SaslHandshakeRequest v1: mechanism: expected a string of at most 32767 bytes, found "
        "32768 (Kafka: field is too long to be serialized)");
  CHECK_THROWS_AS(encode_request(ApiKey::kSaslHandshake, 1, 1, std::string(40000, 'c'),
                                 make_request_body(ApiKey::kSaslHandshake)),
                  ProtocolError);
}

TEST_CASE("A body of another message, or a value of another type, is refused", "[protocol]") {
  CHECK(encode_error(ApiKey::kMetadata, MessageKind::kRequest, 12,
                     make_response_body(ApiKey::kMetadata)) ==
        "MetadataRequest v12: expected a MetadataRequest body, found a MetadataResponse");
  // at() bypasses the setters' checks; the encoder still checks.
  Struct body = make_request_body(ApiKey::kSaslHandshake);
  body.at(0) = Value(std::int32_t{5});
  CHECK(encode_error(ApiKey::kSaslHandshake, MessageKind::kRequest, 0, body) ==
        "SaslHandshakeRequest v0: mechanism: expected a value of the field's type, found int32");
}
