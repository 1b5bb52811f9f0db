#include "kepoch/format/metadata_schema.hpp"

#include <fmt/format.h>

#include <algorithm>

#include <array>
#include <bit>
#include <memory>

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

// The same reading as read_field and read_fields, each value handed to a sink as it is read
// (SchemaSink) instead of stored; with no sink, only read (check_schema_fields). With a sink
// the bytes are known good, and an object's tagged fields are found before its members are
// written, so that they come in schema order as read_fields puts them.
//
// The walk reads a struct's fields as compiled for the version being read (CompiledFields,
// made once per struct and version and kept): which fields the version has, which are
// tagged and nullable, and the nested structs' own compiled fields. read_fields tests each
// field's versions per record; a dump of __consumer_offsets walks millions of records of a
// few schemas, and those tests, with the count of an object's members and the second read of
// its untagged fields to find its tagged section, were a fifth of its time.

struct CompiledFields;

struct CompiledField {
  const SchemaField* field;
  const CompiledFields* nested;  // a struct's fields at the same version; else nullptr
  bool nullable;                 // at the version
  bool tagged;                   // at the version: read from the tagged section
};

struct CompiledFields {
  std::string_view where;             // the struct's name in notes: the schema's or field's
  std::vector<CompiledField> fields;  // the fields the version has, schema order
  std::size_t untagged = 0;           // how many of them are not tagged
  std::size_t tagged = 0;
  // Every tagged field comes after every untagged one in schema order (Kafka's schemas put
  // them last): the untagged are then written as they are read, the tagged after them from
  // the section that follows, without reading the untagged twice.
  bool tagged_last = true;
  // The check's steps through the untagged fields, wire order: a run of fixed-size fields
  // (integers, booleans, uuids: only their length can be wrong) taken as one length test, or
  // one field read as stream_field reads it. A run too short for its bytes is read field by
  // field, to fail at the same field with the same error.
  struct CheckStep {
    std::uint32_t fixed;  // the run's bytes; 0: one field read by stream_field
    std::uint32_t first;  // its first field's index in fields
    std::uint32_t count;
  };
  std::vector<CheckStep> check_steps;
};

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

const CompiledFields& compiled_fields(std::span<const SchemaField> fields, std::uint32_t version,
                                      std::string_view where);

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
    out->fields.push_back({&field, nested, nullable(field, version), is_tagged});
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

std::optional<std::string_view> stream_string(ByteReader& in, const ReadContext& c,
                                              std::string_view name) {
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

void stream_bytes(ByteReader& in, const ReadContext& c, std::string_view name, bool may_be_null,
                  SchemaSink* sink) {
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

void stream_fields(FlexibleReader& f, const CompiledFields& fields, const ReadContext& c,
                   SchemaSink* sink);

// Uuid::to_string's text (Kafka's Uuid.toString: URL-safe base64 without padding, always 22
// characters) written in place: a dump shows one or more per record.
constexpr std::size_t kUuidTextSize = 22;
void write_uuid_text(std::span<const std::uint8_t> bytes, char (&out)[kUuidTextSize]) {
  static constexpr char kUrlAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  std::uint32_t acc = 0;
  int nbits = 0;
  std::size_t n = 0;
  for (const auto b : bytes) {
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
void stream_one(FlexibleReader& f, const CompiledField& cf, const ReadContext& c,
                SchemaSink* sink) {
  ByteReader& in = f.in();
  const SchemaField& field = *cf.field;
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
      const auto bytes = in.bytes(16, name);
      if (!sink) return;
      char text[kUuidTextSize];
      write_uuid_text(bytes, text);
      sink->text(std::string_view(text, sizeof text));
      return;
    }
    case SchemaType::structure:
      return stream_fields(f, *cf.nested, c, sink);
    case SchemaType::string:
    case SchemaType::bytes:
      if (sink) sink->null();  // never: read by stream_field
      return;
  }
  if (sink) sink->integer(v);
}

// read_field.
void stream_field(FlexibleReader& f, const CompiledField& cf, const ReadContext& c,
                  SchemaSink* sink, bool in_tag = false) {
  const SchemaField& field = *cf.field;
  const std::string_view name = field.kafka_name;
  const bool may_be_null = cf.nullable;
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
        const auto s = stream_string(in, c, name);
        if (!s) null_refused(item_at, name);
        if (sink) sink->text(*s);
      } else if (field.type == SchemaType::bytes) {
        stream_bytes(in, c, name, false, sink);  // an element is never null
      } else {
        stream_one(f, cf, c, sink);
      }
    }
    if (sink) sink->end_array();
    return;
  }
  if (field.type == SchemaType::string) {
    const std::uint64_t at = in.position();
    const auto s = stream_string(in, c, name);
    if (!s) {
      if (!may_be_null) null_refused(at, name);
      if (sink) sink->null();
      return;
    }
    if (sink) sink->text(*s);
    return;
  }
  if (field.type == SchemaType::bytes) return stream_bytes(in, c, name, may_be_null, sink);
  if (field.type == SchemaType::structure && may_be_null) {
    const bool null =
        in_tag ? static_cast<std::int32_t>(in.unsigned_varint(name)) <= 0 : in.i8(name) < 0;
    if (null) {
      if (sink) sink->null();
      return;
    }
  }
  stream_one(f, cf, c, sink);
}

// The tagged field of `fields` with `tag`, the first in schema order (read_fields' search).
const CompiledField* tagged_field(const CompiledFields& fields, std::uint32_t tag) {
  for (const CompiledField& cf : fields.fields)
    if (cf.tagged && cf.field->tag == static_cast<std::int32_t>(tag)) return &cf;
  return nullptr;
}

// Past a tagged section whose fields were read already (with a sink: the bytes were checked).
void skip_tagged_section(ByteReader& in) {
  const std::uint32_t count = in.unsigned_varint("tagged field count");
  for (std::uint32_t i = 0; i < count; ++i) {
    in.unsigned_varint("tag");
    in.skip(in.unsigned_varint("tagged field size"), "tagged field");
  }
}

// The most tagged fields of one struct the one-pass write takes (Kafka's have one or two).
constexpr std::size_t kMaxOnePassTagged = 8;

// read_fields: with a sink, the members in schema order.
void stream_fields(FlexibleReader& f, const CompiledFields& fields, const ReadContext& c,
                   SchemaSink* sink) {
  if (!sink) {  // wire order, as read_fields reads (the same errors, the same notes)
    ByteReader& in = f.in();
    for (const CompiledFields::CheckStep& step : fields.check_steps) {
      if (step.fixed > 0 && in.remaining() >= step.fixed) {
        in.skip(step.fixed, fields.where);
        continue;
      }
      for (std::uint32_t k = step.first; k < step.first + step.count; ++k)
        stream_field(f, fields.fields[k], c, nullptr);
    }
    if (c.flexible) {
      f.tagged_fields_with(fields.where, [&](std::uint32_t tag, FlexibleReader& t) {
        const CompiledField* cf = tagged_field(fields, tag);
        if (!cf) return false;
        stream_field(t, *cf, c, nullptr, true);
        return true;
      });
    }
    return;
  }
  ByteReader& in = f.in();
  if (!c.flexible || fields.tagged == 0) {  // no tagged field to place: one pass
    sink->begin_object(fields.untagged == 0);
    for (const CompiledField& cf : fields.fields) {
      if (cf.tagged) continue;  // a tag below the flexible versions: never on the wire
      sink->key(cf.field->name);
      stream_field(f, cf, c, sink);
    }
    sink->end_object();
    if (c.flexible) skip_tagged_section(in);
    return;
  }
  std::vector<std::string> ignored;  // notes: check_schema_fields took them
  if (fields.tagged_last && fields.untagged > 0 && fields.tagged <= kMaxOnePassTagged) {
    // The untagged members as they are read, then the tagged ones from the section that
    // follows them, in schema order (the last of a repeated tag, as read_fields keeps it).
    sink->begin_object(false);
    for (std::size_t k = 0; k < fields.untagged; ++k) {
      const CompiledField& cf = fields.fields[k];
      sink->key(cf.field->name);
      stream_field(f, cf, c, sink);
    }
    std::array<std::optional<ByteReader>, kMaxOnePassTagged> found;
    const std::uint32_t count = in.unsigned_varint("tagged field count");
    for (std::uint32_t i = 0; i < count; ++i) {
      const std::uint32_t tag = in.unsigned_varint("tag");
      const std::uint32_t size = in.unsigned_varint("tagged field size");
      ByteReader bytes = in.sub(size, "tagged field");
      if (const CompiledField* cf = tagged_field(fields, tag))
        found[static_cast<std::size_t>(cf - fields.fields.data()) - fields.untagged] = bytes;
    }
    for (std::size_t j = 0; j < fields.tagged; ++j) {
      if (!found[j]) continue;
      const CompiledField& cf = fields.fields[fields.untagged + j];
      sink->key(cf.field->name);
      FlexibleReader t(*found[j], ignored);
      stream_field(t, cf, c, sink, true);
    }
    sink->end_object();
    return;
  }
  // Tagged fields among the untagged ones (or only tagged ones: whether the object is empty
  // is known after its section): the section found first, by reading past the untagged.
  std::size_t present = fields.untagged;
  std::vector<std::optional<ByteReader>> tagged_bytes(fields.fields.size());
  ByteReader probe = in;
  FlexibleReader pf(probe, ignored);
  for (const CompiledField& cf : fields.fields)
    if (!cf.tagged) stream_field(pf, cf, c, nullptr);
  const std::uint32_t count = probe.unsigned_varint("tagged field count");
  for (std::uint32_t i = 0; i < count; ++i) {
    const std::uint32_t tag = probe.unsigned_varint("tag");
    const std::uint32_t size = probe.unsigned_varint("tagged field size");
    ByteReader bytes = probe.sub(size, "tagged field");
    if (const CompiledField* cf = tagged_field(fields, tag)) {
      auto& slot = tagged_bytes[static_cast<std::size_t>(cf - fields.fields.data())];
      present += !slot;
      slot = bytes;
    }
  }
  sink->begin_object(present == 0);
  for (std::size_t k = 0; k < fields.fields.size(); ++k) {
    const CompiledField& cf = fields.fields[k];
    if (!cf.tagged) {
      sink->key(cf.field->name);
      stream_field(f, cf, c, sink);
    } else if (tagged_bytes[k]) {
      sink->key(cf.field->name);
      FlexibleReader t(*tagged_bytes[k], ignored);
      stream_field(t, cf, c, sink, true);
    }
  }
  sink->end_object();
  skip_tagged_section(in);
}

const CompiledFields& compiled_schema(const RecordSchema& schema, std::uint32_t version) {
  return compiled_fields(schema.fields, version, schema.name);
}

bool flexible_at(const RecordSchema& schema, std::uint32_t version) {
  return schema.flexible_from >= 0 && version >= static_cast<std::uint32_t>(schema.flexible_from);
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
  stream_fields(f, compiled_schema(schema, version),
                ReadContext{version, flexible_at(schema, version), SchemaBytes::redacted}, nullptr);
}

void write_schema_fields(ByteReader& in, const RecordSchema& schema, std::uint32_t version,
                         SchemaSink& sink, SchemaBytes bytes) {
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
