// Seeking into a segment through its offset index; see segment_seek.hpp.
#include "kepoch/storage/segment_seek.hpp"

#include <array>
#include <optional>
#include <system_error>

#include "kepoch/base/error.hpp"
#include "kepoch/base/read_only_file.hpp"
#include "kepoch/format/record_batch.hpp"
#include "kepoch/storage/log_segment_reader.hpp"

namespace kepoch {
namespace fs = std::filesystem;
namespace {

struct IndexEntry {
  std::int32_t relative_offset = 0;
  std::int32_t position = 0;
  bool zero() const { return relative_offset == 0 && position == 0; }
};

std::optional<IndexEntry> read_entry(const ReadOnlyFile& index, std::uint64_t slot) {
  std::array<std::uint8_t, 8> b{};
  if (index.read_at(slot * 8, b) != b.size()) return std::nullopt;
  auto be32 = [&](std::size_t at) {
    return static_cast<std::int32_t>((std::uint32_t{b[at]} << 24) |
                                     (std::uint32_t{b[at + 1]} << 16) |
                                     (std::uint32_t{b[at + 2]} << 8) | std::uint32_t{b[at + 3]});
  };
  return IndexEntry{be32(0), be32(4)};
}

// OffsetIndex.lookup: the largest entry whose offset is <= target, among the entries before
// the zero padding. Binary searches, as Kafka's AbstractIndex.largestLowerBoundSlotFor does.
std::optional<IndexEntry> lookup(const ReadOnlyFile& index, std::int64_t base_offset,
                                 std::int64_t target) {
  const std::uint64_t slots = index.size() / 8;
  // The entries end where the zero padding a crash leaves begins (no real entry is (0, 0):
  // its position would be 0, and the first entry's lies past index.interval.bytes).
  std::uint64_t lo = 0, hi = slots;  // the first zero entry is in [lo, hi]
  while (lo < hi) {
    const std::uint64_t mid = lo + (hi - lo) / 2;
    const auto e = read_entry(index, mid);
    if (!e) return std::nullopt;
    if (e->zero())
      hi = mid;
    else
      lo = mid + 1;
  }
  const std::uint64_t entries = lo;
  // The largest slot whose offset is <= target.
  std::uint64_t below = 0, above = entries;  // answer in [below, above) when any
  std::optional<IndexEntry> found;
  while (below < above) {
    const std::uint64_t mid = below + (above - below) / 2;
    const auto e = read_entry(index, mid);
    if (!e) return std::nullopt;
    if (base_offset + e->relative_offset <= target) {
      found = e;
      below = mid + 1;
    } else {
      above = mid;
    }
  }
  return found;
}

// Whether the .log holds at `position` a whole batch that passes its CRC, of the segment,
// ending at or below `entry_offset` (see the header).
bool batch_fits_entry(const fs::path& log_file, std::uint64_t position, std::int64_t base_offset,
                      std::int64_t entry_offset) {
  LogSegmentReader reader(log_file, /*load_batches=*/true);
  if (position >= reader.file_size()) return false;
  reader.seek(position);
  const auto* e = reader.next();
  if (!e || !e->loaded) return false;
  const BatchHeader& h = e->header;
  if (validate_batch(h, e->bytes)) return false;
  return h.base_offset >= base_offset && h.last_offset() <= entry_offset;
}

}  // namespace

fs::path offset_index_path(const fs::path& log_file) {
  fs::path index = log_file;
  index.replace_extension(".index");
  return index;
}

std::uint64_t seek_position(const fs::path& log_file, std::int64_t base_offset,
                            std::int64_t target) {
  try {
    const fs::path index_file = offset_index_path(log_file);
    std::error_code ec;
    if (!fs::is_regular_file(index_file, ec)) return 0;
    const ReadOnlyFile index(index_file);
    const auto entry = lookup(index, base_offset, target);
    if (!entry || entry->position <= 0) return 0;
    const auto position = static_cast<std::uint64_t>(entry->position);
    const std::int64_t entry_offset = base_offset + entry->relative_offset;
    return batch_fits_entry(log_file, position, base_offset, entry_offset) ? position : 0;
  } catch (const InputError&) {
    return 0;  // an index or log that cannot be read here is read from its start
  }
}

}  // namespace kepoch
