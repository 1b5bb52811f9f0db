#include "kepoch/cluster/protocol/value.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <cctype>
#include <charconv>

#include "kepoch/base/error.hpp"

namespace kepoch::cluster::protocol {
namespace {

// Kafka's default text as a number: decimal, or hexadecimal after "0x" (FieldSpec).
template <typename T>
T parse_default(const FieldSchema& field) {
  std::string_view text = field.default_value;
  if (text.empty()) return T{};
  int base = 10;
  bool negative = false;
  if (text.starts_with('-')) {
    negative = true;
    text.remove_prefix(1);
  }
  if (text.starts_with("0x")) {
    base = 16;
    text.remove_prefix(2);
  }
  std::int64_t magnitude = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), magnitude, base);
  const std::int64_t v = negative ? -magnitude : magnitude;
  if (ec != std::errc() || end != text.data() + text.size() ||
      v < static_cast<std::int64_t>(std::numeric_limits<T>::min()) ||
      v > static_cast<std::int64_t>(std::numeric_limits<T>::max())) {
    throw ProtocolError(std::string(field.name), "",
                        fmt::format("invalid default \"{}\" for a {} field", field.default_value,
                                    field_type_name(field.type)));
  }
  return static_cast<T>(v);
}

double parse_double_default(const FieldSchema& field) {
  const std::string_view text = field.default_value;
  if (text.empty()) return 0.0;
  double v = 0;
  const auto [end, ec] = std::from_chars(text.data(), text.data() + text.size(), v);
  if (ec != std::errc() || end != text.data() + text.size()) {
    throw ProtocolError(std::string(field.name), "",
                        fmt::format("invalid default \"{}\" for a float64 field", text));
  }
  return v;
}

bool iequals(std::string_view a, std::string_view b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(), [](char x, char y) {
    return std::tolower(static_cast<unsigned char>(x)) ==
           std::tolower(static_cast<unsigned char>(y));
  });
}

// Whether a non-null value has a type (a struct: the schema itself).
bool fits_type(FieldType type, const StructSchema* schema, const Value& v) {
  switch (type) {
    case FieldType::kBool:
      return v.holds<bool>();
    case FieldType::kInt8:
      return v.holds<std::int8_t>();
    case FieldType::kInt16:
      return v.holds<std::int16_t>();
    case FieldType::kUint16:
      return v.holds<std::uint16_t>();
    case FieldType::kInt32:
      return v.holds<std::int32_t>();
    case FieldType::kUint32:
      return v.holds<std::uint32_t>();
    case FieldType::kInt64:
      return v.holds<std::int64_t>();
    case FieldType::kFloat64:
      return v.holds<double>();
    case FieldType::kUuid:
      return v.holds<Uuid>();
    case FieldType::kString:
      return v.holds<std::string>();
    case FieldType::kBytes:
    case FieldType::kRecords:
      return v.holds<Bytes>();
    case FieldType::kStruct:
      return v.holds<Struct>() && &v.as_struct().schema() == schema;
    case FieldType::kArray:
      return false;  // no nested arrays in Kafka's schemas
  }
  return false;
}

bool can_be_null(const FieldSchema& field) {
  return !field.nullable_versions.empty() || field.default_value == "null" ||
         field.type == FieldType::kRecords;
}

}  // namespace

Value default_value(const FieldSchema& field) {
  if (field.default_value == "null" || field.type == FieldType::kRecords) return Value();
  switch (field.type) {
    case FieldType::kBool:
      return Value(iequals(field.default_value, "true"));
    case FieldType::kInt8:
      return Value(parse_default<std::int8_t>(field));
    case FieldType::kInt16:
      return Value(parse_default<std::int16_t>(field));
    case FieldType::kUint16:
      return Value(parse_default<std::uint16_t>(field));
    case FieldType::kInt32:
      return Value(parse_default<std::int32_t>(field));
    case FieldType::kUint32:
      return Value(parse_default<std::uint32_t>(field));
    case FieldType::kInt64:
      return Value(parse_default<std::int64_t>(field));
    case FieldType::kFloat64:
      return Value(parse_double_default(field));
    case FieldType::kUuid: {
      if (field.default_value.empty()) return Value(Uuid{});
      const auto parsed = parse_uuid(field.default_value);
      if (!parsed.ok) throw ProtocolError(std::string(field.name), "", parsed.error);
      return Value(parsed.uuid);
    }
    case FieldType::kString:
      return Value(std::string(field.default_value));
    case FieldType::kBytes:
    case FieldType::kRecords:
      return Value(Bytes{});
    case FieldType::kStruct:
      return Value(Struct(*field.fields));
    case FieldType::kArray:
      return Value(Array{});
  }
  return Value();
}

bool is_default(const FieldSchema& field, const Value& value) {
  return value == default_value(field);
}

bool fits(const FieldSchema& field, const Value& value) {
  if (value.is_null()) return can_be_null(field);
  if (field.type != FieldType::kArray) return fits_type(field.type, field.fields, value);
  if (!value.holds<Array>()) return false;
  const auto& elements = value.as_array();
  return std::all_of(elements.begin(), elements.end(), [&](const Value& e) {
    return fits_type(field.element_type, field.fields, e);
  });
}

std::string_view Value::index_type_name(std::size_t index) {
  static constexpr std::string_view kNames[] = {"null",   "bool",   "int8",  "int16",   "uint16",
                                                "int32",  "uint32", "int64", "float64", "uuid",
                                                "string", "bytes",  "array", "struct"};
  return index < std::size(kNames) ? kNames[index] : "?";
}

std::string Value::type_name() const {
  if (const auto* s = std::get_if<Struct>(&v_)) return fmt::format("struct {}", s->name());
  return std::string(index_type_name(v_.index()));
}

void Value::mistyped(std::string_view wanted) const {
  throw ProtocolError("", "", fmt::format("expected {}, found {}", wanted, type_name()));
}

}  // namespace kepoch::cluster::protocol
