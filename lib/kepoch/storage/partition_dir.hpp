#pragma once
// A partition dir and its live segments: the one definition every walk of storage/ uses
// (partition verify and inspect, logdir scan, snapshots, checkpoint validate, the metadata
// log), so the commands cannot disagree on which files a partition holds.
//
// Kafka's rules (LogLoader.loadSegmentFiles, LogFileUtils):
//   - a partition's files are the entries of its dir that File.isFile accepts (regular files,
//     following symbolic links), in name order. kepoch lists the other entries too, marked:
//     an entry with a segment's name that is not a file (a directory or FIFO named
//     00000000000000000000.log) is skipped by loadSegmentFiles, but Kafka later opens that
//     name (LogSegment.open of a new or the active segment) and fails, so the readers open
//     it and say why rather than pass over it;
//   - a live segment is one whose path ends with ".log" (LogFileUtils.isLogFile; a leftover
//     "<offset>.log.deleted", ".cleaned" or ".swap" does not), its base offset the
//     Long.parseLong of the name before the first '.' (offsetFromFileName); LogSegments keys
//     the segments by base offset;
//   - a name whose offset Long.parseLong refuses is not a segment: loading the log throws
//     NumberFormatException (partition verify reports it from kafka_failure).
// Read-only: directories are listed, never created or changed.

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <system_error>
#include <vector>

#include "kepoch/base/read_only_file.hpp"
#include "kepoch/format/segment_file_name.hpp"

namespace kepoch {

// A file of a partition dir, with its name parsed (format/segment_file_name.hpp). Only the
// name is kept (a std::filesystem::path per file cost a walk of 10,000 partitions more than
// its system calls): path_in(dir) is its path.
struct PartitionFile {
  std::string name;
  SegmentFileName parsed;
  bool is_file = true;   // File.isFile: a regular file, or a link to one
  bool symlink = false;  // the entry itself is a symbolic link
  // For a live segment (is_live_segment) listed by list_partition_dir: what
  // std::filesystem::file_size answers, from the one stat the listing made.
  std::uint64_t size = 0;
  std::error_code size_error;

  std::filesystem::path path_in(const std::filesystem::path& dir) const { return dir / name; }
};

// `dir / name` as std::filesystem::path's operator/ spells it, for a plain file name, as a
// string (no path object: error messages and opens relative to the dir need only the text).
std::string path_text(const std::filesystem::path& dir, std::string_view name);

// The entries of `dir` other than directories not named like a segment file (see the
// header), in name order. InputError when the dir cannot be listed.
std::vector<PartitionFile> partition_files(const std::filesystem::path& dir);

// One listing of a partition dir, for a reader that asks several questions of it (the
// replica loader, partition verify): the files as partition_files gives them, and what
// std::filesystem::exists would answer for a name in the dir, from the listing's entry types
// (getdents' d_type; a stat only for a symbolic link, which exists follows), so a file that
// is absent or plainly there costs no system call.
struct PartitionDirListing {
  std::filesystem::path dir;
  // The dir held open while it was listed, for opening its files relative to it
  // (ReadOnlyFile's dir_fd); fd() < 0 when it could not be opened.
  std::shared_ptr<const DirFd> handle;
  std::vector<PartitionFile> files;
  bool exists(std::string_view name) const;
  bool listed(std::string_view name) const;  // an entry of that name, of any type
  // An entry of that name that is itself a regular file, not a link
  // (ReadOnlyFile::listed_regular opens it without a stat).
  bool regular_entry(std::string_view name) const;

  struct Entry {
    std::string name;
    bool symlink = false;
  };
  // The entries left out of `files` (directories not named like a segment file), by name:
  // with `files`, every entry of the dir.
  std::vector<Entry> other_entries;
};
PartitionDirListing list_partition_dir(const std::filesystem::path& dir);
// The same, listing the dir through `handle` (the dir already open) when it is open.
PartitionDirListing list_partition_dir(const std::filesystem::path& dir,
                                       std::shared_ptr<const DirFd> handle);

// LogFileUtils.isLogFile with a readable base offset: Kafka opens this name as a segment.
bool is_live_segment(const SegmentFileName& name);

struct LiveSegment {
  std::filesystem::path path;
  std::int64_t base_offset = 0;
  std::uint64_t size = 0;  // from the listing (PartitionFile::size)
  std::error_code size_error;
};

// The live segments of `dir`, by base offset (LogSegments' order). InputError when the dir
// cannot be listed.
std::vector<LiveSegment> live_segments(const std::filesystem::path& dir);
std::vector<LiveSegment> live_segments(const PartitionDirListing& listing);

// std::filesystem::absolute without a getcwd per call: the working directory is read once
// (kepoch never changes it), so a walk of 10,000 partition dirs does not ask 10,000 times.
std::filesystem::path absolute_path(const std::filesystem::path& path);

// The partition a dir's name means (UnifiedLog.parseTopicPartitionName on its last
// component, so "t-0/" and "./t-0" are read as t-0); `kafka_failure` when Kafka refuses it.
PartitionDirParse partition_dir_name_of(const std::filesystem::path& dir);

// A directory holding what only a partition dir holds: a live segment, a
// leader-epoch-checkpoint or a partition.metadata file. Used to answer an argument given
// to the wrong command (a partition dir to `logdir scan`).
bool holds_partition_files(const std::filesystem::path& dir);

}  // namespace kepoch
