#pragma once
// Walks the entries of a .log file the way Kafka's FileLogInputStream does, reading through
// a bounded window (never the whole file), read-only:
//
//   1. at most 17 bytes left                  -> stop: partial header (a torn tail)
//   2. read offset int64, size int32, magic int8
//   3. size < 14                               -> stop: CorruptRecordException (all-zero
//                                                 preallocated space ends here too)
//   4. position + 12 + size > file size        -> stop: partial batch (a torn tail)
//   5. magic < 2: legacy entry, else v2; next position += 12 + size
//
// How far the walk got and why it stopped is in end().

#include <cstdint>
#include <filesystem>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "kepoch/base/read_only_file.hpp"
#include "kepoch/format/record_batch.hpp"

namespace kepoch {

// Batches larger than this are walked over but not loaded (no CRC, no records).
inline constexpr std::uint64_t kMaxLoadedBatchBytes = 256ull << 20;

enum class LogEndReason { end_of_file, partial_header, partial_batch, corrupt_size };
std::string_view log_end_reason_name(LogEndReason reason);

struct LogEnd {
  LogEndReason reason = LogEndReason::end_of_file;
  std::uint64_t position = 0;        // where the walk stopped
  std::uint64_t trailing_bytes = 0;  // bytes from there to the end of the file
  std::string message;               // Kafka's words for corrupt_size, ours otherwise
};

class LogSegmentReader {
 public:
  struct Entry {
    BatchHeader header;
    // The whole entry (kLogOverhead + size_field bytes) when `loaded`; valid until next().
    std::span<const std::uint8_t> bytes;
    bool loaded = false;
  };

  // Throws InputError when the file cannot be opened. "-" is standard input (open_input).
  explicit LogSegmentReader(const std::filesystem::path& path, bool load_batches = true);
  explicit LogSegmentReader(ReadOnlyFile file, bool load_batches = true);
  ~LogSegmentReader();
  LogSegmentReader(const LogSegmentReader&) = delete;
  LogSegmentReader& operator=(const LogSegmentReader&) = delete;

  // The next entry, or nullptr when the walk stops (see end()). The entry is the reader's
  // own: valid until the next call.
  const Entry* next();
  // Continue the walk from `position` (e.g. an index entry's position).
  void seek(std::uint64_t position) { position_ = position; }
  // Reads the next window on a second thread while the caller works on the current one
  // (checksums, prints), so reading and working overlap on two cores: for a caller that
  // walks one file at a time (segment dump, partition verify), not one that already keeps
  // every core busy. Only when loading batches from a file of at least kReadAheadMin bytes
  // that is read by offset (not held in memory), and only if a thread can be started; the
  // entries are the same either way. Call before the first next().
  void read_ahead();
  static constexpr std::uint64_t kReadAheadMin = 1u << 20;

  const LogEnd& end() const { return end_; }
  std::uint64_t file_size() const { return file_.size(); }
  const std::string& path() const { return file_.path(); }

 private:
  // Makes [position, position + n) available in the window; returns it.
  std::span<const std::uint8_t> window(std::uint64_t position, std::size_t n);
  void refill(std::uint64_t position, std::size_t n);        // read here, into buffer_
  void refill_ahead(std::uint64_t position, std::size_t n);  // from the read ahead
  const Entry* stop(LogEndReason reason, std::string message = "");

  ReadOnlyFile file_;
  bool load_batches_;
  std::uint64_t position_ = 0;
  std::vector<std::uint8_t> buffer_;
  const std::uint8_t* data_ = nullptr;  // the window's bytes: in buffer_ or an ahead buffer
  std::uint64_t buffer_start_ = 0;
  std::size_t buffer_len_ = 0;
  std::uint64_t refills_ = 0;  // window reads so far
  Entry entry_;
  LogEnd end_;
  // read_ahead(): a ring of windows read by a second thread; holding_ is 0 while the window
  // is in one of its slots, -1 while it is in buffer_. Declared last: the thread stops
  // before the file goes.
  class ReadAhead;
  int holding_ = -1;
  std::unique_ptr<ReadAhead> ahead_;
};

}  // namespace kepoch
