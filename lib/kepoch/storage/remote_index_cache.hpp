#pragma once
// `<log dir>/remote-log-index-cache` (RemoteIndexCache.DIR_NAME): tiered storage's on-disk cache
// of remote segments' indexes, as `logdir scan` reports it. Kafka puts it in the broker's FIRST
// log dir (BrokerServer.createRemoteLogManager: config.logDirs.head) when
// remote.log.storage.system.enable is on; LogManager.loadLogs skips it.
//
// Layout (RemoteIndexCache.generateFileNamePrefixForIndex and the *FileName helpers):
//
//   <start offset>_<segment id>.index       offset index of the remote segment
//   (format/offset_index.hpp) <start offset>_<segment id>.timeindex   time index
//   (format/time_index.hpp) <start offset>_<segment id>.txnindex    transaction index
//   (format/transaction_index.hpp;
//                                           empty when the segment has none)
//   <any of those>.deleted                  an entry evicted or removed (Entry.markForCleanup
//                                           renames; the cleaner thread then deletes them)
//   <any of those>.tmp                      a download under way (loadIndexFile copies the
//                                           remote index there, then moves it atomically)
//
// <start offset> is RemoteLogSegmentMetadata.startOffset (decimal), <segment id> the
// RemoteLogSegmentId's Uuid (URL-safe base64, 22 characters). The file names carry no topic:
// which partition an entry belongs to only __remote_log_metadata says (by segment id).
//
// What the broker does with the dir at start-up (RemoteIndexCache.init), which kepoch
// replays name by name:
//   1. deletes every file whose name ends in ".deleted" or ".tmp" -- from Kafka 4.1
//      (KAFKA-18787); 3.9 and 4.0 test Path.endsWith, which compares whole path elements,
//      so they delete nothing there and the files stay for good;
//   2. for every other file: segment id = Uuid.fromString(name between the first '_' and
//      the first '.'); an exception there (no '.', a '.' before the '_', not a Uuid) escapes
//      init, the RemoteLogManager cannot be built and the broker does not start. Then, unless
//      an entry for that id is loaded already: when <prefix>.index, .timeindex and .txnindex
//      all exist (prefix: the name up to its first '.'), start offset = Long.parseLong(name
//      up to its first '_') and the three are opened and sanity-checked
//      (OffsetIndex/TimeIndex/TransactionIndex.sanityCheck); a failure there is as fatal.
//      Otherwise the ones that exist are deleted. Any other name (5_<id>.foo) is left alone.
// Entries are not checked against the remote log metadata at start-up or after: an entry
// whose segment remote retention deleted stays until the cache evicts it (only a partition's
// deletion removes entries: RemoteLogManager.deleteRemoteLogPartition -> removeAll).
//
// Read-only: files are listed and the complete entries' three indexes read, nothing else.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "kepoch/base/uuid.hpp"
#include "kepoch/storage/logdir_scan.hpp"

namespace kepoch {

struct TieredLogDirView;

enum class RemoteIndexFileKind { offset_index, time_index, txn_index, deleted, tmp, other };
std::string_view to_string(RemoteIndexFileKind kind);

// One file name of the cache dir, read as RemoteIndexCache.init reads it. Pure.
struct RemoteIndexFileName {
  std::string name;
  RemoteIndexFileKind kind = RemoteIndexFileKind::other;  // by its suffix
  std::string prefix;  // up to the first '.' (the whole name without one)
  // remoteLogSegmentIdFromRemoteIndexFileName; none: `id_error` says what Kafka throws.
  std::optional<Uuid> segment_id;
  std::string id_error;
  // offsetFromRemoteIndexFileName; none: `offset_error` says what Kafka throws.
  std::optional<std::int64_t> start_offset;
  std::string offset_error;
};
RemoteIndexFileName parse_remote_index_file_name(std::string_view name);

// One cached segment: the files sharing a prefix <start offset>_<segment id>.
struct RemoteIndexCacheEntry {
  std::string prefix;
  Uuid segment_id;
  std::optional<std::int64_t> start_offset;  // none: the name's offset is not a long
  std::vector<std::string> files;            // names, sorted
  std::uint64_t bytes = 0;
  bool offset_index = false, time_index = false, txn_index = false;
  std::size_t deleted_files = 0, tmp_files = 0, other_files = 0;
  // cached: all three indexes (Kafka loads it at start-up); incomplete: some missing (Kafka
  // deletes the rest at start-up); marked_for_deletion: only .deleted files (evicted or
  // removed, the cleaner thread's); download_unfinished: only .tmp files (with .deleted
  // ones too); other: only names Kafka leaves alone.
  std::string state;
  // What RemoteIndexCache.init does with it on Kafka 4.1 and later: loaded, deleted,
  // broker_fails (sanity check or offset fails), left (files it never touches).
  std::string at_startup;
  std::string startup_note;  // why, in a sentence (with Kafka's message on broker_fails)
  // From __remote_log_metadata (the log dir's own partitions): the partition and the
  // segment's state; `metadata` is live (COPY_SEGMENT_FINISHED), copying, deleting, deleted,
  // unknown (not named by the metadata read) or not_read (no __remote_log_metadata here).
  std::string metadata = "not_read";
  std::string topic;
  std::optional<std::int32_t> partition;
  std::optional<std::string> segment_state;
  std::optional<std::int64_t> metadata_start_offset;
  std::optional<std::int64_t> metadata_end_offset;
};

struct RemoteIndexCacheFinding {
  std::string severity;  // error (the broker does not start), warning, info
  std::string kind;      // unparsable_name, corrupt_index, stale_entry, unknown_segment, ...
  std::string file;      // the file's name, or the entry's prefix
  std::string message;
};

struct RemoteIndexCacheView {
  std::filesystem::path dir;
  std::optional<std::string> unreadable;  // the dir could not be listed
  std::uint64_t files = 0;
  std::uint64_t bytes = 0;
  std::vector<RemoteIndexCacheEntry> entries;  // by start offset, then segment id
  std::vector<RemoteIndexCacheFinding> findings;
  bool metadata_read = false;  // the cross-check had __remote_log_metadata to go by
};

// Reads the cache dir: lists it, groups the names into entries, replays RemoteIndexCache.init
// on them (the complete entries' indexes read and sanity-checked). Never throws for what the
// dir holds: an unlistable dir sets `unreadable`.
RemoteIndexCacheView read_remote_index_cache(const std::filesystem::path& dir);

// The same from names and sizes alone (no index read): for tests of the grouping and the
// start-up replay of names. `sizes` parallel to `names`.
RemoteIndexCacheView judge_remote_index_cache_names(const std::vector<std::string>& names,
                                                    const std::vector<std::uint64_t>& sizes);

// Sets each entry's partition and metadata state from the log dir's tiered view (by segment
// id) and adds the findings: stale entries (the segment deleted or being deleted), entries
// of segments the metadata does not name, a start offset that differs from the metadata's.
void cross_check_remote_index_cache(RemoteIndexCacheView& cache, const TieredLogDirView& tiered);

// `logdir scan`'s reading of a log dir's cache (none: the log dir has no cache dir): read,
// then cross-checked against `tiered` (the same log dir's tiered view).
std::optional<RemoteIndexCacheView> read_log_dir_index_cache(const LogDirScan& scan,
                                                             const TieredLogDirView& tiered);

// The findings that stop the broker, as the log dir problems `logdir scan` counts.
std::vector<LogDirProblem> remote_index_cache_problems(const RemoteIndexCacheView& cache);

}  // namespace kepoch
