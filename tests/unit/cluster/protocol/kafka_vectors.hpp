#pragma once
// Test support for the protocol codec: the vectors Kafka's own serializers wrote
// (tests/data/protocol/vectors.jsonl, from tests/protocol/gen-vectors) and the mapping
// between a Struct and the JSON that Kafka's generated *JsonConverter.write() makes of the
// same message: camelCase names (mapped to kepoch's snake_case here), only the fields the
// version has, tagged fields only when not at their default, uuids in Kafka's base64 and
// bytes in Jackson's (standard base64 with padding).

#include <nlohmann/json.hpp>
#include "support/source_dir.hpp"

#include <cctype>
#include <cstdint>
#include <fstream>
#include <stdexcept>
#include <string>
#include <vector>

#include "kepoch/base/uuid.hpp"
#include "kepoch/cluster/protocol/schema.hpp"
#include "kepoch/cluster/protocol/value.hpp"

namespace kepoch::cluster::protocol::testing {

struct Vector {
  std::string api;   // "Metadata", or "RequestHeader" / "ResponseHeader"
  std::string kind;  // "request", "response" or "header"
  std::int16_t version = 0;
  std::string test_case;  // "full", "nulls" or "defaults"
  std::vector<std::uint8_t> bytes;
  nlohmann::json fields;  // keys already snake_case

  std::string label() const {
    return api + " " + kind + " v" + std::to_string(version) + " (" + test_case + ")";
  }
};

inline std::vector<std::uint8_t> from_hex(const std::string& hex) {
  std::vector<std::uint8_t> out;
  for (std::size_t i = 0; i + 1 < hex.size(); i += 2)
    out.push_back(static_cast<std::uint8_t>(std::stoi(hex.substr(i, 2), nullptr, 16)));
  return out;
}

inline std::string to_hex(const std::vector<std::uint8_t>& bytes) {
  static const char* digits = "0123456789abcdef";
  std::string out;
  for (auto b : bytes) {
    out += digits[b >> 4];
    out += digits[b & 15];
  }
  return out;
}

inline std::string snake_case(const std::string& camel) {
  std::string out;
  for (char c : camel) {
    if (std::isupper(static_cast<unsigned char>(c))) {
      if (!out.empty()) out += '_';
      out += static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
    } else {
      out += c;
    }
  }
  return out;
}

inline nlohmann::json snake_keys(const nlohmann::json& j) {
  if (j.is_object()) {
    nlohmann::json out = nlohmann::json::object();
    for (auto it = j.begin(); it != j.end(); ++it)
      out[snake_case(it.key())] = snake_keys(it.value());
    return out;
  }
  if (j.is_array()) {
    nlohmann::json out = nlohmann::json::array();
    for (const auto& e : j)
      out.push_back(snake_keys(e));
    return out;
  }
  return j;
}

inline const std::vector<Vector>& kafka_vectors() {
  static const std::vector<Vector> vectors = [] {
    std::ifstream in(std::string(KEPOCH_SOURCE_DIR) + "/tests/data/protocol/vectors.jsonl");
    if (!in) throw std::runtime_error("cannot open tests/data/protocol/vectors.jsonl");
    std::vector<Vector> out;
    std::string line;
    while (std::getline(in, line)) {
      const auto j = nlohmann::json::parse(line);
      out.push_back({j.at("api"), j.at("kind"), j.at("version").get<std::int16_t>(), j.at("case"),
                     from_hex(j.at("hex")), snake_keys(j.at("fields"))});
    }
    return out;
  }();
  return vectors;
}

// The vector of (api, kind, version, case); throws when there is none.
inline const Vector& kafka_vector(const std::string& api, const std::string& kind, int version,
                                  const std::string& test_case = "full") {
  for (const auto& v : kafka_vectors()) {
    if (v.api == api && v.kind == kind && v.version == version && v.test_case == test_case)
      return v;
  }
  throw std::runtime_error("no vector " + api + " " + kind + " v" + std::to_string(version) + " " +
                           test_case);
}

// ---------------------------------------------------------------------- base64 (Jackson)
inline std::string base64(const std::vector<std::uint8_t>& b) {
  static const char* a = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  for (std::size_t i = 0; i < b.size(); i += 3) {
    const std::uint32_t n = (std::uint32_t{b[i]} << 16) |
                            (i + 1 < b.size() ? std::uint32_t{b[i + 1]} << 8 : 0) |
                            (i + 2 < b.size() ? std::uint32_t{b[i + 2]} : 0);
    out += a[(n >> 18) & 63];
    out += a[(n >> 12) & 63];
    out += i + 1 < b.size() ? a[(n >> 6) & 63] : '=';
    out += i + 2 < b.size() ? a[n & 63] : '=';
  }
  return out;
}

inline std::vector<std::uint8_t> unbase64(const std::string& s) {
  auto value = [](char c) -> int {
    if (c >= 'A' && c <= 'Z') return c - 'A';
    if (c >= 'a' && c <= 'z') return c - 'a' + 26;
    if (c >= '0' && c <= '9') return c - '0' + 52;
    if (c == '+') return 62;
    if (c == '/') return 63;
    return -1;
  };
  std::vector<std::uint8_t> out;
  std::uint32_t acc = 0;
  int bits = 0;
  for (char c : s) {
    const int v = value(c);
    if (v < 0) continue;  // padding
    acc = (acc << 6) | static_cast<std::uint32_t>(v);
    bits += 6;
    if (bits >= 8) {
      bits -= 8;
      out.push_back(static_cast<std::uint8_t>(acc >> bits));
    }
  }
  return out;
}

// ---------------------------------------------------------------------- Struct -> JSON
inline nlohmann::json element_json(FieldType type, const Value& v, std::int16_t version);

inline nlohmann::json struct_json(const Struct& s, std::int16_t version) {
  nlohmann::json out = nlohmann::json::object();
  const auto& fields = s.schema().fields;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const FieldSchema& f = fields[i];
    if (!f.versions.contains(version)) continue;
    if (f.tagged_versions.contains(version) && is_default(f, s.at(i))) continue;
    const Value& v = s.at(i);
    if (v.is_null()) {
      out[std::string(f.name)] = nullptr;
    } else if (f.type == FieldType::kArray) {
      nlohmann::json a = nlohmann::json::array();
      for (const auto& e : v.as_array())
        a.push_back(element_json(f.element_type, e, version));
      out[std::string(f.name)] = a;
    } else {
      out[std::string(f.name)] = element_json(f.type, v, version);
    }
  }
  return out;
}

inline nlohmann::json element_json(FieldType type, const Value& v, std::int16_t version) {
  switch (type) {
    case FieldType::kBool:
      return v.as<bool>();
    case FieldType::kInt8:
      return v.as<std::int8_t>();
    case FieldType::kInt16:
      return v.as<std::int16_t>();
    case FieldType::kUint16:
      return v.as<std::uint16_t>();
    case FieldType::kInt32:
      return v.as<std::int32_t>();
    case FieldType::kUint32:
      return v.as<std::uint32_t>();
    case FieldType::kInt64:
      return v.as<std::int64_t>();
    case FieldType::kFloat64:
      return v.as<double>();
    case FieldType::kUuid:
      return v.as<Uuid>().to_string();
    case FieldType::kString:
      return v.as<std::string>();
    case FieldType::kBytes:
    case FieldType::kRecords:
      return base64(v.as<Bytes>());
    case FieldType::kStruct:
      return struct_json(v.as_struct(), version);
    case FieldType::kArray:
      break;
  }
  throw std::runtime_error("nested array");
}

// ---------------------------------------------------------------------- JSON -> Struct
inline Value element_value(FieldType type, const StructSchema* schema, const nlohmann::json& j);

inline Struct struct_from_json(const StructSchema& schema, const nlohmann::json& j) {
  Struct s(schema);
  for (auto it = j.begin(); it != j.end(); ++it) {
    const FieldSchema& f = s.field(it.key());  // throws for a field kepoch lacks
    if (it.value().is_null()) {
      s.set_null(f.name);
    } else if (f.type == FieldType::kArray) {
      Array a;
      for (const auto& e : it.value())
        a.push_back(element_value(f.element_type, f.fields, e));
      s.set(f.name, Value(std::move(a)));
    } else {
      s.set(f.name, element_value(f.type, f.fields, it.value()));
    }
  }
  return s;
}

inline Value element_value(FieldType type, const StructSchema* schema, const nlohmann::json& j) {
  switch (type) {
    case FieldType::kBool:
      return Value(j.get<bool>());
    case FieldType::kInt8:
      return Value(j.get<std::int8_t>());
    case FieldType::kInt16:
      return Value(j.get<std::int16_t>());
    case FieldType::kUint16:
      return Value(j.get<std::uint16_t>());
    case FieldType::kInt32:
      return Value(j.get<std::int32_t>());
    case FieldType::kUint32:
      return Value(j.get<std::uint32_t>());
    case FieldType::kInt64:
      return Value(j.get<std::int64_t>());
    case FieldType::kFloat64:
      return Value(j.get<double>());
    case FieldType::kUuid: {
      const auto parsed = parse_uuid(j.get<std::string>());
      if (!parsed.ok) throw std::runtime_error(parsed.error);
      return Value(parsed.uuid);
    }
    case FieldType::kString:
      return Value(j.get<std::string>());
    case FieldType::kBytes:
    case FieldType::kRecords:
      return Value(unbase64(j.get<std::string>()));
    case FieldType::kStruct:
      return Value(struct_from_json(*schema, j));
    case FieldType::kArray:
      break;
  }
  throw std::runtime_error("nested array");
}

}  // namespace kepoch::cluster::protocol::testing
