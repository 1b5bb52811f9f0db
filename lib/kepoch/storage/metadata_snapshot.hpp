#pragma once
// Reading one KRaft snapshot (<end offset>-<epoch>.checkpoint) as the state a node loads,
// strictly: a snapshot is all or nothing, so any damage is an InputError naming the file and
// the byte (and record offset) where it was found, never a partial state.
//
// Layout (RecordsSnapshotWriter, FileRawSnapshotWriter; read by RecordsSnapshotReader and
// metadata/util/SnapshotFileReader): ordinary v2 record batches with offsets from 0,
//   a control batch whose first record is a SnapshotHeader (Version, LastContainedLogTimestamp),
//     then KRaftVersion and Voters control records when kraft.version >= 1,
//   data batches of metadata records (the whole state: topics, partitions, brokers, ...),
//   a control batch with a SnapshotFooter, written by RecordsSnapshotWriter.freeze.
// Checks, each Kafka's: every batch's CRC (RecordsIterator with doCrcValidation, as
// KafkaRaftClient reads snapshots); the first batch is a control batch starting with a
// SnapshotHeader (RecordsSnapshotReader.nextBatch throws IllegalStateException otherwise);
// no partial batch at the end (a frozen snapshot is written whole, then renamed from .part);
// the last batch holds a SnapshotFooter (freeze writes it last: without it the file was cut);
// every record decodes (MetadataLoader.loadSnapshot replays each one).

#include <cstdint>
#include <filesystem>
#include <functional>
#include <string>

#include "kepoch/format/snapshot_file_name.hpp"
#include "kepoch/storage/metadata_log.hpp"

namespace kepoch {

struct MetadataSnapshotFile {
  std::filesystem::path path;
  SnapshotId id;
};

struct MetadataSnapshotSummary {
  std::int64_t last_contained_log_timestamp = -1;  // from the SnapshotHeader
  std::uint64_t records = 0;                       // data records (metadata records)
  std::uint64_t batches = 0;
};

// Calls `visit` for every record, control records included, each entry's `snapshot` set.
// Throws InputError (path, byte offset) on the first damage found; records before it have
// been visited.
MetadataSnapshotSummary read_metadata_snapshot(
    const MetadataSnapshotFile& file, const std::function<void(const MetadataLogEntry&)>& visit);

// The snapshot a file name names: its id from the name (Snapshots.parse). Throws InputError
// when the name is not a frozen snapshot's.
MetadataSnapshotFile metadata_snapshot_file(const std::filesystem::path& path);

}  // namespace kepoch
