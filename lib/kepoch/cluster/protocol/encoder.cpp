// The generic encoder of codec.hpp: Kafka's generated write() (MessageDataGenerator
// generateClassWriter / generateVariableLengthWriter) driven by the schema tables.
#include <fmt/format.h>

#include <algorithm>

#include "kepoch/base/error.hpp"
#include "kepoch/cluster/protocol/codec.hpp"

namespace kepoch::cluster::protocol {
namespace {

constexpr std::size_t kMaxStringLength = 0x7fff;

class Encoder {
 public:
  Encoder(const MessageSchema& schema, std::int16_t version)
      : version_(version),
        flexible_(schema.flexible_versions.contains(version)),
        label_(message_label(schema, version)) {}

  void write_struct(WireWriter& out, const Struct& s) {
    std::vector<std::pair<std::int32_t, std::size_t>> tagged;  // (tag, field index)
    const auto& fields = s.schema().fields;
    for (std::size_t i = 0; i < fields.size(); ++i) {
      const FieldSchema& f = fields[i];
      const Value& v = s.at(i);
      PathScope scope(path_, f.name);
      if (!fits(f, v)) {
        fail(fmt::format("expected a value of the field's type, found {}", v.type_name()));
      }
      if (!f.versions.contains(version_)) {
        if (!f.ignorable && !is_default(f, v)) {
          fail(
              "expected the default value in a version without this field, found another "
              "(Kafka: UnsupportedVersionException)");
        }
        continue;
      }
      if (f.tagged_versions.contains(version_)) {
        if (!is_default(f, v)) tagged.emplace_back(f.tag, i);
        continue;
      }
      write_field(out, f, v, false);
    }
    if (!flexible_) return;
    std::sort(tagged.begin(), tagged.end());
    out.unsigned_varint(static_cast<std::uint32_t>(tagged.size()));
    for (const auto& [tag, i] : tagged) {
      PathScope scope(path_, fields[i].name);
      WireWriter value;
      write_field(value, fields[i], s.at(i), true);
      out.unsigned_varint(static_cast<std::uint32_t>(tag));
      out.unsigned_varint(static_cast<std::uint32_t>(value.size()));
      out.bytes(value.data());
    }
  }

 private:
  void write_field(WireWriter& out, const FieldSchema& f, const Value& v, bool tagged) {
    const bool nullable = f.nullable_versions.contains(version_);
    if (v.is_null() && !nullable) {
      fail(
          fmt::format("expected a value (the field is not nullable in v{}), found null", version_));
    }
    switch (f.type) {
      case FieldType::kString:
      case FieldType::kBytes:
      case FieldType::kRecords:
      case FieldType::kArray:
        return write_variable(out, f, v);
      case FieldType::kStruct:
        if (nullable) write_null_marker(out, v.is_null(), tagged);
        if (v.is_null()) return;
        return write_struct(out, v.as_struct());
      default:
        return write_fixed(out, f.type, v);
    }
  }

  // A nullable struct's marker: int8 -1 / 1, or in a tagged field an unsigned varint 0 / 1.
  static void write_null_marker(WireWriter& out, bool is_null, bool tagged) {
    if (tagged) {
      out.unsigned_varint(is_null ? 0 : 1);
    } else {
      out.i8(is_null ? -1 : 1);
    }
  }

  void write_fixed(WireWriter& out, FieldType type, const Value& v) {
    switch (type) {
      case FieldType::kBool:
        return out.i8(v.as<bool>() ? 1 : 0);
      case FieldType::kInt8:
        return out.i8(v.as<std::int8_t>());
      case FieldType::kInt16:
        return out.i16(v.as<std::int16_t>());
      case FieldType::kUint16:
        return out.u16(v.as<std::uint16_t>());
      case FieldType::kInt32:
        return out.i32(v.as<std::int32_t>());
      case FieldType::kUint32:
        return out.u32(v.as<std::uint32_t>());
      case FieldType::kInt64:
        return out.i64(v.as<std::int64_t>());
      case FieldType::kFloat64:
        return out.f64(v.as<double>());
      case FieldType::kUuid:
        return out.uuid(v.as<Uuid>());
      default:
        fail(fmt::format("a {} is not a fixed-size type", field_type_name(type)));
    }
  }

  // Strings, bytes, records and arrays: a length (null as -1 or 0), then the content.
  void write_variable(WireWriter& out, const FieldSchema& f, const Value& v) {
    if (v.is_null()) return write_length(out, f.type, -1);
    switch (f.type) {
      case FieldType::kString:
        return write_string(out, v.as<std::string>());
      case FieldType::kBytes:
      case FieldType::kRecords:
        write_length(out, f.type, static_cast<std::int64_t>(v.as<Bytes>().size()));
        return out.bytes(v.as<Bytes>());
      default:
        break;
    }
    const Array& elements = v.as_array();
    write_length(out, f.type, static_cast<std::int64_t>(elements.size()));
    for (std::size_t i = 0; i < elements.size(); ++i) {
      PathScope scope(path_, static_cast<std::int64_t>(i));
      write_element(out, f, elements[i]);
    }
  }

  void write_element(WireWriter& out, const FieldSchema& f, const Value& e) {
    switch (f.element_type) {
      case FieldType::kStruct:
        return write_struct(out, e.as_struct());
      case FieldType::kString:
        return write_string(out, e.as<std::string>());
      case FieldType::kBytes:
        write_length(out, FieldType::kBytes, static_cast<std::int64_t>(e.as<Bytes>().size()));
        return out.bytes(e.as<Bytes>());
      default:
        return write_fixed(out, f.element_type, e);
    }
  }

  void write_string(WireWriter& out, const std::string& s) {
    if (s.size() > kMaxStringLength) {
      fail(
          fmt::format("expected a string of at most {} bytes, found {} (Kafka: field is too "
                      "long to be serialized)",
                      kMaxStringLength, s.size()));
    }
    write_length(out, FieldType::kString, static_cast<std::int64_t>(s.size()));
    out.bytes(std::span(reinterpret_cast<const std::uint8_t*>(s.data()), s.size()));
  }

  // -1 is null. Flexible versions: uvarint (n + 1); otherwise int16 for strings, int32 else.
  void write_length(WireWriter& out, FieldType type, std::int64_t n) {
    if (n > std::numeric_limits<std::int32_t>::max() - 1) {
      fail(fmt::format("expected at most {} elements or bytes, found {}",
                       std::numeric_limits<std::int32_t>::max() - 1, n));
    }
    if (flexible_) {
      out.unsigned_varint(static_cast<std::uint32_t>(n + 1));
    } else if (type == FieldType::kString) {
      out.i16(static_cast<std::int16_t>(n));
    } else {
      out.i32(static_cast<std::int32_t>(n));
    }
  }

  [[noreturn]] void fail(const std::string& what) const {
    throw ProtocolError(label_, path_.to_string(), what);
  }

  std::int16_t version_;
  bool flexible_;
  std::string label_;
  FieldPath path_;
};

}  // namespace

std::string message_label(const MessageSchema& schema, std::int16_t version) {
  return fmt::format("{} v{}", schema.body.name, version);
}

void write_message(WireWriter& out, const MessageSchema& schema, std::int16_t version,
                   const Struct& body) {
  if (!schema.valid_versions.contains(version)) {
    throw ProtocolError(
        message_label(schema, version), "",
        fmt::format("expected a version in {}..{}, found {}", schema.valid_versions.lowest,
                    schema.valid_versions.highest, version));
  }
  if (&body.schema() != &schema.body) {
    throw ProtocolError(
        message_label(schema, version), "",
        fmt::format("expected a {} body, found a {}", schema.body.name, body.name()));
  }
  Encoder(schema, version).write_struct(out, body);
}

std::vector<std::uint8_t> encode_message(const MessageSchema& schema, std::int16_t version,
                                         const Struct& body) {
  WireWriter out;
  write_message(out, schema, version, body);
  return out.take();
}

}  // namespace kepoch::cluster::protocol
