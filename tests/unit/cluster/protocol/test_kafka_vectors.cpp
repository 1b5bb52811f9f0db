// Pins kepoch's protocol codec to Kafka's own serializers: every vector in
// tests/data/protocol/vectors.jsonl was written by Kafka 4.1.1's generated *Data classes
// (write()) with the fields their *JsonConverter classes print (tests/protocol/gen-vectors).
// For each: kepoch decodes the bytes to exactly those fields, and encodes those fields to
// exactly those bytes. Headers likewise (RequestHeaderData v1/v2, ResponseHeaderData v0/v1).
#include <catch2/catch.hpp>

#include <set>
#include <tuple>

#include "kafka_vectors.hpp"
#include "kepoch/base/error.hpp"
#include "kepoch/cluster/protocol/codec.hpp"
#include "kepoch/cluster/protocol/headers.hpp"
#include "kepoch/cluster/protocol/messages.hpp"
#include "kepoch/cluster/protocol/schema_registry.hpp"

namespace {

using namespace kepoch::cluster::protocol;
using namespace kepoch::cluster::protocol::testing;

const MessageSchema& schema_of(const Vector& v) {
  const auto api = api_key_from_name(v.api);
  REQUIRE(api);
  const auto* s =
      find_schema(*api, v.kind == "request" ? MessageKind::kRequest : MessageKind::kResponse);
  REQUIRE(s);
  return *s;
}

// The C++ side of ProtocolVectors.fill(): one default element in every array of structs,
// a default struct in every struct field, recursively, except where Kafka's write() would
// refuse the value (a non-ignorable field outside the version: FetchRequest v4's
// forgotten_topics_data).
void fill_sparse(Struct& s, std::int16_t version) {
  for (const auto& f : s.schema().fields) {
    if (!f.versions.contains(version) && !f.ignorable) continue;
    if (f.type == FieldType::kStruct) fill_sparse(s.set_struct(f.name), version);
    if (f.type == FieldType::kArray && f.element_type == FieldType::kStruct)
      fill_sparse(s.add_element(f.name), version);
  }
}

}  // namespace

TEST_CASE("Kafka's vectors decode to the fields Kafka's JSON converter printed", "[protocol]") {
  int checked = 0;
  for (const auto& v : kafka_vectors()) {
    if (v.kind == "header") continue;
    INFO(v.label());
    const Struct body = decode_message(schema_of(v), v.version, v.bytes);
    CHECK(struct_json(body, v.version) == v.fields);
    ++checked;
  }
  CHECK(checked > 200);
}

TEST_CASE("Kafka's fields encode to the bytes Kafka's serializer wrote", "[protocol]") {
  for (const auto& v : kafka_vectors()) {
    if (v.kind == "header") continue;
    INFO(v.label());
    const MessageSchema& schema = schema_of(v);
    const Struct body = struct_from_json(schema.body, v.fields);
    CHECK(to_hex(encode_message(schema, v.version, body)) == to_hex(v.bytes));
    // And what kepoch decoded encodes back to the same bytes.
    CHECK(encode_message(schema, v.version, decode_message(schema, v.version, v.bytes)) == v.bytes);
  }
}

TEST_CASE("Every schema version Kafka lists as valid has Kafka vectors", "[protocol]") {
  std::set<std::tuple<std::string, std::string, int, std::string>> have;
  for (const auto& v : kafka_vectors())
    have.insert({v.api, v.kind, v.version, v.test_case});
  int versions = 0;
  for (const MessageSchema* s : all_schemas()) {
    const std::string api(api_key_name(s->api_key));
    const std::string kind = s->kind == MessageKind::kRequest ? "request" : "response";
    for (auto ver = s->valid_versions.lowest; ver <= s->valid_versions.highest; ++ver) {
      INFO(api << " " << kind << " v" << ver);
      CHECK(have.count({api, kind, ver, "full"}) == 1);
      CHECK(have.count({api, kind, ver, "defaults"}) == 1);
      CHECK(have.count({api, kind, ver, "sparse"}) == 1);
      ++versions;
    }
  }
  // And nothing in the vectors beyond the schemas' ranges (a Kafka bump that adds a
  // version shows up here as well as in the oracle diff).
  for (const auto& v : kafka_vectors()) {
    if (v.kind == "header") continue;
    INFO(v.label());
    CHECK(schema_of(v).valid_versions.contains(v.version));
  }
  CHECK(versions ==
        2 * (5 + 14 + 3 + 4 + 10 + 1 + 4 + 3 + 3 + 2 + 3 + 15 + 7 + 1 + 3 + 1 + 6 + 10));
}

TEST_CASE("Default bodies and elements encode as Kafka's new *Data() objects do", "[protocol]") {
  int checked = 0;
  for (const auto& v : kafka_vectors()) {
    if (v.test_case != "defaults" && v.test_case != "sparse") continue;
    INFO(v.label());
    const auto api = *api_key_from_name(v.api);
    Struct body = v.kind == "request" ? make_request_body(api) : make_response_body(api);
    if (v.test_case == "sparse") fill_sparse(body, v.version);
    const auto kind = v.kind == "request" ? MessageKind::kRequest : MessageKind::kResponse;
    CHECK(to_hex(encode_body(api, kind, v.version, body)) == to_hex(v.bytes));
    ++checked;
  }
  CHECK(checked == 2 * (128 + 24 + 32 + 6));
}

TEST_CASE("Request and response headers match RequestHeaderData and ResponseHeaderData",
          "[protocol]") {
  int checked = 0;
  for (const auto& v : kafka_vectors()) {
    if (v.kind != "header") continue;
    INFO(v.label());
    WireWriter out;
    WireReader in(v.bytes, v.api);
    if (v.api == "RequestHeader") {
      RequestHeader h;
      h.api_key = v.fields.at("request_api_key");
      h.api_version = v.fields.at("request_api_version");
      h.correlation_id = v.fields.at("correlation_id");
      if (!v.fields.at("client_id").is_null()) h.client_id = v.fields.at("client_id");
      write_request_header(out, h, v.version);
      const RequestHeader back = read_request_header(in, v.version);
      CHECK(back.api_key == h.api_key);
      CHECK(back.api_version == h.api_version);
      CHECK(back.correlation_id == h.correlation_id);
      CHECK(back.client_id == h.client_id);
    } else {
      const std::int32_t id = v.fields.at("correlation_id");
      write_response_header(out, id, v.version);
      CHECK(read_response_header(in, v.version) == id);
    }
    CHECK(in.at_end());
    CHECK(to_hex(out.data()) == to_hex(v.bytes));
    ++checked;
  }
  CHECK(checked == 6);
}

TEST_CASE("A whole request frame is Kafka's header bytes followed by Kafka's body bytes",
          "[protocol]") {
  const Vector* header = nullptr;
  const Vector* body = nullptr;
  for (const auto& v : kafka_vectors()) {
    if (v.api == "RequestHeader" && v.version == 2 && v.test_case == "full") header = &v;
    if (v.api == "Metadata" && v.kind == "request" && v.version == 12 && v.test_case == "full")
      body = &v;
  }
  REQUIRE(header);
  REQUIRE(body);
  const Struct request = struct_from_json(schema_of(*body).body, body->fields);
  const auto frame = encode_request(ApiKey::kMetadata, 12, 0x01020304, "kepoch-clïent", request);
  CHECK(to_hex(frame) == to_hex(header->bytes) + to_hex(body->bytes));

  const DecodedRequest back = decode_request(frame);
  CHECK(back.header.api_key == 3);
  CHECK(back.header.api_version == 12);
  CHECK(back.header.correlation_id == 0x01020304);
  CHECK(back.header.client_id == "kepoch-clïent");
  CHECK(back.body == request);
}
