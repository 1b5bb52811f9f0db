#include "kepoch/format/coordinator_record.hpp"

#include <fmt/format.h>

#include <array>

#include "kepoch/base/byte_reader.hpp"
#include "kepoch/format/coordinator_write.hpp"
#include "kepoch/format/flexible_reader.hpp"

namespace kepoch {
namespace {

#include "kepoch/format/coordinator_schema_table.inc"

// The record type or value version: an int16 (CoordinatorRecordSerde.readVersion).
std::int16_t read_version(ByteReader& in, std::string_view name) {
  if (in.remaining() < 2) in.fail(fmt::format("Could not read version from {}'s buffer.", name));
  return in.i16(name);
}

// Standard base64 back to bytes; nullopt for text that is not (never: kepoch wrote it).
std::optional<std::vector<std::uint8_t>> from_base64(std::string_view text) {
  std::array<int, 256> table{};
  table.fill(-1);
  constexpr std::string_view kAlphabet =
      "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/";
  for (std::size_t i = 0; i < kAlphabet.size(); ++i)
    table[static_cast<unsigned char>(kAlphabet[i])] = static_cast<int>(i);
  std::vector<std::uint8_t> out;
  std::uint32_t bits = 0;
  int count = 0;
  for (char c : text) {
    if (c == '=') break;
    const int v = table[static_cast<unsigned char>(c)];
    if (v < 0) return std::nullopt;
    bits = (bits << 6) | static_cast<std::uint32_t>(v);
    count += 6;
    if (count >= 8) {
      count -= 8;
      out.push_back(static_cast<std::uint8_t>((bits >> count) & 0xff));
    }
  }
  return out;
}

SchemaValue* member(SchemaValue& object, std::string_view name) {
  for (auto& m : object.members)
    if (m.name == name) return &m.value;
  return nullptr;
}

// DumpLogSegments' OffsetsMessageParser.prepareGroupMetadataValue: a member's subscription or
// assignment (an int16 version, then the message at that version) decoded in place; left as
// its bytes when it does not read (Kafka swallows the RuntimeException).
void decode_embedded(SchemaValue& field, const RecordSchema& schema, std::uint64_t position) {
  if (field.kind != SchemaValue::Kind::text) return;
  const auto bytes = from_base64(field.text);
  if (!bytes) return;
  try {
    ByteReader in(*bytes, position);
    std::vector<std::string> notes;
    const std::int16_t version = read_version(in, schema.name);
    if (version < schema.first_version || version > schema.last_version) return;
    FlexibleReader f(in, notes);
    field =
        decode_schema_fields(f, schema, static_cast<std::uint32_t>(version), SchemaBytes::base64);
  } catch (const FormatError&) {
  }
}

void decode_consumer_protocol(SchemaValue& value, std::uint64_t position) {
  const SchemaValue* protocol_type = member(value, "protocol_type");
  if (!protocol_type || protocol_type->kind != SchemaValue::Kind::text ||
      protocol_type->text != "consumer")
    return;
  SchemaValue* members = member(value, "members");
  if (!members || members->kind != SchemaValue::Kind::array) return;
  for (auto& m : members->items) {
    if (SchemaValue* s = member(m, "subscription"))
      decode_embedded(*s, kConsumerProtocolSubscription, position);
    if (SchemaValue* a = member(m, "assignment"))
      decode_embedded(*a, kConsumerProtocolAssignment, position);
  }
}

// The status named after it, as DumpLogSegments' TransactionLogMessageParser replaces it.
void name_transaction_state(SchemaValue& value) {
  std::vector<SchemaMember> out;
  out.reserve(value.members.size() + 1);
  for (auto& m : value.members) {
    const bool status = m.name == "transaction_status";
    const std::int64_t id = m.value.integer;
    out.push_back(std::move(m));
    if (status) {
      SchemaValue name;
      name.kind = SchemaValue::Kind::text;
      name.text = transaction_state_name(id);
      out.push_back({"transaction_state", std::move(name)});
    }
  }
  value.members = std::move(out);
}

}  // namespace

std::string_view coordinator_log_name(CoordinatorLog log) {
  switch (log) {
    case CoordinatorLog::offsets:
      return "offsets";
    case CoordinatorLog::transactions:
      return "transactions";
    case CoordinatorLog::share_state:
      return "share_state";
  }
  return "offsets";
}

std::optional<CoordinatorLog> coordinator_log_of_topic(std::string_view topic) {
  if (topic == "__consumer_offsets") return CoordinatorLog::offsets;
  if (topic == "__transaction_state") return CoordinatorLog::transactions;
  if (topic == "__share_group_state") return CoordinatorLog::share_state;
  return std::nullopt;
}

std::span<const CoordinatorRecordType> coordinator_record_types(CoordinatorLog log) {
  switch (log) {
    case CoordinatorLog::offsets:
      return kOffsetsTypes;
    case CoordinatorLog::transactions:
      return kTransactionsTypes;
    case CoordinatorLog::share_state:
      return kShareStateTypes;
  }
  return {};
}

const CoordinatorRecordType* coordinator_record_type(CoordinatorLog log, std::int32_t type) {
  // By id, from a table made once: a dump looks one up per record, and a search's exit (at
  // a different place for each type) was a mispredicted branch or two per record.
  constexpr std::int32_t kIds = 64;  // Kafka's ids are below 32; a larger one is searched
  constexpr std::size_t kLogs = 3;
  static_assert(static_cast<std::size_t>(CoordinatorLog::share_state) == kLogs - 1);
  using ById = std::array<const CoordinatorRecordType*, kIds>;
  static const std::array<ById, kLogs> by_id = [] {
    std::array<ById, kLogs> t{};
    for (std::size_t l = 0; l < kLogs; ++l) {
      const auto types = coordinator_record_types(static_cast<CoordinatorLog>(l));
      for (auto it = types.rbegin(); it != types.rend(); ++it)  // the first of an id wins
        if (it->type >= 0 && it->type < kIds) t[l][static_cast<std::size_t>(it->type)] = &*it;
    }
    return t;
  }();
  const auto l = static_cast<std::size_t>(log);
  if (type >= 0 && type < kIds && l < kLogs) return by_id[l][static_cast<std::size_t>(type)];
  for (const auto& t : coordinator_record_types(log))
    if (t.type == type) return &t;
  return nullptr;
}

namespace {

// TransactionState (transaction-coordinator), by id.
constexpr std::string_view kTransactionStates[] = {
    "Empty",          "Ongoing",       "PrepareCommit", "PrepareAbort",
    "CompleteCommit", "CompleteAbort", "Dead",          "PrepareEpochFence"};

bool known_transaction_state(std::int64_t status) {
  return status >= 0 && status < static_cast<std::int64_t>(std::size(kTransactionStates));
}

}  // namespace

const RecordSchema& consumer_protocol_schema(bool assignment) {
  return assignment ? kConsumerProtocolAssignment : kConsumerProtocolSubscription;
}

std::string transaction_state_name(std::int64_t status) {
  if (known_transaction_state(status)) return std::string(kTransactionStates[status]);
  return std::to_string(status);
}

namespace {

// The key's record type, checked as Kafka's serde checks it; `kin` left at the key's fields.
const CoordinatorRecordType& read_type(CoordinatorLog log, ByteReader& kin,
                                       std::uint64_t key_position) {
  const std::int16_t type = read_version(kin, "key");
  const CoordinatorRecordType* t = coordinator_record_type(log, type);
  if (!t) {
    throw FormatError(key_position,
                      fmt::format("Unknown record type {} (not a type of the {} log through "
                                  "Kafka 4.4)",
                                  type, coordinator_log_name(log)));
  }
  return *t;
}

[[noreturn]] void missing_key(CoordinatorLog log, std::uint64_t key_position) {
  throw FormatError(key_position,
                    fmt::format("a record of the {} log without a key (Kafka: \"message had a "
                                "missing key\")",
                                coordinator_log_name(log)));
}

std::int16_t read_value_version(ByteReader& vin, const RecordSchema& schema,
                                std::uint64_t value_position) {
  const std::int16_t version = read_version(vin, "value");
  if (version < schema.first_version || version > schema.last_version) {
    throw FormatError(value_position,
                      fmt::format("{} version {} is not one Kafka writes ({}-{})", schema.name,
                                  version, schema.first_version, schema.last_version));
  }
  return version;
}

void after_key(const ByteReader& kin, std::vector<std::string>& notes) {
  if (!kin.at_end())
    notes.push_back(
        fmt::format("{} byte(s) after the key's fields (Kafka reads past them)", kin.remaining()));
}

void after_value(const ByteReader& vin, std::vector<std::string>& notes) {
  if (!vin.at_end())
    notes.push_back(fmt::format("{} byte(s) after the value's fields (Kafka reads past them)",
                                vin.remaining()));
}

}  // namespace

CoordinatorRecord decode_coordinator_record(CoordinatorLog log,
                                            std::optional<std::span<const std::uint8_t>> key,
                                            std::optional<std::span<const std::uint8_t>> value,
                                            std::uint64_t key_position,
                                            std::uint64_t value_position) {
  if (!key) missing_key(log, key_position);
  CoordinatorRecord r;
  ByteReader kin(*key, key_position);
  r.type = &read_type(log, kin, key_position);
  FlexibleReader kf(kin, r.notes);
  r.key = decode_schema_fields(kf, r.type->key, static_cast<std::uint32_t>(r.type->key_version),
                               SchemaBytes::base64);
  after_key(kin, r.notes);
  if (!value) return r;  // a tombstone
  ByteReader vin(*value, value_position);
  const RecordSchema& schema = r.type->value;
  const std::int16_t version = read_value_version(vin, schema, value_position);
  r.value_version = version;
  FlexibleReader vf(vin, r.notes);
  r.value =
      decode_schema_fields(vf, schema, static_cast<std::uint32_t>(version), SchemaBytes::base64);
  after_value(vin, r.notes);
  if (log == CoordinatorLog::offsets && r.type->type == 2)
    decode_consumer_protocol(r.value, value_position);
  if (log == CoordinatorLog::transactions) name_transaction_state(r.value);
  return r;
}

CheckedCoordinatorRecord check_coordinator_record(
    CoordinatorLog log, std::optional<std::span<const std::uint8_t>> key,
    std::optional<std::span<const std::uint8_t>> value, std::uint64_t key_position,
    std::uint64_t value_position) {
  if (!key) missing_key(log, key_position);
  CheckedCoordinatorRecord r;
  r.log = log;
  r.key = *key;
  r.value = value;
  r.key_position = key_position;
  r.value_position = value_position;
  ByteReader kin(*key, key_position);
  r.type = &read_type(log, kin, key_position);
  FlexibleReader kf(kin, r.notes);
  check_schema_fields(kf, r.type->key, static_cast<std::uint32_t>(r.type->key_version));
  after_key(kin, r.notes);
  if (!value) return r;
  ByteReader vin(*value, value_position);
  const RecordSchema& schema = r.type->value;
  const std::int16_t version = read_value_version(vin, schema, value_position);
  r.value_version = version;
  FlexibleReader vf(vin, r.notes);
  check_schema_fields(vf, schema, static_cast<std::uint32_t>(version));
  after_value(vin, r.notes);
  return r;
}

CoordinatorRecord decode_coordinator_record(const CheckedCoordinatorRecord& r) {
  return decode_coordinator_record(r.log, r.key, r.value, r.key_position, r.value_position);
}

bool peek_coordinator_record(CoordinatorLog log,
                             const std::optional<std::span<const std::uint8_t>>& key,
                             const std::optional<std::span<const std::uint8_t>>& value,
                             std::uint64_t key_position, std::uint64_t value_position,
                             std::optional<CheckedCoordinatorRecord>& into) {
  if (!key || key->size() < 2 || (value && value->size() < 2)) return false;
  const auto i16 = [](std::span<const std::uint8_t> b) {
    return static_cast<std::int16_t>((b[0] << 8) | b[1]);
  };
  const CoordinatorRecordType* type = coordinator_record_type(log, i16(*key));
  if (!type) return false;
  std::optional<std::int16_t> value_version;
  if (value) {
    const std::int16_t version = i16(*value);
    if (version < type->value.first_version || version > type->value.last_version) return false;
    value_version = version;
  }
  // The record of the last peek, when there is one, filled again: no record made per peek.
  CheckedCoordinatorRecord& r = into ? *into : into.emplace();
  r.notes.clear();
  r.type = type;
  r.value_version = value_version;
  r.log = log;
  r.key = *key;
  r.value = value;
  r.key_position = key_position;
  r.value_position = value_position;
  return true;
}

std::optional<CheckedCoordinatorRecord> peek_coordinator_record(
    CoordinatorLog log, std::optional<std::span<const std::uint8_t>> key,
    std::optional<std::span<const std::uint8_t>> value, std::uint64_t key_position,
    std::uint64_t value_position) {
  std::optional<CheckedCoordinatorRecord> r;
  peek_coordinator_record(log, key, value, key_position, value_position, r);
  return r;
}

namespace {

// The fields of a value DumpLogSegments edits (coordinator_value_edited) or not, checked
// before, written as read.
void write_value(const CheckedCoordinatorRecord& r, SchemaSink& sink) {
  if (!r.value || !r.value_version) return sink.null();
  ByteReader vin(*r.value, r.value_position);
  vin.skip(2, "value");  // the version
  const auto version = static_cast<std::uint32_t>(*r.value_version);
  // A classic group's members' protocol bytes decoded, a transaction's state named, as
  // DumpLogSegments edits them after decoding (decode_coordinator_record).
  const bool group = r.log == CoordinatorLog::offsets && r.type->type == 2;
  const bool transaction = r.log == CoordinatorLog::transactions;
  std::optional<EditedValueSink<SchemaSink>> edited;
  if (group || transaction) edited.emplace(sink, group, transaction);
  SchemaSink& out = edited ? static_cast<SchemaSink&>(*edited) : sink;
  write_schema_fields(vin, r.type->value, version, out, SchemaBytes::base64);
}

}  // namespace

void write_coordinator_key(const CheckedCoordinatorRecord& r, SchemaSink& sink) {
  ByteReader kin(r.key, r.key_position);
  kin.skip(2, "key");  // the type
  write_schema_fields(kin, r.type->key, static_cast<std::uint32_t>(r.type->key_version), sink,
                      SchemaBytes::base64);
}

void write_coordinator_value(const CheckedCoordinatorRecord& r, SchemaSink& sink) {
  write_value(r, sink);
}

}  // namespace kepoch
