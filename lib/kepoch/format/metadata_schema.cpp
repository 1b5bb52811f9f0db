#include "kepoch/format/metadata_schema.hpp"

#include <fmt/format.h>

#include <algorithm>

#include <array>
#include <bit>
#include <cstring>
#include <memory>

#include "kepoch/base/byte_reader.hpp"
#include "kepoch/format/schema_walk.hpp"

namespace kepoch {
namespace {

using schema_walk::null_refused;
using schema_walk::read_length;
using schema_walk::ReadContext;

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
    // Room for what the bytes left can hold (an element takes a byte at least; n was checked
    // against the bytes left only, and an element held is ~100 bytes).
    out.items.reserve(std::min<std::size_t>(static_cast<std::size_t>(n), 4096));
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

namespace schema_walk {

[[noreturn]] void not_plain(ByteReader& in, std::string_view what) {
  in.fail(fmt::format("{} (read again by the check)", what));
}

[[noreturn]] void null_refused(std::uint64_t at, std::string_view name) {
  throw FormatError(at, fmt::format("non-nullable field {} was serialized as null", name));
}

namespace {

// The bytes of a field that is always the same size, else 0.
std::uint32_t fixed_size(const SchemaField& field, bool may_be_null) {
  if (field.array || may_be_null) return 0;
  switch (field.type) {
    case SchemaType::int8:
    case SchemaType::boolean:
      return 1;
    case SchemaType::int16:
    case SchemaType::uint16:
      return 2;
    case SchemaType::int32:
      return 4;
    case SchemaType::int64:
    case SchemaType::float64:
      return 8;
    case SchemaType::uuid:
      return 16;
    default:
      return 0;
  }
}

std::unique_ptr<CompiledFields> compile_fields(std::span<const SchemaField> fields,
                                               std::uint32_t version, std::string_view where) {
  auto out = std::make_unique<CompiledFields>();
  out->where = where;
  for (const SchemaField& field : fields) {
    if (!in_version(field.first_version, field.last_version, version)) continue;
    const bool is_tagged = tagged(field, version);
    if (is_tagged)
      ++out->tagged;
    else if (out->tagged > 0)
      out->tagged_last = false;
    else
      ++out->untagged;
    const CompiledFields* nested = field.type == SchemaType::structure
                                       ? &compiled_fields(field.fields, version, field.kafka_name)
                                       : nullptr;
    CompiledField& cf = out->fields.emplace_back(
        CompiledField{&field, nested, nullable(field, version), is_tagged});
    cf.time_named = field.name == "timestamp" || field.name.ends_with("_timestamp");
    if (!field.array && !is_tagged) {
      using Kind = CompiledField::Kind;
      switch (field.type) {
        case SchemaType::int8:
          cf.kind = Kind::int8;
          break;
        case SchemaType::int16:
          cf.kind = Kind::int16;
          break;
        case SchemaType::int32:
          cf.kind = Kind::int32;
          break;
        case SchemaType::int64:
          cf.kind = Kind::int64;
          break;
        case SchemaType::uint16:
          cf.kind = Kind::uint16;
          break;
        case SchemaType::boolean:
          cf.kind = Kind::boolean;
          break;
        case SchemaType::string:
          cf.kind = Kind::string;
          break;
        default:
          break;
      }
    }
    if (!field.name.empty() && field.name.size() <= kPaddedNameSize) {
      cf.name_size = static_cast<std::uint8_t>(field.name.size());
      std::memcpy(cf.padded_name.data(), field.name.data(), field.name.size());
    }
  }
  for (std::size_t k = 0; k < out->fields.size(); ++k) {
    const CompiledField& cf = out->fields[k];
    if (cf.tagged) continue;
    const std::uint32_t size = fixed_size(*cf.field, cf.nullable);
    auto& steps = out->check_steps;
    const bool extends = size > 0 && !steps.empty() && steps.back().fixed > 0 &&
                         steps.back().first + steps.back().count == k;
    if (extends) {
      steps.back().fixed += size;
      ++steps.back().count;
    } else {
      steps.push_back({size, static_cast<std::uint32_t>(k), 1});
    }
  }
  if (!out->tagged_last) {  // untagged counts every untagged field
    out->untagged = 0;
    for (const CompiledField& f : out->fields)
      out->untagged += !f.tagged;
  }
  return out;
}

// The compiled fields of (fields, version, where), made on first use. Per thread: no lock
// (the cache is small: one entry per struct and version read). A record's key and value are
// looked up per record: a direct-mapped front (plain data, no thread_local initialisation)
// finds them without a search.
struct CompiledKey {
  const SchemaField* fields = nullptr;
  std::size_t size = 0;
  std::uint32_t version = 0;
  const char* where = nullptr;
  std::size_t where_size = 0;
  bool operator==(const CompiledKey&) const = default;
};

}  // namespace

const CompiledFields& compiled_fields(std::span<const SchemaField> fields, std::uint32_t version,
                                      std::string_view where) {
  struct Front {
    CompiledKey key;
    const CompiledFields* compiled;
  };
  constexpr int kFrontBits = 6;
  thread_local std::array<Front, std::size_t{1} << kFrontBits> front{};
  const CompiledKey key{fields.data(), fields.size(), version, where.data(), where.size()};
  Front& slot = front[static_cast<std::size_t>(
      ((reinterpret_cast<std::uintptr_t>(fields.data()) + version) * 0x9E3779B97F4A7C15ull) >>
      (64 - kFrontBits))];
  if (slot.compiled && slot.key == key) return *slot.compiled;
  struct Entry {
    CompiledKey key;
    std::unique_ptr<CompiledFields> compiled;
  };
  thread_local std::vector<Entry> cache;  // a few dozen entries at most
  for (const Entry& e : cache) {
    if (e.key == key) {
      slot = {key, e.compiled.get()};
      return *e.compiled;
    }
  }
  auto compiled = compile_fields(fields, version, where);  // may add nested entries first
  cache.push_back({key, std::move(compiled)});
  slot = {key, cache.back().compiled.get()};
  return *cache.back().compiled;
}

// The tagged field of `fields` with `tag`, the first in schema order (read_fields' search).
const CompiledField* tagged_field(const CompiledFields& fields, std::uint32_t tag) {
  for (const CompiledField& cf : fields.fields)
    if (cf.tagged && cf.field->tag == static_cast<std::int32_t>(tag)) return &cf;
  return nullptr;
}

// Past a tagged section whose fields were read already (with a sink: the bytes were checked;
// strict, every tag in it is one the check notes).
void skip_tagged_section(ByteReader& in, const ReadContext& c) {
  const std::uint32_t count = in.unsigned_varint("tagged field count");
  if (c.strict && count > 0) not_plain(in, "an unknown tagged field");
  for (std::uint32_t i = 0; i < count; ++i) {
    in.unsigned_varint("tag");
    in.skip(in.unsigned_varint("tagged field size"), "tagged field");
  }
}

const CompiledFields& compiled_schema(const RecordSchema& schema, std::uint32_t version) {
  return compiled_fields(schema.fields, version, schema.name);
}

bool flexible_at(const RecordSchema& schema, std::uint32_t version) {
  return schema.flexible_from >= 0 && version >= static_cast<std::uint32_t>(schema.flexible_from);
}

}  // namespace schema_walk

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
  using namespace schema_walk;
  stream_fields<SchemaSink>(
      f, compiled_schema(schema, version),
      ReadContext{version, flexible_at(schema, version), SchemaBytes::redacted}, nullptr);
}

void write_schema_fields(ByteReader& in, const RecordSchema& schema, std::uint32_t version,
                         SchemaSink& sink, SchemaBytes bytes) {
  using namespace schema_walk;
  std::vector<std::string> ignored;  // no note: the bytes were checked
  FlexibleReader f(in, ignored);
  stream_fields(f, compiled_schema(schema, version),
                ReadContext{version, flexible_at(schema, version), bytes}, &sink);
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
