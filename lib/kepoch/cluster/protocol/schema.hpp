#pragma once
// Message schemas as tables: the C++ mirror of Kafka's JSON message definitions
// (clients/src/main/resources/common/message/*.json, read by Kafka's generator into
// MessageSpec / StructSpec / FieldSpec). One FieldSchema per JSON field, with the same
// attributes: versions, nullableVersions, taggedVersions and tag, ignorable, default, and
// the nested fields of struct and struct-array types. Names are the snake_case of Kafka's
// ("LeaderEpoch" -> "leader_epoch"). The generic codec (codec.hpp) reads these tables.

#include <cstdint>
#include <limits>
#include <span>
#include <string_view>

#include "kepoch/cluster/protocol/api_key.hpp"

namespace kepoch::cluster::protocol {

// A closed version range, Kafka's Versions: "3+" is {3, max}, "8-10" is {8, 10}, "none" is
// empty.
struct Versions {
  std::int16_t lowest = 0;
  std::int16_t highest = -1;

  constexpr bool empty() const { return highest < lowest; }
  constexpr bool contains(std::int16_t v) const { return lowest <= v && v <= highest; }
};

inline constexpr Versions kNoVersions{};
constexpr Versions since(std::int16_t v) {
  return {v, std::numeric_limits<std::int16_t>::max()};
}
constexpr Versions between(std::int16_t lowest, std::int16_t highest) {
  return {lowest, highest};
}

// Kafka's field types (org.apache.kafka.message.FieldType). Bytes and records are both
// kept as raw bytes; records are never decompressed or parsed here.
enum class FieldType : std::uint8_t {
  kBool,
  kInt8,
  kInt16,
  kUint16,
  kInt32,
  kUint32,
  kInt64,
  kFloat64,
  kUuid,
  kString,
  kBytes,
  kRecords,
  kStruct,
  kArray,
};

std::string_view field_type_name(FieldType type);

struct StructSchema;

struct FieldSchema {
  std::string_view name;  // snake_case of Kafka's field name
  FieldType type;
  Versions versions;
  Versions nullable_versions = kNoVersions;
  Versions tagged_versions = kNoVersions;
  std::int32_t tag = -1;
  // Kafka's "ignorable": a non-default value in a version without the field is dropped on
  // write instead of throwing UnsupportedVersionException.
  bool ignorable = false;
  // Kafka's "default" text ("-1", "true", "null", "2000"); empty is the type's zero
  // (0, false, "", the zero uuid, empty bytes, an empty array, a struct of defaults).
  std::string_view default_value = {};
  FieldType element_type = FieldType::kStruct;  // arrays only
  const StructSchema* fields = nullptr;         // struct and struct-array types only
};

struct StructSchema {
  std::string_view name;  // Kafka's struct name, e.g. "MetadataResponsePartition"
  std::span<const FieldSchema> fields;
};

enum class MessageKind : std::uint8_t { kRequest, kResponse };

struct MessageSchema {
  ApiKey api_key;
  MessageKind kind;
  Versions valid_versions;
  Versions flexible_versions;
  StructSchema body;  // body.name is the message name, e.g. "MetadataResponse"
};

}  // namespace kepoch::cluster::protocol
