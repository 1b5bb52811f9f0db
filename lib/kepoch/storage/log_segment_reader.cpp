#include "kepoch/storage/log_segment_reader.hpp"

#include <fmt/format.h>

#include <algorithm>

namespace kepoch {
namespace {
// Loading batches: read 256 KiB at a time (or one whole larger batch), so the bytes just
// copied from the page cache are still in the core's L2 cache when the CRC reads them.
constexpr std::size_t kWindow = 256u << 10;
// A header outside the window while loading batches: read this much from it. The batch read
// that follows refills the window from the batch's start when the batch does not fit, so a
// large batch is copied once (plus this probe), not a partial window and then again whole.
constexpr std::size_t kProbe = 4u << 10;
// Headers only: read 16 KiB at a time. Small batches still come dozens per read; of a large
// batch only its first bytes are copied, the rest is skipped.
constexpr std::size_t kHeaderWindow = 16u << 10;
}  // namespace

std::string_view log_end_reason_name(LogEndReason reason) {
  switch (reason) {
    case LogEndReason::end_of_file:
      return "end-of-file";
    case LogEndReason::partial_header:
      return "partial-header";
    case LogEndReason::partial_batch:
      return "partial-batch";
    case LogEndReason::corrupt_size:
      return "corrupt-size";
  }
  return "unknown";
}

namespace {
// The window's buffer, kept per thread between readers: a walk of 10,000 small segments
// allocated and zero-filled one per segment. Only a buffer of at most two windows is kept
// (one holding a batch of hundreds of MB is freed with its reader).
constexpr std::size_t kKeptBuffer = 2 * kWindow;
thread_local std::vector<std::uint8_t> spare_buffer;

std::vector<std::uint8_t> take_spare() {
  std::vector<std::uint8_t> out;
  out.swap(spare_buffer);
  return out;
}
}  // namespace

LogSegmentReader::LogSegmentReader(const std::filesystem::path& path, bool load_batches)
    : file_(open_input(path)), load_batches_(load_batches), buffer_(take_spare()) {}

LogSegmentReader::LogSegmentReader(ReadOnlyFile file, bool load_batches)
    : file_(std::move(file)), load_batches_(load_batches), buffer_(take_spare()) {}

LogSegmentReader::~LogSegmentReader() {
  if (buffer_.capacity() <= kKeptBuffer && buffer_.capacity() > spare_buffer.capacity())
    spare_buffer.swap(buffer_);
}

std::span<const std::uint8_t> LogSegmentReader::window(std::uint64_t position, std::size_t n) {
  const bool inside = position >= buffer_start_ && position + n <= buffer_start_ + buffer_len_;
  if (!inside) {
    const std::uint64_t left = file_.size() > position ? file_.size() - position : 0;
    // Loading batches, the rest of the file fits the window: read it all in one call (a
    // small segment is then one read, no probe).
    const std::size_t refill = n > kBatchHeaderSize || (load_batches_ && left <= kWindow)
                                   ? kWindow
                                   : (load_batches_ ? kProbe : kHeaderWindow);
    const std::size_t want = std::max(n, refill);
    const auto len = static_cast<std::size_t>(std::min<std::uint64_t>(want, left));
    if (buffer_.size() < len) buffer_.resize(len);
    buffer_start_ = position;
    buffer_len_ = file_.read_at(position, {buffer_.data(), len});
    ++refills_;
  }
  const std::size_t from = static_cast<std::size_t>(position - buffer_start_);
  const std::size_t avail = std::min(n, buffer_len_ > from ? buffer_len_ - from : 0);
  return {buffer_.data() + from, avail};
}

const LogSegmentReader::Entry* LogSegmentReader::stop(LogEndReason reason, std::string message) {
  end_.reason = reason;
  end_.position = position_;
  end_.trailing_bytes = file_.size() > position_ ? file_.size() - position_ : 0;
  end_.message = std::move(message);
  return nullptr;
}

const LogSegmentReader::Entry* LogSegmentReader::next() {
  const std::uint64_t size = file_.size();
  if (position_ >= size) return stop(LogEndReason::end_of_file);
  // FileLogInputStream: fewer than HEADER_SIZE_UP_TO_MAGIC (17) bytes left is a partial tail.
  if (size - position_ <= kHeaderSizeUpToMagic) {
    return stop(
        LogEndReason::partial_header,
        fmt::format("{} bytes at the end are too few for an entry header", size - position_));
  }
  auto head = window(position_, std::min<std::uint64_t>(kBatchHeaderSize, size - position_));
  if (head.size() < kHeaderSizeUpToMagic) {
    return stop(LogEndReason::partial_header, "the file shrank while it was read");
  }
  Entry& entry = entry_;
  entry.header = read_batch_header(head, position_);
  const std::int32_t size_field = entry.header.size_field;
  if (size_field < kMinRecordOverhead) {
    return stop(LogEndReason::corrupt_size,
                fmt::format("Found record size {} smaller than minimum record overhead ({}) in "
                            "file {}.",
                            size_field, kMinRecordOverhead, file_.path()));
  }
  const std::uint64_t total = entry.header.size_in_bytes();
  // A v2 entry shorter than 61 bytes: read no header field past its own end.
  if (total < head.size()) entry.header = read_batch_header(head.first(total), position_);
  if (position_ + total > size) {
    return stop(LogEndReason::partial_batch,
                fmt::format("the entry declares {} bytes but only {} remain in the file", total,
                            size - position_));
  }
  if (load_batches_ && total <= kMaxLoadedBatchBytes) {
    const std::uint64_t refills = refills_;
    entry.bytes = window(position_, static_cast<std::size_t>(total));
    entry.loaded = entry.bytes.size() == total;
    // Read again, the header comes from the bytes the CRC covers.
    if (entry.loaded && refills_ != refills)
      entry.header = read_batch_header(entry.bytes, position_);
  } else {
    entry.bytes = head;
    entry.loaded = false;
  }
  position_ += total;
  return &entry;
}

}  // namespace kepoch
