#include "kepoch/base/read_only_file.hpp"

#include <cerrno>
#include <cstring>
#include <fcntl.h>
#include <fmt/format.h>
#include <sys/stat.h>
#include <unistd.h>

#include "kepoch/base/error.hpp"

namespace kepoch {
namespace {

std::string errno_text(int err) {
  switch (err) {
    case ENOENT: return "no such file or directory";
    case EACCES: return "permission denied";
    case ELOOP: return "too many levels of symbolic links";
    default: return std::strerror(err);
  }
}

class Fd {
 public:
  explicit Fd(int fd) : fd_(fd) {}
  ~Fd() {
    if (fd_ >= 0) ::close(fd_);
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  int get() const { return fd_; }

 private:
  int fd_;
};

}  // namespace

std::string read_small_file(const std::filesystem::path& path, std::uint64_t max_bytes) {
  const std::string name = path.string();
  // O_NONBLOCK so that opening a FIFO or device returns at once; we reject those below.
  Fd fd(::open(name.c_str(), O_RDONLY | O_NONBLOCK | O_CLOEXEC | O_NOCTTY));
  if (fd.get() < 0) throw InputError(name, errno_text(errno));

  struct stat st {};
  if (::fstat(fd.get(), &st) != 0) throw InputError(name, errno_text(errno));
  if (S_ISDIR(st.st_mode)) throw InputError(name, "is a directory, expected a file");
  if (!S_ISREG(st.st_mode)) throw InputError(name, "not a regular file");
  const auto size = static_cast<std::uint64_t>(st.st_size);
  if (size > max_bytes) {
    throw InputError(name, fmt::format("file is {} bytes, larger than the {} bytes kepoch reads "
                                       "for this kind of file",
                                       size, max_bytes));
  }

  std::string content(size, '\0');
  std::size_t done = 0;
  while (done < content.size()) {
    const ssize_t n = ::read(fd.get(), content.data() + done, content.size() - done);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) throw InputError(name, "read failed: " + errno_text(errno), 0, done);
    if (n == 0) break;  // the file shrank while we read it: keep what is there
    done += static_cast<std::size_t>(n);
  }
  content.resize(done);
  return content;
}

}  // namespace kepoch
