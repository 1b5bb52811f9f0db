#pragma once
// Reading broker files without harming them: open O_RDONLY (never create, lock or write),
// refuse anything that is not a regular file before reading (a FIFO would block), and cap
// sizes before allocating, so a huge or hostile file is a one-line error.

#include <cstdint>
#include <filesystem>
#include <optional>
#include <span>
#include <string>
#include <string_view>

namespace kepoch {

class ReadOnlyFile {
 public:
  // Throws InputError naming the path: missing, permission denied, a directory, not a
  // regular file.
  explicit ReadOnlyFile(const std::filesystem::path& path);
  // The file `name` of the directory open as `dir_fd` (openat: no walk of the whole path),
  // named `path` in errors; the same checks. dir_fd < 0: ReadOnlyFile(path).
  ReadOnlyFile(int dir_fd, const char* name, const std::filesystem::path& path);
  // The same, the path as text (no std::filesystem::path built per file).
  ReadOnlyFile(int dir_fd, const char* name, std::string path);
  ~ReadOnlyFile();
  ReadOnlyFile(const ReadOnlyFile&) = delete;

  // What a caller's listing of the directory already showed, so that opening the file need
  // not ask the file system again (an fstat per file was a fifth of `logdir scan`'s system
  // calls). Errors are the constructor's, word for word: anything unexpected falls back to it.
  //
  // `name` was listed as a regular file, not a link (getdents' d_type): the file is opened
  // without following links and read in one pread of up to kHeldBytes; a short read of a
  // regular file is its end, so a smaller file is held in memory, its fd closed, with no
  // fstat. An empty read, a full one (a larger file), a link or a read error take the
  // constructor's checks. (Only a file swapped for a device between the listing and the
  // open could be read before its type is checked: O_NONBLOCK still keeps that from
  // blocking.)
  static ReadOnlyFile listed_regular(int dir_fd, const char* name, std::string path);
  // `name` was stat'ed, following links, as a regular file of `size` bytes: opened, with
  // that size and no second stat (a file that grew since is read to the listed size, as the
  // listing's summary says).
  static ReadOnlyFile listed_with_size(int dir_fd, const char* name, std::string path,
                                       std::uint64_t size);
  static constexpr std::size_t kHeldBytes = 16 * 1024;
  ReadOnlyFile& operator=(const ReadOnlyFile&) = delete;
  ReadOnlyFile(ReadOnlyFile&& other) noexcept;

  // Standard input ("-" on the command line), named kStdinName in errors: a file redirected
  // into it (`< FILE`) is read in place, at any size; a pipe cannot be read at an offset, so
  // it is read to its end first and held in memory, at most max_piped_bytes (more is an
  // InputError that says to redirect the file or name it). A terminal is refused.
  static ReadOnlyFile standard_input(std::uint64_t max_piped_bytes);

  const std::string& path() const { return path_; }
  std::uint64_t size() const { return size_; }  // at open time
  // The whole content when it is held in memory (a small file listed_regular read at open, a
  // pipe on standard input), for a parser that can read it in place; else empty (nullopt).
  std::optional<std::span<const std::uint8_t>> held() const;
  // Reads up to out.size() bytes at `offset`; returns how many were read (fewer at EOF).
  // Throws InputError on a read error.
  std::size_t read_at(std::uint64_t offset, std::span<std::uint8_t> out) const;
  // Where the next bytes that may be non-zero begin, at or after `offset`: a hole of a sparse
  // file reads as zeros, so a scan for non-zero bytes can skip it (lseek SEEK_DATA; a file
  // system without it, or a pipe held in memory, answers `offset`). size() when only a hole
  // is left: a preallocated multi-GB segment is not read byte by byte.
  std::uint64_t next_data(std::uint64_t offset) const;

 private:
  ReadOnlyFile() = default;
  int open_fd(int dir_fd, const char* name, int extra_flags) const;
  void check_regular();  // fstat: refuses what is not a regular file, takes its size

  std::string path_;
  int fd_ = -1;
  std::uint64_t size_ = 0;
  std::string piped_;  // standard input read from a pipe, or a small file held (fd_ is then -1)
};

// How much of a pipe on standard input a reader by offset holds (segment dump -).
inline constexpr std::uint64_t kMaxPipedFileBytes = 128ull << 20;

// ReadOnlyFile(path), or ReadOnlyFile::standard_input for "-" (a file named on the command
// line only: inside a log dir no path is "-").
ReadOnlyFile open_input(const std::filesystem::path& path,
                        std::uint64_t max_piped_bytes = kMaxPipedFileBytes);

// A directory held open, so that its files are opened relative to it (ReadOnlyFile's
// dir_fd): read-only, close-on-exec; -1 when it could not be opened.
class DirFd {
 public:
  DirFd() = default;
  explicit DirFd(const std::filesystem::path& dir);  // never throws: fd() < 0 on failure
  // The directory `name` of the directory open as `parent_fd` (openat: no walk of the
  // whole path); the same flags and the same failures.
  DirFd(int parent_fd, const char* name);
  ~DirFd();
  DirFd(const DirFd&) = delete;
  DirFd& operator=(const DirFd&) = delete;
  int fd() const { return fd_; }
  int error() const { return error_; }  // errno of the failed open

 private:
  int fd_ = -1;
  int error_ = 0;
};

// Returns the whole content of a regular file of at most max_bytes bytes.
// Throws InputError naming the path for: missing, permission denied, not a regular file,
// larger than max_bytes, or a read error.
std::string read_small_file(const std::filesystem::path& path, std::uint64_t max_bytes);
std::string read_small_file(const ReadOnlyFile& file, std::uint64_t max_bytes);
// The same content as a view: of the file's held bytes when it holds them, else of
// `storage`, which read_small_file fills.
std::string_view read_small_view(const ReadOnlyFile& file, std::uint64_t max_bytes,
                                 std::string& storage);

// What a file of this st_mode is, for messages: "a FIFO or pipe", "a character device"...
std::string file_type_text(unsigned mode);

// Why path, which is neither a regular file nor a directory, cannot be read where a file or
// dir is wanted: "no such file or directory", "a dangling symbolic link", "a character
// device, not a file or directory", "standard input cannot be read here"...
std::string not_file_or_dir_text(const std::filesystem::path& path);

// The name errors give standard input ("-" on the command line).
inline constexpr const char* kStdinName = "<stdin>";

// A file the user names directly, whole: "-" is standard input (refused when it is a
// terminal), a FIFO or pipe (a process substitution such as <(ssh b1 kepoch ...)) is read to
// its end, anything else as read_small_file. At most max_bytes either way. Only for a file
// named on the command line: in a log dir a FIFO is refused (reading it could block).
std::string read_input_file(const std::filesystem::path& path, std::uint64_t max_bytes);

// The name of path in errors: kStdinName for "-", else the path.
std::string input_name(const std::filesystem::path& path);

}  // namespace kepoch
