#include "kepoch/base/read_only_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <poll.h>
#include <sys/stat.h>
#include <unistd.h>
#include <algorithm>
#include <cerrno>
#include <cstring>
#include <string_view>
#include <vector>

#include "kepoch/base/error.hpp"

namespace kepoch {
namespace {

std::string errno_text(int err) {
  switch (err) {
    case ENOENT:
      return "no such file or directory";
    case EACCES:
      return "permission denied";
    case ELOOP:
      return "too many levels of symbolic links";
    default:
      return std::strerror(err);
  }
}

}  // namespace

std::string file_type_text(unsigned mode) {
  if (S_ISFIFO(mode)) return "a FIFO or pipe";
  if (S_ISCHR(mode)) return "a character device";
  if (S_ISBLK(mode)) return "a block device";
  if (S_ISSOCK(mode)) return "a socket";
  if (S_ISDIR(mode)) return "a directory";
  if (S_ISLNK(mode)) return "a symbolic link";
  return S_ISREG(mode) ? "a regular file" : "a special file";
}

ReadOnlyFile::ReadOnlyFile(const std::filesystem::path& path) : ReadOnlyFile(-1, nullptr, path) {}

ReadOnlyFile::ReadOnlyFile(int dir_fd, const char* name, const std::filesystem::path& path)
    : ReadOnlyFile(dir_fd, name, path.string()) {}

// O_NONBLOCK so that opening a FIFO or device returns at once; check_regular refuses those.
int ReadOnlyFile::open_fd(int dir_fd, const char* name, int extra_flags) const {
  const int flags = O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY | extra_flags;
  return dir_fd >= 0 && name != nullptr ? ::openat(dir_fd, name, flags)
                                        : ::open(path_.c_str(), flags);
}

void ReadOnlyFile::check_regular() {
  struct stat st {};
  if (::fstat(fd_, &st) != 0) {
    const int err = errno;
    ::close(fd_);
    fd_ = -1;
    throw InputError(path_, errno_text(err));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd_);
    fd_ = -1;
    throw InputError(path_, S_ISDIR(st.st_mode)
                                ? std::string("is a directory, expected a file")
                                : "not a regular file (" + file_type_text(st.st_mode) + ")");
  }
  size_ = static_cast<std::uint64_t>(st.st_size);
}

ReadOnlyFile::ReadOnlyFile(int dir_fd, const char* name, std::string path)
    : path_(std::move(path)) {
  fd_ = open_fd(dir_fd, name, 0);
  if (fd_ < 0) throw InputError(path_, errno_text(errno));
  check_regular();
}

ReadOnlyFile ReadOnlyFile::listed_regular(int dir_fd, const char* name, std::string path) {
  ReadOnlyFile file;
  file.path_ = std::move(path);
  file.fd_ = file.open_fd(dir_fd, name, O_NOFOLLOW);
  if (file.fd_ < 0) return ReadOnlyFile(dir_fd, name, std::move(file.path_));  // its errors
  thread_local std::vector<std::uint8_t> buffer(kHeldBytes);
  ssize_t n;
  do {
    n = ::pread(file.fd_, buffer.data(), buffer.size(), 0);
  } while (n < 0 && errno == EINTR);
  if (n > 0 && static_cast<std::size_t>(n) < buffer.size()) {
    file.piped_.assign(reinterpret_cast<const char*>(buffer.data()), static_cast<std::size_t>(n));
    file.size_ = file.piped_.size();
    ::close(file.fd_);
    file.fd_ = -1;
    return file;
  }
  file.check_regular();  // empty, larger, or not a file it could read: the usual checks
  return file;
}

ReadOnlyFile ReadOnlyFile::listed_with_size(int dir_fd, const char* name, std::string path,
                                            std::uint64_t size) {
  ReadOnlyFile file;
  file.path_ = std::move(path);
  file.fd_ = file.open_fd(dir_fd, name, 0);
  if (file.fd_ < 0) throw InputError(file.path_, errno_text(errno));
  file.size_ = size;
  return file;
}

ReadOnlyFile::~ReadOnlyFile() {
  if (fd_ >= 0) ::close(fd_);
}

ReadOnlyFile::ReadOnlyFile(ReadOnlyFile&& other) noexcept
    : path_(std::move(other.path_)),
      fd_(other.fd_),
      size_(other.size_),
      piped_(std::move(other.piped_)) {
  other.fd_ = -1;
}

std::size_t ReadOnlyFile::read_at(std::uint64_t offset, std::span<std::uint8_t> out) const {
  if (fd_ < 0) {  // a pipe, held
    if (offset >= piped_.size()) return 0;
    const std::size_t n = std::min<std::size_t>(out.size(), piped_.size() - offset);
    std::memcpy(out.data(), piped_.data() + offset, n);
    return n;
  }
  std::size_t done = 0;
  while (done < out.size()) {
    const ssize_t n =
        ::pread(fd_, out.data() + done, out.size() - done, static_cast<off_t>(offset + done));
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw InputError(path_, "read failed: " + errno_text(errno), 0, offset + done);
    if (n == 0) break;  // EOF (the file may have shrunk since it was opened)
    done += static_cast<std::size_t>(n);
  }
  return done;
}

std::uint64_t ReadOnlyFile::next_data(std::uint64_t offset) const {
  if (fd_ < 0 || offset >= size_) return offset;
  const off_t data = ::lseek(fd_, static_cast<off_t>(offset), SEEK_DATA);
  if (data >= 0) return static_cast<std::uint64_t>(data);
  return errno == ENXIO ? size_ : offset;  // ENXIO: no data after offset, only a hole
}

namespace {

// Reads fd to its end, at most max_bytes; name is for errors, too_big what more is.
std::string read_stream(int fd, const std::string& name, std::uint64_t max_bytes,
                        std::string_view too_big = "") {
  std::string content;
  std::vector<char> chunk(64 * 1024);
  for (;;) {
    const ssize_t n = ::read(fd, chunk.data(), chunk.size());
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw InputError(name, "read failed: " + errno_text(errno), 0, content.size());
    if (n == 0) return content;
    if (content.size() + static_cast<std::size_t>(n) > max_bytes) {
      if (!too_big.empty()) throw InputError(name, std::string(too_big));
      throw InputError(name, fmt::format("more than the {} bytes kepoch reads for this kind of "
                                         "file",
                                         max_bytes));
    }
    content.append(chunk.data(), static_cast<std::size_t>(n));
  }
}

}  // namespace

ReadOnlyFile ReadOnlyFile::standard_input(std::uint64_t max_piped_bytes) {
  ReadOnlyFile file;
  file.path_ = kStdinName;
  if (::isatty(STDIN_FILENO) == 1)
    throw InputError(kStdinName, "standard input is a terminal; pipe or redirect a file into it");
  struct stat st {};
  if (::fstat(STDIN_FILENO, &st) != 0) throw InputError(kStdinName, errno_text(errno));
  if (S_ISDIR(st.st_mode)) throw InputError(kStdinName, "is a directory, expected a file");
  if (S_ISREG(st.st_mode)) {  // `< FILE`: read by offset like any file
    file.fd_ = ::fcntl(STDIN_FILENO, F_DUPFD_CLOEXEC, 0);
    if (file.fd_ < 0) throw InputError(kStdinName, errno_text(errno));
    file.size_ = static_cast<std::uint64_t>(st.st_size);
    return file;
  }
  file.piped_ = read_stream(
      STDIN_FILENO, kStdinName, max_piped_bytes,
      fmt::format("a pipe of more than {} bytes: a pipe cannot be read by offset, so kepoch holds "
                  "it in memory up to that size; redirect the file (< FILE) or name it instead",
                  max_piped_bytes));
  file.size_ = file.piped_.size();
  return file;
}

ReadOnlyFile open_input(const std::filesystem::path& path, std::uint64_t max_piped_bytes) {
  return path == "-" ? ReadOnlyFile::standard_input(max_piped_bytes) : ReadOnlyFile(path);
}

std::string not_file_or_dir_text(const std::filesystem::path& path) {
  if (path == "-") return "standard input cannot be read here (give a file or directory)";
  struct stat st {};
  if (::stat(path.c_str(), &st) != 0) {
    const int err = errno;
    struct stat link {};
    if (err == ENOENT && ::lstat(path.c_str(), &link) == 0 && S_ISLNK(link.st_mode))
      return "a dangling symbolic link";
    return errno_text(err);
  }
  if (S_ISFIFO(st.st_mode))
    return "a FIFO or pipe, not a file or directory (this command reads files by offset: save "
           "the stream to a file first)";
  return file_type_text(st.st_mode) + ", not a file or directory";
}

std::string input_name(const std::filesystem::path& path) {
  return path == "-" ? std::string(kStdinName) : path.string();
}

std::string read_input_file(const std::filesystem::path& path, std::uint64_t max_bytes) {
  if (path == "-") {
    if (::isatty(STDIN_FILENO) == 1)
      throw InputError(kStdinName, "standard input is a terminal; pipe or redirect a file into it");
    struct stat st {};
    if (::fstat(STDIN_FILENO, &st) == 0 && S_ISDIR(st.st_mode))
      throw InputError(kStdinName, "is a directory, expected a file");
    return read_stream(STDIN_FILENO, kStdinName, max_bytes);
  }
  const std::string name = path.string();
  const int fd = ::open(name.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd < 0) throw InputError(name, errno_text(errno));
  struct stat st {};
  const bool fifo = ::fstat(fd, &st) == 0 && S_ISFIFO(st.st_mode);
  if (!fifo) {
    ::close(fd);
    return read_small_file(path, max_bytes);  // says what else it is
  }
  // A FIFO with no writer yet reads as empty rather than blocking: a named FIFO whose
  // writer starts late would be read as an empty (truncated) input. poll(2) waits for the
  // writer's first bytes, or for a writer that came and went without any (POLLHUP): as `-`
  // and a process substitution wait, and as `cat FIFO` does. Then reads block as usual.
  for (;;) {
    pollfd p{fd, POLLIN, 0};
    const int n = ::poll(&p, 1, -1);
    if (n > 0 || (n < 0 && errno != EINTR)) break;
  }
  ::fcntl(fd, F_SETFL, ::fcntl(fd, F_GETFL) & ~O_NONBLOCK);
  try {
    std::string content = read_stream(fd, name, max_bytes);
    ::close(fd);
    return content;
  } catch (...) {
    ::close(fd);
    throw;
  }
}

DirFd::DirFd(const std::filesystem::path& dir) {
  fd_ = ::open(dir.c_str(), O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd_ < 0) error_ = errno;
}

DirFd::DirFd(int parent_fd, const char* name) {
  fd_ = ::openat(parent_fd, name, O_RDONLY | O_DIRECTORY | O_CLOEXEC);
  if (fd_ < 0) error_ = errno;
}

DirFd::~DirFd() {
  if (fd_ >= 0) ::close(fd_);
}

std::string read_small_file(const std::filesystem::path& path, std::uint64_t max_bytes) {
  return read_small_file(ReadOnlyFile(path), max_bytes);
}

std::optional<std::span<const std::uint8_t>> ReadOnlyFile::held() const {
  if (fd_ >= 0) return std::nullopt;
  return std::span<const std::uint8_t>(reinterpret_cast<const std::uint8_t*>(piped_.data()),
                                       piped_.size());
}

namespace {
void check_small(const ReadOnlyFile& file, std::uint64_t max_bytes) {
  if (file.size() > max_bytes) {
    throw InputError(file.path(), fmt::format("file is {} bytes, larger than the {} bytes kepoch "
                                              "reads for this kind of file",
                                              file.size(), max_bytes));
  }
}
}  // namespace

std::string_view read_small_view(const ReadOnlyFile& file, std::uint64_t max_bytes,
                                 std::string& storage) {
  if (const auto held = file.held()) {
    check_small(file, max_bytes);
    return {reinterpret_cast<const char*>(held->data()), held->size()};
  }
  storage = read_small_file(file, max_bytes);
  return storage;
}

std::string read_small_file(const ReadOnlyFile& file, std::uint64_t max_bytes) {
  check_small(file, max_bytes);
  std::string content(file.size(), '\0');
  const std::size_t n =
      file.read_at(0, {reinterpret_cast<std::uint8_t*>(content.data()), content.size()});
  content.resize(n);
  return content;
}

}  // namespace kepoch
