#pragma once
// Where kepoch may write: the one rule every file kepoch writes goes through (an --html page,
// a `logdir snapshot --file`, plan's --out-dir files, the profile config `profile use` edits).
//
// kepoch's promise is "never harm the data". For a file it writes that means:
//   1. never a file this run also reads (same device and inode: a hard link or a symbolic
//      link to an input is the input), nor a path inside a directory this run reads (a
//      partition dir argument's log dir counts: predict reads its checkpoints);
//   2. never inside a broker log dir, a partition dir or a KRaft metadata log dir, whoever's;
//   3. never replace a file kepoch did not write (a non-empty regular file without the mark
//      of its kind) unless the operator asked for it (--overwrite); an edit (the profile
//      config) is asked for by the command itself;
//   4. a symbolic link is written through: the link stays, its target gets the new bytes;
//   5. a regular file is replaced whole (a temporary file beside the target, then a rename:
//      a reader sees the old file or the new, never half); a FIFO or a character device
//      (/dev/stdout, /dev/full) is written in place; anything else (a directory, a socket, a
//      block device) is refused.
//
// The decision (decide_output) is pure over stat(2) facts, so it is unit-tested without a
// file system; output_facts and input_facts gather those facts, read-only (stat, and the
// first or last bytes of an existing output to look for kepoch's mark). Writing is the
// caller's (apps/kepoch/output_file.cpp): lib/ never writes.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <string>
#include <vector>

namespace kepoch {

// What stat(2) says a path is (symbolic links followed).
enum class FileKind { missing, regular, directory, fifo, char_device, block_device, socket, other };

// A file's identity: same device and inode means the same file, whatever the path.
struct FileId {
  std::uint64_t device = 0;
  std::uint64_t inode = 0;
  bool operator==(const FileId&) const = default;
};

struct PathFacts {
  FileKind kind = FileKind::missing;
  FileId id;
  std::uint64_t size = 0;
};

// What kepoch writes; each kind has its own mark (kepoch_wrote).
enum class OutputKind {
  html_page,        // report/html_page.hpp's page: its footer
  logdir_snapshot,  // storage/logdir_snapshot.hpp: line 1's "format"
  plan_file,        // plan --out-dir's files: the dir's steps.sh opening
  config_edit,      // a file the command edits on purpose (profile use): no mark needed
  salvage_archive,  // forecast/salvage_archive.hpp: line 1's "format"
  replay_progress,  // replay's progress file: line 1's "format"
};

// A directory on the way from / to the output.
struct DirFacts {
  std::string path;
  FileId id;
  bool log_dir = false;        // holds a broker log dir's root files (log_dir.hpp)
  bool partition_dir = false;  // holds a partition dir's files (partition_dir.hpp)
  bool metadata_dir = false;   // named __cluster_metadata-0
};

struct OutputFacts {
  std::string flag;            // "--html", "--file", "--out-dir", "config"
  std::string given;           // the path as given
  bool symlink = false;        // the path itself is a symbolic link (written through)
  bool link_loop = false;      // its links lead to no path (a loop, or more than 40 links)
  std::string resolved;        // where the bytes land: symbolic links followed
  PathFacts target;            // stat of `resolved`
  bool kepoch_wrote = false;   // an existing file holds the mark of its kind
  bool descriptor = false;     // /dev/stdout, /dev/fd/N, ...: an open descriptor, written in place
  std::vector<DirFacts> dirs;  // the directories above `resolved`, nearest first
};

// One input of the run: the file or dir it names and the directories whose contents it reads.
struct InputFacts {
  std::string given;
  PathFacts facts;
  std::vector<DirFacts> read_dirs;  // a dir argument itself, and a replica's log dir
};

enum class WriteMethod {
  replace,   // a regular file (or none yet): a temporary file beside it, then a rename
  in_place,  // a FIFO or a character device: opened and written as it is
};

struct OutputDecision {
  bool allowed = false;
  std::string refusal;  // why not: one line naming the flag and the path (a usage error)
  WriteMethod method = WriteMethod::replace;
  std::string write_path;         // the path to write (the symbolic link's target for a link)
  bool waits_for_reader = false;  // a FIFO: the open blocks until something reads it
};

// The rule above. `overwrite`: the operator asked to replace a file kepoch did not write.
OutputDecision decide_output(const OutputFacts& output, OutputKind kind,
                             const std::vector<InputFacts>& inputs, bool overwrite);

// Whether bytes read from an existing output (`head`: its first 4 KiB, `tail`: its last
// 4 KiB) carry the mark of `kind`; `steps_head` for plan files: the first bytes of steps.sh
// beside it.
bool kepoch_wrote(OutputKind kind, std::string_view head, std::string_view tail);

// The facts of an output path, gathered read-only (never creating anything).
OutputFacts output_facts(const std::string& flag, const std::string& path, OutputKind kind);

// The facts of a command's inputs (arguments as given: dirs, files, SNAPSHOT:TOPIC-PARTITION,
// "-" for standard input, whose fstat is taken). Inputs that do not exist are skipped: they
// cannot be harmed, and the command reports them itself.
std::vector<InputFacts> input_facts(const std::vector<std::string>& arguments);

// PathFacts of one path (stat, symbolic links followed).
PathFacts path_facts(const std::filesystem::path& path);

}  // namespace kepoch
