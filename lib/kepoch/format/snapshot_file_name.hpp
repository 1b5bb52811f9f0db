#pragma once
// The names of KRaft snapshot files in a __cluster_metadata-0 directory, as Kafka's
// Snapshots.parse reads them (raft/.../snapshot/Snapshots.java):
//
//   <end offset: 20 digits>-<epoch: 10 digits>.checkpoint           a frozen snapshot
//   <end offset>-<epoch>-<random>.checkpoint.part                    being written
//   <end offset>-<epoch>.checkpoint.deleted                          marked for deletion
//
// The id is Kafka's OffsetAndEpoch: the end offset (the log offset the snapshot's state
// reaches, exclusive: it holds offsets 0 to end offset - 1) and the epoch of the record at
// end offset - 1. Ids order by offset, then epoch (OffsetAndEpoch.compareTo). Snapshots.parse
// takes the offset from the first 20 characters and the epoch from characters 21 to 30 with
// Long.parseLong / Integer.parseInt: any other name ending in one of the suffixes throws
// NumberFormatException and the metadata log does not load. Partial and deleted snapshots
// are not snapshots a node loads: KafkaMetadataLog.recoverSnapshots deletes them at start.

#include <compare>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

namespace kepoch {

// Kafka's OffsetAndEpoch, naming a snapshot.
struct SnapshotId {
  std::int64_t end_offset = 0;
  std::int32_t epoch = 0;
  auto operator<=>(const SnapshotId&) const = default;
};

// "00000000000000000646-0000000002" (Snapshots.filenameFromSnapshotId).
std::string snapshot_file_stem(const SnapshotId& id);
// "646-2": the short form reports use.
std::string snapshot_id_text(const SnapshotId& id);

enum class SnapshotFileState { frozen, partial, deleted };

struct SnapshotFileName {
  SnapshotFileState state = SnapshotFileState::frozen;
  // Set when Kafka's parse succeeds; otherwise kafka_failure says what it throws.
  std::optional<SnapshotId> id;
  std::optional<std::string> kafka_failure;
};

// nullopt when the name ends in none of the three suffixes (not a snapshot file).
std::optional<SnapshotFileName> parse_snapshot_file_name(std::string_view name);

}  // namespace kepoch
