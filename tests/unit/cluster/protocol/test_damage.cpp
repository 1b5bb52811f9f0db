// Bounded decoding: damaged copies of Kafka's vectors (every truncation, trailing bytes)
// and hand-made frames with lying lengths, bad varints and broken tagged fields must each
// be one ProtocolError naming the message, the field path and the byte offset -- never a
// crash, an over-read (the ASan preset runs this suite) or a huge allocation.
#include <catch2/catch.hpp>

#include <algorithm>
#include <string>
#include <vector>

#include "kafka_vectors.hpp"
#include "kepoch/base/error.hpp"
#include "kepoch/cluster/protocol/codec.hpp"
#include "kepoch/cluster/protocol/messages.hpp"
#include "kepoch/cluster/protocol/schema_registry.hpp"

namespace {

using namespace kepoch;
using namespace kepoch::cluster::protocol;
using namespace kepoch::cluster::protocol::testing;
using Frame = std::vector<std::uint8_t>;

const MessageSchema& schema_of(const Vector& v) {
  return schema_for(*api_key_from_name(v.api),
                    v.kind == "request" ? MessageKind::kRequest : MessageKind::kResponse);
}

// The error decoding `bytes` throws; fails the test when it decodes.
ProtocolError decode_error(ApiKey api, MessageKind kind, std::int16_t version, const Frame& bytes) {
  try {
    decode_body(api, kind, version, bytes);
  } catch (const ProtocolError& e) {
    return e;
  }
  FAIL("decoded without an error: " << to_hex(bytes));
  throw 0;
}

ProtocolError response_error(ApiKey api, std::int16_t version, const Frame& bytes) {
  return decode_error(api, MessageKind::kResponse, version, bytes);
}

Frame bytes_of(std::initializer_list<int> b) {
  Frame out;
  for (int x : b)
    out.push_back(static_cast<std::uint8_t>(x));
  return out;
}

Frame concat(Frame a, const Frame& b) {
  a.insert(a.end(), b.begin(), b.end());
  return a;
}

}  // namespace

TEST_CASE("Every truncation of every Kafka vector is a ProtocolError at or before the cut",
          "[protocol]") {
  std::vector<std::string> failures;
  std::size_t cuts = 0;
  for (const auto& v : kafka_vectors()) {
    if (v.kind == "header") continue;
    const MessageSchema& schema = schema_of(v);
    for (std::size_t n = 0; n < v.bytes.size(); ++n) {
      ++cuts;
      const std::span<const std::uint8_t> cut(v.bytes.data(), n);
      try {
        decode_message(schema, v.version, cut);
        failures.push_back(v.label() + " cut at " + std::to_string(n) + ": decoded");
      } catch (const ProtocolError& e) {
        const bool named = std::string(e.what()).starts_with(message_label(schema, v.version));
        if (!e.byte_offset() || *e.byte_offset() > n || !named || e.field_path().empty()) {
          failures.push_back(v.label() + " cut at " + std::to_string(n) + ": " + e.what());
        }
      }
    }
  }
  INFO((failures.empty() ? std::string() : failures.front()));
  CHECK(failures.empty());
  CHECK(cuts > 10000);
}

TEST_CASE("Every truncation of a response frame, header included, is a ProtocolError",
          "[protocol]") {
  const auto& v = kafka_vector("Metadata", "response", 12);
  const Frame frame = concat(bytes_of({0x00, 0x00, 0x30, 0x39, 0x00}), v.bytes);
  CHECK(decode_response(ApiKey::kMetadata, 12, frame).correlation_id == 12345);
  for (std::size_t n = 0; n < frame.size(); ++n) {
    INFO("cut at " << n);
    const std::span<const std::uint8_t> cut(frame.data(), n);
    try {
      decode_response(ApiKey::kMetadata, 12, cut);
      FAIL("decoded");
    } catch (const ProtocolError& e) {
      REQUIRE(e.byte_offset());
      CHECK(*e.byte_offset() <= n);
      if (n < 4) CHECK(e.field_path() == "header.correlation_id");
      if (n == 4) CHECK(e.field_path() == "header.tagged_fields");
    }
  }
}

TEST_CASE("Bytes after a message are an error at the first extra byte", "[protocol]") {
  for (const auto& v : kafka_vectors()) {
    if (v.kind == "header") continue;
    INFO(v.label());
    const Frame longer = concat(v.bytes, bytes_of({0}));
    try {
      decode_message(schema_of(v), v.version, longer);
      FAIL("decoded");
    } catch (const ProtocolError& e) {
      CHECK(e.byte_offset() == v.bytes.size());
      CHECK(std::string(e.what()).find("expected the end of the message, found 1 more byte") !=
            std::string::npos);
    }
  }
  const Frame frame = concat(bytes_of({0, 0, 0, 7}), bytes_of({0, 0, 0, 0, 0, 0, 0, 0, 0}));
  const auto e = [&] {
    try {
      decode_response(ApiKey::kSaslHandshake, 1, frame);
    } catch (const ProtocolError& err) {
      return err;
    }
    FAIL("decoded");
    throw 0;
  }();
  CHECK(e.byte_offset() == 10);
}

TEST_CASE("A short field names its path, offset and what it expected", "[protocol]") {
  // Mark topics[0].partitions[1].leader_epoch in Kafka's v12 response and cut inside it.
  const auto& v = kafka_vector("Metadata", "response", 12);
  const MessageSchema& schema = schema_of(v);
  Struct body = struct_from_json(schema.body, v.fields);
  Array topics = body.get_array("topics");
  Array partitions = topics[0].as_struct().get_array("partitions");
  partitions[1].as_struct().set_int32("leader_epoch", 0x5a5b5c5d);
  topics[0].as_struct().set("partitions", Value(partitions));
  body.set("topics", Value(topics));
  const Frame bytes = encode_message(schema, 12, body);
  const Frame mark = bytes_of({0x5a, 0x5b, 0x5c, 0x5d});
  const auto at = std::search(bytes.begin(), bytes.end(), mark.begin(), mark.end());
  REQUIRE(at != bytes.end());
  const auto offset = static_cast<std::size_t>(at - bytes.begin());

  const auto e = response_error(ApiKey::kMetadata, 12, Frame(bytes.begin(), at + 2));
  CHECK(e.message() == "MetadataResponse v12");
  CHECK(e.field_path() == "topics[0].partitions[1].leader_epoch");
  CHECK(e.byte_offset() == offset);
  CHECK(std::string(e.what()) ==
        "MetadataResponse v12: topics[0].partitions[1].leader_epoch at byte " +
            std::to_string(offset) + ": expected 4 bytes, found 2");
}

TEST_CASE("Lying lengths are refused before anything is allocated", "[protocol]") {
  SECTION("a huge int32 array count (non-flexible)") {
    const auto e = response_error(ApiKey::kMetadata, 1, bytes_of({0x7f, 0xff, 0xff, 0xff, 0}));
    CHECK(e.field_path() == "brokers");
    CHECK(e.byte_offset() == 0);
    CHECK(std::string(e.what()).find("expected a array of at most 1 elements (what remains), "
                                     "found length 2147483647") != std::string::npos);
  }
  SECTION("a null count for a non-nullable array") {
    const auto e = response_error(ApiKey::kMetadata, 1, bytes_of({0xff, 0xff, 0xff, 0xff}));
    CHECK(e.field_path() == "brokers");
    CHECK(std::string(e.what()).find("expected a non-null array, found length -1") !=
          std::string::npos);
  }
  SECTION("a huge compact array count (flexible)") {
    const auto e =
        response_error(ApiKey::kMetadata, 12, bytes_of({0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0x0f}));
    CHECK(e.field_path() == "brokers");
    CHECK(e.byte_offset() == 4);
    CHECK(std::string(e.what()).find("found length 4294967294") != std::string::npos);
  }
  SECTION("a compact string longer than Kafka allows") {
    // DescribeClusterResponse v0: throttle_time_ms, error_code, then error_message.
    const auto e = response_error(ApiKey::kDescribeCluster, 0,
                                  bytes_of({0, 0, 0, 0, 0, 0, 0xc1, 0xb8, 0x02, 'x'}));
    CHECK(e.field_path() == "error_message");
    CHECK(e.byte_offset() == 6);
    CHECK(std::string(e.what()).find("expected a string length of at most 32767, found 40000") !=
          std::string::npos);
  }
  SECTION("a string longer than what remains") {
    const auto e = decode_error(ApiKey::kSaslHandshake, MessageKind::kRequest, 0,
                                bytes_of({0x7f, 0xff, 'P', 'L'}));
    CHECK(e.field_path() == "mechanism");
    CHECK(std::string(e.what()).find("expected a string of at most 2 bytes (what remains), "
                                     "found length 32767") != std::string::npos);
  }
  SECTION("a null string where the version has no null") {
    const auto e =
        decode_error(ApiKey::kSaslHandshake, MessageKind::kRequest, 1, bytes_of({0xff, 0xff}));
    CHECK(std::string(e.what()) ==
          "SaslHandshakeRequest v1: mechanism at byte 0: expected a non-null string, found "
          "length -1");
  }
  SECTION("bytes longer than what remains") {
    const auto e = decode_error(ApiKey::kSaslAuthenticate, MessageKind::kRequest, 1,
                                bytes_of({0x00, 0x10, 0x00, 0x00, 1, 2}));
    CHECK(e.field_path() == "auth_bytes");
    CHECK(std::string(e.what()).find("found length 1048576") != std::string::npos);
  }
}

TEST_CASE("Bad unsigned varints are refused", "[protocol]") {
  SECTION("more than 5 bytes") {
    const auto e = response_error(ApiKey::kMetadata, 12,
                                  bytes_of({0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0xff, 0x01}));
    CHECK(e.byte_offset() == 4);
    CHECK(std::string(e.what()).find("at most 5 bytes") != std::string::npos);
  }
  SECTION("more than 32 bits") {
    const auto e =
        response_error(ApiKey::kMetadata, 12, bytes_of({0, 0, 0, 0, 0xff, 0xff, 0xff, 0xff, 0x7f}));
    CHECK(std::string(e.what()).find("expected an unsigned varint of 32 bits") !=
          std::string::npos);
  }
  SECTION("cut short") {
    const auto e = response_error(ApiKey::kMetadata, 12, bytes_of({0, 0, 0, 0, 0x81}));
    CHECK(e.byte_offset() == 4);
    CHECK(std::string(e.what()).find("found the end after 1 of its bytes") != std::string::npos);
  }
}

TEST_CASE("Tagged fields: unknown tags are skipped, known ones must fill their size",
          "[protocol]") {
  // ApiVersionsResponse v3: error_code, api_keys (empty), throttle_time_ms, tagged fields.
  const Frame head = bytes_of({0, 0, 0x01, 0, 0, 0, 0});
  SECTION("an unknown tag is skipped") {
    const Struct body = decode_body(ApiKey::kApiVersions, MessageKind::kResponse, 3,
                                    concat(head, bytes_of({0x02, 0x09, 0x03, 0xaa, 0xbb, 0xcc, 0x01,
                                                           0x08, 0, 0, 0, 0, 0, 0, 0, 42})));
    CHECK(body.get_int64("finalized_features_epoch") == 42);
    CHECK(body.get_array("supported_features").empty());
  }
  SECTION("a known tag with bytes left over") {
    const auto e =
        response_error(ApiKey::kApiVersions, 3,
                       concat(head, bytes_of({0x01, 0x01, 0x09, 0, 0, 0, 0, 0, 0, 0, 42, 0xee})));
    CHECK(e.field_path() == "tagged_fields.finalized_features_epoch");
    CHECK(std::string(e.what()).find("expected the tagged field to fill its 9 bytes, found 1 "
                                     "unread") != std::string::npos);
  }
  SECTION("a known tag too short for its value") {
    const auto e = response_error(ApiKey::kApiVersions, 3,
                                  concat(head, bytes_of({0x01, 0x01, 0x04, 0, 0, 0, 42})));
    CHECK(e.field_path() == "tagged_fields.finalized_features_epoch");
    CHECK(e.byte_offset() == head.size() + 3);
  }
  SECTION("a size beyond the frame, unknown tag or known") {
    const auto unknown =
        response_error(ApiKey::kApiVersions, 3, concat(head, bytes_of({0x01, 0x05, 0x14, 0})));
    CHECK(std::string(unknown.what()).find("expected 20 bytes, found 1") != std::string::npos);
    const auto known =
        response_error(ApiKey::kApiVersions, 3, concat(head, bytes_of({0x01, 0x01, 0x14, 0})));
    CHECK(known.field_path() == "tagged_fields.finalized_features_epoch");
    CHECK(known.byte_offset() == head.size() + 3);
    CHECK(std::string(known.what()).find("expected a field of 20 bytes, found 1") !=
          std::string::npos);
  }
}

TEST_CASE("A nullable struct's marker: negative is null, anything else present", "[protocol]") {
  // DescribeTopicPartitionsRequest v0: topics (empty), response_partition_limit, cursor.
  const Frame head = bytes_of({0x01, 0, 0, 0, 5});
  const Struct null_cursor = decode_body(ApiKey::kDescribeTopicPartitions, MessageKind::kRequest, 0,
                                         concat(head, bytes_of({0xff, 0})));
  CHECK(null_cursor.get_nullable_struct("cursor") == nullptr);
  const Struct zero_marker =
      decode_body(ApiKey::kDescribeTopicPartitions, MessageKind::kRequest, 0,
                  concat(head, bytes_of({0x00, 0x02, 'a', 0, 0, 0, 3, 0, 0})));
  REQUIRE(zero_marker.get_nullable_struct("cursor"));
  CHECK(zero_marker.get_struct("cursor").get_string("topic_name") == "a");
  CHECK(zero_marker.get_struct("cursor").get_int32("partition_index") == 3);
}

TEST_CASE("A version outside the schema's is refused on both sides", "[protocol]") {
  const auto e = response_error(ApiKey::kMetadata, 14, bytes_of({}));
  CHECK(std::string(e.what()) ==
        "MetadataResponse v14 at byte 0: expected a version in 0..13, "
        "found 14");
  CHECK_THROWS_AS(decode_response(ApiKey::kListOffsets, 0, bytes_of({0, 0, 0, 1})), ProtocolError);
  CHECK_THROWS_AS(encode_body(ApiKey::kListOffsets, MessageKind::kRequest, 11,
                              make_request_body(ApiKey::kListOffsets)),
                  ProtocolError);
  CHECK_THROWS_AS(make_request_body(ApiKey::kProduce), ProtocolError);
  CHECK_THROWS_AS(peek_correlation_id(bytes_of({0, 0, 1})), ProtocolError);
  CHECK(peek_correlation_id(bytes_of({0, 0, 1, 2, 9})) == 258);
}

TEST_CASE("A request frame of an unknown api, or a cut header, is refused", "[protocol]") {
  CHECK_THROWS_WITH(decode_request(bytes_of({0x03, 0xe7, 0, 0, 0, 0, 0, 1, 0xff, 0xff})),
                    "request: header.request_api_key at byte 0: expected a Kafka api key, found "
                    "999");
  CHECK_THROWS_WITH(decode_request(bytes_of({0x00, 0x11, 0})),
                    "request: header.request_api_version at byte 2: expected 2 bytes, found 1");
  // SaslHandshake v1 (header v1): client_id says 5 bytes, 2 remain.
  CHECK_THROWS_WITH(decode_request(bytes_of({0x00, 0x11, 0, 1, 0, 0, 0, 1, 0, 5, 'a', 'b'})),
                    "SaslHandshakeRequest v1: header.client_id at byte 10: expected 5 bytes, "
                    "found 2");
}
