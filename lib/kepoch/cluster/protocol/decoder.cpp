// The generic decoder of codec.hpp: Kafka's generated read() (MessageDataGenerator
// generateClassReader / generateVariableLengthReader) driven by the schema tables, with
// every length checked against the bytes that remain before anything is allocated.
#include <fmt/format.h>

#include <optional>

#include "kepoch/base/error.hpp"
#include "kepoch/cluster/protocol/codec.hpp"

namespace kepoch::cluster::protocol {
namespace {

constexpr std::int64_t kMaxStringLength = 0x7fff;

class Decoder {
 public:
  Decoder(WireReader& in, const MessageSchema& schema, std::int16_t version)
      : in_(in), version_(version), flexible_(schema.flexible_versions.contains(version)) {}

  Struct read_struct(const StructSchema& schema) {
    Struct out(schema);  // fields outside the version keep their defaults
    for (std::size_t i = 0; i < schema.fields.size(); ++i) {
      const FieldSchema& f = schema.fields[i];
      if (!f.versions.contains(version_) || f.tagged_versions.contains(version_)) continue;
      PathScope scope(in_.path(), f.name);
      out.at(i) = read_field(f, false);
    }
    if (flexible_) read_tagged_fields(schema, out);
    return out;
  }

 private:
  void read_tagged_fields(const StructSchema& schema, Struct& out) {
    PathScope scope(in_.path(), "tagged_fields");
    const std::uint32_t count = in_.unsigned_varint();
    for (std::uint32_t k = 0; k < count; ++k) {
      const std::uint32_t tag = in_.unsigned_varint();
      const std::size_t size = in_.unsigned_varint();
      const auto index = tagged_field_index(schema, tag);
      if (!index) {
        in_.bytes(size);  // an unknown tag: skipped, as Kafka keeps it aside unread
        continue;
      }
      const FieldSchema& f = schema.fields[*index];
      PathScope field_scope(in_.path(), f.name);
      const std::size_t end = in_.limit(size);
      out.at(*index) = read_field(f, true);
      if (!in_.at_end()) {
        in_.fail(fmt::format("expected the tagged field to fill its {} bytes, found {} unread",
                             size, in_.remaining()));
      }
      in_.restore(end);
    }
  }

  std::optional<std::size_t> tagged_field_index(const StructSchema& schema, std::uint32_t tag) {
    for (std::size_t i = 0; i < schema.fields.size(); ++i) {
      const FieldSchema& f = schema.fields[i];
      if (f.tag < 0 || static_cast<std::uint32_t>(f.tag) != tag) continue;
      if (!f.versions.contains(version_) || !f.tagged_versions.contains(version_)) {
        in_.fail(
            fmt::format("expected a tag valid in v{}, found tag {} ({})", version_, tag, f.name));
      }
      return i;
    }
    return std::nullopt;
  }

  Value read_field(const FieldSchema& f, bool tagged) {
    const bool nullable = f.nullable_versions.contains(version_);
    switch (f.type) {
      case FieldType::kString:
        return read_string(nullable);
      case FieldType::kBytes:
      case FieldType::kRecords:
        return read_bytes(nullable);
      case FieldType::kArray:
        return read_array(f, nullable);
      case FieldType::kStruct:
        if (nullable && read_null_marker(tagged)) return Value();
        return Value(read_struct(*f.fields));
      default:
        return read_fixed(f.type);
    }
  }

  // A nullable struct's marker: int8 (< 0 is null), or in a tagged field a uvarint (0 is
  // null), as generateStructReader reads it.
  bool read_null_marker(bool tagged) {
    if (tagged) return in_.unsigned_varint() == 0;
    return in_.i8() < 0;
  }

  Value read_fixed(FieldType type) {
    switch (type) {
      case FieldType::kBool:
        return Value(in_.i8() != 0);
      case FieldType::kInt8:
        return Value(in_.i8());
      case FieldType::kInt16:
        return Value(in_.i16());
      case FieldType::kUint16:
        return Value(in_.u16());
      case FieldType::kInt32:
        return Value(in_.i32());
      case FieldType::kUint32:
        return Value(in_.u32());
      case FieldType::kInt64:
        return Value(in_.i64());
      case FieldType::kFloat64:
        return Value(in_.f64());
      case FieldType::kUuid:
        return Value(in_.uuid());
      default:
        in_.fail(fmt::format("a {} is not a fixed-size type", field_type_name(type)));
    }
  }

  // A length as the version writes it: -1 for null.
  std::int64_t read_length(FieldType type) {
    if (flexible_) return static_cast<std::int64_t>(in_.unsigned_varint()) - 1;
    if (type == FieldType::kString) return in_.i16();
    return in_.i32();
  }

  // The length of a string, bytes or array field; nullopt for null, which only a nullable
  // field may be (Kafka: "non-nullable field X was serialized as null").
  std::optional<std::size_t> read_checked_length(FieldType type, bool nullable) {
    const std::size_t start = in_.offset();
    const std::int64_t n = read_length(type);
    if (n < 0) {
      if (nullable) return std::nullopt;
      in_.fail_at(start,
                  fmt::format("expected a non-null {}, found length {}", field_type_name(type), n));
    }
    if (type == FieldType::kString && n > kMaxStringLength) {
      in_.fail_at(start, fmt::format("expected a string length of at most {}, found {}",
                                     kMaxStringLength, n));
    }
    // An array needs at least a byte per element in every schema kepoch reads; Kafka's
    // check is the same ("Tried to allocate a collection of size N, but there are only M
    // bytes remaining.").
    if (static_cast<std::uint64_t>(n) > in_.remaining()) {
      in_.fail_at(start, fmt::format("expected a {} of at most {} {} (what remains), found "
                                     "length {}",
                                     field_type_name(type), in_.remaining(),
                                     type == FieldType::kArray ? "elements" : "bytes", n));
    }
    return static_cast<std::size_t>(n);
  }

  Value read_string(bool nullable) {
    const auto n = read_checked_length(FieldType::kString, nullable);
    if (!n) return Value();
    const auto b = in_.bytes(*n);
    return Value(std::string(reinterpret_cast<const char*>(b.data()), b.size()));
  }

  Value read_bytes(bool nullable) {
    const auto n = read_checked_length(FieldType::kBytes, nullable);
    if (!n) return Value();
    const auto b = in_.bytes(*n);
    return Value(Bytes(b.begin(), b.end()));
  }

  Value read_array(const FieldSchema& f, bool nullable) {
    const auto n = read_checked_length(FieldType::kArray, nullable);
    if (!n) return Value();
    Array elements;
    elements.reserve(*n);
    for (std::size_t i = 0; i < *n; ++i) {
      PathScope scope(in_.path(), static_cast<std::int64_t>(i));
      elements.push_back(read_element(f));
    }
    return Value(std::move(elements));
  }

  Value read_element(const FieldSchema& f) {
    switch (f.element_type) {
      case FieldType::kStruct:
        return Value(read_struct(*f.fields));
      case FieldType::kString:
        return read_string(false);
      case FieldType::kBytes:
        return read_bytes(false);
      default:
        return read_fixed(f.element_type);
    }
  }

  WireReader& in_;
  std::int16_t version_;
  bool flexible_;
};

}  // namespace

Struct read_message(WireReader& in, const MessageSchema& schema, std::int16_t version) {
  in.set_message(message_label(schema, version));
  if (!schema.valid_versions.contains(version)) {
    in.fail(fmt::format("expected a version in {}..{}, found {}", schema.valid_versions.lowest,
                        schema.valid_versions.highest, version));
  }
  return Decoder(in, schema, version).read_struct(schema.body);
}

Struct decode_message(const MessageSchema& schema, std::int16_t version,
                      std::span<const std::uint8_t> bytes) {
  WireReader in(bytes, message_label(schema, version));
  Struct body = read_message(in, schema, version);
  if (!in.at_end()) {
    in.fail(fmt::format("expected the end of the message, found {} more byte{}", in.remaining(),
                        in.remaining() == 1 ? "" : "s"));
  }
  return body;
}

}  // namespace kepoch::cluster::protocol
