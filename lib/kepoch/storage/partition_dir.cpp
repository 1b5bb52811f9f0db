#include "kepoch/storage/partition_dir.hpp"

#include <algorithm>
#include <system_error>

#include "kepoch/base/error.hpp"
#include "kepoch/format/leader_epoch_checkpoint.hpp"
#include "kepoch/format/partition_metadata.hpp"

namespace kepoch {
namespace fs = std::filesystem;

PartitionDirListing list_partition_dir(const fs::path& dir) {
  PartitionDirListing out;
  out.dir = dir;
  std::error_code ec;
  for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
    std::error_code type_ec;
    // File.isFile follows symbolic links; a dangling link or a directory is not a file.
    const bool is_file = it->is_regular_file(type_ec);
    std::string name = it->path().filename().string();
    out.entries.push_back({name, it->is_symlink(type_ec)});
    auto parsed = parse_segment_file_name(name);
    if (!is_file && it->is_directory(type_ec) && parsed.kind == SegmentFileKind::other) continue;
    out.files.push_back({it->path(), std::move(name), std::move(parsed), is_file});
  }
  if (ec) throw InputError(dir.string(), "cannot list directory: " + ec.message());
  std::sort(out.files.begin(), out.files.end(),
            [](const auto& a, const auto& b) { return a.name < b.name; });
  std::sort(out.entries.begin(), out.entries.end(),
            [](const auto& a, const auto& b) { return a.name < b.name; });
  return out;
}

namespace {
const PartitionDirListing::Entry* find_entry(const PartitionDirListing& listing,
                                             std::string_view name) {
  const auto it = std::lower_bound(
      listing.entries.begin(), listing.entries.end(), name,
      [](const PartitionDirListing::Entry& e, std::string_view n) { return e.name < n; });
  return it == listing.entries.end() || it->name != name ? nullptr : &*it;
}
}  // namespace

bool PartitionDirListing::listed(std::string_view name) const {
  return find_entry(*this, name) != nullptr;
}

bool PartitionDirListing::exists(std::string_view name) const {
  const Entry* it = find_entry(*this, name);
  if (it == nullptr) return false;
  if (!it->symlink) return true;
  std::error_code ec;
  return fs::exists(dir / it->name, ec);
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
    if (is_live_segment(f.parsed)) out.push_back({f.path, *f.parsed.offset});
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
