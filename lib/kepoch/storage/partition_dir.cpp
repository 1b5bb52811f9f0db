#include "kepoch/storage/partition_dir.hpp"

#include <algorithm>
#include <optional>
#include <system_error>

#include <dirent.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/syscall.h>
#include <unistd.h>

#include "kepoch/base/error.hpp"
#include "kepoch/format/leader_epoch_checkpoint.hpp"
#include "kepoch/format/partition_metadata.hpp"

namespace kepoch {
namespace fs = std::filesystem;

namespace {

// fs::file_size's answer from a stat of the file (following links).
void set_size(PartitionFile& f, int stat_result, int err, const struct stat& st) {
  if (stat_result != 0)
    f.size_error = std::error_code(err, std::generic_category());
  else if (S_ISDIR(st.st_mode))
    f.size_error = std::make_error_code(std::errc::is_a_directory);
  else if (!S_ISREG(st.st_mode))
    f.size_error = std::make_error_code(std::errc::not_supported);
  else
    f.size = static_cast<std::uint64_t>(st.st_size);
}

void sort_listing(PartitionDirListing& out) {
  std::sort(out.files.begin(), out.files.end(),
            [](const auto& a, const auto& b) { return a.name < b.name; });
  std::sort(out.other_entries.begin(), out.other_entries.end(),
            [](const auto& a, const auto& b) { return a.name < b.name; });
}

// Through std::filesystem, for a dir that could not be opened (it fails where it did).
PartitionDirListing list_by_path(const fs::path& dir) {
  PartitionDirListing out;
  out.dir = dir;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code type_ec;
    // File.isFile follows symbolic links; a dangling link or a directory is not a file.
    const bool is_file = it->is_regular_file(type_ec);
    std::string name = it->path().filename().string();
    const bool symlink = it->is_symlink(type_ec);
    auto parsed = parse_segment_file_name(name);
    if (!is_file && it->is_directory(type_ec) && parsed.kind == SegmentFileKind::other) {
      out.other_entries.push_back({std::move(name), symlink});
      continue;
    }
    PartitionFile f{std::move(name), std::move(parsed), is_file, symlink, 0, {}};
    if (is_live_segment(f.parsed)) {
      struct stat st {};
      const int r = ::stat(it->path().c_str(), &st);
      set_size(f, r, errno, st);
    }
    out.files.push_back(std::move(f));
  }
  if (ec) throw InputError(dir.string(), "cannot list directory: " + ec.message());
  sort_listing(out);
  return out;
}

}  // namespace

PartitionDirListing list_partition_dir(const fs::path& dir) {
  return list_partition_dir(dir, std::make_shared<const DirFd>(dir));
}

// getdents64 on the open dir: the entry types come with the names (d_type), a stat only
// for a symbolic link (followed, as File.isFile follows it), an entry of unknown type, and
// a live segment's size.
PartitionDirListing list_partition_dir(const fs::path& dir, std::shared_ptr<const DirFd> handle) {
  if (!handle || handle->fd() < 0) return list_by_path(dir);
  PartitionDirListing out;
  out.dir = dir;
  out.handle = std::move(handle);
  const int fd = out.handle->fd();
  out.files.reserve(8);  // a segment's four files, checkpoints, a snapshot: one allocation
  alignas(8) char buffer[32 * 1024];
  for (;;) {
    const long n = ::syscall(SYS_getdents64, fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) {
      throw InputError(dir.string(), "cannot list directory: " +
                                         std::error_code(errno, std::generic_category()).message());
    }
    if (n == 0) break;
    for (long at = 0; at < n;) {
      const auto* d = reinterpret_cast<const struct dirent64*>(buffer + at);
      at += d->d_reclen;
      const std::string_view nm(d->d_name);
      if (nm == "." || nm == "..") continue;
      unsigned char type = d->d_type;
      struct stat st {};
      if (type == DT_UNKNOWN) {
        if (::fstatat(fd, d->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0)
          type = static_cast<unsigned char>(IFTODT(st.st_mode));
      }
      const bool symlink = type == DT_LNK;
      bool is_file = type == DT_REG;
      bool is_dir = type == DT_DIR;
      int target_stat = -1;
      int target_errno = 0;
      if (symlink) {
        target_stat = ::fstatat(fd, d->d_name, &st, 0);
        target_errno = errno;
        is_file = target_stat == 0 && S_ISREG(st.st_mode);
        is_dir = target_stat == 0 && S_ISDIR(st.st_mode);
      }
      auto parsed = parse_segment_file_name(nm);
      if (!is_file && is_dir && parsed.kind == SegmentFileKind::other) {
        out.other_entries.push_back({std::string(nm), symlink});
        continue;
      }
      PartitionFile f{std::string(nm), std::move(parsed), is_file, symlink, 0, {}};
      if (is_live_segment(f.parsed)) {
        if (!symlink) {
          target_stat = ::fstatat(fd, d->d_name, &st, 0);
          target_errno = errno;
        }
        set_size(f, target_stat, target_errno, st);
      }
      out.files.push_back(std::move(f));
    }
  }
  sort_listing(out);
  return out;
}

int for_each_dir_entry(int dir_fd,
                       const std::function<void(std::string_view, unsigned char)>& visit) {
  alignas(8) char buffer[32 * 1024];
  for (;;) {
    const long n = ::syscall(SYS_getdents64, dir_fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return errno;
    if (n == 0) return 0;
    for (long at = 0; at < n;) {
      const auto* d = reinterpret_cast<const struct dirent64*>(buffer + at);
      at += d->d_reclen;
      const std::string_view name(d->d_name);
      if (name != "." && name != "..") visit(name, d->d_type);
    }
  }
}

namespace {
// The entry named `name` (in `files` or `other_entries`, both in name order): whether there
// is one, and whether it is a symbolic link.
template <class T>
const T* find_named(const std::vector<T>& list, std::string_view name) {
  const auto it = std::lower_bound(list.begin(), list.end(), name,
                                   [](const T& e, std::string_view n) { return e.name < n; });
  return it == list.end() || it->name != name ? nullptr : &*it;
}

std::optional<bool> find_entry(const PartitionDirListing& listing, std::string_view name) {
  if (const auto* f = find_named(listing.files, name)) return f->symlink;
  if (const auto* e = find_named(listing.other_entries, name)) return e->symlink;
  return std::nullopt;
}
}  // namespace

bool PartitionDirListing::listed(std::string_view name) const {
  return find_entry(*this, name).has_value();
}

bool PartitionDirListing::regular_entry(std::string_view name) const {
  const auto* f = find_named(files, name);
  return f && f->is_file && !f->symlink;
}

bool PartitionDirListing::exists(std::string_view name) const {
  const std::optional<bool> symlink = find_entry(*this, name);
  if (!symlink) return false;
  if (!*symlink) return true;
  std::error_code ec;
  return fs::exists(dir / name, ec);
}

std::string path_text(const fs::path& dir, std::string_view name) {
  const std::string& d = dir.native();
  std::string out;
  out.reserve(d.size() + 1 + name.size());
  out += d;
  // operator/ adds a separator unless the dir is empty or ends with one (no filename).
  if (!d.empty() && d.back() != '/') out += '/';
  out += name;
  return out;
}

std::vector<PartitionFile> partition_files(const fs::path& dir) {
  return list_partition_dir(dir).files;
}

bool is_live_segment(const SegmentFileName& name) {
  return name.kind == SegmentFileKind::log && name.state == LeftoverState::none &&
         name.offset.has_value();
}

std::vector<LiveSegment> live_segments(const PartitionDirListing& listing) {
  std::vector<LiveSegment> out;
  for (const auto& f : listing.files)
    if (is_live_segment(f.parsed))
      out.push_back({f.path_in(listing.dir), *f.parsed.offset, f.size, f.size_error});
  std::stable_sort(out.begin(), out.end(),
                   [](const auto& a, const auto& b) { return a.base_offset < b.base_offset; });
  return out;
}

std::vector<LiveSegment> live_segments(const fs::path& dir) {
  return live_segments(list_partition_dir(dir));
}

fs::path absolute_path(const fs::path& path) {
  if (path.is_absolute()) return path;
  static const fs::path cwd = fs::current_path();
  return cwd / path;
}

PartitionDirParse partition_dir_name_of(const fs::path& dir) {
  // A last component that is a plain name is the normal form's last component too: only
  // "." and ".." (and a trailing separator) change under lexically_normal.
  const std::string& text = dir.native();
  const std::size_t slash = text.rfind('/');
  const std::string_view last =
      std::string_view(text).substr(slash == std::string::npos ? 0 : slash + 1);
  if (!last.empty() && last != "." && last != "..") return parse_partition_dir_name(last, text);
  const fs::path norm = absolute_path(dir).lexically_normal();
  const std::string name = (norm.has_filename() ? norm : norm.parent_path()).filename().string();
  return parse_partition_dir_name(name, dir.string());
}

bool holds_partition_files(const fs::path& dir) {
  std::error_code ec;
  if (fs::is_regular_file(dir / kLeaderEpochCheckpointName, ec) ||
      fs::is_regular_file(dir / kPartitionMetadataName, ec))
    return true;
  try {
    for (const auto& f : partition_files(dir))
      if (is_live_segment(f.parsed)) return true;
  } catch (const InputError&) {
  }
  return false;
}

}  // namespace kepoch
