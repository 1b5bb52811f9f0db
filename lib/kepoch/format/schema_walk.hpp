#pragma once
// The schema walk of metadata_schema.hpp's check_schema_fields and write_schema_fields, as
// templates over the sink, so that a writer whose sink is a final class
// (segment_report's JSON and table sinks) has its calls made directly, inlined into the
// walk, instead of through SchemaSink's virtual functions: a dump of __consumer_offsets makes
// a few dozen sink calls per record. Not part of the library's interface.

#include <fmt/format.h>

#include <array>
#include <bit>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kepoch/base/byte_reader.hpp"
#include "kepoch/format/flexible_reader.hpp"
#include "kepoch/format/metadata_schema.hpp"

namespace kepoch::schema_walk {

// How the body is read: its version, whether that version is flexible, how bytes show.
struct ReadContext {
  std::uint32_t version;
  bool flexible;
  SchemaBytes bytes;
  // A write of bytes not checked first (write_unchecked_fields): what the check would
  // note (an unknown tag, bytes left in a tagged field, a repeated tag) throws instead.
  bool strict = false;
};

// What a strict write cannot write as the check would have it: the caller reads the body
// again with the check, for its notes or its error.
[[noreturn]] void not_plain(ByteReader& in, std::string_view what);

[[noreturn]] void null_refused(std::uint64_t at, std::string_view name);

// ByteReader's big-endian integers, read inline (ByteReader::be is a call, and the walk reads
// a few per field): the same bounds check and error (ByteReader::bytes), then a load.
inline std::uint16_t read_be16(ByteReader& in, std::string_view name) {
  const std::uint8_t* p = in.bytes(2, name).data();
  return static_cast<std::uint16_t>((p[0] << 8) | p[1]);
}
inline std::uint32_t read_be32(ByteReader& in, std::string_view name) {
  return load_be32(in.bytes(4, name).data());
}
inline std::uint64_t read_be64(ByteReader& in, std::string_view name) {
  return load_be64(in.bytes(8, name).data());
}

// A length Kafka's generated read takes: compact (uvarint n + 1) in flexible versions, else
// int16 (strings) or int32 (bytes, arrays); negative = null.
inline std::int64_t read_length(ByteReader& in, const ReadContext& c, bool int16_length,
                                std::string_view name) {
  if (c.flexible) return static_cast<std::int64_t>(in.unsigned_varint(name)) - 1;
  return int16_length ? static_cast<std::int16_t>(read_be16(in, name))
                      : static_cast<std::int32_t>(read_be32(in, name));
}

// The same reading as read_field and read_fields, each value handed to a sink as it is read
// (SchemaSink) instead of stored; with no sink, only read (check_schema_fields). With a sink
// the bytes are known good (checked first), or read strict (ReadContext::strict: what the
// check would fail or note throws); an object's tagged fields are found before its members
// are written, so that they come in schema order as read_fields puts them.
//
// The walk reads a struct's fields as compiled for the version being read (CompiledFields,
// made once per struct and version and kept): which fields the version has, which are
// tagged and nullable, and the nested structs' own compiled fields. read_fields tests each
// field's versions per record; a dump of __consumer_offsets walks millions of records of a
// few schemas, and those tests, with the count of an object's members and the second read of
// its untagged fields to find its tagged section, were a fifth of its time.

struct CompiledFields;

// The longest field name CompiledField::padded_name holds (Kafka's are at most 36 bytes).
constexpr std::size_t kPaddedNameSize = 40;

struct CompiledField {
  const SchemaField* field;
  const CompiledFields* nested;  // a struct's fields at the same version; else nullptr
  bool nullable;                 // at the version
  bool tagged;                   // at the version: read from the tagged section
  // The name is "timestamp" or ends in "_timestamp": the report's time fields
  // (report::is_time_field), known per field so that a sink need not test the name per value.
  bool time_named = false;
  // How a member of a one-pass write reads it, decided when compiled: a scalar read in place
  // (stream_member), or `other`: stream_field's tests (arrays, bytes, structs, uuids, floats).
  enum class Kind : std::uint8_t { other, int8, int16, int32, int64, uint16, boolean, string };
  Kind kind = Kind::other;
  // field->name, zero-padded, when it fits (else name_size is 0): a sink that writes the
  // name as a member's key copies it whole, a fixed-size copy, where a copy of the name's
  // own length took a branch per size.
  std::uint8_t name_size = 0;
  std::array<char, kPaddedNameSize> padded_name{};
};

// A member's key: a sink with member_key(const CompiledField&) (the JSON and table sinks)
// is handed the compiled field, with its padded name; any other, the name.
template <class Sink>
[[gnu::always_inline]] inline void member_key(Sink* sink, const CompiledField& cf) {
  if constexpr (requires { sink->member_key(cf); })
    sink->member_key(cf);
  else
    sink->key(cf.field->name);
}

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

// The compiled fields of (fields, version, where), made on first use and kept (per thread).
const CompiledFields& compiled_fields(std::span<const SchemaField> fields, std::uint32_t version,
                                      std::string_view where);
const CompiledFields& compiled_schema(const RecordSchema& schema, std::uint32_t version);
bool flexible_at(const RecordSchema& schema, std::uint32_t version);
// The tagged field of `fields` with `tag`, the first in schema order (read_fields' search).
const CompiledField* tagged_field(const CompiledFields& fields, std::uint32_t tag);
// Past a tagged section whose fields were read already (with a sink: the bytes were checked;
// strict, every tag in it is one the check notes).
void skip_tagged_section(ByteReader& in, const ReadContext& c);

inline std::optional<std::string_view> stream_string(ByteReader& in, const ReadContext& c,
                                                     std::string_view name) {
  std::int64_t n = 0;
  if (c.flexible) {  // FlexibleReader::nullable_string, without the copy
    n = static_cast<std::int64_t>(in.unsigned_varint(name)) - 1;
    if (n < 0) return std::nullopt;
    if (n > 0x7fff) in.fail(fmt::format("string field {} had invalid length {}", name, n));
  } else {
    n = static_cast<std::int16_t>(read_be16(in, name));
    if (n < 0) return std::nullopt;
  }
  const auto b = in.bytes(static_cast<std::size_t>(n), name);
  return std::string_view(reinterpret_cast<const char*>(b.data()), b.size());
}

template <class Sink>
void stream_bytes(ByteReader& in, const ReadContext& c, std::string_view name, bool may_be_null,
                  Sink* sink) {
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
template <class Sink>
void stream_fields(FlexibleReader& f, const CompiledFields& fields, const ReadContext& c,
                   Sink* sink);

// Uuid::to_string's text (Kafka's Uuid.toString: URL-safe base64 without padding, always 22
// characters) written in place: a dump shows one or more per record.
constexpr std::size_t kUuidTextSize = 22;
inline void write_uuid_text(std::span<const std::uint8_t> bytes, char (&out)[kUuidTextSize]) {
  static constexpr char kUrlAlphabet[] =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";
  // Three bytes to four characters, five times; the last byte's 8 bits to two (its 2 low
  // bits as the high bits of a sextet): 128 bits, 21 sextets and 2 bits.
  const std::uint8_t* b = bytes.data();
  char* p = out;
  for (int k = 0; k < 5; ++k, b += 3, p += 4) {
    const std::uint32_t v = (std::uint32_t{b[0]} << 16) | (std::uint32_t{b[1]} << 8) | b[2];
    p[0] = kUrlAlphabet[(v >> 18) & 0x3f];
    p[1] = kUrlAlphabet[(v >> 12) & 0x3f];
    p[2] = kUrlAlphabet[(v >> 6) & 0x3f];
    p[3] = kUrlAlphabet[v & 0x3f];
  }
  p[0] = kUrlAlphabet[b[0] >> 2];
  p[1] = kUrlAlphabet[(b[0] & 0x3) << 4];
}

// read_one.
template <class Sink>
void stream_one(FlexibleReader& f, const CompiledField& cf, const ReadContext& c, Sink* sink) {
  ByteReader& in = f.in();
  const SchemaField& field = *cf.field;
  const std::string_view name = field.kafka_name;
  std::int64_t v = 0;
  switch (field.type) {
    case SchemaType::int8:
      v = in.i8(name);
      break;
    case SchemaType::int16:
      v = static_cast<std::int16_t>(read_be16(in, name));
      break;
    case SchemaType::int32:
      v = static_cast<std::int32_t>(read_be32(in, name));
      break;
    case SchemaType::int64:
      v = static_cast<std::int64_t>(read_be64(in, name));
      break;
    case SchemaType::uint16:
      v = read_be16(in, name);
      break;
    case SchemaType::float64: {
      const auto d = std::bit_cast<double>(read_be64(in, name));
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
template <class Sink>
void stream_field(FlexibleReader& f, const CompiledField& cf, const ReadContext& c, Sink* sink,
                  bool in_tag = false) {
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

// stream_field of an untagged member (a sink's), a scalar's reading in place: the field's
// kind decided when compiled, one switch, where stream_field tests its array, type and
// nullability, then stream_one switches on the type. The same reads, errors and events.
template <class Sink>
[[gnu::always_inline]] inline void stream_member(FlexibleReader& f, const CompiledField& cf,
                                                 const ReadContext& c, Sink* sink) {
  ByteReader& in = f.in();
  switch (cf.kind) {
    case CompiledField::Kind::int32:
      return sink->integer(static_cast<std::int32_t>(read_be32(in, cf.field->kafka_name)));
    case CompiledField::Kind::int64:
      return sink->integer(static_cast<std::int64_t>(read_be64(in, cf.field->kafka_name)));
    case CompiledField::Kind::string: {
      const std::uint64_t at = in.position();
      const auto s = stream_string(in, c, cf.field->kafka_name);
      if (!s) {
        if (!cf.nullable) null_refused(at, cf.field->kafka_name);
        return sink->null();
      }
      return sink->text(*s);
    }
    case CompiledField::Kind::int16:
      return sink->integer(static_cast<std::int16_t>(read_be16(in, cf.field->kafka_name)));
    case CompiledField::Kind::int8:
      return sink->integer(in.i8(cf.field->kafka_name));
    case CompiledField::Kind::uint16:
      return sink->integer(read_be16(in, cf.field->kafka_name));
    case CompiledField::Kind::boolean:
      return sink->boolean(in.u8(cf.field->kafka_name) != 0);
    case CompiledField::Kind::other:
      break;
  }
  stream_field(f, cf, c, sink);
}

// The most tagged fields of one struct the one-pass write takes (Kafka's have one or two).
constexpr std::size_t kMaxOnePassTagged = 8;

// read_fields: with a sink, the members in schema order.
template <class Sink>
void stream_fields(FlexibleReader& f, const CompiledFields& fields, const ReadContext& c,
                   Sink* sink) {
  if (!sink) {  // wire order, as read_fields reads (the same errors, the same notes)
    ByteReader& in = f.in();
    for (const CompiledFields::CheckStep& step : fields.check_steps) {
      if (step.fixed > 0 && in.remaining() >= step.fixed) {
        in.skip(step.fixed, fields.where);
        continue;
      }
      for (std::uint32_t k = step.first; k < step.first + step.count; ++k)
        stream_field<Sink>(f, fields.fields[k], c, nullptr);
    }
    if (c.flexible) {
      f.tagged_fields_with(fields.where, [&](std::uint32_t tag, FlexibleReader& t) {
        const CompiledField* cf = tagged_field(fields, tag);
        if (!cf) return false;
        stream_field<Sink>(t, *cf, c, nullptr, true);
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
      member_key(sink, cf);
      stream_member(f, cf, c, sink);
    }
    sink->end_object();
    if (c.flexible) skip_tagged_section(in, c);
    return;
  }
  std::vector<std::string> ignored;  // notes: check_schema_fields took them
  if (fields.tagged_last && fields.untagged > 0 && fields.tagged <= kMaxOnePassTagged) {
    // The untagged members as they are read, then the tagged ones from the section that
    // follows them, in schema order (the last of a repeated tag, as read_fields keeps it).
    sink->begin_object(false);
    for (std::size_t k = 0; k < fields.untagged; ++k) {
      const CompiledField& cf = fields.fields[k];
      member_key(sink, cf);
      stream_member(f, cf, c, sink);
    }
    const std::uint32_t count = in.unsigned_varint("tagged field count");
    if (count == 0) return sink->end_object();  // the usual section: `found` not even zeroed
    std::array<std::optional<ByteReader>, kMaxOnePassTagged> found;
    for (std::uint32_t i = 0; i < count; ++i) {
      const std::uint32_t tag = in.unsigned_varint("tag");
      const std::uint32_t size = in.unsigned_varint("tagged field size");
      ByteReader bytes = in.sub(size, "tagged field");
      if (const CompiledField* cf = tagged_field(fields, tag)) {
        auto& slot = found[static_cast<std::size_t>(cf - fields.fields.data()) - fields.untagged];
        if (c.strict && slot) not_plain(in, "a repeated tagged field");
        slot = bytes;
      } else if (c.strict) {
        not_plain(in, "an unknown tagged field");
      }
    }
    for (std::size_t j = 0; j < fields.tagged; ++j) {
      if (!found[j]) continue;
      const CompiledField& cf = fields.fields[fields.untagged + j];
      member_key(sink, cf);
      FlexibleReader t(*found[j], ignored);
      stream_field(t, cf, c, sink, true);
      if (c.strict && !found[j]->at_end()) not_plain(*found[j], "bytes left in a tagged field");
    }
    sink->end_object();
    return;
  }
  // Tagged fields among the untagged ones (or only tagged ones: whether the object is empty
  // is known after its section): the section found first, by reading past the untagged.
  // Never in Kafka's coordinator schemas: a strict write leaves it to the check.
  if (c.strict) not_plain(in, "tagged fields among the untagged ones");
  std::size_t present = fields.untagged;
  std::vector<std::optional<ByteReader>> tagged_bytes(fields.fields.size());
  ByteReader probe = in;
  FlexibleReader pf(probe, ignored);
  for (const CompiledField& cf : fields.fields)
    if (!cf.tagged) stream_field<Sink>(pf, cf, c, nullptr);
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
      member_key(sink, cf);
      stream_field(f, cf, c, sink);
    } else if (tagged_bytes[k]) {
      member_key(sink, cf);
      FlexibleReader t(*tagged_bytes[k], ignored);
      stream_field(t, cf, c, sink, true);
    }
  }
  sink->end_object();
  skip_tagged_section(in, c);
}

// compiled_schema(schema, version) and flexible_at, kept per thread in a small direct-mapped
// table by the schema's address and the version: a dump asks for a record's key and value
// schemas per record (compiled_fields' own front hashes and compares its whole key).
struct SchemaFront {
  const RecordSchema* schema = nullptr;
  std::uint32_t version = 0;
  bool flexible = false;
  const CompiledFields* compiled = nullptr;
};
inline const SchemaFront& schema_front(const RecordSchema& schema, std::uint32_t version) {
  constexpr int kBits = 6;
  thread_local std::array<SchemaFront, std::size_t{1} << kBits> front{};
  SchemaFront& slot = front[static_cast<std::size_t>(
      ((reinterpret_cast<std::uintptr_t>(&schema) + version) * 0x9E3779B97F4A7C15ull) >>
      (64 - kBits))];
  if (slot.schema != &schema || slot.version != version || !slot.compiled)
    slot = {&schema, version, flexible_at(schema, version), &compiled_schema(schema, version)};
  return slot;
}

// write_schema_fields (metadata_schema.hpp) of bytes not checked first, read once, the
// sink's calls made directly: the same events for a body check_schema_fields accepts without
// a note. Any other body throws FormatError, having written part of it (the caller discards
// what it wrote and reads the body again with check_schema_fields, for its error or its
// notes): one the check fails, or one that holds what the check notes (an unknown tagged
// field, bytes left unread in a tagged field, a known tag repeated, tagged fields among the
// untagged ones). The error's position and text are not the check's.
template <class Sink>
void write_unchecked_fields(ByteReader& in, const RecordSchema& schema, std::uint32_t version,
                            Sink& sink, SchemaBytes bytes) {
  std::vector<std::string> ignored;  // strict: nothing is noted, it throws
  FlexibleReader f(in, ignored);
  const SchemaFront& s = schema_front(schema, version);
  stream_fields(f, *s.compiled, ReadContext{version, s.flexible, bytes, true}, &sink);
}

}  // namespace kepoch::schema_walk
