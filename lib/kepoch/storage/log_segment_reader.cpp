#include "kepoch/storage/log_segment_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <condition_variable>
#include <cstring>
#include <exception>
#include <mutex>
#include <system_error>
#include <thread>
#include <utility>

namespace kepoch {
namespace {
// Loading batches: read 256 KiB at a time (or one whole larger batch), so the bytes just
// copied from the page cache are still in the core's L2 cache when the CRC reads them.
constexpr std::size_t kWindow = 256u << 10;
// A header outside the window while loading batches, after an entry larger than this: read
// this much from it. The batch read that follows refills the window from the batch's start
// when the batch does not fit, so a large batch is copied once (plus this probe), not a
// partial window and then again whole. After a smaller entry a whole window is read: small
// batches come a window at a time (a probe after each would be one pread per few batches).
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

// One read at a time on a thread of its own: start() hands it a range, wait() takes the
// result (the bytes read, or the read's error rethrown), drop() forgets it.
class LogSegmentReader::ReadAhead {
 public:
  explicit ReadAhead(const ReadOnlyFile& file) : file_(file), thread_([this] { run(); }) {}
  ~ReadAhead() {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      stop_ = true;
    }
    changed_.notify_all();
    thread_.join();
  }
  ReadAhead(const ReadAhead&) = delete;
  ReadAhead& operator=(const ReadAhead&) = delete;

  bool pending() const { return pending_; }
  std::uint64_t position() const { return position_; }
  std::size_t requested() const { return requested_; }
  void start(std::uint64_t position, std::span<std::uint8_t> into) {
    {
      std::lock_guard<std::mutex> lock(mutex_);
      job_ = into;
      job_position_ = position;
      has_job_ = true;
      done_ = false;
    }
    changed_.notify_all();
    pending_ = true;
    position_ = position;
    requested_ = into.size();
  }
  std::size_t wait() {
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [this] { return done_; });
    pending_ = false;
    if (error_) std::rethrow_exception(std::exchange(error_, nullptr));
    return result_;
  }
  void drop() {
    if (!pending_) return;
    std::unique_lock<std::mutex> lock(mutex_);
    changed_.wait(lock, [this] { return done_; });
    pending_ = false;
    error_ = nullptr;
  }

 private:
  void run() {
    std::unique_lock<std::mutex> lock(mutex_);
    for (;;) {
      changed_.wait(lock, [this] { return stop_ || has_job_; });
      if (stop_) return;
      const std::span<std::uint8_t> into = job_;
      const std::uint64_t position = job_position_;
      has_job_ = false;
      lock.unlock();
      std::size_t n = 0;
      std::exception_ptr error;
      try {
        n = file_.read_at(position, into);
      } catch (...) {
        error = std::current_exception();
      }
      lock.lock();
      result_ = n;
      error_ = error;
      done_ = true;
      changed_.notify_all();
    }
  }

  const ReadOnlyFile& file_;
  // The caller's side (one thread).
  bool pending_ = false;
  std::uint64_t position_ = 0;
  std::size_t requested_ = 0;
  // Shared, under mutex_.
  std::mutex mutex_;
  std::condition_variable changed_;
  std::span<std::uint8_t> job_;
  std::uint64_t job_position_ = 0;
  bool has_job_ = false, done_ = false, stop_ = false;
  std::size_t result_ = 0;
  std::exception_ptr error_;
  std::thread thread_;  // last: starts once the rest is ready
};

LogSegmentReader::~LogSegmentReader() {
  ahead_.reset();  // the thread stops before anything it reads into goes
  if (buffer_.capacity() <= kKeptBuffer && buffer_.capacity() > spare_buffer.capacity())
    spare_buffer.swap(buffer_);
}

void LogSegmentReader::read_ahead() {
  if (ahead_ || !load_batches_ || file_.held() || file_.size() < kReadAheadMin) return;
  try {
    for (auto& b : ahead_buffers_)
      b.reset(new std::uint8_t[2 * kWindow]);  // room for a window's end, then a window
    ahead_ = std::make_unique<ReadAhead>(file_);
  } catch (const std::system_error&) {  // no thread: read here, as without read_ahead()
  } catch (const std::bad_alloc&) {
  }
  if (!ahead_)
    for (auto& b : ahead_buffers_)
      b.reset();
}

std::span<const std::uint8_t> LogSegmentReader::window(std::uint64_t position, std::size_t n) {
  const bool inside = position >= buffer_start_ && position + n <= buffer_start_ + buffer_len_;
  if (!inside) {
    if (ahead_)
      refill_ahead(position, n);
    else
      refill(position, n);
  }
  const std::size_t from = static_cast<std::size_t>(position - buffer_start_);
  const std::size_t avail = std::min(n, buffer_len_ > from ? buffer_len_ - from : 0);
  return {data_ + from, avail};
}

void LogSegmentReader::refill(std::uint64_t position, std::size_t n) {
  const std::uint64_t left = file_.size() > position ? file_.size() - position : 0;
  // Loading batches, the rest of the file fits the window: read it all in one call (a
  // small segment is then one read, no probe).
  const std::size_t refill =
      n > kBatchHeaderSize || (load_batches_ && left <= kWindow)
          ? kWindow
          : (load_batches_ ? (last_total_ > kProbe ? kProbe : kWindow) : kHeaderWindow);
  const std::size_t want = std::max(n, refill);
  const auto len = static_cast<std::size_t>(std::min<std::uint64_t>(want, left));
  if (buffer_.size() < len) buffer_.resize(len);
  buffer_start_ = position;
  buffer_len_ = file_.read_at(position, {buffer_.data(), len});
  data_ = buffer_.data();
  holding_ = -1;
  ++refills_;
}

// The window from `position` on: the bytes the thread read after the current window, behind
// the current window's bytes from `position` (at most a window: the start of a batch cut by
// the window's end), copied in front of them. Anything else (a seek, a window of one large
// batch) is read here as refill() reads it. Then the thread reads the window after this one.
void LogSegmentReader::refill_ahead(std::uint64_t position, std::size_t n) {
  const std::uint64_t end = buffer_start_ + buffer_len_;
  const bool follows = ahead_->pending() && ahead_->position() == end &&
                       position >= buffer_start_ && position <= end && end - position <= kWindow;
  bool file_end = false;
  if (follows) {
    const std::size_t got = ahead_->wait();  // throws the read's error, as refill() would
    const int filled = holding_ == 0 ? 1 : 0;
    std::uint8_t* const read = ahead_buffers_[filled].get() + kWindow;
    const auto tail = static_cast<std::size_t>(end - position);
    std::memcpy(read - tail, data_ + (position - buffer_start_), tail);
    data_ = read - tail;
    buffer_start_ = position;
    buffer_len_ = tail + got;
    holding_ = filled;
    ++refills_;
    file_end = got < ahead_->requested();
    if (buffer_len_ < n && !file_end) {
      // A batch larger than a window: the bytes so far and the rest read here, in buffer_.
      if (buffer_.size() < n) buffer_.resize(n);
      std::memcpy(buffer_.data(), data_, buffer_len_);
      const std::size_t more =
          file_.read_at(position + buffer_len_, {buffer_.data() + buffer_len_, n - buffer_len_});
      file_end = more < n - buffer_len_;
      buffer_len_ += more;
      data_ = buffer_.data();
      holding_ = -1;
    }
  } else {
    ahead_->drop();
    refill(position, n);
    file_end = buffer_start_ + buffer_len_ >= file_.size();
  }
  const std::uint64_t next = buffer_start_ + buffer_len_;
  if (!file_end && next < file_.size())
    ahead_->start(next, {ahead_buffers_[holding_ == 0 ? 1 : 0].get() + kWindow, kWindow});
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
  last_total_ = total;
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
