#pragma once
// A record of the tiered-storage metadata topic __remote_log_metadata (KIP-405; the value of
// each record, the key is null), as Kafka's RemoteLogMetadataSerde reads it: the framing of
// AbstractApiMessageSerde (BytesApiMessageSerde), then a message of storage's
// MetadataRecordType, then the transform into the RemoteLogMetadata object:
//
//   frameVersion uvarint   must be 1 (the same message as a KRaft metadata record's)
//   apiKey uvarint         0 RemoteLogSegmentMetadataRecord, 1 RemoteLogSegmentMetadataUpdate-
//                          Record, 2 RemotePartitionDeleteMetadataRecord, 3 RemoteLogSegment-
//                          MetadataSnapshotRecord (MetadataRecordType.fromId: "Unknown
//                          metadata id N" otherwise)
//   version uvarint        0 is the only version (3.9 through 4.4); a higher one is Kafka's
//                          UnsupportedVersionException "Can't read version N of <Name>"
//   body                   the flexible encoding (flexible_reader.hpp) of
//                          storage/src/main/resources/message/<Name>.json, read by the table
//                          remote_log_metadata_schema_table.inc (gen_metadata_schema.py
//                          --remote-log-metadata, from Kafka 3.9.1 and 4.4.0's files)
//   (nothing after)        "Found N byte(s) of garbage after <apiKey>"
//
// Fields (schema order; T = tagged):
//   0  RemoteLogSegmentId {TopicIdPartition {Name string, Id uuid, Partition int32}, Id uuid},
//      StartOffset int64, EndOffset int64, BrokerId int32, MaxTimestampMs int64,
//      EventTimestampMs int64, SegmentLeaderEpochs []{LeaderEpoch int32, Offset int64},
//      SegmentSizeInBytes int32, CustomMetadata nullable bytes, RemoteLogSegmentState int8;
//      T0 TxnIndexEmpty bool (written by 4.x; default false)
//   1  RemoteLogSegmentId, BrokerId int32, EventTimestampMs int64, CustomMetadata nullable
//      bytes, RemoteLogSegmentState int8
//   2  TopicIdPartition, BrokerId int32, EventTimestampMs int64, RemotePartitionDeleteState int8
//   3  SegmentId uuid and record 0's fields after it (Kafka never writes it to the topic:
//      it is the record of the metadata manager's snapshot files)
//
// The transforms (RemoteLogSegmentMetadataTransform and the others) then build Kafka's objects,
// whose constructors check (each failure is the record's error, as DumpLogSegments prints
// "Error at offset N, skipping. <message>"):
//   RemoteLogSegmentState.forId / RemotePartitionDeleteState.forId: an unknown id is null,
//     refused by Objects.requireNonNull ("state can not be null");
//   RemoteLogSegmentMetadata: start offset >= 0, end offset >= start offset, a non-empty
//     leader epoch map (built as a HashMap: a repeated epoch keeps its last offset).

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "kepoch/base/uuid.hpp"
#include "kepoch/epoch/remote_segment_state.hpp"
#include "kepoch/format/metadata_schema.hpp"

namespace kepoch {

// RemotePartitionDeleteState ids (RemoteLogSegmentState's: epoch/remote_segment_state.hpp).
enum class RemotePartitionDeleteState : std::int8_t {
  delete_partition_marked = 0,
  delete_partition_started = 1,
  delete_partition_finished = 2
};

// "COPY_SEGMENT_FINISHED", or nullopt for an id Kafka does not know.
std::optional<std::string> remote_segment_state_name(std::int8_t id);
std::optional<std::string> remote_partition_delete_state_name(std::int8_t id);

struct RemoteTopicIdPartition {
  std::string topic;
  Uuid topic_id;
  std::int32_t partition = -1;
};

// What the record says, typed (the fields every kind shares; the rest by kind).
struct RemoteLogMetadata {
  enum class Kind { segment, segment_update, partition_delete, segment_snapshot };
  Kind kind = Kind::segment;
  RemoteTopicIdPartition partition;  // (a snapshot record has none: left empty)
  Uuid segment_id;                   // segment, update, snapshot
  std::int32_t broker_id = -1;
  std::int64_t event_timestamp_ms = -1;
  std::int8_t state = 0;  // RemoteLogSegmentState, or RemotePartitionDeleteState (delete)
  // segment and snapshot only:
  std::int64_t start_offset = -1;
  std::int64_t end_offset = -1;
  std::int64_t max_timestamp_ms = -1;
  std::int32_t segment_size_in_bytes = 0;
  std::vector<std::pair<std::int32_t, std::int64_t>> segment_leader_epochs;  // as written
  std::optional<bool> txn_index_empty;  // the tagged field, when written
  bool custom_metadata = false;         // segment, update, snapshot: non-null CustomMetadata
};

struct RemoteLogMetadataRecord {
  std::uint32_t frame_version = 1;
  std::uint32_t api_key = 0;
  std::uint32_t version = 0;
  SchemaValue fields;  // every field of the schema, as read
  std::optional<RemoteLogMetadata> metadata;
  std::vector<std::string> notes;  // unknown tagged fields
};

// The schema table (generated from Kafka's files).
std::span<const RecordSchema> remote_log_metadata_schemas();
const RecordSchema* remote_log_metadata_schema(std::uint32_t api_key);

// Kafka's storage MetadataRecordType name ("REMOTE_LOG_SEGMENT_METADATA_RECORD") or
// "UNKNOWN(n)".
std::string remote_log_metadata_type_name(std::uint32_t api_key);

// Decodes one record value. `position` is the file position of value[0] (for compressed
// data: of the batch). Throws FormatError with Kafka's message where Kafka has one: a bad
// frame, an api key or version Kafka cannot read, a short or lying body, bytes after it, and
// what the transforms' constructors refuse.
RemoteLogMetadataRecord decode_remote_log_metadata_record(std::span<const std::uint8_t> value,
                                                          std::uint64_t position);

}  // namespace kepoch
