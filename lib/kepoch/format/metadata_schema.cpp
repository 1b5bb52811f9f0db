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

SchemaValue read_fields(FlexibleReader& f, std::span<const SchemaField> fields,
                        std::uint32_t version, std::string_view where);

// One element of `field`'s type (an array's element, or the field itself).
SchemaValue read_one(FlexibleReader& f, const SchemaField& field, std::uint32_t version) {
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
      return read_fields(f, field.fields, version, name);
    case SchemaType::string:
    case SchemaType::bytes:
      break;  // nullable: read by read_field
  }
  return {};
}

// A field present in `version`: null where the version allows one.
SchemaValue read_field(FlexibleReader& f, const SchemaField& field, std::uint32_t version) {
  const std::string_view name = field.kafka_name;
  const bool may_be_null = nullable(field, version);
  if (field.array) {
    const std::uint64_t at = f.in().position();
    const auto n = f.nullable_array_length(name);
    if (!n) {
      if (!may_be_null)
        throw FormatError(at, fmt::format("non-nullable field {} was serialized as null", name));
      return {};
    }
    SchemaValue out;
    out.kind = SchemaValue::Kind::array;
    out.items.reserve(*n);
    for (std::size_t i = 0; i < *n; ++i) {
      if (field.type == SchemaType::string) {
        out.items.push_back(text(f.string(name)));
      } else {
        out.items.push_back(read_one(f, field, version));
      }
    }
    return out;
  }
  if (field.type == SchemaType::string) {
    if (may_be_null) {
      auto s = f.nullable_string(name);
      return s ? text(std::move(*s)) : SchemaValue{};
    }
    return text(f.string(name));
  }
  if (field.type == SchemaType::bytes) {
    // Compact bytes: uvarint (length + 1), 0 = null; the bytes themselves never printed.
    ByteReader& in = f.in();
    const std::uint64_t at = in.position();
    const std::int64_t len = static_cast<std::int64_t>(in.unsigned_varint(name)) - 1;
    if (len < 0) {
      if (!may_be_null)
        throw FormatError(at, fmt::format("non-nullable field {} was serialized as null", name));
      return {};
    }
    in.bytes(static_cast<std::size_t>(len), name);
    return text("(redacted)");
  }
  return read_one(f, field, version);
}

SchemaValue read_fields(FlexibleReader& f, std::span<const SchemaField> fields,
                        std::uint32_t version, std::string_view where) {
  std::vector<std::optional<SchemaValue>> values(fields.size());
  for (std::size_t i = 0; i < fields.size(); ++i) {
    const SchemaField& field = fields[i];
    if (!in_version(field.first_version, field.last_version, version) || tagged(field, version))
      continue;
    values[i] = read_field(f, field, version);
  }
  f.tagged_fields(where, [&](std::uint32_t tag, FlexibleReader& t) {
    for (std::size_t i = 0; i < fields.size(); ++i) {
      const SchemaField& field = fields[i];
      if (field.tag == static_cast<std::int32_t>(tag) && tagged(field, version) &&
          in_version(field.first_version, field.last_version, version)) {
        values[i] = read_field(t, field, version);
        return true;
      }
    }
    return false;
  });
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
                                 std::uint32_t version) {
  return read_fields(f, schema.fields, version, schema.name);
}

}  // namespace kepoch
