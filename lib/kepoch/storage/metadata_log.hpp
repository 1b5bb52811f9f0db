#pragma once
// Reading a KRaft metadata log (__cluster_metadata-0) record by record: its .log segments
// in base-offset order (or one named .log or .checkpoint file), each walked with
// dump_segment (LogSegmentReader: bounded memory), the value of each record of a data batch
// decoded as a metadata record (format/metadata_record.hpp) and each record of a control
// batch as a control record (LeaderChange, SnapshotHeader/Footer, KRaftVersion, Voters).
//
// What a target may be:
//   a __cluster_metadata-0 directory       its *.log files
//   a log dir holding __cluster_metadata-0  the same
//   a .log or .checkpoint file             that file alone
//
// A record that cannot be decoded is an entry with an error (the walk goes on); an
// invalid batch (CRC, size) or a walk stopped at a corrupt size is a problem.

#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "kepoch/format/control_record.hpp"
#include "kepoch/format/metadata_record.hpp"
#include "kepoch/format/record.hpp"
#include "kepoch/format/snapshot_file_name.hpp"

namespace kepoch {

// The snapshot a record was read from (metadata_snapshot.hpp), with its header's time.
struct SnapshotOrigin {
  SnapshotId id;
  std::int64_t last_contained_log_timestamp = -1;
};

struct MetadataLogEntry {
  std::string file;
  std::uint64_t batch_position = 0;
  std::int32_t batch_leader_epoch = -1;  // the Raft epoch of the controller that wrote it
  std::int64_t offset = 0;
  std::int64_t timestamp = -1;
  std::optional<MetadataRecord> record;  // data batches
  std::optional<ControlRecord> control;  // control batches
  std::optional<std::string> error;      // "at byte N of the value: what"
  // Set for the records of a snapshot read as state (read_metadata_snapshot); their offsets
  // are the snapshot file's own (from 0), not log offsets.
  std::optional<SnapshotOrigin> snapshot;
};

struct MetadataLogSummary {
  std::vector<std::string> files;
  std::uint64_t records = 0;
  std::optional<std::int64_t> first_offset;  // of the first record visited
  std::optional<std::int64_t> next_offset;   // after the last batch read (the log end)
  std::vector<std::string> problems;         // invalid batches, corrupt tails, undecodable records
  std::uint64_t skipped = 0;                 // records `skip` passed over (in `records`)
};

// A data record's value a caller does not want decoded (nor visited): see read_metadata_log.
using MetadataRecordSkip = std::function<bool(std::span<const std::uint8_t> value)>;

// The files a target names (see above). Throws InputError when it names none.
std::vector<std::filesystem::path> metadata_log_files(const std::filesystem::path& target);

// Walks `files` in order. Throws InputError when a file cannot be opened. Records below
// `from_offset` are not visited, nor is a data record whose value `skip` (when set) passes
// over: it is counted (records, skipped) and not decoded, so neither its decoding's problems
// nor its entry exist (a caller replaying the log again for a part of it).
MetadataLogSummary read_metadata_log(const std::vector<std::filesystem::path>& files,
                                     const std::function<void(const MetadataLogEntry&)>& visit,
                                     std::int64_t from_offset = 0,
                                     const MetadataRecordSkip& skip = {});

// A record of a type or version kepoch does not read, as a problem ("record at offset N:
// why ..."), or nullopt: every answer built on a metadata log with such a record says so
// (exit 1), never a silently thinner history.
std::optional<std::string> undecoded_record_problem(const MetadataLogEntry& entry);

// Decodes one record of a metadata log or snapshot batch into `entry` (record or control,
// or error).
void decode_metadata_log_record(MetadataLogEntry& entry, const Record& record, bool control);

}  // namespace kepoch
