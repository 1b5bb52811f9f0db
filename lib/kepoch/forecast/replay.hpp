#pragma once
// Replay: the records of a salvage archive (salvage_archive.hpp) produced back to their
// topic and partition (or another topic) with the idempotent producer
// (cluster/record_producer: acks=all, each record once and in order per partition), keys,
// values, headers and timestamps as they were, plus the header kepoch.salvaged.from naming
// where each record was (<topic>-<partition>@<offset>:<leader epoch>).
//
// Which records (replay_skip): data and committed transactions, in archive order; never a
// control record (a marker replayed as data would be a record no consumer ever saw);
// aborted records, open transactions and records the new leader holds already only when
// asked.
//
// Resuming: a progress file beside the archive (never in a log dir: the caller writes it
// through the output rule) holds how many of the archive's records, from its first, are done
// (delivered, as the delivery report said, or skipped). It is written only after delivery
// reports, at most twice a second and at the end; an interrupted replay (SIGINT: `stop`)
// stops producing, waits for the records in flight, and writes it, so the next run starts
// after the last record delivered in order and nothing is produced twice. A run killed
// outright (SIGKILL) may produce again what was delivered since the last write.

#include <atomic>
#include <cstdint>
#include <functional>
#include <istream>
#include <optional>
#include <ostream>
#include <string>
#include <vector>

#include "kepoch/cluster/connection_settings.hpp"
#include "kepoch/forecast/salvage_archive.hpp"

namespace kepoch::forecast {

inline constexpr std::string_view kReplayProgressFormat = "kepoch-replay-progress";
inline constexpr std::string_view kSalvagedFromHeader = "kepoch.salvaged.from";

struct ReplaySelection {
  bool include_open = false;
  bool include_aborted = false;
  bool include_present = false;
  std::optional<std::string> to_topic;  // another topic, same partition numbers
  double max_rate = 0;                  // records a second at most (0: as fast as it goes)
};

enum class ReplaySkip { none, control, aborted, open, present };
ReplaySkip replay_skip(const ArchivedRecord& record, const ReplaySelection& selection);

// "<topic>-<partition>@<offset>:<leader epoch>"
std::string salvaged_from(const ArchivedRecord& record);

// The progress file: one JSON line.
struct ArchiveReplayProgress {
  std::string archive;              // the archive's path as given
  std::uint64_t archive_bytes = 0;  // its size: a progress file of another archive is refused
  std::string target;               // the topic replayed to ("" : each record's own)
  std::uint64_t done = 0;           // records from the archive's first that are done
  bool complete = false;            // every record done
};
void write_replay_progress(std::ostream& out, const ArchiveReplayProgress& progress);
// Throws InputError naming `path` for anything but a progress line.
ArchiveReplayProgress read_replay_progress(std::istream& in, const std::string& path);

struct ReplayCounts {
  std::uint64_t records = 0;       // in the archive
  std::uint64_t resumed_past = 0;  // done by an earlier run
  std::uint64_t selected = 0;      // to produce in this run
  std::uint64_t delivered = 0;
  std::uint64_t failed = 0;
  std::uint64_t skipped_control = 0;
  std::uint64_t skipped_aborted = 0;
  std::uint64_t skipped_open = 0;
  std::uint64_t skipped_present = 0;
  std::uint64_t done = 0;  // the prefix done at the end (what the progress file says)
  bool interrupted = false;
  bool dry_run = false;
  std::vector<std::string> errors;  // the first delivery errors, each a sentence
};

// The bytes of a record as replay produces it, as the producer counts them against its
// message.max.bytes: key, value, and every header's name and value, kepoch.salvaged.from
// included.
std::uint64_t replayed_record_bytes(const ArchivedRecord& record);

struct ArchiveCheck {
  std::uint64_t records = 0;
  std::uint64_t largest_record_bytes = 0;  // replayed_record_bytes' largest, over every record
};

// Reads the whole archive and returns its record count and largest record, producing
// nothing: InputError naming `path` and the line for whatever replay_archive would refuse (a
// bad line, a copy cut short, a duplicated line). A live replay checks first, so that a
// damaged archive is refused before any record is produced, not after some were, and a
// progress file is never left behind the records delivered; its producer is made for the
// largest record (a record over a megabyte, which a topic took with a larger
// max.message.bytes, would otherwise be refused by the producer half-way through the
// archive, at every resume).
ArchiveCheck check_archive(std::istream& archive, const std::string& path);

// Reads the whole archive (InputError: a bad line, cut short); produces what it selects
// after `resume_from` records, unless `settings` is null (a dry run: only counts), with a
// producer made for records of up to `largest_record_bytes` (check_archive's). Calls
// `on_progress(done)` when the done prefix grew (at most twice a second, and at the end).
// ClusterError when the producer cannot start or a record cannot be queued. Whatever is thrown
// after records were produced (an archive changed under the run, a record that cannot be
// queued), the records in flight are waited for and `on_progress` is called with the done
// prefix first, so that the progress file never says less than was delivered (a new run would
// produce those records twice).
ReplayCounts replay_archive(std::istream& archive, const std::string& path,
                            const ReplaySelection& selection, std::uint64_t resume_from,
                            const cluster::ConnectionSettings* settings,
                            std::uint64_t largest_record_bytes,
                            const std::function<void(std::uint64_t done)>& on_progress,
                            const std::function<void(std::uint64_t done)>& on_count,
                            const std::atomic<bool>& stop);

}  // namespace kepoch::forecast
