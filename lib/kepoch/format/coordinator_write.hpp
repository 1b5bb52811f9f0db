#pragma once
// write_coordinator_key/value (coordinator_record.hpp) of a record only peeked, its fields
// checked as they are written (the bytes read once, not twice), as templates over the sink
// (schema_walk.hpp): a writer whose sink is a final class has its calls made directly. The
// same events for a record check_coordinator_record accepts without a note; for any other
// record (one the check fails, or one it notes anything of) they throw FormatError, having
// written part of it: the caller discards that and asks check_coordinator_record (the
// error's position and text are not the check's). Not part of the library's interface.

#include <fmt/format.h>

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kepoch/base/byte_reader.hpp"
#include "kepoch/format/coordinator_record.hpp"
#include "kepoch/format/flexible_reader.hpp"
#include "kepoch/format/metadata_schema.hpp"
#include "kepoch/format/schema_walk.hpp"

namespace kepoch {

// The consumer protocol's Subscription (false) or Assignment (true) schema, of the generated
// tables, by which a classic group's members' protocol bytes are decoded.
const RecordSchema& consumer_protocol_schema(bool assignment);

// A member's subscription or assignment bytes as decode_embedded leaves them: the message's
// events when its version is one the schema has and its fields read (check_schema_fields
// reads as decode_schema_fields does), else the bytes.
template <class Out>
void write_embedded(std::span<const std::uint8_t> bytes, const RecordSchema& schema, Out& out) {
  std::int16_t version = 0;
  try {
    ByteReader in(bytes, 0);
    if (in.remaining() < 2)
      in.fail(fmt::format("Could not read version from {}'s buffer.", schema.name));
    version = in.i16(schema.name);
    if (version < schema.first_version || version > schema.last_version) return out.bytes(bytes);
    std::vector<std::string> notes;  // decode_embedded drops them too
    FlexibleReader f(in, notes);
    check_schema_fields(f, schema, static_cast<std::uint32_t>(version));
  } catch (const FormatError&) {
    return out.bytes(bytes);
  }
  ByteReader in(bytes, 0);
  in.skip(2, "version");
  std::vector<std::string> ignored;  // no note: the bytes were checked
  FlexibleReader f(in, ignored);
  const auto v = static_cast<std::uint32_t>(version);
  schema_walk::stream_fields(
      f, schema_walk::compiled_schema(schema, v),
      schema_walk::ReadContext{v, schema_walk::flexible_at(schema, v), SchemaBytes::base64}, &out);
}

// DumpLogSegments' edits of a decoded value (decode_consumer_protocol, name_transaction_state)
// made to its events on their way to `out`, so that the value is written as it is read
// instead of from a tree. It knows the key at each depth of the value: depth 1 is the value's
// members, 3 a GroupMetadataValue member's (members array at 2). protocol_type is
// GroupMetadataValue's first field, before members, in every version: known before the
// members' bytes come. A template over the sink (a final class whose calls the schema walk
// makes directly, SchemaSink for any other).
template <class Out>
class EditedValueSink final : public SchemaSink {
 public:
  EditedValueSink(Out& out, bool group, bool transaction)
      : out_(out), group_(group), transaction_(transaction) {}
  void begin_object(bool empty) override {
    out_.begin_object(empty);
    ++depth_;
  }
  void end_object() override {
    out_.end_object();
    --depth_;
  }
  void key(std::string_view name) override {
    out_.key(name);
    if (depth_ < keys_.size()) keys_[depth_] = name;
  }
  // key(cf.field->name), handed on as the schema walk hands it (schema_walk::member_key).
  void member_key(const schema_walk::CompiledField& cf) {
    schema_walk::member_key(&out_, cf);
    if (depth_ < keys_.size()) keys_[depth_] = cf.field->name;
  }
  void begin_array(std::size_t size) override {
    out_.begin_array(size);
    ++depth_;
  }
  void end_array() override {
    out_.end_array();
    --depth_;
  }
  void null() override { out_.null(); }
  void boolean(bool v) override { out_.boolean(v); }
  void integer(std::int64_t v) override {
    out_.integer(v);
    if (transaction_ && depth_ == 1 && keys_[1] == "transaction_status") {
      out_.key("transaction_state");
      out_.text(transaction_state_name(v));
    }
  }
  void floating(double v) override { out_.floating(v); }
  void text(std::string_view v) override {
    out_.text(v);
    if (group_ && depth_ == 1 && keys_[1] == "protocol_type") consumer_ = v == "consumer";
  }
  void bytes(std::span<const std::uint8_t> v) override {
    if (consumer_ && depth_ == 3 && keys_[1] == "members") {
      if (keys_[3] == "subscription")
        return write_embedded(v, consumer_protocol_schema(false), out_);
      if (keys_[3] == "assignment") return write_embedded(v, consumer_protocol_schema(true), out_);
    }
    out_.bytes(v);
  }

 private:
  Out& out_;
  const bool group_;
  const bool transaction_;
  bool consumer_ = false;  // protocol_type is "consumer"
  std::size_t depth_ = 0;
  std::array<std::string_view, 4> keys_{};
};

// Whether the record's value is one DumpLogSegments edits after decoding (a classic group's
// members' protocol bytes, a transaction's state): written through EditedValueSink, which
// makes the edits.
inline bool coordinator_value_edited(const CheckedCoordinatorRecord& r) {
  return (r.log == CoordinatorLog::offsets && r.type->type == 2) ||
         r.log == CoordinatorLog::transactions;
}

template <class Sink>
void write_unchecked_coordinator_key_with(const CheckedCoordinatorRecord& r, Sink& sink) {
  ByteReader kin(r.key, r.key_position);
  kin.skip(2, "key");  // the type
  schema_walk::write_unchecked_fields(
      kin, r.type->key, static_cast<std::uint32_t>(r.type->key_version), sink, SchemaBytes::base64);
  if (!kin.at_end()) kin.fail("bytes after the key's fields (read again by the check)");
}

template <class Sink>
void write_unchecked_coordinator_value_with(const CheckedCoordinatorRecord& r, Sink& sink) {
  if (!r.value || !r.value_version) return sink.null();
  ByteReader vin(*r.value, r.value_position);
  vin.skip(2, "value");  // the version
  const auto version = static_cast<std::uint32_t>(*r.value_version);
  if (coordinator_value_edited(r)) {
    // A classic group's members' protocol bytes decoded, a transaction's state named, as
    // DumpLogSegments edits them after decoding (decode_coordinator_record).
    EditedValueSink<Sink> edited(sink, r.log == CoordinatorLog::offsets,
                                 r.log == CoordinatorLog::transactions);
    schema_walk::write_unchecked_fields(vin, r.type->value, version, edited, SchemaBytes::base64);
  } else {
    schema_walk::write_unchecked_fields(vin, r.type->value, version, sink, SchemaBytes::base64);
  }
  if (!vin.at_end()) vin.fail("bytes after the value's fields (read again by the check)");
}

}  // namespace kepoch
