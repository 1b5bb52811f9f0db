#pragma once
// Listing a directory: the platform's part of every walk, so that the modules holding Kafka's
// rules (storage/log_dir, storage/partition_dir, storage/checkpoint_files) only judge the
// entries they are shown. One listing, two ways:
//   - the dir open (a DirFd): getdents64, each entry's type from its d_type, a stat only
//     where the file system leaves the type unknown (lstat), for a symbolic link (whose
//     target decides what it is, as java.io.File.isFile / isDirectory follow it), and for
//     the entries whose size the caller asks (ListedEntry::stat_target); a walk of 10,000
//     partition dirs is 2 getdents64 calls per dir and one stat per segment;
//   - a dir that did not open: std::filesystem::directory_iterator, which fails as the open
//     did, so the error names the same cause.
// Read-only: the dir is opened O_RDONLY | O_DIRECTORY; nothing is created or changed.

#include <sys/stat.h>

#include <filesystem>
#include <memory>
#include <string_view>
#include <system_error>
#include <type_traits>
#include <utility>

namespace kepoch {

// A callable passed down without a copy or an allocation (std::function may allocate for a
// lambda capturing more than two pointers; a listing per partition dir would pay it).
template <class Signature>
class FunctionRef;
template <class R, class... Args>
class FunctionRef<R(Args...)> {
 public:
  template <class F, class = std::enable_if_t<!std::is_same_v<std::decay_t<F>, FunctionRef>>>
  FunctionRef(F&& f)  // NOLINT: implicit, as a callable argument
      : object_(const_cast<void*>(static_cast<const void*>(std::addressof(f)))),
        call_([](void* o, Args... args) -> R {
          return (*static_cast<std::remove_reference_t<F>*>(o))(std::forward<Args>(args)...);
        }) {}
  R operator()(Args... args) const { return call_(object_, std::forward<Args>(args)...); }

 private:
  void* object_;
  R (*call_)(void*, Args...);
};

// One entry of a directory as the listing shows it ("." and ".." never are).
class ListedEntry {
 public:
  std::string_view name;  // NUL-terminated (name.data() is a C string); valid during the visit
  bool symlink = false;   // the entry itself is a symbolic link
  bool is_file = false;   // a regular file, a link followed (File.isFile)
  bool is_dir = false;    // a directory, a link followed (File.isDirectory)

  // stat(2) of what the entry names, a link followed: 0, or the errno. A link's was made
  // while listing (it decided is_file and is_dir) and is not made again.
  int stat_target(struct stat& st) const;

 private:
  friend struct DirListingAccess;
  int dir_fd_ = -1;                             // getdents64 listing: stat relative to it
  const std::filesystem::path* dir_ = nullptr;  // else the dir's path
  bool stat_done_ = false;
  int stat_result_ = 0;
  struct stat stat_ {};
};

// Calls visit(entry) for each entry of `dir`, in the order the file system gives them,
// through `dir_fd` (the dir open) when it is >= 0, else through std::filesystem. Returns the
// error that stopped the listing (none: the whole dir was visited).
std::error_code list_directory(const std::filesystem::path& dir, int dir_fd,
                               FunctionRef<void(const ListedEntry&)> visit);
// The same, opening `dir` for the listing.
std::error_code list_directory(const std::filesystem::path& dir,
                               FunctionRef<void(const ListedEntry&)> visit);

}  // namespace kepoch
