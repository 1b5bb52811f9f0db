// Struct: the named, type-checked access to a message value (declared in value.hpp).
#include <fmt/format.h>

#include <algorithm>

#include "kepoch/base/error.hpp"
#include "kepoch/cluster/protocol/value.hpp"

namespace kepoch::cluster::protocol {
namespace {

std::string describe(const FieldSchema& f) {
  if (f.type == FieldType::kArray) {
    return f.element_type == FieldType::kStruct
               ? fmt::format("array of {}", f.fields->name)
               : fmt::format("array of {}", field_type_name(f.element_type));
  }
  if (f.type == FieldType::kStruct) return fmt::format("struct {}", f.fields->name);
  return std::string(field_type_name(f.type));
}

}  // namespace

Struct::Struct(const StructSchema& schema) : schema_(&schema) {
  values_.reserve(schema.fields.size());
  for (const auto& f : schema.fields)
    values_.push_back(default_value(f));
}

bool operator==(const Struct& a, const Struct& b) {
  return a.schema_ == b.schema_ && a.values_ == b.values_;
}

void Struct::fail(std::string_view name, const std::string& what) const {
  throw ProtocolError(std::string(schema_->name), std::string(name), what);
}

std::size_t Struct::index_of(std::string_view name) const {
  const auto& fields = schema_->fields;
  const auto it = std::find_if(fields.begin(), fields.end(),
                               [&](const FieldSchema& f) { return f.name == name; });
  if (it == fields.end()) {
    std::string known;
    for (const auto& f : fields)
      known += fmt::format("{}{}", known.empty() ? "" : ", ", f.name);
    fail(name, fmt::format("no such field (fields: {})", known));
  }
  return static_cast<std::size_t>(it - fields.begin());
}

bool Struct::has_field(std::string_view name) const {
  return std::any_of(schema_->fields.begin(), schema_->fields.end(),
                     [&](const FieldSchema& f) { return f.name == name; });
}

const FieldSchema& Struct::field(std::string_view name) const {
  return schema_->fields[index_of(name)];
}

const Value& Struct::get(std::string_view name) const {
  return values_[index_of(name)];
}

Struct& Struct::set(std::string_view name, Value value) {
  const std::size_t i = index_of(name);
  const FieldSchema& f = schema_->fields[i];
  if (!fits(f, value)) {
    fail(name, fmt::format("expected {}{}, found {}", describe(f),
                           value.is_null() ? " (never nullable)" : "", value.type_name()));
  }
  values_[i] = std::move(value);
  return *this;
}

bool Struct::is_null(std::string_view name) const {
  return get(name).is_null();
}

Struct& Struct::set_null(std::string_view name) {
  return set(name, Value());
}

// The value of a field that must have `type`; for bytes, records also qualify.
const Value& Struct::typed(std::string_view name, FieldType type) const {
  const std::size_t i = index_of(name);
  const FieldSchema& f = schema_->fields[i];
  const bool same = f.type == type || (type == FieldType::kBytes && f.type == FieldType::kRecords);
  if (!same) {
    fail(name, fmt::format("expected a {} field, found {}", field_type_name(type), describe(f)));
  }
  return values_[i];
}

#define KEPOCH_SCALAR_ACCESS(getter, setter, ctype, ftype) \
  ctype Struct::getter(std::string_view name) const {      \
    return typed(name, ftype).as<ctype>();                 \
  }                                                        \
  Struct& Struct::setter(std::string_view name, ctype v) { \
    typed(name, ftype);                                    \
    values_[index_of(name)] = Value(v);                    \
    return *this;                                          \
  }

KEPOCH_SCALAR_ACCESS(get_bool, set_bool, bool, FieldType::kBool)
KEPOCH_SCALAR_ACCESS(get_int8, set_int8, std::int8_t, FieldType::kInt8)
KEPOCH_SCALAR_ACCESS(get_int16, set_int16, std::int16_t, FieldType::kInt16)
KEPOCH_SCALAR_ACCESS(get_uint16, set_uint16, std::uint16_t, FieldType::kUint16)
KEPOCH_SCALAR_ACCESS(get_int32, set_int32, std::int32_t, FieldType::kInt32)
KEPOCH_SCALAR_ACCESS(get_uint32, set_uint32, std::uint32_t, FieldType::kUint32)
KEPOCH_SCALAR_ACCESS(get_int64, set_int64, std::int64_t, FieldType::kInt64)
KEPOCH_SCALAR_ACCESS(get_float64, set_float64, double, FieldType::kFloat64)
#undef KEPOCH_SCALAR_ACCESS

const Uuid& Struct::get_uuid(std::string_view name) const {
  return typed(name, FieldType::kUuid).as<Uuid>();
}

Struct& Struct::set_uuid(std::string_view name, const Uuid& v) {
  return set(name, Value(v));
}

const std::string& Struct::get_string(std::string_view name) const {
  const Value& v = typed(name, FieldType::kString);
  if (v.is_null()) fail(name, "expected a string, found null");
  return v.as<std::string>();
}

std::optional<std::string> Struct::get_nullable_string(std::string_view name) const {
  const Value& v = typed(name, FieldType::kString);
  if (v.is_null()) return std::nullopt;
  return v.as<std::string>();
}

Struct& Struct::set_string(std::string_view name, std::string v) {
  return set(name, Value(std::move(v)));
}

const Bytes& Struct::get_bytes(std::string_view name) const {
  const Value& v = typed(name, FieldType::kBytes);
  if (v.is_null()) fail(name, "expected bytes, found null");
  return v.as<Bytes>();
}

std::optional<Bytes> Struct::get_nullable_bytes(std::string_view name) const {
  const Value& v = typed(name, FieldType::kBytes);
  if (v.is_null()) return std::nullopt;
  return v.as<Bytes>();
}

Struct& Struct::set_bytes(std::string_view name, Bytes v) {
  return set(name, Value(std::move(v)));
}

const Array& Struct::get_array(std::string_view name) const {
  const Value& v = typed(name, FieldType::kArray);
  if (v.is_null()) fail(name, "expected an array, found null");
  return v.as_array();
}

const Array* Struct::get_nullable_array(std::string_view name) const {
  const Value& v = typed(name, FieldType::kArray);
  return v.is_null() ? nullptr : &v.as_array();
}

const Struct& Struct::get_struct(std::string_view name) const {
  const Value& v = typed(name, FieldType::kStruct);
  if (v.is_null()) fail(name, "expected a struct, found null");
  return v.as_struct();
}

const Struct* Struct::get_nullable_struct(std::string_view name) const {
  const Value& v = typed(name, FieldType::kStruct);
  return v.is_null() ? nullptr : &v.as_struct();
}

std::vector<std::int32_t> Struct::get_int32_array(std::string_view name) const {
  std::vector<std::int32_t> out;
  for (const auto& e : get_array(name))
    out.push_back(e.as<std::int32_t>());
  return out;
}

std::optional<std::vector<std::int32_t>> Struct::get_nullable_int32_array(
    std::string_view name) const {
  if (!get_nullable_array(name)) return std::nullopt;
  return get_int32_array(name);
}

std::vector<std::string> Struct::get_string_array(std::string_view name) const {
  std::vector<std::string> out;
  for (const auto& e : get_array(name))
    out.push_back(e.as<std::string>());
  return out;
}

Struct& Struct::set_int32_array(std::string_view name, const std::vector<std::int32_t>& v) {
  return set(name, Value(Array(v.begin(), v.end())));
}

Struct& Struct::set_string_array(std::string_view name, const std::vector<std::string>& v) {
  return set(name, Value(Array(v.begin(), v.end())));
}

Struct& Struct::add_element(std::string_view name) {
  const std::size_t i = index_of(name);
  const FieldSchema& f = schema_->fields[i];
  if (f.type != FieldType::kArray || f.element_type != FieldType::kStruct) {
    fail(name, fmt::format("expected an array of structs, found {}", describe(f)));
  }
  if (values_[i].is_null()) values_[i] = Value(Array{});
  auto& elements = values_[i].as_array();
  elements.emplace_back(Struct(*f.fields));
  return elements.back().as_struct();
}

Struct& Struct::set_struct(std::string_view name) {
  const std::size_t i = index_of(name);
  const FieldSchema& f = schema_->fields[i];
  if (f.type != FieldType::kStruct) {
    fail(name, fmt::format("expected a struct field, found {}", describe(f)));
  }
  if (values_[i].is_null()) values_[i] = Value(Struct(*f.fields));
  return values_[i].as_struct();
}

}  // namespace kepoch::cluster::protocol
