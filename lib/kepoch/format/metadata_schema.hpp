#pragma once
// Kafka's KRaft metadata record schemas (metadata/src/main/resources/common/metadata/*.json),
// as a table generated from Kafka's files (gen_metadata_schema.py writes
// metadata_schema_table.inc): every record type Kafka 3.0 to 4.4 writes, its valid versions,
// and each field with the versions it is in, whether it is nullable, tagged (and its tag),
// and the fields of a struct. Every version is flexible ("flexibleVersions": "0+" in every
// metadata schema), so the encoding is flexible_reader.hpp's. The same table shape and
// decoder read the coordinators' records (coordinator_record.hpp, whose table
// gen_coordinator_schema.py generates), whose early versions are not flexible: a schema's
// flexible_from says where its flexible versions begin, and below it the classic encoding of
// Kafka's generated Readable code is read:
//   string   int16 length, then UTF-8; -1 = null
//   bytes    int32 length, then the bytes; -1 = null
//   array    int32 length, then the elements; -1 = null
//   (no tagged-field sections)
//
// decode_schema_fields reads a record body by the table, the way Kafka's generated
// <Name>Data.read does, into a tree of values that prints as Kafka's generated JsonConverter
// writes it (DumpLogSegments --cluster-metadata-decoder), field names in snake_case:
//   - a field absent from the version is left out; a tagged field absent from the record
//     is left out (Kafka writes a tagged field only when it is not its default);
//   - uuid as Kafka's base64 text (Uuid.toString), bytes as (redacted) (the only bytes fields
//     are UserScramCredentialRecord's salt and keys: Kafka's RecordRedactor hides them too);
//   - float64 as a number, every integer as a number.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "kepoch/format/flexible_reader.hpp"

namespace kepoch {

enum class SchemaType {
  int8,
  int16,
  int32,
  int64,
  uint16,
  float64,
  boolean,
  string,
  bytes,
  uuid,
  structure
};

struct SchemaField {
  std::string_view name;        // snake_case, as kepoch prints it
  std::string_view kafka_name;  // the schema's name
  SchemaType type;
  bool array;
  std::int16_t first_version;
  std::int16_t last_version;            // 0x7fff: every later version
  std::int16_t nullable_from;           // -1: never nullable
  std::int16_t tagged_from;             // -1: never tagged
  std::int32_t tag;                     // -1: untagged
  std::span<const SchemaField> fields;  // a struct's (type structure)
};

struct RecordSchema {
  std::uint16_t api_key;
  std::string_view name;       // RegisterBrokerRecord
  std::string_view type_name;  // REGISTER_BROKER_RECORD (MetadataRecordType)
  std::int16_t first_version;
  std::int16_t last_version;
  std::span<const SchemaField> fields;
  std::int16_t flexible_from = 0;  // the first flexible version; -1: none ("none")
};

// Every record type of the table, by api key.
std::span<const RecordSchema> metadata_record_schemas();
// The schema of `api_key`, or nullptr for an api key Kafka (through 4.4) never wrote.
const RecordSchema* metadata_record_schema(std::uint32_t api_key);

// A decoded value: JSON's kinds.
struct SchemaMember;
struct SchemaValue {
  enum class Kind { null, boolean, integer, floating, text, array, object };
  Kind kind = Kind::null;
  bool boolean = false;
  std::int64_t integer = 0;
  double floating = 0;
  std::string text;
  std::vector<SchemaValue> items;  // array
  // object, schema order. A named struct, not std::pair: a pair of an incomplete type cannot
  // be instantiated here (clang with libstdc++ refuses; a vector of one may be declared).
  std::vector<SchemaMember> members;
};
struct SchemaMember {
  std::string_view name;
  SchemaValue value;
};

// How a bytes field is shown: "(redacted)" (the metadata log's only bytes are SCRAM secrets,
// which Kafka's RecordRedactor hides too), or base64 as Kafka's JsonConverter writes bytes
// (Jackson's BinaryNode: standard alphabet, padded).
enum class SchemaBytes { redacted, base64 };

// Reads the body of a record of `schema` at `version` (fields, then the tagged section when
// the version is flexible), leaving `f` after it. Throws FormatError as Kafka's read does (a
// short body, a null where the version does not allow one, a string too long, a collection
// longer than the bytes left); unknown tags are noted and skipped.
SchemaValue decode_schema_fields(FlexibleReader& f, const RecordSchema& schema,
                                 std::uint32_t version, SchemaBytes bytes = SchemaBytes::redacted);

// The events of a decoded body, for a writer that renders it as it is read instead of from a
// SchemaValue tree (segment dump's coordinator records: building, converting and freeing
// the tree per record cost many times the reading). The calls describe exactly the tree
// decode_schema_fields returns: an object's members in schema order, each key() then its
// value; begin_object's `empty` and begin_array's `size` are known before the members.
class SchemaSink {
 public:
  virtual ~SchemaSink() = default;
  virtual void begin_object(bool empty) = 0;
  virtual void end_object() = 0;
  // `name`: a schema field's snake_case name (the generated tables') or a writer's own
  // literal, never text from the bytes: [a-z0-9_] only, which a sink may copy as it is.
  virtual void key(std::string_view name) = 0;
  virtual void begin_array(std::size_t size) = 0;
  virtual void end_array() = 0;
  virtual void null() = 0;
  virtual void boolean(bool v) = 0;
  virtual void integer(std::int64_t v) = 0;
  virtual void floating(double v) = 0;
  virtual void text(std::string_view v) = 0;
  // text(v) of a name from kepoch's own tables (a record type's snake_case name): ASCII that
  // no format escapes, which a sink may copy as it is.
  virtual void name(std::string_view v) { text(v); }
  // A bytes field shown as base64 (SchemaBytes::base64): text() of base64_text(v), made in a
  // buffer kept from call to call. Its own event so that a sink can read the bytes themselves
  // (coordinator_record's consumer protocol).
  virtual void bytes(std::span<const std::uint8_t> v);

 private:
  std::string base64_;
};

// Reads the body as decode_schema_fields does, building nothing: the same FormatError for the
// same bytes, the same notes; leaves `f` after it. For bytes that write_schema_fields then
// writes.
void check_schema_fields(FlexibleReader& f, const RecordSchema& schema, std::uint32_t version);

// The tree decode_schema_fields returns for the body at `in`, as events to `sink`, the bytes
// read as they come (no tree). Only for bytes check_schema_fields accepted (it throws
// FormatError otherwise, having written part of the body). Leaves `in` after the body.
void write_schema_fields(ByteReader& in, const RecordSchema& schema, std::uint32_t version,
                         SchemaSink& sink, SchemaBytes bytes = SchemaBytes::redacted);

// A decoded tree as events (what write_schema_fields writes for the bytes it came from).
void write_schema_value(const SchemaValue& value, SchemaSink& sink);

// Standard base64 with padding (java.util.Base64, Jackson's default variant).
std::string base64_text(std::span<const std::uint8_t> bytes);
// The same text written at `out` (base64_size(bytes.size()) chars, which never need escaping
// in JSON or a table); returns its end.
constexpr std::size_t base64_size(std::size_t n) {
  return (n + 2) / 3 * 4;
}
char* write_base64(std::span<const std::uint8_t> bytes, char* out);

}  // namespace kepoch
