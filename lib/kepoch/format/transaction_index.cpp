// Transaction index parser; the layout and Kafka's rules are in transaction_index.hpp.
#include "kepoch/format/transaction_index.hpp"

#include <fmt/format.h>

#include "kepoch/base/byte_reader.hpp"

namespace kepoch {

std::string AbortedTxnEntry::to_string() const {
  return fmt::format(
      "AbortedTxn(version={}, producerId={}, firstOffset={}, lastOffset={}, lastStableOffset={})",
      version, producer_id, first_offset, last_offset, last_stable_offset);
}

namespace {

std::optional<IndexCheckFailure> version_failure(const AbortedTxnEntry& e, std::string_view path) {
  if (e.version <= 0) return std::nullopt;  // AbortedTxn.CURRENT_VERSION = 0
  return IndexCheckFailure{
      std::string(kKafkaException),
      fmt::format("Unexpected aborted transaction version {} in transaction index {}, current "
                  "version is 0",
                  e.version, path),
      e.file_position};
}

}  // namespace

std::optional<IndexCheckFailure> TransactionIndex::read_failure(std::string_view path) const {
  for (const auto& e : entries)
    if (auto f = version_failure(e, path)) return f;
  return std::nullopt;
}

std::optional<IndexCheckFailure> TransactionIndex::sanity_check(std::string_view path) const {
  for (const auto& e : entries) {
    if (auto f = version_failure(e, path)) return f;
    if (e.last_offset < start_offset)
      return IndexCheckFailure{
          std::string(kCorruptIndexException),
          fmt::format("Last offset of aborted transaction {} in index {} is less than start "
                      "offset {}",
                      e.to_string(), path, start_offset),
          e.file_position + 18};
  }
  return std::nullopt;
}

TransactionIndex parse_transaction_index(std::span<const std::uint8_t> bytes,
                                         std::int64_t start_offset) {
  TransactionIndex idx;
  idx.start_offset = start_offset;
  idx.length = bytes.size();
  const std::size_t count = bytes.size() / TransactionIndex::kEntrySize;
  idx.trailing_bytes = bytes.size() % TransactionIndex::kEntrySize;
  idx.entries.reserve(count);

  ByteReader r(bytes.first(count * TransactionIndex::kEntrySize));
  for (std::size_t i = 0; i < count; ++i) {
    AbortedTxnEntry e;
    e.file_position = r.position();
    e.version_field = r.i16("version");
    e.version = static_cast<std::int8_t>(static_cast<std::uint16_t>(e.version_field) >> 8);
    e.producer_id = r.i64("producerId");
    e.first_offset = r.i64("firstOffset");
    e.last_offset = r.i64("lastOffset");
    e.last_stable_offset = r.i64("lastStableOffset");
    idx.entries.push_back(e);
  }

  using Sev = IndexFinding::Severity;
  for (std::size_t i = 0; i < count; ++i) {
    const auto& e = idx.entries[i];
    if (e.version > 0) {
      idx.findings.push_back(
          {Sev::error, e.file_position,
           fmt::format("entry {}: version byte {} is newer than 0: reading the index throws "
                       "KafkaException",
                       i, e.version)});
    } else if (e.version_field != 0) {
      idx.findings.push_back(
          {Sev::warning, e.file_position,
           fmt::format("entry {}: version field is {} (0x{:04x}), not 0; Kafka reads only its "
                       "first byte ({}) and accepts it",
                       i, e.version_field, static_cast<std::uint16_t>(e.version_field),
                       e.version)});
    }
    if (e.last_offset < start_offset)
      idx.findings.push_back(
          {Sev::error, e.file_position + 18,
           fmt::format("entry {}: lastOffset {} is below the segment base offset {} "
                       "(sanityCheck fails; Kafka recovers the segment)",
                       i, e.last_offset, start_offset)});
    if (e.first_offset > e.last_offset)
      idx.findings.push_back({Sev::error, e.file_position + 10,
                              fmt::format("entry {}: firstOffset {} is after lastOffset {}", i,
                                          e.first_offset, e.last_offset)});
    // Compared without computing lastOffset + 1, which overflows at Long.MAX_VALUE (fuzzing).
    if (e.last_stable_offset > e.last_offset && e.last_stable_offset - 1 > e.last_offset)
      idx.findings.push_back(
          {Sev::warning, e.file_position + 26,
           fmt::format("entry {}: lastStableOffset {} is beyond lastOffset + 1 ({} + 1)", i,
                       e.last_stable_offset, e.last_offset)});
    if (i > 0 && e.last_offset <= idx.entries[i - 1].last_offset)
      idx.findings.push_back(
          {Sev::error, e.file_position + 18,
           fmt::format("entry {}: lastOffset {} is not greater than the previous entry's {} "
                       "(TransactionIndex.append refuses that)",
                       i, e.last_offset, idx.entries[i - 1].last_offset)});
  }
  if (idx.trailing_bytes != 0) {
    idx.findings.push_back(
        {Sev::warning, count * TransactionIndex::kEntrySize,
         fmt::format("{} bytes after the last whole 34-byte entry: a partial entry, which "
                     "Kafka's reader ignores",
                     idx.trailing_bytes)});
  }
  return idx;
}

}  // namespace kepoch
