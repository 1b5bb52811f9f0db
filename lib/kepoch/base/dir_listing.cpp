#include "kepoch/base/dir_listing.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <cerrno>

#include "kepoch/base/read_only_file.hpp"

namespace kepoch {
namespace fs = std::filesystem;

struct DirListingAccess {
  static ListedEntry& at_fd(ListedEntry& e, int dir_fd) {
    e.dir_fd_ = dir_fd;
    return e;
  }
  static ListedEntry& at_path(ListedEntry& e, const fs::path* dir) {
    e.dir_ = dir;
    return e;
  }
  // Resolves the entry's target now (a link: its type decides is_file and is_dir).
  static int resolve(ListedEntry& e) {
    struct stat st {};
    const int r = e.stat_target(st);
    (void)st;
    return r;
  }
  static const struct stat& stat_of(const ListedEntry& e) { return e.stat_; }
};

int ListedEntry::stat_target(struct stat& st) const {
  if (!stat_done_) {
    auto& self = const_cast<ListedEntry&>(*this);
    int r = dir_fd_ >= 0 ? ::fstatat(dir_fd_, name.data(), &self.stat_, 0)
                         : ::stat((*dir_ / name).c_str(), &self.stat_);
    self.stat_result_ = r == 0 ? 0 : errno;
    self.stat_done_ = true;
  }
  st = stat_;
  return stat_result_;
}

std::error_code list_directory(const fs::path& dir, int dir_fd,
                               FunctionRef<void(const ListedEntry&)> visit) {
  if (dir_fd < 0) {
    std::error_code ec;
    for (fs::directory_iterator it(dir, ec), end; !ec && it != end; it.increment(ec)) {
      std::error_code type_ec;
      const std::string name = it->path().filename().string();
      ListedEntry e;
      DirListingAccess::at_path(e, &dir);
      e.name = name;
      e.symlink = it->is_symlink(type_ec);
      e.is_file = it->is_regular_file(type_ec);  // follows a link
      e.is_dir = it->is_directory(type_ec);      // likewise
      visit(e);
    }
    return ec;
  }
  alignas(8) char buffer[32 * 1024];
  for (;;) {
    const long n = ::syscall(SYS_getdents64, dir_fd, buffer, sizeof buffer);
    if (n < 0 && errno == EINTR) continue;
    if (n < 0) return {errno, std::generic_category()};
    if (n == 0) return {};
    for (long at = 0; at < n;) {
      const auto* d = reinterpret_cast<const struct dirent64*>(buffer + at);
      at += d->d_reclen;
      const std::string_view name(d->d_name);
      if (name == "." || name == "..") continue;
      ListedEntry e;
      DirListingAccess::at_fd(e, dir_fd);
      e.name = name;
      unsigned char type = d->d_type;
      if (type == DT_UNKNOWN) {
        struct stat st {};
        if (::fstatat(dir_fd, d->d_name, &st, AT_SYMLINK_NOFOLLOW) == 0)
          type = static_cast<unsigned char>(IFTODT(st.st_mode));
      }
      e.symlink = type == DT_LNK;
      e.is_file = type == DT_REG;
      e.is_dir = type == DT_DIR;
      if (e.symlink) {
        const bool ok = DirListingAccess::resolve(e) == 0;
        const auto mode = DirListingAccess::stat_of(e).st_mode;
        e.is_file = ok && S_ISREG(mode);
        e.is_dir = ok && S_ISDIR(mode);
      }
      visit(e);
    }
  }
}

std::error_code list_directory(const fs::path& dir, FunctionRef<void(const ListedEntry&)> visit) {
  const DirFd handle(dir);
  return list_directory(dir, handle.fd(), visit);
}

}  // namespace kepoch
