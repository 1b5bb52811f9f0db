#pragma once
// The controller's metadata log as the metadata history, diff --metadata and partition
// inspect --metadata read it: where the replay starts (a snapshot, then the log:
// storage/metadata_replay.hpp), replayed into each partition's history, with a progress line
// on a terminal.

#include <optional>
#include <string>

#include "globals.hpp"
#include "kepoch/metadata/partition_history.hpp"
#include "kepoch/storage/metadata_replay.hpp"

namespace kepoch::cli {

struct LoadedMetadata {
  MetadataReplayPlan plan;
  MetadataReplaySummary summary;
  PartitionHistory history;
};

// Throws InputError for an unreadable target or a damaged snapshot.
LoadedMetadata load_metadata_history(const std::string& target,
                                     const MetadataReplayOptions& options,
                                     PartitionHistoryFilter filter, const Globals& globals);

// `metadata history`: the history report written as it is replayed (document_stream.hpp),
// in memory bounded by the partition count and kHistoryHeldBytes, not the log's length. A
// first pass replays the log keeping each partition's current registration (what the report
// says before each partition's steps: its last led epoch, the table's column widths; the
// order of the partitions; the problems) and every step and broker event in compact form
// (compact_history.hpp: ~15 bytes a step); if they fit in kHistoryHeldBytes the report is
// written from them. Otherwise each further pass replays the log again and writes one
// partition's steps as they come, holding those of the next partitions (compactly, at most
// kHistoryHeldBytes of them) until it ends. Returns whether the history has problems.
// Throws InputError before any output for an unreadable target or a damaged snapshot.
// KEPOCH_HISTORY_HELD_BYTES, if set, replaces kHistoryHeldBytes (a test's knob: the
// fixtures are small, so 0 or 1 makes them take the many-pass path of a large log).
bool write_metadata_history(const std::string& target, const MetadataReplayOptions& options,
                            const PartitionHistoryFilter& filter, const TimeRange& time,
                            const Globals& globals);
// Bytes of steps and broker events held compactly (~700,000 steps).
inline constexpr std::size_t kHistoryHeldBytes = std::size_t{10} << 20;

// Refuses (UsageError) a metadata log whose log dir records another cluster id than
// `replicas_cluster_id` (recorded in `replicas_file`): the controller's epochs of another
// cluster say nothing of these replicas. Nothing is refused when either id is unknown.
void refuse_other_cluster(const std::string& metadata_target,
                          const std::optional<std::string>& replicas_cluster_id,
                          const std::string& replicas_file);

// A problem when the filter or the time range selects nothing the replay found (a
// partition no --topic/--partition names, a range no step or broker event falls in): an
// answer with nothing in it is never a silent exit 0.
std::optional<std::string> nothing_selected(const PartitionHistoryFilter& filter,
                                            const TimeRange& time, std::size_t replayed,
                                            std::size_t shown, std::size_t broker_events);

// history.orphans() and the replay's problems, in one list.
std::vector<std::string> metadata_problems(const LoadedMetadata& loaded);

}  // namespace kepoch::cli
