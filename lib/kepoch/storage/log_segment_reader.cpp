#include "kepoch/storage/log_segment_reader.hpp"

#include <fmt/format.h>

#include <algorithm>
#include <atomic>
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
// Read ahead (on a second thread): 512 KiB windows in a ring of 4, so a GB is handed over
// about 2,000 times and the reader sleeps (ring full) at most every other window. Larger
// windows (1 MiB) cost the checking thread more (the bytes it reads are further from its
// cache) for fewer hand-overs; smaller ones (256 KiB) double the hand-overs for little.
constexpr std::size_t kAheadWindow = 512u << 10;
constexpr std::uint32_t kAheadSlots = 4;
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

// The read-ahead ring: a thread of its own reads the file from a start position on, window
// after window, into kAheadSlots slots, while the caller works on the slots already read.
// Handing a window over costs no system call while neither side waits (two counters, no
// lock), and a side that does wait is woken rarely: the reader, finding the ring full, sleeps
// until half of it is free again, so on a quiet machine (where an idle core is parked and
// takes long to wake) the wake-ups are few and hidden behind the windows still to be worked
// on. One window handed over per 256 KiB, with a lock and a condition variable each way, cost
// more than the overlap saved (8,000 context switches and 25,000 futex calls per GB).
class LogSegmentReader::ReadAhead {
 public:
  // Each slot: room for the start of a batch cut by the previous window's end (copied in
  // front by the caller), then the window the thread reads.
  static constexpr std::size_t kTailRoom = kAheadWindow;
  static constexpr std::size_t kSlotBytes = kTailRoom + kAheadWindow;

  explicit ReadAhead(const ReadOnlyFile& file)
      : file_(file),
        slots_(new std::uint8_t[kAheadSlots * kSlotBytes]),
        thread_([this] { run(); }) {}
  ~ReadAhead() {
    halt();
    {
      std::lock_guard<std::mutex> lock(mutex_);
      quit_ = true;
    }
    control_.notify_all();
    thread_.join();
  }
  ReadAhead(const ReadAhead&) = delete;
  ReadAhead& operator=(const ReadAhead&) = delete;

  bool streaming() const { return streaming_; }
  // Where the next slot taken starts, while streaming.
  std::uint64_t next_position() const { return next_position_; }

  // Stop the stream (if any) and read from `position` on.
  void restart(std::uint64_t position) {
    halt();
    produced_.store(0, std::memory_order_relaxed);
    consumed_.store(0, std::memory_order_relaxed);
    stop_.store(0, std::memory_order_relaxed);
    taken_ = 0;
    held_ = 0;
    next_position_ = position;
    {
      std::lock_guard<std::mutex> lock(mutex_);
      start_ = position;
      idle_ = false;
      go_ = true;
    }
    control_.notify_all();
    streaming_ = true;
  }

  // The next slot of the stream (waits for the thread): its window's bytes, behind
  // kTailRoom bytes the caller may fill. Rethrows the read's error. The caller holds the
  // slot until release(); it may take the next one before (at most two held: the window
  // being left and the one after it, into which the former's cut batch is copied).
  struct Slot {
    std::uint8_t* base;  // kTailRoom bytes, then the window
    std::size_t got;
  };
  Slot take() {
    const std::uint32_t j = taken_;
    for (std::uint32_t p; (p = produced_.load(std::memory_order_acquire)) == j;)
      produced_.wait(p, std::memory_order_acquire);
    SlotState& st = state_[j % kAheadSlots];
    ++taken_;
    ++held_;
    if (st.last) streaming_ = false;
    if (st.error) {
      while (held_ > 0)
        release();
      std::rethrow_exception(std::exchange(st.error, nullptr));
    }
    next_position_ += st.got;
    return {slots_.get() + static_cast<std::size_t>(j % kAheadSlots) * kSlotBytes, st.got};
  }
  // Give back the oldest slot held (its bytes are no longer looked at).
  void release() {
    if (held_ == 0) return;
    --held_;
    const std::uint32_t c = consumed_.load(std::memory_order_relaxed) + 1;
    consumed_.store(c, std::memory_order_release);
    // The thread, finding the ring full, sleeps until half of it is free.
    if (produced_.load(std::memory_order_acquire) - c == kAheadSlots / 2) consumed_.notify_one();
  }

 private:
  struct SlotState {
    std::size_t got = 0;
    bool last = false;
    std::exception_ptr error;
  };

  // Stop the thread's stream and wait until it is idle (it finishes the read under way).
  void halt() {
    held_ = 0;
    streaming_ = false;
    stop_.store(1, std::memory_order_release);
    // A changed value wakes a thread waiting for room (a notify alone does not).
    consumed_.fetch_add(kAheadSlots, std::memory_order_release);
    consumed_.notify_all();
    std::unique_lock<std::mutex> lock(mutex_);
    control_.wait(lock, [this] { return idle_; });
  }

  void run() {
    for (;;) {
      std::uint64_t position = 0;
      {
        std::unique_lock<std::mutex> lock(mutex_);
        control_.wait(lock, [this] { return quit_ || go_; });
        if (quit_) return;
        go_ = false;
        position = start_;
      }
      for (std::uint32_t k = 0; stop_.load(std::memory_order_acquire) == 0; ++k) {
        // A full ring: sleep until half of it is free (or the stream is stopped).
        if (k - consumed_.load(std::memory_order_acquire) >= kAheadSlots) {
          for (std::uint32_t c;
               (c = consumed_.load(std::memory_order_acquire)),
               k - c > kAheadSlots / 2 && stop_.load(std::memory_order_acquire) == 0;)
            consumed_.wait(c, std::memory_order_acquire);
          if (stop_.load(std::memory_order_acquire) != 0) break;
        }
        SlotState& st = state_[k % kAheadSlots];
        std::uint8_t* const into =
            slots_.get() + static_cast<std::size_t>(k % kAheadSlots) * kSlotBytes + kTailRoom;
        st.error = nullptr;
        st.got = 0;
        try {
          st.got = file_.read_at(position, {into, kAheadWindow});
        } catch (...) {
          st.error = std::current_exception();
        }
        position += st.got;
        st.last = st.error || st.got < kAheadWindow || position >= file_.size();
        produced_.store(k + 1, std::memory_order_release);
        produced_.notify_one();
        if (st.last) break;
      }
      {
        std::lock_guard<std::mutex> lock(mutex_);
        idle_ = true;
      }
      control_.notify_all();
    }
  }

  const ReadOnlyFile& file_;
  std::unique_ptr<std::uint8_t[]> slots_;
  SlotState state_[kAheadSlots];
  // The data path: slots read and slots given back since the stream started (wrapping
  // counters; their difference is at most kAheadSlots), and a request to stop.
  std::atomic<std::uint32_t> produced_{0}, consumed_{0}, stop_{0};
  // The caller's side (one thread).
  std::uint32_t taken_ = 0, held_ = 0;
  bool streaming_ = false;
  std::uint64_t next_position_ = 0;
  // Starting and stopping streams, under mutex_.
  std::mutex mutex_;
  std::condition_variable control_;
  std::uint64_t start_ = 0;
  bool go_ = false, idle_ = true, quit_ = false;
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
    ahead_ = std::make_unique<ReadAhead>(file_);
  } catch (const std::system_error&) {  // no thread: read here, as without read_ahead()
  } catch (const std::bad_alloc&) {
  }
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

// The window from `position` on when it continues the stream: the start of a batch cut by
// the current window's end (`position` to the end) copied in front of the next slot's bytes,
// and when one slot does not hold the `n` bytes (a batch larger than a window, or a cut part
// larger than the room in front), the slots that follow gathered into buffer_. Anything else
// (a seek) restarts the stream at `position`.
void LogSegmentReader::refill_ahead(std::uint64_t position, std::size_t n) {
  const bool follows = ahead_->streaming() &&
                       ahead_->next_position() == buffer_start_ + buffer_len_ &&
                       position >= buffer_start_ && position <= buffer_start_ + buffer_len_;
  if (!follows) {
    if (position >= file_.size()) {  // nothing to read: as refill() finds it
      refill(position, n);
      return;
    }
    ahead_->restart(position);
    buffer_start_ = position;
    buffer_len_ = 0;
    data_ = buffer_.data();
    holding_ = -1;
  }
  const auto tail = static_cast<std::size_t>(buffer_start_ + buffer_len_ - position);
  const std::uint8_t* const tail_from = data_ + (position - buffer_start_);
  if (tail <= ReadAhead::kTailRoom) {
    const ReadAhead::Slot slot = ahead_->take();
    std::uint8_t* const window_start = slot.base + ReadAhead::kTailRoom;
    // No tail (a stream just started) may come from an empty buffer's null data().
    if (tail > 0) std::memcpy(window_start - tail, tail_from, tail);
    if (holding_ == 0) ahead_->release();  // the slot the tail came from
    data_ = window_start - tail;
    buffer_len_ = tail + slot.got;
    holding_ = 0;
  } else {
    // A cut batch larger than the room in front of a slot: it and the slots after it are
    // gathered in buffer_.
    if (holding_ == -1) {
      std::memmove(buffer_.data(), tail_from, tail);
    } else {
      if (buffer_.size() < tail) buffer_.resize(tail);
      std::memcpy(buffer_.data(), tail_from, tail);
      ahead_->release();
    }
    data_ = buffer_.data();
    buffer_len_ = tail;
    holding_ = -1;
  }
  buffer_start_ = position;
  ++refills_;
  while (buffer_len_ < n && ahead_->streaming()) {
    // A batch larger than what is held: the bytes so far and the next slots, in buffer_.
    if (holding_ == 0) {
      if (buffer_.size() < buffer_len_) buffer_.resize(buffer_len_);
      std::memcpy(buffer_.data(), data_, buffer_len_);
      ahead_->release();
      holding_ = -1;
    }
    const ReadAhead::Slot slot = ahead_->take();
    if (buffer_.size() < buffer_len_ + slot.got) buffer_.resize(buffer_len_ + slot.got);
    std::memcpy(buffer_.data() + buffer_len_, slot.base + ReadAhead::kTailRoom, slot.got);
    ahead_->release();
    buffer_len_ += slot.got;
    data_ = buffer_.data();
  }
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
