// The schema tables are well formed as Kafka's generator demands of the JSON
// (MessageDataGenerator / FieldSpec / StructRegistry): snake_case names, unique tags within
// a struct, tagged versions within the field's and the flexible versions, nested fields
// exactly for struct types, defaults that parse; and kepoch picks versions as Kafka's
// NodeApiVersions.latestUsableVersion does.
#include <catch2/catch.hpp>

#include <set>

#include "kepoch/base/error.hpp"
#include "kepoch/cluster/protocol/headers.hpp"
#include "kepoch/cluster/protocol/schema_registry.hpp"
#include "kepoch/cluster/protocol/value.hpp"

namespace {

using namespace kepoch;
using namespace kepoch::cluster::protocol;

bool snake_case(std::string_view name) {
  if (name.empty() || name.front() == '_' || name.back() == '_') return false;
  for (char c : name) {
    if (!((c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '_')) return false;
  }
  return true;
}

void check_struct(const StructSchema& s, const MessageSchema& m) {
  std::set<std::int32_t> tags;
  std::set<std::string_view> names;
  for (const auto& f : s.fields) {
    INFO(s.name << "." << f.name);
    CHECK(snake_case(f.name));
    CHECK(names.insert(f.name).second);
    CHECK_FALSE(f.versions.empty());
    CHECK_NOTHROW(default_value(f));
    const bool has_fields = f.type == FieldType::kStruct ||
                            (f.type == FieldType::kArray && f.element_type == FieldType::kStruct);
    CHECK((f.fields != nullptr) == has_fields);
    if (f.type == FieldType::kArray) CHECK(f.element_type != FieldType::kArray);
    if (!f.tagged_versions.empty()) {
      CHECK(f.tag >= 0);
      CHECK(tags.insert(f.tag).second);
      CHECK(m.flexible_versions.contains(f.tagged_versions.lowest));
      CHECK(f.versions.contains(f.tagged_versions.lowest));
    } else {
      CHECK(f.tag == -1);
    }
    if (f.fields) check_struct(*f.fields, m);
  }
}

}  // namespace

TEST_CASE("Every schema table is well formed", "[protocol]") {
  CHECK(all_schemas().size() == 36);
  for (const MessageSchema* m : all_schemas()) {
    const std::string suffix = m->kind == MessageKind::kRequest ? "Request" : "Response";
    INFO(m->body.name);
    CHECK(std::string(m->body.name) == std::string(api_key_name(m->api_key)) + suffix);
    CHECK(find_schema(m->api_key, m->kind) == m);
    CHECK(&schema_for(m->api_key, m->kind) == m);
    check_struct(m->body, *m);
  }
  CHECK(find_schema(ApiKey::kProduce, MessageKind::kRequest) == nullptr);
  CHECK_THROWS_WITH(schema_for(ApiKey::kProduce, MessageKind::kResponse),
                    "Produce: kepoch has no schema for Produce (api key 0) responses");
}

TEST_CASE("API keys are Kafka's numbers and names", "[protocol]") {
  CHECK(static_cast<int>(ApiKey::kMetadata) == 3);
  CHECK(static_cast<int>(ApiKey::kOffsetForLeaderEpoch) == 23);
  CHECK(static_cast<int>(ApiKey::kDescribeTopicPartitions) == 75);
  CHECK(api_key_name(ApiKey::kSaslAuthenticate) == "SaslAuthenticate");
  CHECK(api_key_name(std::int16_t{92}) == "DeleteShareGroupOffsets");
  CHECK(api_key_name(std::int16_t{93}) == std::nullopt);
  CHECK(api_key_name(std::int16_t{-1}) == std::nullopt);
  CHECK(api_key_from_name("ListOffsets") == ApiKey::kListOffsets);
  CHECK(api_key_from_name("Nope") == std::nullopt);
  CHECK(describe_api_key(60) == "DescribeCluster");
  CHECK(describe_api_key(1000) == "ApiKey(1000)");
}

TEST_CASE("kepoch speaks each API's valid versions and picks the highest shared one",
          "[protocol]") {
  const auto metadata = supported_versions(ApiKey::kMetadata);
  REQUIRE(metadata);
  CHECK(metadata->lowest == 0);
  CHECK(metadata->highest == 13);
  CHECK(supported_versions(ApiKey::kProduce) == std::nullopt);

  CHECK(pick_version(ApiKey::kMetadata, 0, 12) == 12);
  CHECK(pick_version(ApiKey::kMetadata, 0, 20) == 13);
  CHECK(pick_version(ApiKey::kListOffsets, 1, 10) == 10);
  CHECK(pick_version(ApiKey::kListOffsets, 0, 0) == std::nullopt);  // kepoch: 1..10
  CHECK(pick_version(ApiKey::kOffsetForLeaderEpoch, 0, 1) == std::nullopt);
  CHECK(pick_version(ApiKey::kOffsetForLeaderEpoch, 0, 3) == 3);
  CHECK(pick_version(ApiKey::kDescribeTopicPartitions, 0, 0) == 0);
  CHECK(pick_version(ApiKey::kFetch, 0, 17) == 17);
  CHECK(pick_version(ApiKey::kFetch, 0, 3) == std::nullopt);  // kepoch: 4..18, as Kafka 4
  CHECK(pick_version(ApiKey::kProduce, 0, 12) == std::nullopt);
  CHECK(pick_version(ApiKey::kMetadata, 14, 20) == std::nullopt);
}

TEST_CASE("Header versions follow ApiMessageType", "[protocol]") {
  CHECK(request_header_version(ApiKey::kMetadata, 8) == 1);
  CHECK(request_header_version(ApiKey::kMetadata, 9) == 2);
  CHECK(response_header_version(ApiKey::kMetadata, 8) == 0);
  CHECK(response_header_version(ApiKey::kMetadata, 9) == 1);
  // ApiVersions: the request header follows the rule, the response header is always v0.
  CHECK(request_header_version(ApiKey::kApiVersions, 3) == 2);
  CHECK(response_header_version(ApiKey::kApiVersions, 3) == 0);
  CHECK(response_header_version(ApiKey::kApiVersions, 4) == 0);
  // SaslHandshake is never flexible.
  CHECK(request_header_version(ApiKey::kSaslHandshake, 1) == 1);
  CHECK(response_header_version(ApiKey::kSaslHandshake, 1) == 0);
  CHECK(request_header_version(ApiKey::kDescribeTopicPartitions, 0) == 2);
  CHECK_THROWS_AS(request_header_version(ApiKey::kMetadata, 14), ProtocolError);
  CHECK(request_header_version(ApiKey::kFetch, 11) == 1);
  CHECK(request_header_version(ApiKey::kFetch, 12) == 2);
  CHECK_THROWS_AS(response_header_version(ApiKey::kFetch, 3), ProtocolError);
  CHECK_THROWS_AS(response_header_version(ApiKey::kProduce, 4), ProtocolError);
}
