#pragma once
// write_unchecked_coordinator_key/value (coordinator_record.hpp) as templates over the sink
// (schema_walk.hpp): a writer whose sink is a final class has its calls made directly.
// Not part of the library's interface.

#include "kepoch/base/byte_reader.hpp"
#include "kepoch/format/coordinator_record.hpp"
#include "kepoch/format/schema_walk.hpp"

namespace kepoch {

// Whether the record's value is one DumpLogSegments edits after decoding (a classic group's
// members' protocol bytes, a transaction's state): written through coordinator_record's
// own sink, which makes the edits.
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
  if (coordinator_value_edited(r)) return write_unchecked_coordinator_value(r, sink);
  ByteReader vin(*r.value, r.value_position);
  vin.skip(2, "value");  // the version
  schema_walk::write_unchecked_fields(
      vin, r.type->value, static_cast<std::uint32_t>(*r.value_version), sink, SchemaBytes::base64);
  if (!vin.at_end()) vin.fail("bytes after the value's fields (read again by the check)");
}

}  // namespace kepoch
