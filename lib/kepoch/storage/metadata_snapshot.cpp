#include "kepoch/storage/metadata_snapshot.hpp"

#include <fmt/format.h>

#include "kepoch/base/error.hpp"
#include "kepoch/storage/segment_dump.hpp"

namespace kepoch {
namespace {

// "damaged snapshot: <what>" with a hint at the flags that read around it.
[[noreturn]] void damaged(const MetadataSnapshotFile& file, std::uint64_t position,
                          const std::string& what) {
  throw InputError(file.path.string(),
                   fmt::format("damaged snapshot {}: {} (history: --snapshot FILE picks "
                               "another snapshot, --no-snapshot reads the log alone)",
                               snapshot_id_text(file.id), what),
                   0, position);
}

bool has_control(const DumpedBatch& b, ControlRecordType type) {
  for (const auto& c : b.controls)
    if (c.control && c.control->type == type) return true;
  return false;
}

}  // namespace

MetadataSnapshotFile metadata_snapshot_file(const std::filesystem::path& path) {
  const auto name = parse_snapshot_file_name(path.filename().string());
  if (!name || name->state != SnapshotFileState::frozen || !name->id)
    throw InputError(path.string(),
                     "not a KRaft snapshot name (<20-digit end offset>-<10-digit "
                     "epoch>.checkpoint, as Kafka's Snapshots.parse reads it)");
  return {path, *name->id};
}

MetadataSnapshotSummary read_metadata_snapshot(
    const MetadataSnapshotFile& file, const std::function<void(const MetadataLogEntry&)>& visit) {
  MetadataSnapshotSummary summary;
  SegmentDumpOptions options;
  options.records = true;
  SnapshotOrigin origin{file.id, -1};
  bool footer_last = false;
  std::uint64_t last_position = 0;
  const auto end = dump_segment(file.path, options, [&](const DumpedBatch& b) {
    const std::uint64_t at = b.header.position;
    last_position = at;
    if (b.invalid)
      damaged(file, at, fmt::format("batch at offset {}: {}", b.header.base_offset, *b.invalid));
    if (!b.crc_valid)
      damaged(file, at,
              fmt::format("batch at offset {} is too large to check", b.header.base_offset));
    if (b.records_error)
      damaged(file, at,
              fmt::format("batch at offset {}: {}", b.header.base_offset, *b.records_error));
    if (summary.batches == 0) {
      // RecordsSnapshotReader.nextBatch: "First batch is not a control batch with at least one
      // record" / "First control record is not a snapshot header".
      const bool header_first =
          b.header.is_control() && !b.controls.empty() && b.controls.front().control &&
          b.controls.front().control->type == ControlRecordType::snapshot_header;
      if (!header_first)
        damaged(file, at,
                "the first batch is not a control batch starting with a SnapshotHeader "
                "(Kafka's RecordsSnapshotReader refuses it)");
      origin.last_contained_log_timestamp =
          b.controls.front().control->last_contained_log_timestamp.value_or(-1);
      summary.last_contained_log_timestamp = origin.last_contained_log_timestamp;
    }
    ++summary.batches;
    footer_last = b.header.is_control() && has_control(b, ControlRecordType::snapshot_footer);
    for (const auto& r : b.records) {
      MetadataLogEntry e;
      e.file = file.path.string();
      e.batch_position = at;
      e.batch_leader_epoch = b.header.partition_leader_epoch;
      e.offset = r.offset;
      e.timestamp = r.timestamp;
      e.snapshot = origin;
      decode_metadata_log_record(e, r, b.header.is_control());
      if (e.error) damaged(file, at, fmt::format("record at offset {}: {}", r.offset, *e.error));
      if (e.record) ++summary.records;
      visit(e);
    }
  });
  if (end.end.reason != LogEndReason::end_of_file)
    damaged(file, end.end.position,
            end.end.message.empty()
                ? fmt::format("the file ends inside a batch ({}, {} bytes left): it was cut short",
                              log_end_reason_name(end.end.reason), end.end.trailing_bytes)
                : end.end.message);
  if (summary.batches == 0) damaged(file, 0, "no batch: the file is empty");
  if (!footer_last)
    damaged(file, last_position,
            "the last batch holds no SnapshotFooter (RecordsSnapshotWriter.freeze writes one "
            "last): the snapshot was cut short");
  return summary;
}

}  // namespace kepoch
