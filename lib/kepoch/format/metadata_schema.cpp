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

// The same reading as read_field and read_fields, each value handed to a sink as it is read
// (SchemaSink) instead of stored; with no sink, only read (check_schema_fields). With a sink
// the bytes are known good, and an object's tagged fields are found before its members are
// written, so that they come in schema order as read_fields puts them.

std::optional<std::string_view> stream_string(FlexibleReader& f, const ReadContext& c,
                                              std::string_view name) {
  ByteReader& in = f.in();
  std::int64_t n = 0;
  if (c.flexible) {  // FlexibleReader::nullable_string, without the copy
    n = static_cast<std::int64_t>(in.unsigned_varint(name)) - 1;
    if (n < 0) return std::nullopt;
    if (n > 0x7fff) in.fail(fmt::format("string field {} had invalid length {}", name, n));
  } else {
    n = in.i16(name);
    if (n < 0) return std::nullopt;
  }
  const auto b = in.bytes(static_cast<std::size_t>(n), name);
  return std::string_view(reinterpret_cast<const char*>(b.data()), b.size());
}

void stream_bytes(FlexibleReader& f, const ReadContext& c, std::string_view name, bool may_be_null,
                  SchemaSink* sink) {
  ByteReader& in = f.in();
  const std::uint64_t at = in.position();
  const std::int64_t len = read_length(in, c, false, name);
  if (len < 0) {
    if (!may_be_null) null_refused(at, name);
    if (sink) sink->null();
    return;
  }
  const auto b = in.bytes(static_cast<std::size_t>(len), name);
  if (!sink) return;
  if (c.bytes == SchemaBytes::base64)
    sink->bytes(b);
  else
    sink->text("(redacted)");
}

void stream_fields(FlexibleReader& f, std::span<const SchemaField> fields, const ReadContext& c,
                   std::string_view where, SchemaSink* sink);

// Uuid::to_string's text (Kafka's Uuid.toString: URL-safe base64 without padding, always 22
// characters) written in place: a dump shows one or more per record.
constexpr std::size_t kUuidTextSize = 22;
void write_uuid_text(const Uuid& u, char (&out)[kUuidTextSize]) {
  static constexpr char kUrlAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  std::uint32_t acc = 0;
  int nbits = 0;
  std::size_t n = 0;
  for (const auto b : u.bytes) {
    acc = (acc << 8) | b;
    nbits += 8;
    while (nbits >= 6) {
      nbits -= 6;
      out[n++] = kUrlAlphabet[(acc >> nbits) & 0x3f];
    }
  }
  out[n] = kUrlAlphabet[(acc << (6 - nbits)) & 0x3f];  // 128 bits: 21 sextets and 2 bits
}

// read_one.
void stream_one(FlexibleReader& f, const SchemaField& field, const ReadContext& c,
                SchemaSink* sink) {
  ByteReader& in = f.in();
  const std::string_view name = field.kafka_name;
  std::int64_t v = 0;
  switch (field.type) {
    case SchemaType::int8:
      v = in.i8(name);
      break;
    case SchemaType::int16:
      v = in.i16(name);
      break;
    case SchemaType::int32:
      v = in.i32(name);
      break;
    case SchemaType::int64:
      v = in.i64(name);
      break;
    case SchemaType::uint16:
      v = in.u16(name);
      break;
    case SchemaType::float64: {
      const auto d = std::bit_cast<double>(static_cast<std::uint64_t>(in.i64(name)));
      if (sink) sink->floating(d);
      return;
    }
    case SchemaType::boolean: {
      const bool b = in.u8(name) != 0;
      if (sink) sink->boolean(b);
      return;
    }
    case SchemaType::uuid: {
      const Uuid u = f.uuid(name);
      if (!sink) return;
      char text[kUuidTextSize];
      write_uuid_text(u, text);
      sink->text(std::string_view(text, sizeof text));
      return;
    }
    case SchemaType::structure:
      return stream_fields(f, field.fields, c, name, sink);
    case SchemaType::string:
    case SchemaType::bytes:
      if (sink) sink->null();  // never: read by stream_field
      return;
  }
  if (sink) sink->integer(v);
}

// read_field.
void stream_field(FlexibleReader& f, const SchemaField& field, const ReadContext& c,
                  SchemaSink* sink, bool in_tag = false) {
  const std::string_view name = field.kafka_name;
  const bool may_be_null = nullable(field, c.version);
  ByteReader& in = f.in();
  if (field.array) {
    const std::uint64_t at = in.position();
    const std::int64_t n = read_length(in, c, false, name);
    if (n < 0) {
      if (!may_be_null) null_refused(at, name);
      if (sink) sink->null();
      return;
    }
    if (static_cast<std::uint64_t>(n) > in.remaining()) {
      in.fail(fmt::format(
          "Tried to allocate a collection of size {}, but there are only {} bytes remaining.", n,
          in.remaining()));
    }
    if (sink) sink->begin_array(static_cast<std::size_t>(n));
    for (std::int64_t i = 0; i < n; ++i) {
      if (field.type == SchemaType::string) {
        const std::uint64_t item_at = in.position();
        const auto s = stream_string(f, c, name);
        if (!s) null_refused(item_at, name);
        if (sink) sink->text(*s);
      } else if (field.type == SchemaType::bytes) {
        stream_bytes(f, c, name, false, sink);  // an element is never null
      } else {
        stream_one(f, field, c, sink);
      }
    }
    if (sink) sink->end_array();
    return;
  }
  if (field.type == SchemaType::string) {
    const std::uint64_t at = in.position();
    const auto s = stream_string(f, c, name);
    if (!s) {
      if (!may_be_null) null_refused(at, name);
      if (sink) sink->null();
      return;
    }
    if (sink) sink->text(*s);
    return;
  }
  if (field.type == SchemaType::bytes) return stream_bytes(f, c, name, may_be_null, sink);
  if (field.type == SchemaType::structure && may_be_null) {
    const bool null =
        in_tag ? static_cast<std::int32_t>(in.unsigned_varint(name)) <= 0 : in.i8(name) < 0;
    if (null) {
      if (sink) sink->null();
      return;
    }
  }
  stream_one(f, field, c, sink);
}

bool untagged_in(const SchemaField& field, std::uint32_t version) {
  return in_version(field.first_version, field.last_version, version) && !tagged(field, version);
}
bool tagged_in(const SchemaField& field, std::uint32_t version) {
  return in_version(field.first_version, field.last_version, version) && tagged(field, version);
}

// read_fields: with a sink, the members in schema order.
void stream_fields(FlexibleReader& f, std::span<const SchemaField> fields, const ReadContext& c,
                   std::string_view where, SchemaSink* sink) {
  if (!sink) {  // wire order, as read_fields reads (the same errors, the same notes)
    for (const SchemaField& field : fields)
      if (untagged_in(field, c.version)) stream_field(f, field, c, nullptr);
    if (c.flexible) {
      f.tagged_fields(where, [&](std::uint32_t tag, FlexibleReader& t) {
        for (const SchemaField& field : fields) {
          if (field.tag == static_cast<std::int32_t>(tag) && tagged_in(field, c.version)) {
            stream_field(t, field, c, nullptr, true);
            return true;
          }
        }
        return false;
      });
    }
    return;
  }
  ByteReader& in = f.in();
  std::size_t present = 0;
  bool any_tagged = false;
  for (const SchemaField& field : fields) {
    present += untagged_in(field, c.version);
    any_tagged = any_tagged || (c.flexible && tagged_in(field, c.version));
  }
  // The tagged section, which follows the untagged fields: each known field's bytes (the last
  // of a repeated tag, as read_fields keeps it), found by reading past the fields first.
  std::vector<std::optional<ByteReader>> tagged_bytes;  // by field index; only when tagged
  std::vector<std::string> ignored;                     // notes: check_schema_fields took them
  if (any_tagged) {
    tagged_bytes.resize(fields.size());
    ByteReader probe = in;
    FlexibleReader pf(probe, ignored);
    for (const SchemaField& field : fields)
      if (untagged_in(field, c.version)) stream_field(pf, field, c, nullptr);
    const std::uint32_t count = probe.unsigned_varint("tagged field count");
    for (std::uint32_t i = 0; i < count; ++i) {
      const std::uint32_t tag = probe.unsigned_varint("tag");
      const std::uint32_t size = probe.unsigned_varint("tagged field size");
      ByteReader bytes = probe.sub(size, "tagged field");
      for (std::size_t k = 0; k < fields.size(); ++k) {
        if (fields[k].tag == static_cast<std::int32_t>(tag) && tagged_in(fields[k], c.version)) {
          present += !tagged_bytes[k];
          tagged_bytes[k] = bytes;
          break;
        }
      }
    }
  }
  sink->begin_object(present == 0);
  for (std::size_t k = 0; k < fields.size(); ++k) {
    const SchemaField& field = fields[k];
    if (untagged_in(field, c.version)) {
      sink->key(field.name);
      stream_field(f, field, c, sink);
    } else if (any_tagged && tagged_bytes[k]) {
      sink->key(field.name);
      FlexibleReader t(*tagged_bytes[k], ignored);
      stream_field(t, field, c, sink, true);
    }
  }
  sink->end_object();
  if (c.flexible) {  // past the tagged section
    const std::uint32_t count = in.unsigned_varint("tagged field count");
    for (std::uint32_t i = 0; i < count; ++i) {
      in.unsigned_varint("tag");
      in.skip(in.unsigned_varint("tagged field size"), "tagged field");
    }
  }
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
  std::string out(base64_size(b.size()), '\0');
  write_base64(b, out.data());
  return out;
}

char* write_base64(std::span<const std::uint8_t> b, char* p) {
  static constexpr char kAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  std::size_t i = 0;
  for (; i + 2 < b.size(); i += 3) {
    const std::uint32_t v = (std::uint32_t{b[i]} << 16) | (std::uint32_t{b[i + 1]} << 8) | b[i + 2];
    *p++ = kAlphabet[(v >> 18) & 0x3f];
    *p++ = kAlphabet[(v >> 12) & 0x3f];
    *p++ = kAlphabet[(v >> 6) & 0x3f];
    *p++ = kAlphabet[v & 0x3f];
  }
  if (i < b.size()) {
    const std::uint32_t v =
        (std::uint32_t{b[i]} << 16) | (i + 1 < b.size() ? std::uint32_t{b[i + 1]} << 8 : 0);
    *p++ = kAlphabet[(v >> 18) & 0x3f];
    *p++ = kAlphabet[(v >> 12) & 0x3f];
    *p++ = i + 1 < b.size() ? kAlphabet[(v >> 6) & 0x3f] : '=';
    *p++ = '=';
  }
  return p;
}

void SchemaSink::bytes(std::span<const std::uint8_t> v) {
  base64_.resize(base64_size(v.size()));
  write_base64(v, base64_.data());
  text(base64_);
}

}  // namespace kepoch

namespace kepoch {

void check_schema_fields(FlexibleReader& f, const RecordSchema& schema, std::uint32_t version) {
  const bool flexible =
      schema.flexible_from >= 0 && version >= static_cast<std::uint32_t>(schema.flexible_from);
  stream_fields(f, schema.fields, ReadContext{version, flexible, SchemaBytes::redacted},
                schema.name, nullptr);
}

void write_schema_fields(ByteReader& in, const RecordSchema& schema, std::uint32_t version,
                         SchemaSink& sink, SchemaBytes bytes) {
  const bool flexible =
      schema.flexible_from >= 0 && version >= static_cast<std::uint32_t>(schema.flexible_from);
  std::vector<std::string> ignored;  // no note: the bytes were checked
  FlexibleReader f(in, ignored);
  stream_fields(f, schema.fields, ReadContext{version, flexible, bytes}, schema.name, &sink);
}

void write_schema_value(const SchemaValue& s, SchemaSink& sink) {
  switch (s.kind) {
    case SchemaValue::Kind::null:
      return sink.null();
    case SchemaValue::Kind::boolean:
      return sink.boolean(s.boolean);
    case SchemaValue::Kind::integer:
      return sink.integer(s.integer);
    case SchemaValue::Kind::floating:
      return sink.floating(s.floating);
    case SchemaValue::Kind::text:
      return sink.text(s.text);
    case SchemaValue::Kind::array:
      sink.begin_array(s.items.size());
      for (const auto& item : s.items)
        write_schema_value(item, sink);
      return sink.end_array();
    case SchemaValue::Kind::object:
      sink.begin_object(s.members.empty());
      for (const auto& m : s.members) {
        sink.key(m.name);
        write_schema_value(m.value, sink);
      }
      return sink.end_object();
  }
}

}  // namespace kepoch
