#include "metadata_source.hpp"

#include "progress.hpp"

namespace kepoch::cli {

LoadedMetadata load_metadata_history(const std::string& target,
                                     const MetadataReplayOptions& options,
                                     PartitionHistoryFilter filter, const Globals& globals) {
  LoadedMetadata out{
      plan_metadata_replay(target, options), {}, PartitionHistory(std::move(filter))};
  std::vector<std::filesystem::path> files;
  if (out.plan.snapshot) files.push_back(out.plan.snapshot->path);
  if (out.plan.start.read_log)
    files.insert(files.end(), out.plan.segments.begin(), out.plan.segments.end());
  Progress progress(globals, "reading the metadata log", files);
  out.summary = replay_metadata(out.plan, [&](const MetadataLogEntry& e) {
    progress.at(e.file, e.batch_position);
    if (!e.record) return;
    // A snapshot's records stand for the state at its end offset, not for log offsets.
    const MetadataPosition at =
        e.snapshot ? MetadataPosition{-1, e.snapshot->last_contained_log_timestamp, e.snapshot->id}
                   : MetadataPosition{e.offset, e.timestamp, std::nullopt};
    out.history.apply(*e.record, at);
  });
  return out;
}

std::vector<std::string> metadata_problems(const LoadedMetadata& loaded) {
  auto problems = loaded.summary.problems;
  problems.insert(problems.end(), loaded.history.orphans().begin(), loaded.history.orphans().end());
  return problems;
}

}  // namespace kepoch::cli
