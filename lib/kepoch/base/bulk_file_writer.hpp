#pragma once
// Writing a large output fast: the caller writes into a chunk of memory (room(), then
// advance() past what it wrote), and each full chunk is written by a second thread while the
// caller fills the next, so making the bytes and writing them run on two cores. Memory is
// bounded: kChunks chunks (one larger piece than a chunk grows its chunk to hold it).
//
// With Options::direct (a regular file the caller made, to be fsynced): the chunks are
// written with O_DIRECT, the disk taking the bytes from the chunk itself, with no copy into
// the page cache and nothing left to write back at the fsync (a buffered write and fsync of a
// 163 MB salvage archive cost more CPU than reading the tail it came from). The part of the
// last chunk below a 4 KiB block is written through the page cache, then finish() fsyncs:
// the file is on disk when finish() returns, as with a buffered write and an fsync. A file
// system that refuses O_DIRECT (tmpfs; the first write's EINVAL) gets every chunk through
// the page cache instead, and the same fsync.

#include <cstddef>
#include <cstdint>
#include <memory>
#include <stdexcept>
#include <string_view>

namespace kepoch {

// A write (or the fsync) failed: the errno.
class FileWriteError : public std::runtime_error {
 public:
  explicit FileWriteError(int err);
  int error() const { return error_; }

 private:
  int error_;
};

class BulkFileWriter {
 public:
  struct Options {
    bool direct = false;  // O_DIRECT where the file system takes it
    bool sync = false;    // fsync at finish()
    std::size_t chunk_bytes = 4u << 20;
  };
  static constexpr std::size_t kChunks = 3;
  static constexpr std::size_t kBlock = 4096;  // O_DIRECT's alignment of memory, offset, size

  // Writes to `fd` (not owned; left open) from its current position: for `direct`, a regular
  // file at position 0. Writes on the caller's thread when no thread can be started.
  BulkFileWriter(int fd, Options options);
  ~BulkFileWriter();  // stops the thread; what finish() did not write is dropped
  BulkFileWriter(const BulkFileWriter&) = delete;
  BulkFileWriter& operator=(const BulkFileWriter&) = delete;

  // Room for `n` bytes after what was written, valid until the next call. Throws
  // FileWriteError when an earlier chunk's write failed.
  char* room(std::size_t n);
  // The bytes from room()'s answer to `end` are the output's.
  void advance(char* end);
  void write(std::string_view text);
  // Writes the rest, waits for every write and fsyncs (Options::sync). Throws FileWriteError.
  void finish();

  std::uint64_t bytes() const;  // written so far (advanced)
  bool wrote_direct() const;    // a chunk went out with O_DIRECT (for tests)

 private:
  struct State;
  std::unique_ptr<State> s_;
};

}  // namespace kepoch
