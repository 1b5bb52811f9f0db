#include "kepoch/base/read_only_file.hpp"

#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>
#include <cerrno>
#include <cstring>

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

ReadOnlyFile::ReadOnlyFile(const std::filesystem::path& path) : path_(path.string()) {
  // O_NONBLOCK so that opening a FIFO or device returns at once; we reject those below.
  fd_ = ::open(path_.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY);
  if (fd_ < 0) throw InputError(path_, errno_text(errno));
  struct stat st {};
  if (::fstat(fd_, &st) != 0) {
    const int err = errno;
    ::close(fd_);
    throw InputError(path_, errno_text(err));
  }
  if (!S_ISREG(st.st_mode)) {
    ::close(fd_);
    throw InputError(
        path_, S_ISDIR(st.st_mode) ? "is a directory, expected a file" : "not a regular file");
  }
  size_ = static_cast<std::uint64_t>(st.st_size);
}

ReadOnlyFile::~ReadOnlyFile() {
  if (fd_ >= 0) ::close(fd_);
}

ReadOnlyFile::ReadOnlyFile(ReadOnlyFile&& other) noexcept
    : path_(std::move(other.path_)), fd_(other.fd_), size_(other.size_) {
  other.fd_ = -1;
}

std::size_t ReadOnlyFile::read_at(std::uint64_t offset, std::span<std::uint8_t> out) const {
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

std::string read_small_file(const std::filesystem::path& path, std::uint64_t max_bytes) {
  const ReadOnlyFile file(path);
  if (file.size() > max_bytes) {
    throw InputError(file.path(), fmt::format("file is {} bytes, larger than the {} bytes kepoch "
                                              "reads for this kind of file",
                                              file.size(), max_bytes));
  }
  std::string content(file.size(), '\0');
  const std::size_t n =
      file.read_at(0, {reinterpret_cast<std::uint8_t*>(content.data()), content.size()});
  content.resize(n);
  return content;
}

}  // namespace kepoch
