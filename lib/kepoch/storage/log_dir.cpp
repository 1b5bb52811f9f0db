#include "kepoch/storage/log_dir.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <string_view>
#include <system_error>
#include <utility>

#include "kepoch/base/dir_listing.hpp"
#include "kepoch/base/error.hpp"
#include "kepoch/format/checkpoint_kind.hpp"
#include "kepoch/format/meta_properties.hpp"
#include "kepoch/storage/partition_dir.hpp"

namespace kepoch {
namespace fs = std::filesystem;
namespace {

// `inner` is `outer` or below it (both canonical).
bool is_within(const fs::path& inner, const fs::path& outer) {
  const auto [end, _] = std::mismatch(outer.begin(), outer.end(), inner.begin(), inner.end());
  return end == outer.end();
}

// `is_symlink`: the entry's type as the directory listing gave it (getdents' d_type, or an
// lstat where the file system leaves it unknown), so a plain directory costs no system call.
LogDirEntry classify(fs::path entry_path, std::string name, bool is_symlink,
                     const fs::path& canonical_log_dir) {
  LogDirEntry e;
  e.path = std::move(entry_path);
  e.name = std::move(name);
  const fs::path& path = e.path;
  std::error_code ec;
  if (is_symlink) {
    e.link_target = fs::read_symlink(path, ec);
    const fs::path resolved = fs::canonical(path, ec);
    if (!ec) e.link_to_log_dir_or_above = is_within(canonical_log_dir, resolved);
  }
  if (e.name == kRemoteIndexCacheDirName) {
    e.kind = LogDirEntryKind::remote_index_cache;
    return e;
  }
  auto parse = parse_partition_dir_name(e.name, path.string());
  if (!parse.name) {
    // Kafka's message names the canonical path (File.getCanonicalPath): resolved only for a
    // name Kafka refuses (the path shows in nothing else), not for every partition dir.
    const fs::path shown = fs::weakly_canonical(path, ec);
    if (!ec) parse = parse_partition_dir_name(e.name, shown.string());
    e.kind = LogDirEntryKind::refused_name;
    e.kafka_failure = parse.kafka_failure.value_or("not in the form of topic-partition");
    return e;
  }
  e.partition = parse.name;
  e.kind = parse.name->topic == kMetadataTopic ? LogDirEntryKind::metadata_log
                                               : LogDirEntryKind::replica;
  return e;
}

// Kafka's message holds a newline; kepoch's messages are one line.
std::string one_line(std::string text) {
  std::replace(text.begin(), text.end(), '\n', ' ');
  return text;
}

// The log dir's directories (File.isDirectory: following symbolic links) and the files named
// like a root checkpoint, by name, from base/dir_listing (getdents64 on the open dir: a plain
// directory costs no stat, and no std::filesystem::path).
void list_entries(const fs::path& dir, std::vector<std::pair<std::string, bool>>& subdirs,
                  std::vector<std::string>& checkpoints) {
  const std::error_code ec = list_directory(dir, [&](const ListedEntry& e) {
    if (e.is_dir)
      subdirs.emplace_back(std::string(e.name), e.symlink);
    else if (checkpoint_type_from_name(e.name))
      checkpoints.emplace_back(e.name);
  });
  if (ec) throw InputError(dir.string(), "cannot list log dir: " + ec.message());
}

}  // namespace

std::vector<const LogDirEntry*> LogDirListing::of_kind(LogDirEntryKind kind) const {
  std::vector<const LogDirEntry*> out;
  for (const auto& e : dirs)
    if (e.kind == kind) out.push_back(&e);
  return out;
}

LogDirListing list_log_dir(const fs::path& dir) {
  LogDirListing out;
  out.dir = dir;
  std::error_code ec;
  const auto status = fs::status(dir, ec);
  if (ec || !fs::exists(status)) throw InputError(dir.string(), "no such log dir");
  if (!fs::is_directory(status))
    throw InputError(dir.string(), "not a directory (a log dir is expected)");
  // A partition dir given where a log dir is expected: say which command reads it.
  if (!holds_log_dir_files(dir) && holds_partition_files(dir)) {
    const auto parse = partition_dir_name_of(dir);
    throw InputError(
        dir.string(),
        fmt::format("{}, not a log dir: to check it, run `kepoch partition verify {}`; a log dir "
                    "is the directory that holds partition dirs",
                    parse.name ? fmt::format("a partition dir ({}-{})", parse.name->topic,
                                             parse.name->partition)
                               : std::string("a partition's files (segments, "
                                             "leader-epoch-checkpoint, partition.metadata)"),
                    dir.string()));
  }
  const fs::path canonical = fs::canonical(dir, ec);
  std::vector<std::pair<std::string, bool>> subdirs;  // name, is a symbolic link
  std::vector<std::string> checkpoints;
  list_entries(dir, subdirs, checkpoints);
  // By name: in one dir, the order of the paths.
  std::sort(subdirs.begin(), subdirs.end());
  std::sort(checkpoints.begin(), checkpoints.end());
  for (const auto& name : checkpoints)
    out.checkpoint_files.push_back(dir / name);
  out.dirs.reserve(subdirs.size());
  for (auto& [name, link] : subdirs) {
    fs::path path = dir / name;
    out.dirs.push_back(classify(std::move(path), std::move(name), link, canonical));
  }
  return out;
}

namespace {
constexpr std::string_view kLogDirFileNames[] = {
    kMetaPropertiesName, "replication-offset-checkpoint", "recovery-point-offset-checkpoint",
    "log-start-offset-checkpoint"};
}  // namespace

bool holds_log_dir_files(const fs::path& dir) {
  std::error_code ec;
  for (std::string_view name : kLogDirFileNames)
    if (fs::exists(dir / name, ec)) return true;
  return false;
}

bool holds_log_dir_files(const PartitionDirListing& listing) {
  for (std::string_view name : kLogDirFileNames)
    if (listing.exists(name)) return true;
  return false;
}

fs::path metadata_log_dir_of(const fs::path& target) {
  std::error_code ec;
  const fs::path norm = fs::absolute(target).lexically_normal();
  const std::string name = (norm.has_filename() ? norm : norm.parent_path()).filename().string();
  if (name == kMetadataLogDirName || !fs::is_directory(target / kMetadataLogDirName, ec))
    return target;
  return target / kMetadataLogDirName;
}

std::string kafka_reading(const LogDirEntry& e) {
  switch (e.kind) {
    case LogDirEntryKind::refused_name:
      return fmt::format(
          "Kafka does not start on this log dir: LogManager.loadLogs parses every directory's "
          "name, and this one throws KafkaException ({}), which is not the IOException that "
          "only takes a log dir offline: the broker stops (\"Error starting LogManager\", a "
          "fatal fault); move the directory out of the log dir",
          one_line(*e.kafka_failure));
    case LogDirEntryKind::remote_index_cache:
      return "skipped, not a partition dir (tiered storage's remote index cache: its entries are "
             "under remote_index_cache)";
    case LogDirEntryKind::metadata_log:
      return "the KRaft metadata log (loaded by the Raft layer, not LogManager)";
    case LogDirEntryKind::replica:
      break;
  }
  if (e.link_target && e.link_to_log_dir_or_above)
    return fmt::format(
        "a symbolic link to {} (the log dir itself or a directory above it): Kafka follows it "
        "(File.isDirectory) and loads that directory's files as replica {}-{}, writing its "
        "checkpoints and segments there",
        e.link_target->string(), e.partition->topic, e.partition->partition);
  if (e.link_target)
    return fmt::format(
        "a symbolic link to {}: Kafka follows it (File.isDirectory) and loads the directory "
        "it points to as replica {}-{}",
        e.link_target->string(), e.partition->topic, e.partition->partition);
  return "";
}

}  // namespace kepoch
