#include "kepoch/storage/partition_dir.hpp"

#include <algorithm>
#include <optional>
#include <system_error>

#include <sys/stat.h>

#include "kepoch/base/dir_listing.hpp"
#include "kepoch/base/error.hpp"
#include "kepoch/format/leader_epoch_checkpoint.hpp"
#include "kepoch/format/partition_metadata.hpp"

namespace kepoch {
namespace fs = std::filesystem;

namespace {

// fs::file_size's answer from a stat of the file (following links; err its errno, or 0).
void set_size(PartitionFile& f, int err, const struct stat& st) {
  if (err != 0)
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

}  // namespace

PartitionDirListing list_partition_dir(const fs::path& dir) {
  return list_partition_dir(dir, std::make_shared<const DirFd>(dir));
}

// The listing is base/dir_listing's (getdents64 on the open dir, else std::filesystem); what
// is judged here is which entries are the partition's files (the header's rules): every
// entry but a directory not named like a segment file, a live segment with its size.
PartitionDirListing list_partition_dir(const fs::path& dir, std::shared_ptr<const DirFd> handle) {
  PartitionDirListing out;
  out.dir = dir;
  const int fd = handle ? handle->fd() : -1;
  if (fd >= 0) out.handle = std::move(handle);
  out.files.reserve(8);  // a segment's four files, checkpoints, a snapshot: one allocation
  const std::error_code ec = list_directory(dir, fd, [&](const ListedEntry& e) {
    auto parsed = parse_segment_file_name(e.name);
    if (!e.is_file && e.is_dir && parsed.kind == SegmentFileKind::other) {
      out.other_entries.push_back({std::string(e.name), e.symlink});
      return;
    }
    PartitionFile f{std::string(e.name), std::move(parsed), e.is_file, e.symlink, 0, {}};
    if (is_live_segment(f.parsed)) {
      struct stat st {};
      const int err = e.stat_target(st);
      set_size(f, err, st);
    }
    out.files.push_back(std::move(f));
  });
  if (ec) throw InputError(dir.string(), "cannot list directory: " + ec.message());
  sort_listing(out);
  return out;
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
  // Names sort as offsets when they are canonical: then no sort (stable_sort allocates).
  const auto by_offset = [](const auto& a, const auto& b) { return a.base_offset < b.base_offset; };
  if (!std::is_sorted(out.begin(), out.end(), by_offset))
    std::stable_sort(out.begin(), out.end(), by_offset);
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
