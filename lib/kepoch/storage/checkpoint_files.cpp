#include "kepoch/storage/checkpoint_files.hpp"

#include <algorithm>
#include <system_error>

#include "kepoch/base/dir_listing.hpp"
#include "kepoch/base/error.hpp"
#include "kepoch/base/read_only_file.hpp"
#include "kepoch/format/segment_file_name.hpp"
#include "kepoch/storage/log_dir.hpp"
#include "kepoch/storage/log_segment_reader.hpp"
#include "kepoch/storage/partition_dir.hpp"

namespace kepoch {
namespace fs = std::filesystem;
namespace {

// The files of `dir` named like a checkpoint (a directory of such a name is not one).
std::vector<fs::path> checkpoints_in(const fs::path& dir) {
  std::vector<fs::path> out;
  const std::error_code ec = list_directory(dir, [&](const ListedEntry& e) {
    if (!e.is_dir && checkpoint_type_from_name(e.name)) out.push_back(dir / e.name);
  });
  if (ec) throw InputError(dir.string(), "cannot list directory: " + ec.message());
  return out;
}

// The log end offset of the partition dir's segments, as LogSegment.readNextOffset gives it
// for the last segment; nullopt when the dir holds no segment or it cannot be read.
std::optional<std::int64_t> log_end_offset_of(const fs::path& dir) {
  std::optional<std::pair<std::int64_t, fs::path>> last;
  try {
    const auto segments = live_segments(dir);  // partition_dir.hpp
    if (!segments.empty()) last = {segments.back().base_offset, segments.back().path};
  } catch (const InputError&) {
    return std::nullopt;
  }
  if (!last) return std::nullopt;
  try {
    LogSegmentReader reader(last->second, /*load_batches=*/false);
    std::int64_t next = last->first;
    while (auto e = reader.next())
      next = e->header.next_offset();
    return next;
  } catch (const InputError&) {
    return std::nullopt;
  }
}

}  // namespace

std::vector<fs::path> expand_checkpoint_paths(const std::string& argument) {
  const fs::path path(argument);
  std::error_code ec;
  const auto status = fs::status(path, ec);
  if (ec || !fs::exists(status)) {
    // A dangling symlink or a missing file: let the reader say which, with the path.
    return {path};
  }
  if (!fs::is_directory(status)) return {path};

  std::vector<fs::path> found = checkpoints_in(path);
  std::vector<fs::path> subdirs;
  if (holds_log_dir_files(path)) {
    // A broker log dir: the partition dirs Kafka loads (log_dir.hpp), not lost+found & co.
    for (const auto& e : list_log_dir(path).dirs)
      if (e.kind == LogDirEntryKind::replica || e.kind == LogDirEntryKind::metadata_log)
        subdirs.push_back(e.path);
  } else {
    // Any other directory (copies of replicas side by side): each subdirectory.
    ec = list_directory(path, [&](const ListedEntry& e) {
      if (e.is_dir) subdirs.push_back(path / e.name);
    });
    if (ec) throw InputError(argument, "cannot list directory: " + ec.message());
  }
  for (const auto& sub : subdirs) {
    auto inner = checkpoints_in(sub);
    found.insert(found.end(), inner.begin(), inner.end());
  }
  if (found.empty()) {
    throw InputError(argument,
                     "no checkpoint files in this directory (looked for Kafka's "
                     "checkpoint names here and one level down)");
  }
  std::sort(found.begin(), found.end());
  return found;
}

CheckpointReport check_checkpoint_file(const fs::path& path,
                                       const std::optional<CheckpointType>& kind,
                                       CheckDepth depth) {
  // "-" is standard input; a FIFO is not read (one in a log dir could block or lose data).
  const std::string name = input_name(path);
  const std::string text = path == "-" ? read_input_file(path, kMaxCheckpointBytes)
                                       : read_small_file(path, kMaxCheckpointBytes);
  std::optional<CheckpointType> type = kind;
  if (!type) type = checkpoint_type_from_name(path.filename().string());
  if (!type) type = checkpoint_type_from_content(text);
  if (!type) {
    throw InputError(name,
                     "cannot tell which checkpoint file this is from its name or content "
                     "(not a Kafka checkpoint? name it with --kind)");
  }
  CheckpointContext context;
  std::error_code ec;
  context.tmp_sibling = !type->tmp && fs::exists(fs::path(name + ".tmp"), ec);
  context.metadata_log_dir = fs::exists(path.parent_path() / kMetadataLogDirName, ec);
  CheckpointReport report = check_checkpoint(text, name, *type, context, depth);
  if (depth == CheckDepth::validate && type->kind == CheckpointKind::leader_epoch && !type->tmp) {
    if (const auto leo = log_end_offset_of(path.parent_path()))
      lint_epochs_against_log_end(report, *leo);
  }
  return report;
}

void check_checkpoint_arguments(const std::vector<std::string>& arguments,
                                const std::optional<CheckpointType>& kind, CheckDepth depth,
                                const std::function<void(CheckpointReport&&)>& visit,
                                const std::function<void(std::string)>& unreadable) {
  struct Target {
    fs::path path;
    std::optional<std::string> error;  // the argument could not be expanded
  };
  std::vector<Target> targets;
  for (const auto& argument : arguments) {
    try {
      for (auto& path : expand_checkpoint_paths(argument))
        targets.push_back({std::move(path), std::nullopt});
    } catch (const InputError& e) {
      targets.push_back({argument, e.what()});
    }
  }
  // partition.metadata files first (by --kind or by name: they are small), for the lint
  // across replicas; kept until their turn comes.
  std::vector<std::optional<CheckpointReport>> early(targets.size());
  if (depth == CheckDepth::validate) {
    std::vector<CheckpointReport> metadata;
    std::vector<std::size_t> at;
    for (std::size_t i = 0; i < targets.size(); ++i) {
      if (targets[i].error || targets[i].path == "-") continue;
      const auto type =
          kind ? kind : checkpoint_type_from_name(targets[i].path.filename().string());
      if (!type || type->kind != CheckpointKind::partition_metadata) continue;
      try {
        metadata.push_back(check_checkpoint_file(targets[i].path, kind, depth));
        at.push_back(i);
      } catch (const InputError& e) {
        targets[i].error = e.what();
      }
    }
    lint_topic_ids_across_replicas(metadata);
    for (std::size_t k = 0; k < metadata.size(); ++k)
      early[at[k]] = std::move(metadata[k]);
  }
  for (std::size_t i = 0; i < targets.size(); ++i) {
    if (targets[i].error) {
      unreadable(*targets[i].error);
      continue;
    }
    if (early[i]) {
      visit(std::move(*early[i]));
      continue;
    }
    std::optional<CheckpointReport> report;
    try {
      report = check_checkpoint_file(targets[i].path, kind, depth);
    } catch (const InputError& e) {
      unreadable(e.what());
      continue;
    }
    visit(std::move(*report));
  }
}

}  // namespace kepoch
