#pragma once
// The dynamic value the generic codec reads and writes: a Struct holds one Value per field
// of its StructSchema, in schema order, each starting at the field's default (as Kafka's
// generated *Data constructors do), so a caller sets only the fields it needs and a
// decoded message answers every field of every version (a field the version lacks reads as
// its default: MetadataResponse v5's leader_epoch is -1).
//
// Getters and setters go by snake_case field name and check the schema's type: a missing
// name or a mistyped access throws ProtocolError naming the struct and the field.

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>
#include <variant>
#include <vector>

#include "kepoch/base/uuid.hpp"
#include "kepoch/cluster/protocol/schema.hpp"

namespace kepoch::cluster::protocol {

class Value;
using Array = std::vector<Value>;
using Bytes = std::vector<std::uint8_t>;

class Struct {
 public:
  explicit Struct(const StructSchema& schema);  // every field at its default

  const StructSchema& schema() const { return *schema_; }
  std::string_view name() const { return schema_->name; }

  // By position in the schema (the codec's access).
  // Defined below Value: clang needs the element type complete to index the vector.
  const Value& at(std::size_t index) const;
  Value& at(std::size_t index);

  bool has_field(std::string_view name) const;
  const FieldSchema& field(std::string_view name) const;
  const Value& get(std::string_view name) const;
  // Replaces a field's value after checking it has the field's type (null only where the
  // field can be null in some version).
  Struct& set(std::string_view name, Value value);
  bool is_null(std::string_view name) const;
  Struct& set_null(std::string_view name);

  bool get_bool(std::string_view name) const;
  std::int8_t get_int8(std::string_view name) const;
  std::int16_t get_int16(std::string_view name) const;
  std::uint16_t get_uint16(std::string_view name) const;
  std::int32_t get_int32(std::string_view name) const;
  std::uint32_t get_uint32(std::string_view name) const;
  std::int64_t get_int64(std::string_view name) const;
  double get_float64(std::string_view name) const;
  const Uuid& get_uuid(std::string_view name) const;
  const std::string& get_string(std::string_view name) const;  // throws when null
  std::optional<std::string> get_nullable_string(std::string_view name) const;
  const Bytes& get_bytes(std::string_view name) const;  // bytes or records; throws when null
  std::optional<Bytes> get_nullable_bytes(std::string_view name) const;
  const Array& get_array(std::string_view name) const;           // throws when null
  const Array* get_nullable_array(std::string_view name) const;  // nullptr when null
  const Struct& get_struct(std::string_view name) const;         // throws when null
  const Struct* get_nullable_struct(std::string_view name) const;
  // Arrays of primitives, copied out.
  std::vector<std::int32_t> get_int32_array(std::string_view name) const;
  std::optional<std::vector<std::int32_t>> get_nullable_int32_array(std::string_view name) const;
  std::vector<std::string> get_string_array(std::string_view name) const;

  Struct& set_bool(std::string_view name, bool v);
  Struct& set_int8(std::string_view name, std::int8_t v);
  Struct& set_int16(std::string_view name, std::int16_t v);
  Struct& set_uint16(std::string_view name, std::uint16_t v);
  Struct& set_int32(std::string_view name, std::int32_t v);
  Struct& set_uint32(std::string_view name, std::uint32_t v);
  Struct& set_int64(std::string_view name, std::int64_t v);
  Struct& set_float64(std::string_view name, double v);
  Struct& set_uuid(std::string_view name, const Uuid& v);
  Struct& set_string(std::string_view name, std::string v);
  Struct& set_bytes(std::string_view name, Bytes v);
  Struct& set_int32_array(std::string_view name, const std::vector<std::int32_t>& v);
  Struct& set_string_array(std::string_view name, const std::vector<std::string>& v);
  // An array of structs: appends an element at its defaults (a null array becomes empty
  // first) and returns it; the reference holds until the array changes again.
  Struct& add_element(std::string_view name);
  // An array field to change in place (a null one becomes empty first). The caller keeps
  // the element type: the encoder checks it again.
  Array& mutable_array(std::string_view name);
  // A struct field: makes it present (a null one becomes a struct of defaults) and
  // returns it for setting.
  Struct& set_struct(std::string_view name);

  friend bool operator==(const Struct&, const Struct&);

 private:
  std::size_t index_of(std::string_view name) const;
  const Value& typed(std::string_view name, FieldType type) const;
  [[noreturn]] void fail(std::string_view name, const std::string& what) const;

  const StructSchema* schema_;
  std::vector<Value> values_;
};

class Value {
 public:
  using Variant =
      std::variant<std::monostate, bool, std::int8_t, std::int16_t, std::uint16_t, std::int32_t,
                   std::uint32_t, std::int64_t, double, Uuid, std::string, Bytes, Array, Struct>;

  Value() = default;  // null
  // One constructor per type, so a literal must say its width (Value(std::int16_t{3})).
  Value(bool v) : v_(v) {}
  Value(std::int8_t v) : v_(v) {}
  Value(std::int16_t v) : v_(v) {}
  Value(std::uint16_t v) : v_(v) {}
  Value(std::int32_t v) : v_(v) {}
  Value(std::uint32_t v) : v_(v) {}
  Value(std::int64_t v) : v_(v) {}
  Value(double v) : v_(v) {}
  Value(const Uuid& v) : v_(v) {}
  Value(std::string v) : v_(std::move(v)) {}
  Value(const char* v) : v_(std::string(v)) {}
  Value(Bytes v) : v_(std::move(v)) {}
  Value(Array v) : v_(std::move(v)) {}
  Value(Struct v) : v_(std::move(v)) {}

  bool is_null() const { return std::holds_alternative<std::monostate>(v_); }
  template <typename T>
  bool holds() const {
    return std::holds_alternative<T>(v_);
  }
  // The value as T; throws ProtocolError naming both types when it holds another.
  template <typename T>
  const T& as() const {
    if (const T* p = std::get_if<T>(&v_)) return *p;
    mistyped(index_type_name(variant_index_of<T>()));
  }
  template <typename T>
  T& as() {
    if (T* p = std::get_if<T>(&v_)) return *p;
    mistyped(index_type_name(variant_index_of<T>()));
  }
  const Struct& as_struct() const { return as<Struct>(); }
  Struct& as_struct() { return as<Struct>(); }
  const Array& as_array() const { return as<Array>(); }
  Array& as_array() { return as<Array>(); }

  const Variant& variant() const { return v_; }
  // "null", "bool", "int32", "string", "struct MetadataResponseTopic", ...
  std::string type_name() const;

  friend bool operator==(const Value&, const Value&) = default;

 private:
  template <typename T>
  static constexpr std::size_t variant_index_of() {
    return index_in(static_cast<Variant*>(nullptr), static_cast<T*>(nullptr));
  }
  template <typename T, typename... Ts>
  static constexpr std::size_t index_in(std::variant<Ts...>*, T*) {
    std::size_t i = 0;
    (void)((std::is_same_v<T, Ts> ? false : (++i, true)) && ...);
    return i;
  }
  static std::string_view index_type_name(std::size_t index);
  [[noreturn]] void mistyped(std::string_view wanted) const;

  Variant v_;
};

// The value a field holds when nobody set it, from Kafka's "default" (FieldSpec.fieldDefault).
Value default_value(const FieldSchema& field);
// Kafka's non-default check (FieldSpec.generateNonDefaultValueCheck): whether a value is
// the field's default, so that a version without the field may drop it.
bool is_default(const FieldSchema& field, const Value& value);
// Whether a value has the field's type (arrays element by element, structs by schema),
// null only where the field can be null in some version.
bool fits(const FieldSchema& field, const Value& value);

inline const Value& Struct::at(std::size_t index) const {
  return values_[index];
}
inline Value& Struct::at(std::size_t index) {
  return values_[index];
}

}  // namespace kepoch::cluster::protocol
