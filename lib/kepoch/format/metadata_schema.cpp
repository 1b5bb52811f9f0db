#include "kepoch/format/metadata_schema.hpp"

#include <fmt/format.h>

#include <bit>

#include "kepoch/base/byte_reader.hpp"

namespace kepoch {
namespace {

#include "kepoch/format/metadata_schema_table.inc"

bool in_version(std::int16_t first, std::int16_t last, std::uint32_t version) {
  return first >= 0 && version >= static_cast<std::uint32_t>(first) &&
         version <= static_cast<std::uint32_t>(last);
}

bool nullable(const SchemaField& field, std::uint32_t version) {
  return field.nullable_from >= 0 && version >= static_cast<std::uint32_t>(field.nullable_from);
}

bool tagged(const SchemaField& field, std::uint32_t version) {
  return field.tagged_from >= 0 && version >= static_cast<std::uint32_t>(field.tagged_from);
}

SchemaValue integer(std::int64_t v) {
  SchemaValue out;
  out.kind = SchemaValue::Kind::integer;
  out.integer = v;
  return out;
}

SchemaValue text(std::string v) {
  SchemaValue out;
  out.kind = SchemaValue::Kind::text;
  out.text = std::move(v);
  return out;
}

// How the body is read: its version, whether that version is flexible, how bytes show.
struct ReadContext {
  std::uint32_t version;
  bool flexible;
  SchemaBytes bytes;
};

SchemaValue read_fields(FlexibleReader& f, std::span<const SchemaField> fields,
                        const ReadContext& c, std::string_view where);

// One element of `field`'s type (an array's element, or the field itself).
SchemaValue read_one(FlexibleReader& f, const SchemaField& field, const ReadContext& c) {
  ByteReader& in = f.in();
  const std::string_view name = field.kafka_name;
  switch (field.type) {
    case SchemaType::int8:
      return integer(in.i8(name));
    case SchemaType::int16:
      return integer(in.i16(name));
    case SchemaType::int32:
      return integer(in.i32(name));
    case SchemaType::int64:
      return integer(in.i64(name));
    case SchemaType::uint16:
      return integer(in.u16(name));
    case SchemaType::float64: {
      SchemaValue out;
      out.kind = SchemaValue::Kind::floating;
      out.floating = std::bit_cast<double>(static_cast<std::uint64_t>(in.i64(name)));
      return out;
    }
    case SchemaType::boolean: {
      SchemaValue out;
      out.kind = SchemaValue::Kind::boolean;
      out.boolean = in.u8(name) != 0;
      return out;
    }
    case SchemaType::uuid:
      return text(f.uuid(name).to_string());
    case SchemaType::structure:
      return read_fields(f, field.fields, c, name);
    case SchemaType::string:
    case SchemaType::bytes:
      break;  // nullable: read by read_field
  }
  return {};
}

[[noreturn]] void null_refused(std::uint64_t at, std::string_view name) {
  throw FormatError(at, fmt::format("non-nullable field {} was serialized as null", name));
}

// A length Kafka's generated read takes: compact (uvarint n + 1) in flexible versions, else
// int16 (strings) or int32 (bytes, arrays); negative = null.
std::int64_t read_length(ByteReader& in, const ReadContext& c, bool int16_length,
                         std::string_view name) {
  if (c.flexible) return static_cast<std::int64_t>(in.unsigned_varint(name)) - 1;
  return int16_length ? in.i16(name) : in.i32(name);
}

std::optional<std::string> read_string(FlexibleReader& f, const ReadContext& c,
                                       std::string_view name) {
  if (c.flexible) return f.nullable_string(name);
  ByteReader& in = f.in();
  const std::int64_t n = in.i16(name);
  if (n < 0) return std::nullopt;
  const auto b = in.bytes(static_cast<std::size_t>(n), name);
  return std::string(reinterpret_cast<const char*>(b.data()), b.size());
}

// A field present in `version`: null where the version allows one. `in_tag`: read from its
// tagged field's bytes.
SchemaValue read_field(FlexibleReader& f, const SchemaField& field, const ReadContext& c,
                       bool in_tag = false) {
  const std::string_view name = field.kafka_name;
  const bool may_be_null = nullable(field, c.version);
  ByteReader& in = f.in();
  if (field.array) {
    const std::uint64_t at = in.position();
    const std::int64_t n = read_length(in, c, false, name);
    if (n < 0) {
      if (!may_be_null) null_refused(at, name);
      return {};
    }
    if (static_cast<std::uint64_t>(n) > in.remaining()) {
      in.fail(fmt::format(
          "Tried to allocate a collection of size {}, but there are only {} bytes remaining.", n,
          in.remaining()));
    }
    SchemaValue out;
    out.kind = SchemaValue::Kind::array;
    out.items.reserve(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) {
      if (field.type == SchemaType::string) {
        const std::uint64_t item_at = in.position();
        auto s = read_string(f, c, name);
        if (!s) null_refused(item_at, name);
        out.items.push_back(text(std::move(*s)));
      } else if (field.type == SchemaType::bytes) {
        out.items.push_back(read_field(f,
                                       SchemaField{field.name,
                                                   field.kafka_name,
                                                   field.type,
                                                   false,
                                                   field.first_version,
                                                   field.last_version,
                                                   -1,
                                                   -1,
                                                   -1,
                                                   {}},
                                       c));
      } else {
        out.items.push_back(read_one(f, field, c));
      }
    }
    return out;
  }
  if (field.type == SchemaType::string) {
    const std::uint64_t at = in.position();
    auto s = read_string(f, c, name);
    if (!s) {
      if (!may_be_null) null_refused(at, name);
      return {};
    }
    return text(std::move(*s));
  }
  if (field.type == SchemaType::bytes) {
    const std::uint64_t at = in.position();
    const std::int64_t len = read_length(in, c, false, name);
    if (len < 0) {
      if (!may_be_null) null_refused(at, name);
      return {};
    }
    const auto b = in.bytes(static_cast<std::size_t>(len), name);
    return text(c.bytes == SchemaBytes::base64 ? base64_text(b) : std::string("(redacted)"));
  }
  if (field.type == SchemaType::structure && may_be_null) {
    // A nullable struct: a marker first (MessageDataGenerator.generateStructReader): in a
    // tagged field a uvarint, as an int at most 0 = null (Kafka writes 1, and 0 for null);
    // elsewhere an int8, negative = null.
    if (in_tag) {
      if (static_cast<std::int32_t>(in.unsigned_varint(name)) <= 0) return {};
    } else if (in.i8(name) < 0) {
      return {};
    }
  }
  return read_one(f, field, c);
}

SchemaValue read_fields(FlexibleReader& f, std::span<const SchemaField> fields,
                        const ReadContext& c, std::string_view where) {
  std::vector<std::optional<SchemaValue>> values(fields.size());
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const SchemaField& field = fields[i];
    // A tagged field is read from the tagged section (Kafka's schemas tag fields only in
    // flexible versions; a tag below them would be a bad schema, never a wire field).
    if (!in_version(field.first_version, field.last_version, c.version) || tagged(field, c.version))
      continue;
    values[i] = read_field(f, field, c);
  }
  if (c.flexible) {
    f.tagged_fields(where, [&](std::uint32_t tag, FlexibleReader& t) {
      for (std::size_t i = 0; i < fields.size(); ++i) {
        const SchemaField& field = fields[i];
        if (field.tag == static_cast<std::int32_t>(tag) && tagged(field, c.version) &&
            in_version(field.first_version, field.last_version, c.version)) {
          values[i] = read_field(t, field, c, true);
          return true;
        }
      }
      return false;
    });
  }
  SchemaValue out;
  out.kind = SchemaValue::Kind::object;
  for (std::size_t i = 0; i < fields.size(); ++i)
    if (values[i]) out.members.push_back({fields[i].name, std::move(*values[i])});
  return out;
}

}  // namespace

std::span<const RecordSchema> metadata_record_schemas() {
  return kRecordSchemas;
}

const RecordSchema* metadata_record_schema(std::uint32_t api_key) {
  for (const auto& s : kRecordSchemas)
    if (s.api_key == api_key) return &s;
  return nullptr;
}

SchemaValue decode_schema_fields(FlexibleReader& f, const RecordSchema& schema,
                                 std::uint32_t version, SchemaBytes bytes) {
  const bool flexible =
      schema.flexible_from >= 0 && version >= static_cast<std::uint32_t>(schema.flexible_from);
  return read_fields(f, schema.fields, ReadContext{version, flexible, bytes}, schema.name);
}

std::string base64_text(std::span<const std::uint8_t> b) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::string out;
  out.reserve((b.size() + 2) / 3 * 4);
  std::size_t i = 0;
  for (; i + 2 < b.size(); i += 3) {
    const std::uint32_t v = (std::uint32_t{b[i]} << 16) | (std::uint32_t{b[i + 1]} << 8) | b[i + 2];
    for (int s = 18; s >= 0; s -= 6)
      out += kAlphabet[(v >> s) & 0x3f];
  }
  if (i < b.size()) {
    const std::uint32_t v =
        (std::uint32_t{b[i]} << 16) | (i + 1 < b.size() ? std::uint32_t{b[i + 1]} << 8 : 0);
    out += kAlphabet[(v >> 18) & 0x3f];
    out += kAlphabet[(v >> 12) & 0x3f];
    out += i + 1 < b.size() ? kAlphabet[(v >> 6) & 0x3f] : '=';
    out += '=';
  }
  return out;
}

}  // namespace kepoch
