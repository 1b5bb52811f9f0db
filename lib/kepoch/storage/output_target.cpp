#include "kepoch/storage/output_target.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include <algorithm>
#include <array>

#include "kepoch/storage/log_dir.hpp"
#include "kepoch/storage/partition_dir.hpp"

namespace kepoch {
namespace fs = std::filesystem;

namespace {

constexpr std::size_t kMarkBytes = 4096;

FileKind kind_of(mode_t mode) {
  if (S_ISREG(mode)) return FileKind::regular;
  if (S_ISDIR(mode)) return FileKind::directory;
  if (S_ISFIFO(mode)) return FileKind::fifo;
  if (S_ISCHR(mode)) return FileKind::char_device;
  if (S_ISBLK(mode)) return FileKind::block_device;
  if (S_ISSOCK(mode)) return FileKind::socket;
  return FileKind::other;
}

PathFacts facts_of(const struct stat& st) {
  return {kind_of(st.st_mode),
          {static_cast<std::uint64_t>(st.st_dev), static_cast<std::uint64_t>(st.st_ino)},
          static_cast<std::uint64_t>(st.st_size)};
}

DirFacts dir_facts(const fs::path& dir) {
  DirFacts d;
  d.path = dir.string();
  d.id = path_facts(dir).id;
  d.metadata_dir = dir.filename() == kMetadataLogDirName;
  d.log_dir = holds_log_dir_files(dir);
  d.partition_dir = !d.log_dir && holds_partition_files(dir);
  return d;
}

// `path` with every symbolic link followed, also a dangling one's (weakly_canonical keeps a
// dangling link's name, and a rename over it would replace the link).
fs::path resolved_path(const fs::path& path, bool& symlink) {
  std::error_code ec;
  fs::path p = fs::absolute(path, ec);
  symlink = fs::is_symlink(fs::symlink_status(p, ec));
  for (int hops = 0; hops < 40 && fs::is_symlink(fs::symlink_status(p, ec)); ++hops) {
    const fs::path to = fs::read_symlink(p, ec);
    if (ec) break;
    p = to.is_absolute() ? to : p.parent_path() / to;
  }
  fs::path out = fs::weakly_canonical(p, ec);
  return ec ? p.lexically_normal() : out;
}

// The first and last kMarkBytes of a regular file, read-only; empty when it cannot be read.
std::pair<std::string, std::string> head_and_tail(const fs::path& file) {
  std::pair<std::string, std::string> out;
  const int fd = ::open(file.c_str(), O_RDONLY | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK);
  if (fd < 0) return out;
  struct stat st {};
  if (::fstat(fd, &st) != 0 || !S_ISREG(st.st_mode)) {
    ::close(fd);
    return out;
  }
  std::array<char, kMarkBytes> buf{};
  ssize_t n = ::pread(fd, buf.data(), buf.size(), 0);
  if (n > 0) out.first.assign(buf.data(), static_cast<std::size_t>(n));
  const off_t from =
      st.st_size > static_cast<off_t>(kMarkBytes) ? st.st_size - static_cast<off_t>(kMarkBytes) : 0;
  n = ::pread(fd, buf.data(), buf.size(), from);
  if (n > 0) out.second.assign(buf.data(), static_cast<std::size_t>(n));
  ::close(fd);
  return out;
}

std::string_view kind_words(FileKind kind) {
  switch (kind) {
    case FileKind::directory:
      return "a directory";
    case FileKind::block_device:
      return "a block device";
    case FileKind::socket:
      return "a socket";
    default:
      return "not a file kepoch can write";
  }
}

std::string_view kind_name(OutputKind kind) {
  switch (kind) {
    case OutputKind::html_page:
      return "an HTML page";
    case OutputKind::logdir_snapshot:
      return "a log dir snapshot";
    case OutputKind::salvage_archive:
      return "a salvage archive";
    case OutputKind::replay_progress:
      return "a replay progress file";
    case OutputKind::plan_file:
      return "a plan (no steps.sh of kepoch's beside it)";
    case OutputKind::config_edit:
      break;
  }
  return "a file";
}

}  // namespace

PathFacts path_facts(const fs::path& path) {
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) return {};
  return facts_of(st);
}

bool kepoch_wrote(OutputKind kind, std::string_view head, std::string_view tail) {
  switch (kind) {
    case OutputKind::html_page:  // html_page.cpp: page_open and page_close
      return head.starts_with("<!DOCTYPE html>") &&
             tail.find("<footer>Drawn by kepoch") != std::string_view::npos;
    case OutputKind::logdir_snapshot: {  // logdir_snapshot_writer.cpp: line 1
      const std::string_view line = head.substr(0, head.find('\n'));
      return line.starts_with('{') &&
             line.find("\"format\":\"kepoch-logdir-snapshot\"") != std::string_view::npos;
    }
    case OutputKind::salvage_archive:    // forecast/salvage_archive.cpp: line 1
    case OutputKind::replay_progress: {  // forecast/replay_plan.cpp: line 1
      const std::string_view line = head.substr(0, head.find('\n'));
      const std::string_view format = kind == OutputKind::salvage_archive
                                          ? "\"format\":\"kepoch-salvage-archive\""
                                          : "\"format\":\"kepoch-replay-progress\"";
      return line.starts_with('{') && line.find(format) != std::string_view::npos;
    }
    case OutputKind::plan_file:  // recovery_plan_report.cpp: steps.sh's opening
      return head.starts_with("#!/bin/sh\n# kepoch plan:");
    case OutputKind::config_edit:
      return true;
  }
  return false;
}

OutputDecision decide_output(const OutputFacts& out, OutputKind kind,
                             const std::vector<InputFacts>& inputs, bool overwrite) {
  OutputDecision d;
  const auto refuse = [&](std::string why) {
    d.allowed = false;
    d.refusal = fmt::format("{} {}{}", out.flag, out.given, why);
    return d;
  };
  if (out.given.empty()) return refuse("give a file name");
  // 4. A link is written through to its target; one that leads nowhere would be replaced by
  // the rename, a file kepoch did not write.
  if (out.link_loop)
    return refuse(
        " is a symbolic link that leads to no file (a loop of links, or more than 40): not a "
        "file kepoch can write");
  const bool exists = out.target.kind != FileKind::missing;
  // 1. A file this run reads (its own inode, through any link).
  if (exists)
    for (const auto& in : inputs)
      if (in.facts.kind != FileKind::missing && in.facts.id == out.target.id &&
          kind != OutputKind::config_edit)
        return refuse(fmt::format(
            " is {}, an input of this run: kepoch never writes a file it reads; write "
            "elsewhere",
            in.given == out.given ? "also given" : fmt::format("the same file as {}", in.given)));
  // 2. Inside a log dir, a partition dir or a metadata log dir (nearest first).
  for (std::size_t i = 0; i < out.dirs.size(); ++i) {
    const DirFacts& dir = out.dirs[i];
    if (!dir.log_dir && !dir.partition_dir && !dir.metadata_dir) continue;
    const std::string log_dir =
        !dir.log_dir && i + 1 < out.dirs.size() ? out.dirs[i + 1].path : dir.path;
    return refuse(fmt::format(
        " is inside the log dir {}: kepoch writes nothing into a log dir; write elsewhere",
        log_dir));
  }
  // 1. Inside a directory this run reads.
  for (const auto& in : inputs)
    for (const auto& read : in.read_dirs)
      for (const auto& dir : out.dirs)
        if (dir.id == read.id)
          return refuse(fmt::format(
              " is inside {}, which this run reads ({}): kepoch writes nothing where it "
              "reads; write elsewhere",
              read.path, in.given));
  // 5. What can be written at all. A descriptor is written as it is open (the shell made
  // the file it redirects to: nothing of kepoch's to ask about).
  if (out.descriptor &&
      (out.target.kind == FileKind::regular || out.target.kind == FileKind::fifo ||
       out.target.kind == FileKind::char_device)) {
    d.allowed = true;
    d.method = WriteMethod::in_place;
    d.write_path = out.resolved;
    return d;
  }
  switch (out.target.kind) {
    case FileKind::missing:
    case FileKind::regular:
      d.method = WriteMethod::replace;
      break;
    case FileKind::fifo:
      d.method = WriteMethod::in_place;
      d.waits_for_reader = true;
      break;
    case FileKind::char_device:
      d.method = WriteMethod::in_place;
      break;
    default:
      return refuse(
          fmt::format(" is {}, not a file kepoch can write", kind_words(out.target.kind)));
  }
  // 3. A file kepoch did not write, only when asked.
  if (out.target.kind == FileKind::regular && out.target.size > 0 && !out.kepoch_wrote &&
      kind != OutputKind::config_edit && !overwrite)
    return refuse(fmt::format(
        " exists and is not {} kepoch wrote: give another name, or --overwrite to replace it",
        kind_name(kind)));
  d.allowed = true;
  d.write_path = out.resolved;
  return d;
}

OutputFacts output_facts(const std::string& flag, const std::string& path, OutputKind kind) {
  OutputFacts f;
  f.flag = flag;
  f.given = path;
  if (path.empty()) return f;
  fs::path resolved = resolved_path(path, f.symlink);
  std::error_code ec;
  f.link_loop = fs::is_symlink(fs::symlink_status(resolved, ec));
  f.resolved = resolved.string();
  f.target = path_facts(resolved);
  // An open descriptor named as a file (/dev/stdout -> /proc/self/fd/1 -> a pipe, a
  // terminal or the file the shell redirected to), or a FIFO or device reached through a
  // link the kernel resolves itself: written where it was named, in place.
  f.descriptor = path.starts_with("/dev/stdout") || path.starts_with("/dev/stderr") ||
                 path.starts_with("/dev/fd/") || path.starts_with("/proc/self/fd/");
  if (const PathFacts direct = path_facts(path);
      direct.kind != FileKind::missing &&
      (f.descriptor || direct.kind == FileKind::fifo || direct.kind == FileKind::char_device)) {
    f.target = direct;
    f.resolved = path;
    resolved = fs::absolute(path).parent_path() / fs::path(path).filename();
  }
  if (f.target.kind == FileKind::regular) {
    if (kind == OutputKind::plan_file) {
      f.kepoch_wrote =
          kepoch_wrote(kind, head_and_tail(resolved.parent_path() / "steps.sh").first, {});
    } else {
      const auto [head, tail] = head_and_tail(resolved);
      f.kepoch_wrote = kepoch_wrote(kind, head, tail);
    }
  }
  for (fs::path d = resolved.parent_path(); !d.empty(); d = d.parent_path()) {
    if (path_facts(d).kind == FileKind::directory) f.dirs.push_back(dir_facts(d));
    if (d == d.root_path()) break;
  }
  return f;
}

std::vector<InputFacts> input_facts(const std::vector<std::string>& arguments) {
  std::vector<InputFacts> out;
  for (const auto& a : arguments) {
    InputFacts in;
    in.given = a;
    if (a == "-") {  // standard input: a file redirected in is an input like any other
      struct stat st {};
      if (::fstat(STDIN_FILENO, &st) == 0) in.facts = facts_of(st);
      out.push_back(std::move(in));
      continue;
    }
    bool link = false;
    fs::path p = resolved_path(a, link);
    in.facts = path_facts(p);
    const std::size_t colon = a.rfind(':');  // SNAPSHOT:TOPIC-PARTITION
    if (in.facts.kind == FileKind::missing && colon != std::string::npos && colon > 0) {
      p = resolved_path(a.substr(0, colon), link);
      in.facts = path_facts(p);
    }
    if (in.facts.kind == FileKind::missing) continue;
    if (in.facts.kind == FileKind::directory) {
      const DirFacts dir = dir_facts(p);
      in.read_dirs.push_back(dir);
      // A replica dir (or metadata log dir) is read with its log dir's checkpoints.
      if (dir.partition_dir || dir.metadata_dir) in.read_dirs.push_back(dir_facts(p.parent_path()));
    } else {
      // A segment or checkpoint file: its partition dir and log dir are read around it. A
      // snapshot file's dir is the operator's own: only the file itself is an input.
      const DirFacts parent = dir_facts(p.parent_path());
      if (parent.log_dir || parent.partition_dir || parent.metadata_dir) {
        in.read_dirs.push_back(parent);
        if (!parent.log_dir) in.read_dirs.push_back(dir_facts(p.parent_path().parent_path()));
      }
    }
    out.push_back(std::move(in));
  }
  return out;
}

}  // namespace kepoch
