#include "kepoch/report/partition_report.hpp"

#include "kepoch/report/common_values.hpp"

#include <algorithm>

namespace kepoch::report {
namespace {

std::vector<EpochEntry> missing_from(const std::vector<EpochEntry>& a,
                                     const std::vector<EpochEntry>& b) {
  std::vector<EpochEntry> out;
  for (const auto& e : a)
    if (std::find(b.begin(), b.end(), e) == b.end()) out.push_back(e);
  return out;
}

}  // namespace

Value partition_value(const PartitionReplica& r) {
  Value segments = Value::array();
  for (const auto& s : r.segments) {
    segments.push(Value::object()
                      .set("file", s.file.filename().string())
                      .set("base_offset", s.base_offset)
                      .set("next_offset", optional_value(s.next_offset))
                      .set("batches", s.batches)
                      .set("size", s.size_bytes));
  }
  // The checkpoint compared with the history the batches tell: a data-less entry at the log
  // end (a newly elected leader's) is expected to be missing from the batches.
  std::vector<EpochEntry> checkpoint;
  for (const auto& e : r.checkpoint_entries)
    if (e.start_offset < r.log_end_offset) checkpoint.push_back(e);
  const auto only_checkpoint = missing_from(checkpoint, r.rebuilt_entries);
  const auto only_rebuilt = missing_from(r.rebuilt_entries, checkpoint);
  Value notes = strings_value(r.notes);
  if (r.recovery_stop) {
    notes.push("recovery cuts the log at byte " + std::to_string(r.recovery_stop->position) + ": " +
               r.recovery_stop->message);
  }
  return Value::object()
      .set("dir", r.dir.string())
      .set("topic", r.topic)
      .set("partition", r.partition)
      .set("topic_id", r.topic_id ? Value(r.topic_id->to_string()) : Value())
      .set("log_start_offset", r.loaded.log_start_offset)
      .set("log_end_offset", r.log_end_offset)
      .set("high_watermark", optional_value(r.high_watermark))
      .set("recovery_point", optional_value(r.recovery_point))
      .set("clean_shutdown", r.clean_shutdown)
      .set("segments", std::move(segments))
      .set("epoch_checkpoint", epochs_value(r.checkpoint_entries))
      .set("rebuilt_epoch_cache", epochs_value(r.rebuilt_entries))
      .set("loaded_epoch_cache", epochs_value(r.loaded.cache.entries()))
      .set("checkpoint_vs_rebuilt",
           Value::object()
               .set("equal", only_checkpoint.empty() && only_rebuilt.empty())
               .set("only_in_checkpoint", epochs_value(only_checkpoint))
               .set("only_in_rebuilt", epochs_value(only_rebuilt)))
      .set("notes", std::move(notes));
}

}  // namespace kepoch::report
