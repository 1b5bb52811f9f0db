#pragma once
// A record of a coordinator's log: __consumer_offsets (the group coordinator), and
// __transaction_state (the transaction coordinator), __share_group_state (the share
// coordinator, Kafka 4.0+), as Kafka's CoordinatorRecordSerde reads it (3.9:
// GroupCoordinatorRecordSerde and TransactionLog.readTxnRecordKey/Value):
//
//   key    int16 record type      which record (OffsetCommit 1, GroupMetadata 2, the
//                                 consumer groups of KIP-848 3-8 and 16, share groups 10-15,
//                                 streams groups 17-23; TransactionLog 0; ShareSnapshot 0,
//                                 ShareUpdate 1); a type the table does not have is Kafka's
//                                 UnknownRecordTypeException ("Unknown record type N")
//          key fields             the type's <Name>Key schema, never flexible, read at version
//                                 0 (4.x) or at the type number (3.9's key schemas, whose
//                                 versions were the types: OffsetCommitKey 0-1)
//   value  int16 version          of the type's <Name>Value schema, within its validVersions
//          value fields           at that version (flexible from the schema's flexibleVersions)
//          (no value)             a tombstone: the group, member, offset or transactional id
//                                 deleted
//
// The schemas are a table generated from Kafka's schema files by gen_coordinator_schema.py
// (coordinator_schema_table.inc), read by metadata_schema's decoder. Values print as Kafka's
// DumpLogSegments --offsets-decoder / --transaction-log-decoder print them (its
// CoordinatorRecordMessageParser), fields in snake_case: GroupMetadataValue's member
// subscription and assignment bytes decoded as ConsumerProtocolSubscription/Assignment when
// the protocol type is "consumer" (the bytes kept when they do not decode), and
// TransactionLogValue's status also named (TransactionState.stateName) as transaction_state.
// Kafka reads no further than a schema's fields: bytes after them are noted, not an error.

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "kepoch/format/metadata_schema.hpp"

namespace kepoch {

enum class CoordinatorLog { offsets, transactions, share_state };

// "offsets", "transactions", "share_state".
std::string_view coordinator_log_name(CoordinatorLog log);
// The coordinator log a topic holds: __consumer_offsets, __transaction_state,
// __share_group_state; nullopt for any other topic.
std::optional<CoordinatorLog> coordinator_log_of_topic(std::string_view topic);

struct CoordinatorRecordType {
  std::int16_t type;
  std::string_view name;        // OffsetCommit
  std::string_view snake_name;  // offset_commit
  std::int16_t key_version;     // the version the key fields are read at
  RecordSchema key;
  RecordSchema value;
};

// Every record type of `log`, by type.
std::span<const CoordinatorRecordType> coordinator_record_types(CoordinatorLog log);
const CoordinatorRecordType* coordinator_record_type(CoordinatorLog log, std::int32_t type);

struct CoordinatorRecord {
  const CoordinatorRecordType* type = nullptr;
  SchemaValue key;                            // an object
  std::optional<std::int16_t> value_version;  // nullopt: a tombstone
  SchemaValue value;                          // an object; null for a tombstone
  std::vector<std::string> notes;             // unknown tagged fields, bytes after the fields
};

// TransactionState.stateName of a TransactionLogValue status (Empty, Ongoing, PrepareCommit,
// PrepareAbort, CompleteCommit, CompleteAbort, Dead, PrepareEpochFence), or the number as
// text for a status Kafka does not have, as DumpLogSegments prints it.
std::string transaction_state_name(std::int64_t status);

// Decodes one record of `log`. `key_position`/`value_position`: the file positions of the
// key's and the value's first byte, for errors. Throws FormatError (position, what) on a
// missing key, a short or lying key or value, an unknown record type or value version.
CoordinatorRecord decode_coordinator_record(CoordinatorLog log,
                                            std::optional<std::span<const std::uint8_t>> key,
                                            std::optional<std::span<const std::uint8_t>> value,
                                            std::uint64_t key_position,
                                            std::uint64_t value_position);

// A record of `log` read and found good (check_coordinator_record), kept as its bytes: what
// decode_coordinator_record would decode, for a writer that renders it as it reads it
// (write_coordinator_key/value) instead of from the tree. The spans are the record's (valid
// while the batch is).
struct CheckedCoordinatorRecord {
  CoordinatorLog log = CoordinatorLog::offsets;
  const CoordinatorRecordType* type = nullptr;
  std::span<const std::uint8_t> key;
  std::optional<std::span<const std::uint8_t>> value;  // nullopt: a tombstone
  std::uint64_t key_position = 0;
  std::uint64_t value_position = 0;
  std::optional<std::int16_t> value_version;  // nullopt: a tombstone
  std::vector<std::string> notes;             // as CoordinatorRecord::notes
};

// Reads the record as decode_coordinator_record does (the same FormatError for the same
// bytes, the same notes) without building its fields.
CheckedCoordinatorRecord check_coordinator_record(
    CoordinatorLog log, std::optional<std::span<const std::uint8_t>> key,
    std::optional<std::span<const std::uint8_t>> value, std::uint64_t key_position,
    std::uint64_t value_position);

// The record's tree, decoded (decode_coordinator_record of its bytes).
CoordinatorRecord decode_coordinator_record(const CheckedCoordinatorRecord& record);

// The events of decode_coordinator_record(record).key and .value (SchemaSink; the value of a
// tombstone is a null), read from the bytes as they are written.
void write_coordinator_key(const CheckedCoordinatorRecord& record, SchemaSink& sink);
void write_coordinator_value(const CheckedCoordinatorRecord& record, SchemaSink& sink);

// What check_coordinator_record reads before the fields: the record's type and value
// version, the fields not read (`notes` empty); nullopt when either does not read (a missing
// key, an unknown type, a value version Kafka does not write), whose error
// check_coordinator_record gives.
std::optional<CheckedCoordinatorRecord> peek_coordinator_record(
    CoordinatorLog log, std::optional<std::span<const std::uint8_t>> key,
    std::optional<std::span<const std::uint8_t>> value, std::uint64_t key_position,
    std::uint64_t value_position);
// The same, made in `into` (filled when it reads, emplaced when empty, untouched when not;
// returns whether it did): a dump peeks every record, and a record made, moved and freed per
// peek was a tenth of its own cost.
bool peek_coordinator_record(CoordinatorLog log,
                             const std::optional<std::span<const std::uint8_t>>& key,
                             const std::optional<std::span<const std::uint8_t>>& value,
                             std::uint64_t key_position, std::uint64_t value_position,
                             std::optional<CheckedCoordinatorRecord>& into);

}  // namespace kepoch
