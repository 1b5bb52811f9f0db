#include "kepoch/storage/remote_index_cache.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <limits>
#include <map>
#include <span>
#include <system_error>

#include "kepoch/base/dir_listing.hpp"
#include "kepoch/base/error.hpp"
#include "kepoch/base/read_only_file.hpp"
#include "kepoch/format/offset_index.hpp"
#include "kepoch/format/time_index.hpp"
#include "kepoch/format/transaction_index.hpp"
#include "kepoch/storage/tiered_view.hpp"

namespace kepoch {
namespace fs = std::filesystem;

namespace {

constexpr std::string_view kDeletedSuffix = ".deleted";  // LogFileUtils.DELETED_FILE_SUFFIX
constexpr std::string_view kTmpSuffix = ".tmp";          // RemoteIndexCache.TMP_FILE_SUFFIX
// A remote segment's index is at most segment.index.bytes (10 MiB by default; an int) and
// trimmed to its entries when the segment was rolled; a file larger than this is not read
// (its entry's check is then unknown, said as such): read whole and parsed, a 2 GiB sparse
// file took ~6 GiB, and the scan of the whole log dir ran out of memory under a 1 GiB limit.
constexpr std::uint64_t kMaxIndexBytes = 64ull << 20;

bool ends_with(std::string_view s, std::string_view suffix) {
  return s.size() >= suffix.size() && s.substr(s.size() - suffix.size()) == suffix;
}

// Long.parseLong(s) (radix 10): an optional sign, then at least one digit, within a long.
// Java also takes non-ASCII Unicode digits; a broker's file names are its own ASCII ones.
std::optional<std::int64_t> java_parse_long(std::string_view s) {
  if (s.empty()) return std::nullopt;
  bool negative = false;
  std::size_t i = 0;
  if (s[0] == '-' || s[0] == '+') {
    negative = s[0] == '-';
    i = 1;
    if (s.size() == 1) return std::nullopt;
  }
  // Accumulate negatively, as Java does, so that Long.MIN_VALUE parses.
  std::int64_t result = 0;
  const std::int64_t limit = negative ? std::numeric_limits<std::int64_t>::min()
                                      : -std::numeric_limits<std::int64_t>::max();
  for (; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return std::nullopt;
    const int digit = s[i] - '0';
    if (result < limit / 10) return std::nullopt;
    result *= 10;
    if (result < limit + digit) return std::nullopt;
    result -= digit;
  }
  return negative ? result : -result;
}

// RemoteIndexCache.init's first step on Kafka 4.1 and later (KAFKA-18787): the names it
// deletes before reading the others.
bool deleted_first(std::string_view name) {
  return ends_with(name, kDeletedSuffix) || ends_with(name, kTmpSuffix);
}

// The same step on 3.9 and 4.0: Path.endsWith(".deleted") is true only for a path whose last
// element IS ".deleted".
bool deleted_first_before_4_1(std::string_view name) {
  return name == kDeletedSuffix || name == kTmpSuffix;
}

}  // namespace

std::string_view to_string(RemoteIndexFileKind kind) {
  switch (kind) {
    case RemoteIndexFileKind::offset_index:
      return "offset_index";
    case RemoteIndexFileKind::time_index:
      return "time_index";
    case RemoteIndexFileKind::txn_index:
      return "txn_index";
    case RemoteIndexFileKind::deleted:
      return "deleted";
    case RemoteIndexFileKind::tmp:
      return "tmp";
    case RemoteIndexFileKind::other:
      return "other";
  }
  return "other";
}

RemoteIndexFileName parse_remote_index_file_name(std::string_view name) {
  RemoteIndexFileName out;
  out.name = std::string(name);
  const std::size_t underscore = name.find('_');
  const std::size_t dot = name.find('.');
  out.prefix = std::string(name.substr(0, dot));
  if (ends_with(name, kDeletedSuffix))
    out.kind = RemoteIndexFileKind::deleted;
  else if (ends_with(name, kTmpSuffix))
    out.kind = RemoteIndexFileKind::tmp;
  else if (dot != std::string_view::npos) {
    const std::string_view suffix = name.substr(dot);
    if (suffix == ".index")  // LogFileUtils.INDEX_FILE_SUFFIX
      out.kind = RemoteIndexFileKind::offset_index;
    else if (suffix == ".timeindex")
      out.kind = RemoteIndexFileKind::time_index;
    else if (suffix == ".txnindex")
      out.kind = RemoteIndexFileKind::txn_index;
  }

  // remoteLogSegmentIdFromRemoteIndexFileName: fileName.substring(indexOf("_") + 1,
  // indexOf(".")), then Uuid.fromString. Java's substring throws when the end (-1: no '.')
  // is before the begin.
  const std::size_t begin = underscore == std::string_view::npos ? 0 : underscore + 1;
  if (dot == std::string_view::npos) {
    out.id_error =
        "java.lang.StringIndexOutOfBoundsException: the name has no '.' "
        "(RemoteIndexCache.remoteLogSegmentIdFromRemoteIndexFileName)";
  } else if (begin > dot) {
    out.id_error =
        "java.lang.StringIndexOutOfBoundsException: its first '.' comes before its "
        "first '_' (RemoteIndexCache.remoteLogSegmentIdFromRemoteIndexFileName)";
  } else {
    const UuidParse id = parse_uuid(name.substr(begin, dot - begin));
    if (id.ok)
      out.segment_id = id.uuid;
    else
      out.id_error = "java.lang.IllegalArgumentException: " + id.error;
  }

  // offsetFromRemoteIndexFileName: Long.parseLong(fileName.substring(0, indexOf("_"))).
  if (underscore == std::string_view::npos) {
    out.offset_error =
        "java.lang.StringIndexOutOfBoundsException: the name has no '_' "
        "(RemoteIndexCache.offsetFromRemoteIndexFileName)";
  } else {
    const std::string_view digits = name.substr(0, underscore);
    out.start_offset = java_parse_long(digits);
    if (!out.start_offset)
      out.offset_error =
          fmt::format("java.lang.NumberFormatException: For input string: \"{}\"", digits);
  }
  return out;
}

namespace {

struct Listed {
  std::string name;
  std::uint64_t size = 0;
  bool regular = true;
};

// Groups the names into entries and replays RemoteIndexCache.init's name rules; `check`
// sanity-checks a complete entry (none: the names alone).
using EntryCheck = std::optional<std::string> (*)(const fs::path& dir,
                                                  const RemoteIndexCacheEntry& entry,
                                                  RemoteIndexCacheView& view);

RemoteIndexCacheView judge(const fs::path& dir, const std::vector<Listed>& listed,
                           EntryCheck check) {
  RemoteIndexCacheView view;
  view.dir = dir;
  std::map<std::string, RemoteIndexCacheEntry> by_prefix;
  for (const auto& f : listed) {
    ++view.files;
    view.bytes += f.size;
    const RemoteIndexFileName n = parse_remote_index_file_name(f.name);
    if (!n.segment_id) {
      // Step 2 throws on this name, unless step 1 deleted it first.
      if (deleted_first(f.name)) {
        if (!deleted_first_before_4_1(f.name))
          view.findings.push_back(
              {"warning", "unparsable_name", f.name,
               fmt::format("Kafka 4.1 and later delete {} at start-up (a .deleted or .tmp name); "
                           "Kafka 3.9 and 4.0 do not (KAFKA-18787) and then fail to read its "
                           "name ({}): their broker does not start while it is there",
                           f.name, n.id_error)});
      } else {
        view.findings.push_back(
            {"error", "unparsable_name", f.name,
             fmt::format("not a name RemoteIndexCache can read: {}. RemoteIndexCache.init throws "
                         "it at start-up and the broker does not start (with "
                         "remote.log.storage.system.enable, in its first log dir); move the "
                         "file out of the cache dir",
                         n.id_error)});
      }
      continue;
    }
    RemoteIndexCacheEntry& e = by_prefix[n.prefix];
    if (e.files.empty()) {
      e.prefix = n.prefix;
      e.segment_id = *n.segment_id;
      e.start_offset = n.start_offset;
    }
    e.files.push_back(f.name);
    e.bytes += f.size;
    switch (n.kind) {
      case RemoteIndexFileKind::offset_index:
        e.offset_index = true;
        break;
      case RemoteIndexFileKind::time_index:
        e.time_index = true;
        break;
      case RemoteIndexFileKind::txn_index:
        e.txn_index = true;
        break;
      case RemoteIndexFileKind::deleted:
        ++e.deleted_files;
        break;
      case RemoteIndexFileKind::tmp:
        ++e.tmp_files;
        break;
      case RemoteIndexFileKind::other:
        ++e.other_files;
        view.findings.push_back(
            {"info", "other_file", f.name,
             "not a file RemoteIndexCache writes (<offset>_<id>.index, .timeindex, .txnindex, "
             "or one of those with .deleted or .tmp): Kafka never reads or deletes it"});
        break;
    }
    if (!f.regular && n.kind != RemoteIndexFileKind::other)
      view.findings.push_back(
          {"warning", "not_a_file", f.name, fmt::format("{} is not a regular file", f.name)});
  }

  std::map<std::string, std::vector<std::string>> prefixes_by_id;
  for (auto& [prefix, e] : by_prefix) {
    std::sort(e.files.begin(), e.files.end());
    prefixes_by_id[e.segment_id.to_string()].push_back(prefix);
    const int indexes = int(e.offset_index) + int(e.time_index) + int(e.txn_index);
    if (indexes == 3) {
      e.state = "cached";
      if (!e.start_offset) {
        const RemoteIndexFileName n = parse_remote_index_file_name(e.files.front());
        e.at_startup = "broker_fails";
        e.startup_note = n.offset_error;
        view.findings.push_back(
            {"error", "unparsable_name", prefix,
             fmt::format("its three indexes are there, so RemoteIndexCache.init parses the start "
                         "offset of {} and throws {}: the broker does not start; move the "
                         "entry's files out of the cache dir",
                         prefix, n.offset_error)});
      } else if (auto failure = check ? check(dir, e, view) : std::nullopt) {
        e.at_startup = "broker_fails";
        e.startup_note = *failure;
        view.findings.push_back(
            {"error", "corrupt_index", prefix,
             fmt::format("RemoteIndexCache.init loads it at start-up and its sanity check throws "
                         "{}: the broker does not start; delete the entry's files (the broker "
                         "fetches the indexes again from the remote tier)",
                         *failure)});
      } else {
        e.at_startup = "loaded";
        e.startup_note = check ? "Kafka loads it at start-up (its indexes pass the sanity checks)"
                               : "Kafka loads it at start-up";
      }
    } else if (indexes > 0) {
      e.state = "incomplete";
      e.at_startup = "deleted";
      e.startup_note = "an entry needs all three indexes: Kafka deletes the others at start-up";
      view.findings.push_back({"info", "incomplete_entry", prefix,
                               fmt::format("{} of its 3 indexes: {}", indexes, e.startup_note)});
    } else if (e.tmp_files > 0) {
      e.state = "download_unfinished";
      e.at_startup = "deleted";
      e.startup_note = "a download from the remote tier that did not finish";
    } else if (e.deleted_files > 0) {
      e.state = "marked_for_deletion";
      e.at_startup = "deleted";
      e.startup_note = "evicted or removed from the cache, left for the cleaner thread";
    } else {
      e.state = "other";
      e.at_startup = "left";
      e.startup_note = "no file Kafka reads or deletes";
    }
    if (e.deleted_files + e.tmp_files > 0) {
      e.startup_note += fmt::format(
          "; its {} .deleted/.tmp file(s) go at start-up on Kafka 4.1 and later, but stay for "
          "good on 3.9 and 4.0 (KAFKA-18787)",
          e.deleted_files + e.tmp_files);
      if (e.state == "marked_for_deletion" || e.state == "download_unfinished")
        view.findings.push_back(
            {"info", e.state, prefix,
             fmt::format("{} ({}): {}",
                         e.state == "marked_for_deletion" ? "being deleted" : "download unfinished",
                         fmt::join(e.files, ", "), e.startup_note)});
    }
  }
  for (const auto& [id, prefixes] : prefixes_by_id)
    if (prefixes.size() > 1)
      view.findings.push_back(
          {"warning", "duplicate_segment_id", prefixes.front(),
           fmt::format("segment {} has entries under {} start offsets ({}): RemoteIndexCache keeps "
                       "one entry per segment id, the first Files.list gives; the other stays on "
                       "disk",
                       id, prefixes.size(), fmt::join(prefixes, ", "))});

  for (auto& [prefix, e] : by_prefix)
    view.entries.push_back(std::move(e));
  std::stable_sort(view.entries.begin(), view.entries.end(),
                   [](const RemoteIndexCacheEntry& a, const RemoteIndexCacheEntry& b) {
                     const std::int64_t oa = a.start_offset.value_or(-1);
                     const std::int64_t ob = b.start_offset.value_or(-1);
                     if (oa != ob) return oa < ob;
                     return a.prefix < b.prefix;
                   });
  return view;
}

// Reads one index of a complete entry; none with `unknown` set when it cannot be read.
std::optional<std::string> read_index(const fs::path& path, std::string& unknown) {
  try {
    return read_small_file(path, kMaxIndexBytes);
  } catch (const InputError& e) {
    unknown = e.what();
    return std::nullopt;
  }
}

std::span<const std::uint8_t> bytes_of(const std::string& s) {
  return {reinterpret_cast<const std::uint8_t*>(s.data()), s.size()};
}

// The sanity checks init runs on a complete entry, in its order: the offset index, the time
// index, the transaction index; the first failure, as Kafka's exception and message.
std::optional<std::string> check_entry(const fs::path& dir, const RemoteIndexCacheEntry& e,
                                       RemoteIndexCacheView& view) {
  const std::int64_t base = *e.start_offset;
  std::string unknown;
  const fs::path offset_path = dir / (e.prefix + ".index");
  const fs::path time_path = dir / (e.prefix + ".timeindex");
  const fs::path txn_path = dir / (e.prefix + ".txnindex");
  const auto say = [](const IndexCheckFailure& f) {
    return fmt::format("{}: {}", f.exception, f.kafka_message);
  };
  if (auto bytes = read_index(offset_path, unknown)) {
    if (auto f = parse_offset_index(bytes_of(*bytes), base).sanity_check(offset_path.string()))
      return say(*f);
  }
  if (unknown.empty()) {
    if (auto bytes = read_index(time_path, unknown)) {
      if (auto f = parse_time_index(bytes_of(*bytes), base).sanity_check(time_path.string()))
        return say(*f);
    }
  }
  if (unknown.empty()) {
    if (auto bytes = read_index(txn_path, unknown)) {
      if (auto f = parse_transaction_index(bytes_of(*bytes), base).sanity_check(txn_path.string()))
        return say(*f);
    }
  }
  if (!unknown.empty())
    view.findings.push_back({"warning", "unreadable_index", e.prefix,
                             "whether Kafka can load it is unknown: " + unknown});
  return std::nullopt;
}

}  // namespace

RemoteIndexCacheView judge_remote_index_cache_names(const std::vector<std::string>& names,
                                                    const std::vector<std::uint64_t>& sizes) {
  std::vector<Listed> listed;
  for (std::size_t i = 0; i < names.size(); ++i)
    listed.push_back({names[i], i < sizes.size() ? sizes[i] : 0, true});
  return judge({}, listed, nullptr);
}

RemoteIndexCacheView read_remote_index_cache(const fs::path& dir) {
  std::vector<Listed> listed;
  const std::error_code ec = list_directory(dir, [&](const ListedEntry& e) {
    Listed l;
    l.name = std::string(e.name);
    l.regular = e.is_file;
    struct stat st {};
    if (e.is_file && e.stat_target(st) == 0) l.size = static_cast<std::uint64_t>(st.st_size);
    listed.push_back(std::move(l));
  });
  if (ec) {
    RemoteIndexCacheView view;
    view.dir = dir;
    view.unreadable =
        fmt::format("{}: cannot list the remote index cache: {}", dir.string(), ec.message());
    return view;
  }
  return judge(dir, listed, &check_entry);
}

void cross_check_remote_index_cache(RemoteIndexCacheView& cache, const TieredLogDirView& tiered) {
  cache.metadata_read = !tiered.metadata_partitions.empty();
  if (!cache.metadata_read) return;
  struct Where {
    const TieredPartitionView* partition;
    const RemoteSegmentView* segment;
  };
  std::map<std::string, Where> by_id;
  for (const auto& p : tiered.partitions)
    for (const auto& s : p.segments)
      by_id[s.segment_id.to_string()] = {&p, &s};
  for (auto& e : cache.entries) {
    const auto it = by_id.find(e.segment_id.to_string());
    if (it == by_id.end()) {
      e.metadata = "unknown";
      if (e.state == "cached" || e.state == "incomplete")
        cache.findings.push_back(
            {"info", "unknown_segment", e.prefix,
             fmt::format("the __remote_log_metadata partitions in this log dir ({}) do not name "
                         "segment {}: its partition and state are unknown here (the metadata of "
                         "its partition may be on other brokers, or the segment is not of this "
                         "cluster)",
                         fmt::join(tiered.metadata_partitions, ", "), e.segment_id.to_string())});
      continue;
    }
    const TieredPartitionView& p = *it->second.partition;
    const RemoteSegmentView& s = *it->second.segment;
    e.topic = p.topic;
    e.partition = p.partition;
    e.segment_state = s.state;
    e.metadata_start_offset = s.start_offset;
    e.metadata_end_offset = s.end_offset;
    const std::string tp = fmt::format("{}-{}", p.topic, p.partition);
    if (s.state == "COPY_SEGMENT_FINISHED")
      e.metadata = "live";
    else if (s.state == "COPY_SEGMENT_STARTED")
      e.metadata = "copying";
    else if (s.state == "DELETE_SEGMENT_STARTED")
      e.metadata = "deleting";
    else if (s.state == "DELETE_SEGMENT_FINISHED")
      e.metadata = "deleted";
    else
      e.metadata = "unknown";
    if (e.start_offset && *e.start_offset != s.start_offset)
      cache.findings.push_back(
          {"warning", "offset_mismatch", e.prefix,
           fmt::format("the name says start offset {}, the metadata of segment {} ({}) says {}: "
                       "Kafka names an entry by the segment's start offset, so these files are "
                       "not the ones it wrote for it",
                       *e.start_offset, e.segment_id.to_string(), tp, s.start_offset)});
    if ((e.metadata == "deleted" || e.metadata == "deleting") && e.state == "cached")
      cache.findings.push_back(
          {"info", "stale_entry", e.prefix,
           fmt::format("cached indexes of {} offsets {}-{}, whose remote segment is {} ({}): "
                       "no fetch reads them again; remote retention does not remove cache "
                       "entries (only a partition's deletion does), so they take {} bytes until "
                       "the cache evicts them",
                       tp, s.start_offset, s.end_offset,
                       e.metadata == "deleted" ? "deleted" : "being deleted", s.state, e.bytes)});
  }
}

std::optional<RemoteIndexCacheView> read_log_dir_index_cache(const LogDirScan& scan,
                                                             const TieredLogDirView& tiered) {
  if (!scan.remote_index_cache) return std::nullopt;
  RemoteIndexCacheView view = read_remote_index_cache(*scan.remote_index_cache);
  if (!view.unreadable) cross_check_remote_index_cache(view, tiered);
  return view;
}

std::vector<LogDirProblem> remote_index_cache_problems(const RemoteIndexCacheView& cache) {
  std::vector<LogDirProblem> out;
  if (cache.unreadable) out.push_back({cache.dir.string(), "warning", *cache.unreadable, "ok"});
  for (const auto& f : cache.findings)
    if (f.severity == "error")
      out.push_back({(cache.dir / f.file).string(), "error", f.message, "startup-fatal"});
  return out;
}

}  // namespace kepoch
