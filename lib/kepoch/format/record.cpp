#include "kepoch/format/record.hpp"

#include <fmt/format.h>

#include <limits>

#include "kepoch/base/byte_reader.hpp"

namespace kepoch {
namespace {

// DefaultRecordBatch.incrementSequence: wraps at Integer.MAX_VALUE.
// Java's int arithmetic wraps; a negative offsetDelta (fuzzing found one) must not overflow here.
std::int32_t sequence_of(std::int32_t base, std::int32_t delta) {
  if (base < 0) return -1;
  constexpr std::int32_t kMax = std::numeric_limits<std::int32_t>::max();
  auto wrap = [](std::int64_t v) {
    return static_cast<std::int32_t>(static_cast<std::uint32_t>(v));
  };
  if (base > wrap(std::int64_t{kMax} - delta)) return wrap(std::int64_t{delta} - (kMax - base) - 1);
  return wrap(std::int64_t{base} + delta);
}

std::optional<std::span<const std::uint8_t>> nullable_bytes(ByteReader& r, std::string_view field) {
  const std::int32_t len = r.varint(field);
  if (len < 0) return std::nullopt;
  return r.bytes(static_cast<std::size_t>(len), field);
}

// The headers after a record's value (their count, then each key and value), into `out`.
void read_headers(ByteReader& r, std::vector<RecordHeader>& out) {
  out.clear();
  const std::int32_t header_count = r.varint("headersCount");
  if (header_count < 0)
    r.fail(fmt::format("Found invalid number of record headers {}", header_count));
  if (static_cast<std::size_t>(header_count) > r.remaining()) {
    r.fail(fmt::format("Found invalid number of record headers {}: more than the {} bytes left",
                       header_count, r.remaining()));
  }
  for (std::int32_t i = 0; i < header_count; ++i) {
    const std::int32_t key_len = r.varint("header key length");
    if (key_len < 0) r.fail(fmt::format("Invalid negative header key size {}", key_len));
    const auto key = r.bytes(static_cast<std::size_t>(key_len), "header key");
    RecordHeader h;
    h.key = {reinterpret_cast<const char*>(key.data()), key.size()};
    h.value = nullable_bytes(r, "header value");
    out.push_back(h);
  }
}

// Reads one record into `rec` (DefaultRecord.readFrom).
void read_record(const BatchHeader& batch, ByteReader& in, Record& rec) {
  const std::uint64_t start = in.position();
  const std::size_t start_offset = in.offset();
  const std::int32_t length = in.varint("record length");
  const std::size_t length_size = in.offset() - start_offset;
  if (length < 0 || static_cast<std::size_t>(length) > in.remaining()) {
    in.fail(fmt::format("Invalid record size: the record at byte {} declares {} bytes, {} remain",
                        start, length, in.remaining()));
  }
  ByteReader r = in.sub(static_cast<std::size_t>(length), "record");
  rec.size_in_bytes = length + static_cast<std::int32_t>(length_size);
  r.i8("record attributes");
  const std::int64_t timestamp_delta = r.varlong("timestampDelta");
  const std::int32_t offset_delta = r.varint("offsetDelta");
  rec.offset = wrapping_add(batch.base_offset, offset_delta);
  rec.timestamp = batch.log_append_time() ? batch.max_timestamp
                                          : wrapping_add(batch.base_timestamp, timestamp_delta);
  rec.sequence = sequence_of(batch.base_sequence, offset_delta);
  rec.key = nullable_bytes(r, "key");
  rec.value = nullable_bytes(r, "value");
  read_headers(r, rec.headers);
  if (!r.at_end()) {
    // Reported at the record's first byte, where its length was declared.
    throw FormatError(start, fmt::format("Invalid record size: expected to read {} bytes in "
                                         "record payload, but instead read {}",
                                         length, r.offset()));
  }
}

}  // namespace

RecordReader::RecordReader(const BatchHeader& batch, std::span<const std::uint8_t> section,
                           std::uint64_t position)
    : batch_(batch), in_(section, position) {
  if (batch.records_count < 0) {
    in_.fail(fmt::format("Found invalid record count {} in magic v2 batch", batch.records_count));
  }
}

bool RecordReader::next(Record& record) {
  if (read_ == batch_.records_count) {
    if (!in_.at_end()) in_.fail("Incorrect declared batch size, records still remaining in file");
    return false;
  }
  if (in_.at_end()) in_.fail("Incorrect declared batch size, premature EOF reached");
  read_record(batch_, in_, record);
  ++read_;
  return true;
}

void for_each_record(const BatchHeader& batch, std::span<const std::uint8_t> section,
                     std::uint64_t position, const std::function<void(const Record&)>& visit) {
  RecordReader reader(batch, section, position);
  Record record;
  while (reader.next(record))
    visit(record);
}

}  // namespace kepoch
