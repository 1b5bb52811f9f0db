#include "kepoch/cluster/fetched_batches.hpp"

#include <fmt/format.h>

#include "kepoch/base/byte_reader.hpp"

namespace kepoch::cluster {

FetchedBatches read_fetched_batches(std::span<const std::uint8_t> records) {
  FetchedBatches out;
  std::size_t pos = 0;
  while (pos < records.size()) {
    const auto rest = records.subspan(pos);
    out.stop_offset = rest.size() >= 8 ? static_cast<std::int64_t>(load_be64(rest.data())) : -1;
    // Fewer bytes than reach the magic byte: the consumer's nextBatch returns null.
    if (rest.size() < kHeaderSizeUpToMagic) {
      out.stop = FetchedBatches::Stop::kPartial;
      return out;
    }
    const BatchHeader peek = read_batch_header(rest, pos);
    if (peek.size_field < kMinRecordOverhead) {
      out.stop = FetchedBatches::Stop::kCorrupt;
      out.damage = fmt::format("Record size {} is less than the minimum record overhead ({})",
                               peek.size_field, kMinRecordOverhead);
      return out;
    }
    if (peek.size_in_bytes() > rest.size()) {
      out.stop = FetchedBatches::Stop::kPartial;
      return out;
    }
    if (!peek.is_v2()) {
      out.stop = FetchedBatches::Stop::kLegacy;
      out.stop_magic = peek.magic;
      return out;
    }
    const auto entry = rest.first(static_cast<std::size_t>(peek.size_in_bytes()));
    // The header again over the entry alone, so a batch shorter than 61 bytes reads only
    // what it holds (and validate_batch names it).
    const BatchHeader header = read_batch_header(entry, pos);
    if (auto damage = validate_batch(header, entry)) {
      out.stop = FetchedBatches::Stop::kCorrupt;
      out.damage = std::move(*damage);
      return out;
    }
    out.batches.push_back(header);
    pos += entry.size();
  }
  out.stop_offset = -1;
  return out;
}

}  // namespace kepoch::cluster
