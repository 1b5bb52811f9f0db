// The streaming walk of a schema's fields (check_schema_fields, write_schema_fields: what
// segment dump reads a coordinator log's records with), compiled per struct and version,
// against the tree decoder (decode_schema_fields, Kafka's generated <Name>Data.read as
// read_fields restates it), on every record type and every version of every table kepoch has:
// the coordinators' (offsets, transactions, share state, the clients' ConsumerProtocol
// messages) and the KRaft metadata log's. Each body is made here from the schema, in the
// encoding Kafka's generated write uses at that version (classic below flexibleVersions,
// compact and tagged from it), in three shapes: every field set (tagged ones too, arrays of
// two, nullable ones not null), every nullable field null (tagged ones left out, arrays
// empty), and the first shape with an unknown tag in each tagged section. For each:
//   - the walk's events equal the tree's (the same members in schema order, the same values);
//   - the check takes the same notes as the decode (unknown tags, bytes left in a tag);
//   - every cut of the body fails the check with the decode's error at the decode's byte.
#include <catch2/catch.hpp>

#include <cstring>
#include <string>
#include <vector>

#include "kepoch/base/byte_reader.hpp"
#include "kepoch/format/coordinator_record.hpp"
#include "kepoch/format/flexible_reader.hpp"
#include "kepoch/format/metadata_schema.hpp"
#include "kepoch/format/schema_walk.hpp"
#include "kepoch/report/time_fields.hpp"

namespace {

using namespace kepoch;
using Bytes = std::vector<std::uint8_t>;

enum class Shape { full, nulls, unknown_tag };

void put_be(Bytes& out, std::uint64_t v, int n) {
  for (int i = n - 1; i >= 0; --i)
    out.push_back(static_cast<std::uint8_t>(v >> (8 * i)));
}

void put_uvarint(Bytes& out, std::uint64_t v) {
  while (v >= 0x80) {
    out.push_back(static_cast<std::uint8_t>(v | 0x80));
    v >>= 7;
  }
  out.push_back(static_cast<std::uint8_t>(v));
}

bool in_version(const SchemaField& f, std::uint32_t v) {
  return f.first_version >= 0 && v >= static_cast<std::uint32_t>(f.first_version) &&
         v <= static_cast<std::uint32_t>(f.last_version);
}
bool tagged_at(const SchemaField& f, std::uint32_t v) {
  return f.tagged_from >= 0 && v >= static_cast<std::uint32_t>(f.tagged_from);
}
bool nullable_at(const SchemaField& f, std::uint32_t v) {
  return f.nullable_from >= 0 && v >= static_cast<std::uint32_t>(f.nullable_from);
}

struct Writer {
  std::uint32_t version;
  bool flexible;
  Shape shape;
  int counter = 0;  // varies the values

  void length(Bytes& out, std::int64_t n, bool int16) {  // n < 0: null
    if (flexible)
      put_uvarint(out, static_cast<std::uint64_t>(n + 1));
    else
      put_be(out, static_cast<std::uint64_t>(n), int16 ? 2 : 4);
  }

  void one(Bytes& out, const SchemaField& f) {
    const auto v = static_cast<std::uint64_t>(++counter * 37 + 5);
    switch (f.type) {
      case SchemaType::int8:
      case SchemaType::boolean:
        return put_be(out, v & 1, 1);
      case SchemaType::int16:
      case SchemaType::uint16:
        return put_be(out, v, 2);
      case SchemaType::int32:
        return put_be(out, v, 4);
      case SchemaType::int64:
        return put_be(out, 1796292658000 + v, 8);  // a time, when the field is one
      case SchemaType::float64: {
        const double d = 1.5 * static_cast<double>(v);
        std::uint64_t bits;
        std::memcpy(&bits, &d, 8);
        return put_be(out, bits, 8);
      }
      case SchemaType::uuid:
        for (int i = 0; i < 16; ++i)
          out.push_back(static_cast<std::uint8_t>(v + static_cast<std::uint64_t>(i) * 13));
        return;
      case SchemaType::string: {
        // Text a dump escapes in JSON and in a table: a quote, a control byte, UTF-8.
        const std::string s = "t\"" + std::to_string(v) + "\x01\xc3\xa9";
        length(out, static_cast<std::int64_t>(s.size()), true);
        out.insert(out.end(), s.begin(), s.end());
        return;
      }
      case SchemaType::bytes: {
        const Bytes b = {1, 2, static_cast<std::uint8_t>(v), 0xff};
        length(out, static_cast<std::int64_t>(b.size()), false);
        out.insert(out.end(), b.begin(), b.end());
        return;
      }
      case SchemaType::structure:
        return fields(out, f.fields);
    }
  }

  void field(Bytes& out, const SchemaField& f, bool in_tag) {
    const bool null = shape == Shape::nulls && nullable_at(f, version);
    if (f.array) {
      if (null) return length(out, -1, false);
      const std::int64_t n = shape == Shape::nulls ? 0 : 2;
      length(out, n, false);
      for (std::int64_t i = 0; i < n; ++i)
        one(out, f);
      return;
    }
    if (f.type == SchemaType::string || f.type == SchemaType::bytes) {
      if (null) return length(out, -1, f.type == SchemaType::string);
      return one(out, f);
    }
    if (f.type == SchemaType::structure && nullable_at(f, version)) {
      if (in_tag)
        put_uvarint(out, null ? 0 : 1);
      else
        out.push_back(null ? 0xff : 0x01);
      if (null) return;
    }
    one(out, f);
  }

  void fields(Bytes& out, std::span<const SchemaField> fs) {
    for (const SchemaField& f : fs)
      if (in_version(f, version) && !(flexible && tagged_at(f, version))) field(out, f, false);
    if (!flexible) return;
    std::vector<std::pair<std::uint32_t, Bytes>> tags;
    if (shape != Shape::nulls) {
      for (const SchemaField& f : fs) {
        if (!in_version(f, version) || !tagged_at(f, version)) continue;
        Bytes b;
        field(b, f, true);
        tags.emplace_back(static_cast<std::uint32_t>(f.tag), std::move(b));
      }
    }
    if (shape == Shape::unknown_tag) tags.emplace_back(9999, Bytes{7, 7});
    put_uvarint(out, tags.size());
    for (const auto& [tag, b] : tags) {
      put_uvarint(out, tag);
      put_uvarint(out, b.size());
      out.insert(out.end(), b.begin(), b.end());
    }
  }
};

// Every event as text, to compare two walks.
class RecordingSink final : public SchemaSink {
 public:
  std::string events;
  void begin_object(bool empty) override { events += empty ? "{0" : "{"; }
  void end_object() override { events += "}"; }
  void key(std::string_view name) override { events += "k:" + std::string(name) + " "; }
  void begin_array(std::size_t size) override { events += "[" + std::to_string(size) + " "; }
  void end_array() override { events += "] "; }
  void null() override { events += "null "; }
  void boolean(bool v) override { events += v ? "true " : "false "; }
  void integer(std::int64_t v) override { events += "i:" + std::to_string(v) + " "; }
  void floating(double v) override { events += "f:" + std::to_string(v) + " "; }
  void text(std::string_view v) override { events += "s:" + std::string(v) + " "; }
};

struct Failure {
  std::uint64_t at = 0;
  std::string what;
  bool operator==(const Failure&) const = default;
};

template <typename F>
std::optional<Failure> failure(F f) {
  try {
    f();
  } catch (const FormatError& e) {
    return Failure{e.position(), e.what()};
  }
  return std::nullopt;
}

struct Counts {
  int bodies = 0;
  int cuts = 0;
  int tagged_bodies = 0;
};

// One body of `schema` at `version` in `shape`: the walk against the tree, then every cut.
void compare(const RecordSchema& schema, std::uint32_t version, Shape shape, SchemaBytes bytes,
             Counts& counts) {
  const bool flexible =
      schema.flexible_from >= 0 && version >= static_cast<std::uint32_t>(schema.flexible_from);
  Writer w{version, flexible, shape};
  Bytes body;
  w.fields(body, schema.fields);
  INFO(schema.name << " v" << version << " shape " << static_cast<int>(shape));
  constexpr std::uint64_t kBase = 5000;

  std::vector<std::string> tree_notes;
  SchemaValue tree;
  {
    ByteReader in(body, kBase);
    FlexibleReader f(in, tree_notes);
    tree = decode_schema_fields(f, schema, version, bytes);
    CHECK(in.at_end());
  }
  RecordingSink from_tree, from_walk;
  write_schema_value(tree, from_tree);
  {
    ByteReader in(body, kBase);
    write_schema_fields(in, schema, version, from_walk, bytes);
    CHECK(in.at_end());
  }
  CHECK(from_walk.events == from_tree.events);
  {
    std::vector<std::string> notes;
    ByteReader in(body, kBase);
    FlexibleReader f(in, notes);
    check_schema_fields(f, schema, version);
    CHECK(in.at_end());
    CHECK(notes == tree_notes);
    if (shape == Shape::unknown_tag && flexible) CHECK(!notes.empty());
  }
  ++counts.bodies;
  counts.tagged_bodies += flexible && shape == Shape::full;
  for (std::size_t n = 0; n < body.size(); ++n) {
    const Bytes cut(body.begin(), body.begin() + static_cast<std::ptrdiff_t>(n));
    std::vector<std::string> notes;
    const auto decoded = failure([&] {
      ByteReader in(cut, kBase);
      FlexibleReader f(in, notes);
      decode_schema_fields(f, schema, version, bytes);
    });
    const auto checked = failure([&] {
      ByteReader in(cut, kBase);
      FlexibleReader f(in, notes);
      check_schema_fields(f, schema, version);
    });
    INFO("cut at " << n << " of " << body.size());
    REQUIRE(decoded.has_value());  // every field is read: a cut body is short
    CHECK(checked == decoded);
    CHECK(decoded->at >= kBase);
    CHECK(decoded->at <= kBase + n);
    ++counts.cuts;
  }
}

void compare_all_versions(const RecordSchema& schema, SchemaBytes bytes, Counts& counts) {
  for (auto v = static_cast<std::uint32_t>(schema.first_version);
       v <= static_cast<std::uint32_t>(schema.last_version); ++v)
    for (const Shape shape : {Shape::full, Shape::nulls, Shape::unknown_tag})
      compare(schema, v, shape, bytes, counts);
}

}  // namespace

TEST_CASE(
    "schema walk compiled per version: the tree's events, notes and errors on every "
    "coordinator record type and version",
    "[coordinator][schema]") {
  Counts counts;
  for (const CoordinatorLog log :
       {CoordinatorLog::offsets, CoordinatorLog::transactions, CoordinatorLog::share_state}) {
    for (const CoordinatorRecordType& t : coordinator_record_types(log)) {
      // The key at the version its fields are read at, the value at each version.
      compare(t.key, static_cast<std::uint32_t>(t.key_version), Shape::full, SchemaBytes::base64,
              counts);
      compare(t.key, static_cast<std::uint32_t>(t.key_version), Shape::nulls, SchemaBytes::base64,
              counts);
      compare_all_versions(t.value, SchemaBytes::base64, counts);
    }
  }
  CHECK(counts.bodies > 150);
  CHECK(counts.tagged_bodies > 20);
  CHECK(counts.cuts > 5000);
}

TEST_CASE("schema walk compiled per version: the tree's events on every metadata record type",
          "[schema]") {
  Counts counts;
  for (const RecordSchema& schema : metadata_record_schemas())
    compare_all_versions(schema, SchemaBytes::redacted, counts);
  CHECK(counts.bodies > 100);
}

TEST_CASE("schema walk: a walk's compiled fields serve one version only", "[schema]") {
  // OffsetCommitValue read at v1 (expire_timestamp, no leader_epoch) and then at v3
  // (leader_epoch, no expire_timestamp), and back: each read takes its own version's fields.
  const CoordinatorRecordType* t = coordinator_record_type(CoordinatorLog::offsets, 1);
  REQUIRE(t);
  Counts counts;
  for (const std::uint32_t v : {1u, 3u, 1u, 4u, 3u})
    compare(t->value, v, Shape::full, SchemaBytes::base64, counts);
  CHECK(counts.bodies == 5);
}

namespace {
// Every compiled field of `fields` and of the structs in it: its kind is its field's scalar
// read (or `other`: arrays, tagged fields, bytes, structs, uuids, floats), its time name the
// report's time-field test of its name.
void check_compiled(const schema_walk::CompiledFields& fields, int& checked) {
  using Kind = schema_walk::CompiledField::Kind;
  for (const schema_walk::CompiledField& cf : fields.fields) {
    INFO(fields.where << "." << cf.field->name);
    CHECK(cf.time_named == report::is_time_field(cf.field->name));
    Kind want = Kind::other;
    if (!cf.field->array && !cf.tagged) {
      switch (cf.field->type) {
        case SchemaType::int8:
          want = Kind::int8;
          break;
        case SchemaType::int16:
          want = Kind::int16;
          break;
        case SchemaType::int32:
          want = Kind::int32;
          break;
        case SchemaType::int64:
          want = Kind::int64;
          break;
        case SchemaType::uint16:
          want = Kind::uint16;
          break;
        case SchemaType::boolean:
          want = Kind::boolean;
          break;
        case SchemaType::string:
          want = Kind::string;
          break;
        default:
          break;
      }
    }
    CHECK(cf.kind == want);
    ++checked;
    if (cf.nested) check_compiled(*cf.nested, checked);
  }
}
}  // namespace

TEST_CASE("schema walk: a compiled field's kind and time name are its field's", "[schema]") {
  int checked = 0, time_named = 0;
  for (const CoordinatorLog log :
       {CoordinatorLog::offsets, CoordinatorLog::transactions, CoordinatorLog::share_state}) {
    for (const CoordinatorRecordType& t : coordinator_record_types(log)) {
      check_compiled(schema_walk::compiled_schema(t.key, static_cast<std::uint32_t>(t.key_version)),
                     checked);
      for (int v = t.value.first_version; v <= t.value.last_version; ++v) {
        const auto& compiled = schema_walk::compiled_schema(t.value, static_cast<std::uint32_t>(v));
        check_compiled(compiled, checked);
        for (const auto& cf : compiled.fields)
          time_named += cf.time_named;
      }
    }
  }
  CHECK(checked > 200);
  CHECK(time_named > 5);  // commit_timestamp, expire_timestamp, current_state_timestamp, ...
}
