#pragma once
// Reading broker files without harming them: open O_RDONLY (never create, lock or write),
// refuse anything that is not a regular file before reading (a FIFO would block), and cap
// sizes before allocating, so a huge or hostile file is a one-line error.

#include <cstdint>
#include <filesystem>
#include <span>
#include <string>

namespace kepoch {

class ReadOnlyFile {
 public:
  // Throws InputError naming the path: missing, permission denied, a directory, not a
  // regular file.
  explicit ReadOnlyFile(const std::filesystem::path& path);
  ~ReadOnlyFile();
  ReadOnlyFile(const ReadOnlyFile&) = delete;
  ReadOnlyFile& operator=(const ReadOnlyFile&) = delete;
  ReadOnlyFile(ReadOnlyFile&& other) noexcept;

  const std::string& path() const { return path_; }
  std::uint64_t size() const { return size_; }  // at open time
  // Reads up to out.size() bytes at `offset`; returns how many were read (fewer at EOF).
  // Throws InputError on a read error.
  std::size_t read_at(std::uint64_t offset, std::span<std::uint8_t> out) const;

 private:
  std::string path_;
  int fd_ = -1;
  std::uint64_t size_ = 0;
};

// Returns the whole content of a regular file of at most max_bytes bytes.
// Throws InputError naming the path for: missing, permission denied, not a regular file,
// larger than max_bytes, or a read error.
std::string read_small_file(const std::filesystem::path& path, std::uint64_t max_bytes);

}  // namespace kepoch
