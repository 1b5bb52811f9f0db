#include "kepoch/storage/metadata_log.hpp"

#include <fmt/format.h>

#include <algorithm>

#include "kepoch/base/byte_reader.hpp"
#include "kepoch/base/error.hpp"
#include "kepoch/base/read_only_file.hpp"
#include "kepoch/storage/broker_identity.hpp"
#include "kepoch/storage/log_dir.hpp"
#include "kepoch/storage/partition_dir.hpp"
#include "kepoch/storage/segment_dump.hpp"

namespace kepoch {
namespace {

namespace fs = std::filesystem;

// The metadata log's live segments (partition_dir.hpp: KafkaMetadataLog loads them with the
// same LogLoader), by base offset.
std::vector<fs::path> segment_logs(const fs::path& dir) {
  std::vector<fs::path> out;
  for (const auto& s : live_segments(dir))
    out.push_back(s.path);
  return out;
}

}  // namespace

void decode_metadata_log_record(MetadataLogEntry& e, const Record& r, bool control) {
  try {
    if (control) {
      e.control = parse_control_key(r.key, 0);
      parse_control_value(*e.control, r.value, 0);
    } else if (!r.value) {
      e.error = "the value is null";
    } else {
      e.record = decode_metadata_record(*r.value, 0);
    }
  } catch (const FormatError& err) {
    e.error = fmt::format("at byte {} of the {}: {}", err.position(),
                          control ? "control record" : "value", err.what());
  }
}

std::vector<fs::path> metadata_log_files(const fs::path& target) {
  std::error_code ec;
  if (fs::is_regular_file(target, ec)) return {target};
  if (!fs::is_directory(target, ec))
    throw InputError(target.string(), not_file_or_dir_text(target));
  const fs::path dir = metadata_log_dir_of(target);  // log_dir.hpp
  auto logs = segment_logs(dir);
  if (logs.empty())
    throw InputError(target.string(),
                     fmt::format("no .log segment here nor in a {} directory{}",
                                 kMetadataLogDirName, no_metadata_log_reason(target)));
  return logs;
}

std::optional<std::string> undecoded_record_problem(const MetadataLogEntry& e) {
  if (!e.record || e.record->decoded()) return std::nullopt;
  const std::string why = e.record->notes.empty() ? "not decoded" : e.record->notes.front();
  return fmt::format(
      "record at offset {}: {}: what kepoch builds on this metadata (brokers, partitions, "
      "topics) does not include it",
      e.offset, why);
}

MetadataLogSummary read_metadata_log(const std::vector<fs::path>& files,
                                     const std::function<void(const MetadataLogEntry&)>& visit,
                                     std::int64_t from_offset, const MetadataRecordSkip& skip) {
  MetadataLogSummary summary;
  SegmentDumpOptions options;
  options.records = true;
  if (from_offset > 0) options.from_offset = from_offset;
  for (const auto& file : files) {
    summary.files.push_back(file.string());
    const auto s = dump_segment(file, options, [&](const DumpedBatch& b) {
      if (b.invalid)
        summary.problems.push_back(
            fmt::format("{}: batch at byte {}: {}", file.string(), b.header.position, *b.invalid));
      if (b.records_error)
        summary.problems.push_back(fmt::format("{}: batch at byte {}: {}", file.string(),
                                               b.header.position, *b.records_error));
      if (!b.invalid) summary.next_offset = b.header.next_offset();
      for (const auto& r : b.records) {
        if (r.offset < from_offset) continue;
        if (!summary.first_offset) summary.first_offset = r.offset;
        if (skip && !b.header.is_control() && r.value && skip(*r.value)) {
          ++summary.records;
          ++summary.skipped;
          continue;
        }
        MetadataLogEntry e;
        e.file = file.string();
        e.batch_position = b.header.position;
        e.batch_leader_epoch = b.header.partition_leader_epoch;
        e.offset = r.offset;
        e.timestamp = r.timestamp;
        decode_metadata_log_record(e, r, b.header.is_control());
        if (e.error)
          summary.problems.push_back(fmt::format("{}: batch at byte {}: record at offset {}: {}",
                                                 file.string(), b.header.position, r.offset,
                                                 *e.error));
        if (auto u = undecoded_record_problem(e))
          summary.problems.push_back(
              fmt::format("{}: batch at byte {}: {}", file.string(), b.header.position, *u));
        ++summary.records;
        visit(e);
      }
    });
    if (s.end.reason == LogEndReason::corrupt_size)
      summary.problems.push_back(
          fmt::format("{}: at byte {}: {}", file.string(), s.end.position, s.end.message));
  }
  return summary;
}

}  // namespace kepoch
