#pragma once
// Finding and reading checkpoint files on disk, read-only. The judging itself is pure
// (format/checkpoint_check.hpp); this file adds the file system: which files a FILE|DIR
// argument means, their bytes, and what lies beside them.

#include <filesystem>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "kepoch/format/checkpoint_check.hpp"

namespace kepoch {

// Checkpoint files are small; a larger file is refused rather than read into memory.
inline constexpr std::uint64_t kMaxCheckpointBytes = 64ull << 20;

// A FILE stays itself. A DIR means every checkpoint file in it (by Kafka's names, .tmp
// leftovers included) and in its immediate subdirectories (a log dir's partition dirs),
// in path order. Throws InputError for a missing path or a directory without any.
std::vector<std::filesystem::path> expand_checkpoint_paths(const std::string& argument);

// Reads and judges one file. `kind` overrides what the name and content say.
// Throws InputError when the file cannot be read or its kind cannot be told.
CheckpointReport check_checkpoint_file(const std::filesystem::path& path,
                                       const std::optional<CheckpointType>& kind, CheckDepth depth);

// What `checkpoint dump|validate FILE|DIR...` judges: every file the arguments mean, in
// order, each handed to `visit` as soon as it is judged (so one file's report is held at a
// time: a 64 MiB checkpoint's entries are the largest thing kept). Files that cannot be
// judged give their one-line InputError message to `unreadable` and do not stop the others.
// With validate, the partition.metadata files are judged first, together, for the lint
// across replicas (lint_topic_ids_across_replicas).
void check_checkpoint_arguments(const std::vector<std::string>& arguments,
                                const std::optional<CheckpointType>& kind, CheckDepth depth,
                                const std::function<void(CheckpointReport&&)>& visit,
                                const std::function<void(std::string)>& unreadable);

}  // namespace kepoch
