#include "kepoch/base/spilled_lists.hpp"

#include <cerrno>
#include <cstring>

#include <sys/mman.h>
#include <unistd.h>

#include "kepoch/base/error.hpp"

namespace kepoch {
namespace {

[[noreturn]] void fail(const std::string& what, const char* doing, int error) {
  throw InputError("temporary file",
                   std::string("cannot ") + doing + " " + what + ": " + std::strerror(error));
}

}  // namespace

std::FILE* anonymous_temporary_file(const std::string& what) {
  if (std::FILE* f = std::tmpfile()) return f;
  const int tmpfile_errno = errno;
  const int fd = ::memfd_create("kepoch-spill", MFD_CLOEXEC);
  if (fd >= 0) {
    if (std::FILE* f = ::fdopen(fd, "w+")) return f;
    ::close(fd);
  }
  fail(what, "create one for", tmpfile_errno);
}

SpilledLists::SpilledLists(std::string what)
    : what_(std::move(what)), file_(anonymous_temporary_file(what_)) {}

SpilledLists::~SpilledLists() {
  std::fclose(file_);
}

std::size_t SpilledLists::add_list() {
  lists_.emplace_back();
  return lists_.size() - 1;
}

void SpilledLists::write_tail(List& l) {
  if (l.tail.empty()) return;
  if (!at_end_ && ::fseeko(file_, static_cast<off_t>(end_), SEEK_SET) != 0)
    fail(what_, "write", errno);
  at_end_ = true;
  if (std::fwrite(l.tail.data(), 1, l.tail.size(), file_) != l.tail.size())
    fail(what_, "write", errno);
  l.chunks.emplace_back(end_, static_cast<std::uint32_t>(l.tail.size()));
  end_ += l.tail.size();
  l.tail.clear();
}

void SpilledLists::append(std::size_t list, std::string_view text) {
  List& l = lists_[list];
  const auto bytes = static_cast<std::uint32_t>(text.size());
  char length[4];
  std::memcpy(length, &bytes, sizeof length);
  l.tail.append(length, sizeof length);
  l.tail.append(text);
  ++l.size;
  if (l.tail.size() >= kChunk) write_tail(l);
}

void SpilledLists::clear(std::size_t list) {
  List& l = lists_[list];
  l.chunks.clear();
  l.tail.clear();
  l.size = 0;
}

void SpilledLists::for_each(std::size_t list, const std::function<void(std::string_view)>& f) {
  const List& l = lists_[list];
  const auto each = [&f](std::string_view chunk) {
    while (!chunk.empty()) {
      std::uint32_t bytes = 0;
      std::memcpy(&bytes, chunk.data(), sizeof bytes);
      f(chunk.substr(sizeof bytes, bytes));
      chunk.remove_prefix(sizeof bytes + bytes);
    }
  };
  // The chunks written so far out of the stream's buffer first: a full disk met here is the
  // write's failure, said as one (fseeko's own flush would say "read").
  if (!l.chunks.empty() && (std::fflush(file_) != 0 || std::ferror(file_)))
    fail(what_, "write", errno);
  std::string chunk;
  for (const auto& [offset, bytes] : l.chunks) {
    at_end_ = false;
    if (::fseeko(file_, static_cast<off_t>(offset), SEEK_SET) != 0) fail(what_, "read", errno);
    chunk.resize(bytes);
    if (std::fread(chunk.data(), 1, bytes, file_) != bytes) fail(what_, "read", errno);
    each(chunk);
  }
  each(l.tail);
}

}  // namespace kepoch
