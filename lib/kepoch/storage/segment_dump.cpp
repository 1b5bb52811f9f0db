#include "kepoch/storage/segment_dump.hpp"

#include <fmt/format.h>

#include "kepoch/base/byte_reader.hpp"
#include "kepoch/format/compression.hpp"

namespace kepoch {
namespace {

void read_records(DumpedBatch& out, std::span<const std::uint8_t> entry) {
  const BatchHeader& h = out.header;
  if (!h.is_v2()) {
    out.records_error = "records of legacy (v0/v1) messages are not decoded yet";
    return;
  }
  const auto codec = compression_from_attributes(h.codec());
  if (!codec) {
    out.records_error = fmt::format("Unknown compression type id: {}", h.codec());
    return;
  }
  try {
    std::span<const std::uint8_t> section = entry.subspan(kBatchHeaderSize);
    if (*codec != CompressionType::none) {
      out.decompressed =
          decompress(*codec, section, h.position + kBatchHeaderSize, kMaxDecompressedBatchBytes);
      section = out.decompressed;
    }
    for_each_record(h, section, h.position + kBatchHeaderSize,
                    [&](const Record& r) { out.records.push_back(r); });
  } catch (const FormatError& e) {
    out.records_error = fmt::format("at byte {}: {}", e.position(), e.what());
  }
}

}  // namespace

SegmentDumpSummary dump_segment(const std::filesystem::path& path,
                                const SegmentDumpOptions& options,
                                const std::function<void(const DumpedBatch&)>& visit) {
  LogSegmentReader reader(path, /*load_batches=*/true);
  SegmentDumpSummary summary;
  while (auto entry = reader.next()) {
    if (options.from_offset && entry->header.last_offset() < *options.from_offset) continue;
    if (options.max_batches && summary.batches >= *options.max_batches) {
      summary.stopped_early = true;
      break;
    }
    DumpedBatch batch;
    batch.header = entry->header;
    if (entry->loaded) {
      batch.computed_crc = compute_batch_crc(batch.header, entry->bytes);
      batch.invalid = validate_batch(batch.header, entry->bytes);
      batch.crc_valid = batch.computed_crc == batch.header.crc;
      if (options.records) read_records(batch, entry->bytes);
    }
    ++summary.batches;
    visit(batch);
  }
  summary.end = reader.end();
  return summary;
}

}  // namespace kepoch
